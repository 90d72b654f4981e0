import { InvalidInputError } from "@sched/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { jobLevel } from "../src/job-level.js";

describe("jobLevel", () => {
  it("gives the largest jobs level 1 and the smallest the last level", () => {
    expect(jobLevel({ size: 9e9, minSize: 1e3, maxSize: 9e9, tiers: 5 })).toBe(1);
    expect(jobLevel({ size: 1e3, minSize: 1e3, maxSize: 9e9, tiers: 5 })).toBe(5);
  });

  it("cuts the log-size range into equal bins, hand-computed", () => {
    // range [1, 1e5] in log10 is [0, 5]: one decade per level
    expect(jobLevel({ size: 5e4, minSize: 1, maxSize: 1e5, tiers: 5 })).toBe(1);
    expect(jobLevel({ size: 5e3, minSize: 1, maxSize: 1e5, tiers: 5 })).toBe(2);
    expect(jobLevel({ size: 500, minSize: 1, maxSize: 1e5, tiers: 5 })).toBe(3);
    expect(jobLevel({ size: 50, minSize: 1, maxSize: 1e5, tiers: 5 })).toBe(4);
    expect(jobLevel({ size: 5, minSize: 1, maxSize: 1e5, tiers: 5 })).toBe(5);
    expect(jobLevel({ size: 3e6, minSize: 1e3, maxSize: 9e9, tiers: 5 })).toBe(3);
  });

  it("cuts the size range into equal bins with scale: linear, hand-computed", () => {
    // range [0, 100] cut into 5 bins of 20: (80, 100] level 1 ... [0, 20] level 5
    expect(jobLevel({ size: 90, minSize: 1e-9, maxSize: 100, tiers: 5, scale: "linear" })).toBe(1);
    expect(jobLevel({ size: 70, minSize: 1e-9, maxSize: 100, tiers: 5, scale: "linear" })).toBe(2);
    expect(jobLevel({ size: 50, minSize: 1e-9, maxSize: 100, tiers: 5, scale: "linear" })).toBe(3);
    expect(jobLevel({ size: 30, minSize: 1e-9, maxSize: 100, tiers: 5, scale: "linear" })).toBe(4);
    expect(jobLevel({ size: 10, minSize: 1e-9, maxSize: 100, tiers: 5, scale: "linear" })).toBe(5);
    // a uniform size in [1e3, 9e9] is level 1 on the log scale 96% of the time, 20% on the linear
    expect(jobLevel({ size: 5e9, minSize: 1e3, maxSize: 9e9, tiers: 5 })).toBe(1);
    expect(jobLevel({ size: 5e9, minSize: 1e3, maxSize: 9e9, tiers: 5, scale: "linear" })).toBe(3);
    expect(() =>
      jobLevel({ size: 5, minSize: 1, maxSize: 10, tiers: 5, scale: "cubic" as "log" }),
    ).toThrow("scale");
  });

  it("puts a size on a bin boundary in the bin of the smaller jobs, hand-computed", () => {
    // Bins are half-open toward the small sizes, as the comment above reads them: level 1 is
    // (80, 100] of the range, so a size exactly at 80% is level 2 (1 + floor(0.2 * 5)).
    // [1, 101] linear: 81 is 20% below the top (exactly 1 in floating point), 41 60%, 21 80%.
    expect(jobLevel({ size: 81, minSize: 1, maxSize: 101, tiers: 5, scale: "linear" })).toBe(2);
    expect(jobLevel({ size: 41, minSize: 1, maxSize: 101, tiers: 5, scale: "linear" })).toBe(4);
    expect(jobLevel({ size: 21, minSize: 1, maxSize: 101, tiers: 5, scale: "linear" })).toBe(5);
    // log scale: 10 is half way between 1 and 100 in log (exactly 1 bin of 2 in floating point)
    expect(jobLevel({ size: 10, minSize: 1, maxSize: 100, tiers: 2 })).toBe(2);
    expect(jobLevel({ size: 1000, minSize: 1, maxSize: 1e6, tiers: 2 })).toBe(2);
    expect(jobLevel({ size: 2, minSize: 1, maxSize: 4, tiers: 2 })).toBe(2);
  });

  it("clamps sizes outside the range and gives level 1 when the range is one size", () => {
    expect(jobLevel({ size: 1e12, minSize: 1, maxSize: 1e5, tiers: 5 })).toBe(1);
    expect(jobLevel({ size: 0.5, minSize: 1, maxSize: 1e5, tiers: 5 })).toBe(5);
    expect(jobLevel({ size: 7, minSize: 7, maxSize: 7, tiers: 5 })).toBe(1);
  });

  it("is between 1 and tiers and never larger for a larger job", () => {
    const s = fc.double({ min: 1e-3, max: 1e12, noNaN: true });
    fc.assert(
      fc.property(s, s, s, s, fc.integer({ min: 1, max: 9 }), (a, b, x, y, tiers) => {
        const [lo, hi] = x < y ? [x, y] : [y, x];
        const la = jobLevel({ size: a, minSize: lo, maxSize: hi, tiers: tiers });
        expect(la).toBeGreaterThanOrEqual(1);
        expect(la).toBeLessThanOrEqual(tiers);
        if (a <= b)
          expect(jobLevel({ size: b, minSize: lo, maxSize: hi, tiers: tiers })).toBeLessThanOrEqual(
            la,
          );
      }),
    );
  });

  it("validates", () => {
    expect(() => jobLevel({ size: 0, minSize: 1, maxSize: 2, tiers: 5 })).toThrow(
      InvalidInputError,
    );
    expect(() => jobLevel({ size: 1, minSize: 3, maxSize: 2, tiers: 5 })).toThrow(
      "minSize is 3, expected <= maxSize (2)",
    );
    expect(() => jobLevel({ size: 1, minSize: 1, maxSize: 2, tiers: 0 })).toThrow("tiers");
  });
});

describe("jobLevel on sizes whose logarithms coincide", () => {
  it("gives level 1 instead of NaN (found by fast-check)", () => {
    expect(
      jobLevel({
        size: 999999999999.9974,
        minSize: 999999999999.9973,
        maxSize: 999999999999.9976,
        tiers: 1,
      }),
    ).toBe(1);
    expect(
      jobLevel({
        size: 999999999999.9974,
        minSize: 999999999999.9973,
        maxSize: 999999999999.9976,
        tiers: 5,
      }),
    ).toBe(1);
  });
});
