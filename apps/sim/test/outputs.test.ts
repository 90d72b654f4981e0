import { identicalPool, type ScheduleTrace } from "@sched/core";
import { describe, expect, it } from "vitest";
import { jobsCsv } from "../src/outputs.js";

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
