import { readdir } from "node:fs/promises";
import { createJob, identicalPool, simulate } from "@sched/core";
import { describe, expect, it } from "vitest";
import { checkTraceNoLostJobs, LostJobsError } from "../src/lost-jobs.js";
import { cli, fixture, tempDir } from "./helpers.js";

const SMALL = fixture("small.swf");
const IDLE = fixture("policies/idle.mjs");
const PARTIAL = fixture("policies/partial.mjs");
const WAIT_TIMER = fixture("policies/wait-timer.mjs");

const WHAT_TO_DO =
  "the run ended with them waiting and nothing left to happen (no arrival, completion or timer), so they would never start. A policy must start or reject every job it is given; one that waits for a time must set a timer (ctx.wakeAt) to be called again then";

describe("sched-sim run: a run that ends with jobs lost fails", () => {
  it("a policy that starts nothing: exit 1, how many jobs, the first ids and what to do", async () => {
    const r = await cli("run", "-w", SMALL, "--clean", "-s", IDLE);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("");
    // The clean-up's report is not printed either: the run failed, as under --max-events.
    expect(r.stderr).toBe(
      `sched-sim: run: policy "idle" left 6 of the 6 jobs unfinished (ids 1, 2, 3, 4, 5, ...): ${WHAT_TO_DO}\n`,
    );
  });

  it("a policy that starts some jobs then stops: the jobs it left", async () => {
    const r = await cli("run", "-w", SMALL, "--clean", "-s", PARTIAL);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      `sched-sim: run: policy "partial" left 4 of the 6 jobs unfinished (ids 3, 4, 5, 7): ${WHAT_TO_DO}\n`,
    );
  });

  it("writes no --out file, as for the other failed runs, and leaves no temporary", async () => {
    const out = await tempDir();
    const r = await cli("run", "-w", SMALL, "--clean", "-s", PARTIAL, "--out", out);
    expect(r.code).toBe(1);
    expect(await readdir(out)).toEqual([]);
  });

  it("a policy that waits for time with a timer finishes every job: exit 0", async () => {
    const r = await cli("run", "-w", SMALL, "--clean", "-s", WAIT_TIMER, "--format", "json");
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout) as Record<string, number>;
    expect(doc.completed).toBe(6);
    expect(doc.unfinished).toBe(0);
    // Nothing starts before the timer at t = 1000: job 1 (submitted at 0) waits 1000 s.
    expect(doc.maxWait).toBeGreaterThanOrEqual(1000);
  });

  it("the built-in policies on both engines never trigger it", async () => {
    for (const s of ["fcfs", "easy", "conservative"]) {
      for (const engine of s === "conservative" ? ["general"] : ["general", "pooled"]) {
        const r = await cli("run", "-w", SMALL, "--clean", "-s", s, "--engine", engine);
        expect(r.code, `${s} on ${engine}`).toBe(0);
      }
    }
  });
});

describe("checkTraceNoLostJobs (the library's run is unchanged: simulate returns the trace)", () => {
  const jobs = [1, 2, 3].map((id) => createJob({ id, submit: id, runtime: 5, cores: 1 }));
  const idle = { name: "idle", schedule() {} };

  it("simulate still returns a trace with the jobs unfinished; the CLI's check refuses it", () => {
    const trace = simulate(jobs, identicalPool(2), idle);
    expect(trace.records.map((r) => r.outcome)).toEqual(["unfinished", "unfinished", "unfinished"]);
    expect(() => checkTraceNoLostJobs("run", trace)).toThrow(LostJobsError);
    try {
      checkTraceNoLostJobs("run", trace);
    } catch (error) {
      const e = error as LostJobsError;
      expect(e.code).toBe("LOST_JOBS");
      expect(e.lost).toBe(3);
      expect(e.jobIds).toEqual([1, 2, 3]);
      expect(e.message).toMatch(
        /^run: policy "idle" left 3 of the 3 jobs unfinished \(ids 1, 2, 3\): /,
      );
    }
  });

  it("a run cut at a horizon keeps its unfinished jobs: not lost", () => {
    const trace = simulate(jobs, identicalPool(2), idle, { until: 2 });
    expect(trace.horizon).toBe(2);
    expect(() => checkTraceNoLostJobs("run", trace)).not.toThrow();
  });

  it("names one job as 'id'", () => {
    const trace = simulate(jobs.slice(0, 1), identicalPool(2), idle);
    expect(() => checkTraceNoLostJobs("demo", trace)).toThrow(
      'demo: policy "idle" left 1 of the 1 job unfinished (id 1): ',
    );
  });
});
