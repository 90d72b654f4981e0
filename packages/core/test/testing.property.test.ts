import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createPlatform, identicalPool } from "../src/index.js";
import { arbJobs, arbPlatform, schedulerSpecs } from "../src/testing/index.js";
import { feasible, greedy } from "./helpers.js";

schedulerSpecs("greedy (test-only)", () => greedy(), { numRuns: 30 });
schedulerSpecs("greedy on pools, restricted workload", () => greedy(), {
  numRuns: 10,
  platformOptions: { shape: "pool", maxMachines: 3 },
  jobsOptions: { licenses: false, deadlines: false, readyTimes: false, maxJobs: 8 },
});
schedulerSpecs("greedy with overridden arbitraries", () => greedy(), {
  numRuns: 10,
  platform: fc.constant(identicalPool(3)),
  jobs: (p) => arbJobs(p, { maxJobs: 5 }),
  maxEvents: 1000,
});

describe("arbitraries", () => {
  it("arbPlatform({ shape: 'pool' }) gives identical single-core machines of speed 1", () => {
    fc.assert(
      fc.property(arbPlatform({ shape: "pool" }), (p) => {
        expect(p.machines.every((m) => m.cores === 1 && m.speed === 1)).toBe(true);
        expect(p.licenses).toEqual([]);
      }),
      { numRuns: 30 },
    );
  });
  it("arbJobs gives jobs sorted by submit, unique ids, cores within the platform", () => {
    fc.assert(
      fc.property(
        arbPlatform().chain((p) => arbJobs(p).map((jobs) => ({ p, jobs }))),
        ({ p, jobs }) => {
          for (let i = 1; i < jobs.length; i++) {
            expect(jobs[i]!.submit).toBeGreaterThanOrEqual(jobs[i - 1]!.submit);
          }
          expect(new Set(jobs.map((j) => j.id)).size).toBe(jobs.length);
          for (const j of jobs) expect(j.cores).toBeLessThanOrEqual(p.totalCores);
        },
      ),
      { numRuns: 50 },
    );
  });
  it("arbJobs with singleMachine keeps every job on one machine's cores, licenses feasible names", () => {
    fc.assert(
      fc.property(
        arbPlatform({ shape: "farm" }).chain((p) =>
          arbJobs(p, { singleMachine: true }).map((jobs) => ({ p, jobs })),
        ),
        ({ p, jobs }) => {
          const largest = Math.max(...p.machines.map((m) => m.cores));
          const names = new Set(p.licenses.map((l) => l.name));
          for (const j of jobs) {
            expect(j.cores).toBeLessThanOrEqual(largest);
            for (const name of Object.keys(j.licenses ?? {})) expect(names.has(name)).toBe(true);
          }
        },
      ),
      { numRuns: 50 },
    );
  });
  it("arbJobs asks only for licenses the platform has copies of (a license of 0 copies is left out)", () => {
    const p = createPlatform({
      machines: [{ cores: 2 }, { cores: 2 }],
      licenses: [
        { name: "none", copies: 0 },
        { name: "some", copies: 2 },
      ],
    });
    fc.assert(
      fc.property(arbJobs(p, { maxJobs: 10 }), (jobs) => {
        for (const j of jobs) {
          expect(Object.keys(j.licenses ?? {}).every((name) => name === "some")).toBe(true);
          expect(j.licenses?.some ?? 1).toBeLessThanOrEqual(2);
        }
      }),
      { numRuns: 50 },
    );
  });
  it("arbJobs without optional features generates none of them", () => {
    fc.assert(
      fc.property(
        arbPlatform({ shape: "farm" }).chain((p) =>
          arbJobs(p, {
            deadlines: false,
            licenses: false,
            readyTimes: false,
            underestimates: false,
          }),
        ),
        (jobs) => {
          for (const j of jobs) {
            expect(j.deadline).toBeUndefined();
            expect(j.licenses).toBeUndefined();
            expect(j.ready).toBeUndefined();
            expect(j.estimate).toBeGreaterThanOrEqual(j.runtime);
          }
        },
      ),
      { numRuns: 50 },
    );
  });
  it("the feasibility helper accepts most generated jobs (the workloads are not degenerate)", () => {
    const samples = fc.sample(
      arbPlatform().chain((p) => arbJobs(p).map((jobs) => ({ p, jobs }))),
      {
        numRuns: 50,
        seed: 42,
      },
    );
    let ok = 0;
    let all = 0;
    for (const { p, jobs } of samples) {
      for (const j of jobs) {
        all++;
        if (feasible(j, p)) ok++;
      }
    }
    expect(ok / all).toBeGreaterThan(0.5);
  });
});
