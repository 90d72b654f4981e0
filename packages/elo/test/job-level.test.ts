import { InvalidInputError } from "@sched/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { jobLevel } from "../src/job-level.js";

describe("jobLevel", () => {
  it("gives the largest jobs level 1 and the smallest the last level", () => {
    expect(jobLevel(9e9, 1e3, 9e9, 5)).toBe(1);
    expect(jobLevel(1e3, 1e3, 9e9, 5)).toBe(5);
  });

  it("cuts the log-size range into equal bins, hand-computed", () => {
    // range [1, 1e5] in log10 is [0, 5]: one decade per level
    expect(jobLevel(5e4, 1, 1e5, 5)).toBe(1);
    expect(jobLevel(5e3, 1, 1e5, 5)).toBe(2);
    expect(jobLevel(500, 1, 1e5, 5)).toBe(3);
    expect(jobLevel(50, 1, 1e5, 5)).toBe(4);
    expect(jobLevel(5, 1, 1e5, 5)).toBe(5);
    expect(jobLevel(3e6, 1e3, 9e9, 5)).toBe(3);
  });

  it("cuts the size range into equal bins with scale: linear, hand-computed", () => {
    // range [0, 100] cut into 5 bins of 20: (80, 100] level 1 ... [0, 20] level 5
    expect(jobLevel(90, 1e-9, 100, 5, { scale: "linear" })).toBe(1);
    expect(jobLevel(70, 1e-9, 100, 5, { scale: "linear" })).toBe(2);
    expect(jobLevel(50, 1e-9, 100, 5, { scale: "linear" })).toBe(3);
    expect(jobLevel(30, 1e-9, 100, 5, { scale: "linear" })).toBe(4);
    expect(jobLevel(10, 1e-9, 100, 5, { scale: "linear" })).toBe(5);
    // a uniform size in [1e3, 9e9] is level 1 on the log scale 96% of the time, 20% on the linear
    expect(jobLevel(5e9, 1e3, 9e9, 5)).toBe(1);
    expect(jobLevel(5e9, 1e3, 9e9, 5, { scale: "linear" })).toBe(3);
    expect(() => jobLevel(5, 1, 10, 5, { scale: "cubic" as "log" })).toThrow("options.scale");
  });

  it("clamps sizes outside the range and gives level 1 when the range is one size", () => {
    expect(jobLevel(1e12, 1, 1e5, 5)).toBe(1);
    expect(jobLevel(0.5, 1, 1e5, 5)).toBe(5);
    expect(jobLevel(7, 7, 7, 5)).toBe(1);
  });

  it("is between 1 and tiers and never larger for a larger job", () => {
    const s = fc.double({ min: 1e-3, max: 1e12, noNaN: true });
    fc.assert(
      fc.property(s, s, s, s, fc.integer({ min: 1, max: 9 }), (a, b, x, y, tiers) => {
        const [lo, hi] = x < y ? [x, y] : [y, x];
        const la = jobLevel(a, lo, hi, tiers);
        expect(la).toBeGreaterThanOrEqual(1);
        expect(la).toBeLessThanOrEqual(tiers);
        if (a <= b) expect(jobLevel(b, lo, hi, tiers)).toBeLessThanOrEqual(la);
      }),
    );
  });

  it("validates", () => {
    expect(() => jobLevel(0, 1, 2, 5)).toThrow(InvalidInputError);
    expect(() => jobLevel(1, 3, 2, 5)).toThrow("minSize is 3, expected <= maxSize (2)");
    expect(() => jobLevel(1, 1, 2, 0)).toThrow("tiers");
  });
});

describe("jobLevel on sizes whose logarithms coincide", () => {
  it("gives level 1 instead of NaN (found by fast-check)", () => {
    expect(jobLevel(999999999999.9974, 999999999999.9973, 999999999999.9976, 1)).toBe(1);
    expect(jobLevel(999999999999.9974, 999999999999.9973, 999999999999.9976, 5)).toBe(1);
  });
});
