import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  checkSchedule,
  createPlatform,
  firstFitAllocation,
  type Job,
  type Scheduler,
  simulate,
} from "../src/index.js";
import { arbJobs, arbPlatform } from "../src/testing/index.js";
import { chaos, greedy } from "./helpers.js";

const scenario = arbPlatform().chain((platform) =>
  arbJobs(platform).map((jobs) => ({ platform, jobs })),
);

/**
 * Oracle: an independent, naive simulation of the greedy policy on a pool of identical
 * single-core machines (no licenses, no ready times): at every event time, end the jobs due,
 * queue the arrivals (submit, id), then start every queued job that fits, in queue order.
 */
function naiveGreedyStarts(jobs: readonly Job[], machines: number): Map<number, number> {
  const starts = new Map<number, number>();
  const running: { end: number; cores: number }[] = [];
  const queue: Job[] = [];
  let next = 0;
  let free = machines;
  for (;;) {
    const tArrive = next < jobs.length ? jobs[next]!.submit : Number.POSITIVE_INFINITY;
    const tEnd = Math.min(...running.map((r) => r.end), Number.POSITIVE_INFINITY);
    const t = Math.min(tArrive, tEnd);
    if (t === Number.POSITIVE_INFINITY) break;
    for (let i = running.length - 1; i >= 0; i--) {
      if (running[i]!.end === t) {
        free += running[i]!.cores;
        running.splice(i, 1);
      }
    }
    while (next < jobs.length && jobs[next]!.submit === t) queue.push(jobs[next++]!);
    queue.sort((a, b) => a.submit - b.submit || a.id - b.id);
    for (let i = 0; i < queue.length; ) {
      const j = queue[i]!;
      if (j.cores <= free) {
        free -= j.cores;
        starts.set(j.id, t);
        running.push({ end: t + j.runtime, cores: j.cores });
        queue.splice(i, 1);
      } else i++;
    }
  }
  return starts;
}

describe("simulate (properties)", () => {
  it("matches a naive independent simulation of the greedy policy on identical pools", () => {
    fc.assert(
      fc.property(
        arbPlatform({ shape: "pool" }).chain((platform) =>
          arbJobs(platform, { licenses: false, readyTimes: false }).map((jobs) => ({
            platform,
            jobs,
          })),
        ),
        ({ platform, jobs }) => {
          const trace = simulate(jobs, platform, greedy());
          const expected = naiveGreedyStarts(jobs, platform.machines.length);
          for (const r of trace.records) {
            expect(r.intervals[0]?.start).toBe(expected.get(r.job.id));
            expect(r.end).toBe(expected.get(r.job.id)! + r.job.runtime);
          }
        },
      ),
      { numRuns: 100 },
    );
  });

  it("greedy and chaos (preempting) schedules pass checkSchedule and lose no job", () => {
    let resumed = 0;
    fc.assert(
      fc.property(scenario, ({ platform, jobs }) => {
        for (const policy of [greedy(), chaos()]) {
          const trace = simulate(jobs, platform, policy, { maxEvents: 1e5 });
          expect(checkSchedule(trace)).toEqual([]);
          expect(trace.records.map((r) => r.job.id)).toEqual(jobs.map((j) => j.id));
          expect(trace.records.every((r) => r.outcome !== "unfinished")).toBe(true);
          resumed += trace.records.filter((r) => r.intervals.length > 1).length;
        }
      }),
      { numRuns: 60 },
    );
    // The property is not vacuous: chaos did preempt and resume jobs.
    expect(resumed).toBeGreaterThan(0);
  });

  it("a completed job's intervals add up to its work on a heterogeneous farm, across preemptions", () => {
    fc.assert(
      fc.property(
        arbPlatform({ shape: "farm", licenses: false }).chain((platform) =>
          arbJobs(platform, { licenses: false }).map((jobs) => ({ platform, jobs })),
        ),
        ({ platform, jobs }) => {
          const trace = simulate(jobs, platform, chaos(), { maxEvents: 1e5 });
          for (const r of trace.records) {
            if (r.outcome !== "completed") continue;
            let work = 0;
            for (const iv of r.intervals) {
              const slowest = Math.min(
                ...iv.allocation.map((p) => platform.machines[p.machine]!.speed),
              );
              work += ((iv.end - iv.start) * slowest) / (r.job.runtime * platform.referenceSpeed);
            }
            expect(work).toBeCloseTo(1, 9);
          }
        },
      ),
      { numRuns: 60 },
    );
  });

  it("is deterministic and does not mutate its inputs", () => {
    fc.assert(
      fc.property(scenario, ({ platform, jobs }) => {
        const before = JSON.stringify({ platform, jobs });
        const a = simulate(jobs, platform, chaos());
        const b = simulate(jobs, platform, chaos());
        expect(a.records).toEqual(b.records);
        expect(JSON.stringify({ platform, jobs })).toBe(before);
      }),
      { numRuns: 40 },
    );
  });

  it("a horizon cuts the run: the records are the jobs submitted by then, nothing after", () => {
    fc.assert(
      fc.property(scenario, fc.integer({ min: 0, max: 200 }), ({ platform, jobs }, until) => {
        const trace = simulate(jobs, platform, greedy(), { until });
        expect(trace.records.map((r) => r.job.id)).toEqual(
          jobs.filter((j: Job) => j.submit <= until).map((j) => j.id),
        );
        for (const r of trace.records) {
          for (const iv of r.intervals) expect(iv.end).toBeLessThanOrEqual(until);
          if (r.end !== null) expect(r.end).toBeLessThanOrEqual(until);
        }
        expect(checkSchedule(trace)).toEqual([]);
      }),
      { numRuns: 60 },
    );
  });

  it("the waiting view is in queue order (submit, id) at every call", () => {
    fc.assert(
      fc.property(scenario, ({ platform, jobs }) => {
        const policy = chaos();
        simulate(jobs, platform, {
          name: "watch",
          reset: (p) => policy.reset?.(p),
          schedule(ctx) {
            const w = ctx.view.waiting;
            for (let i = 1; i < w.length; i++) {
              const a = w[i - 1]!.job;
              const b = w[i]!.job;
              expect(a.submit < b.submit || (a.submit === b.submit && a.id < b.id)).toBe(true);
            }
            policy.schedule(ctx);
          },
        });
      }),
      { numRuns: 40 },
    );
  });

  it("waitingAt and waitingCount mirror the waiting array, before and after the policy acts", () => {
    fc.assert(
      fc.property(
        scenario,
        fc.array(fc.boolean(), { minLength: 1, maxLength: 16 }),
        ({ platform, jobs }, readFirst) => {
          const policy = chaos();
          let call = 0;
          const trace = simulate(
            jobs,
            platform,
            {
              name: "mirror",
              reset: (p) => policy.reset?.(p),
              schedule(ctx) {
                const view = ctx.view;
                // Sometimes the accessors are used before the array is first read.
                const before = readFirst[call++ % readFirst.length]
                  ? Array.from({ length: view.waitingCount! }, (_, i) => view.waitingAt!(i))
                  : null;
                const w = view.waiting;
                if (before !== null) expect(before).toEqual([...w]);
                policy.schedule(ctx);
                // The same snapshot after starts, rejections and preemptions in the call.
                expect(view.waiting).toBe(w);
                expect(view.waitingCount).toBe(w.length);
                for (let i = 0; i < w.length; i++) expect(view.waitingAt!(i)).toBe(w[i]);
                expect(view.waitingAt!(w.length)).toBeUndefined();
              },
            },
            { maxEvents: 1e5 },
          );
          expect(checkSchedule(trace)).toEqual([]);
        },
      ),
      { numRuns: 60 },
    );
  });

  it("FCFS through waitingAt gives the same schedule as FCFS through the waiting array", () => {
    const fcfs = (useAt: boolean): Scheduler => ({
      name: useAt ? "fcfs-at" : "fcfs",
      schedule(ctx) {
        const view = ctx.view;
        const n = useAt ? view.waitingCount! : view.waiting.length;
        for (let i = 0; i < n; i++) {
          const w = useAt ? view.waitingAt!(i)! : view.waiting[i]!;
          if (view.now < (w.job.ready ?? w.job.submit)) break;
          const a = firstFitAllocation(view, w.job.cores);
          if (a === null) break;
          ctx.start(w.job.id, a);
        }
      },
    });
    fc.assert(
      fc.property(
        arbPlatform({ shape: "pool" }).chain((platform) =>
          arbJobs(platform, { licenses: false }).map((jobs) => ({ platform, jobs })),
        ),
        ({ platform, jobs }) => {
          const a = simulate(jobs, platform, fcfs(false));
          const b = simulate(jobs, platform, fcfs(true));
          expect(b.records).toEqual(a.records);
        },
      ),
      { numRuns: 60 },
    );
  });

  it("identicalPool-equivalent farms give the same schedule", () => {
    fc.assert(
      fc.property(
        arbPlatform({ shape: "pool" }).chain((platform) =>
          arbJobs(platform, { licenses: false }).map((jobs) => ({ platform, jobs })),
        ),
        ({ platform, jobs }) => {
          const farm = createPlatform({
            machines: platform.machines.map(() => ({ cores: 1, speed: 1 })),
          });
          const a = simulate(jobs, platform, greedy());
          const b = simulate(jobs, farm, greedy());
          expect(a.records).toEqual(b.records);
        },
      ),
      { numRuns: 30 },
    );
  });
});
