import {
  describeValue,
  InvalidInputError,
  optionKeys,
  requireArray,
  requireFinite,
  requireInteger,
  requireKnownKeys,
  requireObject,
} from "@sched/errors";
import { defaultExecutionModel, type ExecutionModel } from "../execution.js";
import { requireJob } from "../job.js";
import { ResourceLedger } from "../ledger.js";
import type { RunningJob, SchedulerView, WaitingJob } from "../scheduler.js";
import type { Allocation, Job, Platform } from "../types.js";

const WHERE = "@sched/core/testing/makeView";

/** Options of {@link makeView}. */
export interface MakeViewOptions {
  /** The view's current time. @defaultValue `0` */
  readonly now?: number;
  /**
   * The queue, in queue order. A bare `Job` becomes `{ job, progress: 0, preemptions: 0 }`.
   * @defaultValue `[]`
   */
  readonly waiting?: readonly (Job | WaitingJob)[];
  /** The running jobs; their allocations and licenses are taken from the platform. @defaultValue `[]` */
  readonly running?: readonly RunningJob[];
  /**
   * Free cores per machine, replacing what the platform minus the running jobs leaves (for a
   * test that wants a given free-core shape without building running jobs).
   * `totalFreeCores` and `nextFreeMachine` follow it.
   * @defaultValue each machine's cores minus those of the running jobs on it
   */
  readonly freeCores?: readonly number[];
  /**
   * Free copies of `license` usable on `machine`, replacing the ledger's answer.
   * @defaultValue the platform's copies minus those the running jobs hold
   */
  readonly freeLicenses?: (license: string, machine: number) => number;
  /** The execution model behind `view.duration`. @defaultValue `defaultExecutionModel` */
  readonly executionModel?: ExecutionModel;
}

/** The keys of {@link MakeViewOptions}, all of them (checked by the compiler). */
const MAKE_VIEW_KEYS = optionKeys<MakeViewOptions>({
  now: true,
  waiting: true,
  running: true,
  freeCores: true,
  freeLicenses: true,
  executionModel: true,
});

/**
 * A complete {@link SchedulerView} built from plain data, for tests and for driving a policy by
 * hand: every member the engine's view has, consistent with each other (free cores, their
 * total and `nextFreeMachine` agree; `waitingAt`/`waitingCount` mirror `waiting`). It is a
 * snapshot: nothing in it changes (a policy acting on it needs its own context).
 *
 * Complexity: O(machines + running parts + waiting) to build; `nextFreeMachine` O(machines).
 *
 * @throws InvalidInputError naming the option and the field when `now` is not finite, a waiting
 * or running entry is malformed (its job one `createJob` would refuse, a progress outside
 * [0, 1], a time not finite), `freeLicenses` is not a function, `executionModel` has no
 * `duration` function, `freeCores` does not have one entry per machine, or an entry is not an
 * integer in `0 .. machine cores`.
 * @throws ConstraintViolationError when the running jobs do not fit on the platform.
 *
 * @example
 * ```ts
 * const view = makeView(identicalPool(4), { freeCores: [1, 0, 1, 1] });
 * view.totalFreeCores; // 3
 * view.nextFreeMachine(1); // 2
 * ```
 */
export function makeView(platform: Platform, options: MakeViewOptions = {}): SchedulerView {
  requireKnownKeys("@sched/core/testing/makeView", "options", options, MAKE_VIEW_KEYS);
  const now = requireFinite(WHERE, "options.now", options.now ?? 0);
  const ledger = new ResourceLedger(platform);
  const running = requireArray(WHERE, "options.running", options.running ?? []) as RunningJob[];
  running.forEach((r, i) => {
    const field = `options.running[${i}]`;
    requireObject(WHERE, field, r);
    requireJob(WHERE, `${field}.job`, r.job);
    requireFinite(WHERE, `${field}.start`, r.start);
    requireFraction(`${field}.progressAtStart`, r.progressAtStart, true);
    requireFraction(`${field}.progress`, r.progress, true);
    requireFinite(WHERE, `${field}.estimatedEnd`, r.estimatedEnd);
    ledger.take(r.job, r.allocation, WHERE);
  });
  const free = freeCoresOf(platform, ledger, options.freeCores);
  const total = free.reduce((a, b) => a + b, 0);
  const given = requireArray(WHERE, "options.waiting", options.waiting ?? []);
  const waiting: readonly WaitingJob[] = given.map((raw, i) => {
    const field = `options.waiting[${i}]`;
    const w = requireObject(WHERE, field, raw) as Job | WaitingJob;
    if (!("job" in w)) return { job: requireJob(WHERE, field, w), progress: 0, preemptions: 0 };
    requireJob(WHERE, `${field}.job`, w.job);
    requireFraction(`${field}.progress`, w.progress, false);
    requireInteger(WHERE, `${field}.preemptions`, w.preemptions, 0);
    return w;
  });
  if (options.freeLicenses !== undefined && typeof options.freeLicenses !== "function") {
    throw new InvalidInputError(
      WHERE,
      "options.freeLicenses",
      `is ${describeValue(options.freeLicenses)}, expected a function (license, machine) => copies`,
    );
  }
  const m = options.executionModel;
  if (m !== undefined) {
    requireObject(WHERE, "options.executionModel", m);
    if (typeof m.duration !== "function") {
      throw new InvalidInputError(
        WHERE,
        "options.executionModel.duration",
        `is ${describeValue(m.duration)}, expected a function`,
      );
    }
    if (m.name !== undefined && typeof m.name !== "string") {
      throw new InvalidInputError(
        WHERE,
        "options.executionModel.name",
        `is ${describeValue(m.name)}, expected a string`,
      );
    }
  }
  const waitingIds = new Set(waiting.map((w) => w.job.id));
  const runningIds = new Set(running.map((r) => r.job.id));
  const model = options.executionModel ?? defaultExecutionModel;
  const licenses = options.freeLicenses ?? ((name, m) => ledger.freeLicenses(name, m));
  return {
    now,
    platform,
    waiting,
    waitingCount: waiting.length,
    waitingAt: (i: number) => (Number.isInteger(i) ? waiting[i] : undefined),
    running,
    freeCores: (m: number) => free[m] ?? 0,
    totalFreeCores: total,
    freeLicenses: licenses,
    duration: (job: Job, allocation: Allocation, seconds: number, start?: number) =>
      model.duration(job, allocation, platform, seconds, start ?? now),
    isWaiting: (id: number) => waitingIds.has(id),
    isRunning: (id: number) => runningIds.has(id),
    nextFreeMachine(from: number): number {
      for (let m = Math.max(0, Math.ceil(from)); m < free.length; m++) if (free[m]! > 0) return m;
      return -1;
    },
  };
}

/** A progress: a finite number in [0, 1] (`closed`) or [0, 1) (a waiting job's). */
function requireFraction(field: string, value: unknown, closed: boolean): void {
  if (typeof value !== "number" || !(value >= 0) || (closed ? !(value <= 1) : !(value < 1))) {
    throw new InvalidInputError(
      WHERE,
      field,
      `is ${describeValue(value)}, expected a number in [0, 1${closed ? "]" : ")"}`,
    );
  }
}

function freeCoresOf(
  platform: Platform,
  ledger: ResourceLedger,
  given: readonly number[] | undefined,
): number[] {
  const machines = platform.machines;
  if (given === undefined) return machines.map((_, m) => ledger.freeCores(m));
  if (given.length !== machines.length) {
    throw new InvalidInputError(
      WHERE,
      "options.freeCores",
      `has ${given.length} entries, expected one per machine (${machines.length})`,
    );
  }
  return given.map((c, m) => {
    if (!Number.isInteger(c) || c < 0 || c > machines[m]!.cores) {
      throw new InvalidInputError(
        WHERE,
        `options.freeCores[${m}]`,
        `is ${c}, expected an integer in 0..${machines[m]!.cores}`,
      );
    }
    return c;
  });
}
