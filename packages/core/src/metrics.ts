import { InvalidInputError } from "@sched/errors";
import type { JobRecord, RunStats, ScheduleTrace } from "./trace.js";
import type { Allocation, Platform } from "./types.js";

/**
 * Metrics of a schedule. Rates are fractions in [0, 1] (multiply by 100 for %). A value that
 * is undefined for the input (a mean over no job, a license usage without licenses) is `NaN`.
 * Per-job means (wait, response, slowdowns) are over COMPLETED jobs.
 */
export interface Metrics {
  /** Records in the trace. */
  readonly jobs: number;
  readonly completed: number;
  readonly rejected: number;
  readonly unfinished: number;
  /** Mean of first start - submit, seconds. */
  readonly meanWait: number;
  /** Max of first start - submit, seconds. */
  readonly maxWait: number;
  /** Mean of end - submit, seconds. */
  readonly meanResponse: number;
  /** Mean of (end - submit) / (time actually run, the sum of its intervals). */
  readonly meanSlowdown: number;
  /** Mean of max(1, (end - submit) / max(time actually run, tau)); tau = 10 s by default. */
  readonly meanBoundedSlowdown: number;
  /** Used core-seconds / (totalCores * makespan); 0 when the makespan is 0. */
  readonly utilization: number;
  /** Last end (of a record or an interval) - first submit, seconds; 0 with no job. */
  readonly makespan: number;
  /**
   * The convergent paper's machine usage: the time average, over the instants of the makespan
   * window where at least one job is in the system, of
   * `active machines / min(machines, jobs in the system)`, capped at 1. NaN without machines
   * (`metricsOf` given only a core count) or when no job is ever in the system.
   */
  readonly machineUsage: number;
  /** License copy-seconds used / copy-seconds available over the makespan, all licenses. */
  readonly licenseUsage: number;
  /** The same per license name. */
  readonly licenseUsageByName: Readonly<Record<string, number>>;
  /** Jobs with a deadline that completed after it or did not complete / jobs with a deadline. */
  readonly deadlineMissRate: number;
  /** Jobs not rejected / jobs. */
  readonly acceptanceRate: number;
  /** Wall-clock ms in the policy per `schedule` call: NOT deterministic, reported apart. */
  readonly schedulerMsPerDecision: number;
}

/** Options of {@link computeMetrics} and {@link metricsOf}. */
export interface MetricsOptions {
  /** Bounded slowdown threshold, seconds (> 0). @defaultValue `10` */
  readonly tau?: number;
}

/** Options of {@link metricsOf}: the run statistics and horizon, when known. */
export interface MetricsOfOptions extends MetricsOptions {
  /** Run statistics, for `schedulerMsPerDecision`. @defaultValue none (the metric is NaN) */
  readonly stats?: RunStats;
  /**
   * When the run was cut: unfinished jobs stay in the system (and running intervals end) here.
   * @defaultValue the last end seen
   */
  readonly horizon?: number;
}

const WHERE = "@sched/core/metricsOf";

/**
 * Metrics of a trace; see {@link Metrics} for each definition. Pure: depends only on the trace
 * (and `schedulerMsPerDecision` on its wall-clock stats).
 *
 * Complexity: O(R + I log I) for R records and I interval parts.
 *
 * @throws InvalidInputError when `options.tau` is not a finite number > 0.
 *
 * @example
 * ```ts
 * // one 1-core job, submit 0, runs 10..30 on a 2-machine pool
 * computeMetrics(trace); // { meanWait: 10, meanResponse: 30, meanSlowdown: 1.5, utilization: 20 / 60, makespan: 30, … }
 * ```
 */
export function computeMetrics(trace: ScheduleTrace, options: MetricsOptions = {}): Metrics {
  const o: { tau?: number; stats: RunStats; horizon?: number } = { stats: trace.stats };
  if (options.tau !== undefined) o.tau = options.tau;
  if (trace.horizon !== undefined) o.horizon = trace.horizon;
  return metricsOf(trace.records, trace.platform, o);
}

/**
 * Metrics of plain job records (for instance a trace read back from SWF, where allocations may
 * be empty): `capacity` is the platform, or just its total core count (then `machineUsage` and
 * license usage are NaN). Core-seconds use the cores of each interval's allocation (`job.cores`
 * when the allocation is empty; the two differ only for a moldable job given more than
 * `job.cores`).
 *
 * Complexity: O(R + I log I).
 *
 * @throws InvalidInputError when `capacity` or `options.tau` is invalid.
 *
 * @example
 * ```ts
 * metricsOf(records, { totalCores: 100 }).meanWait;
 * ```
 */
export function metricsOf(
  records: Iterable<JobRecord>,
  capacity: Platform | { readonly totalCores: number },
  options: MetricsOfOptions = {},
): Metrics {
  const tau = options.tau ?? 10;
  if (typeof tau !== "number" || !Number.isFinite(tau) || tau <= 0) {
    throw new InvalidInputError(
      WHERE,
      "options.tau",
      `is ${String(tau)}, expected a finite number > 0`,
    );
  }
  const totalCores = capacity?.totalCores;
  if (typeof totalCores !== "number" || !(totalCores > 0)) {
    throw new InvalidInputError(
      WHERE,
      "capacity.totalCores",
      `is ${String(totalCores)}, expected a number > 0`,
    );
  }
  const platform = "machines" in capacity ? (capacity as Platform) : null;
  const list = Array.isArray(records) ? (records as readonly JobRecord[]) : [...records];

  let completed = 0;
  let rejected = 0;
  let unfinished = 0;
  let sumWait = 0;
  let maxWait = 0;
  let sumResponse = 0;
  let sumSlowdown = 0;
  let sumBsld = 0;
  let firstSubmit = Number.POSITIVE_INFINITY;
  let lastEnd = Number.NEGATIVE_INFINITY;
  let coreSeconds = 0;
  let withDeadline = 0;
  let missed = 0;

  for (const r of list) {
    const job = r.job;
    if (job.submit < firstSubmit) firstSubmit = job.submit;
    if (r.end !== null && r.end > lastEnd) lastEnd = r.end;
    let ran = 0;
    let firstStart = Number.POSITIVE_INFINITY;
    for (const iv of r.intervals) {
      const len = iv.end - iv.start;
      ran += len;
      coreSeconds += len * coresOf(iv.allocation, job.cores);
      if (iv.start < firstStart) firstStart = iv.start;
      if (iv.end > lastEnd) lastEnd = iv.end;
    }
    if (r.outcome === "completed") {
      completed++;
      const end = r.end as number;
      const wait = firstStart - job.submit;
      const response = end - job.submit;
      sumWait += wait;
      if (wait > maxWait) maxWait = wait;
      sumResponse += response;
      sumSlowdown += ran > 0 ? response / ran : 1;
      const b = response / Math.max(ran, tau);
      sumBsld += Math.max(b, 1);
    } else if (r.outcome === "rejected") rejected++;
    else unfinished++;
    if (job.deadline !== undefined) {
      withDeadline++;
      if (r.outcome !== "completed" || (r.end as number) > job.deadline) missed++;
    }
  }
  const jobs = list.length;
  if (options.horizon !== undefined && unfinished > 0 && options.horizon > lastEnd) {
    lastEnd = options.horizon;
  }
  const makespan = jobs === 0 || lastEnd < firstSubmit ? 0 : lastEnd - firstSubmit;
  const licenseByName: Record<string, number> = {};
  let licenseUsage = Number.NaN;
  let machineUsage = Number.NaN;
  if (platform !== null && jobs > 0) {
    machineUsage = machineUsageOf(list, platform, firstSubmit, firstSubmit + makespan);
    licenseUsage = licenseUsageOf(list, platform, makespan, licenseByName);
  }
  const stats = options.stats;
  return {
    jobs,
    completed,
    rejected,
    unfinished,
    meanWait: completed > 0 ? sumWait / completed : Number.NaN,
    maxWait: completed > 0 ? maxWait : Number.NaN,
    meanResponse: completed > 0 ? sumResponse / completed : Number.NaN,
    meanSlowdown: completed > 0 ? sumSlowdown / completed : Number.NaN,
    meanBoundedSlowdown: completed > 0 ? sumBsld / completed : Number.NaN,
    utilization: makespan > 0 ? coreSeconds / (totalCores * makespan) : 0,
    makespan,
    machineUsage,
    licenseUsage,
    licenseUsageByName: licenseByName,
    deadlineMissRate: withDeadline > 0 ? missed / withDeadline : Number.NaN,
    acceptanceRate: jobs > 0 ? (jobs - rejected) / jobs : Number.NaN,
    schedulerMsPerDecision:
      stats !== undefined && stats.decisions > 0 ? stats.schedulerMs / stats.decisions : Number.NaN,
  };
}

/**
 * Time-average of active machines / min(machines, jobs in system) over [from, to], counting
 * only instants with a job in the system. A job is in the system from its submit to its end
 * (unfinished: to `to`); a machine is active while some interval's allocation uses it.
 *
 * Payload-free sweep: each machine's busy periods (the union of its intervals) give +1/-1
 * changes of the active count, and submits/ends give +1/-1 changes of the jobs in the system;
 * four sorted Float64Arrays are merged. All changes at one time are applied before measuring.
 */
function machineUsageOf(
  records: readonly JobRecord[],
  platform: Platform,
  from: number,
  to: number,
): number {
  const nMachines = platform.machines.length;
  const enter = new Float64Array(records.length);
  const leave = new Float64Array(records.length);
  const perMachine: number[][] = [];
  for (let m = 0; m < nMachines; m++) perMachine.push([]);
  for (let i = 0; i < records.length; i++) {
    const r = records[i]!;
    enter[i] = r.job.submit;
    leave[i] = r.end ?? to;
    for (const iv of r.intervals) {
      if (!(iv.end > iv.start)) continue;
      for (const part of iv.allocation) {
        const list = perMachine[part.machine];
        if (list !== undefined) list.push(iv.start, iv.end);
      }
    }
  }
  enter.sort();
  leave.sort();
  // Busy periods per machine: sweep its sorted starts and ends (native typed-array sorts); the
  // machine goes up when its count leaves 0 and down when it returns to 0.
  const upTimes: number[] = [];
  const downTimes: number[] = [];
  for (const list of perMachine) {
    if (list.length === 0) continue;
    const n = list.length / 2;
    const starts = new Float64Array(n);
    const ends = new Float64Array(n);
    for (let k = 0; k < n; k++) {
      starts[k] = list[2 * k]!;
      ends[k] = list[2 * k + 1]!;
    }
    starts.sort();
    ends.sort();
    let i = 0;
    let j = 0;
    let count = 0;
    while (i < n || j < n) {
      // At equal times, starts first: touching intervals merge into one busy period.
      if (i < n && starts[i]! <= ends[j]!) {
        if (count++ === 0) upTimes.push(starts[i]!);
        i++;
      } else {
        if (--count === 0) downTimes.push(ends[j]!);
        j++;
      }
    }
  }
  const up = Float64Array.from(upTimes).sort();
  const down = Float64Array.from(downTimes).sort();
  let a = 0;
  let b = 0;
  let c = 0;
  let d = 0;
  let active = 0;
  let inSystem = 0;
  let weighted = 0;
  let covered = 0;
  const INF = Number.POSITIVE_INFINITY;
  for (;;) {
    const t = Math.min(
      a < up.length ? up[a]! : INF,
      b < down.length ? down[b]! : INF,
      c < enter.length ? enter[c]! : INF,
      d < leave.length ? leave[d]! : INF,
    );
    if (t === INF) break;
    while (a < up.length && up[a] === t) {
      active++;
      a++;
    }
    while (b < down.length && down[b] === t) {
      active--;
      b++;
    }
    while (c < enter.length && enter[c] === t) {
      inSystem++;
      c++;
    }
    while (d < leave.length && leave[d] === t) {
      inSystem--;
      d++;
    }
    const next = Math.min(
      a < up.length ? up[a]! : INF,
      b < down.length ? down[b]! : INF,
      c < enter.length ? enter[c]! : INF,
      d < leave.length ? leave[d]! : INF,
    );
    if (next === INF) break;
    const lo = Math.max(t, from);
    const hi = Math.min(next, to);
    if (hi > lo && inSystem > 0) {
      const ratio = active / Math.min(nMachines, inSystem);
      weighted += Math.min(ratio, 1) * (hi - lo);
      covered += hi - lo;
    }
  }
  return covered > 0 ? weighted / covered : Number.NaN;
}

/** License copy-seconds used / available over the makespan; fills `byName`. */
function licenseUsageOf(
  records: readonly JobRecord[],
  platform: Platform,
  makespan: number,
  byName: Record<string, number>,
): number {
  if (platform.licenses.length === 0 || makespan <= 0) return Number.NaN;
  const used = new Map<string, number>();
  for (const l of platform.licenses) used.set(l.name, 0);
  for (const r of records) {
    const req = r.job.licenses;
    if (req === undefined) continue;
    let ran = 0;
    for (const iv of r.intervals) ran += iv.end - iv.start;
    for (const name in req) {
      const u = used.get(name);
      if (u !== undefined) used.set(name, u + req[name]! * ran);
    }
  }
  let totalUsed = 0;
  let totalCapacity = 0;
  for (const l of platform.licenses) {
    const copies =
      l.kind === "floating"
        ? l.copies
        : l.copies * (l.machines === undefined ? 0 : l.machines.length);
    const capacity = copies * makespan;
    const u = used.get(l.name)!;
    byName[l.name] = capacity > 0 ? u / capacity : Number.NaN;
    totalUsed += u;
    totalCapacity += capacity;
  }
  return totalCapacity > 0 ? totalUsed / totalCapacity : Number.NaN;
}

/** Cores an interval's allocation gives, `fallback` for an empty allocation (SWF records). */
function coresOf(allocation: Allocation, fallback: number): number {
  if (allocation === undefined || allocation.length === 0) return fallback;
  let sum = 0;
  for (let i = 0; i < allocation.length; i++) sum += allocation[i]!.cores;
  return sum;
}
