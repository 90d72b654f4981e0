import { InvalidInputError, validateJobs } from "@sched/core";
import { Random } from "@sched/random";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { OAS_POWERS, oasWorkload } from "../src/oas.js";
import { mean } from "./stats.js";

describe("oasWorkload", () => {
  it("builds 3 clusters x 2 nodes with effective power 1.0, 0.75, 0.5 on Gigabit links", () => {
    const { platform } = oasWorkload();
    expect(platform.machines.map((m) => m.speed)).toEqual([1, 1, 0.75, 0.75, 0.5, 0.5]);
    expect(platform.machines.map((m) => m.cluster)).toEqual([0, 0, 1, 1, 2, 2]);
    expect(platform.links.map((l) => l.bandwidth)).toEqual([125e6, 125e6, 125e6]);
    expect(OAS_POWERS).toEqual([1, 0.75, 0.5]);
  });

  it("WL-1: sizes that pair up to fill the 6 nodes, sigma 0.8, 20.5 MB/s per task (its intent is measured with the OAS heuristics in @sched/multicluster)", () => {
    const { jobs, bsp } = oasWorkload({ workload: "WL-1" });
    expect(jobs.map((j) => [j.cores, j.runtime])).toEqual([
      [4, 300],
      [2, 300],
      [3, 240],
      [3, 240],
      [5, 180],
      [1, 180],
      [2, 120],
      [2, 120],
    ]);
    expect(bsp).toEqual(new Array(8).fill({ perTaskBandwidth: 20.5e6, sigma: 0.8 }));
  });

  it("WL-2: long narrow jobs behind wide ones, sigma 0.8 (its intent is measured with the OAS heuristics in @sched/multicluster)", () => {
    const { jobs, bsp } = oasWorkload({ workload: "WL-2" });
    expect(jobs.map((j) => [j.cores, j.runtime])).toEqual([
      [3, 420],
      [3, 180],
      [2, 480],
      [1, 60],
      [6, 60],
      [1, 480],
      [6, 480],
      [1, 60],
    ]);
    expect(bsp.every((b) => b.sigma === 0.8)).toBe(true);
  });

  it("hand-made workloads: the first `jobs` jobs, the heavy family's midpoint bandwidth, and no more than 8", () => {
    expect(oasWorkload({ workload: "WL-2", jobs: 3 }).jobs.map((j) => j.cores)).toEqual([3, 3, 2]);
    const heavy = oasWorkload({ workload: "WL-1", bandwidth: "heavy" });
    expect(heavy.bsp.every((b) => b.perTaskBandwidth === 71.5e6)).toBe(true);
    expect(() => oasWorkload({ workload: "WL-1", jobs: 9 })).toThrow(
      "options.jobs is 9, but WL-1 has 8 jobs",
    );
  });

  it("WL-3 to WL-6 are random batches, each its own stream of the seed", () => {
    const batches = (["WL-3", "WL-4", "WL-5", "WL-6"] as const).map((w) =>
      oasWorkload({ workload: w, seed: 1 }),
    );
    for (const b of batches) expect(b.jobs).toHaveLength(8);
    const keys = new Set(batches.map((b) => JSON.stringify(b.jobs)));
    expect(keys.size).toBe(4);
    expect(oasWorkload({ workload: "WL-3", seed: 1 })).toEqual(batches[0]);
    expect(oasWorkload({ workload: "WL-3", seed: 2 }).jobs).not.toEqual(batches[0]!.jobs);
  });

  it("a random batch is its documented draws, per job: tasks, base time, per-task bandwidth, sigma (uniform on the ranges)", () => {
    for (const workload of ["random", "WL-3", "WL-6"] as const) {
      for (const bandwidth of ["moderate", "heavy"] as const) {
        const w = oasWorkload({ workload, bandwidth, jobs: 12, seed: 7 });
        const r = new Random(7, workload === "random" ? "oas/jobs" : `oas/${workload}`);
        const [lo, hi] = bandwidth === "heavy" ? [65e6, 78e6] : [1e6, 40e6];
        w.jobs.forEach((j, i) => {
          const tasks = r.integer(1, 6);
          const base = r.uniform(100, 1000);
          expect(j).toEqual({
            id: i,
            submit: 0,
            runtime: base,
            estimate: base,
            cores: tasks,
            tasks,
          });
          expect(w.bsp[i]).toEqual({
            perTaskBandwidth: r.uniform(lo, hi),
            sigma: r.uniform(0.5, 1),
          });
        });
      }
    }
  });

  it("the heavy family draws per-task bandwidth in [65, 78] MB/s: every co-allocated pair saturates a shared Gigabit link, every job fits alone", () => {
    for (let seed = 0; seed < 20; seed++) {
      const w = oasWorkload({ workload: "WL-4", bandwidth: "heavy", seed });
      for (const b of w.bsp) {
        expect(b.perTaskBandwidth).toBeGreaterThanOrEqual(65e6);
        expect(b.perTaskBandwidth).toBeLessThanOrEqual(78e6);
        expect(2 * b.perTaskBandwidth).toBeGreaterThan(125e6);
        expect(1.6 * b.perTaskBandwidth).toBeLessThanOrEqual(125e6);
      }
    }
  });

  it("random workloads: valid jobs from the stated ranges, all at time 0, deterministic per seed", () => {
    for (let seed = 3; seed <= 6; seed++) {
      const w = oasWorkload({ seed });
      expect(validateJobs(w.jobs)).toEqual(w.jobs);
      expect(w.jobs).toHaveLength(8);
      w.jobs.forEach((j, i) => {
        expect(j.submit).toBe(0);
        expect(j.tasks).toBe(j.cores);
        expect(j.cores).toBeGreaterThanOrEqual(1);
        expect(j.cores).toBeLessThanOrEqual(6);
        expect(j.runtime).toBeGreaterThanOrEqual(100);
        expect(j.runtime).toBeLessThanOrEqual(1000);
        expect(w.bsp[i]!.sigma).toBeGreaterThanOrEqual(0.5);
        expect(w.bsp[i]!.sigma).toBeLessThanOrEqual(1);
        expect(w.bsp[i]!.perTaskBandwidth).toBeGreaterThanOrEqual(1e6);
        expect(w.bsp[i]!.perTaskBandwidth).toBeLessThanOrEqual(40e6);
      });
      expect(oasWorkload({ seed })).toEqual(w);
    }
  });

  it("random task counts are uniform on 1..6 (mean 3.5 over 60,000 jobs)", () => {
    const { jobs } = oasWorkload({ jobs: 60_000, seed: 1 });
    expect(Math.abs(mean(jobs.map((j) => j.cores)) - 3.5)).toBeLessThan(
      5 * Math.sqrt(35 / 12 / 60_000),
    );
  });

  it("never asks for more tasks than nodes, whatever the platform (property)", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 6 }),
        fc.integer({ min: 1, max: 4 }),
        fc.integer(),
        (per, clusters, seed) => {
          const w = oasWorkload({
            nodesPerCluster: per,
            powers: new Array(clusters).fill(1),
            seed,
          });
          for (const j of w.jobs) expect(j.cores).toBeLessThanOrEqual(w.platform.totalCores);
        },
      ),
      { numRuns: 50 },
    );
  });

  it("names what is out of range", () => {
    expect(() => oasWorkload({ tasks: [1, 7] })).toThrow(
      "options.tasks is [1,7], but the platform has 6 nodes",
    );
    expect(() => oasWorkload({ workload: "WL-1", nodesPerCluster: 1 })).toThrow(InvalidInputError);
    expect(() => oasWorkload({ sigma: [0, 2] })).toThrow(
      "options.sigma is [0,2], expected a range within [0, 1]",
    );
    // @ts-expect-error: an unknown workload on purpose
    expect(() => oasWorkload({ workload: "WL-9" })).toThrow('options.workload is "WL-9"');
    // @ts-expect-error: an unknown family on purpose
    expect(() => oasWorkload({ bandwidth: "huge" })).toThrow('options.bandwidth is "huge"');
  });
});
