import { type Job, licensesFreeOn, type SchedulerView } from "@sched/core";

/** Why a job has no eligible machine, for `reject`. @internal */
export const NO_MACHINE =
  "no machine can run it alone (not enough cores on any one machine, or its licenses are not usable there)";

/** Whether machine `m` runs nothing now (our policies give a machine one job at a time). @internal */
export function isIdle(view: SchedulerView, m: number): boolean {
  return view.freeCores(m) === view.platform.machines[m]!.cores;
}

/** Whether `job` may start at `now` (its ready time has come). @internal */
export function isReady(job: Pick<Job, "ready">, now: number): boolean {
  return job.ready === undefined || job.ready <= now;
}

/**
 * Whether `job` can start alone on machine `m` right now: the machine has its cores, runs
 * nothing, the job is ready and its licenses are free there (`licensesFreeOn` of
 * `@sched/core`). @internal
 */
export function canStartNow(job: Job, m: number, view: SchedulerView): boolean {
  return (
    view.platform.machines[m]!.cores >= job.cores &&
    isIdle(view, m) &&
    isReady(job, view.now) &&
    licensesFreeOn(job, view, m)
  );
}
