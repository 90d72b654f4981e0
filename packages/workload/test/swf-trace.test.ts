import {
  checkSchedule,
  firstFitAllocation,
  identicalPool,
  type Job,
  type Platform,
  type ScheduleTrace,
  type SchedulingContext,
  simulate,
} from "@sched/core";
import { describe, expect, it } from "vitest";
import { swfToJobs } from "../src/swf-jobs.js";
import { parseSwf } from "../src/swf-read.js";
import { swfRecord } from "../src/swf-record.js";
import { traceToSwf } from "../src/swf-trace.js";
import { formatSwf } from "../src/swf-write.js";
import { fixtureText, TRACES } from "./fixtures.js";

const platform: Platform = {
  machines: [0, 1, 2, 3].map((id) => ({ id, name: `m${id}`, cores: 1, speed: 1, cluster: 0 })),
  licenses: [],
  clusters: [{ id: 0, name: "c0" }],
  links: [],
  referenceSpeed: 1,
  totalCores: 4,
};

const job = (id: number, extra: Partial<Job> = {}): Job => ({
  id,
  submit: 10 * id,
  runtime: 50,
  estimate: 100,
  cores: 2,
  ...extra,
});

const alloc = [
  { machine: 0, cores: 1 },
  { machine: 1, cores: 1 },
];

const trace: ScheduleTrace = {
  scheduler: "fcfs",
  platform,
  stats: { events: 0, decisions: 0, schedulerMs: 0 },
  records: [
    {
      job: job(1, { user: 3, group: 2 }),
      intervals: [{ start: 15, end: 65, allocation: alloc }],
      end: 65,
      outcome: "completed",
    },
    {
      job: job(2),
      intervals: [
        { start: 30, end: 40, allocation: alloc },
        { start: 70, end: 110, allocation: alloc },
      ],
      end: 110,
      outcome: "completed",
    },
    { job: job(3), intervals: [], end: 30, outcome: "rejected", reason: "too big" },
    {
      job: job(4),
      intervals: [{ start: 200, end: 220, allocation: alloc }],
      end: null,
      outcome: "unfinished",
    },
  ],
};

describe("traceToSwf", () => {
  it("writes wait, summed run time and status 1 / 5 / 0 per outcome", () => {
    const { header, records } = traceToSwf(trace);
    expect(records).toEqual([
      swfRecord({
        jobNumber: 1,
        submitTime: 10,
        waitTime: 5,
        runTime: 50,
        allocatedProcs: 2,
        requestedProcs: 2,
        requestedTime: 100,
        status: 1,
        userId: 3,
        groupId: 2,
      }),
      swfRecord({
        jobNumber: 2,
        submitTime: 20,
        waitTime: 10,
        runTime: 50,
        allocatedProcs: 2,
        requestedProcs: 2,
        requestedTime: 100,
        status: 1,
      }),
      swfRecord({ jobNumber: 3, submitTime: 30, requestedProcs: 2, requestedTime: 100, status: 5 }),
      swfRecord({
        jobNumber: 4,
        submitTime: 40,
        waitTime: 160,
        runTime: 20,
        allocatedProcs: 2,
        requestedProcs: 2,
        requestedTime: 100,
        status: 0,
      }),
    ]);
    expect(header).toMatchObject({
      version: "2.2",
      maxJobs: 4,
      maxRecords: 4,
      maxNodes: 4,
      maxProcs: 4,
      preemption: "Yes",
      notes: ["schedule of fcfs, simulated with @sched"],
    });
  });

  it("survives formatting and parsing", () => {
    const swf = traceToSwf(trace);
    expect(parseSwf(formatSwf(swf.header, swf.records))).toEqual(swf);
  });
});

describe("traceToSwf on a simulated KTH-SP2 excerpt", () => {
  it("writes waits and run times that match the simulation, status 1, and parses back", () => {
    const records = parseSwf(fixtureText(TRACES.kth)).records.slice(0, 500);
    const { jobs } = swfToJobs(records, { clean: true });
    const fcfs = {
      name: "test-fcfs",
      schedule(ctx: SchedulingContext) {
        for (const w of ctx.view.waiting) {
          const a = firstFitAllocation(ctx.view, w.job.cores);
          if (a === null) break;
          ctx.start(w.job.id, a);
        }
      },
    };
    const trace = simulate(jobs, identicalPool(100), fcfs);
    expect(checkSchedule(trace)).toEqual([]);
    const swf = traceToSwf(trace);
    expect(swf.records).toHaveLength(jobs.length);
    swf.records.forEach((r, i) => {
      const rec = trace.records[i]!;
      expect(r.jobNumber).toBe(rec.job.id);
      expect(r.status).toBe(1);
      expect(r.waitTime).toBe(rec.intervals[0]!.start - rec.job.submit);
      expect(r.runTime).toBe(rec.job.runtime);
      expect(r.waitTime).toBeGreaterThanOrEqual(0);
    });
    expect(swf.header.maxProcs).toBe(100);
    expect(swf.header.preemption).toBe("No");
    expect(parseSwf(formatSwf(swf.header, swf.records))).toEqual(swf);
  });
});
