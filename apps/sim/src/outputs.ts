import type { JobRecord, Metrics, RunStats, ScheduleTrace } from "@sched/core";
import {
  csvField,
  formatNumber,
  type JsonValue,
  renderTable,
  stableJson,
  toCsv,
} from "./format.js";
import { formatValue, metricInfo } from "./sweep/metrics.js";

/** Columns of `jobs.csv`, in order. */
export const JOBS_CSV_COLUMNS = [
  "id",
  "submit",
  "start",
  "end",
  "wait",
  "runtime",
  "estimate",
  "procs",
  "status",
  "preemptions",
  "reason",
] as const;

/**
 * `jobs.csv`: a header, then one row per job in the trace's (input) order. `start` is the first
 * execution interval's start, `end` the completion time, `wait = start - submit`; these three are
 * empty for a job that never started (rejected or unfinished). `runtime` and `estimate` are the
 * job's reference runtime and requested time, `procs` its cores, `status` its outcome
 * (`completed`, `rejected`, `unfinished`), `preemptions` the number of intervals minus one,
 * `reason` the rejection reason (empty otherwise).
 */
export function jobsCsv(trace: ScheduleTrace): string {
  return toCsv(JOBS_CSV_COLUMNS, trace.records.map(jobRow));
}

/** The first line of `jobs.csv`, with its line end. */
export const JOBS_CSV_HEADER = `${JOBS_CSV_COLUMNS.join(",")}\n`;

/**
 * One line of `jobs.csv` (with its line end) for a record, as {@link jobsCsv} writes it, for a
 * run that writes its rows as the records come: numbers need no quoting, so only the status and
 * the reason go through `csvField`.
 */
export function jobsCsvLine(r: JobRecord): string {
  const job = r.job;
  const first = r.intervals[0];
  const reason = r.reason === undefined ? "" : csvField(r.reason);
  const tail = `,${formatNumber(job.runtime)},${formatNumber(job.estimate)},${formatNumber(job.cores)},${csvField(r.outcome)},${formatNumber(Math.max(0, r.intervals.length - 1))},${reason}\n`;
  if (first === undefined) return `${formatNumber(job.id)},${formatNumber(job.submit)},,,${tail}`;
  const start = first.start;
  return `${formatNumber(job.id)},${formatNumber(job.submit)},${formatNumber(start)},${r.end === null ? "" : formatNumber(r.end)},${formatNumber(start - job.submit)}${tail}`;
}

function jobRow(r: JobRecord): (string | number | null)[] {
  const first = r.intervals[0];
  const start = first === undefined ? null : first.start;
  return [
    r.job.id,
    r.job.submit,
    start,
    start === null ? null : r.end,
    start === null ? null : start - r.job.submit,
    r.job.runtime,
    r.job.estimate,
    r.job.cores,
    r.outcome,
    Math.max(0, r.intervals.length - 1),
    r.reason ?? null,
  ];
}

/** Metric keys that are wall-clock measurements (not deterministic): reported under `timing`. */
const TIMING_KEYS = new Set(["schedulerMsPerDecision", "schedulerMs"]);

/**
 * The deterministic metrics of a run: every number of `metrics` (NaN where undefined, e.g. a
 * license usage without licenses) and every per-name table (`licenseUsageByName`), but the
 * wall-clock timings.
 */
export function deterministicMetrics(
  metrics: Metrics,
): Record<string, number | Record<string, number>> {
  const out: Record<string, number | Record<string, number>> = {};
  for (const [key, value] of Object.entries(metrics)) {
    if (TIMING_KEYS.has(key)) continue;
    if (typeof value === "number") out[key] = value;
    else if (typeof value === "object" && value !== null)
      out[key] = { ...(value as Record<string, number>) };
  }
  return out;
}

/** What `metrics.json` says about the run besides the metrics. */
export interface RunDescription {
  readonly scheduler: string;
  readonly schedulerOptions: Readonly<Record<string, string | number | boolean>>;
  readonly workload: string;
  /** `run --platform FILE`: the platform file, when given. */
  readonly platform?: string;
  readonly procs: number;
  readonly clean: boolean;
  readonly version: string;
}

/**
 * `metrics.json`: the deterministic metrics at the top level (seconds for times, utilization a
 * fraction), `events` and `decisions` of the run, and `run` describing the inputs. Keys sorted,
 * numbers rounded to 6 decimals: equal runs give equal bytes. The wall-clock measurements are
 * apart, in {@link timingJson}.
 */
export function metricsJson(stats: RunStats, metrics: Metrics, run: RunDescription): string {
  const doc: Record<string, JsonValue> = { ...deterministicMetrics(metrics) };
  doc.events = stats.events;
  doc.decisions = stats.decisions;
  doc.run = { ...run, schedulerOptions: { ...run.schedulerOptions } };
  return stableJson(doc);
}

/**
 * `timing.json`, written beside `metrics.json`: the wall-clock measurements of a run, NOT
 * deterministic (machine load, JIT, caches): `schedulerMs` (time inside the policy),
 * `schedulerMsPerDecision` (that over its scheduling calls, 0 without one) and `wallMs` (the
 * whole command: reading, simulating, metrics).
 */
export function timingJson(stats: RunStats, wallMs: number): string {
  return stableJson({
    schedulerMs: stats.schedulerMs,
    schedulerMsPerDecision: stats.decisions === 0 ? 0 : stats.schedulerMs / stats.decisions,
    wallMs,
  });
}

/** A row of {@link metricsTable}: a label (the policy) and its metrics. */
export interface MetricsRow {
  readonly label: string;
  readonly metrics: Metrics;
}

/** The columns of {@link metricsTable}, read as every other table reads them (`sweep/metrics.ts`). */
const TABLE_METRICS = ["meanWait", "meanBoundedSlowdown", "utilization", "makespan"].map((k) =>
  metricInfo(k),
);

/**
 * The metrics table printed by `run` and `demo`: one row per policy with jobs, and (a column
 * each, titled and formatted as in `sweep`, `reproduce` and `compare`) mean wait (s), mean
 * bounded slowdown (tau = 10 s), utilization (%), makespan (s); `rejected` and `unfinished`
 * columns when some job was rejected or left unfinished.
 */
export function metricsTable(rows: readonly MetricsRow[]): string {
  const extra = (["rejected", "unfinished"] as const).filter((k) =>
    rows.some((r) => r.metrics[k] > 0),
  );
  return renderTable(
    [
      { title: "policy", align: "left" },
      { title: "jobs", align: "right" },
      ...extra.map((k) => ({ title: k, align: "right" as const })),
      ...TABLE_METRICS.map((m) => ({ title: m.title, align: "right" as const })),
    ],
    rows.map(({ label, metrics }) => [
      label,
      String(metrics.jobs),
      ...extra.map((k) => String(metrics[k])),
      ...TABLE_METRICS.map((m) => formatValue(m, metrics[m.key as keyof Metrics] as number)),
    ]),
  );
}
