import { createJob, createPlatform, type Job, type Scheduler, simulate } from "@sched/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { OasProfile } from "../src/cost.js";
import { oasExecutionModel } from "../src/execution.js";
import {
  OAS_RULES,
  type OasHeuristicOptions,
  type OasRule,
  oasHeuristic,
} from "../src/oas-heuristics.js";
import { multiClusterPlatform } from "../src/platform.js";

// The heuristics keep, between calls, what a run does not change: the platform's check and
// layout, each waiting job's check and whether it fits the empty platform, each running job's
// link demand. A heuristic made afresh for every call keeps nothing and computes all of it at
// every call, as they all did before: the oracle.
function everyCallAfresh(rule: OasRule, options: OasHeuristicOptions): Scheduler {
  return {
    name: oasHeuristic(rule, options).name,
    schedule: (ctx) => oasHeuristic(rule, options).schedule(ctx),
  };
}

/** A run's records, or the message it threw. */
function outcome(run: () => ReturnType<typeof simulate>): unknown {
  try {
    return run().records.map((r) => ({
      id: r.job.id,
      outcome: r.outcome,
      reason: r.reason,
      intervals: r.intervals,
    }));
  } catch (e) {
    return { threw: String(e) };
  }
}

const platformArb = fc.array(
  fc.record({
    nodes: fc.integer({ min: 1, max: 4 }),
    coresPerNode: fc.integer({ min: 1, max: 3 }),
    speed: fc.constantFrom(1, 0.75, 0.5),
    bandwidth: fc.constantFrom(5e7, 1.25e8, 1e9),
  }),
  { minLength: 1, maxLength: 4 },
);

const jobsArb = fc.array(
  fc.record({
    submit: fc.integer({ min: 0, max: 400 }),
    runtime: fc.integer({ min: 1, max: 300 }),
    cores: fc.integer({ min: 1, max: 12 }),
    sigma: fc.constantFrom(0, 0.5, 0.9, 1),
    ptbw: fc.constantFrom(0, 1e6, 3e7, 8e7, 2e9),
  }),
  { minLength: 1, maxLength: 30 },
);

describe("oasHeuristic: what it keeps between calls", () => {
  it("schedules exactly as a heuristic made afresh at every call (every rule and reading)", () => {
    fc.assert(
      fc.property(
        platformArb,
        jobsArb,
        fc.constantFrom(...OAS_RULES),
        fc.boolean(),
        fc.constantFrom("exhaustive" as const, "union" as const, "fastest" as const),
        fc.boolean(),
        (clusters, unsorted, rule, links, allocationCandidates, contention) => {
          // in submit order, as simulate takes them
          const specs = [...unsorted].sort((a, b) => a.submit - b.submit);
          const platform = multiClusterPlatform(clusters);
          const R = platform.machines.reduce((s, m) => s + m.cores, 0);
          const jobs = specs.map((s, i) =>
            createJob({
              id: i + 1,
              submit: s.submit,
              runtime: s.runtime,
              cores: Math.min(s.cores, R),
            }),
          );
          const profile = (job: Job): OasProfile => ({
            sigma: specs[job.id - 1]!.sigma,
            ptbw: specs[job.id - 1]!.ptbw,
          });
          const options = { profile, links, allocationCandidates };
          const sim = contention ? { executionModel: oasExecutionModel({ profile }) } : {};
          const kept = oasHeuristic(rule, options);
          const expected = outcome(() =>
            simulate(jobs, platform, everyCallAfresh(rule, options), sim),
          );
          expect(outcome(() => simulate(jobs, platform, kept, sim))).toEqual(expected);
          // and again with the same instance: `reset` forgets the previous run
          expect(outcome(() => simulate(jobs, platform, kept, sim))).toEqual(expected);
        },
      ),
      { numRuns: 120 },
    );
  });

  it("on one cluster without a link, decides as on the same machines behind a link (the search)", () => {
    // One cluster without a link takes the `cores` fastest free resources without the search:
    // by core's first fit when the machines' speeds never increase with their index, else by
    // a walk of a bit set of the free resources. Behind a link (one cluster: no demand) the
    // same machines go through the candidates and the search, as any platform does.
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            cores: fc.integer({ min: 1, max: 3 }),
            speed: fc.constantFrom(1, 0.75, 0.5),
          }),
          // (up to 40: jobs of 16 cores and more need as many one-core machines)
          { minLength: 1, maxLength: 40, size: "max" },
        ),
        fc.boolean(),
        fc.boolean(),
        jobsArb,
        fc.constantFrom(...OAS_RULES),
        fc.boolean(),
        fc.constantFrom("exhaustive" as const, "union" as const, "fastest" as const),
        fc.boolean(),
        (specs, descending, oneCore, unsorted, rule, links, allocationCandidates, wide) => {
          const jobSpecs = [...unsorted].sort((a, b) => a.submit - b.submit);
          // one core each (an SWF machine): machine m is resource m
          const cores = oneCore ? specs.map((m) => ({ ...m, cores: 1 })) : specs;
          const machines = descending ? [...cores].sort((a, b) => b.speed - a.speed) : cores;
          const pool = createPlatform({ machines });
          const linked = createPlatform({
            machines,
            clusters: [{ link: 0 }],
            links: [{ bandwidth: 1e9 }],
          });
          const R = pool.totalCores;
          const jobs = jobSpecs.map((s, i) =>
            createJob({
              id: i + 1,
              submit: s.submit,
              runtime: s.runtime,
              // wide: up to 36 cores (from 16 one-core machines on, by oneCoreAllocation)
              cores: Math.min(wide ? 3 * s.cores : s.cores, R),
            }),
          );
          const profile = (job: Job): OasProfile => ({
            sigma: jobSpecs[job.id - 1]!.sigma,
            ptbw: jobSpecs[job.id - 1]!.ptbw,
          });
          const options = { profile, links, allocationCandidates };
          const expected = outcome(() => simulate(jobs, linked, oasHeuristic(rule, options)));
          const kept = oasHeuristic(rule, options);
          expect(outcome(() => simulate(jobs, pool, kept))).toEqual(expected);
          expect(outcome(() => simulate(jobs, pool, kept))).toEqual(expected);
        },
      ),
      { numRuns: 150 },
    );
  });

  it("checks a job when it first waits, with the words of a check at every call", () => {
    const platform = multiClusterPlatform([{ nodes: 2 }, { nodes: 2, speed: 0.5 }]);
    const jobs = [1, 2, 3, 4].map((id) =>
      createJob({ id, submit: 10 * id, runtime: 100, cores: 2 }),
    );
    // job 3's profile is out of range: found when job 3 first waits, in either form
    const profile = (job: Job): OasProfile => ({ sigma: job.id === 3 ? 1.5 : 0.5, ptbw: 1e6 });
    for (const rule of ["FCFS", "FPFS"] as const) {
      const expected = outcome(() => simulate(jobs, platform, everyCallAfresh(rule, { profile })));
      expect(expected).toEqual({
        threw: expect.stringContaining("profile(job 3).sigma is 1.5, expected a number in [0, 1]"),
      });
      expect(outcome(() => simulate(jobs, platform, oasHeuristic(rule, { profile })))).toEqual(
        expected,
      );
    }
  });

  it("asks a job's profile a bounded number of times, whatever the queue (not once per call)", () => {
    // 300 one-task jobs at time 0 on 6 nodes: the queue stays long for about 50 calls; every
    // call used to check every waiting job and to recompute every running job's demand
    const platform = multiClusterPlatform([
      { nodes: 2, speed: 1 },
      { nodes: 2, speed: 0.75 },
      { nodes: 2, speed: 0.5 },
    ]);
    const jobs = Array.from({ length: 300 }, (_, i) =>
      createJob({ id: i + 1, submit: 0, runtime: 50 + (i % 7) * 10, cores: 1 }),
    );
    for (const rule of OAS_RULES) {
      let asked = 0;
      const profile = (): OasProfile => {
        asked += 1;
        return { sigma: 0.5, ptbw: 1e6 };
      };
      const trace = simulate(jobs, platform, oasHeuristic(rule, { profile }));
      expect(trace.records.every((r) => r.outcome === "completed")).toBe(true);
      // checked once; once for its instance when it first waits blocked (does it fit the empty
      // platform?), once when it starts, once for its demand while it runs
      expect(asked).toBeLessThanOrEqual(4 * jobs.length);
    }
  });
});
