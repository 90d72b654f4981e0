import { InvalidInputError } from "@sched/errors";
import { machineUsageOf } from "./machine-usage.js";
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
  const tau = resolveTau(WHERE, options.tau);
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
  const acc = new MetricsAccumulator(tau, totalCores, platform);
  for (let i = 0; i < list.length; i++) acc.add(list[i]!);
  const { from, to } = acc.window(options.horizon);
  const machineUsage =
    platform !== null && list.length > 0
      ? machineUsageOf(list, platform.machines.length, from, to)
      : Number.NaN;
  return acc.result(machineUsage, options.horizon, options.stats);
}

/** Checks `tau` (bounded slowdown threshold) and fills its default. Internal. */
export function resolveTau(where: string, tau: number | undefined): number {
  const t = tau ?? 10;
  if (typeof t !== "number" || !Number.isFinite(t) || t <= 0) {
    throw new InvalidInputError(
      where,
      "options.tau",
      `is ${String(t)}, expected a finite number > 0`,
    );
  }
  return t;
}

/**
 * The per-record part of {@link metricsOf}, one record at a time: sums and counts in the order
 * the records are added (so the same records in the same order give the same bits), license
 * copy-seconds included, in one pass. `metricsOf` feeds it a trace's records; a streamed run
 * feeds it each record as it is emitted (in input order) and gets its machine usage from the
 * engine's online sweep. Internal (not exported from the package).
 */
export class MetricsAccumulator {
  private jobs = 0;
  private completed = 0;
  private rejected = 0;
  private unfinished = 0;
  private sumWait = 0;
  private maxWait = 0;
  private sumResponse = 0;
  private sumSlowdown = 0;
  private sumBsld = 0;
  private firstSubmit = Number.POSITIVE_INFINITY;
  private lastEnd = Number.NEGATIVE_INFINITY;
  private coreSeconds = 0;
  private withDeadline = 0;
  private missed = 0;
  /** Copy-seconds used per platform license, or null without licenses. */
  private readonly used: Map<string, number> | null;

  constructor(
    private readonly tau: number,
    private readonly totalCores: number,
    private readonly platform: Platform | null,
  ) {
    if (platform !== null && platform.licenses.length > 0) {
      this.used = new Map();
      for (const l of platform.licenses) this.used.set(l.name, 0);
    } else {
      this.used = null;
    }
  }

  /** Number of records added. */
  get count(): number {
    return this.jobs;
  }

  /** Records still unfinished (in the system at the end). */
  get unfinishedCount(): number {
    return this.unfinished;
  }

  add(r: JobRecord): void {
    const job = r.job;
    this.jobs++;
    if (job.submit < this.firstSubmit) this.firstSubmit = job.submit;
    if (r.end !== null && r.end > this.lastEnd) this.lastEnd = r.end;
    let ran = 0;
    let firstStart = Number.POSITIVE_INFINITY;
    const intervals = r.intervals;
    for (let i = 0; i < intervals.length; i++) {
      const iv = intervals[i]!;
      const len = iv.end - iv.start;
      ran += len;
      this.coreSeconds += len * coresOf(iv.allocation, job.cores);
      if (iv.start < firstStart) firstStart = iv.start;
      if (iv.end > this.lastEnd) this.lastEnd = iv.end;
    }
    if (r.outcome === "completed") {
      this.completed++;
      const end = r.end as number;
      const wait = firstStart - job.submit;
      const response = end - job.submit;
      this.sumWait += wait;
      if (wait > this.maxWait) this.maxWait = wait;
      this.sumResponse += response;
      this.sumSlowdown += ran > 0 ? response / ran : 1;
      const b = response / Math.max(ran, this.tau);
      this.sumBsld += Math.max(b, 1);
    } else if (r.outcome === "rejected") this.rejected++;
    else this.unfinished++;
    if (job.deadline !== undefined) {
      this.withDeadline++;
      if (r.outcome !== "completed" || (r.end as number) > job.deadline) this.missed++;
    }
    const used = this.used;
    const req = job.licenses;
    if (used !== null && req !== undefined) {
      for (const name in req) {
        const u = used.get(name);
        if (u !== undefined) used.set(name, u + req[name]! * ran);
      }
    }
  }

  /**
   * The window of the time metrics: from the first submit to the last end (of a record or an
   * interval), or to `horizon` when the run was cut with unfinished jobs and ends before it.
   */
  window(horizon: number | undefined): { from: number; to: number } {
    let lastEnd = this.lastEnd;
    if (horizon !== undefined && this.unfinished > 0 && horizon > lastEnd) lastEnd = horizon;
    return { from: this.firstSubmit, to: Math.max(lastEnd, this.firstSubmit) };
  }

  result(machineUsage: number, horizon: number | undefined, stats: RunStats | undefined): Metrics {
    const { from, to } = this.window(horizon);
    const jobs = this.jobs;
    const completed = this.completed;
    const makespan = jobs === 0 ? 0 : to - from;
    const licenseByName: Record<string, number> = {};
    let licenseUsage = Number.NaN;
    const platform = this.platform;
    if (platform !== null && jobs > 0 && this.used !== null && makespan > 0) {
      let totalUsed = 0;
      let totalCapacity = 0;
      for (const l of platform.licenses) {
        const copies =
          l.kind === "floating"
            ? l.copies
            : l.copies * (l.machines === undefined ? 0 : l.machines.length);
        const capacity = copies * makespan;
        const u = this.used.get(l.name)!;
        licenseByName[l.name] = capacity > 0 ? u / capacity : Number.NaN;
        totalUsed += u;
        totalCapacity += capacity;
      }
      licenseUsage = totalCapacity > 0 ? totalUsed / totalCapacity : Number.NaN;
    }
    return {
      jobs,
      completed,
      rejected: this.rejected,
      unfinished: this.unfinished,
      meanWait: completed > 0 ? this.sumWait / completed : Number.NaN,
      maxWait: completed > 0 ? this.maxWait : Number.NaN,
      meanResponse: completed > 0 ? this.sumResponse / completed : Number.NaN,
      meanSlowdown: completed > 0 ? this.sumSlowdown / completed : Number.NaN,
      meanBoundedSlowdown: completed > 0 ? this.sumBsld / completed : Number.NaN,
      utilization: makespan > 0 ? this.coreSeconds / (this.totalCores * makespan) : 0,
      makespan,
      machineUsage: platform !== null && jobs > 0 ? machineUsage : Number.NaN,
      licenseUsage,
      licenseUsageByName: licenseByName,
      deadlineMissRate: this.withDeadline > 0 ? this.missed / this.withDeadline : Number.NaN,
      acceptanceRate: jobs > 0 ? (jobs - this.rejected) / jobs : Number.NaN,
      schedulerMsPerDecision:
        stats !== undefined && stats.decisions > 0
          ? stats.schedulerMs / stats.decisions
          : Number.NaN,
    };
  }
}

/** Cores an interval's allocation gives, `fallback` for an empty allocation (SWF records). */
function coresOf(allocation: Allocation, fallback: number): number {
  if (allocation === undefined || allocation.length === 0) return fallback;
  let sum = 0;
  for (let i = 0; i < allocation.length; i++) sum += allocation[i]!.cores;
  return sum;
}
