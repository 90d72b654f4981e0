import { requireKnownKeys } from "@sched/errors";
import {
  type FlexibleOptions,
  flexibleAsBackfill,
  PRESET_KEYS,
  type PresetOptions,
  refusePresetDepth,
  resolveBackfill,
} from "./options.js";
import { schedulerOf } from "./scheduler.js";
import { backfillStrategy } from "./select.js";
import type { BackfillScheduler } from "./strategy.js";

/**
 * EASY backfilling (Lifka; Mu'alem & Feitelson): `backfill({ ...options, reservations: 1 })`.
 * The first job in the queue that cannot start gets a reservation from the running jobs'
 * estimated ends; later jobs start now when they fit and do not delay it.
 *
 * Complexity: see `backfill`.
 * @throws InvalidInputError when an option is invalid.
 * @example
 * simulate(jobs, identicalPool(100), easy()); // job for job the textbook EASY schedule
 */
export function easy(options?: PresetOptions): BackfillScheduler {
  const where = "@sched/backfill/easy";
  refusePresetDepth(where, "easy()", "1", options, "use backfill({ reservations })");
  requireKnownKeys(where, "options", options, PRESET_KEYS);
  return schedulerOf(backfillStrategy(resolveBackfill({ ...options, reservations: 1 }, where)));
}

/**
 * Conservative backfilling with compression: `backfill({ ...options, reservations: Infinity })`.
 * Every job gets a reservation on arrival; a job starts early only into a hole that delays no
 * reservation; when a job ends before its estimate, every reservation, in queue order, moves
 * to the earliest time then possible (never later).
 *
 * Complexity: see `backfill`.
 * @throws InvalidInputError when an option is invalid.
 * @example
 * simulate(jobs, identicalPool(100), conservative());
 */
export function conservative(options?: PresetOptions): BackfillScheduler {
  const where = "@sched/backfill/conservative";
  refusePresetDepth(where, "conservative()", "Infinity", options, "use backfill({ reservations })");
  requireKnownKeys(where, "options", options, PRESET_KEYS);
  return schedulerOf(
    backfillStrategy(
      resolveBackfill({ ...options, reservations: Number.POSITIVE_INFINITY }, where),
    ),
  );
}

/**
 * Flexible backfilling as in the convergent-scheduling paper's baselines (BF-rm, BF-unrm): the
 * queue is ordered by `priority`, recomputed at every event, and the first job that cannot start
 * holds the reservation; `variant` says whether the reservation follows the first job (`"rm"`)
 * or stays with the job that got it until it runs (`"unrm"`).
 * `backfill({ reservations: 1, order: { priority }, keepReservations: variant === "unrm" })`.
 *
 * Complexity: see `backfill`, plus Q priority calls per event.
 * @throws InvalidInputError when `priority` is not a function or another option is invalid.
 * @example
 * // the longest waiting job first
 * flexible({ priority: (w, view) => view.now - w.job.submit, variant: "unrm" });
 */
export function flexible(options: FlexibleOptions): BackfillScheduler {
  const where = "@sched/backfill/flexible";
  return schedulerOf(backfillStrategy(resolveBackfill(flexibleAsBackfill(options, where), where)));
}
