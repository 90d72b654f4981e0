import type { Platform, SchedulingContext } from "@sched/core";
import { PlatformCache, readyTime, rejectImpossible, waitingExcept } from "../context.js";
import type { ResolvedBackfill } from "../options.js";
import type { BackfillStrategy } from "../strategy.js";

/**
 * Strict queue order, no backfilling (`fcfs`, `backfill({ reservations: 0 })`): jobs start in
 * queue order while they fit in the free cores and licenses now (on one machine with
 * `singleMachine`, on an idle one with `exclusive`); the first job that does not fit, or has not
 * reached its ready time, stops the pass, and nobody passes it. Arrived jobs that can never run
 * are rejected first.
 *
 * In FCFS order the queue is read through `view.waitingAt` (O(1) per job),
 * so a long saturated queue is never copied.
 *
 * Complexity per decision: O(1 + started jobs x M) in FCFS order; O(Q + A log Q) to order the
 * queue in another named order (A jobs new since the last decision), O(Q log Q) in a custom one.
 */
export function strictOrder(opts: ResolvedBackfill): BackfillStrategy {
  const cache = new PlatformCache(opts.machineOrder);
  const single = opts.singleMachine;
  const exclusive = opts.exclusive;
  return {
    name: opts.name,
    singleMachine: single,
    reset(p: Platform) {
      cache.clear();
      cache.prepare(p);
    },
    resume() {},
    reservations: () => [],
    decide(ctx: SchedulingContext) {
      const view = ctx.view;
      cache.prepare(view.platform);
      const rejected = rejectImpossible(ctx, single);
      const now = view.now;
      if (opts.fcfsOrder) {
        // Only the head matters: read it through waitingAt/waitingCount, never the whole array.
        const count = view.waitingCount;
        for (let i = 0; i < count; i++) {
          const job = view.waitingAt(i)!.job;
          if (rejected?.has(job.id)) continue;
          if (readyTime(job) > now) break;
          const alloc = cache.allocate(view, job, single, exclusive);
          if (alloc === null) break;
          ctx.start(job.id, alloc);
        }
        return;
      }
      const waiting = waitingExcept(view.waiting, rejected);
      if (waiting.length === 0) return;
      const queue = opts.sorter(waiting, view);
      for (let i = 0; i < queue.length; i++) {
        const job = queue[i]!.job;
        if (readyTime(job) > now) break;
        const alloc = cache.allocate(view, job, single, exclusive);
        if (alloc === null) break;
        ctx.start(job.id, alloc);
      }
    },
  };
}
