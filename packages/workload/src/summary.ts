import { InvalidInputError, type Job } from "@sched/core";
import { describeValue, optionKeys, requireKnownKeys } from "@sched/errors";
import { requireIterable } from "./require-iterable.js";

/** Order statistics of one quantity (nearest-rank quantiles: the value at rank ceil(q n)). */
export interface Distribution {
  readonly min: number;
  readonly q25: number;
  readonly median: number;
  readonly q75: number;
  readonly q90: number;
  readonly max: number;
  readonly mean: number;
}

/** What {@link summarizeJobs} reports. */
export interface WorkloadSummary {
  readonly jobs: number;
  /** Earliest and latest submit times, and their difference (seconds). */
  readonly firstSubmit: number;
  readonly lastSubmit: number;
  readonly span: number;
  readonly cores: Distribution;
  readonly runtime: Distribution;
  readonly estimate: Distribution;
  /** Gaps between consecutive submit times (in submit order); null with fewer than 2 jobs. */
  readonly interArrival: Distribution | null;
  /** Fraction of jobs with 1 core, and of jobs with a power-of-two core count above 1. */
  readonly serialFraction: number;
  readonly powerOfTwoFraction: number;
  /** Jobs whose run time exceeds their estimate. */
  readonly overEstimate: number;
  readonly withDeadline: number;
  readonly withLicenses: number;
  /** Sum of runtime * cores, core-seconds. */
  readonly work: number;
  /** work / (procs * span): the load the jobs offer a machine of `procs` cores; null without procs or span. */
  readonly offeredLoad: number | null;
}

/** Options of {@link summarizeJobs}. */
export interface SummarizeJobsOptions {
  /** Cores of the machine the load is measured against. @defaultValue none (offeredLoad null) */
  readonly procs?: number;
}

/** The keys of {@link SummarizeJobsOptions}, all of them (checked by the compiler). */
const SUMMARY_KEYS = optionKeys<SummarizeJobsOptions>({
  procs: true,
});

function distribution(values: Float64Array): Distribution {
  values.sort();
  const n = values.length;
  const at = (q: number) => values[Math.max(0, Math.ceil(q * n) - 1)]!;
  let sum = 0;
  for (const v of values) sum += v;
  return {
    min: values[0]!,
    q25: at(0.25),
    median: at(0.5),
    q75: at(0.75),
    q90: at(0.9),
    max: values[n - 1]!,
    mean: sum / n,
  };
}

/**
 * A workload's summary, what `sched-sim inspect` prints: job count, submit span, distributions
 * (min, quartiles, 90th percentile, max, mean) of cores, run time, estimate and inter-arrival
 * time, the serial and power-of-two fractions, jobs running over their estimate, jobs with
 * deadlines or licenses, total work and the offered load on `procs` cores.
 *
 * Complexity: O(n log n).
 *
 * @throws InvalidInputError when there are no jobs or `procs` is not a positive integer.
 *
 * @example
 * ```ts
 * const s = summarizeJobs(swfToJobs(records, { clean: true }).jobs, { procs: 100 });
 * s.offeredLoad; // 0.699 for KTH-SP2
 * ```
 */
export function summarizeJobs(
  jobs: Iterable<Job>,
  options: SummarizeJobsOptions = {},
): WorkloadSummary {
  requireKnownKeys("@sched/workload/summarizeJobs", "options", options, SUMMARY_KEYS);
  const where = "@sched/workload/summarizeJobs";
  const list = [...requireIterable(where, "jobs", jobs, "jobs")];
  if (list.length === 0)
    throw new InvalidInputError(where, "jobs", "is empty, expected at least one job");
  const procs = options.procs;
  if (procs !== undefined && (!Number.isSafeInteger(procs) || procs < 1)) {
    throw new InvalidInputError(
      where,
      "options.procs",
      `is ${describeValue(procs)}, expected an integer >= 1`,
    );
  }
  const n = list.length;
  const submits = Float64Array.from(list, (j) => j.submit).sort();
  const gaps = new Float64Array(Math.max(0, n - 1));
  for (let i = 1; i < n; i++) gaps[i - 1] = submits[i]! - submits[i - 1]!;
  let work = 0;
  let serial = 0;
  let pow2 = 0;
  let over = 0;
  let deadline = 0;
  let licenses = 0;
  for (const j of list) {
    work += j.runtime * j.cores;
    if (j.cores === 1) serial++;
    else if ((j.cores & (j.cores - 1)) === 0) pow2++;
    if (j.runtime > j.estimate) over++;
    if (j.deadline !== undefined) deadline++;
    if (j.licenses !== undefined && Object.keys(j.licenses).length > 0) licenses++;
  }
  const span = submits[n - 1]! - submits[0]!;
  return {
    jobs: n,
    firstSubmit: submits[0]!,
    lastSubmit: submits[n - 1]!,
    span,
    cores: distribution(Float64Array.from(list, (j) => j.cores)),
    runtime: distribution(Float64Array.from(list, (j) => j.runtime)),
    estimate: distribution(Float64Array.from(list, (j) => j.estimate)),
    interArrival: n < 2 ? null : distribution(gaps),
    serialFraction: serial / n,
    powerOfTwoFraction: pow2 / n,
    overEstimate: over,
    withDeadline: deadline,
    withLicenses: licenses,
    work,
    offeredLoad: procs === undefined || span === 0 ? null : work / (procs * span),
  };
}
