/** The per-run metrics a sweep records and compares: core's `computeMetrics` numbers. */

/** How a metric reads in tables and which way is better. */
export interface MetricInfo {
  /** Key in core's `Metrics`, e.g. `"meanWait"`. */
  readonly key: string;
  /** Column title, e.g. `"mean wait (s)"`. */
  readonly title: string;
  /** Decimals in printed tables. */
  readonly digits: number;
  /** `"lower"` (waits, slowdowns, makespan), `"higher"` (utilization, acceptance) or `"none"`. */
  readonly better: "lower" | "higher" | "none";
}

/** Every numeric metric of core's `computeMetrics` a sweep can report, in a fixed order. */
export const METRICS: readonly MetricInfo[] = [
  { key: "meanWait", title: "mean wait (s)", digits: 1, better: "lower" },
  { key: "maxWait", title: "max wait (s)", digits: 1, better: "lower" },
  { key: "meanResponse", title: "mean response (s)", digits: 1, better: "lower" },
  { key: "meanSlowdown", title: "mean slowdown", digits: 2, better: "lower" },
  { key: "meanBoundedSlowdown", title: "mean bsld", digits: 2, better: "lower" },
  { key: "utilization", title: "utilization", digits: 4, better: "higher" },
  { key: "makespan", title: "makespan (s)", digits: 1, better: "lower" },
  { key: "machineUsage", title: "machine usage", digits: 4, better: "higher" },
  { key: "licenseUsage", title: "license usage", digits: 4, better: "higher" },
  { key: "deadlineMissRate", title: "deadline miss rate", digits: 4, better: "lower" },
  { key: "acceptanceRate", title: "acceptance rate", digits: 4, better: "higher" },
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

/** The {@link MetricInfo} of `key`; unknown keys get a plain entry (title = key, lower is better). */
export function metricInfo(key: string): MetricInfo {
  return (
    METRICS.find((m) => m.key === key) ?? { key, title: key, digits: 3, better: "lower" as const }
  );
}
