import type { Job, Platform, SchedulerView, SchedulingContext, WaitingJob } from "@sched/core";
import { inQueueOrder, PlatformCache, readyTime, rejectImpossible } from "../context.js";
import { MachinePlan } from "../machine-plan.js";
import type { ResolvedBackfill } from "../options.js";
import { durationOn, earliestPlace, freeNow, waitingById } from "../single-placement.js";
import type { BackfillStrategy, Reservation } from "../strategy.js";

interface Held {
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
 * Resumed (`resume`, the pure pass): the plan is rebuilt from the running jobs and the previous
 * reservations (a machine and a time each, held for the job's planned duration there), every
 * waiting job without one is reserved as an arrival, and compression runs when capacity may
 * have come back (`released`), a reservation is in the past, or the kept reservations overbook
 * the plan (a running job's end moved later).
 *
 * Complexity per event: O(V) to scan V reservations, O(M x S) per reservation made, and with
 * compression O(V x M x S) (every reservation is re-placed; M machines, S segments of a
 * machine's profile).
 */
export function singleConservative(opts: ResolvedBackfill): BackfillStrategy {
  const cache = new PlatformCache(opts.machineOrder);
  let res: Held[] = [];
  const held = new Map<number, Held>();
  const plan = new MachinePlan(opts.exclusive);
  let initialized = false;
  let wakeAt = Number.NaN;
  // Set by `resume`: the previous reservations to rebuild from at the next call, and whether
  // capacity may have come back since they were made.
  let resumed: readonly Reservation[] | null = null;
  let resumedReleased = true;

  const place = (view: SchedulerView, w: WaitingJob, r: Held | null): Held | null => {
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

  /**
   * Rebuilds the memory from the previous reservations (of the jobs still waiting, in the order
   * given) and the running jobs; returns the waiting jobs that hold no reservation, each with
   * its progress (a preempted job is placed for the work it has left).
   */
  const restore = (
    view: SchedulerView,
    previous: readonly Reservation[],
    rejected: Set<number> | null,
  ): WaitingJob[] => {
    const byId = waitingById(view);
    res = [];
    const reserved = new Set<number>();
    for (const p of previous) {
      const w = byId.get(p.id);
      const machine = p.machine ?? -1;
      if (w === undefined || machine < 0 || reserved.has(p.id) || rejected?.has(p.id)) continue;
      const d = durationOn(view, w, machine);
      res.push({ job: w.job, machine, start: p.time, end: p.time + d });
      reserved.add(p.id);
    }
    held.clear();
    for (const r of view.running) {
      const machine = r.allocation[0]?.machine ?? 0;
      held.set(r.job.id, { job: r.job, machine, start: r.start, end: r.estimatedEnd });
    }
    plan.rebuild(view, res);
    initialized = true;
    const fresh: WaitingJob[] = [];
    for (const w of view.waiting) {
      if (!reserved.has(w.job.id) && !rejected?.has(w.job.id)) fresh.push(w);
    }
    return fresh;
  };

  const decide = (ctx: SchedulingContext) => {
    const view = ctx.view;
    cache.prepare(view.platform);
    const now = view.now;
    const rejected = rejectImpossible(ctx, true);

    let compress = false;
    // The jobs to reserve at this call: the arrivals (no progress), or, resumed, every waiting
    // job without one (`restored`, with its progress).
    let arrived: readonly Job[] = ctx.arrived;
    let restored: readonly WaitingJob[] | null = null;
    if (resumed !== null) {
      restored = restore(view, resumed, rejected);
      arrived = restored.map((w) => w.job);
      // Capacity may have come back, or been taken (a running job's end moved later: the kept
      // reservations overbook the plan).
      compress = resumedReleased || plan.overbookedFrom(now);
      resumed = null;
    } else if (initialized) {
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
        const machine = r.allocation[0]?.machine ?? 0;
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
      const kept: Held[] = [];
      for (const r of res) {
        const give = Math.max(r.start, now);
        if (r.end > give) plan.change(r.job, r.machine, give, r.end, 1);
        const w = byId.get(r.job.id) ?? { job: r.job, progress: 0, preemptions: 0 };
        if (place(view, w, r) !== null) kept.push(r);
      }
      res = kept;
    }

    if (arrived.length > 0) {
      const fresh: WaitingJob[] = [];
      for (let i = 0; i < arrived.length; i++) {
        const job = arrived[i]!;
        if (rejected?.has(job.id)) continue;
        fresh.push(restored === null ? { job, progress: 0, preemptions: 0 } : restored[i]!);
      }
      const ordered = !opts.fcfsOrder && fresh.length > 1 ? opts.arrivalSorter(fresh, view) : fresh;
      for (const w of ordered) {
        const r = place(view, w, null);
        if (r !== null) res.push(r);
      }
    }

    let kept = 0;
    for (let i = 0; i < res.length; i++) {
      const r = res[i]!;
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
    singleMachine: true,
    decide,
    resume(previous: readonly Reservation[], releasedSince: boolean) {
      resumed = previous;
      resumedReleased = releasedSince;
    },
    reset(p: Platform) {
      cache.clear();
      cache.prepare(p);
      res = [];
      held.clear();
      initialized = false;
      wakeAt = Number.NaN;
      resumed = null;
    },
    reservations() {
      const out: Reservation[] = [];
      for (const r of res) out.push({ id: r.job.id, time: r.start, machine: r.machine });
      return out;
    },
  };
}
