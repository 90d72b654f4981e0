import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { mkpExact, mkpGreedy } from "../src/index.js";
import { bruteForce, clone, isFeasible, mkpInstance, totalValue } from "./helpers.js";

describe("mkpExact properties", () => {
  it("equals brute force on integer instances up to 15 items and 4 constraints", () => {
    fc.assert(
      fc.property(mkpInstance(15, 4, "integer"), (inst) => {
        const r = mkpExact(inst);
        expect(r.optimal).toBe(true);
        expect(isFeasible(inst, r.items)).toBe(true);
        expect(r.value).toBe(totalValue(inst, r.items));
        expect(r.value).toBe(bruteForce(inst).value);
      }),
      { numRuns: 250 },
    );
  });

  it("equals brute force on real-valued instances (up to rounding)", () => {
    fc.assert(
      fc.property(mkpInstance(12, 3, "real"), (inst) => {
        const r = mkpExact(inst);
        expect(r.optimal).toBe(true);
        expect(isFeasible(inst, r.items)).toBe(true);
        expect(r.value).toBeCloseTo(bruteForce(inst).value, 6);
      }),
      { numRuns: 150 },
    );
  });

  it("never lowers the optimum when a capacity grows", () => {
    fc.assert(
      fc.property(
        mkpInstance(12, 4),
        fc.nat(),
        fc.integer({ min: 1, max: 30 }),
        (inst, which, extra) => {
          const k = which % inst.capacities.length;
          const bigger = clone(inst);
          bigger.capacities[k] = (bigger.capacities[k] as number) + extra;
          expect(mkpExact(bigger).value).toBeGreaterThanOrEqual(mkpExact(inst).value);
        },
      ),
      { numRuns: 150 },
    );
  });

  it("is at least as good as the greedy, which is feasible", () => {
    fc.assert(
      fc.property(mkpInstance(15, 4), (inst) => {
        const g = mkpGreedy(inst);
        expect(isFeasible(inst, g.items)).toBe(true);
        expect(g.value).toBeLessThanOrEqual(mkpExact(inst).value);
      }),
      { numRuns: 200 },
    );
  });

  it("returns a feasible solution no worse than the greedy when the node limit stops it", () => {
    fc.assert(
      fc.property(mkpInstance(15, 4), fc.integer({ min: 0, max: 20 }), (inst, nodeLimit) => {
        const r = mkpExact(inst, { nodeLimit });
        expect(isFeasible(inst, r.items)).toBe(true);
        expect(r.value).toBeGreaterThanOrEqual(mkpGreedy(inst).value);
        expect(r.bound).toBeGreaterThanOrEqual(bruteForce(inst).value - 1e-9);
        if (r.optimal) expect(r.value).toBe(bruteForce(inst).value);
      }),
      { numRuns: 150 },
    );
  });

  it("is deterministic and does not mutate its input", () => {
    fc.assert(
      fc.property(mkpInstance(12, 3), (inst) => {
        const before = clone(inst);
        const a = mkpExact(inst);
        expect(inst).toEqual(before);
        expect(mkpExact(inst)).toEqual(a);
      }),
      { numRuns: 50 },
    );
  });
});
