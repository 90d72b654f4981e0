import { describe, expect, it } from "vitest";
import { batchStudy, spearman, streamStudy, summarizeRuns } from "../src/studies.js";

describe("summarizeRuns", () => {
  it("gives the mean and the Student-t 95% half-width, hand-computed", () => {
    const s = summarizeRuns([1, 2, 3]);
    expect(s.mean).toBe(2);
    expect(s.ci95).toBeCloseTo(4.303 * Math.sqrt(1 / 3), 10);
    expect(s.runs).toBe(3);
    expect(Number.isNaN(summarizeRuns([5]).ci95)).toBe(true);
    expect(summarizeRuns([4, 4, 4, 4]).ci95).toBe(0);
  });
});

describe("spearman", () => {
  it("is 1 for the same order, -1 for the reverse, and averages tied ranks", () => {
    expect(spearman([1, 2, 3, 4], [10, 20, 30, 40])).toBeCloseTo(1, 12);
    expect(spearman([1, 2, 3, 4], [4, 3, 2, 1])).toBeCloseTo(-1, 12);
    // ranks (0.5, 0.5, 2) against (0, 1, 2): r = 1.5 / sqrt(1.5 * 2)
    expect(spearman([7, 7, 9], [1, 2, 3])).toBeCloseTo(1.5 / Math.sqrt(3), 12);
    expect(spearman([1, 1, 1], [1, 2, 3])).toBe(0);
  });
});

describe("batchStudy", () => {
  it("gives one row per machine count x job set x policy, reproducibly", () => {
    const options = { machines: [4], jobSets: [6, 12], seeds: 3 };
    const rows = batchStudy(options);
    expect(rows).toHaveLength(2 * 5);
    expect(new Set(rows.map((r) => r.scheduler))).toEqual(
      new Set(["competitive", "min-min", "random", "max-min", "mct"]),
    );
    for (const r of rows) {
      expect(r.makespan.runs).toBe(3);
      expect(r.makespan.mean).toBeGreaterThan(0);
      expect(r.meanResponse.mean).toBeLessThanOrEqual(r.makespan.mean);
    }
    expect(batchStudy(options)).toEqual(rows);
  });
});

describe("streamStudy", () => {
  it("learns the machines when their speeds span the tiers (ratings correlate with speeds)", () => {
    const r = streamStudy({
      machines: 10,
      jobs: 1500,
      windows: 3,
      seeds: 2,
      minSpeed: 1.8,
      load: 0.6,
    });
    expect(r.response).toHaveLength(5 * 3);
    expect(r.convergence).toHaveLength(3);
    expect(r.convergence[2]!.rankCorrelation.mean).toBeGreaterThan(0.5);
  });
});
