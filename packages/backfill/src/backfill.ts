import { type BackfillOptions, resolveBackfill } from "./options.js";
import { schedulerOf } from "./scheduler.js";
import { backfillStrategy } from "./select.js";
import type { BackfillScheduler } from "./strategy.js";

/**
 * Queue-based backfilling with a configurable reservation depth and queue order: the one policy
 * behind FCFS-like strict order (`reservations: 0`), EASY (`1`), k-reservation backfilling and
 * conservative backfilling (`Infinity`), and flexible backfilling (a priority `order`,
 * `keepReservations` for BF-unrm). Each depth and placement is a strategy of its own
 * (strict order, finite depth, conservative, and their single-machine forms); this factory
 * picks it and adapts it to the engine. `backfillPass(state, options)` runs the same strategy
 * on a plain state.
 *
 * At every scheduling event the policy rejects arrived jobs that can never run, orders the
 * queue, and walks it:
 * - finite depth: a job starts now when it fits in the free cores and licenses now and in the
 *   availability plan (running jobs release at their estimated end, reservations made so far in
 *   this pass hold their interval) for its whole planned duration; otherwise, while fewer than
 *   `reservations` jobs hold one, it gets a reservation at the earliest time the plan allows;
 *   with 0 reservations the walk stops at the first job that does not fit.
 * - `Infinity` (conservative): see `conservative()`.
 *
 * Planned durations are estimates (on the slowest machine on a heterogeneous platform). With
 * `order: "fcfs"`, a job's reservation never moves later while estimates are upper bounds of
 * run times (the head's, for EASY; every job's, for conservative).
 *
 * Complexity per event, Q waiting and R running jobs: O(Q) to walk the queue (plus, for an order
 * other than FCFS, O(Q + A log Q) for a named one, A jobs new since the last event, and
 * O(Q log Q) for a custom one), O(R) to build the plan (the running jobs' releases stay sorted
 * between events, plus O(D) per job started or ended since, for D distinct estimated ends),
 * O(S) per reservation or start and O(log S + window) per job checked (S segments
 * <= R + 2k + started).
 *
 * @throws InvalidInputError when an option is invalid (or a priority function returns NaN).
 * @example
 * simulate(jobs, identicalPool(128), backfill({ reservations: 1, order: "sjf" }));
 */
export function backfill(options?: BackfillOptions): BackfillScheduler {
  return schedulerOf(backfillStrategy(resolveBackfill(options)));
}
