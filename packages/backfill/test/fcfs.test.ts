import { createPlatform, identicalPool, type Job, simulate } from "@sched/core";
import { describe, expect, it } from "vitest";
import { fcfs } from "../src/fcfs.js";
import { classicFcfs } from "./support/oracles.js";
import { readCleanSwf } from "./support/swf.js";

const fixture = (name: string) =>
  new URL(`../../workload/fixtures/${name}`, import.meta.url).pathname;

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

function starts(trace: ReturnType<typeof simulate>): Map<number, number> {
  const m = new Map<number, number>();
  for (const r of trace.records) if (r.intervals.length > 0) m.set(r.job.id, r.intervals[0]!.start);
  return m;
}

describe("fcfs", () => {
  it("fcfs() never lets a job pass the head, even when it would fit", () => {
    // 4 processors: job 1 takes 3 until 10; job 2 needs 2 (waits); job 3 needs 1 and would fit now.
    const trace = simulate(
      [job(1, 0, 10, 3), job(2, 1, 5, 2), job(3, 2, 1, 1)],
      identicalPool(4),
      fcfs(),
    );
    expect([...starts(trace)]).toEqual([
      [1, 0],
      [2, 10],
      [3, 10],
    ]);
  });

  it("fcfs() takes free machines lowest index first", () => {
    const trace = simulate(
      [job(1, 0, 10, 2), job(2, 0, 5, 1), job(3, 5, 5, 2)],
      identicalPool(4),
      fcfs(),
    );
    const alloc = trace.records.map((r) => r.intervals[0]!.allocation.map((p) => p.machine));
    expect(alloc).toEqual([[0, 1], [2], [2, 3]]);
  });

  it("fcfs() starts a job the moment another completes at the same time (completions first)", () => {
    const trace = simulate([job(1, 0, 10, 2), job(2, 10, 3, 2)], identicalPool(2), fcfs());
    expect(starts(trace).get(2)).toBe(10);
  });

  it("fcfs() rejects a job that can never fit instead of blocking the queue", () => {
    const trace = simulate([job(1, 0, 10, 5), job(2, 0, 5, 2)], identicalPool(4), fcfs());
    expect(trace.records[0]!.outcome).toBe("rejected");
    expect(trace.records[0]!.reason).toMatch(/needs 5 cores, the platform has 4/);
    expect(starts(trace).get(2)).toBe(0);
  });

  it("fcfs() waits for the head's ready time and lets nobody pass meanwhile", () => {
    const trace = simulate(
      [job(1, 0, 10, 1, { ready: 20 }), job(2, 1, 5, 1)],
      identicalPool(2),
      fcfs(),
    );
    expect([...starts(trace)]).toEqual([
      [1, 20],
      [2, 20],
    ]);
  });

  it("fcfs() waits for license copies and respects them", () => {
    const platform = createPlatform({
      machines: [{ cores: 2 }, { cores: 2 }],
      licenses: [{ name: "matlab", copies: 1 }],
    });
    const jobs = [
      job(1, 0, 10, 1, { licenses: { matlab: 1 } }),
      job(2, 0, 10, 1, { licenses: { matlab: 1 } }),
      job(3, 0, 10, 1),
    ];
    const s = starts(simulate(jobs, platform, fcfs()));
    expect([...s]).toEqual([
      [1, 0],
      [2, 10],
      [3, 10],
    ]);
  });

  // Every trace of ../shared/data (copied into @sched/workload's fixtures), conventional
  // clean-up; the logs without requested times use the run time as the estimate.
  const traces = [
    { file: "KTH-SP2-1996-2.1-cln.swf", procs: 100, estimate: "requested", atLeast: 28000 },
    { file: "hpc2n-alea-3171.swf", procs: 240, estimate: "requested", atLeast: 3000 },
    { file: "NASA-iPSC-1993-3.1-cln.swf.gz", procs: 128, estimate: "runtime", atLeast: 18000 },
    { file: "lublin_256.swf", procs: 256, estimate: "runtime", atLeast: 9000 },
  ] as const;
  for (const t of traces) {
    it(`fcfs() on ${t.file} (clean-up, ${t.procs} processors) gives every job the classic simulator's start time`, () => {
      const jobs = readCleanSwf(fixture(t.file), t.estimate);
      expect(jobs.length).toBeGreaterThan(t.atLeast);
      const expected = classicFcfs(jobs, t.procs);
      const got = starts(simulate(jobs, identicalPool(t.procs), fcfs()));
      let mismatches = 0;
      let first = "";
      for (const j of jobs) {
        if (got.get(j.id) !== expected.get(j.id)) {
          if (mismatches === 0)
            first = `job ${j.id}: got ${got.get(j.id)}, classic ${expected.get(j.id)}`;
          mismatches++;
        }
      }
      expect(first).toBe("");
      expect(mismatches).toBe(0);
    });
  }
});
