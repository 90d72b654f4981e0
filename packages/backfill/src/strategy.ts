import type { Platform, Scheduler, SchedulingContext } from "@sched/core";

/** A planned start: job `id` may start at `time` (on `machine`, for the single-machine plans). */
export interface Reservation {
  readonly id: number;
  readonly time: number;
  /** The machine the plan keeps for the job (single-machine and exclusive plans only). */
  readonly machine?: number;
}

/**
 * The contract of every decision pass of the package (FCFS, finite-depth backfilling with EASY
 * and flexible backfilling, conservative backfilling, their single-machine forms, EDF): one
 * decision at one instant, read from `ctx.view` (the engine's view, or a view of a plain state
 * built by `backfillPass`) and written through `ctx` (start, reject, preempt, wake me at t).
 *
 * A strategy may remember between decisions (conservative keeps its plan and reservations;
 * BF-unrm who holds a reservation); `resume` seeds that memory from decisions made elsewhere,
 * which is how `backfillPass` runs a strategy on a plain state once. Internal: users build
 * strategies through the factories (`backfill`, `easy`, …) or `backfillPass`.
 */
export interface BackfillStrategy {
  /** The name in traces and reports. */
  readonly name: string;
  /** Plans and places every job on one machine: a job no machine can host alone is rejected. */
  readonly singleMachine: boolean;
  /** Decides at `ctx.view.now`: starts, rejects and preempts jobs, sets timers, through `ctx`. */
  decide(ctx: SchedulingContext): void;
  /** The reservations that exist after the latest decision, in the order they were made. */
  reservations(): Reservation[];
  /** Forgets every decision (a new run). */
  reset(platform: Platform): void;
  /**
   * Continues from decisions made elsewhere: `previous` are the reservations of the previous
   * decision (as {@link BackfillStrategy.reservations} returned them). `released` says whether
   * capacity may have come back since (a job completed), which makes conservative compress.
   */
  resume(previous: readonly Reservation[], released: boolean): void;
}

/** A backfilling scheduler for the engine that also tells where it planned the waiting jobs. */
export interface BackfillScheduler extends Scheduler {
  /**
   * The reservations after the latest `schedule` call: job id -> planned start time, for the
   * jobs that hold one (at most `reservations` of them; every waiting job under conservative).
   * A fresh map; O(V).
   */
  reservations(): Map<number, number>;
}
