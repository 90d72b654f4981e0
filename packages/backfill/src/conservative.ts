import type { Job, Platform, SchedulingContext, WaitingJob } from "@sched/core";
import type { MachineOrder } from "./allocation.js";
import type { BackfillScheduler } from "./backfill.js";
import { PlatformCache, readyTime, rejectImpossible } from "./context.js";
import type { QueueSorter } from "./order.js";
import { Plan, type PlannedInterval } from "./plan.js";

interface Reservation extends PlannedInterval {
  readonly job: Job;
  start: number;
  end: number;
}

/**
 * Conservative backfilling (the `reservations: Infinity` case of `backfill`). Internal: users
 * call `backfill({ reservations: Infinity })` or `conservative()`.
 *
 * The plan (free cores and licenses over time) is kept between events and updated in place:
 * a job that completes before its planned end gives back the rest of its interval; everything
 * before now is dropped (so a job running past its estimate counts as released now). At every
 * scheduling event, with the reservations in queue order:
 * 1. Compression, when a job completed in this batch or a reservation is in the past: each
 *    reservation, in queue order, is given back and taken again at the earliest start the plan
 *    then allows (never later than before while run times do not exceed estimates).
 * 2. Each arrival, in queue order, gets a reservation at the earliest start the plan allows.
 * 3. Every job whose reservation starts now starts, in queue order, when the free cores and
 *    licenses allow it (otherwise it keeps its reservation until the next compression).
 * 4. A timer is set at the earliest future reservation, so that it is honoured even when no
 *    completion happens then (after an overrun, or on a heterogeneous platform).
 *
 * Complexity per event: O(V) to scan V reservations, O(S) per reservation made, and with
 * compression O(V x S) (S <= R + 2V segments); a queue order other than FCFS adds a sort,
 * O(Q log Q), at each compression.
 */
export function conservativeSchedule(
  name: string,
  sorter: QueueSorter,
  machineOrder: MachineOrder,
  fcfsOrder: boolean,
): BackfillScheduler {
  const cache = new PlatformCache(machineOrder);
  let res: Reservation[] = [];
  // Jobs this policy started: id -> planned interval still held in the plan.
  const held = new Map<number, Reservation>();
  const plan = new Plan();
  let initialized = false;
  let wakeAt = Number.NaN;

  const reserve = (ctx: SchedulingContext, w: WaitingJob): void => {
    const now = ctx.view.now;
    const d = cache.plannedDuration(ctx, w);
    const t = plan.earliest(w.job, d, Math.max(readyTime(w.job), now));
    if (t === Number.POSITIVE_INFINITY) return;
    plan.change(w.job, t, t + d, -1);
    res.push({ job: w.job, start: t, end: t + d });
  };

  const schedule = (ctx: SchedulingContext) => {
    const view = ctx.view;
    cache.prepare(view.platform);
    const now = view.now;
    const rejected = rejectImpossible(ctx);

    let compress = false;
    if (initialized) {
      plan.trimBefore(now);
      for (const job of ctx.completed) {
        const h = held.get(job.id);
        if (h === undefined) continue;
        held.delete(job.id);
        if (h.end > now) plan.change(job, now, h.end, 1);
        compress = true;
      }
    }
    if (!initialized || view.running.length !== held.size) {
      // First call of a run, or running jobs this policy did not start: rebuild from the view.
      held.clear();
      for (const r of view.running) {
        held.set(r.job.id, { job: r.job, start: r.start, end: r.estimatedEnd });
      }
      plan.rebuild(view, res);
      initialized = true;
      compress = true;
    }
    for (const r of res) if (r.start < now) compress = true;

    if (compress && res.length > 0) {
      if (!fcfsOrder) res = inQueueOrder(res, sorter, ctx);
      for (const r of res) {
        const d = r.end - r.start;
        const from = Math.max(r.start, now);
        if (r.end > from) plan.change(r.job, from, r.end, 1);
        const t = plan.earliest(r.job, d, Math.max(readyTime(r.job), now));
        r.start = t;
        r.end = t + d;
        plan.change(r.job, t, t + d, -1);
      }
    }

    const arrived = ctx.arrived;
    if (arrived.length > 0) {
      const fresh: WaitingJob[] = [];
      for (const job of arrived) {
        if (rejected?.has(job.id)) continue;
        fresh.push({ job, progress: 0, preemptions: 0 });
      }
      const ordered = !fcfsOrder && fresh.length > 1 ? sorter(fresh, view) : fresh;
      for (const w of ordered) reserve(ctx, w);
    }

    let kept = 0;
    for (let i = 0; i < res.length; i++) {
      const r = res[i];
      if (r.start <= now) {
        const alloc = cache.allocate(view, r.job);
        if (alloc !== null) {
          ctx.start(r.job.id, alloc);
          held.set(r.job.id, r);
          continue;
        }
      }
      res[kept++] = r;
    }
    res.length = kept;
    // A reservation whose time is not an event (a job ran past its estimate, or a reserved job
    // planned on the slowest machine ran faster) still needs a call then: set a timer.
    let next = Number.POSITIVE_INFINITY;
    for (const r of res) if (r.start > now && r.start < next) next = r.start;
    if (next !== Number.POSITIVE_INFINITY && next !== wakeAt) {
      ctx.wakeAt(next);
      wakeAt = next;
    }
  };

  return {
    name,
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

/** The reservations re-ordered by the policy's queue order (which may change at every event). */
function inQueueOrder(
  res: Reservation[],
  sorter: QueueSorter,
  ctx: SchedulingContext,
): Reservation[] {
  const byId = new Map<number, Reservation>();
  for (const r of res) byId.set(r.job.id, r);
  const waiting = ctx.view.waiting.filter((w) => byId.has(w.job.id));
  const out: Reservation[] = [];
  for (const w of sorter(waiting, ctx.view)) {
    const r = byId.get(w.job.id);
    if (r !== undefined) out.push(r);
  }
  return out;
}
