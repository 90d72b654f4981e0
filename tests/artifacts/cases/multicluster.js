// @ts-check
import { createJob } from "@sched/core";
import { checkOasSchedule, oasPlatform, solveOas } from "@sched/multicluster";

export { loadSolver } from "@sched/multicluster";

/**
 * A tiny OAS MIP solved by HiGHS (WebAssembly): two jobs on the paper's 3 x 2 platform, the
 * 3-core one co-allocated across clusters. Status, makespan, schedule and its independent check.
 */
export async function compute() {
  const platform = oasPlatform();
  const jobs = [
    createJob({ id: 1, submit: 0, runtime: 80, cores: 3 }),
    createJob({ id: 2, submit: 0, runtime: 40, cores: 2 }),
  ];
  const profile = () => ({ sigma: 0.5, ptbw: 50e6 });
  const r = await solveOas(jobs, platform, { eta: 40, theta: 3, profile, timeLimit: 30 });
  return {
    status: r.status,
    makespan: r.makespan,
    bound: r.bound,
    schedule: r.schedule,
    violations: checkOasSchedule(jobs, platform, r.schedule, { eta: 40, profile }),
  };
}
