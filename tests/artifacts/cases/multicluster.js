// @ts-check
import { createJob } from "@sched/core";
import { checkOasSchedule, multiClusterPlatform, solveOas } from "@sched/multicluster";

export { loadSolver } from "@sched/multicluster";

/**
 * A tiny OAS MIP solved by HiGHS (WebAssembly): two jobs on the paper's 3 x 2 platform, the
 * 3-core one co-allocated across clusters. Status, makespan, schedule and its independent check.
 */
export async function compute() {
  // the OAS paper's platform: 3 clusters x 2 nodes, Gamma 1 / 0.75 / 0.5, Gigabit links
  const platform = multiClusterPlatform([
    { nodes: 2, speed: 1 },
    { nodes: 2, speed: 0.75 },
    { nodes: 2, speed: 0.5 },
  ]);
  const jobs = [
    createJob({ id: 1, submit: 0, runtime: 80, cores: 3 }),
    createJob({ id: 2, submit: 0, runtime: 40, cores: 2 }),
  ];
  const profile = () => ({ sigma: 0.5, ptbw: 50e6 });
  const r = await solveOas(jobs, platform, { eta: 40, theta: 3, profile });
  return {
    status: r.status,
    makespan: r.makespan,
    bound: r.bound,
    schedule: r.schedule,
    violations: checkOasSchedule(jobs, platform, r.schedule, { eta: 40, profile }),
  };
}
