/**
 * Composing a custom policy from the packages: "smallest first", a greedy policy that starts the
 * narrowest waiting jobs first wherever @sched/core's first-fit finds cores, compared with EASY
 * backfilling (@sched/backfill) on a Lublin-Feitelson workload (@sched/workload).
 *
 * Run it: `pnpm vitest run test/examples.test.ts` (the test runs `compare()` and checks every
 * schedule with core's `checkSchedule`), or import `smallestFirst` in your own code.
 */
import { easy } from "@sched/backfill";
import {
  checkSchedule,
  computeMetrics,
  firstFitAllocation,
  type Job,
  type Platform,
  type Scheduler,
  simulate,
} from "@sched/core";
import { WORKLOAD_MODELS } from "@sched/workload";

/**
 * Smallest first: at every scheduling point, the waiting jobs by cores (ties: queue order, i.e.
 * submit time then id), each started on first-fit cores if enough are free; a job wider than
 * the whole platform is rejected. Greedy and unfair to wide jobs, which is the point of
 * comparing it with EASY.
 */
export function smallestFirst(): Scheduler {
  return {
    name: "smallest-first",
    schedule(ctx) {
      const { view } = ctx;
      const queue = view.waiting
        .map((w, index) => ({ job: w.job, index }))
        .sort((a, b) => a.job.cores - b.job.cores || a.index - b.index);
      for (const { job } of queue) {
        if (job.cores > view.platform.totalCores) {
          ctx.reject(
            job.id,
            `needs ${job.cores} cores, the platform has ${view.platform.totalCores}`,
          );
          continue;
        }
        const allocation = firstFitAllocation(view, job.cores);
        if (allocation !== null) ctx.start(job.id, allocation);
      }
    },
  };
}

/** One row of {@link compare}. */
export interface ComparisonRow {
  readonly policy: string;
  readonly meanWait: number;
  readonly meanBoundedSlowdown: number;
  readonly utilization: number;
  /** Violations found by core's independent checker (0 for a valid schedule). */
  readonly violations: number;
}

/** Smallest first against EASY on `jobs` Lublin-Feitelson jobs on `procs` processors. */
export function compare(jobs = 500, procs = 64, seed = 1): ComparisonRow[] {
  const lublin = WORKLOAD_MODELS.find((m) => m.name === "lublin");
  if (lublin === undefined) throw new Error("@sched/workload has no lublin model");
  const workload = lublin.generate({ jobs, procs, seed });
  const instance: { jobs: readonly Job[]; platform: Platform } = workload;
  return [smallestFirst(), easy()].map((policy) => {
    const trace = simulate(instance.jobs, instance.platform, policy);
    const m = computeMetrics(trace);
    return {
      policy: policy.name,
      meanWait: m.meanWait,
      meanBoundedSlowdown: m.meanBoundedSlowdown,
      utilization: m.utilization,
      violations: checkSchedule(trace).length,
    };
  });
}
