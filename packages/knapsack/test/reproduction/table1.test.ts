import { InvalidInputError } from "@sched/errors";
import { describe, expect, it } from "vitest";
import { mkpExact, mkpGreedy } from "../../src/index.js";
import { table1Event, table1Row } from "../../src/reproduction/index.js";

const small = {
  values: [10, 7, 6],
  weights: [
    [4, 3, 3],
    [1, 2, 2],
  ],
  capacities: [6, 4],
};
const licenses = {
  values: [5.5, 4.2, 6.1, 3.3],
  weights: [
    [1, 1, 0, 1],
    [0, 1, 1, 1],
  ],
  capacities: [2, 1],
};

/** A clock that advances by the given steps, one per call. */
function clock(steps: readonly number[]): () => number {
  let t = 0;
  let i = 0;
  return () => {
    t += steps[i++ % steps.length] as number;
    return t;
  };
}

describe("table1Event", () => {
  it("solves every knapsack of the event with both solvers and reports usage, gap and time share", () => {
    // Clock: exact takes 40 ms (two calls), greedy 2 ms.
    const event = table1Event([small, licenses], { now: clock([0, 40, 0, 2]) });
    const exact = [mkpExact(small), mkpExact(licenses)];
    const greedy = [mkpGreedy(small), mkpGreedy(licenses)];
    expect(event.exact.items).toEqual(exact.map((r) => r.items));
    expect(event.greedy.items).toEqual(greedy.map((r) => r.items));
    expect(event.exact.value).toBeCloseTo(13 + exact[1]!.value, 12);
    expect(event.greedy.value).toBeCloseTo(10 + greedy[1]!.value, 12);
    expect(event.optimal).toBe(true);
    expect(event.exact.bound).toBeCloseTo(event.exact.value, 12);
    expect(event.gapPct).toBeCloseTo(100 * (1 - event.greedy.value / event.exact.value), 12);
    expect(event.exact.timeMs).toBe(40);
    expect(event.greedy.timeMs).toBe(2);
    expect(event.timePct).toBe(5);
    // Usage: copies used over copies available, over both knapsacks' constraints.
    const used = (items: readonly (readonly number[])[]) =>
      [small, licenses].reduce(
        (s, inst, c) =>
          s +
          inst.weights.reduce(
            (t, row) => t + (items[c] ?? []).reduce((u, i) => u + (row[i] ?? 0), 0),
            0,
          ),
        0,
      );
    const available = 6 + 4 + 2 + 1;
    expect(event.exact.usagePct).toBeCloseTo((100 * used(event.exact.items)) / available, 12);
    expect(event.greedy.usagePct).toBeCloseTo((100 * used(event.greedy.items)) / available, 12);
  });

  it("averages the greedy's time over greedyRuns and says when the exact value is not proven", () => {
    const event = table1Event([small], {
      now: clock([0, 10, 0, 6]),
      greedyRuns: 3,
      exact: { nodeLimit: 0 },
    });
    expect(event.greedy.timeMs).toBe(2);
    expect(event.optimal).toBe(false);
    expect(event.exact.bound).toBeGreaterThanOrEqual(13);
    // The bound is mkpExact's (the sum of the values before the root is solved), not its value.
    expect(event.exact.bound).toBe(mkpExact(small, { nodeLimit: 0 }).bound);
    expect(event.exact.bound).toBe(23);
  });

  it("reports the greedy's solution once however many runs are timed", () => {
    const once = table1Event([small, licenses], { now: clock([0, 1]) });
    const thrice = table1Event([small, licenses], { now: clock([0, 1]), greedyRuns: 3 });
    expect(thrice.greedy.items).toEqual([mkpGreedy(small).items, mkpGreedy(licenses).items]);
    expect(thrice.greedy.value).toBe(once.greedy.value);
    expect(thrice.greedy.usagePct).toBe(once.greedy.usagePct);
    expect(thrice.gapPct).toBe(once.gapPct);
  });

  it("reports 100% usage and no gap for an event with nothing to share", () => {
    const event = table1Event([{ values: [], weights: [[]], capacities: [0] }]);
    expect(event.exact.usagePct).toBe(100);
    expect(event.gapPct).toBe(0);
    expect(table1Event([]).optimal).toBe(true);
  });

  it("names the malformed instance and the bad option", () => {
    try {
      table1Event([small, { ...licenses, capacities: [2, -1] }]);
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(InvalidInputError);
      expect((e as InvalidInputError).field).toBe("instances[1].capacities[1]");
      expect((e as Error).message).toMatch(/^@sched\/knapsack\/reproduction\/table1Event: /);
    }
    expect(() => table1Event([null as never])).toThrow(/instances\[0\] is null/);
    expect(() => table1Event({} as never)).toThrow(/instances is not an array/);
    expect(() => table1Event([small], { greedyRuns: 0 })).toThrow(/options\.greedyRuns/);
    expect(() => table1Event([small], { now: 5 as never })).toThrow(
      "@sched/knapsack/reproduction/table1Event: options.now is number, expected a function",
    );
    expect(() => table1Event([small], { exact: { nodeLimit: -1 } })).toThrow(/options\.nodeLimit/);
  });
});

describe("table1Row", () => {
  it("summarises a bin as the paper's table: mean time, smallest / mean / best usage, gap, proven", () => {
    const a = table1Event([small], { now: clock([0, 30, 0, 1]) });
    const b = table1Event([licenses], { now: clock([0, 10, 0, 1]) });
    const row = table1Row([a, b]);
    expect(row.events).toBe(2);
    expect(row.proven).toBe(2);
    expect(row.exact.timeMs).toBe(20);
    expect(row.greedy.timeMs).toBe(1);
    expect(row.timePct).toBe(5);
    expect(row.exact.smallestPct).toBe(Math.min(a.exact.usagePct, b.exact.usagePct));
    expect(row.exact.bestPct).toBe(Math.max(a.exact.usagePct, b.exact.usagePct));
    expect(row.exact.meanPct).toBeCloseTo((a.exact.usagePct + b.exact.usagePct) / 2, 12);
    expect(row.gapPct).toBeCloseTo((a.gapPct + b.gapPct) / 2, 12);
    expect(table1Row([])).toMatchObject({ events: 0, proven: 0, gapPct: 0, timePct: 0 });
  });
});
