// @ts-check
import { computeMetrics, simulate } from "@sched/core";
import { competitiveScheduler, eloInstance, minMinScheduler } from "@sched/elo";

/** A small instance of the paper's setting under the competitive scheduler and Min-Min. */
export async function compute() {
  const { jobs, platform, executionModel } = eloInstance({ machines: 6, jobs: 20, seed: 3 });
  const competitive = competitiveScheduler();
  const makespans = [competitive, minMinScheduler()].map((policy) => [
    policy.name,
    computeMetrics(simulate(jobs, platform, policy, { executionModel })).makespan,
  ]);
  return { makespans, tiers: competitive.snapshot().tiers };
}
