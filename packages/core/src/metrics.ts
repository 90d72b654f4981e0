import { describeValue, InvalidInputError, optionKeys, requireKnownKeys } from "@sched/errors";
import { machineUsageOf } from "./machine-usage.js";
import { MetricSums, resolveTau } from "./metric-sums.js";
import { METRICS_KEYS, type Metrics, type MetricsOptions } from "./metrics-types.js";
import { runsOf } from "./parts.js";
import { requirePlatform } from "./platform.js";
import type { JobRecord, RunStats, ScheduleTrace } from "./trace.js";
import { checkRecord, checkStats, checkTrace } from "./trace-check.js";
import type { Allocation, Platform } from "./types.js";

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

/** The keys of {@link MetricsOfOptions}, all of them (checked by the compiler). */
const METRICS_OF_KEYS = optionKeys<MetricsOfOptions>({
  stats: true,
  horizon: true,
  tau: true,
});

export type { Metrics, MetricsOptions } from "./metrics-types.js";

const WHERE = "@sched/core/metricsOf";

/**
 * Metrics of a trace; see {@link Metrics} for each definition. Pure: depends only on the trace
 * (and `schedulerMsPerDecision` on its wall-clock stats).
 *
 * Complexity: O(R + I log I) for R records and I interval parts.
 *
 * @throws InvalidInputError when `options.tau` is not a finite number > 0, or when the trace is
 * malformed (a field missing or of the wrong type, a time that is not a finite number, an
 * allocation naming a machine the platform does not have, a record's times out of order), naming
 * the record and the field: `trace.records[12].intervals[0].start is NaN, expected a finite number`.
 *
 * @example
 * ```ts
 * // one 1-core job, submit 0, runs 10..30 on a 2-machine pool
 * computeMetrics(trace); // { meanWait: 10, meanResponse: 30, meanSlowdown: 1.5, utilization: 20 / 60, makespan: 30, … }
 * ```
 */
export function computeMetrics(trace: ScheduleTrace, options: MetricsOptions = {}): Metrics {
  const where = "@sched/core/computeMetrics";
  requireKnownKeys(where, "options", options, METRICS_KEYS);
  const tau = resolveTau(where, options.tau);
  checkTrace(where, "trace", trace);
  return metricsOfChecked(where, "trace.records", trace.records, trace.platform, {
    tau,
    stats: trace.stats,
    horizon: trace.horizon,
  });
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
 * @throws InvalidInputError when `capacity` (a platform as `validatePlatform` checks it, or a
 * finite `totalCores` > 0) or an option is invalid, when a record is malformed (a field missing
 * or of the wrong type, a time not a finite number, an allocation naming a machine the platform
 * does not have), naming the record and the field (`records[3].outcome is "done", expected …`),
 * or when a record's times are out of order (submit <= first start <= end, each interval's
 * start <= end), naming the record.
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
  requireKnownKeys(WHERE, "options", options, METRICS_OF_KEYS);
  const tau = resolveTau(WHERE, options.tau);
  if (
    typeof records !== "object" ||
    records === null ||
    typeof (records as Iterable<JobRecord>)[Symbol.iterator] !== "function"
  ) {
    throw new InvalidInputError(
      WHERE,
      "records",
      `is ${describeValue(records)}, expected an iterable of job records (an array)`,
    );
  }
  const totalCores = (capacity as { totalCores?: unknown } | null | undefined)?.totalCores;
  if (typeof totalCores !== "number" || !(totalCores > 0) || totalCores === Infinity) {
    throw new InvalidInputError(
      WHERE,
      "capacity.totalCores",
      `is ${describeValue(totalCores)}, expected a finite number > 0`,
    );
  }
  const platform =
    typeof capacity === "object" && "machines" in capacity
      ? requirePlatform(WHERE, "capacity", capacity as Platform)
      : null;
  const { horizon, stats } = options;
  // finite: an infinite horizon with unfinished jobs made the makespan infinite
  if (horizon !== undefined && !(typeof horizon === "number" && Number.isFinite(horizon))) {
    throw new InvalidInputError(
      WHERE,
      "options.horizon",
      `is ${describeValue(horizon)}, expected a finite number`,
    );
  }
  if (stats !== undefined) checkStats(WHERE, "options.stats", stats);
  const list = Array.isArray(records) ? (records as readonly JobRecord[]) : [...records];
  return metricsOfChecked(WHERE, "records", list, platform ?? { totalCores }, {
    tau,
    stats,
    horizon,
  });
}

/** {@link metricsOf} on records and a capacity already checked, `label` naming the records. */
function metricsOfChecked(
  where: string,
  label: string,
  list: readonly JobRecord[],
  capacity: Platform | { readonly totalCores: number },
  options: { tau: number; stats: RunStats | undefined; horizon: number | undefined },
): Metrics {
  const platform = "machines" in capacity ? (capacity as Platform) : null;
  const acc = new MetricsAccumulator(options.tau, capacity.totalCores, platform);
  // Each record's shape is checked as it is added (one pass over the records, not two: about
  // half the cost of a separate pass on a million records), with machine indices of the
  // platform (the machine usage indexes machines by them), any finite number without one.
  const machines = platform === null ? -1 : platform.machines.length;
  let i = 0;
  try {
    for (; i < list.length; i++) {
      const r = list[i]!;
      checkRecord(where, label, i, r, machines);
      acc.add(r);
    }
  } catch (error) {
    // A record whose times the sums refuse (out of order): name the record and its job, in the
    // record's words (the sums' own method is not something the caller called).
    if (!(error instanceof InvalidInputError) || error.where === where) throw error;
    const prefix = `${error.where}: `;
    const what = error.message.startsWith(prefix)
      ? error.message.slice(prefix.length)
      : error.message;
    const record = `${label}[${i}] (job ${list[i]!.job.id})`;
    throw new InvalidInputError(where, record, `has bad times: ${what}`, { cause: error });
  }
  const { from, to } = acc.window(options.horizon);
  const machineUsage =
    platform !== null && list.length > 0
      ? machineUsageOf(list, platform.machines.length, from, to)
      : Number.NaN;
  return acc.result(machineUsage, options.horizon, options.stats);
}

/**
 * The per-record part of {@link metricsOf}, one record at a time: {@link MetricSums} fed in the
 * order the records are added (so the same records in the same order give the same bits), and
 * license copy-seconds, in one pass. `metricsOf` feeds it a trace's records; a streamed run
 * feeds it each record as it is emitted (in input order) and gets its machine usage from the
 * engine's online sweep. Internal (not exported from the package).
 */
export class MetricsAccumulator {
  private readonly sums: MetricSums;
  /** Copy-seconds used per platform license, or null without licenses. */
  private readonly used: Map<string, number> | null;

  constructor(
    tau: number,
    totalCores: number,
    private readonly platform: Platform | null,
  ) {
    this.sums = new MetricSums(totalCores, { tau });
    if (platform !== null && platform.licenses.length > 0) {
      this.used = new Map();
      for (const l of platform.licenses) this.used.set(l.name, 0);
    } else {
      this.used = null;
    }
  }

  /** Records still unfinished (in the system at the end). */
  get unfinishedCount(): number {
    return this.sums.unfinished;
  }

  add(r: JobRecord): void {
    const job = r.job;
    const sums = this.sums;
    const end = r.end;
    const intervals = r.intervals;
    let ran = 0;
    if (r.outcome === "completed" && intervals.length === 1 && intervals[0]!.end === end) {
      // The common record, one interval up to the end: one call, the same sums. `coresOf` written
      // out: V8 then inlines that call within `sched-sim`'s budget (v8-tuning.ts), not `coresOf`.
      const iv = intervals[0]!;
      const parts = iv.allocation;
      let cores = job.cores;
      if (parts !== undefined && parts.length > 0) {
        // (an allocation with runs is of one-core parts: as many cores as parts)
        if (runsOf(parts) !== undefined) cores = parts.length;
        else {
          cores = 0;
          for (let k = 0; k < parts.length; k++) cores += parts[k]!.cores;
        }
      }
      ran = iv.end - iv.start;
      sums.addCompletedRun(job.submit, iv.start, iv.end, cores);
    } else {
      let firstStart = Number.POSITIVE_INFINITY;
      for (let i = 0; i < intervals.length; i++) {
        const iv = intervals[i]!;
        ran += sums.addInterval(iv.start, iv.end, coresOf(iv.allocation, job.cores));
        if (iv.start < firstStart) firstStart = iv.start;
      }
      if (r.outcome === "completed") sums.addCompleted(job.submit, firstStart, end as number, ran);
      else if (r.outcome === "rejected") sums.addRejected(job.submit, end ?? undefined);
      else sums.addUnfinished(job.submit, end ?? undefined);
    }
    if (job.deadline !== undefined) {
      sums.addDeadline(r.outcome !== "completed" || (end as number) > job.deadline);
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
    return this.sums.window(horizon);
  }

  result(machineUsage: number, horizon: number | undefined, stats: RunStats | undefined): Metrics {
    const makespan = this.sums.makespan(horizon);
    const licenseByName: Record<string, number> = {};
    let licenseUsage = Number.NaN;
    const platform = this.platform;
    if (platform !== null && makespan > 0 && this.used !== null) {
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
    const o: {
      machineUsage: number;
      licenseUsage: number;
      licenseUsageByName: Record<string, number>;
      horizon?: number;
      stats?: RunStats;
    } = {
      machineUsage: platform !== null ? machineUsage : Number.NaN,
      licenseUsage,
      licenseUsageByName: licenseByName,
    };
    if (horizon !== undefined) o.horizon = horizon;
    if (stats !== undefined) o.stats = stats;
    return this.sums.metrics(o);
  }
}

/** Cores an interval's allocation gives, `fallback` for an empty allocation (SWF records). */
function coresOf(allocation: Allocation, fallback: number): number {
  if (allocation === undefined || allocation.length === 0) return fallback;
  let sum = 0;
  for (let i = 0; i < allocation.length; i++) sum += allocation[i]!.cores;
  return sum;
}
