import type { Job, Platform, SchedulingContext } from "@sched/core";
import {
  holdersFirst,
  PlatformCache,
  readyTime,
  rejectImpossible,
  waitingExcept,
} from "../context.js";
import type { ResolvedBackfill } from "../options.js";
import { PooledPlan } from "../plan.js";
import type { BackfillStrategy, Reservation } from "../strategy.js";

/**
 * Backfilling with a finite number k >= 1 of reservations, cores pooled over the machines
 * (EASY for k = 1; flexible backfilling BF-rm and, with `keepReservations`, BF-unrm, under a
 * priority order). At every decision the queue is ordered and walked: a job starts now when it
 * fits in the free cores and licenses now and in the availability plan (running jobs release at
 * their estimated end, reservations made so far in this pass hold their interval) for its whole
 * planned duration; otherwise, while fewer than k jobs hold one, it gets a reservation at the
 * earliest time the plan allows. Reservations are made anew at every decision; with
 * `keepReservations` the jobs that got one at the previous decision go first, in that order.
 *
 * Complexity per decision: O(Q) to walk the queue (plus O(Q + A log Q) for a named order other
 * than FCFS, A jobs new since the last decision, O(Q log Q) for a custom one), O(R) to build the
 * plan (the running jobs' releases stay sorted between decisions, plus O(D) per job started or
 * ended since, for D distinct estimated ends), O(S) per reservation or start and
 * O(log S + window) per job checked (S segments <= R + 2k + started).
 */
export function reservationDepth(opts: ResolvedBackfill): BackfillStrategy {
  const cache = new PlatformCache(opts.machineOrder);
  const k = opts.reservations;
  const planner = new PooledPlan();
  // BF-unrm: ids of jobs that hold a kept reservation, in the order they got it (two buffers,
  // swapped at every call, so that no call allocates one).
  let holders: number[] = [];
  let nextHolders: number[] = [];
  // The reservations of the latest call: job ids and start times, the first `lastCount` entries
  // (the arrays are never truncated, so that their storage is reused).
  const lastIds: number[] = [];
  const lastTimes: number[] = [];
  let lastCount = 0;

  const decide = (ctx: SchedulingContext) => {
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

    // The plan is built when the first job cannot start: until a reservation exists, a job
    // fits in the plan exactly when it fits in the free resources now (the plan only grows
    // after now), and jobs started before the build are in `view.running` already.
    let plan: PooledPlan | null = null;
    let reserved = 0;
    // The latest reservation, taken from the plan only when the plan is next asked (often it
    // is not: no later job fits in the free cores now).
    let pendJob: Job | null = null;
    let pendStart = 0;
    let pendEnd = 0;
    if (nextHolders.length > 0) nextHolders.length = 0;
    for (let i = 0; i < queue.length; i++) {
      const w = queue[i]!;
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
    singleMachine: false,
    decide,
    reset(p: Platform) {
      cache.clear();
      cache.prepare(p);
      holders.length = 0;
      lastCount = 0;
    },
    resume(previous: readonly Reservation[]) {
      holders.length = 0;
      if (opts.keepReservations) for (const r of previous) holders.push(r.id);
    },
    reservations() {
      const out: Reservation[] = [];
      for (let i = 0; i < lastCount; i++) out.push({ id: lastIds[i]!, time: lastTimes[i]! });
      return out;
    },
  };
}
