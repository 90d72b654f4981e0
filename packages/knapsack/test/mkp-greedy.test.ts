import { InvalidInputError } from "@sched/errors";
import { describe, expect, it } from "vitest";
import { mkpExact, mkpGreedy } from "../src/index.js";

describe("mkpGreedy", () => {
  it("follows Eilon's surrogate order c_i / a_i with a_i over critical constraints", () => {
    // Both constraints critical: a = [4/6 + 1/4, 3/6 + 2/4, 3/6 + 2/4], ratios 10.9, 7, 6.
    const inst = {
      values: [10, 7, 6],
      weights: [
        [4, 3, 3],
        [1, 2, 2],
      ],
      capacities: [6, 4],
    };
    for (const strategy of ["fill", "drop"] as const) {
      expect(mkpGreedy(inst, { strategy })).toEqual({ items: [0], value: 10, optimal: false });
    }
  });

  it("breaks ties as documented in every variant: ranking to the lower index, drops to the higher", () => {
    // Two identical items, room for one: "fill" takes the first of the tied ranking, "drop"
    // discards the last; either way item 0 is kept, with or without reweighting and rho.
    const inst = { values: [1, 1, 1], weights: [[1, 1, 1]], capacities: [1] };
    for (const strategy of ["fill", "drop"] as const) {
      for (const rhoExponent of [0, 2]) {
        for (const reweight of [true, false]) {
          expect(mkpGreedy(inst, { strategy, rhoExponent, reweight }).items).toEqual([0]);
        }
      }
    }
  });

  it("re-weights after a discard: a constraint that stops being critical no longer counts", () => {
    // Drop item 0 (ratio 5/2); constraint 0 stops being critical, so item 2's weight falls from 2
    // to 1 and it now outranks item 1 (9 > 8). Without re-weighting item 2 (9/2) is dropped.
    const inst = {
      values: [5, 8, 9],
      weights: [
        [1, 0, 1],
        [1, 1, 1],
      ],
      capacities: [1, 1],
    };
    expect(mkpGreedy(inst)).toEqual({ items: [2], value: 9, optimal: false });
    expect(mkpGreedy(inst, { reweight: false })).toEqual({ items: [1], value: 8, optimal: false });
  });

  it("re-weights after a discard in the fill strategy too", () => {
    // Capacities 11 and 14. Ratios c_i / a_i: item 4 (no weight) first, then 2 (17.5), 0 (8),
    // 3 (5.55), 5 (4.67), 1 (1.87). Items 4, 2 and 0 fit (14 - 11 = 3 left on the second);
    // item 3 does not and is discarded, which leaves the first constraint with 11 = its
    // capacity: no longer critical, so item 1's a_1 falls from 11/11 + 1/14 to 1/14 and it
    // ranks first (28): taken, and item 5 no longer fits. Without re-weighting, item 5 (4.67)
    // comes before item 1 and takes the last copies.
    const inst = {
      values: [4, 2, 5, 4, 4, 1],
      weights: [
        [0, 11, 0, 4, 0, 0],
        [7, 1, 4, 5, 0, 3],
      ],
      capacities: [11, 14],
    };
    expect(mkpGreedy(inst, { strategy: "fill" }).items).toEqual([0, 1, 2, 4]);
    expect(mkpGreedy(inst, { strategy: "fill", reweight: false }).items).toEqual([0, 2, 4, 5]);
  });

  it("takes every item on no critical constraint", () => {
    const inst = {
      values: [1, 1, 1],
      weights: [
        [1, 1, 1],
        [0, 5, 0],
      ],
      capacities: [3, 1],
    };
    // Constraint 0 is not critical (3 <= 3); item 1 is too heavy for constraint 1.
    expect(mkpGreedy(inst).items).toEqual([0, 2]);
  });

  it("orders by options.costs but reports the sum of values", () => {
    const inst = { values: [1, 1], weights: [[1, 1]], capacities: [1] };
    expect(mkpGreedy(inst).items).toEqual([0]);
    expect(mkpGreedy(inst, { costs: [1, 3] })).toEqual({ items: [1], value: 1, optimal: false });
  });

  it("rhoExponent weights over-requested constraints more", () => {
    // rho = [3, 2]. Exponent 0: a = [2, 1, 1, 1], ratios [4, 4, 7, 6]: item 1 goes first (tie,
    // higher index), then 3 and 2. Exponent 2: a = [9 + 4, 4, 9, 9]: item 0 goes first.
    const inst = {
      values: [8, 4, 7, 6],
      weights: [
        [1, 0, 1, 1],
        [1, 1, 0, 0],
      ],
      capacities: [1, 1],
    };
    expect(mkpGreedy(inst)).toEqual({ items: [0], value: 8, optimal: false });
    expect(mkpGreedy(inst, { rhoExponent: 2 })).toEqual({
      items: [1, 2],
      value: 11,
      optimal: false,
    });
  });

  it("decides a fit by the plain sum in item order, both ways", () => {
    // Fill ranks item 3, then 0, 1, 2 (value per weight 20, 12.5, 10, 6.7). Taken in that order
    // the loads run 0.1, 0.5, 0.9, 1.2; in item order 0.4 + 0.4 + 0.3 + 0.1 = 1.2000000000000002,
    // over the capacity, so item 2 does not fit.
    const over = { values: [5, 4, 2, 2], weights: [[0.4, 0.4, 0.3, 0.1]], capacities: [1.2] };
    expect(mkpGreedy(over, { strategy: "fill" }).items).toEqual([0, 1, 3]);
    // Ranked 3, 0, 2, 1: taken in that order 0.1 + 0.3 + 0.2 = 0.6000000000000001, but in item
    // order 0.3 + 0.2 + 0.1 = 0.6, so item 2 fits.
    const exact = { values: [5, 1, 1, 5], weights: [[0.3, 0.5, 0.2, 0.1]], capacities: [0.6] };
    expect(mkpGreedy(exact, { strategy: "fill" }).items).toEqual([0, 2, 3]);
    // Two rows, both strategies: [0, 2, 3, 5] loads row 0 with 0.3 + 0.1 + 0.2 + 0.1 =
    // 0.7000000000000001 > 0.7; mkpExact, which starts from these choices, finds [0, 1, 2]
    // (row 0: 0.3 + 0.3 + 0.1 = 0.7), the same value 13 as brute force under plain sums.
    const two = {
      values: [5, 4, 4, 1, 3, 3],
      weights: [
        [0.3, 0.3, 0.1, 0.2, 0.5, 0.1],
        [0.3, 0.5, 0.3, 0, 0.3, 0.3],
      ],
      capacities: [0.7, 1.2],
    };
    for (const strategy of ["fill", "drop"] as const)
      expect(mkpGreedy(two, { strategy }).items).toEqual([0, 2, 5]);
    expect(mkpExact(two)).toMatchObject({ items: [0, 1, 2], value: 13, optimal: true });
  });

  it("has no approximation guarantee (the README's example)", () => {
    const inst = { values: [1, 100], weights: [[0.001, 1]], capacities: [1] };
    expect(mkpGreedy(inst).value).toBe(1);
    expect(mkpGreedy(inst, { strategy: "fill" }).value).toBe(1);
  });

  it("rejects bad options and instances, naming the field", () => {
    const inst = { values: [1], weights: [[1]], capacities: [1] };
    expect(() => mkpGreedy(inst, { costs: [1, 2] })).toThrow(
      /options\.costs has length 2, expected 1/,
    );
    expect(() => mkpGreedy(inst, { costs: [Number.NaN] })).toThrow(/options\.costs\[0\] is NaN/);
    expect(() => mkpGreedy(inst, { strategy: "best" as never })).toThrow(InvalidInputError);
    expect(() => mkpGreedy(inst, { rhoExponent: -1 })).toThrow(/options\.rhoExponent/);
    expect(() => mkpGreedy(inst, { reweight: "false" as never })).toThrow(
      '@sched/knapsack/mkpGreedy: options.reweight is "false", expected true or false',
    );
    expect(() => mkpGreedy({ ...inst, capacities: [Number.NaN] })).toThrow(
      "@sched/knapsack/mkpGreedy: capacities[0] is NaN, expected a finite number >= 0",
    );
  });

  it("names every bad number of an instance exactly, and takes -0 as a weight or capacity", () => {
    const base = { values: [1, 2], weights: [[1, 1]], capacities: [1] };
    const bad: [string, unknown, string][] = [
      ["values", [1, Number.NaN], "values[1] is NaN, expected a finite number"],
      ["values", [Number.NEGATIVE_INFINITY, 1], "values[0] is -Infinity, expected a finite number"],
      ["values", ["1", 1], "values[0] is string, expected a finite number"],
      ["capacities", [-1], "capacities[0] is -1, expected a number >= 0"],
      [
        "capacities",
        [Number.POSITIVE_INFINITY],
        "capacities[0] is Infinity, expected a finite number >= 0",
      ],
      ["capacities", [null], "capacities[0] is null, expected a finite number >= 0"],
      ["weights", [[1, -0.5]], "weights[0][1] is -0.5, expected a number >= 0"],
      ["weights", [[Number.NaN, 1]], "weights[0][0] is NaN, expected a finite number >= 0"],
      [
        "weights",
        [[1, Number.NEGATIVE_INFINITY]],
        "weights[0][1] is -Infinity, expected a finite number >= 0",
      ],
    ];
    for (const [field, value, message] of bad) {
      expect(() => mkpGreedy({ ...base, [field]: value })).toThrow(
        `@sched/knapsack/mkpGreedy: ${message}`,
      );
    }
    expect(mkpGreedy({ ...base, weights: [[-0, 1]], capacities: [-0] }).items).toEqual([0]);
  });
});
