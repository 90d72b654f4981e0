import { computeMetrics, simulate } from "@sched/core";
import { beforeAll, describe, expect, it } from "vitest";
import { oasExecutionModel } from "../src/execution.js";
import { oasExperiment, oasPlatform, spaceSharingExperiment } from "../src/experiments.js";
import { solveOas } from "../src/mip.js";
import { linkLoadViolations, oasPlanScheduler } from "../src/oas-heuristics.js";
import { loadSolver } from "../src/solver.js";
import { moldableWorkload, oasWorkload } from "../src/workloads.js";

describe("workloads", () => {
  it("moldableWorkload is seeded, sorted, and has the requested mean demand roughly", () => {
    const a = moldableWorkload({ jobs: 4000, load: 0.5, seed: 3 });
    expect(moldableWorkload({ jobs: 4000, load: 0.5, seed: 3 })).toEqual(a);
    for (let i = 1; i < a.length; i++)
      expect(a[i]!.submit).toBeGreaterThanOrEqual(a[i - 1]!.submit);
    const mean = a.reduce((s, j) => s + j.runtime, 0) / a.length;
    expect(mean).toBeGreaterThan(14.06 * 0.7);
    expect(mean).toBeLessThan(14.06 * 1.3);
    // offered load = rate * mean demand / P
    const rate = a.length / a[a.length - 1]!.submit;
    expect((rate * 14.06) / 64).toBeCloseTo(0.5, 1);
    expect(a.every((j) => j.maxParallelism! >= 1 && j.maxParallelism! <= 64)).toBe(true);
    expect(() => moldableWorkload({ load: 1 })).toThrow(/options.load/);
  });
  it("oasWorkload gives 8 jobs that fit the 6-node platform", () => {
    for (const w of [1, 2, 3, 4, 5, 6] as const) {
      const wl = oasWorkload(w);
      expect(wl.jobs.length).toBe(8);
      expect(wl.jobs.every((j) => j.cores <= 6 && wl.profiles.has(j.id))).toBe(true);
      expect(oasWorkload(w)).toEqual(wl);
    }
  });
});

describe("spaceSharingExperiment", () => {
  it("returns one row per policy, platform, background load and load, deterministically", () => {
    const opts = { clusters: 2, nodes: 4, loads: [0.3, 0.8], jobs: 150, backgroundLoads: [0, 0.3] };
    const rows = spaceSharingExperiment(opts);
    expect(rows.length).toBe(2 * 2 * 2 * 2);
    expect(rows.every((r) => r.jobs === 150 && r.meanResponse > 0)).toBe(true);
    expect(spaceSharingExperiment(opts)).toEqual(rows);
  });
});

describe("oasExperiment", () => {
  beforeAll(async () => {
    await loadSolver();
  });
  it("runs both parts on a cut-down setting", async () => {
    const r = await oasExperiment({
      jobs: 3,
      slotFractions: [2],
      workloads: [1],
      timeLimit: 5,
    });
    expect(r.slots.map((s) => s.fraction)).toEqual([2]);
    for (const s of r.slots) {
      expect(["optimal", "feasible"]).toContain(s.status);
      expect(s.makespan!).toBeLessThanOrEqual(s.mipMakespan! + 1e-9);
      expect(s.compactMakespan!).toBeLessThanOrEqual(s.makespan! + 1e-9);
    }
    expect(r.comparison.map((c) => c.method)).toEqual([
      "OAS",
      "FCFS",
      "SJF",
      "BJF",
      "FPFS",
      "SPT",
      "LPT",
    ]);
    expect(r.comparison.every((c) => c.makespan !== null && c.makespan > 0)).toBe(true);
  }, 60_000);
  it("the compacted plan keeps the MIP's order per machine and saturates no link", async () => {
    const w = oasWorkload(4);
    const jobs = w.jobs.slice(0, 3);
    const profile = (j: (typeof jobs)[number]) => w.profiles.get(j.id)!;
    const platform = oasPlatform();
    const r = await solveOas(jobs, platform, { eta: 100, profile, timeLimit: 5 });
    const executionModel = oasExecutionModel({ profile });
    const trace = simulate(
      jobs,
      platform,
      oasPlanScheduler(r.schedule, r.eta, { compact: true, profile }),
      {
        executionModel,
      },
    );
    expect(linkLoadViolations(trace, profile)).toEqual([]);
    expect(computeMetrics(trace).makespan).toBeLessThanOrEqual(r.makespan! + 1e-9);
    const start = (id: number) => trace.records.find((x) => x.job.id === id)!.intervals[0]!.start;
    for (const a of r.schedule) {
      for (const b of r.schedule) {
        const share = a.allocation.some((p) => b.allocation.some((q) => q.machine === p.machine));
        if (share && a.startSlot < b.startSlot) expect(start(a.jobId)).toBeLessThan(start(b.jobId));
      }
    }
  }, 60_000);
});
