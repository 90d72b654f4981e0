import { computeMetrics, type Job, simulate } from "@sched/core";
import { type OasWorkload, type OasWorkloadName, oasWorkload } from "@sched/workload";
import { beforeAll, describe, expect, it } from "vitest";
import type { OasProfile } from "../src/cost.js";
import { contentionDelays, oasExecutionModel } from "../src/execution.js";
import { solveOas } from "../src/mip.js";
import { checkOasSchedule } from "../src/oas-check.js";
import { OAS_RULES, type OasRule, oasHeuristic, oasPlanScheduler } from "../src/oas-heuristics.js";
import { loadSolver } from "../src/solver.js";

// The OAS paper's workloads as @sched/workload defines them, run with this package's heuristics
// and cost model: WL-1 and WL-2 must favour what the paper says they favour (§4.2).

const profileOf =
  (w: OasWorkload) =>
  (job: Job): OasProfile => ({
    sigma: w.bsp[job.id]!.sigma,
    ptbw: w.bsp[job.id]!.perTaskBandwidth,
  });

function makespans(w: OasWorkload, links = true): Record<OasRule, number> {
  const profile = profileOf(w);
  const executionModel = oasExecutionModel({ profile });
  const out = {} as Record<OasRule, number>;
  for (const rule of OAS_RULES) {
    const trace = simulate(w.jobs, w.platform, oasHeuristic(rule, { profile, links }), {
      executionModel,
    });
    out[rule] = computeMetrics(trace).makespan;
  }
  return out;
}

describe("WL-1 and WL-2 favour what the paper says", () => {
  it("WL-1 (resource matching): FPFS has the smallest makespan of the six heuristics", () => {
    const m = makespans(oasWorkload({ workload: "WL-1" }));
    for (const rule of OAS_RULES) if (rule !== "FPFS") expect(m.FPFS).toBeLessThan(m[rule]);
  });

  it("WL-2 (small jobs first): SJF and SPT beat FCFS, BJF, FPFS and LPT", () => {
    const m = makespans(oasWorkload({ workload: "WL-2" }));
    for (const small of ["SJF", "SPT"] as const) {
      for (const other of ["FCFS", "BJF", "FPFS", "LPT"] as const) {
        expect(m[small], `${small} vs ${other}`).toBeLessThan(m[other]);
      }
    }
  });
});

describe("the heavy bandwidth family: links bind", () => {
  it("link-blind heuristics get jobs slowed by contention on every random workload, link-aware ones none", () => {
    for (const name of ["WL-3", "WL-4", "WL-5", "WL-6"] as OasWorkloadName[]) {
      const w = oasWorkload({ workload: name, bandwidth: "heavy", seed: 1 });
      const profile = profileOf(w);
      const executionModel = oasExecutionModel({ profile });
      let slowed = 0;
      for (const rule of OAS_RULES) {
        for (const links of [true, false]) {
          const trace = simulate(w.jobs, w.platform, oasHeuristic(rule, { profile, links }), {
            executionModel,
          });
          const delays = contentionDelays(trace, { profile });
          if (links) expect(delays, `${name} ${rule}`).toEqual([]);
          else slowed += delays.length;
        }
      }
      expect(slowed, name).toBeGreaterThan(0);
    }
  });
});

describe("OAS on a paper workload", () => {
  beforeAll(async () => {
    await loadSolver();
  });

  it("proves WL-2 (8 jobs, slots of half the mean base time) optimal; its plan runs unslowed", async () => {
    const w = oasWorkload({ workload: "WL-2" });
    const profile = profileOf(w);
    const r = await solveOas(w.jobs, w.platform, { profile });
    expect(r.status).toBe("optimal");
    expect(r.gap).toBe(0);
    expect(checkOasSchedule(w.jobs, w.platform, r.schedule, { eta: r.eta, profile })).toEqual([]);
    const trace = simulate(w.jobs, w.platform, oasPlanScheduler(r.schedule, r.eta), {
      executionModel: oasExecutionModel({ profile }),
    });
    expect(contentionDelays(trace, { profile })).toEqual([]);
    expect(computeMetrics(trace).makespan).toBeLessThanOrEqual(r.makespan! + 1e-9);
  }, 60_000);
});
