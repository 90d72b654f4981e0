// @ts-check
import { computeMetrics, simulate } from "@sched/core";
import { competitiveScheduler, minMinScheduler } from "@sched/elo";
import { eloWorkload, hiddenSpeedModel } from "@sched/workload";

/** A small instance of the paper's setting under the competitive scheduler and Min-Min. */
export async function compute() {
  const { jobs, platform } = eloWorkload({ machines: 6, jobs: 20, seed: 3 });
  const executionModel = hiddenSpeedModel({
    speeds: platform.machines.map((m) => m.speed),
    fluctuation: 0.1,
    seed: 3,
  });
  const competitive = competitiveScheduler({ maxSpeed: 9 });
  const makespans = [competitive, minMinScheduler()].map((policy) => [
    policy.name,
    computeMetrics(simulate(jobs, platform, policy, { executionModel })).makespan,
  ]);
  return { makespans, tiers: competitive.snapshot().tiers };
}
