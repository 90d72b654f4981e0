import { InvalidInputError, type Job, validateJobs } from "@sched/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { OAS_POWERS, oasWorkload } from "../src/oas.js";
import { mean } from "./stats.js";

/**
 * A tiny list scheduler on `nodes` identical nodes for jobs all submitted at 0 (the oracle for
 * the hand-made workloads' intent): at each completion, scan the queue in `order` and start
 * jobs that fit; `strict` stops at the first that does not (FCFS).
 */
function listSchedule(jobs: readonly Job[], nodes: number, order: readonly Job[], strict: boolean) {
  const queue = [...order];
  const running: { end: number; cores: number }[] = [];
  const ends: number[] = [];
  let free = nodes;
  let now = 0;
  while (queue.length > 0 || running.length > 0) {
    for (let i = 0; i < queue.length; ) {
      const j = queue[i]!;
      if (j.cores <= free) {
        free -= j.cores;
        running.push({ end: now + j.runtime, cores: j.cores });
        ends.push(now + j.runtime);
        queue.splice(i, 1);
      } else if (strict) break;
      else i++;
    }
    running.sort((a, b) => a.end - b.end);
    const next = running.shift()!;
    now = next.end;
    free += next.cores;
    while (running.length > 0 && running[0]!.end === now) free += running.shift()!.cores;
  }
  expect(ends).toHaveLength(jobs.length);
  return { makespan: Math.max(...ends), meanCompletion: mean(ends) };
}

describe("oasWorkload", () => {
  it("builds 3 clusters x 2 nodes with effective power 1.0, 0.75, 0.5 on Gigabit links", () => {
    const { platform } = oasWorkload();
    expect(platform.machines.map((m) => m.speed)).toEqual([1, 1, 0.75, 0.75, 0.5, 0.5]);
    expect(platform.machines.map((m) => m.cluster)).toEqual([0, 0, 1, 1, 2, 2]);
    expect(platform.links.map((l) => l.bandwidth)).toEqual([125e6, 125e6, 125e6]);
    expect(OAS_POWERS).toEqual([1, 0.75, 0.5]);
  });

  it("WL-1: matching jobs to free nodes beats strict arrival order on makespan", () => {
    const { jobs, bsp } = oasWorkload({ workload: "WL-1" });
    expect(jobs).toHaveLength(8);
    expect(bsp).toHaveLength(8);
    const fcfs = listSchedule(jobs, 6, jobs, true);
    const fit = listSchedule(jobs, 6, jobs, false);
    expect([fcfs.makespan, fit.makespan]).toEqual([3000, 2400]);
  });

  it("WL-2: small jobs first beats arrival order on mean completion time", () => {
    const { jobs } = oasWorkload({ workload: "WL-2" });
    const fcfs = listSchedule(jobs, 6, jobs, true);
    const bySize = [...jobs].sort(
      (a, b) => a.cores * a.runtime - b.cores * b.runtime || a.id - b.id,
    );
    const small = listSchedule(jobs, 6, bySize, false);
    expect(small.meanCompletion).toBeLessThan(0.75 * fcfs.meanCompletion);
  });

  it("random workloads: 8 valid jobs from the stated ranges, all at time 0, deterministic per seed", () => {
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
  });
});
