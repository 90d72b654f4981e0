import { checkSchedule, computeMetrics, createJob, type Job, simulate } from "@sched/core";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import type { OasProfile } from "../src/cost.js";
import { oasExecutionModel } from "../src/execution.js";
import { oasSlotDefaults } from "../src/mip.js";
import { checkOasSchedule } from "../src/oas-check.js";
import { linkLoadViolations, OAS_RULES, oasHeuristic } from "../src/oas-heuristics.js";
import { runOas } from "../src/oas-run.js";
import { slottedPlanFromTrace } from "../src/oas-slotted.js";
import { multiClusterPlatform } from "../src/platform.js";
import { loadSolver } from "../src/solver.js";

const paper = multiClusterPlatform([
  { nodes: 2, speed: 1 },
  { nodes: 2, speed: 0.75 },
  { nodes: 2, speed: 0.5 },
]);

function arbBatch() {
  return fc.array(
    fc.record({
      runtime: fc.integer({ min: 20, max: 300 }),
      cores: fc.integer({ min: 1, max: 5 }),
      sigma: fc.constantFrom(0.5, 0.8, 1),
      ptbw: fc.constantFrom(0, 20e6, 60e6),
    }),
    { minLength: 1, maxLength: 9 },
  );
}

beforeAll(async () => {
  await loadSolver();
});

describe("slottedPlanFromTrace", () => {
  it("property: a heuristic's run becomes a valid slotted schedule with its allocations and per-machine order", () => {
    fc.assert(
      fc.property(
        arbBatch(),
        fc.constantFrom(...OAS_RULES),
        fc.constantFrom(20, 45, 100),
        (specs, rule, eta) => {
          const jobs = specs.map((s, i) =>
            createJob({ id: i, submit: 0, runtime: s.runtime, cores: s.cores }),
          );
          const profile = (job: Job): OasProfile => ({
            sigma: specs[job.id]!.sigma,
            ptbw: specs[job.id]!.ptbw,
          });
          const executionModel = oasExecutionModel({ profile });
          const trace = simulate(jobs, paper, oasHeuristic(rule, { profile }), { executionModel });
          const { theta } = oasSlotDefaults(jobs, paper, { eta, profile });
          const plan = slottedPlanFromTrace(trace, jobs, { eta, theta, profile });
          expect(plan).not.toBeNull();
          expect(checkOasSchedule(jobs, paper, plan!, { eta, theta, profile })).toEqual([]);
          const first = (id: number) => trace.records.find((r) => r.job.id === id)!.intervals[0]!;
          for (const a of plan!) expect(a.allocation).toEqual(first(a.jobId).allocation);
          // On every machine, jobs come in the order the trace started them.
          for (const m of paper.machines) {
            const on = plan!.filter((a) => a.allocation.some((p) => p.machine === m.id));
            const bySlot = [...on].sort((a, b) => a.startSlot - b.startSlot).map((a) => a.jobId);
            const byTrace = [...on]
              .sort((a, b) => first(a.jobId).start - first(b.jobId).start || a.jobId - b.jobId)
              .map((a) => a.jobId);
            expect(bySlot).toEqual(byTrace);
          }
        },
      ),
      { numRuns: 80 },
    );
  });

  it("returns null when a job did not complete in one interval, and rejects bad options", () => {
    const jobs = [createJob({ id: 1, submit: 0, runtime: 10, cores: 1 })];
    const trace = simulate(jobs, paper, oasHeuristic("FCFS"), { until: 5 });
    expect(slottedPlanFromTrace(trace, jobs, { eta: 5, theta: 10 })).toBeNull();
    expect(() => slottedPlanFromTrace(trace, jobs, { eta: 0, theta: 10 })).toThrow(/options.eta/);
    expect(() => slottedPlanFromTrace(trace, jobs, { eta: 5, theta: 0 })).toThrow(/options.theta/);
  });
});

describe("runOas", () => {
  it("reports the better compacted run of the solver's schedule and its warm start", async () => {
    const specs = [
      [100, 4, 0.6, 30e6],
      [30, 1, 1, 0],
      [60, 2, 0.5, 50e6],
      [90, 3, 0.8, 20e6],
      [45, 2, 0.7, 40e6],
    ] as const;
    const jobs = specs.map(([runtime, cores], i) =>
      createJob({ id: i, submit: 0, runtime, cores }),
    );
    const profile = (job: Job): OasProfile => ({
      sigma: specs[job.id]![2],
      ptbw: specs[job.id]![3],
    });
    const run = await runOas(jobs, paper, { eta: 30, profile, timeLimit: 3 });
    expect(run.heuristics.size).toBe(6);
    expect(run.result.warmStart).not.toBeNull();
    expect(run.result.warmStartSource).toMatch(/^(list (FCFS|SJF|BJF|FPFS|SPT|LPT)|incumbent \d)$/);
    expect(run.warmStartOrigin).toMatch(/^(list|(FCFS|SJF|BJF|FPFS|SPT|LPT) run)/);
    if (run.result.warmStartSource!.startsWith("incumbent")) {
      expect(run.warmStartOrigin).toMatch(/ run$/);
    }
    const ms = (t: Parameters<typeof computeMetrics>[0] | null) =>
      t === null ? Number.POSITIVE_INFINITY : computeMetrics(t).makespan;
    const best = ms(run.best);
    expect(best).toBe(Math.min(ms(run.compacted), ms(run.warmStartCompacted)));
    expect(run.bestSource).toBe(
      ms(run.warmStartCompacted) < ms(run.compacted) ? "warm start" : "solver",
    );
    // Every run is valid under the contention-aware model and saturates no link.
    const executionModel = oasExecutionModel({ profile });
    for (const t of [run.atSlots!, run.compacted!, run.warmStartCompacted!]) {
      expect(checkSchedule(t, { executionModel })).toEqual([]);
      expect(linkLoadViolations(t, profile)).toEqual([]);
    }
    // The MIP never ends worse (in slots) than the warm start it was given.
    expect(run.result.makespanSlots!).toBeLessThanOrEqual(run.result.warmStartSlots!);
  }, 60_000);
});
