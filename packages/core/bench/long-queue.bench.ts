import { bench, describe } from "vitest";
import { firstFitAllocation } from "../src/allocation.js";
import { identicalPool } from "../src/platform.js";
import type { Scheduler } from "../src/scheduler.js";
import { simulate } from "../src/simulate.js";
import type { Job } from "../src/types.js";

// The 40k-job queue check that used to be a unit test (2.7 s idle, over 100 s on a busy
// machine): the engine's view on a queue long enough for the array trims above 16k entries
// (splice instead of shift) and a dead prefix that grows past half of the array. The unit
// tests keep a property test of the queue structure with small thresholds
// (test/waiting-queue.property.test.ts); this runs the real thresholds end to end and throws
// when the view disagrees with the queue order.

function check(ok: boolean, what: string): void {
  if (!ok) throw new Error(`long-queue bench: ${what}`);
}

/**
 * 10 single-core jobs of 10 s arrive per second on 2 machines: the queue grows to about 39k,
 * then drains. FCFS through waitingAt; `waiting` itself is read at some calls only.
 */
function longQueueRun(n: number): void {
  const jobs: Job[] = [];
  for (let i = 0; i < n; i++) {
    jobs.push({ id: i, submit: Math.floor(i / 10), runtime: 10, estimate: 10, cores: 1 });
  }
  let arrived = 0;
  let started = 0;
  let call = 0;
  let checkedFull = 0;
  let maxQueue = 0;
  const policy: Scheduler = {
    name: "fcfs-at",
    schedule(ctx) {
      const view = ctx.view;
      arrived += ctx.arrived.length;
      call++;
      const count = view.waitingCount!;
      check(count === arrived - started, `waitingCount ${count} at call ${call}`);
      maxQueue = Math.max(maxQueue, count);
      // Reads while the queue builds (dead prefixes of 10-20 entries on a >16k array), none
      // through most of the drain (the dead prefix grows past half of the array and is
      // trimmed without a read), then again near the end.
      const readFull = call % 97 === 0 && (call < 8000 || count < 5000);
      const full = readFull ? view.waiting : null;
      if (full !== null) {
        checkedFull++;
        check(full.length === count, "waiting.length");
        for (const i of [0, 1, count >> 1, count - 1]) {
          if (i >= 0 && i < count) check(full[i]!.job.id === started + i, `waiting[${i}]`);
        }
      }
      for (let i = 0; i < count; i++) {
        const w = view.waitingAt!(i)!;
        check(w.job.id === started + i, `waitingAt(${i})`);
        const a = firstFitAllocation(view, w.job.cores);
        if (a === null) break;
        ctx.start(w.job.id, a);
      }
      // The snapshot holds during the call: started jobs are still listed.
      check(view.waitingCount === count, "snapshot count");
      if (count > 0) check(view.waitingAt!(0)!.job.id === started, "snapshot head");
      if (full !== null) check(view.waiting === full, "snapshot array");
      for (let i = started; i < arrived && !view.isWaiting(i); i++) started++;
    },
  };
  const trace = simulate(jobs, identicalPool(2), policy);
  check(maxQueue > 30_000, `queue reached ${maxQueue}`);
  check(checkedFull > 100, "full reads");
  check(started === n, "every job started");
  // FCFS on identical jobs: starts are in id order.
  let last = Number.NEGATIVE_INFINITY;
  for (const r of trace.records) {
    check(r.outcome === "completed", "completed");
    check(r.intervals[0]!.start >= last, "start order");
    last = r.intervals[0]!.start;
  }
}

describe("the waiting queue's view on a 40k-job queue (checked)", () => {
  bench("builds to ~39k and drains: waitingAt, waitingCount, waiting", () => longQueueRun(40_000), {
    iterations: 3,
    time: 0,
  });
});
