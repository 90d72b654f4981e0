import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { summarize, tQuantile975 } from "../src/stats.js";

describe("stats properties", () => {
  it("the mean lies within the sample's range and the interval is non-negative", () => {
    fc.assert(
      fc.property(
        fc.array(fc.double({ min: -1e6, max: 1e6, noNaN: true }), { minLength: 2, maxLength: 40 }),
        (xs) => {
          const s = summarize(xs);
          expect(s.runs).toBe(xs.length);
          expect(s.mean).toBeGreaterThanOrEqual(Math.min(...xs) - 1e-6);
          expect(s.mean).toBeLessThanOrEqual(Math.max(...xs) + 1e-6);
          expect(s.ci95).toBeGreaterThanOrEqual(0);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("shifting every value shifts the mean and keeps the interval", () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: -1000, max: 1000 }), { minLength: 2, maxLength: 30 }),
        fc.integer({ min: -1000, max: 1000 }),
        (xs, c) => {
          const a = summarize(xs);
          const b = summarize(xs.map((x) => x + c));
          expect(b.mean).toBeCloseTo(a.mean + c, 6);
          expect(b.ci95).toBeCloseTo(a.ci95, 6);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("t(0.975, df) decreases towards the normal quantile 1.96", () => {
    for (let df = 1; df < 500; df++) {
      expect(tQuantile975(df + 1)).toBeLessThan(tQuantile975(df));
      expect(tQuantile975(df)).toBeGreaterThan(1.959963984540054);
    }
  });
});
