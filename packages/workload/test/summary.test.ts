import { InvalidInputError, type Job } from "@sched/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  type Distribution,
  summarizeJobs,
  WorkloadSummarizer,
  type WorkloadSummary,
} from "../src/summary.js";
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

  it("counts a job with an empty licenses object as one without licenses", () => {
    const s = summarizeJobs([
      job(1, 0, 10, 1, { licenses: {} }),
      job(2, 1, 10, 1, { licenses: { a: 1 } }),
      job(3, 2, 10, 1),
    ]);
    expect(s.withLicenses).toBe(1);
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

/**
 * The summary as this package computed it before it streamed: every job held in a list, each
 * column built from the list, sorted, and read at nearest ranks. The oracle of the streamed
 * form (same figures, bit for bit).
 */
function heldSummary(list: readonly Job[], procs?: number): WorkloadSummary {
  const dist = (values: Float64Array): Distribution => {
    values.sort();
    const n = values.length;
    const at = (q: number) => values[Math.max(0, Math.ceil(q * n) - 1)]!;
    let sum = 0;
    for (const v of values) sum += v;
    const [min, max] = [values[0]!, values[n - 1]!];
    return { min, q25: at(0.25), median: at(0.5), q75: at(0.75), q90: at(0.9), max, mean: sum / n };
  };
  const n = list.length;
  const submits = Float64Array.from(list, (j) => j.submit).sort();
  const gaps = new Float64Array(Math.max(0, n - 1));
  for (let i = 1; i < n; i++) gaps[i - 1] = submits[i]! - submits[i - 1]!;
  let work = 0;
  for (const j of list) work += j.runtime * j.cores;
  const count = (f: (j: Job) => boolean) => list.filter(f).length;
  const span = submits[n - 1]! - submits[0]!;
  return {
    jobs: n,
    firstSubmit: submits[0]!,
    lastSubmit: submits[n - 1]!,
    span,
    cores: dist(Float64Array.from(list, (j) => j.cores)),
    runtime: dist(Float64Array.from(list, (j) => j.runtime)),
    estimate: dist(Float64Array.from(list, (j) => j.estimate)),
    interArrival: n < 2 ? null : dist(gaps),
    serialFraction: count((j) => j.cores === 1) / n,
    powerOfTwoFraction: count((j) => j.cores > 1 && (j.cores & (j.cores - 1)) === 0) / n,
    overEstimate: count((j) => j.runtime > j.estimate),
    withDeadline: count((j) => j.deadline !== undefined),
    withLicenses: count((j) => j.licenses !== undefined && Object.keys(j.licenses).length > 0),
    work,
    offeredLoad: procs === undefined || span === 0 ? null : work / (procs * span),
  };
}

/**
 * A time: mostly whole seconds (as in SWF, which the summarizer keeps as 32-bit integers), else
 * fractions, -0, or whole numbers just past 32 bits (which turn a column into doubles).
 */
const arbTime = (min: number, max: number) =>
  fc.oneof(
    { weight: 4, arbitrary: fc.integer({ min: Math.ceil(min), max }) },
    { weight: 2, arbitrary: fc.double({ min, max, noNaN: true }) },
    { weight: 1, arbitrary: fc.integer({ min: 2 ** 31 - 3, max: 2 ** 31 + 3 }) },
    { weight: 1, arbitrary: fc.constant(min === 0 ? -0 : min) },
  );

const arbJob = fc.record({
  submit: arbTime(0, 1e7),
  runtime: arbTime(0.5, 1e5),
  estimate: arbTime(0.5, 1e5),
  cores: fc.integer({ min: 1, max: 300 }),
  deadline: fc.option(fc.integer({ min: 0, max: 1e8 }), { nil: undefined }),
  licensed: fc.boolean(),
});

describe("summarizeJobs streams: one pass, the jobs not kept", () => {
  it("property: the summary of the jobs held in a list, bit for bit (in any order, with or without procs)", () => {
    fc.assert(
      fc.property(
        fc.array(arbJob, { minLength: 1, maxLength: 60 }),
        fc.option(fc.integer({ min: 1, max: 512 }), { nil: undefined }),
        (specs, procs) => {
          const jobs = specs.map((x, i) =>
            job(i + 1, x.submit, x.runtime, x.cores, {
              estimate: x.estimate,
              ...(x.deadline === undefined ? {} : { deadline: x.deadline }),
              ...(x.licensed ? { licenses: { a: 1 } } : {}),
            }),
          );
          const options = procs === undefined ? {} : { procs };
          expect(summarizeJobs(jobs, options)).toEqual(heldSummary(jobs, procs));
          const s = new WorkloadSummarizer();
          for (const j of jobs) s.add(j);
          expect(s.jobs).toBe(jobs.length);
          expect(s.summary(options)).toEqual(heldSummary(jobs, procs));
        },
      ),
    );
  });

  it("past many chunks of whole numbers, then doubles from a fraction, a -0 or a number past 32 bits", () => {
    // 10,000 jobs (several chunks of 4,096) of whole seconds, then one odd value in one column
    // turns that column into doubles: the figures are those of the held list, bit for bit.
    const base = Array.from({ length: 10_000 }, (_, k) =>
      job(k + 1, (k * 7919) % 100_003, 1 + ((k * 31) % 5000), 1 + (k % 64), {
        estimate: 2 + ((k * 17) % 9000),
      }),
    );
    const odd: [string, (j: Job) => Job][] = [
      ["no odd value", (j) => j],
      ["a fractional run time", (j) => ({ ...j, runtime: 12.5 })],
      ["a run time past 16 bits", (j) => ({ ...j, runtime: 2 ** 15 })],
      ["a run time of -2^15 (16 bits, kept as 32)", (j) => ({ ...j, runtime: -(2 ** 15) })],
      ["cores past 16 bits", (j) => ({ ...j, cores: 2 ** 16 + 1 })],
      ["cores just within 16 bits", (j) => ({ ...j, cores: 2 ** 15 - 1 })],
      ["a -0 submit time", (j) => ({ ...j, submit: -0 })],
      ["an estimate past 32 bits", (j) => ({ ...j, estimate: 2 ** 31 })],
      ["a submit time past 32 bits", (j) => ({ ...j, submit: 2 ** 32 })],
      ["32-bit submit times 2^31 or more apart", (j) => ({ ...j, submit: -(2 ** 31) })],
    ];
    for (const [, change] of odd) {
      const jobs = base.map((j, k) => (k === 6000 ? change(j) : j));
      expect(summarizeJobs(jobs, { procs: 64 })).toEqual(heldSummary(jobs, 64));
    }
  });

  it("property: jobs in submit order (kept as gaps), then one out of order or not a whole number, bit for bit", () => {
    // The summarizer keeps the gaps of submit times that come in order, and rebuilds the times
    // from them at the first one that does not (or that is a fraction, -0 or past 2^52).
    const arbSubmit = fc.oneof(
      { weight: 6, arbitrary: fc.integer({ min: -5, max: 2 ** 33 }) },
      { weight: 1, arbitrary: fc.integer({ min: 2 ** 31 - 3, max: 2 ** 31 + 3 }) },
      { weight: 1, arbitrary: fc.constantFrom(-0, 0.5, 2 ** 52, 2 ** 52 + 2, -(2 ** 52), 2 ** 60) },
      { weight: 1, arbitrary: fc.double({ min: -10, max: 2 ** 33, noNaN: true }) },
    );
    fc.assert(
      fc.property(
        fc.array(arbSubmit, { minLength: 1, maxLength: 60 }),
        fc.array(arbSubmit, { maxLength: 5 }),
        (times, after) => {
          const submits = [...times.sort((a, b) => a - b), ...after];
          const jobs = submits.map((t, i) => job(i + 1, t, 1 + (i % 7), 1 + (i % 5)));
          const s = new WorkloadSummarizer();
          for (const j of jobs) s.add(j);
          expect(s.jobs).toBe(jobs.length);
          expect(s.summary({ procs: 8 })).toEqual(heldSummary(jobs, 8));
        },
      ),
    );
  });

  it("in submit order past many chunks, as gaps: then a time out of order, a fraction, -0 or past 2^52", () => {
    // 10,000 jobs in submit order (several chunks of gaps), times past 32 bits (as 10 million
    // Lublin jobs' are), some gaps past 32 bits (as 16-bit OUT marks and 32-bit values), or two
    // gaps in three past 16 bits (the 16-bit chunks closed after 4,096); then, at job 6,000, one
    // time that is not kept as a gap: the times are rebuilt from the gaps, exactly, in order.
    const spiky = (k: number) => 2 ** 31 - 5000 * 700 + k * 700 + (k % 9 === 0 ? 2 ** 32 * k : 0);
    const wide = (k: number) => 40_000 * k - 39_995 * Math.floor(k / 3);
    for (const time of [spiky, wide]) {
      const base = Array.from({ length: 10_000 }, (_, k) =>
        job(k + 1, time(k), 1 + (k % 50), 1 + (k % 64)),
      );
      base.sort((a, b) => a.submit - b.submit);
      const odd: [string, (j: Job) => Job][] = [
        ["none", (j) => j],
        ["a time out of order", (j) => ({ ...j, submit: 3 })],
        ["the previous time again", (j) => ({ ...j, submit: base[5999]!.submit })],
        ["a fraction", (j) => ({ ...j, submit: j.submit + 0.25 })],
        ["-0", (j) => ({ ...j, submit: -0 })],
        ["a time past 2^52", (j) => ({ ...j, submit: 2 ** 52 + 2 })],
      ];
      for (const [, change] of odd) {
        const jobs = base.map((j, k) => (k === 6000 ? change(j) : j));
        expect(summarizeJobs(jobs, { procs: 64 })).toEqual(heldSummary(jobs, 64));
      }
    }
    // Whole numbers 2^54 - 3 apart: their gap is not exact (so they are not kept as gaps).
    const far = [job(1, -(2 ** 53 - 1), 5, 1), job(2, 2 ** 53 - 2, 5, 1), job(3, 0, 5, 1)];
    expect(summarizeJobs(far)).toEqual(heldSummary(far));
    // 0, then -0 (not before it, as numbers compare): sorted, -0 comes first, and no gap is -0.
    const zeros = [job(1, 0, 5, 1), job(2, -0, 5, 1), job(3, 0, 5, 1)];
    expect(summarizeJobs(zeros)).toEqual(heldSummary(zeros));
    expect(Object.is(summarizeJobs(zeros).firstSubmit, -0)).toBe(true);
  });

  it("property: estimates that are the run times (kept once), then one that is not, bit for bit", () => {
    // The summarizer keeps no estimate while each is its run time (the same number: 0 and -0
    // differ), and copies the run times at the first that is not.
    const arbRuntime = fc.oneof(
      fc.integer({ min: 0, max: 1e5 }),
      fc.constantFrom(0, -0, 2 ** 31, 0.5),
      fc.double({ min: 0, max: 1e5, noNaN: true }),
    );
    fc.assert(
      fc.property(
        fc.array(fc.tuple(arbRuntime, arbRuntime), { minLength: 1, maxLength: 40 }),
        fc.nat(45),
        (pairs, from) => {
          const jobs = pairs.map(([runtime, other], i) =>
            job(i + 1, i, runtime, 1, { estimate: i < from ? runtime : other }),
          );
          expect(summarizeJobs(jobs)).toEqual(heldSummary(jobs));
        },
      ),
    );
    // Past several chunks: 10,000 jobs, each estimate its run time up to job 6,000.
    const jobs = Array.from({ length: 10_000 }, (_, k) =>
      job(k + 1, k, 1 + ((k * 31) % 5000), 1, { estimate: k < 6000 ? 1 + ((k * 31) % 5000) : 7 }),
    );
    expect(summarizeJobs(jobs)).toEqual(heldSummary(jobs));
    const runtimeZero = [job(1, 0, 0, 1, { estimate: -0 }), job(2, 0, 5, 1)];
    expect(Object.is(summarizeJobs(runtimeZero).estimate.min, -0)).toBe(true);
  });

  /**
   * 2^22 + 1005 jobs, the last 2^21 of them with run time `tail`, the others `head`: their sum
   * depends on its order, and the summary's mean must be the sorted sum's.
   */
  const expectSortedMean = (head: number, tail: number): void => {
    const s = new WorkloadSummarizer();
    const spec = { id: 0, submit: 0, runtime: 0, estimate: 0, cores: 1 };
    const runtimes = new Float64Array(2 ** 22 + 1005);
    for (let k = 0; k < runtimes.length; k++) {
      runtimes[k] = k < runtimes.length - 2 ** 21 ? head : tail;
      spec.id = k + 1;
      spec.runtime = runtimes[k]!;
      s.add(spec);
    }
    let inOrder = 0;
    for (const v of runtimes) inOrder += v;
    let sorted = 0;
    for (const v of runtimes.sort()) sorted += v;
    expect(inOrder).not.toBe(sorted);
    expect(s.summary().runtime.mean).toBe(sorted / runtimes.length);
  };

  it("a mean whose sum rounds (4 million run times near 2^31): summed in sorted order", () => {
    // Past 2^53 the sum of the run times depends on its order (here: 2^31 - 1 first, then
    // 2^31 - 3, which sort first): the summary's is the sorted one, whether the column is read
    // back whole or from its chunks.
    expectSortedMean(2 ** 31 - 1, 2 ** 31 - 3);
  });

  it("the same with negative run times (read as given): the sum's bound is on the largest magnitude", () => {
    // 4 million run times near -2^31: the largest value is negative, so a bound on the largest
    // value alone (not its magnitude) took the chunk order's sum; the summary's is the sorted one.
    expectSortedMean(-(2 ** 31 - 3), -(2 ** 31 - 1));
  });

  it("past its first 1024 jobs (its columns grow) and from a generator read once", () => {
    const { jobs } = swfToJobs(parseSwf(fixtureText(TRACES.kth)).records, { clean: true });
    function* once(): Generator<Job> {
      yield* jobs;
    }
    expect(summarizeJobs(once(), { procs: 100 })).toEqual(heldSummary(jobs, 100));
  });

  it("WorkloadSummarizer: one summary, every job before it", () => {
    const s = new WorkloadSummarizer();
    expect(() => s.summary()).toThrow(
      "@sched/workload/WorkloadSummarizer.summary: jobs is empty, expected at least one job",
    );
    s.add(job(1, 0, 10, 2));
    expect(s.summary({ procs: 2 }).work).toBe(20);
    expect(() => s.summary()).toThrow(
      "@sched/workload/WorkloadSummarizer.summary: summary was already taken, expected one call",
    );
    expect(() => s.add(job(2, 1, 10, 2))).toThrow(
      "@sched/workload/WorkloadSummarizer.add: job came after summary(), expected every job before it",
    );
    expect(() => new WorkloadSummarizer().summary({ porcs: 2 } as never)).toThrow(
      "@sched/workload/WorkloadSummarizer.summary: options.porcs is not a known key",
    );
  });
});
