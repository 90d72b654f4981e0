import { computeMetrics, simulate } from "@sched/core";
import { competitiveScheduler, eloInstance } from "@sched/elo";
import { describe, expect, it } from "vitest";
import { ELO_SCHEDULERS } from "../src/experiments/elo.js";
import type { Experiment } from "../src/experiments/experiment.js";
import { EXPERIMENTS } from "../src/experiments/registry.js";
import { planFromExperiment } from "../src/sweep/drive.js";
import { inlineExecutor } from "../src/sweep/pool.js";
import { runSweep } from "../src/sweep/sweep.js";
import { cli, fixture } from "./helpers.js";

describe("@sched/elo in the CLI", () => {
  it("reproduce elo --quick compares the paper's five policies; competitive beats random on makespan", async () => {
    const r = await cli("reproduce", "elo", "--quick", "--seeds", "3");
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/scheduler\s+jobs\s+makespan \(s\)\s+mean response \(s\)\s+runs/);
    for (const name of ELO_SCHEDULERS)
      expect(r.stdout).toMatch(new RegExp(`^${name}\\s+60\\s`, "m"));
    const response = (name: string): number => {
      const line = r.stdout.split("\n").find((l) => new RegExp(`^${name}\\s+60\\s`).test(l));
      return Number((line as string).trim().split(/\s+/)[5]);
    };
    // Rating machines by observed performance beats random placement on mean response.
    expect(response("competitive")).toBeLessThan(response("random"));
  });

  it("each run simulates with the instance's hidden execution model", async () => {
    const experiment = EXPERIMENTS.find((e) => e.name === "elo") as Experiment;
    const plan = planFromExperiment(experiment, { quick: true, seeds: 1 });
    const { records } = await runSweep(plan, () => inlineExecutor(plan));
    const { jobs, platform, executionModel } = eloInstance({ machines: 30, jobs: 10, seed: 1 });
    const hidden = computeMetrics(
      simulate(jobs, platform, competitiveScheduler(), { executionModel }),
    );
    const open = computeMetrics(simulate(jobs, platform, competitiveScheduler()));
    const run = records.find(
      (x) => x.scheduler === "competitive" && x.params.jobs === 10 && x.seed === 1,
    );
    expect(run?.metrics.makespan).toBeCloseTo(hidden.makespan, 6);
    expect(hidden.makespan).not.toBe(open.makespan);
  });

  it("run accepts the elo policies and checks their options", async () => {
    const ok = await cli(
      "run",
      "-w",
      fixture("small.swf"),
      "--clean",
      "-s",
      "competitive",
      "--opt",
      "tiers=3",
    );
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.stdout).toContain("competitive(tiers=3)");
    const bad = await cli("run", "-w", fixture("small.swf"), "-s", "random", "--opt", "seed=x");
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("option --opt seed=x: expected an integer");
  });
});
