import { chooseScheduler, takesRunSeed } from "../schedulers.js";
import type { RunRecord } from "./execute.js";
import type { RunTask, SweepPlan, WorkloadSpec } from "./plan.js";

/**
 * Workload types whose instance is the same for every seed: a trace read from its file. (A
 * generated workload, a model's or elo's, is drawn from the run's seed; so is every registry
 * experiment's instance.)
 */
const SEED_FREE_WORKLOADS: ReadonlySet<WorkloadSpec["type"]> = new Set(["swf", "native"]);

/**
 * The runs of `plan` whose result cannot depend on their seed, grouped: the class of a task (runs
 * of one class differ only in their key and seed), or undefined when its seed reaches the run. A
 * run is seed-free when its workload is a trace ({@link SEED_FREE_WORKLOADS}) and its scheduler
 * takes no seed from the run (no dice, or their seed set in its options: see
 * {@link takesRunSeed}); every run is deterministic, so such runs of one grid point and scheduler
 * give the same record whatever their seed. A plan of one seed has no class to share.
 */
export function seedFreeClasses(plan: SweepPlan): (task: RunTask) => string | undefined {
  const source = plan.source;
  if (
    plan.seeds.length < 2 ||
    source.kind !== "file" ||
    !SEED_FREE_WORKLOADS.has(source.workload.type)
  ) {
    return () => undefined;
  }
  const free = plan.schedulers.map((s) => !takesRunSeed(chooseScheduler(s.name, s.opts, "sweep")));
  return (task) =>
    free[task.scheduler] === true ? JSON.stringify([task.scheduler, task.params]) : undefined;
}

/** The labels of `plan`'s schedulers whose runs are seed-free (see {@link seedFreeClasses}). */
export function seedFreeLabels(plan: SweepPlan): string[] {
  const classOf = seedFreeClasses(plan);
  return plan.schedulers
    .filter((_, scheduler) => classOf({ key: "", params: {}, seed: 0, scheduler }) !== undefined)
    .map((s) => s.label);
}

/** `record` (a seed-free run's) as the record of `task`, a run of the same class. */
export function copyRecord(record: RunRecord, task: RunTask): RunRecord {
  return { ...record, key: task.key, seed: task.seed };
}
