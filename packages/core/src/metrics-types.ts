import { optionKeys } from "@sched/errors";

// The metrics' types, apart from metrics.ts so that metric-sums.ts (which metrics.ts uses) can
// name them without an import cycle. Re-exported by metrics.ts.

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

/** The keys of {@link MetricsOptions}, all of them (checked by the compiler). Internal. */
export const METRICS_KEYS = optionKeys<MetricsOptions>({
  tau: true,
});
