import { describe, expect, it } from "vitest";
import { EXPERIMENTS } from "../src/experiments/registry.js";
import { tiesWith } from "../src/sweep/compare.js";
import { formatValue, metricInfo } from "../src/sweep/metrics.js";

describe("formatValue: one format per metric in every table", () => {
  it("prints fractions of core's as percentages, a mean with its CI half-width, '-' without runs", () => {
    const u = metricInfo("utilization");
    expect(formatValue(u, 0.69851)).toBe("69.9%");
    expect(formatValue(u, { mean: 0.69851, ci95: 0.0123, runs: 5 })).toBe("69.9 ± 1.2%");
    expect(formatValue(u, { mean: 0.5, ci95: Number.NaN, runs: 0 })).toBe("-");
    expect(formatValue(metricInfo("meanWait"), { mean: 1234.56, ci95: 12.34, runs: 5 })).toBe(
      "1234.6 ± 12.3",
    );
    expect(formatValue(metricInfo("makespan"), 1234.4)).toBe("1234");
  });

  it("an experiment's title gives the column; a title in % keeps its values as they are", () => {
    const convergent = EXPERIMENTS.find((e) => e.name === "convergent");
    const usage = metricInfo("machineUsage", convergent);
    expect(usage.title).toBe("machine usage (%)");
    expect(usage.percent).toBeUndefined();
    expect(formatValue(usage, 87.5)).toBe("87.50");
    expect(metricInfo("machineUsage").percent).toBe(true);
  });

  it("which way is better is the experiment's word: no best for offered load, search nodes, variables", () => {
    const find = (name: string) => EXPERIMENTS.find((e) => e.name === name);
    const ar = EXPERIMENTS.find((e) => e.metrics.some((m) => m.key === "offeredLoad"));
    expect(metricInfo("offeredLoad", ar).better).toBe("none");
    expect(metricInfo("acceptanceRate", ar).better).toBe("higher");
    const mkp = EXPERIMENTS.find((e) => e.metrics.some((m) => m.key === "usagePct"));
    expect(metricInfo("usagePct", mkp).better).toBe("higher");
    expect(metricInfo("exactNodes", mkp).better).toBe("none");
    expect(metricInfo("optimal", mkp).better).toBe("higher");
    expect(metricInfo("meanWait", find("fcfs-load")).better).toBe("lower");
    // Every metric an experiment declares says it, and the "best" marks follow it.
    for (const e of EXPERIMENTS) {
      for (const m of e.metrics) expect(metricInfo(m.key, e).better).toBe(m.better);
    }
  });
});

describe("tiesWith: best marks only where the intervals do not overlap", () => {
  const s = (mean: number, ci95: number, runs = 5) => ({ mean, ci95, runs });
  it("ties overlapping intervals and equal means, not disjoint intervals or single runs", () => {
    expect(tiesWith(s(10, 1), s(9, 0.5))).toBe(true); // |10 - 9| <= 1.5
    expect(tiesWith(s(10, 0.4), s(9, 0.5))).toBe(false); // 1 > 0.9
    expect(tiesWith(s(9, Number.NaN, 1), s(9, Number.NaN, 1))).toBe(true);
    expect(tiesWith(s(9.1, Number.NaN, 1), s(9, Number.NaN, 1))).toBe(false);
  });
  it("ties intervals that just touch (|difference| = the sum of the half-widths)", () => {
    expect(tiesWith(s(12, 1), s(10, 1))).toBe(true);
    expect(tiesWith(s(12, 0.75), s(10, 1.25))).toBe(true);
  });
});
