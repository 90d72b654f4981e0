import type { Job, Platform, SchedulerView } from "@sched/core";

/**
 * Whether `job` could ever run alone on machine `m`: enough cores, and every license it asks for
 * usable on `m` with enough copies. @internal
 */
export function canRunOn(job: Job, m: number, platform: Platform): boolean {
  if (platform.machines[m]!.cores < job.cores) return false;
  const requests = job.licenses;
  if (requests === undefined) return true;
  for (const name of Object.keys(requests)) {
    const license = platform.licenses.find((l) => l.name === name);
    if (license === undefined || license.copies < requests[name]!) return false;
    if (license.machines !== undefined && !license.machines.includes(m)) return false;
    if (license.kind === "node-locked" && license.machines === undefined) return false;
  }
  return true;
}

/** The machines `job` could ever run on, by index. @internal */
export function eligibleMachines(job: Job, platform: Platform): number[] {
  const out: number[] = [];
  for (let m = 0; m < platform.machines.length; m++) if (canRunOn(job, m, platform)) out.push(m);
  return out;
}

/** Why a job has no eligible machine, for `reject`. @internal */
export const NO_MACHINE =
  "no machine can run it alone (not enough cores on any one machine, or its licenses are not usable there)";

/** Whether machine `m` runs nothing now (our policies give a machine one job at a time). @internal */
export function isIdle(view: SchedulerView, m: number): boolean {
  return view.freeCores(m) === view.platform.machines[m]!.cores;
}

/** Whether every license `job` asks for has enough free copies for it on machine `m`. @internal */
export function licensesFree(job: Job, m: number, view: SchedulerView): boolean {
  const requests = job.licenses;
  if (requests === undefined) return true;
  for (const name of Object.keys(requests)) {
    if (view.freeLicenses(name, m) < requests[name]!) return false;
  }
  return true;
}

/** Whether `job` may start at `now` (its ready time has come). @internal */
export function isReady(job: Job, now: number): boolean {
  return job.ready === undefined || job.ready <= now;
}

/** Whether `job` can start on machine `m` right now (it fits, the machine is idle, …). @internal */
export function canStartNow(job: Job, m: number, view: SchedulerView): boolean {
  return (
    view.platform.machines[m]!.cores >= job.cores &&
    isIdle(view, m) &&
    isReady(job, view.now) &&
    licensesFree(job, m, view)
  );
}
