import type { Job, Platform, SchedulerView, SchedulingContext, WaitingJob } from "@sched/core";
import {
  inQueueOrder,
  PlatformCache,
  readyTime,
  rejectImpossible,
  sortInQueueOrder,
} from "../context.js";
import type { ResolvedBackfill } from "../options.js";
import { moveHeld, type PlannedInterval, PooledPlan } from "../plan.js";
import type { BackfillStrategy, Reservation } from "../strategy.js";

interface Held extends PlannedInterval {
  readonly job: Job;
  start: number;
  end: number;
  /**
   * The planned duration, fixed when the job was first reserved (`end - start` after every
   * move, without the rounding a difference of two times would bring).
   */
  readonly duration: number;
  /** `readyTime(job)`, `job.cores` and whether the job asks for licenses, kept so that
   * compression reads no job. */
  readonly ready: number;
  readonly cores: number;
  readonly licensed: boolean;
  /**
   * This reservation's position in the last compression pass (-1 when it was made after it):
   * `later[pos]` is then the latest end of the capacity given back, in that pass, after it was
   * re-placed or checked there.
   */
  pos: number;
}

/**
 * Conservative backfilling (the `reservations: Infinity` case of `backfill`), cores pooled over
 * the machines. Internal: users call `backfill({ reservations: Infinity })`, `conservative()` or
 * `backfillPass(state, { reservations: Infinity })`.
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
 * Compression gives the same result as re-placing every reservation, but checks most of them
 * in place: since a reservation was last placed or checked, the plan has gained capacity only
 * in intervals that end by some time `bound` (the intervals given back by jobs that ended early,
 * and those left by reservations that moved), so only starts before `min(start, bound)` can be
 * new; they are scanned without giving the reservation back first, and the plan is changed only
 * for a reservation that moves (or, for jobs with licenses, is given back and taken again).
 *
 * Resumed (`resume`, the pure pass): the plan is rebuilt from the running jobs and the previous
 * reservations (each held from its time for its planned duration, in the order given), every
 * waiting job without one is reserved as an arrival, and compression runs when capacity may
 * have come back (`released`) or a reservation is in the past, as it would have in the engine,
 * or when the kept reservations overbook the plan (a running job's end moved later).
 *
 * Complexity per event: O(V) to scan V reservations, O(S) per reservation made, and with
 * compression O(V x s + M x S) for s segments scanned per check (those before its bound) and M
 * reservations that move (S <= R + 2V segments; worst case O(V x S)); a queue order other than
 * FCFS re-orders the reservations at each compression: O(Q + A log Q) for a named order (A jobs
 * reserved since the previous compression), O(Q log Q) for a custom one.
 */
export function conservativeStrategy(opts: ResolvedBackfill): BackfillStrategy {
  const { sorter, arrivalSorter, fcfsOrder, compare } = opts;
  const cache = new PlatformCache(opts.machineOrder);
  let res: Held[] = [];
  // Jobs this policy started: id -> planned interval still held in the plan.
  const held = new Map<number, Held>();
  const plan = new PooledPlan();
  let initialized = false;
  let wakeAt = Number.NaN;
  // The latest end of the capacity given back since the last compression (Infinity: unknown).
  let released = Number.POSITIVE_INFINITY;
  // Per position of the compression pass: the end of the interval a moved reservation left;
  // after the pass, in place, the latest such end after the position (read by the next pass
  // through `Held.pos`, as `later`).
  let vacated = new Float64Array(64);
  let later = new Float64Array(64);
  // The smallest reservation start at the end of the previous call (Infinity: none).
  let earliest = Number.POSITIVE_INFINITY;
  // Set by `resume`: the previous reservations to rebuild from at the next call, and whether
  // capacity may have come back since they were made.
  let resumed: readonly Reservation[] | null = null;
  let resumedReleased = true;
  // The smallest start of the reservations made at this call (Infinity: none).
  let reservedFrom = Number.POSITIVE_INFINITY;

  // A reservation for `job` (just arrived, with no progress, unless resumed from a pass's queue),
  // at the earliest start the plan allows.
  const reserve = (ctx: SchedulingContext, job: Job, now: number, progress = 0): void => {
    const d = cache.plannedFor(ctx, job, progress);
    const t = plan.earliest(job, d, Math.max(readyTime(job), now));
    if (t === Number.POSITIVE_INFINITY) return;
    plan.change(job, t, t + d, -1);
    if (t < reservedFrom) reservedFrom = t;
    res.push({
      job,
      start: t,
      end: t + d,
      duration: d,
      ready: readyTime(job),
      cores: job.cores,
      licensed: job.licenses !== undefined,
      pos: -1,
    });
  };

  /**
   * Rebuilds the plan from the view's running jobs (each held until its estimated end) and the
   * reservations in `res`; the capacity given back is unknown from here on.
   */
  const rebuild = (view: SchedulerView): void => {
    held.clear();
    for (const r of view.running) {
      held.set(r.job.id, {
        job: r.job,
        start: r.start,
        end: r.estimatedEnd,
        duration: r.estimatedEnd - r.start,
        ready: readyTime(r.job),
        cores: r.job.cores,
        licensed: r.job.licenses !== undefined,
        pos: -1,
      });
    }
    plan.rebuild(view, res);
    initialized = true;
    released = Number.POSITIVE_INFINITY;
  };

  /**
   * Rebuilds the memory from `resumed` (the previous reservations of the jobs still waiting, in
   * the order given) and the running jobs; returns the waiting jobs that hold no reservation.
   * Each is planned for the work it has left (a preempted job's `progress`).
   */
  const restore = (
    ctx: SchedulingContext,
    previous: readonly Reservation[],
    rejected: Set<number> | null,
  ): WaitingJob[] => {
    const view = ctx.view;
    const waitingById = new Map<number, WaitingJob>();
    for (const w of view.waiting) waitingById.set(w.job.id, w);
    res = [];
    earliest = Number.POSITIVE_INFINITY;
    const reserved = new Set<number>();
    for (const p of previous) {
      const w = waitingById.get(p.id);
      if (w === undefined || reserved.has(p.id) || rejected?.has(p.id)) continue;
      const d = cache.plannedDuration(ctx, w);
      res.push({
        job: w.job,
        start: p.time,
        end: p.time + d,
        duration: d,
        ready: readyTime(w.job),
        cores: w.job.cores,
        licensed: w.job.licenses !== undefined,
        pos: -1,
      });
      reserved.add(p.id);
      if (p.time < earliest) earliest = p.time;
    }
    rebuild(view);
    const fresh: WaitingJob[] = [];
    for (const w of view.waiting) {
      if (!reserved.has(w.job.id) && !rejected?.has(w.job.id)) fresh.push(w);
    }
    return fresh;
  };

  /**
   * `inQueueOrder(res, sorter, ctx)`: in place when it can (a named order, see
   * `sortInQueueOrder`; `res` is then mostly in order already: the previous compression's order,
   * with the jobs reserved since appended).
   */
  const reorder = (ctx: SchedulingContext): Held[] => {
    if (compare !== null && sortInQueueOrder(res, compare, sorter, ctx.view)) return res;
    return inQueueOrder(res, sorter, ctx);
  };

  /**
   * Compression: each reservation, in queue order, at the earliest start the plan then allows
   * (see above). A function of its own, not part of `decide`: V8 then inlines the profile's
   * scan into it whatever the size of `decide` (inlined there, it stopped being inlined as soon
   * as `decide` grew). Returns the smallest start after the pass.
   */
  const compressAll = (ctx: SchedulingContext, now: number): number => {
    if (!fcfsOrder) res = reorder(ctx);
    if (vacated.length < res.length) vacated = new Float64Array(2 * res.length);
    const last = later;
    // Every reservation was, when last placed or checked, at the earliest start the plan
    // allowed. Since then the plan gained capacity only in intervals ending by `bound` (the
    // releases of this event, the moves earlier in this pass, and the moves after it in the
    // last pass); any other change only took capacity. So a start `t >= bound` before the
    // current one still does not fit, and only starts before `bound` need a look: a
    // reservation that cannot use any of them, and whose place still holds, stays where it is.
    let freed = released;
    // The smallest start after the pass.
    let first = Number.POSITIVE_INFINITY;
    for (let i = 0; i < res.length; i++) {
      const r = res[i]!;
      const d = r.duration;
      const oldStart = r.start;
      const oldEnd = r.end;
      const from = Math.max(r.ready, now);
      const after = r.pos >= 0 ? last[r.pos]! : Number.NEGATIVE_INFINITY;
      r.pos = i;
      const bound = Math.max(after, freed);
      const limit = Math.min(oldStart, bound);
      vacated[i] = Number.NEGATIVE_INFINITY;
      if (oldStart >= from) {
        const cores = r.cores;
        const coresOnly = !r.licensed || plan.coresOnly(r.job);
        // Scan the starts before `limit` without giving the reservation back first (the scan
        // counts what it holds as free): cores only, or cores and licenses.
        const probe =
          limit <= from
            ? Number.POSITIVE_INFINITY
            : coresOnly
              ? plan.cores.earliestStartBefore(cores, d, from, limit, oldStart, cores)
              : plan.earliest(r.job, d, from, limit, oldStart);
        if (
          probe === Number.POSITIVE_INFINITY &&
          (r.licensed
            ? plan.holds(r.job, oldStart, oldEnd)
            : plan.cores.nonNegative(oldStart, oldEnd))
        ) {
          if (oldStart < first) first = oldStart;
          continue;
        }
        if (probe < limit) {
          // oldStart >= from >= now. Where the new interval overlaps the old one, giving back
          // and taking again cancel out: the move changes only [probe, oldStart) and
          // [probe + d, oldEnd). Amounts are sums of whole counts, so this leaves the same
          // profile as the two changes.
          const newEnd = probe + d;
          if (coresOnly) moveHeld(plan.cores, oldStart, oldEnd, probe, newEnd, cores);
          else plan.move(r.job, oldStart, oldEnd, probe, newEnd);
          r.start = probe;
          r.end = newEnd;
          vacated[i] = oldEnd;
          if (oldEnd > freed) freed = oldEnd;
          if (probe < first) first = probe;
          continue;
        }
      }
      const give = Math.max(oldStart, now);
      if (oldEnd > give) plan.change(r.job, give, oldEnd, 1);
      let t: number;
      if (oldStart >= from) {
        t = limit > from ? plan.earliest(r.job, d, from, limit) : Number.POSITIVE_INFINITY;
        if (t === Number.POSITIVE_INFINITY) {
          t = plan.fits(r.job, oldStart, oldEnd) ? oldStart : plan.earliest(r.job, d, from);
        }
      } else {
        t = plan.earliest(r.job, d, from);
      }
      r.start = t;
      r.end = t + d;
      plan.change(r.job, t, t + d, -1);
      if (t < first) first = t;
      if (t !== oldStart) {
        vacated[i] = oldEnd;
        if (oldEnd > freed) freed = oldEnd;
      }
    }
    let latest = Number.NEGATIVE_INFINITY;
    for (let i = res.length - 1; i >= 0; i--) {
      const v = vacated[i]!;
      vacated[i] = latest;
      if (v > latest) latest = v;
    }
    later = vacated;
    vacated = last;
    return first;
  };

  const decide = (ctx: SchedulingContext) => {
    const view = ctx.view;
    cache.prepare(view.platform);
    const now = view.now;
    const rejected = rejectImpossible(ctx);
    reservedFrom = Number.POSITIVE_INFINITY;
    const wasResumed = resumed !== null;

    let compress = false;
    // The jobs to reserve at this call: the arrivals (no progress), or, resumed, every waiting
    // job without one (`restored`, with its progress).
    let arrived: readonly Job[] = ctx.arrived;
    let restored: readonly WaitingJob[] | null = null;
    if (resumed !== null) {
      restored = restore(ctx, resumed, rejected);
      arrived = restored.map((w) => w.job);
      // Capacity may have come back, or been taken: a running job whose end moved later (a
      // walltime extension) leaves the kept reservations overbooking the plan, and compression
      // makes each one that no longer holds again.
      compress = resumedReleased || plan.overbookedFrom(now);
      resumed = null;
    } else if (initialized) {
      plan.trimBefore(now);
      for (const job of ctx.completed) {
        const h = held.get(job.id);
        if (h === undefined) continue;
        held.delete(job.id);
        if (h.end > now) {
          plan.change(job, now, h.end, 1);
          if (h.end > released) released = h.end;
        }
        compress = true;
      }
    }
    if (!initialized || view.running.length !== held.size) {
      // First call of a run, or running jobs this policy did not start: rebuild from the view.
      rebuild(view);
      compress = true;
    }
    // A reservation in the past (one that could not start at its time): `earliest` is the
    // smallest start among the reservations kept by the previous call.
    if (earliest < now) compress = true;

    // The smallest start of the reservations kept from earlier calls, once compressed.
    let compressedFrom = Number.POSITIVE_INFINITY;
    if (compress && res.length > 0) compressedFrom = compressAll(ctx, now);
    if (compress) released = Number.NEGATIVE_INFINITY;

    if (arrived.length === 1 || (arrived.length > 1 && fcfsOrder)) {
      // Arrivals come in queue order: reserve them as they are.
      for (let i = 0; i < arrived.length; i++) {
        const job = arrived[i]!;
        if (rejected === null || !rejected.has(job.id))
          reserve(ctx, job, now, restored === null ? 0 : restored[i]!.progress);
      }
    } else if (arrived.length > 1) {
      const fresh: WaitingJob[] = [];
      for (let i = 0; i < arrived.length; i++) {
        const job = arrived[i]!;
        if (rejected?.has(job.id)) continue;
        fresh.push(restored === null ? { job, progress: 0, preemptions: 0 } : restored[i]!);
      }
      const ordered = fresh.length > 1 ? arrivalSorter(fresh, view) : fresh;
      for (const w of ordered) reserve(ctx, w.job, now, w.progress);
    }

    // The earliest future reservation, for the timer below.
    let next = Number.POSITIVE_INFINITY;
    // Without a compression the kept reservations have not moved since the previous call, which
    // left none before now; when none of this call's starts now either, no job starts and the
    // new ones alone can lower the earliest start: the scan below is not needed.
    // After a compression the same holds when no reservation starts now after it.
    const scan =
      wasResumed || !(compress ? compressedFrom > now : earliest > now) || !(reservedFrom > now);
    let kept = scan ? 0 : res.length;
    if (scan) {
      earliest = Number.POSITIVE_INFINITY;
    } else {
      if (compress) earliest = compressedFrom;
      if (reservedFrom < earliest) earliest = reservedFrom;
      next = earliest;
    }
    for (let i = kept; i < res.length; i++) {
      const r = res[i]!;
      const start = r.start;
      if (start <= now) {
        const alloc = cache.allocate(view, r.job);
        if (alloc !== null) {
          ctx.start(r.job.id, alloc);
          held.set(r.job.id, r);
          continue;
        }
      } else if (start < next) {
        next = start;
      }
      if (start < earliest) earliest = start;
      res[kept++] = r;
    }
    if (kept < res.length) res.length = kept;
    // A reservation whose time is not an event (a job ran past its estimate, or a reserved job
    // planned on the slowest machine ran faster) still needs a call then: set a timer.
    if (next !== Number.POSITIVE_INFINITY && next !== wakeAt) {
      ctx.wakeAt(next);
      wakeAt = next;
    }
  };

  return {
    name: opts.name,
    singleMachine: false,
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
      released = Number.POSITIVE_INFINITY;
      earliest = Number.POSITIVE_INFINITY;
      resumed = null;
    },
    reservations() {
      const out: Reservation[] = [];
      for (const r of res) out.push({ id: r.job.id, time: r.start });
      return out;
    },
  };
}
