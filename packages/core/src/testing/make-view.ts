import { InvalidInputError, optionKeys, requireKnownKeys } from "@sched/errors";
import { defaultExecutionModel, type ExecutionModel } from "../execution.js";
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
 * @throws InvalidInputError when `now` is not finite, `freeCores` does not have one entry per
 * machine, or an entry is not an integer in `0 .. machine cores`.
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
  const now = options.now ?? 0;
  if (!Number.isFinite(now)) {
    throw new InvalidInputError(WHERE, "options.now", `is ${now}, expected a finite number`);
  }
  const ledger = new ResourceLedger(platform);
  const running = options.running ?? [];
  for (const r of running) ledger.take(r.job, r.allocation);
  const free = freeCoresOf(platform, ledger, options.freeCores);
  const total = free.reduce((a, b) => a + b, 0);
  const waiting: readonly WaitingJob[] = (options.waiting ?? []).map((w) =>
    "job" in w ? w : { job: w, progress: 0, preemptions: 0 },
  );
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
