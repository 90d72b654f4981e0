import type { Platform, SchedulingContext } from "@sched/core";
import {
  holdersFirst,
  PlatformCache,
  readyTime,
  rejectImpossible,
  waitingExcept,
} from "../context.js";
import { MachinePlan } from "../machine-plan.js";
import type { ResolvedBackfill } from "../options.js";
import { durationOn, earliestPlace, freeNow, mayTake } from "../single-placement.js";
import type { BackfillStrategy, Reservation } from "../strategy.js";

/**
 * Backfilling with every job on one machine (`singleMachine: true`), finite depth k >= 1: the same
 * walk as `backfill`, planned per machine. A job starts now on the first machine, in machine
 * order, that has its cores and licenses free now and in the plan for its whole duration there;
 * a job that does not start gets, while fewer than `reservations` jobs hold one, a reservation
 * on the machine where it can start first. With `exclusive`, a machine runs one job at a time:
 * "free now" means idle, and the plan counts one slot per machine. Internal: users pass
 * `singleMachine: true` or `exclusive: true`.
 *
 * Complexity per event: O(Q + A log Q) to order the queue (A jobs new since the last event;
 * O(Q log Q) for a custom order), O(M (log M + R + k) log) to build the plan when a
 * job cannot start, and O(M x (log S + S)) per reservation, O(M x (log S + window)) per job
 * checked, for M machines.
 */
export function singleDepth(opts: ResolvedBackfill): BackfillStrategy {
  const cache = new PlatformCache(opts.machineOrder);
  const k = opts.reservations;
  const planner = new MachinePlan(opts.exclusive);
  let holders: number[] = [];
  // The reservations of the latest call, in the order they were made.
  const last: Reservation[] = [];

  const decide = (ctx: SchedulingContext) => {
    const view = ctx.view;
    cache.prepare(view.platform);
    last.length = 0;
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
            if (mayTake(view, order[i]!, opts.exclusive)) open.push(order[i]!);
        }
        let started = false;
        for (let i = 0; i < open.length; i++) {
          const m = open[i]!;
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
          last.push({ id: job.id, time: p.start, machine: p.machine });
          reserved++;
          if (opts.keepReservations) nextHolders.push(job.id);
        }
      }
    }
    holders = nextHolders;
  };

  return {
    name: opts.name,
    singleMachine: true,
    decide,
    reset(p: Platform) {
      cache.clear();
      cache.prepare(p);
      holders = [];
      last.length = 0;
    },
    resume(previous: readonly Reservation[]) {
      holders = opts.keepReservations ? previous.map((r) => r.id) : [];
    },
    reservations: () => last.slice(),
  };
}
