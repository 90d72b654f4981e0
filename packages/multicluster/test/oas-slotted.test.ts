import { createJob, type Job, simulate } from "@sched/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { OasProfile } from "../src/cost.js";
import { oasExecutionModel } from "../src/execution.js";
import { checkOasSchedule } from "../src/oas-check.js";
import { OAS_RULES, oasHeuristic } from "../src/oas-heuristics.js";
import { slottedPlanFromTrace } from "../src/oas-slotted.js";
import { multiClusterPlatform } from "../src/platform.js";

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
          // a horizon every job fits in one after another (9 jobs of at most 300 s at ct <= 2)
          const theta = Math.ceil((9 * 600) / eta);
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
