import { InvalidInputError, simulate } from "@sched/core";
import { describe, expect, it } from "vitest";
import { competitiveScheduler } from "../src/competitive-scheduler.js";
import { eloInstance, eloPlatform, eloWorkload } from "../src/paper-setup.js";

describe("eloPlatform", () => {
  it("draws speeds in [minSpeed, maxSpeed], machine 0 at maxSpeed, reference speed maxSpeed", () => {
    const p = eloPlatform({ machines: 30, seed: 4 });
    expect(p.machines).toHaveLength(30);
    expect(p.machines[0]!.speed).toBe(9);
    expect(p.referenceSpeed).toBe(9);
    for (const m of p.machines) {
      expect(m.speed).toBeGreaterThanOrEqual(5);
      expect(m.speed).toBeLessThanOrEqual(9);
      expect(m.cores).toBe(1);
    }
    expect(eloPlatform({ machines: 30, seed: 4 })).toEqual(p);
    expect(eloPlatform({ machines: 30, seed: 5 })).not.toEqual(p);
  });

  it("validates", () => {
    expect(() => eloPlatform({ machines: 0 })).toThrow(InvalidInputError);
    expect(() => eloPlatform({ machines: 2, minSpeed: 10 })).toThrow("options.minSpeed is 10");
  });
});

describe("eloWorkload", () => {
  it("draws sizes in [minSize, maxSize] Mflop, runtimes at the reference speed, exact estimates", () => {
    const jobs = eloWorkload({ jobs: 500, seed: 2 });
    for (const j of jobs) {
      expect(j.submit).toBe(0);
      expect(j.runtime * 9).toBeGreaterThanOrEqual(1e-3 * (1 - 1e-12));
      expect(j.runtime * 9).toBeLessThanOrEqual(9000 * (1 + 1e-12));
      expect(j.estimate).toBe(j.runtime);
    }
    // log-uniform: about a sixth of the jobs per decade of the ~6.95 decades
    const small = jobs.filter((j) => j.runtime * 9 < 1).length;
    expect(small).toBeGreaterThan(150);
    expect(small).toBeLessThan(290);
    expect(eloWorkload({ jobs: 500, seed: 2 })).toEqual(jobs);
  });

  it("spaces submissions by exponential gaps when meanInterarrival > 0", () => {
    const jobs = eloWorkload({ jobs: 2000, seed: 1, meanInterarrival: 10 });
    for (let i = 1; i < jobs.length; i++)
      expect(jobs[i]!.submit).toBeGreaterThanOrEqual(jobs[i - 1]!.submit);
    const mean = jobs.at(-1)!.submit / (jobs.length - 1);
    expect(mean).toBeGreaterThan(9);
    expect(mean).toBeLessThan(11);
  });

  it("validates", () => {
    expect(() => eloWorkload({ jobs: -1 })).toThrow(InvalidInputError);
    expect(() => eloWorkload({ jobs: 1, meanInterarrival: -1 })).toThrow(
      "options.meanInterarrival",
    );
    expect(() => eloWorkload({ jobs: 1, minSize: 5, maxSize: 1 })).toThrow("options.minSize");
  });
});

describe("eloInstance", () => {
  it("gives a runnable instance whose true speeds differ from the benchmarks", () => {
    const { jobs, platform, executionModel } = eloInstance({ machines: 5, jobs: 20, seed: 3 });
    const trace = simulate(jobs, platform, competitiveScheduler(), { executionModel });
    expect(trace.records.every((r) => r.outcome === "completed")).toBe(true);
    const differs = trace.records.some((r) => {
      const iv = r.intervals[0]!;
      const m = iv.allocation[0]!.machine;
      const atBenchmark = (r.job.runtime * 9) / platform.machines[m]!.speed;
      return Math.abs(iv.end - iv.start - atBenchmark) > 1e-9 * atBenchmark;
    });
    expect(differs).toBe(true);
  });
});
