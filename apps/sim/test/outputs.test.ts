import { identicalPool, type Metrics, type ScheduleTrace } from "@sched/core";
import { describe, expect, it } from "vitest";
import { jobsCsv, metricsTable } from "../src/outputs.js";

const job = (id: number, submit: number) => ({ id, submit, runtime: 10, estimate: 20, cores: 1 });

describe("jobsCsv", () => {
  it("writes one row per record; a job that never started has empty start, end and wait", () => {
    const trace: ScheduleTrace = {
      scheduler: "hand",
      platform: identicalPool(2),
      stats: { events: 0, decisions: 0, schedulerMs: 0 },
      records: [
        {
          job: job(1, 0),
          intervals: [
            { start: 5, end: 8, allocation: [{ machine: 0, cores: 1 }] },
            { start: 12, end: 19.5, allocation: [{ machine: 1, cores: 1 }] },
          ],
          end: 19.5,
          outcome: "completed",
        },
        { job: job(2, 1), intervals: [], end: 3, outcome: "rejected", reason: "too wide, really" },
        { job: job(3, 2), intervals: [], end: null, outcome: "unfinished" },
      ],
    };
    expect(jobsCsv(trace)).toBe(
      [
        "id,submit,start,end,wait,runtime,estimate,procs,status,preemptions,reason",
        "1,0,5,19.5,5,10,20,1,completed,1,",
        '2,1,,,,10,20,1,rejected,0,"too wide, really"',
        "3,2,,,,10,20,1,unfinished,0,",
        "",
      ].join("\n"),
    );
  });
});

describe("metricsTable", () => {
  const base = {
    jobs: 10,
    completed: 10,
    rejected: 0,
    unfinished: 0,
    meanWait: 12.34,
    maxWait: 50,
    meanResponse: 30,
    meanSlowdown: 2,
    meanBoundedSlowdown: 1.5,
    utilization: 0.69851,
    makespan: 1234.4,
    machineUsage: 0.5,
    licenseUsage: 0,
    licenseUsageByName: {},
  } as unknown as Metrics;

  it("prints utilization as a percentage, as sweep and compare do, and no rejected column when none is", () => {
    const text = metricsTable([{ label: "easy", metrics: base }]);
    expect(text.split("\n")[0]).toMatch(
      /^policy\s+jobs\s+mean wait \(s\)\s+mean bsld\s+utilization\s+makespan \(s\)$/,
    );
    expect(text).toMatch(/easy\s+10\s+12\.3\s+1\.50\s+69\.9%\s+1234\n$/);
  });

  it("adds rejected and unfinished columns when some row has any", () => {
    const text = metricsTable([
      { label: "fcfs", metrics: base },
      { label: "easy", metrics: { ...base, completed: 7, rejected: 3 } },
    ]);
    expect(text.split("\n")[0]).toMatch(/^policy\s+jobs\s+rejected\s+mean wait \(s\)/);
    expect(text).toMatch(/easy\s+10\s+3\s+12\.3/);
    expect(text).toMatch(/fcfs\s+10\s+0\s+12\.3/);
    expect(text).not.toContain("unfinished");
  });
});
