import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  computeMetrics,
  type JobRecord,
  MetricSums,
  type Metrics,
  type ScheduleTrace,
  simulate,
} from "../src/index.js";
import { arbJobs, arbPlatform } from "../src/testing/index.js";
import { chaos, greedy } from "./helpers.js";

/** Traces with every outcome: preempted (chaos), rejected, and unfinished (cut at `until`). */
const traces = arbPlatform()
  .chain((platform) => arbJobs(platform, { maxJobs: 30 }).map((jobs) => ({ platform, jobs })))
  .chain(({ platform, jobs }) =>
    fc
      .record({
        chaotic: fc.boolean(),
        until: fc.option(fc.integer({ min: 0, max: 300 }), { nil: undefined }),
        scale: fc.constantFrom(1, 0.1, 1.3),
      })
      .map(({ chaotic, until, scale }) => {
        // Fractional times (scale 0.1 and 1.3) make the sums round.
        const scaled = jobs.map((j) => ({
          ...j,
          submit: j.submit * scale,
          runtime: j.runtime * scale,
          estimate: j.estimate * scale,
          ...(j.ready === undefined ? {} : { ready: j.ready * scale }),
          ...(j.deadline === undefined ? {} : { deadline: j.deadline * scale + 0.7 }),
        }));
        return simulate(scaled, platform, chaotic ? chaos() : greedy(), {
          ...(until === undefined ? {} : { until }),
        });
      }),
  );

/** The recipe of MetricSums's TSDoc: each interval, then the outcome, then the deadline. */
function sumsOf(records: readonly JobRecord[], totalCores: number, tau?: number): MetricSums {
  const sums = new MetricSums(totalCores, tau === undefined ? {} : { tau });
  for (const r of records) {
    let ran = 0;
    let firstStart = Number.POSITIVE_INFINITY;
    for (const iv of r.intervals) {
      let cores = 0;
      for (const part of iv.allocation) cores += part.cores;
      ran += sums.addInterval(iv.start, iv.end, iv.allocation.length > 0 ? cores : r.job.cores);
      firstStart = Math.min(firstStart, iv.start);
    }
    if (r.outcome === "completed") sums.addCompleted(r.job.submit, firstStart, r.end!, ran);
    else if (r.outcome === "rejected") sums.addRejected(r.job.submit, r.end ?? undefined);
    else sums.addUnfinished(r.job.submit, r.end ?? undefined);
    if (r.job.deadline !== undefined) {
      sums.addDeadline(r.outcome !== "completed" || r.end! > r.job.deadline);
    }
  }
  return sums;
}

/** Every field compared with Object.is (bit for bit: NaN equals NaN, 0 differs from -0). */
function expectSame(actual: Metrics, expected: Metrics): void {
  expect(Object.keys(actual)).toEqual(Object.keys(expected));
  for (const key of Object.keys(expected) as (keyof Metrics)[]) {
    if (key === "licenseUsageByName") expect(actual[key]).toEqual(expected[key]);
    else expect([key, Object.is(actual[key], expected[key])]).toEqual([key, true]);
  }
}

describe("MetricSums (properties)", () => {
  it("fed a trace's records gives exactly metricsOf's fields", () => {
    fc.assert(
      fc.property(traces, fc.constantFrom(undefined, 1, 2.5), (trace: ScheduleTrace, tau) => {
        const expected = computeMetrics(trace, tau === undefined ? {} : { tau });
        const sums = sumsOf(trace.records, trace.platform.totalCores, tau);
        const actual = sums.metrics({
          // What the sums do not hold, passed through: every other field is the sums' own.
          machineUsage: expected.machineUsage,
          licenseUsage: expected.licenseUsage,
          licenseUsageByName: expected.licenseUsageByName,
          stats: trace.stats,
          ...(trace.horizon === undefined ? {} : { horizon: trace.horizon }),
        });
        expectSame(actual, expected);
        expect(sums.unfinished).toBe(expected.unfinished);
        const { from, to } = sums.window(trace.horizon);
        if (trace.records.length > 0) expect(to - from).toBe(expected.makespan);
      }),
      { numRuns: 150 },
    );
  });

  it("addCompletedRun is addInterval then addCompleted, bit for bit", () => {
    const time = fc.double({ min: 0, max: 1e7, noNaN: true });
    const job = fc
      .record({
        submit: time,
        wait: time,
        run: fc.oneof(time, fc.constant(0)),
        cores: fc.integer({ min: 0, max: 64 }),
        rejected: fc.boolean(),
      })
      .map(({ submit, wait, run, cores, rejected }) => {
        const start = submit + wait;
        return { submit, start, end: start + run, cores, rejected };
      });
    fc.assert(
      fc.property(fc.array(job, { maxLength: 40 }), fc.integer({ min: 1, max: 64 }), (jobs, p) => {
        const a = new MetricSums(p);
        const b = new MetricSums(p);
        for (const j of jobs) {
          if (j.rejected) {
            a.addRejected(j.submit, j.start);
            b.addRejected(j.submit, j.start);
            continue;
          }
          a.addCompletedRun(j.submit, j.start, j.end, j.cores);
          b.addCompleted(j.submit, j.start, j.end, b.addInterval(j.start, j.end, j.cores));
        }
        expectSame(a.metrics(), b.metrics());
      }),
      { numRuns: 200 },
    );
  });

  it("matches the definitions on single-interval jobs (an independent sum in job order)", () => {
    const job = fc.record({
      submit: fc.integer({ min: 0, max: 1000 }).map((t) => t / 8),
      wait: fc.integer({ min: 0, max: 1000 }).map((t) => t / 3),
      run: fc.integer({ min: 0, max: 100 }).map((t) => t / 7),
      cores: fc.integer({ min: 1, max: 8 }),
    });
    fc.assert(
      fc.property(fc.array(job, { minLength: 1, maxLength: 30 }), (jobs) => {
        const sums = new MetricSums(8);
        let wait = 0;
        let response = 0;
        let slowdown = 0;
        let bounded = 0;
        let used = 0;
        for (const j of jobs) {
          const start = j.submit + j.wait;
          const end = start + j.run;
          sums.addCompletedRun(j.submit, start, end, j.cores);
          // README, "Metric definitions".
          wait += start - j.submit;
          response += end - j.submit;
          slowdown += end - start > 0 ? (end - j.submit) / (end - start) : 1;
          bounded += Math.max(1, (end - j.submit) / Math.max(end - start, 10));
          used += (end - start) * j.cores;
        }
        const first = Math.min(...jobs.map((j) => j.submit));
        const last = Math.max(...jobs.map((j) => j.submit + j.wait + j.run));
        const m = sums.metrics();
        const n = jobs.length;
        expect(m.meanWait).toBe(wait / n);
        expect(m.maxWait).toBe(Math.max(...jobs.map((j) => j.submit + j.wait - j.submit)));
        expect(m.meanResponse).toBe(response / n);
        expect(m.meanSlowdown).toBe(slowdown / n);
        expect(m.meanBoundedSlowdown).toBe(bounded / n);
        expect(m.makespan).toBe(last - first);
        expect(m.utilization).toBe(last > first ? used / (8 * (last - first)) : 0);
        expect([m.jobs, m.completed, m.acceptanceRate]).toEqual([n, n, 1]);
      }),
      { numRuns: 200 },
    );
  });
});
