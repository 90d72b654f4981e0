import type { Scheduler, SchedulingContext } from "@sched/core";
import { requireKnownKeys } from "@sched/errors";
import type { MatrixJob } from "./heuristic.js";
import { CONVERGENT_KEYS, type ConvergentOptions, resolveOptions } from "./options.js";
import { type PlannerActions, PlannerCore } from "./planner.js";

const WHERE = "@sched/convergent/convergent";

/** What a convergent scheduler has done so far (counts only: deterministic). */
export interface ConvergentStats {
  /** Scheduling plans computed. */
  readonly plans: number;
  /** Largest number of jobs (rows) in a plan. */
  readonly maxRows: number;
  /** Jobs cleared by the pre-matching, summed over plans. */
  readonly cleared: number;
  /** Preemptions (a migration counts one) issued. */
  readonly preemptions: number;
  /**
   * Rows of `P` recomputed and handed to the matching as changed, summed over plans
   * (incremental variants; 0 otherwise).
   */
  readonly refreshedRows: number;
}

/** A convergent scheduler: a core {@link Scheduler} with its counters. */
export interface ConvergentScheduler extends Scheduler {
  /** Counters since the last `reset`. */
  readonly stats: ConvergentStats;
}

/**
 * The Convergent Scheduler (Capannini et al., SC'07): at every scheduling event (submission,
 * completion, ready time) it builds the Job-Machine matrix over all jobs in the system (queued
 * and running) with the heuristics, clears the jobs that lose the license knapsack, matches
 * jobs to machines (one job per machine, one machine per job) and realises the plan: running
 * jobs the plan moves or drops are preempted (with preemption; progress is kept), and planned
 * jobs start on their machine when it is free and their licenses are available.
 *
 * Jobs run on ONE machine each (allocation `[{ machine, cores: job.cores }]`) and a machine
 * runs one job at a time, as in the paper. A job that no machine can ever run (more cores than
 * any machine, a license the platform cannot give it) is rejected on arrival.
 *
 * A thin adapter: each call hands the view's state to the same planner `convergentPass` runs
 * (so a live loop calling the pass with its memory decides exactly as this scheduler does).
 *
 * Complexity per plan: O(|N| x |M|) per heuristic plus pre-matching plus the matcher.
 *
 * @throws InvalidInputError on invalid options (at construction).
 * @example
 * ```ts
 * const trace = simulate(jobs, platform, convergent({ matcher: "imfs", preemption: true }));
 * ```
 */
export function convergent(options: ConvergentOptions = {}): ConvergentScheduler {
  requireKnownKeys(WHERE, "options", options, CONVERGENT_KEYS);
  const core = new PlannerCore(resolveOptions(WHERE, options));
  return {
    name: core.options.name,
    get stats(): ConvergentStats {
      return core.stats;
    },
    reset(): void {
      core.reset();
    },
    schedule(ctx: SchedulingContext): void {
      stepOn(core, ctx);
    },
  };
}

/**
 * One planner step on a scheduling call: the view's running jobs (each on its one machine),
 * waiting jobs and completions in, the plan's actions out through `ctx`. Returns what
 * `core.step` returns. Internal (also the tests' way to see each plan).
 */
export function stepOn(core: PlannerCore, ctx: SchedulingContext): ReturnType<PlannerCore["step"]> {
  const { view } = ctx;
  const running: MatrixJob[] = [];
  for (const r of view.running) {
    running.push({ job: r.job, progress: r.progress, machine: r.allocation[0]!.machine });
  }
  const completed = ctx.completed.map((j) => j.id);
  const act: PlannerActions = {
    freeCores: (m) => view.freeCores(m),
    freeLicenses: (name, m) => view.freeLicenses(name, m),
    reject: (id, reason) => ctx.reject(id, reason),
    preempt: (id) => ctx.preempt(id),
    start: (id, machine, cores) => ctx.start(id, [{ machine, cores }]),
  };
  return core.step(view.now, view.platform, running, view.waiting, completed, act);
}
