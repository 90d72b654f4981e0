import { JOB_FIELDS, type Job } from "@sched/core";
import { describe, expect, it } from "vitest";
import { formatJobJson, parseJobsJsonl, readUsualJob, usualJobRecord } from "../src/jobs-json.js";
import { JobsJsonlWriter } from "../src/jobs-jsonl-writer.js";
import { JobsToSwfTally, jobsToSwf, jobToSwfRecord } from "../src/swf-from-jobs.js";
import { swfToJobs } from "../src/swf-jobs.js";
import { parseSwf } from "../src/swf-read.js";
import { formatSwf } from "../src/swf-write.js";

// readUsualJob: the writers' per-job check, which reads a plain job's fields in one for-in.

/** A job with every field of JOB_FIELDS, each valid. */
const full: Job = {
  id: 7,
  submit: 10,
  runtime: 60,
  estimate: 90,
  cores: 4,
  deadline: 500,
  ready: 20,
  licenses: { matlab: 2 },
  input: [{ size: 1e6, machine: 1 }],
  benchmark: 1.5,
  maxParallelism: 8,
  tasks: 2,
  user: 3,
  group: 4,
  queue: 5,
  partition: 6,
  priority: -1.25,
};

/** The bytes JobsJsonlWriter writes for `job`. */
function streamed(job: Job): string {
  const chunks: Buffer[] = [];
  const writer = new JobsJsonlWriter((b) => chunks.push(Buffer.from(b)));
  writer.job(job);
  writer.flush();
  return Buffer.concat(chunks).toString("utf8");
}

describe("readUsualJob", () => {
  it("takes every field of @sched/core's JOB_FIELDS, each read as it is, and no other key", () => {
    expect(Object.keys(full)).toEqual([...JOB_FIELDS]);
    const out = usualJobRecord();
    expect(readUsualJob(full, out)).toBe(true);
    expect({ ...out }).toEqual(full);
    for (const k of ["colour", "Cores", "deadLine", "constructor", "__proto__", ""]) {
      const job = Object.defineProperty({ ...full }, k, { value: 1, enumerable: true });
      expect(readUsualJob(job, usualJobRecord())).toBe(false);
    }
  });

  it("reads a field set to undefined as absent, as the full check does", () => {
    const out = usualJobRecord();
    const job = { ...full, deadline: undefined, user: undefined } as unknown as Job;
    expect(readUsualJob(job, out)).toBe(true);
    expect([out.deadline, out.user]).toEqual([undefined, undefined]);
  });

  it("leaves a class instance to the full check: its getters are written, read by name (by the SWF writers too, which wrote its estimate and user as the run time and unknown)", () => {
    class Timed {
      id = 1;
      submit = 0;
      runtime = 60;
      cores = 2;
      get estimate(): number {
        return 90;
      }
      get deadline(): number {
        return 100;
      }
      get user(): number {
        return 3;
      }
    }
    const job = new Timed() as Job;
    expect(readUsualJob(job, usualJobRecord())).toBe(false);
    const line = '{"id":1,"submit":0,"runtime":60,"estimate":90,"cores":2,"deadline":100,"user":3}';
    expect(formatJobJson(job)).toBe(line);
    expect(streamed(job)).toBe(`${line}\n`);
    expect(parseJobsJsonl(line).jobs[0]!.deadline).toBe(100);
    const trace = jobsToSwf([job]);
    expect(trace.records[0]).toMatchObject({ requestedTime: 90, userId: 3 });
    expect(trace.header.notes[1]).toBe("1 of 1 jobs had fields SWF cannot hold, dropped: deadline");
    const tally = new JobsToSwfTally();
    tally.add(job);
    expect(tally.header()).toEqual(trace.header);
    expect(jobToSwfRecord(job)).toEqual(trace.records[0]);
    const back = swfToJobs(parseSwf(formatSwf(trace.header, trace.records)).records).jobs;
    expect(back).toEqual([{ id: 1, submit: 0, runtime: 60, estimate: 90, cores: 2, user: 3 }]);
  });

  it("refuses a class instance whose getter gives a time the readers refuse (it was written: the file did not read back)", () => {
    class Late {
      id = 1;
      submit = 10;
      runtime = 60;
      estimate = 60;
      cores = 2;
      get deadline(): number {
        return 5;
      }
    }
    const message = "job 1 deadline is 5, expected a time >= submit (10)";
    expect(() => formatJobJson(new Late() as Job)).toThrow(
      `@sched/workload/formatJobJson: ${message}`,
    );
    expect(() => streamed(new Late() as Job)).toThrow(
      `@sched/workload/JobsJsonlWriter.job: ${message}`,
    );
  });
});
