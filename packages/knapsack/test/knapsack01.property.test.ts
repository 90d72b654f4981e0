import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { knapsack01 } from "../src/index.js";
import { bruteForce, clone, isFeasible } from "./helpers.js";

const instance = fc.integer({ min: 0, max: 15 }).chain((n) =>
  fc.record({
    values: fc.array(fc.integer({ min: -5, max: 40 }), { minLength: n, maxLength: n }),
    weights: fc.array(fc.integer({ min: 0, max: 25 }), { minLength: n, maxLength: n }),
    capacity: fc.integer({ min: 0, max: 120 }),
  }),
);

describe("knapsack01 properties", () => {
  it("DP, branch and bound and brute force agree on integer instances up to 15 items", () => {
    fc.assert(
      fc.property(instance, (inst) => {
        const before = clone(inst);
        const asMkp = { values: inst.values, weights: [inst.weights], capacities: [inst.capacity] };
        const best = bruteForce(asMkp).value;
        for (const method of ["dp", "branch-and-bound"] as const) {
          const r = knapsack01(inst, { method });
          expect(r.optimal).toBe(true);
          expect(r.value).toBe(best);
          expect(isFeasible(asMkp, r.items, 0)).toBe(true);
        }
        expect(inst).toEqual(before);
      }),
      { numRuns: 300 },
    );
  });

  it("never lowers the optimum when the capacity grows", () => {
    fc.assert(
      fc.property(instance, fc.integer({ min: 1, max: 30 }), (inst, extra) => {
        expect(
          knapsack01({ ...inst, capacity: inst.capacity + extra }).value,
        ).toBeGreaterThanOrEqual(knapsack01(inst).value);
      }),
      { numRuns: 100 },
    );
  });
});
