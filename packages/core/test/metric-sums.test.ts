import { describe, expect, it } from "vitest";
import {
  createJob,
  InvalidInputError,
  type JobRecord,
  MetricSums,
  metricsOf,
} from "../src/index.js";

/** The error a call throws (fails the test when it does not throw one of ours). */
function errorOf(call: () => unknown): InvalidInputError {
  try {
    call();
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidInputError);
    return error as InvalidInputError;
  }
  throw new Error("did not throw");
}

describe("MetricSums (hand-worked)", () => {
  it("gives the README's and the TSDoc's figures", () => {
    // 4 cores. Job A: submit 0, runs 10..30 on 2 cores. Job B: submit 5, rejected at 5.
    const sums = new MetricSums(4);
    sums.addCompletedRun(0, 10, 30, 2);
    sums.addRejected(5, 5);
    const m = sums.metrics();
    // The same job given as its interval, then its outcome.
    const other = new MetricSums(4);
    other.addCompleted(0, 10, 30, other.addInterval(10, 30, 2));
    other.addRejected(5, 5);
    expect(other.metrics()).toEqual(m);
    expect([m.jobs, m.completed, m.rejected, m.unfinished]).toEqual([2, 1, 1, 0]);
    expect(m.meanWait).toBe(10);
    expect(m.maxWait).toBe(10);
    expect(m.meanResponse).toBe(30);
    expect(m.meanSlowdown).toBe(1.5); // 30 / 20
    expect(m.meanBoundedSlowdown).toBe(1.5); // max(1, 30 / max(20, 10))
    expect(m.makespan).toBe(30);
    expect(m.utilization).toBe(40 / 120); // 20 s x 2 cores over 4 cores x 30 s
    expect(m.acceptanceRate).toBe(0.5);
    expect(m.machineUsage).toBeNaN();
    expect(m.licenseUsage).toBeNaN();
    expect(m.licenseUsageByName).toEqual({});
    expect(m.deadlineMissRate).toBeNaN();
    expect(m.schedulerMsPerDecision).toBeNaN();
  });

  it("bounds the slowdown with tau, counts deadlines, and passes on what it does not hold", () => {
    // A preempted job (0..4 and 6..8 on 1 core), submit 0, deadline met; tau 5.
    const sums = new MetricSums(2, { tau: 5 });
    const ran = sums.addInterval(0, 4, 1) + sums.addInterval(6, 8, 1);
    sums.addCompleted(0, 0, 8, ran);
    sums.addDeadline(false);
    sums.addUnfinished(3);
    sums.addDeadline(true);
    const m = sums.metrics({
      machineUsage: 0.75,
      licenseUsage: 0.5,
      licenseUsageByName: { f: 0.5 },
      stats: { events: 3, decisions: 4, schedulerMs: 2 },
      horizon: 12,
    });
    expect(m.meanSlowdown).toBe(8 / 6);
    expect(m.meanBoundedSlowdown).toBe(8 / 6); // max(1, 8 / max(6, 5))
    expect(m.deadlineMissRate).toBe(0.5);
    // An unfinished job keeps the window open to the horizon: 0..12.
    expect(m.makespan).toBe(12);
    expect(m.utilization).toBe(6 / 24);
    expect([m.machineUsage, m.licenseUsage, m.schedulerMsPerDecision]).toEqual([0.75, 0.5, 0.5]);
    expect(m.licenseUsageByName).toEqual({ f: 0.5 });
    expect(sums.unfinished).toBe(1);
    expect(sums.window(12)).toEqual({ from: 0, to: 12 });
    expect(sums.window()).toEqual({ from: 0, to: 8 });
  });

  it("gives NaN means, a zero makespan and NaN usage with no job", () => {
    const m = new MetricSums(1).metrics({ machineUsage: 1 });
    expect([m.jobs, m.makespan, m.utilization]).toEqual([0, 0, 0]);
    expect(m.meanWait).toBeNaN();
    expect(m.acceptanceRate).toBeNaN();
    expect(m.machineUsage).toBeNaN();
  });
});

describe("MetricSums (bad input)", () => {
  it("names the constructor's argument", () => {
    expect(errorOf(() => new MetricSums(0)).message).toBe(
      "@sched/core/MetricSums: totalCores is 0, expected a number > 0",
    );
    expect(errorOf(() => new MetricSums(4, { tau: 0 })).field).toBe("options.tau");
  });

  it("names the method and the argument that is not a finite number", () => {
    const sums = new MetricSums(4);
    const e = errorOf(() => sums.addCompleted(Number.NaN, 1, 2, 1));
    expect(e.message).toBe(
      "@sched/core/MetricSums.addCompleted: submit is NaN, expected a finite number",
    );
    expect(errorOf(() => sums.addCompleted(0, 1, Number.POSITIVE_INFINITY, 1)).field).toBe("end");
    expect(errorOf(() => sums.addCompleted(0, 1, 2, Number.NaN)).field).toBe("ran");
    expect(errorOf(() => sums.addInterval(0, Number.NaN, 1)).field).toBe("end");
    expect(errorOf(() => sums.addInterval(0, 1, Number.POSITIVE_INFINITY)).field).toBe("cores");
    expect(errorOf(() => sums.addCompletedRun(0, 1, 2, Number.NaN)).field).toBe("cores");
    expect(errorOf(() => sums.addRejected(Number.NEGATIVE_INFINITY)).field).toBe("submit");
    expect(errorOf(() => sums.addUnfinished(0, Number.NaN)).field).toBe("end");
    expect(errorOf(() => sums.metrics({ machineUsage: "1" as unknown as number })).field).toBe(
      "metrics(options.machineUsage)",
    );
  });

  it("names the argument out of order", () => {
    const sums = new MetricSums(4);
    expect(errorOf(() => sums.addCompleted(5, 4, 9, 5)).message).toBe(
      "@sched/core/MetricSums.addCompleted: firstStart is 4, before submit (5)",
    );
    expect(errorOf(() => sums.addCompleted(0, 4, 3, 1)).field).toBe("end");
    expect(errorOf(() => sums.addCompleted(0, 1, 3, -1)).field).toBe("ran");
    expect(errorOf(() => sums.addInterval(4, 3, 1)).message).toBe(
      "@sched/core/MetricSums.addInterval: end is 3, before start (4)",
    );
    expect(errorOf(() => sums.addInterval(0, 3, -1)).field).toBe("cores");
    expect(errorOf(() => sums.addCompletedRun(5, 4, 9, 1)).field).toBe("start");
    expect(errorOf(() => sums.addCompletedRun(0, 4, 3, 1)).field).toBe("end");
    expect(errorOf(() => sums.addCompletedRun(0, 1, 3, -2)).field).toBe("cores");
    expect(errorOf(() => sums.addRejected(5, 4)).message).toBe(
      "@sched/core/MetricSums.addRejected: end is 4, before submit (5)",
    );
    // A bad call adds nothing.
    expect(sums.metrics().jobs).toBe(0);
  });
});

describe("metricsOf on a record the sums refuse", () => {
  it("names the record", () => {
    const record: JobRecord = {
      job: createJob({ id: 1, submit: 5, runtime: 1, cores: 1 }),
      intervals: [{ start: 2, end: 3, allocation: [] }],
      end: 3,
      outcome: "completed",
    };
    const e = errorOf(() => metricsOf([record], { totalCores: 1 }));
    expect(e.message).toBe(
      "@sched/core/metricsOf: records[0] (job 1) has bad times: start is 2, before submit (5)",
    );
  });
});
