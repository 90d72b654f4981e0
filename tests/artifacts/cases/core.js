// @ts-check
import {
  checkSchedule,
  computeMetrics,
  createJob,
  firstFitAllocation,
  identicalPool,
  simulate,
} from "@sched/core";

/** The README's first-fit run: starts, ends, violations and metrics. */
export async function compute() {
  /** @type {import("@sched/core").Scheduler} */
  const firstFit = {
    name: "first-fit",
    schedule(ctx) {
      for (const w of ctx.view.waiting) {
        const allocation = firstFitAllocation(ctx.view, w.job.cores);
        if (allocation) ctx.start(w.job.id, allocation);
      }
    },
  };
  const jobs = [
    createJob({ id: 1, submit: 0, runtime: 100, cores: 2 }),
    createJob({ id: 2, submit: 10, runtime: 50, cores: 4 }),
    createJob({ id: 3, submit: 20, runtime: 30, cores: 1 }),
  ];
  const trace = simulate(jobs, identicalPool(4), firstFit);
  // every metric but the scheduler's wall-clock time per decision
  const { schedulerMsPerDecision, ...metrics } = computeMetrics(trace);
  return {
    runs: trace.records.map((r) => [r.job.id, r.intervals[0]?.start, r.end]),
    violations: checkSchedule(trace),
    metrics,
  };
}
