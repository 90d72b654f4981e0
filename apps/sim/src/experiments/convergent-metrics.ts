import { licenseOffer } from "@sched/convergent";
import type { ScheduleTrace } from "@sched/core";

/** The metrics of the paper's Figures 3 to 6. */
export interface PaperMetrics {
  /** Jobs in the trace. */
  readonly jobs: number;
  /** Jobs with a deadline. */
  readonly deadlineJobs: number;
  /** Deadline jobs that did not complete by their deadline (late, rejected or unfinished). */
  readonly late: number;
  /** `100 * late / deadlineJobs` (0 without deadline jobs). */
  readonly latePct: number;
  /** Mean `(Tw + Te) / Te` over completed jobs without a deadline (`Te` executed time, `Tw` the rest of the response time); 1 when there is none. */
  readonly slowdownNoDeadline: number;
  /** Time average of `active machines / min(machines, jobs in the system)` while the system holds a job, percent. */
  readonly machineUsage: number;
  /** Time average of `copies in use / min(offer, copies asked by the jobs in the system)` (summed over licenses) while some are asked for, percent; 0 when none ever are. */
  readonly licenseUsage: number;
  /** Time average of the system workload (jobs waiting + running) between the first submit and the last end. */
  readonly meanWorkload: number;
}

/** A point of the workload step function: from `time` on, `jobs` are in the system. */
export interface WorkloadPoint {
  readonly time: number;
  readonly jobs: number;
}

interface Ev {
  readonly t: number;
  readonly kind: 0 | 1 | 2 | 3; // 0 job leaves, 1 interval ends, 2 job arrives, 3 interval starts
  readonly machine: number;
  readonly job: number; // record index
  readonly lic: boolean; // this event carries the interval's licenses (its first part)
}

/**
 * The system workload over time (the paper's Figure 3): jobs waiting plus running, as a step
 * function, one point per change. A job is in the system from its submit to its end; rejected
 * and unfinished jobs are left out.
 *
 * Complexity: O(J log J).
 *
 * @example
 * ```ts
 * workloadSeries(trace); // [{ time: 0, jobs: 1 }, { time: 10, jobs: 2 }, { time: 100, jobs: 1 }, …]
 * ```
 */
export function workloadSeries(trace: ScheduleTrace): WorkloadPoint[] {
  const deltas: [number, number][] = [];
  for (const r of trace.records) {
    if (r.outcome !== "completed" || r.end === null) continue;
    deltas.push([r.job.submit, 1], [r.end, -1]);
  }
  deltas.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const out: WorkloadPoint[] = [];
  let n = 0;
  for (let k = 0; k < deltas.length; ) {
    const t = deltas[k]![0];
    while (k < deltas.length && deltas[k]![0] === t) n += deltas[k++]![1];
    out.push({ time: t, jobs: n });
  }
  return out;
}

/**
 * The paper's quality metrics of a trace: % of deadline jobs late (Figure 4), slowdown of jobs
 * without a deadline (Figure 5), machine usage (Figure 6, the paper's definition), license
 * usage, and the mean system workload (Figure 3).
 *
 * Machines are "active" when at least one job runs on them. A job is in the system from its
 * submit to its end (completed jobs only). Late: a deadline job that completed after its
 * deadline, or never completed (rejected, unfinished).
 *
 * Complexity: O(J log J + intervals x licenses).
 *
 * @example
 * ```ts
 * paperMetrics(simulate(jobs, platform, convergentVariant("CS_ip"))).latePct; // 3.2
 * ```
 */
export function paperMetrics(trace: ScheduleTrace): PaperMetrics {
  const records = trace.records;
  let deadlineJobs = 0;
  let late = 0;
  let sdSum = 0;
  let sdCount = 0;
  for (const r of records) {
    const d = r.job.deadline;
    if (d !== undefined) {
      deadlineJobs++;
      if (r.outcome !== "completed" || r.end === null || r.end > d * (1 + 1e-12) + 1e-9) late++;
    } else if (r.outcome === "completed" && r.end !== null) {
      let te = 0;
      for (const iv of r.intervals) te += iv.end - iv.start;
      if (te > 0) {
        sdSum += (r.end - r.job.submit) / te;
        sdCount++;
      }
    }
  }
  // Sweep for machine usage, license usage and workload.
  const platform = trace.platform;
  const nMachines = platform.machines.length;
  const offer = licenseOffer(platform);
  const names = platform.licenses.map((l) => l.name);
  const lIndex = new Map<string, number>();
  names.forEach((n, i) => {
    lIndex.set(n, i);
  });
  const evs: Ev[] = [];
  records.forEach((r, j) => {
    if (r.outcome !== "completed" || r.end === null) return;
    evs.push({ t: r.job.submit, kind: 2, machine: -1, job: j, lic: false });
    evs.push({ t: r.end, kind: 0, machine: -1, job: j, lic: false });
    for (const iv of r.intervals) {
      iv.allocation.forEach((part, k) => {
        evs.push({ t: iv.start, kind: 3, machine: part.machine, job: j, lic: k === 0 });
        evs.push({ t: iv.end, kind: 1, machine: part.machine, job: j, lic: k === 0 });
      });
    }
  });
  evs.sort((a, b) => a.t - b.t || a.kind - b.kind || a.job - b.job || a.machine - b.machine);
  const busy = new Int32Array(nMachines);
  let active = 0;
  let inSystem = 0;
  const used = new Float64Array(names.length);
  const asked = new Float64Array(names.length);
  let machineArea = 0;
  let machineTime = 0;
  let licenseArea = 0;
  let licenseTime = 0;
  let workloadArea = 0;
  let start = Number.NaN;
  let last = Number.NaN;
  for (let k = 0; k < evs.length; ) {
    const t = evs[k]!.t;
    if (!Number.isNaN(last) && t > last) {
      const dt = t - last;
      workloadArea += inSystem * dt;
      if (inSystem > 0) {
        machineArea += (active / Math.min(nMachines, inSystem)) * dt;
        machineTime += dt;
      }
      let u = 0;
      let a = 0;
      for (let l = 0; l < names.length; l++) {
        u += used[l]!;
        a += Math.min(offer[names[l]!]!, asked[l]!);
      }
      if (a > 0) {
        licenseArea += (Math.min(u, a) / a) * dt;
        licenseTime += dt;
      }
    }
    while (k < evs.length && evs[k]!.t === t) {
      const e = evs[k++]!;
      const req = records[e.job]!.job.licenses;
      const sign = e.kind === 0 || e.kind === 1 ? -1 : 1;
      if (e.kind === 0 || e.kind === 2) {
        inSystem += sign;
        if (req !== undefined)
          for (const n of Object.keys(req)) {
            const l = lIndex.get(n);
            if (l !== undefined) asked[l]! += sign * (req[n] as number);
          }
      } else {
        if (sign > 0) {
          if (busy[e.machine]!++ === 0) active++;
        } else if (--busy[e.machine]! === 0) active--;
        if (req !== undefined && e.lic) {
          for (const n of Object.keys(req)) {
            const l = lIndex.get(n);
            if (l !== undefined) used[l]! += sign * (req[n] as number);
          }
        }
      }
    }
    if (Number.isNaN(start)) start = t;
    last = t;
  }
  const span = Number.isNaN(start) ? 0 : last - start;
  return {
    jobs: records.length,
    deadlineJobs,
    late,
    latePct: deadlineJobs === 0 ? 0 : (100 * late) / deadlineJobs,
    slowdownNoDeadline: sdCount === 0 ? 1 : sdSum / sdCount,
    machineUsage: machineTime === 0 ? 0 : (100 * machineArea) / machineTime,
    licenseUsage: licenseTime === 0 ? 0 : (100 * licenseArea) / licenseTime,
    meanWorkload: span === 0 ? 0 : workloadArea / span,
  };
}
