import type { Job, SchedulerView, WaitingJob } from "@sched/core";
import type { MachinePlan } from "./machine-plan.js";

// Placement on one machine, shared by the single-machine strategies (`singleMachine: true`,
// `exclusive: true`). Internal.

/** The planned duration of `w` on machine `m`: its remaining estimate there. */
export function durationOn(view: SchedulerView, w: WaitingJob, m: number): number {
  const d = view.duration(w.job, [{ machine: m, cores: w.job.cores }], w.job.estimate);
  return w.progress > 0 ? d * (1 - w.progress) : d;
}

/**
 * True when machine `m` has the cores and license copies `job` needs free now (and, when
 * `exclusive`, runs no job).
 */
export function freeNow(view: SchedulerView, job: Job, m: number, exclusive: boolean): boolean {
  const free = view.freeCores(m);
  if (free < job.cores) return false;
  if (exclusive && free < view.platform.machines[m]!.cores) return false;
  const lic = job.licenses;
  if (lic === undefined) return true;
  for (const name in lic) {
    const copies = lic[name]!;
    if (copies > 0 && view.freeLicenses(name, m) < copies) return false;
  }
  return true;
}

/** True when machine `m` has a free core now (when `exclusive`: runs no job). */
export function mayTake(view: SchedulerView, m: number, exclusive: boolean): boolean {
  const free = view.freeCores(m);
  return exclusive ? free >= view.platform.machines[m]!.cores : free > 0;
}

/**
 * The earliest (machine, start) for `w` in `plan` from `from`: the machine where it can start
 * first, ties by machine order; `machine` -1 when no machine can ever host it.
 */
export function earliestPlace(
  plan: MachinePlan,
  view: SchedulerView,
  order: Int32Array,
  w: WaitingJob,
  from: number,
): { machine: number; start: number; end: number } {
  let best = Number.POSITIVE_INFINITY;
  let machine = -1;
  let end = best;
  for (let k = 0; k < order.length; k++) {
    const m = order[k]!;
    if (!plan.canHost(w.job, m)) continue;
    const d = durationOn(view, w, m);
    // Only a strictly earlier start on a later machine in the order replaces the best.
    const t = plan.earliestOn(w.job, m, d, from, best);
    if (t < best) {
      best = t;
      machine = m;
      end = t + d;
    }
  }
  return { machine, start: best, end };
}

/** The waiting jobs of `view` by id. O(Q). */
export function waitingById(view: SchedulerView): Map<number, WaitingJob> {
  const m = new Map<number, WaitingJob>();
  for (const w of view.waiting) m.set(w.job.id, w);
  return m;
}
