import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  type Allocation,
  checkSchedule,
  createJob,
  defaultExecutionModel,
  type ExecutionModel,
  identicalPool,
  type Job,
  type Platform,
  simulate,
} from "../src/index.js";
import { arbJobs, arbPlatform } from "../src/testing/index.js";
import { chaos } from "./helpers.js";

/** A drift keyed by the interval's start: every 50 s of simulated time, jobs run 10% slower. */
const drift: ExecutionModel = {
  name: "drift",
  duration(job: Job, allocation: Allocation, platform: Platform, seconds: number, now?: number) {
    const base = defaultExecutionModel.duration(job, allocation, platform, seconds);
    return base * (1 + 0.1 * Math.floor((now ?? 0) / 50));
  },
};

describe("execution model: the interval's start time (now)", () => {
  it("is passed by the engine at each start, by view.duration (now or a given start), and by checkSchedule", () => {
    const calls: [string, number, number | undefined][] = [];
    let caller = "engine";
    const recording: ExecutionModel = {
      duration(job, allocation, platform, seconds, now) {
        calls.push([caller, job.id, now]);
        return defaultExecutionModel.duration(job, allocation, platform, seconds);
      },
    };
    const jobs = [
      createJob({ id: 1, submit: 0, runtime: 10, cores: 1 }),
      createJob({ id: 2, submit: 3, runtime: 10, cores: 1 }),
    ];
    const trace = simulate(
      jobs,
      identicalPool(1),
      {
        name: "one-at-a-time",
        schedule(ctx) {
          const v = ctx.view;
          const w = v.waiting[0];
          if (w === undefined || v.totalFreeCores === 0) return;
          caller = "view";
          v.duration(w.job, [{ machine: 0, cores: 1 }], 10);
          v.duration(w.job, [{ machine: 0, cores: 1 }], 10, 42);
          caller = "engine";
          ctx.start(w.job.id, [{ machine: 0, cores: 1 }]);
        },
      },
      { executionModel: recording },
    );
    caller = "check";
    expect(checkSchedule(trace, { executionModel: recording })).toEqual([]);
    expect(calls).toEqual([
      ["view", 1, 0],
      ["view", 1, 42],
      ["engine", 1, 0], // runtime
      ["engine", 1, 0], // estimate
      ["view", 2, 10],
      ["view", 2, 42],
      ["engine", 2, 10],
      ["engine", 2, 10],
      ["check", 1, 0],
      ["check", 2, 10],
    ]);
  });

  it("a drift keyed by start time sets each interval's duration", () => {
    const jobs = [
      createJob({ id: 1, submit: 0, runtime: 60, cores: 1 }),
      createJob({ id: 2, submit: 0, runtime: 60, cores: 1 }),
    ];
    const trace = simulate(
      jobs,
      identicalPool(1),
      {
        name: "fcfs",
        schedule(ctx) {
          const w = ctx.view.waiting[0];
          if (w !== undefined && ctx.view.totalFreeCores > 0) {
            ctx.start(w.job.id, [{ machine: 0, cores: 1 }]);
          }
        },
      },
      { executionModel: drift },
    );
    // Job 1 starts at 0 (factor 1): ends at 60; job 2 starts at 60 (factor 1.1): 66 s.
    expect(trace.records.map((r) => r.end)).toEqual([60, 126]);
    expect(checkSchedule(trace, { executionModel: drift })).toEqual([]);
    // Checked against a model that ignores the start, the second job did not do its work.
    expect(checkSchedule(trace).map((v) => [v.kind, v.jobId])).toEqual([["work", 2]]);
  });

  it("work is conserved across preemptions under a start-keyed drift (checkSchedule agrees)", () => {
    fc.assert(
      fc.property(
        arbPlatform({ shape: "farm", licenses: false }).chain((platform) =>
          arbJobs(platform, { licenses: false }).map((jobs) => ({ platform, jobs })),
        ),
        ({ platform, jobs }) => {
          const trace = simulate(jobs, platform, chaos(), {
            executionModel: drift,
            maxEvents: 1e5,
          });
          expect(checkSchedule(trace, { executionModel: drift })).toEqual([]);
          for (const r of trace.records) {
            if (r.outcome !== "completed") continue;
            let work = 0;
            for (const iv of r.intervals) {
              const slowest = Math.min(
                ...iv.allocation.map((p) => platform.machines[p.machine]!.speed),
              );
              const factor = 1 + 0.1 * Math.floor(iv.start / 50);
              work +=
                ((iv.end - iv.start) * slowest) /
                (r.job.runtime * platform.referenceSpeed * factor);
            }
            expect(work).toBeCloseTo(1, 9);
          }
        },
      ),
      { numRuns: 60 },
    );
  });
});
