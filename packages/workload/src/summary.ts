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

/** A column of numbers that grows as jobs come (doubling), read back as the filled part. */
class GrowingColumn {
  private data = new Float64Array(1024);
  length = 0;

  push(v: number): void {
    if (this.length === this.data.length) {
      const next = new Float64Array(this.data.length * 2);
      next.set(this.data);
      this.data = next;
    }
    this.data[this.length++] = v;
  }

  /** The values pushed (a view, sorted in place by {@link distribution}). */
  values(): Float64Array {
    return this.data.subarray(0, this.length);
  }
}

/**
 * {@link summarizeJobs} one job at a time, for jobs that arrive from a stream (a trace read
 * line by line): `add` each job, then `summary`. Memory: five numbers per job (submit, cores,
 * run time, estimate, and the gap computed at the end), never the jobs; the summary is the
 * one `summarizeJobs` gives for the same jobs in the same order, bit for bit.
 *
 * Complexity: O(1) amortized per `add`; O(n log n) for `summary`.
 *
 * @example
 * ```ts
 * const s = new WorkloadSummarizer();
 * for await (const job of readJobsLines(lines)) s.add(job);
 * s.summary({ procs: 128 }).offeredLoad;
 * ```
 */
export class WorkloadSummarizer {
  private readonly submits = new GrowingColumn();
  private readonly cores = new GrowingColumn();
  private readonly runtimes = new GrowingColumn();
  private readonly estimates = new GrowingColumn();
  private work = 0;
  private serial = 0;
  private pow2 = 0;
  private over = 0;
  private deadline = 0;
  private licenses = 0;
  private done = false;

  /** Jobs added so far. */
  get jobs(): number {
    return this.submits.length;
  }

  /**
   * Adds one job (read as given: `submit`, `cores`, `runtime`, `estimate`, `deadline`,
   * `licenses`).
   * @throws InvalidInputError after {@link summary} (its columns were sorted in place).
   */
  add(job: Job): void {
    if (this.done) {
      throw new InvalidInputError(
        "@sched/workload/WorkloadSummarizer.add",
        "job",
        "came after summary(), expected every job before it",
      );
    }
    this.submits.push(job.submit);
    this.cores.push(job.cores);
    this.runtimes.push(job.runtime);
    this.estimates.push(job.estimate);
    this.work += job.runtime * job.cores;
    if (job.cores === 1) this.serial++;
    else if ((job.cores & (job.cores - 1)) === 0) this.pow2++;
    if (job.runtime > job.estimate) this.over++;
    if (job.deadline !== undefined) this.deadline++;
    if (job.licenses !== undefined && Object.keys(job.licenses).length > 0) this.licenses++;
  }

  /**
   * The summary of the jobs added (once: it sorts the columns in place).
   * @throws InvalidInputError when no job was added, `procs` is not a positive integer, or it
   *   is called a second time.
   */
  summary(options: SummarizeJobsOptions = {}): WorkloadSummary {
    return this.summarize("@sched/workload/WorkloadSummarizer.summary", options);
  }

  /** {@link summary}, its errors naming `where`. @internal */
  summarize(where: string, options: SummarizeJobsOptions): WorkloadSummary {
    requireKnownKeys(where, "options", options, SUMMARY_KEYS);
    if (this.done) {
      throw new InvalidInputError(where, "summary", "was already taken, expected one call");
    }
    const n = this.submits.length;
    if (n === 0) throw new InvalidInputError(where, "jobs", "is empty, expected at least one job");
    const procs = options.procs;
    if (procs !== undefined && (!Number.isSafeInteger(procs) || procs < 1)) {
      throw new InvalidInputError(
        where,
        "options.procs",
        `is ${describeValue(procs)}, expected an integer >= 1`,
      );
    }
    this.done = true;
    const submits = this.submits.values().sort();
    const gaps = new Float64Array(Math.max(0, n - 1));
    for (let i = 1; i < n; i++) gaps[i - 1] = submits[i]! - submits[i - 1]!;
    const span = submits[n - 1]! - submits[0]!;
    const work = this.work;
    return {
      jobs: n,
      firstSubmit: submits[0]!,
      lastSubmit: submits[n - 1]!,
      span,
      cores: distribution(this.cores.values()),
      runtime: distribution(this.runtimes.values()),
      estimate: distribution(this.estimates.values()),
      interArrival: n < 2 ? null : distribution(gaps),
      serialFraction: this.serial / n,
      powerOfTwoFraction: this.pow2 / n,
      overEstimate: this.over,
      withDeadline: this.deadline,
      withLicenses: this.licenses,
      work,
      offeredLoad: procs === undefined || span === 0 ? null : work / (procs * span),
    };
  }
}

/**
 * A workload's summary, what `sched-sim inspect` prints: job count, submit span, distributions
 * (min, quartiles, 90th percentile, max, mean) of cores, run time, estimate and inter-arrival
 * time, the serial and power-of-two fractions, jobs running over their estimate, jobs with
 * deadlines or licenses, total work and the offered load on `procs` cores. The jobs are read
 * once, in order, and not kept (a generator of a long trace streams through; see
 * {@link WorkloadSummarizer} for jobs that arrive asynchronously).
 *
 * Complexity: O(n log n); memory five numbers per job.
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
  const where = "@sched/workload/summarizeJobs";
  requireKnownKeys(where, "options", options, SUMMARY_KEYS);
  const summarizer = new WorkloadSummarizer();
  for (const job of requireIterable(where, "jobs", jobs, "jobs")) summarizer.add(job);
  return summarizer.summarize(where, options);
}
