import { describe, expect, it } from "vitest";
import { summarize, tQuantile975 } from "../src/stats.js";

describe("tQuantile975", () => {
  it("matches published Student t quantiles (scipy.stats.t.ppf(0.975, df))", () => {
    const expected: [number, number][] = [
      [1, 12.706205],
      [2, 4.302653],
      [10, 2.228139],
      [30, 2.042272],
      [31, 2.039513],
      [50, 2.008559],
      [100, 1.983972],
    ];
    for (const [df, t] of expected) expect(tQuantile975(df)).toBeCloseTo(t, 5);
  });

  it("rejects a non-integer or non-positive df", () => {
    expect(() => tQuantile975(0)).toThrow(RangeError);
    expect(() => tQuantile975(1.5)).toThrow(RangeError);
  });
});

describe("summarize", () => {
  it("gives the mean and t * s / sqrt(n)", () => {
    const s = summarize([1, 2, 3, 4]);
    expect(s.mean).toBe(2.5);
    expect(s.runs).toBe(4);
    // s = sqrt(5/3), t(3) = 3.182446
    expect(s.ci95).toBeCloseTo((3.182446 * Math.sqrt(5 / 3)) / 2, 6);
  });

  it("has no interval with one run and no mean with none", () => {
    expect(summarize([7])).toEqual({ mean: 7, ci95: Number.NaN, runs: 1 });
    expect(summarize([]).runs).toBe(0);
    expect(summarize([5, 5, 5]).ci95).toBe(0);
  });
});
