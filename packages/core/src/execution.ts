import { describeValue, InvalidInputError } from "@sched/errors";
import { requireResourceFields } from "./job.js";
import { requirePlatform } from "./platform.js";
import type { Allocation, Job, Platform } from "./types.js";

/**
 * Turns a job and an allocation into a duration. `seconds` is the work to time, expressed as a
 * run time at the job's benchmark (the engine passes `job.runtime`; a policy may ask for
 * `job.estimate`). Must return a finite number > 0 for `seconds` > 0 and be a pure function of
 * its arguments.
 *
 * `now` is the start time of the execution interval being timed: the engine passes the time of
 * each start (and resume), `view.duration` passes now (or the start the policy names), and
 * `checkSchedule` passes each interval's start. The rate fixed at the start holds for the
 * whole interval (the engine schedules the completion then and does not ask again), so a model
 * may depend on the start time (a drift, a time-of-day speed) but not on what starts or ends
 * during the interval. `now` is `undefined` when a caller does not know it (a model called
 * directly); a time-dependent model must then pick a documented default. Models that ignore
 * time simply leave the parameter out.
 *
 * Contention (optional, {@link ExecutionModel.slowdowns}): a model that also defines
 * `slowdowns` is rate-based. A running job then progresses at `1 / (duration * slowdown)` of
 * its work per second, where `duration` is fixed at its start as above and `slowdown` is what
 * `slowdowns` returns for it given the whole set of jobs running at that moment. The engine asks
 * again whenever the running set changes (after each batch of events in which a job started,
 * was preempted or completed), keeps each job's progress, and moves its completion event when
 * its slowdown changed. Without `slowdowns` (every model before this hook existed) nothing
 * changes: the duration fixed at the start holds for the whole interval.
 */
export interface ExecutionModel {
  /** Name recorded in reports. */
  readonly name?: string;
  duration(
    job: Job,
    allocation: Allocation,
    platform: Platform,
    seconds: number,
    now?: number,
  ): number;
  /**
   * Optional contention hook: the slowdown of each job of `running` (the jobs running together,
   * by start time then id) caused by running alongside the others, as a factor on its
   * {@link ExecutionModel.duration}: 1 = as fast as alone, 2 = half its speed alone. Entry `i`
   * of the result belongs to `running[i]`; each must be a finite number > 0. Must be a pure
   * function of the set (the engine calls it only when the set changes, and `checkSchedule`
   * calls it once per stretch of time in which the set is constant).
   */
  slowdowns?(running: readonly RunningSetEntry[], platform: Platform): ArrayLike<number>;
}

/** A job of the running set passed to {@link ExecutionModel.slowdowns}. */
export interface RunningSetEntry {
  readonly job: Job;
  readonly allocation: Allocation;
}

/**
 * The benchmark that a job's runtime refers to: `job.benchmark`, else the platform's
 * `referenceSpeed` (the convergent paper's `BM_ref`).
 *
 * @throws InvalidInputError naming the field when `job.benchmark` is neither absent nor a finite
 * number > 0 (or another field a resource question reads is invalid), or `platform` not one
 * `validatePlatform` accepts.
 *
 * @example
 * ```ts
 * benchmarkOf({ ...job, benchmark: 400 }, platform); // 400
 * ```
 */
export function benchmarkOf(job: Job, platform: Platform): number {
  const where = "@sched/core/benchmarkOf";
  if (job !== checkedJob) {
    requireResourceFields(where, "job", job, false);
    checkedJob = job;
  }
  if (platform !== checkedPlatform) {
    requirePlatform(where, "platform", platform);
    checkedPlatform = platform;
  }
  return job.benchmark ?? platform.referenceSpeed;
}

// The job and platform {@link benchmarkOf} checked last (a policy asks about one job on machine
// after machine, or many jobs on one platform): each checked once per run of questions.
let checkedJob: unknown;
let checkedPlatform: unknown;

/**
 * The default execution model: `seconds * benchmark(job) / min speed` over the allocation's
 * machines (the convergent paper's `BM_ref / BM_m`, the slowest machine setting the pace).
 *
 * Complexity: O(allocation parts).
 *
 * @example
 * ```ts
 * // machine 0 has speed 2, referenceSpeed 1: a 100 s job takes 50 s there
 * defaultExecutionModel.duration(job, [{ machine: 0, cores: 1 }], platform, 100); // 50
 * ```
 */
export const defaultExecutionModel: ExecutionModel = Object.freeze({
  name: "benchmark-ratio",
  duration(job: Job, allocation: Allocation, platform: Platform, seconds: number): number {
    if (platform !== durationPlatform) {
      requirePlatform(DURATION, "platform", platform);
      durationPlatform = platform;
    }
    if (typeof job !== "object" || job === null || Array.isArray(job)) {
      throw new InvalidInputError(DURATION, "job", `is ${describeValue(job)}, expected a job`);
    }
    const benchmark = job.benchmark;
    if (
      benchmark !== undefined &&
      (typeof benchmark !== "number" || !(benchmark > 0) || benchmark === Number.POSITIVE_INFINITY)
    ) {
      throw new InvalidInputError(
        DURATION,
        "job.benchmark",
        `is ${describeValue(benchmark)}, expected a finite number > 0 (or none)`,
      );
    }
    if (typeof seconds !== "number" || !(seconds >= 0) || seconds === Number.POSITIVE_INFINITY) {
      throw new InvalidInputError(
        DURATION,
        "seconds",
        `is ${describeValue(seconds)}, expected a finite number >= 0`,
      );
    }
    return (
      ((benchmark ?? platform.referenceSpeed) * seconds) / checkedSlowestSpeed(allocation, platform)
    );
  },
});

/** Where {@link defaultExecutionModel}'s errors come from. */
const DURATION = "@sched/core/defaultExecutionModel.duration";
// The platform the default model checked last (the engine and a policy ask about one platform).
let durationPlatform: unknown;

/**
 * {@link slowestSpeed}, checking that `allocation` is a non-empty array of parts on machines of
 * `platform` (the only field the default model reads). O(allocation parts).
 */
function checkedSlowestSpeed(allocation: Allocation, platform: Platform): number {
  if (!Array.isArray(allocation) || allocation.length === 0) {
    throw new InvalidInputError(
      DURATION,
      "allocation",
      Array.isArray(allocation)
        ? "is empty, expected at least one part"
        : `is ${describeValue(allocation)}, expected an array of parts`,
    );
  }
  const machines = platform.machines;
  let slowest = Number.POSITIVE_INFINITY;
  for (let i = 0; i < allocation.length; i++) {
    const part = allocation[i];
    if (typeof part !== "object" || part === null) {
      throw new InvalidInputError(
        DURATION,
        `allocation[${i}]`,
        `is ${describeValue(part)}, expected a part { machine, cores }`,
      );
    }
    const m = part.machine;
    const machine = Number.isInteger(m) ? machines[m] : undefined;
    if (machine === undefined) {
      throw new InvalidInputError(
        DURATION,
        `allocation[${i}].machine`,
        `is ${describeValue(m)}, expected a machine index from 0 to ${machines.length - 1}`,
      );
    }
    if (machine.speed < slowest) slowest = machine.speed;
  }
  return slowest;
}

/**
 * The slowest speed among the allocation's machines: the default model's divisor. Internal.
 * Complexity: O(allocation parts).
 */
export function slowestSpeed(allocation: Allocation, platform: Platform): number {
  const machines = platform.machines;
  let slowest = Number.POSITIVE_INFINITY;
  for (let i = 0; i < allocation.length; i++) {
    const speed = machines[allocation[i]!.machine]!.speed;
    if (speed < slowest) slowest = speed;
  }
  return slowest;
}

/**
 * The speed shared by every machine of `platform`, or NaN when speeds differ (or there is no
 * machine): on such a platform every allocation's slowest speed is that speed. Internal.
 * Complexity: O(machines).
 */
export function uniformSpeed(platform: Platform): number {
  const machines = platform.machines;
  if (machines.length === 0) return Number.NaN;
  const speed = machines[0]!.speed;
  for (let i = 1; i < machines.length; i++) if (machines[i]!.speed !== speed) return Number.NaN;
  return speed;
}
