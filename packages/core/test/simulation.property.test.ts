import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  computeMetrics,
  createSimulation,
  type ExecutionModel,
  identicalPool,
  type Job,
  type JobRecord,
  type Metrics,
  type Platform,
  type Scheduler,
  simulate,
  simulateStream,
} from "../src/index.js";
import { arbJobs, arbPlatform } from "../src/testing/index.js";
import { chaos, greedy, job } from "./helpers.js";

/** Greedy, but never starts jobs whose id is a multiple of 4: they are lost (unfinished). */
function loses(): Scheduler {
  const inner = greedy("loses");
  return {
    name: "loses",
    schedule(ctx) {
      const start = ctx.start;
      inner.schedule({
        ...ctx,
        view: ctx.view,
        start: (id, allocation) => {
          if (id % 4 !== 0) start(id, allocation);
        },
      });
    },
  };
}

/** The same jobs at fractional times (tenths of a second, scaled run times), to stress rounding. */
function fractional(jobs: readonly Job[]): Job[] {
  return jobs.map((j) => {
    const out: { -readonly [K in keyof Job]: Job[K] } = {
      ...j,
      submit: j.submit * 0.1,
      runtime: j.runtime * 1.3,
      estimate: j.estimate * 1.3,
    };
    if (j.ready !== undefined) out.ready = j.ready * 0.1;
    if (j.deadline !== undefined) out.deadline = j.deadline * 0.1 + 0.7;
    return out;
  });
}

/** Slowdown 1 + (jobs running on machine 0) / 3 for jobs that use machine 0, else 1. */
const contention: ExecutionModel = {
  duration: (job, allocation, platform, seconds) =>
    (seconds * (job.benchmark ?? platform.referenceSpeed)) /
    Math.min(...allocation.map((p) => platform.machines[p.machine]!.speed)),
  slowdowns: (running) => {
    const on0 = running.filter((r) => r.allocation.some((p) => p.machine === 0)).length;
    return running.map((r) => (r.allocation.some((p) => p.machine === 0) ? 1 + on0 / 3 : 1));
  },
};

const POLICIES = [
  ["greedy", () => greedy()],
  ["chaos", () => chaos()],
  ["loses", () => loses()],
] as const;

const runs = arbPlatform()
  .chain((platform) => arbJobs(platform, { maxJobs: 30 }).map((jobs) => ({ platform, jobs })))
  .chain(({ platform, jobs }) =>
    fc.record({
      platform: fc.constant(platform as Platform),
      jobs: fc.boolean().map((frac) => (frac ? fractional(jobs) : jobs)),
      policy: fc.constantFrom(...POLICIES),
      until: fc.option(fc.integer({ min: 0, max: 300 }), { nil: undefined }),
      contention: fc.boolean(),
      chunk: fc.integer({ min: 1, max: 7 }),
    }),
  );

/** Every metric but the wall-clock one, as numbers compared with Object.is (NaN equals NaN). */
function expectSameMetrics(streamed: Metrics, kept: Metrics): void {
  for (const key of Object.keys(kept) as (keyof Metrics)[]) {
    if (key === "schedulerMsPerDecision") continue;
    if (key === "licenseUsageByName") {
      expect(streamed[key]).toEqual(kept[key]);
      continue;
    }
    // Object.is: bit for bit (NaN equals NaN, 0 differs from -0).
    expect([key, Object.is(streamed[key], kept[key])]).toEqual([key, true]);
  }
}

describe("streamed runs (simulateStream, createSimulation)", () => {
  it("give the kept trace's records, in input order, and its metrics bit for bit", () => {
    fc.assert(
      fc.property(runs, ({ platform, jobs, policy, until, contention: slow, chunk }) => {
        const options = {
          ...(until === undefined ? {} : { until }),
          ...(slow ? { executionModel: contention } : {}),
        };
        const trace = simulate(jobs, platform, policy[1](), options);
        const kept = computeMetrics(trace);

        const records: JobRecord[] = [];
        const summary = simulateStream(jobs, platform, policy[1](), {
          ...options,
          onRecord: (r) => records.push(r),
        });
        expect(records).toEqual(trace.records);
        expect(summary.jobs).toBe(trace.records.length);
        expect(summary.stats.events).toBe(trace.stats.events);
        expect(summary.stats.decisions).toBe(trace.stats.decisions);
        expect(summary.horizon).toBe(trace.horizon);
        expectSameMetrics(summary.metrics!, kept);

        // The same jobs pushed in chunks: the same run.
        const pushed: JobRecord[] = [];
        const sim = createSimulation(platform, policy[1](), {
          ...options,
          onRecord: (r) => pushed.push(r),
        });
        for (let i = 0; i < jobs.length; i += chunk) sim.push(jobs.slice(i, i + chunk));
        const end = sim.end();
        expect(pushed).toEqual(trace.records);
        expect(end.stats.events).toBe(trace.stats.events);
        expectSameMetrics(end.metrics!, kept);
      }),
      { numRuns: 100 },
    );
  });
});

describe("streamed runs: machine usage at the end of the window", () => {
  it("clips at the last end: jobs lost after it do not count (hand-worked)", () => {
    // One machine. Job 1 runs 0..10; jobs 4 (submit 5) and 8 (submit 20) are never started.
    // The window is [0, 10]: usage 1 on [0, 5) (1 active / min(1, 1 job)) and on [5, 10)
    // (1 / min(1, 2 jobs)); job 8 arrives after the window and does not count.
    const jobs = [
      job({ id: 1, runtime: 10 }),
      job({ id: 4, submit: 5 }),
      job({ id: 8, submit: 20 }),
    ];
    const kept = computeMetrics(simulate(jobs, identicalPool(1), loses()));
    const streamed = simulateStream(jobs, identicalPool(1), loses()).metrics!;
    expect(kept.machineUsage).toBe(1);
    expect(kept.makespan).toBe(10);
    expectSameMetrics(streamed, kept);
  });
});
