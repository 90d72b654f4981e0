import { InvalidInputError, LimitExceededError } from "@sched/errors";
import { describe, expect, it } from "vitest";
import { knapsack01 } from "../src/index.js";

describe("knapsack01", () => {
  it("solves the textbook instance with both methods", () => {
    const inst = { values: [60, 100, 120], weights: [10, 20, 30], capacity: 50 };
    const expected = { items: [1, 2], value: 220, optimal: true };
    expect(knapsack01(inst)).toEqual(expected);
    expect(knapsack01(inst, { method: "dp" })).toEqual(expected);
    expect(knapsack01(inst, { method: "branch-and-bound" })).toEqual(expected);
  });

  it("uses branch and bound for fractional weights and floors a fractional capacity for the DP", () => {
    expect(knapsack01({ values: [3, 4, 5], weights: [1.5, 2.5, 3.5], capacity: 4 }).items).toEqual([
      0, 1,
    ]);
    expect(
      knapsack01({ values: [3, 4, 5], weights: [1, 2, 3], capacity: 3.9 }, { method: "dp" }).value,
    ).toBe(7);
  });

  it("keeps the earlier items among equally valuable choices (DP)", () => {
    expect(knapsack01({ values: [5, 5], weights: [1, 1], capacity: 1 }).items).toEqual([0]);
  });

  it("may return other items of equal value by method, as the README says (dpCellLimit under auto)", () => {
    const inst = { values: [3, 2, 1, 3], weights: [2, 1, 1, 2], capacity: 2 };
    expect(knapsack01(inst, { method: "dp" })).toEqual({ items: [0], value: 3, optimal: true });
    expect(knapsack01(inst, { method: "branch-and-bound" })).toEqual({
      items: [1, 2],
      value: 3,
      optimal: true,
    });
    expect(knapsack01(inst).items).toEqual([0]);
    expect(knapsack01(inst, { dpCellLimit: 1 }).items).toEqual([1, 2]);
  });

  it("branch and bound explores items of equal value/weight by index (ties by index)", () => {
    // Ratios 1, 1, 1, 1, 0.5, 0.75, 1/3: items 0-3 tie. The greedy incumbent is {0, 1} (3);
    // the depth-first search in the order 0, 1, 2, 3, 5, 4, 6 ("take" first) then meets the
    // optimum {2} (4) before the equally valuable {3}, and keeps the first found.
    const inst = { values: [1, 2, 4, 4, 1, 3, 1], weights: [1, 2, 4, 4, 2, 4, 3], capacity: 4 };
    expect(knapsack01(inst, { method: "branch-and-bound" })).toEqual({
      items: [2],
      value: 4,
      optimal: true,
    });
  });

  it("branch and bound keeps only sets whose weights, summed in item order, fit the capacity", () => {
    // Items 0, 2, 4, 5, 6, 7, 8 weigh 3.7 in decimal but 3.7000000000000006 summed in item order
    // (the residual capacity the search subtracts from says they fit): refused, 32 is the best.
    const inst = {
      values: [5, 1, 5, 4, 5, 4, 6, 2, 6],
      weights: [0.35, 0.25, 0.15, 0.7, 0.4, 0.15, 1.1, 0.45, 1.1],
      capacity: 3.7,
    };
    const r = knapsack01(inst);
    expect(r).toEqual({ items: [0, 1, 2, 3, 4, 5, 6, 7], value: 32, optimal: true });
    let load = 0;
    for (const i of r.items) load += inst.weights[i] as number;
    expect(load).toBeLessThanOrEqual(inst.capacity);
  });

  it("falls back to branch and bound when the DP table would exceed dpCellLimit", () => {
    const inst = { values: [10, 7, 6], weights: [400_000, 300_000, 300_000], capacity: 600_000 };
    expect(knapsack01(inst, { dpCellLimit: 10 })).toEqual({
      items: [1, 2],
      value: 13,
      optimal: true,
    });
  });

  it("uses the DP up to exactly dpCellLimit cells, branch and bound beyond", () => {
    // n·(C+1) = 5·3 = 15 cells. Two optima of value 5: the DP keeps item 2, branch and bound
    // item 4, so the result shows which method "auto" chose at the threshold.
    const inst = { values: [3, 3, 5, 3, 5], weights: [2, 4, 2, 2, 1], capacity: 2 };
    const dp = knapsack01(inst, { method: "dp" });
    const bb = knapsack01(inst, { method: "branch-and-bound" });
    expect(dp.items).toEqual([2]);
    expect(bb.items).toEqual([4]);
    expect(knapsack01(inst, { dpCellLimit: 15 })).toEqual(dp);
    expect(knapsack01(inst, { dpCellLimit: 14 })).toEqual(bb);
  });

  it('refuses a "dp" table the engine cannot allocate with a typed error (a RangeError before)', () => {
    const inst = { values: [60, 100, 120], weights: [10, 20, 30], capacity: 1e12 };
    expect(() => knapsack01(inst, { method: "dp" })).toThrow(LimitExceededError);
    expect(() => knapsack01(inst, { method: "dp" })).toThrow(
      '@sched/knapsack/knapsack01: options.method "dp" needs a table of 3 x 1000000000001 = 3000000000003 cells',
    );
    // "auto" never builds it: branch and bound instead
    expect(knapsack01(inst)).toEqual({ items: [0, 1, 2], value: 280, optimal: true });
  });

  it("rejects bad input, naming the field", () => {
    expect(() => knapsack01({ values: [1, 2], weights: [1], capacity: 1 })).toThrow(
      /weights has length 1, expected 2/,
    );
    expect(() => knapsack01({ values: [1, 2], weights: [1, 1, 1], capacity: 1 })).toThrow(
      /weights has length 3, expected 2/,
    );
    expect(() => knapsack01({ values: [1], weights: [1], capacity: -1 })).toThrow(
      InvalidInputError,
    );
    expect(() => knapsack01({ values: [Number.NaN], weights: [1], capacity: 1 })).toThrow(
      /values\[0\] is NaN/,
    );
    expect(() =>
      knapsack01({ values: [1], weights: [0.5], capacity: 1 }, { method: "dp" }),
    ).toThrow(/integers/);
    expect(() =>
      knapsack01({ values: [1], weights: [1], capacity: 1 }, { method: "x" as never }),
    ).toThrow(/options\.method/);
  });
});
