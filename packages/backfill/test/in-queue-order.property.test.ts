import type { Job, SchedulerView, SchedulingContext, WaitingJob } from "@sched/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { inQueueOrder, sortInQueueOrder } from "../src/context.js";
import { namedComparator, queueSorter } from "../src/order.js";

// Conservative re-orders its reservations at each compression through `sortInQueueOrder` when
// it can (in place: no map, no filter), through `inQueueOrder` otherwise: the first, when it
// answers, must leave the reservations as the second gives them, whichever waiting jobs hold
// one.

interface Held {
  readonly job: Job;
  readonly tag: number;
}

const ORDERS = ["sjf", "largest-first", "user-priority", "deadline"] as const;

const caseArb = fc.record({
  order: fc.constantFrom(...ORDERS),
  jobs: fc.array(
    fc.record({
      submit: fc.integer({ min: 0, max: 6 }),
      estimate: fc.integer({ min: 1, max: 3 }),
      cores: fc.integer({ min: 1, max: 3 }),
      priority: fc.integer({ min: 0, max: 2 }),
      deadline: fc.constantFrom(undefined, 4, 8),
      // Holds a reservation; `tail` makes the holders a prefix of the queue (the usual case).
      holds: fc.boolean(),
    }),
    { maxLength: 30 },
  ),
  tail: fc.nat({ max: 3 }),
  // Reservations of jobs no longer waiting (inQueueOrder drops them).
  gone: fc.nat({ max: 2 }),
  shuffle: fc.nat(),
});

describe("sortInQueueOrder", () => {
  it("leaves the reservations in inQueueOrder's order whenever it answers true", () => {
    // One sorter per order across cases, as conservative keeps one across events.
    const sorters = new Map(ORDERS.map((o) => [o, queueSorter(o, "test", "order")]));
    let answered = 0;
    fc.assert(
      fc.property(caseArb, ({ order, jobs, tail, gone, shuffle }) => {
        const waiting: WaitingJob[] = jobs
          .map(
            (j, id): Job => ({
              id,
              submit: j.submit,
              runtime: 1,
              estimate: j.estimate,
              cores: j.cores,
              priority: j.priority,
              ...(j.deadline === undefined ? {} : { deadline: j.deadline }),
            }),
          )
          .sort((a, b) => a.submit - b.submit || a.id - b.id)
          .map((job) => ({ job, progress: 0, preemptions: 0 }));
        // Either the first jobs but the last `tail` (arrivals of this event), or any subset.
        const holders =
          tail > 0
            ? waiting.slice(0, Math.max(0, waiting.length - tail))
            : waiting.filter((w) => jobs[w.job.id]!.holds);
        // Reservations in an order of their own (a rotation).
        const res: Held[] = holders.map((w, tag) => ({ job: w.job, tag }));
        for (let g = 0; g < gone; g++) {
          const job = { id: 1000 + g, submit: 0, runtime: 1, estimate: 1, cores: 1 };
          res.push({ job, tag: res.length });
        }
        const k = res.length > 0 ? shuffle % res.length : 0;
        const rotated = [...res.slice(k), ...res.slice(0, k)];
        const view = { waiting } as unknown as SchedulerView;
        const want = inQueueOrder(rotated, queueSorter(order, "test", "order"), {
          view,
        } as SchedulingContext);
        const compare = namedComparator(order)!;
        const fast = sortInQueueOrder(rotated, compare, sorters.get(order)!, view);
        if (fast) {
          answered++;
          expect(rotated.length).toBe(want.length);
          expect(rotated.every((r, i) => r === want[i])).toBe(true);
        }
        // It answers whenever the holders are the head of the queue.
        if (tail > 0 && gone === 0) expect(fast).toBe(true);
      }),
    );
    expect(answered).toBeGreaterThan(0);
  });
});
