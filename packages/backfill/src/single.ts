import type { Job, Platform, SchedulerView, SchedulingContext, WaitingJob } from "@sched/core";
import type { MachineOrder } from "./allocation.js";
import type { BackfillScheduler } from "./backfill.js";
import {
  holdersFirst,
  inQueueOrder,
  PlatformCache,
  readyTime,
  rejectImpossible,
  waitingExcept,
} from "./context.js";
import { MachinePlan } from "./machine-plan.js";
import type { QueueSorter } from "./order.js";

/** The resolved options the single-machine policies need. */
export interface SingleOptions {
  readonly reservations: number;
  readonly fcfsOrder: boolean;
  readonly sorter: QueueSorter;
  readonly keepReservations: boolean;
  readonly machineOrder: MachineOrder;
  /** Machine-exclusive: a machine runs at most one job at a time. */
  readonly exclusive: boolean;
  readonly name: string;
}

/** The planned duration of `w` on machine `m`: its remaining estimate there. */
function durationOn(view: SchedulerView, w: WaitingJob, m: number): number {
  const d = view.duration(w.job, [{ machine: m, cores: w.job.cores }], w.job.estimate);
  return w.progress > 0 ? d * (1 - w.progress) : d;
}

/**
 * True when machine `m` has the cores and license copies `job` needs free now (and, when
 * `exclusive`, runs no job).
 */
function freeNow(view: SchedulerView, job: Job, m: number, exclusive: boolean): boolean {
  const free = view.freeCores(m);
  if (free < job.cores) return false;
  if (exclusive && free < view.platform.machines[m].cores) return false;
  const lic = job.licenses;
  if (lic === undefined) return true;
  for (const name in lic) {
    const copies = lic[name];
    if (copies > 0 && view.freeLicenses(name, m) < copies) return false;
  }
  return true;
}

/** True when machine `m` has a free core now (when `exclusive`: runs no job). */
function mayTake(view: SchedulerView, m: number, exclusive: boolean): boolean {
  const free = view.freeCores(m);
  return exclusive ? free >= view.platform.machines[m].cores : free > 0;
}

/**
 * The earliest (machine, start) for `w` in `plan` from `from`: the machine where it can start
 * first, ties by machine order; `machine` -1 when no machine can ever host it.
 */
function earliestPlace(
  plan: MachinePlan,
  view: SchedulerView,
  order: Int32Array,
  w: WaitingJob,
  from: number,
): { machine: number; start: number; end: number } {
  let best = Number.POSITIVE_INFINITY;
  let machine = -1;
  let end = best;
  for (let k = 0; k < order.length; k++) {
    const m = order[k];
    if (!plan.canHost(w.job, m)) continue;
    const d = durationOn(view, w, m);
    // Only a strictly earlier start on a later machine in the order replaces the best.
    const t = plan.earliestOn(w.job, m, d, from, best);
    if (t < best) {
      best = t;
      machine = m;
      end = t + d;
    }
  }
  return { machine, start: best, end };
}

/**
 * Backfilling with every job on one machine (`singleMachine: true`), finite depth: the same
 * walk as `backfill`, planned per machine. A job starts now on the first machine, in machine
 * order, that has its cores and licenses free now and in the plan for its whole duration there;
 * a job that does not start gets, while fewer than `reservations` jobs hold one, a reservation
 * on the machine where it can start first. With `exclusive`, a machine runs one job at a time:
 * "free now" means idle, and the plan counts one slot per machine. Internal: users pass
 * `singleMachine: true` or `exclusive: true`.
 *
 * Complexity per event: O(Q log Q) to sort, O(M (log M + R + k) log) to build the plan when a
 * job cannot start, and O(M x (log S + S)) per reservation, O(M x (log S + window)) per job
 * checked, for M machines.
 */
export function singleMachineBackfill(opts: SingleOptions): BackfillScheduler {
  const cache = new PlatformCache(opts.machineOrder);
  const k = opts.reservations;
  const planner = new MachinePlan(opts.exclusive);
  let holders: number[] = [];
  const last = new Map<number, number>();

  const schedule = (ctx: SchedulingContext) => {
    const view = ctx.view;
    cache.prepare(view.platform);
    last.clear();
    const rejected = rejectImpossible(ctx, true);
    const waiting = waitingExcept(view.waiting, rejected);
    if (waiting.length === 0) {
      holders = [];
      return;
    }
    let queue = opts.sorter(waiting, view);
    if (opts.keepReservations && holders.length > 0) queue = holdersFirst(queue, holders);
    const now = view.now;
    const order = cache.order;

    if (k === 0) {
      for (const w of queue) {
        if (readyTime(w.job) > now) break;
        const alloc = cache.allocate(view, w.job, true, opts.exclusive);
        if (alloc === null) break;
        ctx.start(w.job.id, alloc);
      }
      return;
    }

    let plan: MachinePlan | null = null;
    let open: number[] | null = null;
    let reserved = 0;
    const nextHolders: number[] = [];
    for (const w of queue) {
      const job = w.job;
      const ready = readyTime(job);
      const maybeNow = ready <= now && job.cores <= view.totalFreeCores;
      if (!maybeNow && reserved >= k) continue;
      if (plan === null) {
        // No reservation yet: any machine where the job fits now will do.
        if (maybeNow) {
          const alloc = cache.allocate(view, job, true, opts.exclusive);
          if (alloc !== null) {
            ctx.start(job.id, alloc);
            continue;
          }
        }
        plan = planner.rebuild(view);
      } else if (maybeNow) {
        // The machines that could take a job now (some free core; idle when exclusive), in
        // machine order: the others fail freeNow whatever the job, so skipping them changes
        // nothing but the cost (O(M) once per call instead of once per queued job).
        if (open === null) {
          open = [];
          for (let i = 0; i < order.length; i++)
            if (mayTake(view, order[i], opts.exclusive)) open.push(order[i]);
        }
        let started = false;
        for (let i = 0; i < open.length; i++) {
          const m = open[i];
          if (!freeNow(view, job, m, opts.exclusive)) continue;
          const d = durationOn(view, w, m);
          if (!plan.fitsOn(job, m, now, now + d)) continue;
          ctx.start(job.id, [{ machine: m, cores: job.cores }]);
          plan.change(job, m, now, now + d, -1);
          if (!mayTake(view, m, opts.exclusive)) open.splice(i, 1);
          started = true;
          break;
        }
        if (started) continue;
      }
      if (reserved < k) {
        const p = earliestPlace(plan, view, order, w, Math.max(ready, now));
        if (p.machine >= 0 && p.start !== Number.POSITIVE_INFINITY) {
          plan.change(job, p.machine, p.start, p.end, -1);
          last.set(job.id, p.start);
          reserved++;
          if (opts.keepReservations) nextHolders.push(job.id);
        }
      }
    }
    holders = nextHolders;
  };

  return {
    name: opts.name,
    reset(p: Platform) {
      cache.clear();
      cache.prepare(p);
      holders = [];
      last.clear();
    },
    schedule,
    reservations: () => new Map(last),
  };
}

interface Reservation {
  readonly job: Job;
  machine: number;
  start: number;
  end: number;
}

/**
 * Conservative backfilling with every job on one machine (`reservations: Infinity,
 * singleMachine: true`). Every job gets, on arrival and in queue order, a reservation on the
 * machine where it can start first (ties by machine order). It starts on that machine at that
 * time, or earlier after compression: when a job completes before its planned end (or a
 * reservation is in the past), every reservation, in queue order, is given back and taken again
 * at the earliest (machine, start) then possible, which is never later while run times are at
 * most the estimates. A timer is set at the earliest future reservation. Internal.
 *
 * Complexity per event: O(V) to scan V reservations, O(M x S) per reservation made, and with
 * compression O(V x M x S) (every reservation is re-placed; M machines, S segments of a
 * machine's profile).
 */
export function singleMachineConservative(opts: SingleOptions): BackfillScheduler {
  const cache = new PlatformCache(opts.machineOrder);
  let res: Reservation[] = [];
  const held = new Map<number, Reservation>();
  const plan = new MachinePlan(opts.exclusive);
  let initialized = false;
  let wakeAt = Number.NaN;

  const place = (view: SchedulerView, w: WaitingJob, r: Reservation | null): Reservation | null => {
    const now = view.now;
    const p = earliestPlace(plan, view, cache.order, w, Math.max(readyTime(w.job), now));
    if (p.machine < 0 || p.start === Number.POSITIVE_INFINITY) return null;
    plan.change(w.job, p.machine, p.start, p.end, -1);
    if (r === null) return { job: w.job, machine: p.machine, start: p.start, end: p.end };
    r.machine = p.machine;
    r.start = p.start;
    r.end = p.end;
    return r;
  };

  const schedule = (ctx: SchedulingContext) => {
    const view = ctx.view;
    cache.prepare(view.platform);
    const now = view.now;
    const rejected = rejectImpossible(ctx, true);

    let compress = false;
    if (initialized) {
      plan.trimBefore(now);
      for (const job of ctx.completed) {
        const h = held.get(job.id);
        if (h === undefined) continue;
        held.delete(job.id);
        if (h.end > now) plan.change(job, h.machine, now, h.end, 1);
        compress = true;
      }
    }
    if (!initialized || view.running.length !== held.size) {
      held.clear();
      for (const r of view.running) {
        const machine = r.allocation.length > 0 ? r.allocation[0].machine : 0;
        held.set(r.job.id, { job: r.job, machine, start: r.start, end: r.estimatedEnd });
      }
      plan.rebuild(view, res);
      initialized = true;
      compress = true;
    }
    for (const r of res) if (r.start < now) compress = true;

    if (compress && res.length > 0) {
      if (!opts.fcfsOrder) res = inQueueOrder(res, opts.sorter, ctx);
      const byId = waitingById(view);
      const kept: Reservation[] = [];
      for (const r of res) {
        const give = Math.max(r.start, now);
        if (r.end > give) plan.change(r.job, r.machine, give, r.end, 1);
        const w = byId.get(r.job.id) ?? { job: r.job, progress: 0, preemptions: 0 };
        if (place(view, w, r) !== null) kept.push(r);
      }
      res = kept;
    }

    const arrived = ctx.arrived;
    if (arrived.length > 0) {
      const fresh: WaitingJob[] = [];
      for (const job of arrived) {
        if (rejected?.has(job.id)) continue;
        fresh.push({ job, progress: 0, preemptions: 0 });
      }
      const ordered = !opts.fcfsOrder && fresh.length > 1 ? opts.sorter(fresh, view) : fresh;
      for (const w of ordered) {
        const r = place(view, w, null);
        if (r !== null) res.push(r);
      }
    }

    let kept = 0;
    for (let i = 0; i < res.length; i++) {
      const r = res[i];
      if (r.start <= now && freeNow(view, r.job, r.machine, opts.exclusive)) {
        ctx.start(r.job.id, [{ machine: r.machine, cores: r.job.cores }]);
        held.set(r.job.id, r);
        continue;
      }
      res[kept++] = r;
    }
    res.length = kept;
    let next = Number.POSITIVE_INFINITY;
    for (const r of res) if (r.start > now && r.start < next) next = r.start;
    if (next !== Number.POSITIVE_INFINITY && next !== wakeAt) {
      ctx.wakeAt(next);
      wakeAt = next;
    }
  };

  return {
    name: opts.name,
    reset(p: Platform) {
      cache.clear();
      cache.prepare(p);
      res = [];
      held.clear();
      initialized = false;
      wakeAt = Number.NaN;
    },
    schedule,
    reservations() {
      const out = new Map<number, number>();
      for (const r of res) out.set(r.job.id, r.start);
      return out;
    },
  };
}

function waitingById(view: SchedulerView): Map<number, WaitingJob> {
  const m = new Map<number, WaitingJob>();
  for (const w of view.waiting) m.set(w.job.id, w);
  return m;
}
