import {
  type Allocation,
  benchmarkOf,
  type ExecutionModel,
  InvalidInputError,
  type Job,
  type Platform,
} from "@sched/core";
import { describeValue, optionKeys, requireKnownKeys, requireObject } from "@sched/errors";
import { Random } from "@sched/random";

/** A machine that slows down (or speeds up): from jobs submitted at `from` on, speed x `factor`. */
export interface SpeedDrift {
  readonly machine: number;
  /** Submit time from which the drift applies, seconds. */
  readonly from: number;
  /** Multiplier of the machine's true speed, > 0 (0.25: four times slower). */
  readonly factor: number;
}

/** Options of {@link hiddenSpeedModel}. */
export interface HiddenSpeedOptions {
  /** Each machine's true mean speed (index = machine id), > 0, in the platform's speed units. */
  readonly speeds: readonly number[];
  /**
   * Relative fluctuation: on each (machine, job) pair the speed is `mean * (1 + u)`, `u` uniform
   * in `[-fluctuation, fluctuation]`, drawn from the @sched/random stream `fluctuation/m<machine>/j<job id>` of `seed`. In [0, 1).
   * @defaultValue 0
   */
  readonly fluctuation?: number;
  /** Seed of the fluctuation. @defaultValue 1 */
  readonly seed?: number;
  /** Drifts; when several apply to one machine their factors multiply. @defaultValue none */
  readonly drifts?: readonly SpeedDrift[];
}

/** The keys of {@link HiddenSpeedOptions}, all of them (checked by the compiler). */
const HIDDEN_KEYS = optionKeys<HiddenSpeedOptions>({
  speeds: true,
  fluctuation: true,
  seed: true,
  drifts: true,
});

/**
 * An execution model in which machines perform as *they* do, not as the platform says: the true
 * speed of machine `m` on job `j` is `speeds[m] * (1 + u) * drift`, with `u` a per-(machine, job)
 * fluctuation and `drift` the product of the factors of the {@link SpeedDrift}s of `m` whose
 * `from <= j.submit`. A job's duration is `seconds * benchmark(job) / true speed` (the slowest
 * machine of the allocation). Pure and deterministic, as core requires. Policies keep seeing the
 * platform's `speed` figures, which may be stale or wrong: the point of the competitive paper.
 *
 * Drifts are keyed by the job's submit time, not its start time, because core's
 * `ExecutionModel.duration` receives no start time; in a system that is not saturated a job
 * starts soon after its submission, so this is a machine slowing down "from time `from` on".
 *
 * Complexity: O(allocation parts x drifts) per duration.
 *
 * @throws InvalidInputError when a speed is not > 0, `fluctuation` is outside [0, 1), a drift is
 *   malformed, or (during a run) a machine has no speed.
 * @example
 * ```ts
 * const model = hiddenSpeedModel({ speeds: [9, 5], drifts: [{ machine: 0, from: 1000, factor: 0.25 }] });
 * simulate(jobs, platform, policy, { executionModel: model });
 * ```
 */
export function hiddenSpeedModel(options: HiddenSpeedOptions): ExecutionModel {
  const where = "@sched/workload/hiddenSpeedModel";
  requireObject(where, "options", options);
  requireKnownKeys(where, "options", options, HIDDEN_KEYS);
  const given: unknown = options.speeds;
  if (!Array.isArray(given) && !(given instanceof Float64Array)) {
    throw new InvalidInputError(
      where,
      "options.speeds",
      `is ${describeValue(given)}, expected an array of speeds, one per machine`,
    );
  }
  const speeds = new Float64Array(given.length);
  for (let i = 0; i < given.length; i++) {
    const s: unknown = given[i];
    if (typeof s !== "number" || !(s > 0) || !Number.isFinite(s)) {
      throw new InvalidInputError(
        where,
        `options.speeds[${i}]`,
        `is ${describeValue(s)}, expected a number > 0`,
      );
    }
    speeds[i] = s;
  }
  const fluctuation = options.fluctuation ?? 0;
  if (typeof fluctuation !== "number" || !(fluctuation >= 0 && fluctuation < 1)) {
    throw new InvalidInputError(
      where,
      "options.fluctuation",
      `is ${describeValue(fluctuation)}, expected a number in [0, 1)`,
    );
  }
  const seed = options.seed ?? 1;
  if (!Number.isSafeInteger(seed)) {
    throw new InvalidInputError(
      where,
      "options.seed",
      `is ${describeValue(seed)}, expected a safe integer`,
    );
  }
  const drifts = (options.drifts ?? []).map((d, i) => {
    if (!Number.isInteger(d.machine) || d.machine < 0 || d.machine >= speeds.length) {
      throw new InvalidInputError(
        where,
        `options.drifts[${i}].machine`,
        `is ${d.machine}, expected a machine index`,
      );
    }
    if (!Number.isFinite(d.from)) {
      throw new InvalidInputError(
        where,
        `options.drifts[${i}].from`,
        `is ${d.from}, expected a finite number`,
      );
    }
    if (!(d.factor > 0) || !Number.isFinite(d.factor)) {
      throw new InvalidInputError(
        where,
        `options.drifts[${i}].factor`,
        `is ${d.factor}, expected a number > 0`,
      );
    }
    return d;
  });
  const trueSpeed = (m: number, job: Job): number => {
    const mean = speeds[m];
    if (mean === undefined) {
      throw new InvalidInputError(where, "allocation", `uses machine ${m}, which has no speed`);
    }
    let s = mean;
    if (fluctuation > 0) {
      // One draw of the stream of (seed, machine, job): the same however runs are ordered.
      s *= 1 + fluctuation * (2 * new Random(seed, `fluctuation/m${m}/j${job.id}`).next() - 1);
    }
    for (const d of drifts) if (d.machine === m && job.submit >= d.from) s *= d.factor;
    return s;
  };
  return Object.freeze({
    name: "hidden-speed",
    duration(job: Job, allocation: Allocation, platform: Platform, seconds: number): number {
      let slowest = Number.POSITIVE_INFINITY;
      for (const part of allocation) {
        const s = trueSpeed(part.machine, job);
        if (s < slowest) slowest = s;
      }
      return (seconds * benchmarkOf(job, platform)) / slowest;
    },
  });
}
