import { describe, expect, it } from "vitest";
import { syntheticWorkload } from "../src/synthetic.js";
import { cli, tempDir } from "./helpers.js";
import { writeExperiment } from "./sweep-helpers.js";

describe("syntheticWorkload", () => {
  it("is deterministic in its options", () => {
    expect(syntheticWorkload({ jobs: 200, seed: 3 })).toEqual(
      syntheticWorkload({ jobs: 200, seed: 3 }),
    );
    expect(syntheticWorkload({ jobs: 200, seed: 3 })).not.toEqual(
      syntheticWorkload({ jobs: 200, seed: 4 }),
    );
  });

  it("gives valid rigid jobs in submit order with estimate >= runtime and sizes within the machine", () => {
    const jobs = syntheticWorkload({ jobs: 1000, procs: 64, load: 0.7, seed: 9 });
    expect(jobs).toHaveLength(1000);
    jobs.forEach((j, i) => {
      expect(j.id).toBe(i + 1);
      expect(Number.isInteger(j.submit) && j.submit >= 0).toBe(true);
      if (i > 0) expect(j.submit).toBeGreaterThanOrEqual(jobs[i - 1]!.submit);
      expect(j.runtime).toBeGreaterThanOrEqual(1);
      expect(j.estimate).toBeGreaterThanOrEqual(j.runtime);
      expect(j.cores >= 1 && j.cores <= 64).toBe(true);
    });
  });

  it("hits the offered load and only scales arrivals when the load changes", () => {
    const at = (load: number) => syntheticWorkload({ jobs: 2000, procs: 128, load, seed: 5 });
    const low = at(0.5);
    const high = at(0.9);
    const offered = (jobs: typeof low) => {
      const work = jobs.reduce((s, j) => s + j.runtime * j.cores, 0);
      const last = jobs[jobs.length - 1]!.submit;
      const span = last + last / (jobs.length - 1);
      return work / (128 * span);
    };
    expect(offered(low)).toBeCloseTo(0.5, 2);
    expect(offered(high)).toBeCloseTo(0.9, 2);
    expect(high.map((j) => [j.runtime, j.estimate, j.cores])).toEqual(
      low.map((j) => [j.runtime, j.estimate, j.cores]),
    );
    expect(high[1999]!.submit).toBeLessThan(low[1999]!.submit);
  });

  it("rejects options out of range", () => {
    expect(() => syntheticWorkload({ jobs: 0 })).toThrow(RangeError);
    expect(() => syntheticWorkload({ procs: 1.5 })).toThrow(RangeError);
    expect(() => syntheticWorkload({ load: 0 })).toThrow(RangeError);
  });

  it("refuses a load so small that times pass 2^53 − 1 s, and keeps every job of a small but exact one", () => {
    // load 1e-15: submits near 6e18 s, where a double moves in steps of 1024 s
    expect(() => syntheticWorkload({ load: 1e-15 })).toThrow(
      /^the offered load 1e-15 is too small for these 2000 jobs: .* beyond 2\^53 − 1 s/,
    );
    expect(() => syntheticWorkload({ jobs: 50, procs: 16, load: 1e-300 })).toThrow(RangeError);
    const small = syntheticWorkload({ load: 1e-9 }); // arrivals over 2.5e14 s
    expect(small).toHaveLength(2000);
    for (const j of small) expect(j.submit + j.estimate - j.submit).toBe(j.estimate);
  });
});

describe("a load too small for exact times, in the caller's words", () => {
  it("demo --load 1e-15: exit 2 naming the option (before: a @sched/backfill error, exit 1)", async () => {
    const r = await cli("demo", "--load", "1e-15");
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /^sched-sim: demo: option --load: the offered load 1e-15 is too small for these 2000 jobs: [^\n]*; give a larger load\n$/,
    );
    expect(r.stdout).toBe("");
  });

  it("sweep with workload.load 1e-300: the run fails with that message (before: a makespan of 8.6e303 s, exit 0)", async () => {
    const file = await writeExperiment({
      name: "tiny",
      workload: { type: "synthetic", jobs: 50, load: 1e-300 },
      platform: { procs: 16 },
      schedulers: ["easy"],
    });
    const r = await cli("sweep", file, "--out", await tempDir(), "--quiet");
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("the offered load 1e-300 is too small for these 50 jobs");
  });
});
