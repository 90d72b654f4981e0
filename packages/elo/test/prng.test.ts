import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createRandom } from "../src/prng.js";

describe("createRandom", () => {
  it("gives the same sequence for the same seed and another for another seed", () => {
    const a = createRandom(7);
    const b = createRandom(7);
    const c = createRandom(8);
    const xs = Array.from({ length: 20 }, () => a.next());
    expect(Array.from({ length: 20 }, () => b.next())).toEqual(xs);
    expect(Array.from({ length: 20 }, () => c.next())).not.toEqual(xs);
  });

  it("draws floats in [0, 1) and integers in [0, n)", () => {
    fc.assert(
      fc.property(fc.integer(), fc.integer({ min: 1, max: 1000 }), (seed, n) => {
        const r = createRandom(seed);
        for (let i = 0; i < 50; i++) {
          const x = r.next();
          expect(x).toBeGreaterThanOrEqual(0);
          expect(x).toBeLessThan(1);
          const k = r.int(n);
          expect(Number.isInteger(k) && k >= 0 && k < n).toBe(true);
        }
      }),
      { numRuns: 50 },
    );
  });

  it("is close to uniform: chi-square over 10 bins of 100000 draws is below the 0.1% critical value", () => {
    const r = createRandom(20261121);
    const bins = new Array<number>(10).fill(0);
    const n = 100_000;
    for (let i = 0; i < n; i++) bins[r.int(10)]! += 1;
    const expected = n / 10;
    const chi2 = bins.reduce((s, o) => s + (o - expected) ** 2 / expected, 0);
    expect(chi2).toBeLessThan(27.88); // 9 degrees of freedom, p = 0.001
  });

  it("rejects a non-finite seed and a bad n", () => {
    expect(() => createRandom(Number.NaN)).toThrow("@sched/elo/createRandom: seed is NaN");
    expect(() => createRandom(1).int(0)).toThrow("int(n)");
  });
});
