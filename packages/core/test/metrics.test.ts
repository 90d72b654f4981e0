import { describe, expect, it } from "vitest";
import {
  checkSchedule,
  computeMetrics,
  createJob,
  createPlatform,
  identicalPool,
  type JobRecord,
  metricsOf,
  type ScheduleTrace,
  simulate,
} from "../src/index.js";
import { greedy } from "./helpers.js";

const platform = createPlatform({
  machines: [{}, {}],
  licenses: [{ name: "f", copies: 2 }],
});
const m0 = [{ machine: 0, cores: 1 }];
const both = [
  { machine: 0, cores: 1 },
  { machine: 1, cores: 1 },
];
// Hand-made trace on two single-core machines (see the comments for the hand computation).
const records: JobRecord[] = [
  {
    // A: submit 0, waits 10, runs 10..30 on m0 with one floating license.
    job: createJob({ id: 1, submit: 0, runtime: 20, cores: 1, licenses: { f: 1 } }),
    intervals: [{ start: 10, end: 30, allocation: m0 }],
    end: 30,
    outcome: "completed",
  },
  {
    // B: submit 5, two cores, runs 30..34.
    job: createJob({ id: 2, submit: 5, runtime: 4, cores: 2 }),
    intervals: [{ start: 30, end: 34, allocation: both }],
    end: 34,
    outcome: "completed",
  },
  {
    // C: rejected at 6, had a deadline: counts as a miss.
    job: createJob({ id: 3, submit: 6, runtime: 1, cores: 1, deadline: 100 }),
    intervals: [],
    end: 6,
    outcome: "rejected",
    reason: "no",
  },
  {
    // D: submit 0, runs 0..5 on m0, deadline 10 met.
    job: createJob({ id: 4, submit: 0, runtime: 5, cores: 1, deadline: 10 }),
    intervals: [{ start: 0, end: 5, allocation: m0 }],
    end: 5,
    outcome: "completed",
  },
];
const trace: ScheduleTrace = {
  scheduler: "hand",
  platform,
  records,
  stats: { events: 8, decisions: 4, schedulerMs: 10 },
};

describe("computeMetrics on a hand-computed trace", () => {
  const m = computeMetrics(trace);
  it("counts outcomes and rates", () => {
    expect([m.jobs, m.completed, m.rejected, m.unfinished]).toEqual([4, 3, 1, 0]);
    expect(m.acceptanceRate).toBe(3 / 4);
    expect(m.deadlineMissRate).toBe(1 / 2);
    expect(m.schedulerMsPerDecision).toBe(2.5);
  });
  it("wait, response, slowdown and bounded slowdown (tau 10) over completed jobs", () => {
    // waits 10, 25, 0; responses 30, 29, 5; run 20, 4, 5.
    expect(m.meanWait).toBeCloseTo(35 / 3, 12);
    expect(m.maxWait).toBe(25);
    expect(m.meanResponse).toBeCloseTo(64 / 3, 12);
    // slowdowns 30/20, 29/4, 5/5
    expect(m.meanSlowdown).toBeCloseTo((1.5 + 7.25 + 1) / 3, 12);
    // bounded: max(1, 30/20), max(1, 29/10), max(1, 5/10)
    expect(m.meanBoundedSlowdown).toBeCloseTo((1.5 + 2.9 + 1) / 3, 12);
    expect(computeMetrics(trace, { tau: 1 }).meanBoundedSlowdown).toBeCloseTo(
      (1.5 + 7.25 + 1) / 3,
      12,
    );
  });
  it("makespan, utilization, machine usage and license usage", () => {
    expect(m.makespan).toBe(34);
    // core-seconds 20 + 8 + 5 = 33 over 2 cores * 34 s
    expect(m.utilization).toBeCloseTo(33 / 68, 12);
    // [0,5) 1 active / min(2, 2 in system) = .5; [5,10) 0; [10,30) 1/2; [30,34) 2/min(2,1) capped 1
    expect(m.machineUsage).toBeCloseTo((5 * 0.5 + 0 + 20 * 0.5 + 4 * 1) / 34, 12);
    // 20 copy-seconds of f over 2 copies * 34 s
    expect(m.licenseUsage).toBeCloseTo(20 / 68, 12);
    expect(m.licenseUsageByName.f).toBeCloseTo(20 / 68, 12);
  });
});

describe("the definitions at their edges (hand-computed)", () => {
  // Two one-core machines; license "n" node-locked, one copy on each (2 copies in all).
  const locked = createPlatform({
    machines: [{}, {}],
    licenses: [{ name: "n", kind: "node-locked", copies: 1, machines: [0, 1] }],
  });
  const edge: JobRecord[] = [
    {
      // E: runs 0..10 on m0 with one copy of n; due at 10, ends at 10: met
      job: createJob({ id: 1, submit: 0, runtime: 10, cores: 1, deadline: 10, licenses: { n: 1 } }),
      intervals: [{ start: 0, end: 10, allocation: m0 }],
      end: 10,
      outcome: "completed",
    },
    {
      // G: rejected at 40, after every completion: the makespan's last end
      job: createJob({ id: 2, submit: 3, runtime: 5, cores: 1 }),
      intervals: [],
      end: 40,
      outcome: "rejected",
      reason: "no",
    },
  ];
  // F: still waiting when the run was cut
  const waiting: JobRecord = {
    job: createJob({ id: 3, submit: 2, runtime: 5, cores: 1 }),
    intervals: [],
    end: null,
    outcome: "unfinished",
  };

  it("a deadline met exactly is met; a rejection's time ends the makespan; copies per machine count", () => {
    const m = metricsOf(edge, locked);
    expect(m.deadlineMissRate).toBe(0);
    expect(m.makespan).toBe(40);
    // 10 copy-seconds over 2 copies (1 on each of 2 machines) * 40 s
    expect(m.licenseUsage).toBeCloseTo(10 / 80, 12);
    expect(m.licenseUsageByName.n).toBeCloseTo(10 / 80, 12);
  });

  it("a horizon extends the window only while a job is unfinished; acceptance counts it", () => {
    expect(metricsOf(edge, locked, { horizon: 50 }).makespan).toBe(40);
    const m = metricsOf([...edge, waiting], locked, { horizon: 50 });
    expect(m.makespan).toBe(50);
    // jobs not rejected / jobs: E and F of three (F is not completed, but was accepted)
    expect(m.acceptanceRate).toBe(2 / 3);
    expect(m.unfinished).toBe(1);
  });
});

describe("metricsOf", () => {
  it("works on plain records with only a core count (SWF read-back)", () => {
    const m = metricsOf(
      records.map((r) => ({
        ...r,
        intervals: r.intervals.map((iv) => ({ ...iv, allocation: [] })),
      })),
      { totalCores: 2 },
    );
    expect(m.utilization).toBeCloseTo(33 / 68, 12);
    expect(m.meanWait).toBeCloseTo(35 / 3, 12);
    expect(m.machineUsage).toBeNaN();
    expect(m.licenseUsage).toBeNaN();
    expect(m.schedulerMsPerDecision).toBeNaN();
  });

  it("gives NaN for undefined means and 0 makespan with no job", () => {
    const m = metricsOf([], identicalPool(1));
    expect(m.jobs).toBe(0);
    expect(m.meanWait).toBeNaN();
    expect(m.makespan).toBe(0);
    expect(m.utilization).toBe(0);
    expect(m.deadlineMissRate).toBeNaN();
  });

  it("counts a job with a deadline that did not complete as a miss; a horizon extends the window", () => {
    const job = createJob({ id: 1, submit: 0, runtime: 100, cores: 1, deadline: 1000 });
    const t = simulate([job], identicalPool(1), greedy(), { until: 50 });
    const m = computeMetrics(t);
    expect(m.unfinished).toBe(1);
    expect(m.deadlineMissRate).toBe(1);
    expect(m.makespan).toBe(50);
    expect(m.utilization).toBe(1);
  });

  it("validates tau and capacity", () => {
    expect(() => computeMetrics(trace, { tau: 0 })).toThrow(
      "@sched/core/computeMetrics: options.tau is 0",
    );
    expect(() => metricsOf([], { totalCores: 0 })).toThrow("capacity.totalCores is 0");
  });

  it("computeMetrics and checkSchedule refuse a missing trace with a typed error (a TypeError before)", () => {
    expect(() => computeMetrics(null as never)).toThrow(
      "@sched/core/computeMetrics: trace is null, expected an object",
    );
    expect(() => checkSchedule(undefined as never)).toThrow(
      "@sched/core/checkSchedule: trace is undefined, expected an object",
    );
  });
});
