import type { Allocation, Job, Platform } from "./types.js";

/** A job in the queue: never started, or preempted with some work done. */
export interface WaitingJob {
  readonly job: Job;
  /** Fraction of the job's work already done, in [0, 1) (0 unless it was preempted). */
  readonly progress: number;
  /** How many times it was preempted. */
  readonly preemptions: number;
}

/** A job that is running now. */
export interface RunningJob {
  readonly job: Job;
  readonly allocation: Allocation;
  /** Start of the current execution interval. */
  readonly start: number;
  /** Fraction of the work done at `start`. */
  readonly progressAtStart: number;
  /** Fraction of the work done now, in [0, 1]. */
  readonly progress: number;
  /**
   * When the job would end if its estimate were exact: `start + (1 - progressAtStart) *`
   * the estimate's duration on this allocation. What a policy may plan with. Under a
   * contention model (`ExecutionModel.slowdowns`) it is updated whenever the job's slowdown
   * changes, to `t + (1 - progress at t) * estimate's duration * slowdown` (the end if the
   * current rate held).
   */
  readonly estimatedEnd: number;
}

/**
 * What a policy sees: read-only, valid during one `schedule` call.
 *
 * Liveness during a call: free cores and licenses, `totalFreeCores`, `isWaiting` and
 * `isRunning` change at once when the policy acts. The `waiting` array you read does NOT change
 * during the call (so you can iterate it while starting jobs): jobs you start or reject stay in
 * it until the call returns (test `isWaiting(id)` when you walk it twice), and jobs you preempt
 * re-enter it when the call returns. A job you start is added to `running` at once; a job you
 * preempt leaves `running` when the call returns.
 */
export interface SchedulerView {
  readonly now: number;
  readonly platform: Platform;
  /**
   * Waiting jobs in queue order: by submit time, then by id (preempted jobs keep their place).
   * The engine hands out a real array that starts at the queue's head, so the first read in a
   * call after the head left the queue costs O(queue) on queues longer than about 16k entries;
   * a policy that looks only at the first few jobs of a long queue should use
   * {@link SchedulerView.waitingAt} and {@link SchedulerView.waitingCount} instead.
   */
  readonly waiting: readonly WaitingJob[];
  /**
   * `waiting.length`, in O(1) without building the `waiting` array; it follows the same rule
   * during a call (jobs started or rejected in the call still count until it returns).
   * A hand-made view (a test, a live loop) gets it from `makeView` in `@sched/core/testing`.
   */
  readonly waitingCount: number;
  /**
   * `waiting[index]` (undefined outside `0 .. waitingCount - 1`), in O(1) without building the
   * `waiting` array, with the same snapshot rule during a call.
   *
   * @example
   * ```ts
   * // FCFS that never materialises a long queue
   * for (let i = 0; i < view.waitingCount; i++) {
   *   const w = view.waitingAt(i)!;
   *   const a = firstFitAllocation(view, w.job.cores);
   *   if (a === null) break;
   *   ctx.start(w.job.id, a);
   * }
   * ```
   */
  waitingAt(index: number): WaitingJob | undefined;
  /** Running jobs, by start time then id. */
  readonly running: readonly RunningJob[];
  /** Free cores on machine `machine`. */
  freeCores(machine: number): number;
  /** Free cores on all machines. */
  readonly totalFreeCores: number;
  /** Free copies of `license` usable on `machine` (for floating licenses, the shared pool). */
  freeLicenses(license: string, machine: number): number;
  /**
   * Duration of `job` (from progress 0) on `allocation` if its runtime were `seconds` at
   * reference speed, for an interval starting at `start` (default: now; passed to the execution
   * model as its `now`, so a time-dependent model can be asked about a planned future start).
   */
  duration(job: Job, allocation: Allocation, seconds: number, start?: number): number;
  /** True when job `jobId` is waiting now (arrived, not started, not rejected, or preempted). O(1). */
  isWaiting(jobId: number): boolean;
  /** True when job `jobId` is running now. O(1). */
  isRunning(jobId: number): boolean;
  /**
   * The lowest machine index >= `from` with a free core, or -1; O(log machines) in the engine's
   * view.
   */
  nextFreeMachine(from: number): number;
}

/** What happened since the previous `schedule` call, and the verbs a policy acts with. */
export interface SchedulingContext {
  readonly view: SchedulerView;
  /** Jobs that arrived in this batch of same-time events, in queue order. */
  readonly arrived: readonly Job[];
  /** Jobs that completed in this batch. */
  readonly completed: readonly Job[];
  /** True when a timer set with `wakeAt` fired in this batch. */
  readonly woken: boolean;
  /**
   * Waiting jobs whose ready time (`job.ready` > `job.submit`) came in this batch: the engine
   * calls `schedule` at each such time so a policy need not set a timer for it.
   */
  readonly ready: readonly Job[];
  /**
   * Start (or resume) waiting job `jobId` on `allocation` now. Throws ConstraintViolationError
   * naming the job and the resource when the allocation does not fit.
   */
  start(jobId: number, allocation: Allocation): void;
  /** Suspend running job `jobId`, keeping its progress; it goes back to the queue. */
  preempt(jobId: number): void;
  /** Reject waiting job `jobId` for good. */
  reject(jobId: number, reason: string): void;
  /**
   * Call `schedule` again at time `t` (> now) even if nothing else happens. Throws
   * InvalidInputError when `t` is not a finite number > now.
   */
  wakeAt(t: number): void;
}

/**
 * A scheduling policy. The engine calls `schedule` once per batch of same-time events, after it
 * applied them (completions, then arrivals, then timers). A policy keeps whatever state it likes
 * between calls; `reset` is called before a run so one instance can run several simulations.
 */
export interface Scheduler {
  readonly name: string;
  reset?(platform: Platform): void;
  schedule(ctx: SchedulingContext): void;
}
