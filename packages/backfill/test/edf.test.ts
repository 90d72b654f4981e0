import { createPlatform, simulate } from "@sched/core";
import { describe, expect, it } from "vitest";
import { edf } from "../src/edf.js";
import { intervalsOf, job, startsOf } from "./support/run.js";

// Two single-core machines: m0 speed 1, m1 speed 2 (runtimes refer to speed 1).
const twoSpeeds = createPlatform({
  machines: [
    { cores: 1, speed: 1 },
    { cores: 1, speed: 2 },
  ],
});
const oneCore = createPlatform({ machines: [{ cores: 1 }] });

describe("edf", () => {
  it("edf() starts jobs by increasing deadline on the fastest free machine", () => {
    const jobs = [
      job(1, 0, 10, 1, { deadline: 50 }),
      job(2, 0, 10, 1, { deadline: 20 }),
      job(3, 0, 10, 1, { deadline: 30 }),
    ];
    const trace = simulate(jobs, twoSpeeds, edf());
    const machine = (id: number) =>
      trace.records.find((r) => r.job.id === id)?.intervals[0]?.allocation[0]?.machine;
    // J2 (deadline 20) gets m1 (fast, 5 s), J3 (30) m0 (10 s); J1 (50) waits for m1 at 5.
    expect(machine(2)).toBe(1);
    expect(machine(3)).toBe(0);
    expect(machine(1)).toBe(1);
    expect(startsOf(trace).get(1)).toBe(5);
  });

  it("a job without a deadline goes after every job with one", () => {
    const jobs = [job(1, 0, 10, 1), job(2, 0, 10, 1, { deadline: 1000 })];
    expect(startsOf(simulate(jobs, oneCore, edf())).get(2)).toBe(0);
  });

  it("a newly submitted job with an earlier deadline preempts the running one, which resumes with its progress", () => {
    const jobs = [job(1, 0, 10, 1, { deadline: 100 }), job(2, 2, 3, 1, { deadline: 10 })];
    const trace = simulate(jobs, oneCore, edf());
    const r1 = trace.records[0]!;
    const r2 = trace.records[1]!;
    expect(r2.intervals.map((i) => [i.start, i.end])).toEqual([[2, 5]]);
    // J1 did 2 of 10 s before the preemption: 8 s remain after 5.
    expect(r1.intervals.map((i) => [i.start, i.end])).toEqual([
      [0, 2],
      [5, 13],
    ]);
    expect(r1.outcome).toBe("completed");
  });

  it("never preempts for a job with a later or no deadline, nor with preemption off", () => {
    const later = [job(1, 0, 10, 1, { deadline: 100 }), job(2, 2, 3, 1, { deadline: 200 })];
    expect(startsOf(simulate(later, oneCore, edf())).get(2)).toBe(10);
    const none = [job(1, 0, 10, 1, { deadline: 100 }), job(2, 2, 3, 1)];
    expect(startsOf(simulate(none, oneCore, edf())).get(2)).toBe(10);
    const off = [job(1, 0, 10, 1, { deadline: 100 }), job(2, 2, 3, 1, { deadline: 10 })];
    expect(startsOf(simulate(off, oneCore, edf({ preemption: false }))).get(2)).toBe(10);
  });

  it("orders equal deadlines by submit time, then id (ids need not follow submit times)", () => {
    // job 1 runs until 10 (deadline 40: no preemption); jobs 2 and 3 share deadline 50, and job
    // 3 was submitted first though its id is larger
    const jobs = [
      job(1, 0, 10, 1, { deadline: 40 }),
      job(3, 1, 4, 1, { deadline: 50 }),
      job(2, 3, 4, 1, { deadline: 50 }),
    ];
    const starts = startsOf(simulate(jobs, oneCore, edf()));
    expect(starts.get(3)).toBe(10);
    expect(starts.get(2)).toBe(14);
  });

  it("preempts only jobs with a strictly later deadline, and only when that frees enough cores", () => {
    const ones = createPlatform({ machines: [{ cores: 1 }, { cores: 1 }] });
    // job 3 needs both machines (it spans); job 2's deadline is later, job 1's equal to job 3's:
    // preempting job 2 alone would free one core, so nothing is preempted
    const equal = [
      job(1, 0, 5, 1, { deadline: 10 }),
      job(2, 0, 8, 1, { deadline: 20 }),
      job(3, 1, 2, 2, { deadline: 10 }),
    ];
    const trace = simulate(equal, ones, edf());
    expect(startsOf(trace).get(3)).toBe(8);
    for (const r of trace.records) expect(r.intervals, `job ${r.job.id}`).toHaveLength(1);
    // job 1's deadline earlier than job 3's: the same, job 2 alone is not enough
    const earlier = [
      job(1, 0, 5, 1, { deadline: 5 }),
      job(2, 0, 8, 1, { deadline: 20 }),
      job(3, 1, 2, 2, { deadline: 10 }),
    ];
    const t2 = simulate(earlier, ones, edf());
    expect(startsOf(t2).get(3)).toBe(8);
    for (const r of t2.records) expect(r.intervals, `job ${r.job.id}`).toHaveLength(1);
  });

  it("among running jobs of one deadline, preempts the one that started last", () => {
    const two = createPlatform({ machines: [{ cores: 2 }] });
    const jobs = [
      job(1, 0, 20, 1, { deadline: 100 }),
      job(2, 2, 20, 1, { deadline: 100 }),
      job(3, 3, 4, 1, { deadline: 10 }),
    ];
    const trace = simulate(jobs, two, edf());
    const spans = (id: number) =>
      trace.records.find((r) => r.job.id === id)!.intervals.map((i) => [i.start, i.end]);
    expect(spans(3)).toEqual([[3, 7]]);
    expect(spans(1)).toEqual([[0, 20]]);
    // job 2 did 1 of 20 s before the preemption: 19 s remain after 7
    expect(spans(2)).toEqual([
      [2, 3],
      [7, 26],
    ]);
  });

  it("restarts the preempted jobs in deadline order where room is left", () => {
    // m0 (2 cores) runs jobs 1 (deadline 50) and 2 (deadline 60) from 0; m1 (1 core) is idle.
    // Job 3 (2 cores, deadline 10) arrives at 1 and fits only m0: both are preempted (job 2,
    // the later deadline, first). One core is left, on m1: job 1, the earlier deadline, takes it.
    const platform = createPlatform({ machines: [{ cores: 2 }, { cores: 1 }] });
    const jobs = [
      job(1, 0, 10, 1, { deadline: 50 }),
      job(2, 0, 10, 1, { deadline: 60 }),
      job(3, 1, 4, 2, { deadline: 10 }),
    ];
    const trace = simulate(jobs, platform, edf());
    const spans = (id: number) => intervalsOf(trace, id);
    expect(spans(3)).toEqual([[1, 5, 0]]);
    expect(spans(1)).toEqual([
      [0, 1, 0],
      [1, 10, 1],
    ]);
    expect(spans(2)).toEqual([
      [0, 1, 0],
      [5, 14, 0],
    ]);
  });

  it("keeps a job that fits on one machine on one machine, and spans when no machine is large enough", () => {
    const farm = createPlatform({ machines: [{ cores: 2 }, { cores: 2 }] });
    // J1 takes 1 core of m0; J2 (2 cores) must wait for one whole machine: m1.
    const jobs = [
      job(1, 0, 10, 1, { deadline: 5 }),
      job(2, 0, 10, 2, { deadline: 6 }),
      job(3, 0, 10, 3),
    ];
    const trace = simulate(jobs, farm, edf());
    const parts = (id: number) =>
      trace.records.find((r) => r.job.id === id)?.intervals[0]?.allocation;
    expect(parts(2)).toEqual([{ machine: 1, cores: 2 }]);
    // J3 needs 3 cores, more than any machine: it spans both once they are free (t = 10).
    expect(parts(3)?.length).toBe(2);
    expect(startsOf(trace).get(3)).toBe(10);
  });

  it("rejects invalid options", () => {
    expect(() => edf({ preemption: "yes" as never })).toThrow(
      '@sched/backfill/edf: options.preemption is "yes", expected true or false',
    );
    expect(() => edf({ machineOrder: "x" as never })).toThrow(/options.machineOrder/);
  });
});
