import type { SchedulerView, WaitingJob } from "@sched/core";
import { InvalidInputError } from "@sched/core";
import type { MachineOrder } from "./allocation.js";
import {
  type BackfillOptions,
  type BackfillScheduler,
  backfill,
  resolvePlacement,
} from "./backfill.js";

/** Options of {@link easy} and {@link conservative}: those of `backfill` minus the depth. */
export type PresetOptions = Omit<BackfillOptions, "reservations">;

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
  return backfill({ ...options, reservations: 1 });
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
  return backfill({ ...options, reservations: Number.POSITIVE_INFINITY });
}

/** Options of {@link flexible}. */
export interface FlexibleOptions {
  /**
   * The priority of a waiting job, recomputed at every scheduling event (higher first; ties by
   * submit time, then id). Required.
   */
  readonly priority: (job: WaitingJob, view: SchedulerView) => number;
  /**
   * `"rm"` (BF-rm): the reservation moves to whichever job is first at each event.
   * `"unrm"` (BF-unrm): the job that got the reservation keeps it until it starts.
   * @defaultValue `"rm"`
   */
  readonly variant?: "rm" | "unrm";
  /**
   * Reservations held at a time.
   * @defaultValue `1` (as in the convergent-scheduling paper)
   */
  readonly reservations?: number;
  /** @defaultValue `"index"` */
  readonly machineOrder?: MachineOrder;
  /** Every job on one machine; see `BackfillOptions.singleMachine`. @defaultValue `false` */
  readonly singleMachine?: boolean;
  /** One job per machine at a time; see `BackfillOptions.exclusive`. @defaultValue `false` */
  readonly exclusive?: boolean;
  /**
   * @defaultValue `"bf-rm"` or `"bf-unrm"`, with `"+single"` appended for `singleMachine`
   * (`"+excl"` for `exclusive`)
   */
  readonly name?: string;
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
  if (typeof options !== "object" || options === null || typeof options.priority !== "function") {
    throw new InvalidInputError(
      "@sched/backfill/flexible",
      "options.priority",
      "is missing, expected a function (job, view) => number",
    );
  }
  const variant = options.variant ?? "rm";
  if (variant !== "rm" && variant !== "unrm") {
    throw new InvalidInputError(
      "@sched/backfill/flexible",
      "options.variant",
      `is ${JSON.stringify(variant)}, expected "rm" or "unrm"`,
    );
  }
  const { singleMachine, exclusive } = resolvePlacement("@sched/backfill/flexible", options);
  const opts: BackfillOptions = {
    reservations: options.reservations ?? 1,
    order: { priority: options.priority },
    keepReservations: variant === "unrm",
    machineOrder: options.machineOrder ?? "index",
    singleMachine,
    exclusive,
    name: options.name ?? `bf-${variant}${exclusive ? "+excl" : singleMachine ? "+single" : ""}`,
  };
  return backfill(opts);
}
