import { computeMetrics, simulate } from "@sched/core";
import { competitiveScheduler, minMinScheduler, randomScheduler } from "@sched/elo";
import { describe, expect, it } from "vitest";
import { ELO_SCHEDULERS } from "../src/experiments/elo.js";
import { eloInstance } from "../src/experiments/elo-instance.js";
import type { Experiment } from "../src/experiments/experiment.js";
import { EXPERIMENTS } from "../src/experiments/registry.js";
import { planFromExperiment } from "../src/sweep/drive.js";
import { inlineExecutor } from "../src/sweep/pool.js";
import { runSweep } from "../src/sweep/sweep.js";
import { cli, fixture } from "./helpers.js";

describe("@sched/elo in the CLI", () => {
  it("reproduce elo --quick compares the paper's five policies, with paired ratios to Min-Min and random", async () => {
    const r = await cli("reproduce", "elo", "--quick", "--seeds", "3", "--json");
    expect(r.code, r.stderr).toBe(0);
    const summary = JSON.parse(r.stdout).results as {
      scheduler: string;
      params: { jobs: number };
      metric: string;
      mean: number;
      ci95: number;
    }[];
    const at = (scheduler: string, metric: string) =>
      summary.find((x) => x.scheduler === scheduler && x.metric === metric && x.params.jobs === 60);
    for (const name of ELO_SCHEDULERS) {
      for (const metric of ["totalExecution", "ratioToMinMin", "ratioToRandom", "makespan"]) {
        expect(at(name, metric), `${name} ${metric}`).toBeDefined();
      }
    }
    // a baseline's ratio to itself is exactly 1 on every seed
    expect(at("min-min", "ratioToMinMin")).toMatchObject({ mean: 1, ci95: 0 });
    expect(at("random", "ratioToRandom")).toMatchObject({ mean: 1, ci95: 0 });
  });

  it("ratioToMinMin and ratioToRandom are this run's total execution over the baselines' on the same instance, random seeded with the run's seed", async () => {
    const experiment = EXPERIMENTS.find((e) => e.name === "elo") as Experiment;
    const plan = planFromExperiment(experiment, { quick: true, seeds: 2 });
    const { records } = await runSweep(plan, () => inlineExecutor(plan));
    const total = (trace: ReturnType<typeof simulate>) =>
      trace.records.reduce((s, x) => s + (x.end as number) - x.intervals[0]!.start, 0);
    for (const seed of [1, 2]) {
      const { jobs, platform, executionModel } = eloInstance({ machines: 30, jobs: 10, seed });
      const sim = (p: Parameters<typeof simulate>[2]) =>
        simulate(jobs, platform, p, { executionModel });
      const own = total(sim(competitiveScheduler({ maxSpeed: 9 })));
      const minMin = total(sim(minMinScheduler()));
      const random = total(sim(randomScheduler({ seed })));
      const run = records.find(
        (x) => x.scheduler === "competitive" && x.params.jobs === 10 && x.seed === seed,
      );
      expect(run?.metrics.totalExecution).toBeCloseTo(own, 6);
      expect(run?.metrics.ratioToMinMin).toBeCloseTo(own / minMin, 5);
      expect(run?.metrics.ratioToRandom).toBeCloseTo(own / random, 5);
    }
  });

  it("reproduce elo-stream --quick writes windowed ratios and the competitive ratings per window", async () => {
    const r = await cli(
      "reproduce",
      "elo-stream",
      "--quick",
      "--seeds",
      "1",
      "--set",
      "jobs=200",
      "--json",
    );
    expect(r.code, r.stderr).toBe(0);
    const summary = JSON.parse(r.stdout).results as {
      scheduler: string;
      params: { window: number };
      metric: string;
      mean: number;
    }[];
    const windows = new Set(summary.map((x) => x.params.window));
    expect([...windows].sort()).toEqual([1, 2, 3, 4]);
    const corr = summary.filter((x) => x.metric === "rankCorrelation");
    expect(
      corr.filter((x) => x.scheduler === "competitive").every((x) => Number.isFinite(x.mean)),
    ).toBe(true);
    expect(
      corr
        .filter((x) => x.scheduler === "min-min")
        .every((x) => Number.isNaN(x.mean) || x.mean === null),
    ).toBe(true);
    const ratio = summary.filter((x) => x.metric === "ratioToMinMin" && x.scheduler === "min-min");
    expect(ratio.map((x) => x.mean)).toEqual([1, 1, 1, 1]);
  });

  it("each run simulates with the instance's hidden execution model", async () => {
    const experiment = EXPERIMENTS.find((e) => e.name === "elo") as Experiment;
    const plan = planFromExperiment(experiment, { quick: true, seeds: 1 });
    const { records } = await runSweep(plan, () => inlineExecutor(plan));
    const { jobs, platform, executionModel } = eloInstance({ machines: 30, jobs: 10, seed: 1 });
    const hidden = computeMetrics(
      simulate(jobs, platform, competitiveScheduler({ maxSpeed: 9 }), { executionModel }),
    );
    const open = computeMetrics(simulate(jobs, platform, competitiveScheduler({ maxSpeed: 9 })));
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
