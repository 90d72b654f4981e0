import { InvalidInputError, type Job } from "@sched/core";
import { describe, expect, it } from "vitest";
import { formatJobJson, formatJobsJsonl, writeJobsLines } from "../src/jobs-json.js";
import { JobsJsonlWriter } from "../src/jobs-jsonl-writer.js";
import { JobsToSwfTally, jobsToSwf, jobToSwfRecord } from "../src/swf-from-jobs.js";

// Each jobs writer's errors start with the function its caller called: formatJobsJsonl's and
// JobsJsonlWriter.job's said `@sched/workload/formatJobJson`, a function the caller never called
// (jobsToSwf's too, for a number JSON cannot hold).

const base = { id: 1, submit: 0, runtime: 60, estimate: 60, cores: 2 };

/** The InvalidInputError `f` throws. */
function refusal(f: () => unknown): InvalidInputError {
  try {
    f();
  } catch (error) {
    if (error instanceof InvalidInputError) return error;
    throw error;
  }
  throw new Error("not refused");
}

const writers: [string, (job: Job) => unknown][] = [
  ["@sched/workload/formatJobJson", (j) => formatJobJson(j)],
  ["@sched/workload/formatJobsJsonl", (j) => formatJobsJsonl([j])],
  ["@sched/workload/writeJobsLines", (j) => [...writeJobsLines([j])]],
  ["@sched/workload/JobsJsonlWriter.job", (j) => new JobsJsonlWriter(() => {}).job(j)],
  ["@sched/workload/jobsToSwf", (j) => jobsToSwf([j])],
  ["@sched/workload/JobsToSwfTally.add", (j) => new JobsToSwfTally().add(j)],
  ["@sched/workload/jobToSwfRecord", (j) => jobToSwfRecord(j)],
];

// One job per kind of refusal: a number JSON cannot hold (top level, in licenses, in input), a
// field no reader takes, a value createJob refuses, times jobTimeProblem refuses.
const jobs: [string, unknown][] = [
  ["job 1 runtime", { ...base, runtime: Number.NaN }],
  ["job 1 licenses.a", { ...base, licenses: { a: Number.POSITIVE_INFINITY } }],
  ["job 1 input[0].size", { ...base, input: [{ size: Number.NaN, machine: 0 }] }],
  ["job 1 deadLine", { ...base, deadLine: 9 }],
  ["job 1 cores", { ...base, cores: 1.5 }],
  ["job 1 ready", { ...base, submit: 10, ready: 5 }],
];

describe("the jobs writers name the function the caller called", () => {
  for (const [where, write] of writers) {
    it(`${where.slice("@sched/workload/".length)}: every refusal of a job comes from it`, () => {
      for (const [field, job] of jobs) {
        const error = refusal(() => write(job as Job));
        expect({ where: error.where, field: error.field }).toEqual({ where, field });
        expect(error.message.startsWith(`${where}: ${field} `)).toBe(true);
      }
    });
  }

  it("JobsJsonlWriter.job names itself for a repeated id, JobsJsonlWriter.header for meta", () => {
    const writer = new JobsJsonlWriter(() => {});
    writer.job(base);
    expect(refusal(() => writer.job({ ...base })).message).toBe(
      "@sched/workload/JobsJsonlWriter.job: job 1 id 1 appears twice (every reader refuses a file with a repeated job id)",
    );
    expect(refusal(() => writer.header({ procs: 0 })).message).toMatch(
      /^@sched\/workload\/JobsJsonlWriter\.header: meta\.procs is 0, /,
    );
  });
});
