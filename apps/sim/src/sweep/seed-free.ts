import { chooseScheduler, takesRunSeed } from "../schedulers.js";
import type { RunRecord } from "./execute.js";
import { planTasks, type RunTask, type SweepPlan, type WorkloadSpec } from "./plan.js";

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

/** How the pending runs of a sweep are made, seed-free runs once per class. */
export interface SeedFreeSplit {
  /** The runs to make, in the order given. */
  readonly dispatched: readonly RunTask[];
  /** Runs whose record is copied at once: another seed's run of their class is finished. */
  readonly toCopy: readonly (readonly [RunTask, RunRecord])[];
  /** The runs that take the record (or the failure) of a run to make, by its key. */
  readonly followers: ReadonlyMap<string, readonly RunTask[]>;
}

/**
 * Split `pending` (a sweep's runs without a result, in plan order): a run whose seed reaches it
 * is made; of each class of seed-free runs ({@link seedFreeClasses}), the first pending one is
 * made and the others follow it, unless a run of the class is among `finished` (records by key,
 * of this sweep), which all of them then copy.
 */
export function splitSeedFree(
  plan: SweepPlan,
  pending: readonly RunTask[],
  finished: ReadonlyMap<string, RunRecord>,
): SeedFreeSplit {
  const classOf = seedFreeClasses(plan);
  const finishedOf = new Map<string, RunRecord>();
  if (finished.size > 0) {
    for (const t of planTasks(plan)) {
      const c = classOf(t);
      const r = c === undefined ? undefined : finished.get(t.key);
      if (c !== undefined && r !== undefined && !finishedOf.has(c)) finishedOf.set(c, r);
    }
  }
  const toCopy: [RunTask, RunRecord][] = [];
  const followers = new Map<string, RunTask[]>();
  const leaders = new Map<string, RunTask>();
  const dispatched: RunTask[] = [];
  for (const t of pending) {
    const c = classOf(t);
    const from = c === undefined ? undefined : finishedOf.get(c);
    const leader = c === undefined ? undefined : leaders.get(c);
    if (c === undefined) dispatched.push(t);
    else if (from !== undefined) toCopy.push([t, from]);
    else if (leader !== undefined) (followers.get(leader.key) as RunTask[]).push(t);
    else {
      leaders.set(c, t);
      followers.set(t.key, []);
      dispatched.push(t);
    }
  }
  return { dispatched, toCopy, followers };
}
