import { createJob, type JobRecord } from "@sched/core";
import { describe, expect, it } from "vitest";
import { RejectionTally } from "../src/rejections.js";
import { cli, fixture } from "./helpers.js";

const SMALL = fixture("small.swf");

function rejected(id: number, reason?: string): JobRecord {
  const job = createJob({ id, submit: 0, runtime: 1, cores: 1 });
  return {
    job,
    outcome: "rejected",
    intervals: [],
    end: 0,
    ...(reason === undefined ? {} : { reason }),
  };
}

describe("RejectionTally", () => {
  it("says nothing when no job was rejected", () => {
    const t = new RejectionTally();
    t.record({
      job: createJob({ id: 1, submit: 0, runtime: 1, cores: 1 }),
      outcome: "unfinished",
      intervals: [],
      end: null,
    });
    expect(t.rejected).toBe(0);
    expect(t.note("p", 1)).toBeNull();
  });

  it("names the most frequent reasons first (ties: the earlier first job), then counts the rest", () => {
    const t = new RejectionTally();
    const reasons = ["a", "b", "b", "c", "d", "d", "d", "e"];
    for (const [i, r] of reasons.entries()) t.record(rejected(i + 1, r));
    t.record(rejected(9));
    expect(t.rejected).toBe(9);
    expect(t.note("pol", 20)).toBe(
      'pol rejected 9 of the 20 jobs: 3 "d" (the first is job 5); 2 "b" (the first is job 2); 1 "a" (the first is job 1); 3 more for other reasons. The metrics describe the jobs it ran (see the rejected column and jobs.csv\'s reason)',
    );
  });

  it("says all when every job was rejected, and quotes a reason as JSON", () => {
    const t = new RejectionTally();
    t.record(rejected(7, 'needs "x"'));
    expect(t.note("pol", 1)).toBe(
      'pol rejected all 1 job: 1 "needs \\"x\\"" (the first is job 7). The metrics describe the jobs it ran (see the rejected column and jobs.csv\'s reason)',
    );
  });

  it("keeps at most 64 reasons apart and counts the others", () => {
    const t = new RejectionTally();
    for (let i = 1; i <= 100; i++) t.record(rejected(i, `r${i}`));
    expect(t.rejected).toBe(100);
    expect(t.note("pol", 100)).toContain("; 97 more for other reasons.");
  });
});

describe("sched-sim run: a note on stderr when the policy rejects jobs", () => {
  it("a one-job-per-machine policy on an SWF trace's single-core machines: how many and why", async () => {
    const r = await cli("run", "-w", SMALL, "--clean", "-s", "cs-ip");
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(
      'sched-sim: note: cs-ip rejected 5 of the 6 jobs: 5 "no machine meets its minimal requirements (cores on one machine, licenses)" (the first is job 1). The metrics describe the jobs it ran',
    );
  });

  it("no note when every rejected job is one the too-wide warning already names, nor when none is", async () => {
    const wide = await cli(
      "run",
      "-w",
      SMALL,
      "--clean",
      "-s",
      "easy",
      "--procs",
      "4",
      "--engine",
      "general",
    );
    expect(wide.code).toBe(0);
    expect(wide.stderr).toContain("sched-sim: warning: 1 job(s) need more than the 4 processors");
    expect(wide.stderr).not.toContain("note:");
    const none = await cli("run", "-w", SMALL, "--clean", "-s", "conservative");
    expect(none.code).toBe(0);
    expect(none.stderr).not.toContain("rejected");
  });
});
