import { describe, expect, it } from "vitest";
import { COMPARED_SCHEDULERS } from "../src/schedulers.js";
import { cli } from "./helpers.js";

describe("sched-sim demo", () => {
  it("prints a metrics table with a row per policy", async () => {
    const r = await cli("demo");
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("2000 jobs on 128 processors");
    expect(r.stdout).toMatch(
      /policy\s+jobs\s+mean wait \(s\)\s+mean bsld\s+utilization\s+makespan \(s\)/,
    );
    for (const s of COMPARED_SCHEDULERS) expect(r.stdout).toMatch(new RegExp(`\\n${s}\\s+2000\\s`));
  });

  it("is deterministic and its JSON has one result per policy", async () => {
    const a = await cli("demo", "--jobs", "300", "--seed", "4", "--format", "json");
    const b = await cli("demo", "--jobs", "300", "--seed", "4", "--format", "json");
    expect(a.code).toBe(0);
    expect(a.stdout).toBe(b.stdout);
    const doc = JSON.parse(a.stdout) as { results: { policy: string; jobs: number }[] };
    expect(doc.results.map((x) => x.policy)).toEqual([...COMPARED_SCHEDULERS]);
    expect(doc.results.every((x) => x.jobs === 300)).toBe(true);
  });

  it("rejects a bad load", async () => {
    const r = await cli("demo", "--load", "abc");
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      "option --load must be a decimal number greater than 0 and at most 10 (e.g. 0.5 or 5e-1), got 'abc'",
    );
  });
});
