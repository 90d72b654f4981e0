import { computeMetrics, createJob, simulate } from "@sched/core";
import { expect, it } from "vitest";
import {
  checkOasSchedule,
  oasExecutionModel,
  oasHeuristic,
  oasPlanScheduler,
  oasPlatform,
  solveOas,
} from "../src/index.js";

it("the README example gives the figures it shows", async () => {
  const platform = oasPlatform();
  const jobs = [
    createJob({ id: 1, submit: 0, runtime: 100, cores: 4 }),
    createJob({ id: 2, submit: 0, runtime: 30, cores: 1 }),
    createJob({ id: 3, submit: 0, runtime: 60, cores: 2 }),
    createJob({ id: 4, submit: 0, runtime: 90, cores: 3 }),
  ];
  const profile = () => ({ sigma: 0.5, ptbw: 50e6 });
  const r = await solveOas(jobs, platform, { eta: 40, theta: 9, profile, timeLimit: 30 });
  const check = checkOasSchedule(jobs, platform, r.schedule, { eta: 40, profile });
  const executionModel = oasExecutionModel({ profile });
  const replay = computeMetrics(
    simulate(jobs, platform, oasPlanScheduler(r.schedule, r.eta), { executionModel }),
  ).makespan;
  const compact = computeMetrics(
    simulate(jobs, platform, oasPlanScheduler(r.schedule, r.eta, { compact: true, profile }), {
      executionModel,
    }),
  ).makespan;
  const fcfs = computeMetrics(
    simulate(jobs, platform, oasHeuristic("FCFS", { profile }), { executionModel }),
  ).makespan;
  expect([r.status, r.makespan, check]).toEqual(["optimal", 240, []]);
  expect(replay).toBeCloseTo(225, 9);
  expect(compact).toBeCloseTo(221.6666666666667, 9);
  expect(fcfs).toBeCloseTo(221.6666666666667, 9);
});
