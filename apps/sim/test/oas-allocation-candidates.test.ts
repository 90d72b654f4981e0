import { computeMetrics, type Job, simulate } from "@sched/core";
import { type AllocationCandidates, oasExecutionModel, oasHeuristic } from "@sched/multicluster";
import { oasWorkload } from "@sched/workload";
import { describe, expect, it } from "vitest";
import { oasPolicies, oasReproduction } from "../src/experiments/oas.js";
import type { Params } from "../src/experiments/parameters.js";
import { cli, tempDir } from "./helpers.js";

/** The experiment's defaults with `more` set. */
function paramsOf(more: Record<string, string | number>): Params {
  const out: Record<string, string | number | boolean> = {};
  for (const p of oasReproduction.parameters) out[p.name] = p.default as string | number | boolean;
  return { ...out, ...more };
}

describe("reproduce oas: allocationCandidates", () => {
  it("--params lists the reading with its default and choices; a bad value exits 2 in the CLI's words", async () => {
    for (const name of ["oas", "oas-links", "oas-slots"]) {
      const r = await cli("reproduce", name, "--params");
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toMatch(
        /^ {2}allocationCandidates\s+The allocations the six heuristics .*Default exhaustive; one of\s+union,\s+fastest,\s+exhaustive\./ms,
      );
    }
    const bad = await cli("reproduce", "oas", "--quick", "--set", "allocationCandidates=best");
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain(
      "--set allocationCandidates=best: expected one of union, fastest, exhaustive, got 'best'",
    );
    const badVary = await cli(
      "reproduce",
      "oas",
      "--quick",
      "--vary",
      "allocationCandidates=union,all",
    );
    expect(badVary.code).toBe(2);
    expect(badVary.stderr).toContain("expected one of union, fastest, exhaustive, got 'all'");
  });

  it("the heuristics run with the point's reading (WL-2, SJF: 1836 s with the union, 2032 s with the tau fastest only)", async () => {
    const sjf = oasPolicies().find((p) => p.label === "sjf")!;
    const makespan = async (c: AllocationCandidates) => {
      const params = paramsOf({ workload: "WL-2", allocationCandidates: c });
      const instance = oasReproduction.instance!(params, 1);
      const r = await oasReproduction.run!({ instance, params, seed: 1, scheduler: sjf });
      // the package's heuristic on the same batch (the oracle)
      const w = oasWorkload({ workload: "WL-2", jobs: 8, seed: 1 });
      const bsp = new Map(w.jobs.map((j, i) => [j.id, w.bsp[i]!]));
      const profile = (job: Job) => ({
        sigma: bsp.get(job.id)!.sigma,
        ptbw: bsp.get(job.id)!.perTaskBandwidth,
      });
      const trace = simulate(
        w.jobs,
        w.platform,
        oasHeuristic("SJF", { profile, allocationCandidates: c }),
        { executionModel: oasExecutionModel({ profile }) },
      );
      expect(r.metrics.makespan).toBe(computeMetrics(trace).makespan);
      return r.metrics.makespan;
    };
    expect(await makespan("union")).toBe(1836);
    expect(await makespan("fastest")).toBe(2032);
    expect(await makespan("exhaustive")).toBe(1836);
  });

  it("sched-sim run takes it as an option of oas-fcfs … oas-lpt", async () => {
    const dir = await tempDir();
    const gen = await cli(
      "gen",
      "oas",
      "--workload",
      "WL-2",
      "--out",
      `${dir}/wl2.jsonl`,
      "--platform",
      `${dir}/p.json`,
    );
    expect(gen.code, gen.stderr).toBe(0);
    const run = (value: string) =>
      cli(
        "run",
        "-w",
        `${dir}/wl2.jsonl`,
        "--platform",
        `${dir}/p.json`,
        "-s",
        "oas-sjf",
        "--opt",
        `allocationCandidates=${value}`,
      );
    const bad = await run("best");
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain(
      "run: option --opt allocationCandidates=best: expected one of union, fastest, exhaustive",
    );
    const ok = await run("fastest");
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.stdout).toContain("oas-sjf(allocationCandidates=fastest)");
  });
});
