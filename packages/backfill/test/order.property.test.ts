import type { SchedulerView, WaitingJob } from "@sched/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { holdersFirst } from "../src/context.js";
import { inRun, queueSorter } from "../src/order.js";

// The sorting paths that skip or replace Array.prototype.sort (EDF's queue, a priority order's
// sorter) against the plain sort they stand for: the same elements in the same order, ties
// included, over queues with many equal keys and queues already in order.

interface Item {
  readonly k: number;
  readonly tag: number;
}

// Few distinct keys (many ties), and often an array already in order.
const itemsArb = fc
  .tuple(
    fc.array(fc.record({ k: fc.integer({ min: 0, max: 3 }), tag: fc.nat() }), { maxLength: 40 }),
    fc.boolean(),
  )
  .map(([items, presort]) => (presort ? items.slice().sort((a, b) => a.k - b.k) : items));

describe("inRun", () => {
  it("skips a sort exactly when the sort would leave the array as it is", () => {
    fc.assert(
      fc.property(itemsArb, (items) => {
        const cmp = (a: Item, b: Item) => a.k - b.k;
        const sorted = items.slice().sort(cmp);
        if (inRun(items, cmp)) expect(sorted).toEqual(items);
        // the array is a run exactly when its keys never fall
        let rises = true;
        for (let i = 1; i < items.length; i++) if (items[i]!.k < items[i - 1]!.k) rises = false;
        expect(inRun(items, cmp)).toBe(rises);
      }),
    );
  });

  it("holds for a comparator that is not an order (what V8's sort does with one)", () => {
    fc.assert(
      fc.property(itemsArb, fc.integer(), (items, seed) => {
        // An arbitrary answer per ordered pair: antisymmetry and transitivity may fail.
        const cmp = (a: Item, b: Item) => ((((a.tag * 31 + b.tag * 17 + seed) % 5) + 5) % 5) - 2;
        if (inRun(items, cmp)) expect(items.slice().sort(cmp)).toEqual(items);
      }),
    );
  });
});

function waitingJob(id: number, submit: number): WaitingJob {
  return { job: { id, submit, cores: 1, estimate: 1, runtime: 1 } } as unknown as WaitingJob;
}

/** The priority sorter as it was: one `{ w, p }` per job, sorted, mapped back. */
function plainPrioritySort(
  waiting: readonly WaitingJob[],
  priority: (w: WaitingJob) => number,
): WaitingJob[] {
  const keyed = waiting.map((w) => ({ w, p: priority(w) }));
  keyed.sort((a, b) =>
    a.p === b.p ? a.w.job.submit - b.w.job.submit || a.w.job.id - b.w.job.id : b.p > a.p ? 1 : -1,
  );
  return keyed.map((k) => k.w);
}

const queueArb = fc
  .tuple(
    fc.array(
      fc.record({
        submit: fc.integer({ min: 0, max: 5 }),
        id: fc.integer({ min: 0, max: 30 }), // repeated ids too: ties all the way down
        p: fc.constantFrom(0, -0, 1, 2, 2.5, -1, Number.POSITIVE_INFINITY),
      }),
      { maxLength: 30 },
    ),
    fc.constantFrom("as drawn", "queue order", "priority order", "sorted"),
  )
  .map(([rows, shape]) => {
    const jobs = rows.map((r) => ({ w: waitingJob(r.id, r.submit), p: r.p }));
    if (shape === "queue order") {
      jobs.sort((a, b) => a.w.job.submit - b.w.job.submit || a.w.job.id - b.w.job.id);
    } else if (shape === "priority order") {
      jobs.sort((a, b) => b.p - a.p);
    } else if (shape === "sorted") {
      const order = plainPrioritySort(
        jobs.map((j) => j.w),
        (w) => jobs.find((j) => j.w === w)!.p,
      );
      return order.map((w) => jobs.find((j) => j.w === w)!);
    }
    return jobs;
  });

describe("queueSorter({ priority })", () => {
  it("orders as the plain sort of { job, priority } pairs, ties included, without mutating", () => {
    const view = {} as SchedulerView;
    fc.assert(
      fc.property(fc.array(queueArb, { minLength: 1, maxLength: 4 }), (calls) => {
        // One sorter over several calls: its reused buffers must not leak between calls.
        let table = new Map<WaitingJob, number>();
        const sorter = queueSorter({ priority: (w) => table.get(w)! }, "test", "order");
        for (const jobs of calls) {
          table = new Map(jobs.map((j) => [j.w, j.p]));
          const waiting = jobs.map((j) => j.w);
          const before = waiting.slice();
          const got = sorter(waiting, view);
          expect(waiting).toEqual(before);
          const want = plainPrioritySort(waiting, (w) => table.get(w)!);
          expect(got.length).toBe(want.length);
          for (let i = 0; i < want.length; i++) expect(got[i]).toBe(want[i]);
        }
      }),
    );
  });

  it("still throws on a NaN priority, naming the job", () => {
    const sorter = queueSorter({ priority: (w) => (w.job.id === 7 ? Number.NaN : 1) }, "w", "o");
    expect(() => sorter([waitingJob(3, 0), waitingJob(7, 0)], {} as SchedulerView)).toThrow(
      /o\.priority.*returned NaN for job 7/,
    );
  });
});

/** holdersFirst as it was: a map from held id to place, a slot per place, the rest after. */
function plainHoldersFirst(queue: readonly WaitingJob[], holders: readonly number[]): WaitingJob[] {
  const rank = new Map<number, number>();
  for (let i = 0; i < holders.length; i++) rank.set(holders[i]!, i);
  const front: (WaitingJob | undefined)[] = new Array(holders.length);
  const rest: WaitingJob[] = [];
  for (const w of queue) {
    const r = rank.get(w.job.id);
    if (r === undefined) rest.push(w);
    else front[r] = w;
  }
  return [...front.filter((w) => w !== undefined), ...rest];
}

describe("holdersFirst", () => {
  it("orders as the map-based version, with repeated ids, few or many holders", () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 15 }), { maxLength: 25 }),
        fc.array(fc.integer({ min: 0, max: 15 }), { minLength: 1, maxLength: 12 }),
        fc.constantFrom("as drawn", "led", "led, held ids again later"),
        (ids, holders, shape) => {
          // "led": the queue starts with the holders' jobs in holder order (the no-copy case).
          const rest = shape === "led" ? ids.filter((id) => !holders.includes(id)) : ids;
          const order = shape === "as drawn" ? ids : [...new Set(holders), ...rest];
          const queue = order.map((id, i) => waitingJob(id, i));
          const before = queue.slice();
          const got = holdersFirst(queue, holders);
          expect(queue).toEqual(before);
          const want = plainHoldersFirst(queue, holders);
          expect(got.length).toBe(want.length);
          for (let i = 0; i < want.length; i++) expect(got[i]).toBe(want[i]);
        },
      ),
    );
  });
});
