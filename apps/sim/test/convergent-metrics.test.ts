import { CONVERGENT_VARIANTS, convergentVariant } from "@sched/convergent";
import {
  createJob,
  createPlatform,
  type Job,
  type JobRecord,
  type JobSpec,
  type ScheduleTrace,
  simulate,
} from "@sched/core";
import { convergentWorkload } from "@sched/workload";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { paperMetrics, workloadSeries } from "../src/experiments/convergent-metrics.js";

const job = (spec: Partial<JobSpec> & { id: number }): Job =>
  createJob({ submit: 0, runtime: 100, cores: 1, ...spec });

const platform = createPlatform({ machines: [{}, {}], licenses: [{ name: "cad", copies: 1 }] });

function rec(j: ReturnType<typeof job>, spans: [number, number, number][]): JobRecord {
  return {
    job: j,
    intervals: spans.map(([start, end, machine]) => ({
      start,
      end,
      allocation: [{ machine, cores: 1 }],
    })),
    end: spans[spans.length - 1]?.[1] ?? null,
    outcome: "completed",
  };
}

// A late (deadline 5, ends 10); B no deadline, cad, runs at once; C on time; D no deadline, cad,
// submitted at 5, waits for the license and m1 until 12.
const trace: ScheduleTrace = {
  scheduler: "hand",
  platform,
  stats: { events: 0, decisions: 0, schedulerMs: 0 },
  records: [
    rec(job({ id: 1, runtime: 10, deadline: 5 }), [[0, 10, 0]]),
    rec(job({ id: 2, runtime: 10, licenses: { cad: 1 } }), [[0, 10, 1]]),
    rec(job({ id: 3, runtime: 10, deadline: 30 }), [[10, 20, 0]]),
    rec(job({ id: 4, submit: 5, runtime: 5, licenses: { cad: 1 } }), [[12, 17, 1]]),
  ],
};

describe("paperMetrics", () => {
  const m = paperMetrics(trace);
  it("late %: deadline jobs ending after their deadline", () => {
    expect([m.deadlineJobs, m.late, m.latePct]).toEqual([2, 1, 50]);
  });
  it("slowdown of jobs without a deadline: (Tw + Te) / Te", () => {
    expect(m.slowdownNoDeadline).toBeCloseTo((1 + 12 / 5) / 2, 12);
  });
  it("machine usage: time average of active / min(machines, jobs in the system)", () => {
    // [0,10) 1, [10,12) 1/2, [12,17) 1, [17,20) 1/1
    expect(m.machineUsage).toBeCloseTo(95, 10);
  });
  it("license usage: copies in use over min(offer, copies asked)", () => {
    // [0,10) 1, [10,12) 0, [12,17) 1, nothing asked after 17
    expect(m.licenseUsage).toBeCloseTo((100 * 15) / 17, 10);
  });
  it("mean workload and the workload series (Figure 3)", () => {
    expect(m.meanWorkload).toBeCloseTo(52 / 20, 12);
    expect(workloadSeries(trace)).toEqual([
      { time: 0, jobs: 3 },
      { time: 5, jobs: 4 },
      { time: 10, jobs: 2 },
      { time: 17, jobs: 1 },
      { time: 20, jobs: 0 },
    ]);
  });
  it("counts a rejected deadline job as late", () => {
    const rejected: JobRecord = {
      job: job({ id: 9, deadline: 100 }),
      intervals: [],
      end: null,
      outcome: "rejected",
      reason: "no",
    };
    const r = paperMetrics({ ...trace, records: [...trace.records, rejected] });
    expect([r.deadlineJobs, r.late]).toEqual([3, 2]);
  });
  it("is neutral on an empty trace", () => {
    expect(paperMetrics({ ...trace, records: [] })).toMatchObject({
      latePct: 0,
      slowdownNoDeadline: 1,
      machineUsage: 0,
      licenseUsage: 0,
    });
  });
});

describe("paperMetrics on convergent schedules (property)", () => {
  it("counts as late exactly the deadline jobs not completed by their deadline", () => {
    fc.assert(
      fc.property(fc.integer(), fc.constantFrom(...CONVERGENT_VARIANTS), (seed, v) => {
        const { platform, jobs } = convergentWorkload({
          jobs: 25,
          machines: 5,
          licenses: 3,
          meanInterArrival: 200,
          seed,
        });
        const trace = simulate(jobs, platform, convergentVariant(v));
        const m = paperMetrics(trace);
        let late = 0;
        let withDeadline = 0;
        for (const r of trace.records) {
          if (r.job.deadline === undefined) continue;
          withDeadline++;
          if (r.outcome !== "completed" || (r.end as number) > r.job.deadline) late++;
        }
        expect(m.deadlineJobs).toBe(withDeadline);
        expect(m.late).toBe(late);
        expect(m.latePct).toBe(withDeadline === 0 ? 0 : (100 * late) / withDeadline);
      }),
      { numRuns: 20 },
    );
  });
});
