/** The per-run metrics a sweep records and compares, and how each reads in tables. */
import type { Experiment } from "../experiments/experiment.js";
import { fixed } from "../format.js";
import type { Summary } from "../stats.js";

/** How a metric reads in tables and which way is better. */
export interface MetricInfo {
  /** Key in core's `Metrics`, e.g. `"meanWait"`. */
  readonly key: string;
  /** Column title, e.g. `"mean wait (s)"`. */
  readonly title: string;
  /** Decimals in printed tables (of the percentage, for a `percent` metric). */
  readonly digits: number;
  /** `"lower"` (waits, slowdowns, makespan), `"higher"` (utilization, acceptance) or `"none"`. */
  readonly better: "lower" | "higher" | "none";
  /**
   * The values are fractions, printed as percentages (`0.6985` reads `69.9%`) in every table of
   * every command; files (CSV, JSON) keep the fraction. @defaultValue false
   */
  readonly percent?: boolean;
}

/** Every numeric metric of core's `computeMetrics` a sweep can report, in a fixed order. */
export const METRICS: readonly MetricInfo[] = [
  { key: "meanWait", title: "mean wait (s)", digits: 1, better: "lower" },
  { key: "maxWait", title: "max wait (s)", digits: 1, better: "lower" },
  { key: "meanResponse", title: "mean response (s)", digits: 1, better: "lower" },
  { key: "meanSlowdown", title: "mean slowdown", digits: 2, better: "lower" },
  { key: "meanBoundedSlowdown", title: "mean bsld", digits: 2, better: "lower" },
  { key: "utilization", title: "utilization", digits: 1, better: "higher", percent: true },
  { key: "makespan", title: "makespan (s)", digits: 0, better: "lower" },
  { key: "machineUsage", title: "machine usage", digits: 1, better: "higher", percent: true },
  { key: "licenseUsage", title: "license usage", digits: 1, better: "higher", percent: true },
  {
    key: "deadlineMissRate",
    title: "deadline miss rate",
    digits: 1,
    better: "lower",
    percent: true,
  },
  { key: "acceptanceRate", title: "acceptance rate", digits: 1, better: "higher", percent: true },
  { key: "jobs", title: "jobs", digits: 0, better: "none" },
  { key: "completed", title: "completed", digits: 1, better: "higher" },
  { key: "rejected", title: "rejected", digits: 1, better: "lower" },
  { key: "unfinished", title: "unfinished", digits: 1, better: "lower" },
];

/** The metrics a sweep reports when its file names none. */
export const DEFAULT_METRICS: readonly string[] = [
  "meanWait",
  "meanBoundedSlowdown",
  "utilization",
  "makespan",
];

/**
 * The {@link MetricInfo} of `key`. An experiment's own declaration of the metric gives its title
 * and decimals; a fraction of core's (utilization, acceptance rate, ...) is still printed as a
 * percentage unless that title says its values are percents already ("machine usage (%)"), and
 * which way is better is the experiment's word.
 * Unknown keys get a plain entry (title = key, 3 decimals, lower is better).
 */
export function metricInfo(key: string, experiment?: Experiment): MetricInfo {
  const core = METRICS.find((m) => m.key === key);
  const declared = experiment?.metrics.find((m) => m.key === key);
  if (declared === undefined) {
    return core ?? { key, title: key, digits: 3, better: "lower" as const };
  }
  const percent = core?.percent === true && !declared.title.includes("%");
  return {
    key,
    title: declared.title,
    digits: percent ? (core?.digits ?? declared.digits) : declared.digits,
    better: declared.better,
    ...(percent ? { percent } : {}),
  };
}

/**
 * A value, or a mean with its 95% CI half-width, as every table prints it: `1234.5`,
 * `1234.5 ± 12.3`; a percent metric `69.9%`, `69.9 ± 1.2%`; `-` without runs or value.
 */
export function formatValue(info: MetricInfo, s: Summary | number | undefined): string {
  const summary = typeof s === "number" ? { mean: s, ci95: Number.NaN, runs: 1 } : s;
  if (summary === undefined || summary.runs === 0 || !Number.isFinite(summary.mean)) return "-";
  const scale = info.percent === true ? 100 : 1;
  const unit = info.percent === true ? "%" : "";
  const mean = fixed(summary.mean * scale, info.digits);
  return Number.isFinite(summary.ci95)
    ? `${mean} ± ${fixed(summary.ci95 * scale, info.digits)}${unit}`
    : `${mean}${unit}`;
}
