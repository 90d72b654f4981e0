import { InvalidInputError, validateJobs } from "@sched/core";
import { describe, expect, it } from "vitest";
import { ELO_JOB_SETS, ELO_MACHINES, eloWorkload } from "../src/elo.js";
import { ks1, mean } from "./stats.js";

describe("eloWorkload", () => {
  it("builds every experiment's shape: 30 or 60 machines, sets of 10 to 60 jobs at time 0", () => {
    for (const machines of ELO_MACHINES) {
      for (const jobs of ELO_JOB_SETS) {
        const w = eloWorkload({ machines, jobs, seed: 1 });
        expect(w.platform.machines).toHaveLength(machines);
        expect(w.jobs).toHaveLength(jobs);
        expect(validateJobs(w.jobs)).toEqual(w.jobs);
        expect(w.jobs.every((j) => j.submit === 0 && j.cores === 1)).toBe(true);
      }
    }
  });

  it("draws machine speeds uniformly in [5, 9] Mflops", () => {
    const speeds = eloWorkload({ machines: 3000, seed: 2 }).platform.machines.map((m) => m.speed);
    expect(Math.min(...speeds)).toBeGreaterThanOrEqual(5);
    expect(Math.max(...speeds)).toBeLessThanOrEqual(9);
    expect(ks1(speeds, (x) => (x - 5) / 4)).toBeLessThan(1.949 / Math.sqrt(3000));
  });

  it("draws uniform sizes in [1e3, 9e9] operations by default; run time = operations / 1e6 s", () => {
    const w = eloWorkload({ jobs: 20_000, seed: 3 });
    expect(ks1(w.operations, (x) => (x - 1e3) / (9e9 - 1e3))).toBeLessThan(
      1.949 / Math.sqrt(20_000),
    );
    w.jobs.forEach((j, i) => {
      expect(j.runtime).toBeCloseTo(w.operations[i]! / 1e6, 9);
    });
  });

  it("draws log-uniform sizes in [1e3, 9e9] operations with sizes: log-uniform", () => {
    const w = eloWorkload({ jobs: 20_000, seed: 3, sizes: "log-uniform" });
    const lo = Math.log(1e3);
    const hi = Math.log(9e9);
    const logs = w.operations.map(Math.log);
    expect(Math.min(...w.operations)).toBeGreaterThanOrEqual(1e3);
    expect(Math.max(...w.operations)).toBeLessThanOrEqual(9e9 * (1 + 1e-12));
    expect(ks1(logs, (x) => (x - lo) / (hi - lo))).toBeLessThan(1.949 / Math.sqrt(20_000));
    w.jobs.forEach((j, i) => {
      expect(j.runtime).toBeCloseTo(w.operations[i]! / 1e6, 9);
    });
  });

  it("gives level 1 to the largest fifth (in log size) and 5 to the smallest, ~20% each", () => {
    const w = eloWorkload({ jobs: 20_000, seed: 4, sizes: "log-uniform" });
    const counts = [0, 0, 0, 0, 0, 0];
    for (const l of w.levels) counts[l]!++;
    for (let l = 1; l <= 5; l++) {
      // binomial(20000, 0.2): sd 57
      expect(Math.abs(counts[l]! - 4000)).toBeLessThan(5 * 57);
    }
    // levels never increase with size
    const order = w.operations
      .map((o, i) => [o, w.levels[i]!] as const)
      .sort((a, b) => a[0] - b[0]);
    for (let i = 1; i < order.length; i++)
      expect(order[i]![1]).toBeLessThanOrEqual(order[i - 1]![1]);
    expect(mean(w.levels)).toBeCloseTo(3, 1);
  });

  it("pins machine 0 at the top speed only when asked, leaving the other machines alone", () => {
    const a = eloWorkload({ machines: 30, seed: 5 }).platform.machines.map((m) => m.speed);
    const b = eloWorkload({ machines: 30, seed: 5, pinFastest: true }).platform.machines.map(
      (m) => m.speed,
    );
    expect(a[0]).toBeLessThan(9);
    expect(b[0]).toBe(9);
    expect(b.slice(1)).toEqual(a.slice(1));
  });

  it("submits a stream at the offered load: mean work / (machines x mean speed x span) ~ load", () => {
    const w = eloWorkload({ jobs: 20_000, machines: 30, load: 0.7, seed: 6 });
    const span = w.jobs.at(-1)!.submit;
    const work = w.operations.reduce((s, o) => s + o / 1e6, 0);
    expect(work / (30 * 7 * span)).toBeCloseTo(0.7, 1);
    // the load only moves arrivals: sizes are those of the batch
    expect(w.operations).toEqual(eloWorkload({ jobs: 20_000, machines: 30, seed: 6 }).operations);
  });

  it("names the option that is out of range", () => {
    expect(() => eloWorkload({ load: -1 })).toThrow("options.load is -1");
    expect(() => eloWorkload({ sizes: "normal" as "uniform" })).toThrow("options.sizes");
    expect(() => eloWorkload({ levels: 0 })).toThrow(InvalidInputError);
    expect(() => eloWorkload({ operations: [9e9, 1e3] })).toThrow(
      "@sched/workload/eloWorkload: options.operations is [9000000000,1000], expected [lo, hi] with finite",
    );
  });
});
