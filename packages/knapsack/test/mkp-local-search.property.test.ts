import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { mkpGreedy } from "../src/index.js";
import { localSearch } from "../src/mkp-local-search.js";
import { columnsOf, isFeasible, licenseInstance, mkpInstance, totalValue } from "./helpers.js";

describe("localSearch properties", () => {
  it("keeps a feasible solution feasible, never lowers its value and ends maximal", () => {
    fc.assert(
      fc.property(
        fc.oneof(mkpInstance(15, 4), licenseInstance(30, 6, 6)),
        fc.nat(),
        (inst, seed) => {
          const n = inst.values.length;
          const m = inst.capacities.length;
          // Start from the greedy's solution minus a few items (still feasible).
          const start = mkpGreedy(inst).items.filter((i) => (i + seed) % 3 !== 0);
          const x = new Uint8Array(n);
          for (const i of start) x[i] = 1;
          const a = columnsOf(inst);
          // Items with a value <= 0 are the caller's to exclude; give them none here.
          const v = Float64Array.from(inst.values, (y) => Math.max(y, 1e-3));
          localSearch(a, m, v, Float64Array.from(inst.capacities), x);
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
});
