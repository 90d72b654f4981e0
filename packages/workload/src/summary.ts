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

function distribution(values: Int32Array | Float64Array): Distribution {
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

/** Values in the first chunk of a {@link CompactColumn}; each next one is twice as large, up to {@link LAST_CHUNK}. */
const FIRST_CHUNK = 4096;
/** The largest chunk (4 MB as 32-bit integers: allocated, and given back, on its own). */
const LAST_CHUNK = 1 << 20;

/** Whether `v` is held exactly by an `Int32Array` (an integer in range; not -0). */
const isInt32 = (v: number): boolean => (v | 0) === v && (v !== 0 || 1 / v > 0);

/**
 * A column of numbers that grows as jobs come, read back once as one sorted-in-place array.
 * Stored in chunks (4,096 values, then twice as many each time up to a million), so growing
 * never copies and a short column stays small, and as 32-bit integers while every value is one
 * (an SWF trace's times and sizes are whole seconds and cores: 4 bytes per job instead of 8);
 * from the first value that is not, the chunks are doubles. Either way the numbers read back
 * are the ones pushed, so the summary is the same to the bit.
 */
class CompactColumn {
  private chunks: (Int32Array | Float64Array)[] = [];
  private current: Int32Array | Float64Array = new Int32Array(FIRST_CHUNK);
  private fill = 0;
  private integers = true;
  length = 0;

  push(v: number): void {
    if (this.integers && !isInt32(v)) this.toDoubles();
    if (this.fill === this.current.length) {
      this.chunks.push(this.current);
      const size = Math.min(2 * this.current.length, LAST_CHUNK);
      this.current = this.integers ? new Int32Array(size) : new Float64Array(size);
      this.fill = 0;
    }
    this.current[this.fill++] = v;
    this.length++;
  }

  /** From now on, doubles (the full chunks keep their integers: they read back the same). */
  private toDoubles(): void {
    this.integers = false;
    this.current = Float64Array.from(this.current);
  }

  /**
   * The values pushed, in one array: `spare`'s first `length` entries when it is of the
   * column's kind and long enough, else a new array (the column is empty afterwards: its chunks
   * are let go).
   */
  take(spare?: Int32Array | Float64Array): Int32Array | Float64Array {
    const fits =
      spare !== undefined &&
      spare.length >= this.length &&
      spare instanceof (this.integers ? Int32Array : Float64Array);
    const out = fits
      ? spare.subarray(0, this.length)
      : this.integers
        ? new Int32Array(this.length)
        : new Float64Array(this.length);
    let at = 0;
    for (const chunk of this.chunks) {
      out.set(chunk, at);
      at += chunk.length;
    }
    out.set(this.current.subarray(0, this.fill), at);
    this.chunks = [];
    this.current = new Int32Array(0);
    this.fill = 0;
    return out;
  }
}

/**
 * {@link summarizeJobs} one job at a time, for jobs that arrive from a stream (a trace read
 * line by line): `add` each job, then `summary`. Memory: four numbers per job (submit, cores,
 * run time, estimate), 4 bytes each while they are 32-bit integers (as in SWF) and 8 otherwise,
 * plus, at the end, one column at a time read back whole and the gaps; never the jobs. The
 * summary is the one `summarizeJobs` gives for the same jobs in the same order, bit for bit.
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
  private readonly submits = new CompactColumn();
  private readonly cores = new CompactColumn();
  private readonly runtimes = new CompactColumn();
  private readonly estimates = new CompactColumn();
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
    // One column at a time, read back into one array that each next column of the same kind
    // reuses (`take(spare)`), so that summarizing allocates about two columns' worth in all.
    const submits = this.submits.take().sort();
    const firstSubmit = submits[0]!;
    const lastSubmit = submits[n - 1]!;
    const span = lastSubmit - firstSubmit;
    // Gaps of integer submit times are integers too (32-bit ones when the span is).
    const gaps =
      submits instanceof Int32Array && isInt32(span)
        ? new Int32Array(Math.max(0, n - 1))
        : new Float64Array(Math.max(0, n - 1));
    for (let i = 1; i < n; i++) gaps[i - 1] = submits[i]! - submits[i - 1]!;
    const interArrival = n < 2 ? null : distribution(gaps);
    // The submit times' array is free for the other columns.
    let spare: Int32Array | Float64Array = submits;
    const next = (column: CompactColumn): Distribution => {
      const values = column.take(spare);
      if (values.buffer !== spare.buffer) spare = values; // another kind: reuse this one next
      return distribution(values);
    };
    const cores = next(this.cores);
    const runtime = next(this.runtimes);
    const estimate = next(this.estimates);
    const work = this.work;
    return {
      jobs: n,
      firstSubmit,
      lastSubmit,
      span,
      cores,
      runtime,
      estimate,
      interArrival,
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
 * Complexity: O(n log n); memory four numbers per job (see {@link WorkloadSummarizer}).
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
