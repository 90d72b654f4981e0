import {
  InvalidInputError,
  type Job,
  type Platform,
  type Scheduler,
  type SchedulingContext,
} from "@sched/core";
import { checkMachineOrder, type MachineOrder } from "./allocation.js";
import { conservativeSchedule } from "./conservative.js";
import {
  holdersFirst,
  PlatformCache,
  readyTime,
  rejectImpossible,
  waitingExcept,
} from "./context.js";
import { type QueueOrder, type QueueSorter, queueSorter } from "./order.js";
import { Plan } from "./plan.js";
import { singleMachineBackfill, singleMachineConservative } from "./single.js";

const WHERE = "@sched/backfill/backfill";

/** Options of {@link backfill}. */
export interface BackfillOptions {
  /**
   * How many waiting jobs hold a reservation: `0` no backfilling (the queue order is strict:
   * the first job that does not fit stops the pass), `1` EASY (the first job that does not fit
   * gets a reservation, later jobs may start if they do not delay it), `k` the first `k` jobs
   * that do not fit, `Infinity` conservative (every job gets a reservation on arrival, kept and
   * compressed when a job ends earlier than its estimate). An integer >= 0 or `Infinity`.
   * @defaultValue `1`
   */
  readonly reservations?: number;
  /**
   * The queue order, recomputed at every scheduling event: `"fcfs"`, `"sjf"`,
   * `"largest-first"`, `"user-priority"`, a comparator `{ compare }` or a priority function
   * `{ priority }` (flexible backfilling). Ties always fall back to submit time, then id.
   * @defaultValue `"fcfs"`
   */
  readonly order?: QueueOrder;
  /**
   * Finite `reservations` only. `false`: reservations are recomputed from scratch at every
   * event for the first jobs in the current order (BF-rm: the reservation moves to the new
   * first job). `true`: a job that got a reservation keeps it, ahead of every other job, until
   * it starts (BF-unrm). Conservative always keeps its reservations.
   * @defaultValue `false`
   */
  readonly keepReservations?: boolean;
  /**
   * The order in which machines are tried when a job starts.
   * @defaultValue `"index"` (lowest index first)
   */
  readonly machineOrder?: MachineOrder;
  /**
   * Run every job on one machine (the farm shape, as the convergent paper's baselines do): a
   * job takes all its cores on the first machine, in `machineOrder`, that has them and its
   * licenses free now and in the plan, and the plan is kept per machine, so a reservation is a
   * machine and a start time. A job that no single machine can host (cores, licenses) is
   * rejected on arrival. `false`: a job's cores may span machines.
   * @defaultValue `false`
   */
  readonly singleMachine?: boolean;
  /**
   * Machine-exclusive placement (implies `singleMachine`): a machine runs at most one job at a
   * time, whatever its free cores, as in the convergent paper's model ("each machine is
   * executing only a single job at a time"). A job still gets exactly its `cores`, on one idle
   * machine with at least that many cores (and its licenses); the plan counts one slot per
   * machine, free again at the estimated end of the job on it, so a reservation is a machine
   * and the time it becomes idle. `singleMachine: false` with `exclusive: true` is an error.
   * @defaultValue `false`
   */
  readonly exclusive?: boolean;
  /**
   * The scheduler's name in traces and reports.
   * @defaultValue derived: `"fcfs"` for 0 reservations in FCFS order, `"easy"`, `"conservative"`,
   * `"backfill-k"`, with `"/<order>"` appended for another order, `"+keep"` for kept reservations
   * and `"+single"` for `singleMachine` (`"+excl"` for `exclusive`)
   */
  readonly name?: string;
}

interface Resolved {
  readonly reservations: number;
  readonly fcfsOrder: boolean;
  readonly sorter: QueueSorter;
  readonly keepReservations: boolean;
  readonly machineOrder: MachineOrder;
  readonly singleMachine: boolean;
  readonly exclusive: boolean;
  readonly name: string;
}

/** A backfilling scheduler that also tells where it planned the waiting jobs. */
export interface BackfillScheduler extends Scheduler {
  /**
   * The reservations after the latest `schedule` call: job id -> planned start time, for the
   * jobs that hold one (at most `reservations` of them; every waiting job under conservative).
   * A fresh map; O(V).
   */
  reservations(): Map<number, number>;
}

function resolveOptions(options: BackfillOptions | undefined): Resolved {
  const reservations = options?.reservations ?? 1;
  if (
    typeof reservations !== "number" ||
    !(
      reservations === Number.POSITIVE_INFINITY ||
      (Number.isInteger(reservations) && reservations >= 0)
    )
  ) {
    throw new InvalidInputError(
      WHERE,
      "options.reservations",
      `is ${String(reservations)}, expected an integer >= 0 or Infinity`,
    );
  }
  const order = options?.order ?? "fcfs";
  const sorter = queueSorter(order, WHERE, "options.order");
  const keepReservations = options?.keepReservations ?? false;
  if (typeof keepReservations !== "boolean") {
    throw new InvalidInputError(
      WHERE,
      "options.keepReservations",
      `is ${String(keepReservations)}, expected a boolean`,
    );
  }
  const machineOrder = checkMachineOrder(
    WHERE,
    "options.machineOrder",
    options?.machineOrder ?? "index",
  );
  const { singleMachine, exclusive } = resolvePlacement(WHERE, options);
  let name = options?.name;
  if (name === undefined) {
    const base =
      reservations === 0
        ? "fcfs"
        : reservations === 1
          ? "easy"
          : reservations === Number.POSITIVE_INFINITY
            ? "conservative"
            : `backfill-${reservations}`;
    const orderName = typeof order === "string" ? order : "custom";
    name = base + (orderName === "fcfs" ? "" : `/${orderName}`);
    if (keepReservations && reservations > 0 && reservations !== Number.POSITIVE_INFINITY)
      name += "+keep";
    if (exclusive) name += "+excl";
    else if (singleMachine) name += "+single";
  } else if (typeof name !== "string" || name.length === 0) {
    throw new InvalidInputError(WHERE, "options.name", "is empty, expected a non-empty string");
  }
  return {
    reservations,
    fcfsOrder: order === "fcfs",
    sorter,
    keepReservations,
    machineOrder,
    singleMachine,
    exclusive,
    name,
  };
}

/**
 * Reads and checks `singleMachine` and `exclusive` (which implies `singleMachine`; an explicit
 * `singleMachine: false` beside `exclusive: true` is an error). Internal.
 */
export function resolvePlacement(
  where: string,
  options: { readonly singleMachine?: boolean; readonly exclusive?: boolean } | undefined,
): { singleMachine: boolean; exclusive: boolean } {
  const single = options?.singleMachine;
  if (single !== undefined && typeof single !== "boolean") {
    throw new InvalidInputError(
      where,
      "options.singleMachine",
      `is ${String(single)}, expected a boolean`,
    );
  }
  const exclusive = options?.exclusive ?? false;
  if (typeof exclusive !== "boolean") {
    throw new InvalidInputError(
      where,
      "options.exclusive",
      `is ${String(exclusive)}, expected a boolean`,
    );
  }
  if (exclusive && single === false) {
    throw new InvalidInputError(
      where,
      "options.singleMachine",
      "is false, but exclusive: true runs every job on one machine; omit singleMachine or pass true",
    );
  }
  return { singleMachine: exclusive || single === true, exclusive };
}

/**
 * Queue-based backfilling with a configurable reservation depth and queue order: the one policy
 * behind FCFS-like strict order (`reservations: 0`), EASY (`1`), k-reservation backfilling and
 * conservative backfilling (`Infinity`), and flexible backfilling (a priority `order`,
 * `keepReservations` for BF-unrm).
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
 * Complexity per event, Q waiting and R running jobs: O(Q) to walk the queue (plus O(Q log Q)
 * for an order other than FCFS), O(R) to build the plan (the running jobs' releases stay sorted
 * between events, plus O(D) per job started or ended since, for D distinct estimated ends),
 * O(S) per reservation or start and O(log S + window) per job checked (S segments
 * <= R + 2k + started).
 *
 * @throws InvalidInputError when an option is invalid (or a priority function returns NaN).
 * @example
 * simulate(jobs, identicalPool(128), backfill({ reservations: 1, order: "sjf" }));
 */
export function backfill(options?: BackfillOptions): BackfillScheduler {
  const opts = resolveOptions(options);
  if (opts.singleMachine) {
    return opts.reservations === Number.POSITIVE_INFINITY
      ? singleMachineConservative(opts)
      : singleMachineBackfill(opts);
  }
  if (opts.reservations === Number.POSITIVE_INFINITY) {
    return conservativeSchedule(opts.name, opts.sorter, opts.machineOrder, opts.fcfsOrder);
  }
  const cache = new PlatformCache(opts.machineOrder);
  const k = opts.reservations;
  const planner = new Plan();
  // BF-unrm: ids of jobs that hold a kept reservation, in the order they got it (two buffers,
  // swapped at every call, so that no call allocates one).
  let holders: number[] = [];
  let nextHolders: number[] = [];
  // The reservations of the latest call: job ids and start times, the first `lastCount` entries
  // (the arrays are never truncated, so that their storage is reused).
  const lastIds: number[] = [];
  const lastTimes: number[] = [];
  let lastCount = 0;

  const schedule = (ctx: SchedulingContext) => {
    const view = ctx.view;
    cache.prepare(view.platform);
    lastCount = 0;
    const rejected = ctx.arrived.length > 0 ? rejectImpossible(ctx) : null;
    const all = view.waiting;
    const waiting = rejected === null ? all : waitingExcept(all, rejected);
    if (waiting.length === 0) {
      if (holders.length > 0) holders.length = 0;
      return;
    }
    let queue = opts.sorter(waiting, view);
    if (opts.keepReservations && holders.length > 0) queue = holdersFirst(queue, holders);
    const now = view.now;
    // Free cores now, read again after every start.
    let free = view.totalFreeCores;

    if (k === 0) {
      for (let i = 0; i < queue.length; i++) {
        const job = queue[i].job;
        if (readyTime(job) > now) break;
        const alloc = cache.allocate(view, job);
        if (alloc === null) break;
        ctx.start(job.id, alloc);
      }
      return;
    }

    // The plan is built when the first job cannot start: until a reservation exists, a job
    // fits in the plan exactly when it fits in the free resources now (the plan only grows
    // after now), and jobs started before the build are in `view.running` already.
    let plan: Plan | null = null;
    let reserved = 0;
    // The latest reservation, taken from the plan only when the plan is next asked (often it
    // is not: no later job fits in the free cores now).
    let pendJob: Job | null = null;
    let pendStart = 0;
    let pendEnd = 0;
    if (nextHolders.length > 0) nextHolders.length = 0;
    for (let i = 0; i < queue.length; i++) {
      const w = queue[i];
      const job = w.job;
      const maybeNow = job.cores <= free && readyTime(job) <= now;
      if (!maybeNow && reserved >= k) {
        // Every job needs a core: with none free and no reservation left to make, no later
        // job can start or reserve.
        if (free === 0) break;
        continue;
      }
      if (plan === null) {
        if (maybeNow) {
          const alloc = cache.allocate(view, job);
          if (alloc !== null) {
            ctx.start(job.id, alloc);
            free = view.totalFreeCores;
            continue;
          }
        }
        plan = planner.rebuild(view);
      } else if (maybeNow) {
        const d = cache.plannedDuration(ctx, w);
        if (pendJob !== null) {
          plan.change(pendJob, pendStart, pendEnd, -1);
          pendJob = null;
        }
        if (plan.fits(job, now, now + d)) {
          const alloc = cache.allocate(view, job);
          if (alloc !== null) {
            ctx.start(job.id, alloc);
            free = view.totalFreeCores;
            plan.change(job, now, now + d, -1);
            continue;
          }
        }
      }
      if (reserved < k) {
        const d = cache.plannedDuration(ctx, w);
        if (pendJob !== null) {
          plan.change(pendJob, pendStart, pendEnd, -1);
          pendJob = null;
        }
        const t = plan.earliest(job, d, Math.max(readyTime(job), now));
        if (t !== Number.POSITIVE_INFINITY) {
          pendJob = job;
          pendStart = t;
          pendEnd = t + d;
          lastIds[lastCount] = job.id;
          lastTimes[lastCount] = t;
          lastCount++;
          reserved++;
          if (opts.keepReservations) nextHolders.push(job.id);
        }
      }
    }
    const swap = holders;
    holders = nextHolders;
    nextHolders = swap;
  };

  return {
    name: opts.name,
    reset(p: Platform) {
      cache.clear();
      cache.prepare(p);
      holders.length = 0;
      lastCount = 0;
    },
    schedule,
    reservations: () => {
      const out = new Map<number, number>();
      for (let i = 0; i < lastCount; i++) out.set(lastIds[i], lastTimes[i]);
      return out;
    },
  };
}
