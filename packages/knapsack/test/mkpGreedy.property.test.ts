import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { mkpGreedy } from "../src/index.js";
import { clone, isFeasible, mkpInstance, totalValue } from "./helpers.js";

const variants = fc.record({
  strategy: fc.constantFrom("fill" as const, "drop" as const),
  reweight: fc.boolean(),
  rhoExponent: fc.constantFrom(0, 1, 2),
});

describe("mkpGreedy properties", () => {
  it("returns a feasible, maximal choice (no skipped positive item still fits) in every variant", () => {
    fc.assert(
      fc.property(
        fc.oneof(mkpInstance(20, 4, "integer"), mkpInstance(20, 4, "real")),
        variants,
        (inst, options) => {
          const r = mkpGreedy(inst, options);
          expect(isFeasible(inst, r.items)).toBe(true);
          expect(r.value).toBe(totalValue(inst, r.items));
          expect(r.optimal).toBe(false);
          const chosen = new Set(r.items);
          for (let i = 0; i < inst.values.length; i++) {
            if (chosen.has(i) || (inst.values[i] as number) <= 0) continue;
            expect(
              isFeasible(
                inst,
                [...r.items, i].sort((a, b) => a - b),
                -1e-9,
              ),
            ).toBe(false);
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it("takes every positive item when they all fit together", () => {
    fc.assert(
      fc.property(mkpInstance(15, 3), variants, (inst, options) => {
        const roomy = {
          ...inst,
          capacities: inst.weights.map((row) => row.reduce((a, b) => a + b, 0)),
        };
        const expected = inst.values.flatMap((v, i) => (v > 0 ? [i] : []));
        expect(mkpGreedy(roomy, options).items).toEqual(expected);
      }),
      { numRuns: 100 },
    );
  });

  it("is deterministic and does not mutate its input", () => {
    fc.assert(
      fc.property(mkpInstance(15, 4), variants, (inst, options) => {
        const before = clone(inst);
        const a = mkpGreedy(inst, options);
        expect(inst).toEqual(before);
        expect(mkpGreedy(inst, options)).toEqual(a);
      }),
      { numRuns: 100 },
    );
  });
});
