import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type MkpInstance, mkpGreedy } from "../src/index.js";
import { localSearch } from "../src/mkp-local-search.js";
import { columnsOf, isFeasible, licenseInstance, mkpInstance, totalValue } from "./helpers.js";

/**
 * `localSearch` from the greedy's solution minus every item `i` with `(i + seed) % 3 === 0`
 * (still feasible), with values raised to at least 1e-3 (items with a value <= 0 are the
 * caller's to exclude). Returns that start, the solution the search left (`x[j]` 1 for a chosen
 * item) and the values it used.
 */
function searchedFromGreedy(
  inst: MkpInstance,
  seed: number,
): { start: number[]; x: Uint8Array; v: Float64Array } {
  const start = mkpGreedy(inst).items.filter((i) => (i + seed) % 3 !== 0);
  const x = new Uint8Array(inst.values.length);
  for (const i of start) x[i] = 1;
  const v = Float64Array.from(inst.values, (y) => Math.max(y, 1e-3));
  localSearch(columnsOf(inst), inst.capacities.length, v, Float64Array.from(inst.capacities), x);
  return { start: [...start], x, v };
}

describe("localSearch properties", () => {
  it("keeps a feasible solution feasible, never lowers its value and ends maximal", () => {
    fc.assert(
      fc.property(
        fc.oneof(mkpInstance(15, 4), licenseInstance(30, 6, 6)),
        fc.nat(),
        (inst, seed) => {
          const n = inst.values.length;
          const { start, x, v } = searchedFromGreedy(inst, seed);
          const items: number[] = [];
          for (let j = 0; j < n; j++) if (x[j] === 1) items.push(j);
          expect(isFeasible(inst, items)).toBe(true);
          expect(totalValue({ ...inst, values: Array.from(v) }, items)).toBeGreaterThanOrEqual(
            totalValue({ ...inst, values: Array.from(v) }, start) - 1e-9,
          );
          // Maximal: no unchosen item still fits.
          for (let j = 0; j < n; j++) {
            if (x[j] === 1) continue;
            expect(
              isFeasible(
                inst,
                [...items, j].sort((p, q) => p - q),
              ),
            ).toBe(false);
          }
        },
      ),
      { numRuns: 150 },
    );
  });

  it("ends where no documented move improves: no item fits, no 1-for-1 or 1-for-2 swap is worth more and fits", () => {
    // Integer weights, so the solver's running loads and these plain sums agree exactly.
    fc.assert(
      fc.property(
        fc.oneof(mkpInstance(15, 4), licenseInstance(24, 5, 5)),
        fc.nat(),
        (inst, seed) => {
          const n = inst.values.length;
          const { x, v } = searchedFromGreedy(inst, seed);
          const chosen: number[] = [];
          const outside: number[] = [];
          for (let j = 0; j < n; j++) (x[j] === 1 ? chosen : outside).push(j);
          const fits = (out: number, ins: readonly number[]): boolean =>
            isFeasible(
              inst,
              [...chosen.filter((i) => i !== out), ...ins].sort((p, q) => p - q),
              0,
            );
          for (const j of outside) expect(fits(-1, [j])).toBe(false);
          for (const i of chosen) {
            for (const j of outside) {
              if ((v[j] as number) > (v[i] as number)) expect(fits(i, [j])).toBe(false);
            }
            for (let p = 0; p < outside.length; p++) {
              for (let q = p + 1; q < outside.length; q++) {
                const j = outside[p] as number;
                const k = outside[q] as number;
                if ((v[j] as number) + (v[k] as number) > (v[i] as number))
                  expect(fits(i, [j, k])).toBe(false);
              }
            }
          }
        },
      ),
      { numRuns: 150 },
    );
  });
});
