import { InvalidInputError, validateJobs } from "@sched/core";
import { describe, expect, it } from "vitest";
import { swfToJobs, swfToJobsAsync } from "../src/swf-jobs.js";
import { parseSwf, readSwfLines } from "../src/swf-read.js";
import { swfRecord } from "../src/swf-record.js";
import { fixtureText, TRACES } from "./fixtures.js";

const base = {
  submitTime: 10,
  waitTime: 5,
  runTime: 100,
  allocatedProcs: 4,
  requestedProcs: 4,
  requestedTime: 200,
  status: 1,
};

describe("swfToJobs", () => {
  it("maps fields 1, 2, 4, 5, 9, 12, 13, 15, 16 and omits unknown ones", () => {
    const { jobs, report } = swfToJobs([
      swfRecord({ ...base, jobNumber: 1, userId: 7, groupId: 3, queue: 2, partition: 1 }),
      swfRecord({ ...base, jobNumber: 2, allocatedProcs: -1, requestedProcs: 8 }),
    ]);
    expect(jobs).toEqual([
      {
        id: 1,
        submit: 10,
        runtime: 100,
        estimate: 200,
        cores: 4,
        user: 7,
        group: 3,
        queue: 2,
        partition: 1,
      },
      { id: 2, submit: 10, runtime: 100, estimate: 200, cores: 8 },
    ]);
    expect(report).toEqual({
      records: 2,
      jobs: 2,
      droppedRuntime: [],
      droppedProcs: [],
      droppedRequestedTime: [],
      runtimeCapped: [],
      sizeFromAllocated: [],
      sizeFromRequested: [2],
    });
  });

  it("keeps an id of 0 in fields 12, 13, 15 and 16 (-1 is the missing one), and reports a size from field 5 over a request of 1", () => {
    const { jobs, report } = swfToJobs([
      swfRecord({ ...base, jobNumber: 1, userId: 0, groupId: 0, queue: 0, partition: 0 }),
      swfRecord({ ...base, jobNumber: 2, allocatedProcs: 4, requestedProcs: 1 }),
    ]);
    expect(jobs[0]).toEqual({
      id: 1,
      submit: 10,
      runtime: 100,
      estimate: 200,
      cores: 4,
      user: 0,
      group: 0,
      queue: 0,
      partition: 0,
    });
    expect(jobs[1]!.cores).toBe(4);
    expect(report.sizeFromAllocated).toEqual([2]);
    expect(report.sizeFromRequested).toEqual([]);
  });

  it("cleans up: drops, caps and reports each change by job number", () => {
    const records = [
      swfRecord({ ...base, jobNumber: 1 }),
      swfRecord({ ...base, jobNumber: 2, runTime: 0 }),
      swfRecord({ ...base, jobNumber: 3, allocatedProcs: -1, requestedProcs: -1 }),
      swfRecord({ ...base, jobNumber: 4, requestedTime: -1 }),
      swfRecord({ ...base, jobNumber: 5, runTime: 250 }),
      swfRecord({ ...base, jobNumber: 6, allocatedProcs: 6, requestedProcs: 5 }),
      swfRecord({ ...base, jobNumber: 7, runTime: -1, requestedTime: -1 }),
    ];
    const { jobs, report } = swfToJobs(records, { clean: true });
    expect(jobs.map((j) => [j.id, j.runtime, j.cores])).toEqual([
      [1, 100, 4],
      [5, 200, 4],
      [6, 100, 6],
    ]);
    expect(report).toEqual({
      records: 7,
      jobs: 3,
      droppedRuntime: [2, 7],
      droppedProcs: [3],
      droppedRequestedTime: [4],
      runtimeCapped: [5],
      sizeFromAllocated: [6],
      sizeFromRequested: [],
    });
  });

  it("uses the run time as the estimate with estimate: runtime, never dropping on field 9", () => {
    const { jobs, report } = swfToJobs(
      [swfRecord({ ...base, jobNumber: 1, runTime: 300, requestedTime: -1 })],
      { clean: true, estimate: "runtime" },
    );
    expect(jobs).toEqual([{ id: 1, submit: 10, runtime: 300, estimate: 300, cores: 4 }]);
    expect(report.runtimeCapped).toEqual([]);
  });

  it("refuses records that are not iterable with a typed error (a TypeError before)", () => {
    expect(() => swfToJobs(null as never)).toThrow(InvalidInputError);
    expect(() => swfToJobs(null as never)).toThrow(
      "@sched/workload/swfToJobs: records is null, expected an iterable of SWF records",
    );
  });

  it("without clean, rejects what the clean-up would drop, naming the record", () => {
    expect(() => swfToJobs([swfRecord({ ...base, jobNumber: 9, runTime: 0 })])).toThrow(
      "@sched/workload/swfToJobs: records[0] (job 9) run time (field 4) is 0, expected > 0 (or set options.clean to drop such jobs)",
    );
    expect(() =>
      swfToJobs([swfRecord({ ...base, jobNumber: 1 }), swfRecord({ ...base, jobNumber: 1 })]),
    ).toThrow("@sched/workload/swfToJobs: records[1] (job 1) job number (field 1) 1 appears twice");
    expect(() => swfToJobs([swfRecord({ ...base, jobNumber: 2, submitTime: -1 })])).toThrow(
      InvalidInputError,
    );
    expect(() => swfToJobs([swfRecord({ ...base, jobNumber: 2, requestedTime: -1 })])).toThrow(
      /requested time \(field 9\) is -1, expected > 0/,
    );
  });

  it("rejects times a double cannot hold to the second, instead of absorbing the run time (issue 23)", () => {
    const message = (fields: Parameters<typeof swfRecord>[0], options = {}): string => {
      try {
        swfToJobs([swfRecord({ ...base, jobNumber: 1, ...fields })], options);
      } catch (e) {
        expect(e).toBeInstanceOf(InvalidInputError);
        return (e as Error).message;
      }
      return "accepted";
    };
    // submit 1e20 with a 100 s run: start + 100 === start, the job would take no time
    expect(message({ submitTime: 1e20 })).toBe(
      "@sched/workload/swfToJobs: records[0] (job 1) submit time (field 2) is 100000000000000000000, beyond 2^53 − 1 = 9007199254740991 s, where times are no longer exact",
    );
    // at 1e15 a double moves in steps of 1/8 s: a 0.1 s job would end 0.125 s after its start
    expect(message({ submitTime: 1e15, runTime: 0.1, requestedTime: 1 })).toBe(
      "@sched/workload/swfToJobs: records[0] (job 1) run time (field 4) is 0.1, too short for submit 1000000000000000: a time that large moves in steps of 0.125 s, so the job would end 0.125 s after it starts",
    );
    expect(message({ submitTime: 2 ** 52, runTime: 0.5, requestedTime: 10 })).toContain(
      "run time (field 4) is 0.5, too short for submit 4503599627370496",
    );
    expect(message({ submitTime: 2 ** 53 - 150 })).toContain(
      "requested time (field 9) is 200: submit + estimate = 9007199254741042 is beyond 2^53 − 1",
    );
    expect(message({ submitTime: 2 ** 53 - 150 }, { estimate: "runtime" })).toBe("accepted");
    // submit times counted from the Unix epoch hold whole seconds exactly, not milliseconds
    expect(message({ submitTime: 1.7e9, runTime: 1, requestedTime: 1 })).toBe("accepted");
    expect(message({ submitTime: 1.7e9, runTime: 0.001, requestedTime: 1 })).toContain(
      "moves in steps of 2.384185791015625e-7 s, so the job would end 0.0009999275207519531 s after it starts",
    );
  });

  it("rejects a job number used twice even when the clean-up drops one of them (issue 23)", () => {
    expect(() =>
      swfToJobs(
        [swfRecord({ ...base, jobNumber: 4, runTime: 0 }), swfRecord({ ...base, jobNumber: 4 })],
        { clean: true },
      ),
    ).toThrow("records[1] (job 4) job number (field 1) 4 appears twice");
  });

  it("rejects a user, group, queue or partition that is neither -1 nor a count", () => {
    for (const [field, label] of [
      ["userId", "user id (field 12)"],
      ["groupId", "group id (field 13)"],
      ["queue", "queue (field 15)"],
      ["partition", "partition (field 16)"],
    ] as const) {
      for (const v of [-2, 1.5]) {
        expect(() => swfToJobs([swfRecord({ ...base, jobNumber: 3, [field]: v })])).toThrow(
          `records[0] (job 3) ${label} is ${v}, expected an integer >= 0, or -1 for unknown`,
        );
      }
    }
  });

  it("ends each clean-up hint in the API's words, options.clean and options.estimate", () => {
    expect(() => swfToJobs([swfRecord({ ...base, jobNumber: 2, requestedTime: -1 })])).toThrow(
      'requested time (field 9) is -1, expected > 0 (or set options.clean to drop such jobs, or set options.estimate to "runtime" to use the run time as the estimate)',
    );
    expect(() =>
      swfToJobs([swfRecord({ ...base, jobNumber: 2, allocatedProcs: 0, requestedProcs: -1 })]),
    ).toThrow(
      "processors (fields 5 and 8) are 0 and -1, expected one > 0 (or set options.clean to drop such jobs)",
    );
  });

  it("does not keep a runtime above the estimate only when cleaning", () => {
    const r = [swfRecord({ ...base, jobNumber: 1, runTime: 250 })];
    expect(swfToJobs(r).jobs[0]!.runtime).toBe(250);
    expect(swfToJobs(r, { clean: true }).jobs[0]!.runtime).toBe(200);
  });

  it("rejects bad options", () => {
    // @ts-expect-error: a wrong option value on purpose
    expect(() => swfToJobs([], { estimate: "guess" })).toThrow(
      '@sched/workload/swfToJobs: options.estimate is "guess", expected "requested" or "runtime"',
    );
  });

  it("never mutates its input", () => {
    const r = swfRecord({ ...base, jobNumber: 1, runTime: 250 });
    const copy = { ...r };
    swfToJobs([r], { clean: true });
    expect(r).toEqual(copy);
  });
});

describe("swfToJobs on the archive traces (figures cross-checked with awk)", () => {
  it("KTH-SP2 clean-up: 8 dropped for run time, 1 for processors, 475 capped, 219 resized", () => {
    const { jobs, report } = swfToJobs(parseSwf(fixtureText(TRACES.kth)).records, { clean: true });
    expect(report.records).toBe(28476);
    expect(report.droppedRuntime).toHaveLength(8);
    expect(report.droppedProcs).toHaveLength(1);
    expect(report.droppedRequestedTime).toHaveLength(0);
    expect(report.runtimeCapped).toHaveLength(475);
    expect(report.sizeFromAllocated).toHaveLength(219);
    expect(report.sizeFromRequested).toHaveLength(0);
    expect(jobs).toHaveLength(28467);
    expect(report.jobs).toBe(28467);
    expect(validateJobs(jobs)).toEqual(jobs);
    // One filter and one assertion (an expect per job took seconds): the jobs out of bounds.
    const outOfBounds = jobs.filter(
      (j) => !(j.runtime > 0 && j.runtime <= j.estimate && j.cores > 0 && j.cores <= 100),
    );
    expect(outOfBounds).toEqual([]);
  });

  it("HPC2N clean-up: 25 dropped for run time, 320 capped, 213 resized", () => {
    const { report } = swfToJobs(parseSwf(fixtureText(TRACES.hpc2n)).records, { clean: true });
    expect([
      report.jobs,
      report.droppedRuntime.length,
      report.droppedProcs.length,
      report.droppedRequestedTime.length,
      report.runtimeCapped.length,
      report.sizeFromAllocated.length,
    ]).toEqual([3145, 25, 0, 0, 320, 213]);
  });

  it("NASA iPSC has no requested times: the clean-up drops all, estimate: runtime keeps 18,066", () => {
    const { records } = parseSwf(fixtureText(TRACES.nasa));
    expect(swfToJobs(records, { clean: true }).report.droppedRequestedTime).toHaveLength(
      18239 - 173,
    );
    const { report } = swfToJobs(records, { clean: true, estimate: "runtime" });
    expect([report.jobs, report.droppedRuntime.length]).toEqual([18066, 173]);
  });

  it("lublin_256 converts whole with estimate: runtime", async () => {
    const lines = fixtureText(TRACES.lublin).split("\n");
    const { jobs } = await swfToJobsAsync(readSwfLines(lines), { estimate: "runtime" });
    expect(jobs).toHaveLength(10000);
  });
});
