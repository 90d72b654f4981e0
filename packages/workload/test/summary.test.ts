import { InvalidInputError, type Job } from "@sched/core";
import { describe, expect, it } from "vitest";
import { summarizeJobs } from "../src/summary.js";
import { swfToJobs } from "../src/swf-jobs.js";
import { parseSwf } from "../src/swf-read.js";
import { fixtureText, TRACES } from "./fixtures.js";

const job = (
  id: number,
  submit: number,
  runtime: number,
  cores: number,
  extra: Partial<Job> = {},
): Job => ({
  id,
  submit,
  runtime,
  estimate: runtime,
  cores,
  ...extra,
});

describe("summarizeJobs", () => {
  it("works out a hand example: nearest-rank quantiles, fractions, work and load", () => {
    const s = summarizeJobs(
      [
        job(1, 0, 10, 1),
        job(2, 10, 20, 2, { deadline: 100 }),
        job(3, 30, 30, 3, { estimate: 20 }),
        job(4, 40, 40, 4, { licenses: { a: 1 } }),
      ],
      { procs: 4 },
    );
    expect(s.jobs).toBe(4);
    expect([s.firstSubmit, s.lastSubmit, s.span]).toEqual([0, 40, 40]);
    expect(s.cores).toEqual({ min: 1, q25: 1, median: 2, q75: 3, q90: 4, max: 4, mean: 2.5 });
    expect(s.interArrival).toEqual({
      min: 10,
      q25: 10,
      median: 10,
      q75: 20,
      q90: 20,
      max: 20,
      mean: 40 / 3,
    });
    expect([s.serialFraction, s.powerOfTwoFraction]).toEqual([0.25, 0.5]);
    expect([s.overEstimate, s.withDeadline, s.withLicenses]).toEqual([1, 1, 1]);
    expect(s.work).toBe(10 + 40 + 90 + 160);
    expect(s.offeredLoad).toBe(300 / (4 * 40));
  });

  it("summarizes cleaned KTH-SP2 (figures cross-checked with awk): offered load 0.699 on 100 processors", () => {
    const { jobs } = swfToJobs(parseSwf(fixtureText(TRACES.kth)).records, { clean: true });
    const s = summarizeJobs(jobs, { procs: 100 });
    expect(s.jobs).toBe(28467);
    expect(s.work).toBe(2010502094);
    expect(s.span).toBe(28763768);
    expect(s.offeredLoad).toBeCloseTo(0.69897, 5);
    expect(s.cores.max).toBe(100);
    expect(s.overEstimate).toBe(0);
  });

  it("reports no load without procs, no inter-arrival for one job, and rejects no jobs", () => {
    const s = summarizeJobs([job(1, 5, 10, 2)]);
    expect(s.offeredLoad).toBeNull();
    expect(s.interArrival).toBeNull();
    expect(() => summarizeJobs([])).toThrow(InvalidInputError);
    expect(() => summarizeJobs([job(1, 0, 1, 1)], { procs: 0 })).toThrow(
      "@sched/workload/summarizeJobs: options.procs is 0, expected an integer >= 1",
    );
  });
});

describe("summarizeJobs: jobs that are not iterable", () => {
  it("is a typed error naming them (a TypeError before)", () => {
    expect(() => summarizeJobs(null as never)).toThrow(InvalidInputError);
    expect(() => summarizeJobs(null as never)).toThrow(
      "@sched/workload/summarizeJobs: jobs is null, expected an iterable of jobs",
    );
  });
});
