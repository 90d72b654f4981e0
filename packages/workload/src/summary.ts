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

function distribution(values: ColumnArray | Uint16Array | Uint32Array): Distribution {
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

/** Values in the first chunk of a {@link Chunks}; each next one is twice as large, up to {@link LAST_CHUNK}. */
const FIRST_CHUNK = 4096;
/** The largest chunk (4 MB as 32-bit integers: allocated, and given back, on its own). */
const LAST_CHUNK = 1 << 20;

/** Whether `v` is held exactly by an `Int32Array` (an integer in range; not -0). */
const isInt32 = (v: number): boolean => (v | 0) === v && (v !== 0 || 1 / v > 0);

/** Whether `v` is held exactly by an `Int16Array` (an integer in range; not -0). */
const isInt16 = (v: number): boolean => (v << 16) >> 16 === v && (v !== 0 || 1 / v > 0);

/** The arrays a {@link CompactColumn} keeps its values in. */
type ColumnArray = Int16Array | Int32Array | Float64Array;

/** An array of `length` values of `bytes` bytes each (2 and 4: integers) over `buffer`, or a new one. */
function columnArray(bytes: 2 | 4 | 8, length: number, buffer?: ArrayBuffer): ColumnArray {
  const Kind = bytes === 2 ? Int16Array : bytes === 4 ? Int32Array : Float64Array;
  return buffer === undefined ? new Kind(length) : new Kind(buffer, 0, length);
}

/**
 * Numbers in chunks (4,096 values, then twice as many each time up to a million), so that growing
 * never copies and a short list stays small: 16-bit integers while every value is one, then
 * 32-bit ones, and from the first value that is neither, doubles (each full chunk keeps its
 * kind; the numbers read back are the ones pushed).
 */
class Chunks {
  private chunks: ColumnArray[] = [];
  private current: ColumnArray = new Int16Array(FIRST_CHUNK);
  private fill = 0;
  /** Bytes per value: 2 and 4 while every value is an integer of 16 and 32 bits, else 8. */
  bytes: 2 | 4 | 8 = 2;
  length = 0;

  push(v: number): void {
    if (this.bytes !== 8 && !(this.bytes === 2 ? isInt16(v) : isInt32(v))) this.widen(v);
    if (this.fill === this.current.length) {
      this.chunks.push(this.current);
      const size = Math.min(2 * this.current.length, LAST_CHUNK);
      this.current = columnArray(this.bytes, size);
      this.fill = 0;
    }
    this.current[this.fill++] = v;
    this.length++;
  }

  /** From now on, values of the kind that holds `v` (the full chunks keep theirs: they read back the same). */
  private widen(v: number): void {
    this.bytes = isInt32(v) ? 4 : 8;
    const wider = columnArray(this.bytes, this.current.length);
    wider.set(this.current);
    this.current = wider;
  }

  /** The values pushed, in order, chunk by chunk (the last one a view of its filled part). */
  parts(): ColumnArray[] {
    return [...this.chunks, this.current.subarray(0, this.fill)];
  }

  /** Lets the chunks go (the list is empty and takes no more values). */
  release(): void {
    this.chunks = [];
    this.current = EMPTY;
    this.fill = 0;
  }
}

/** What a {@link CompactColumn}'s 16-bit chunks hold for a value kept in its wide ones. */
const OUT = -32768;

/**
 * A column of numbers that grows as jobs come, summarized once: sorted chunk by chunk where it
 * is ({@link CompactColumn.figures}), or read back into one array and sorted there. Each value
 * is a 16-bit integer in `narrow` (a job's cores; most run times and gaps between submit times
 * in seconds: 2 bytes), or {@link OUT} there and the value in `wide` ({@link Chunks}: 32-bit
 * integers, 4 bytes, as an SWF trace's times, else doubles), in the same order. From the first
 * 4,096 values on, once half of the values or more are wide (`2 + 4` bytes each instead of 4),
 * `narrow` is closed: every next value is in `wide`, after those `narrow` points to. Either way
 * the numbers read back are the ones pushed, so the summary is the same to the bit.
 */
class CompactColumn {
  private readonly narrow = new Chunks();
  private readonly wide = new Chunks();
  /** Whether values still go to `narrow` first. */
  private open = true;
  length = 0;

  /** Bytes per value of the array {@link take} reads the column into: 2, 4 (integers) or 8. */
  get bytes(): 2 | 4 | 8 {
    return this.wide.bytes;
  }

  push(v: number): void {
    if (this.open) {
      if (v !== OUT && isInt16(v)) {
        this.narrow.push(v);
        this.length++;
        return;
      }
      this.narrow.push(OUT);
      if (2 * this.wide.length >= this.narrow.length && this.narrow.length >= FIRST_CHUNK) {
        this.open = false;
      }
    }
    this.wide.push(v);
    this.length++;
  }

  /**
   * The values pushed, in any order (they are sorted next), in an array of {@link bytes} bytes
   * per value over the start of `buffer` (which must hold them). The column is empty afterwards:
   * its chunks are let go.
   */
  take(buffer: ArrayBuffer): ColumnArray {
    const out = columnArray(this.bytes, this.length, buffer);
    let at = 0;
    for (const part of this.narrow.parts()) {
      for (let i = 0; i < part.length; i++) {
        const v = part[i]!;
        if (v !== OUT) out[at++] = v;
      }
    }
    for (const part of this.wide.parts()) {
      out.set(part, at);
      at += part.length;
    }
    this.release();
    return out;
  }

  /**
   * The figures of the values pushed, from the chunks themselves, each sorted in place (no
   * copy): when every value is an integer (of 32 bits at most) and their count times the
   * largest magnitude is at most 2^53, so that their sum is exact, the same in any order as in
   * sorted order. Null otherwise (then {@link take} reads them back). At least one value.
   */
  figures(): Distribution | null {
    if (this.bytes === 8) return null;
    const parts: IntegerPart[] = [];
    for (const part of this.narrow.parts() as Int16Array[]) {
      part.sort();
      parts.push(part.subarray(countAtMost(part, OUT))); // the OUT marks sort first
    }
    for (const part of this.wide.parts() as IntegerPart[]) parts.push(part.sort());
    let min = Number.POSITIVE_INFINITY;
    let max = Number.NEGATIVE_INFINITY;
    for (const part of parts) {
      if (part.length === 0) continue;
      min = Math.min(min, part[0]!);
      max = Math.max(max, part[part.length - 1]!);
    }
    const n = this.length;
    if (n * Math.max(-min, max) > 2 ** 53) return null;
    let sum = 0;
    for (const part of parts) for (let i = 0; i < part.length; i++) sum += part[i]!;
    const at = (q: number) => valueAtRank(parts, Math.max(0, Math.ceil(q * n) - 1), min, max);
    const figures = {
      min,
      q25: at(0.25),
      median: at(0.5),
      q75: at(0.75),
      q90: at(0.9),
      max,
      mean: sum / n,
    };
    this.release();
    return figures;
  }

  /** Each value pushed so far, in order, to `visit`. */
  forEach(visit: (v: number) => void): void {
    this.walk(visit, false);
  }

  /** Each value pushed, in order, to `visit`; each chunk let go once read (the column is empty afterwards). */
  drain(visit: (v: number) => void): void {
    this.walk(visit, true);
  }

  /** The values in order: `narrow`'s, each {@link OUT} the next of `wide`'s, then the rest of `wide`'s. */
  private walk(visit: (v: number) => void, release: boolean): void {
    const narrow = this.narrow.parts();
    const wide = this.wide.parts();
    if (release) this.release();
    let w = 0;
    let i = 0;
    const next = (): number => {
      while (i === wide[w]!.length) {
        if (release) wide[w] = EMPTY;
        w++;
        i = 0;
      }
      return wide[w]![i++]!;
    };
    for (let c = 0; c < narrow.length; c++) {
      const part = narrow[c]!;
      if (release) narrow[c] = EMPTY;
      for (let j = 0; j < part.length; j++) {
        const v = part[j]!;
        visit(v === OUT ? next() : v);
      }
    }
    for (; w < wide.length; w++, i = 0) {
      const part = wide[w]!;
      if (release) wide[w] = EMPTY;
      for (; i < part.length; i++) visit(part[i]!);
    }
  }

  private release(): void {
    this.narrow.release();
    this.wide.release();
  }
}

/**
 * The value at 0-based rank `k` of the integers in the sorted `parts` (all of them between `lo`
 * and `hi`): the least integer with more than `k` values at most it, by bisection on the value
 * (each step counts with a binary search in each part).
 */
function valueAtRank(parts: readonly IntegerPart[], k: number, lo: number, hi: number): number {
  while (lo < hi) {
    const mid = Math.floor((lo + hi) / 2);
    let count = 0;
    for (const part of parts) count += countAtMost(part, mid);
    if (count > k) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/** How many values of the sorted `part` are at most `v`. */
function countAtMost(part: IntegerPart, v: number): number {
  let lo = 0;
  let hi = part.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (part[mid]! <= v) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** A chunk of a column of integers. */
type IntegerPart = Int16Array | Int32Array;

/** What a column holds once read back. */
const EMPTY = new Int32Array(0);

/**
 * Whether a submit time can be kept as its gap to the one before (while the times come in
 * order): a whole number, not -0 (which sorts before 0 and gives -0 gaps), of magnitude at most
 * 2^52, so that the gap between two of them is exact and the times are rebuilt exactly from the
 * gaps when one comes out of order.
 */
const isOrderedTime = (t: number): boolean =>
  Number.isInteger(t) && Math.abs(t) <= 2 ** 52 && (t !== 0 || 1 / t > 0);

/**
 * The gaps between consecutive values of `sorted` (at least one value), written over it as it is
 * read (gap i over value i, once value i + 1 is read): its first `length - 1` entries, as
 * unsigned integers of the same size when the values are integers (the gap of two 32-bit ones
 * is 0 to 2^32 - 1), else as doubles. Each gap is the same number `sorted[i + 1] - sorted[i]`
 * gives.
 */
function gapsInPlace(sorted: ColumnArray): Uint16Array | Uint32Array | Float64Array {
  const n = sorted.length;
  const out =
    sorted instanceof Int16Array
      ? new Uint16Array(sorted.buffer, sorted.byteOffset, n - 1)
      : sorted instanceof Int32Array
        ? new Uint32Array(sorted.buffer, sorted.byteOffset, n - 1)
        : sorted.subarray(0, n - 1);
  let previous = sorted[0]!;
  for (let i = 1; i < n; i++) {
    const v = sorted[i]!;
    out[i - 1] = v - previous;
    previous = v;
  }
  return out;
}

/**
 * {@link summarizeJobs} one job at a time, for jobs that arrive from a stream (a trace read
 * line by line): `add` each job, then `summary`. Memory: at most four numbers per job (cores,
 * run time, estimate, and the submit time or its gap to the one before), each in 2 bytes while it
 * is a 16-bit integer (cores; most run times and gaps in seconds), else in 4 while it is a 32-bit
 * one (as in SWF) and 8 otherwise, plus 2 for its mark among the 16-bit ones while fewer than
 * half of the column's values are wide. No estimates while each is its run time (as in the Lublin
 * model's output); while the submit times come in order (whole numbers, as in a trace), the gaps
 * (integers of 16 or 32 bits below 2^31 s, however far the times go), else the times. At the
 * end, a column of integers is sorted chunk by chunk where it is (its quantiles found by
 * bisection over the sorted chunks); the others, and the submit times when they came out of
 * order, are read back whole, in turn, into one array and sorted there (their gaps written over
 * them). Never the jobs. The summary is the one `summarizeJobs` gives for the same jobs in the
 * same order, bit for bit.
 *
 * Complexity: O(1) amortized per `add` (O(jobs so far) once at the first submit time out of
 * order, and once at the first estimate that is not its run time); O(n log n) for `summary`.
 *
 * @example
 * ```ts
 * const s = new WorkloadSummarizer();
 * for await (const job of readJobsLines(lines)) s.add(job);
 * s.summary({ procs: 128 }).offeredLoad;
 * ```
 */
export class WorkloadSummarizer {
  /**
   * While {@link ordered}: the gaps between consecutive submit times (the first and last of them
   * in `firstSubmit`, `lastSubmit`); afterwards every submit time is in `submits`.
   */
  private readonly gaps = new CompactColumn();
  private readonly submits = new CompactColumn();
  private readonly cores = new CompactColumn();
  private readonly runtimes = new CompactColumn();
  /** Empty while {@link sameEstimates}: the estimates are the run times. */
  private readonly estimates = new CompactColumn();
  /** Whether every estimate so far was its job's run time (the same number, `Object.is`). */
  private sameEstimates = true;
  /** Whether every submit time so far passed {@link isOrderedTime} and none came before the one before it. */
  private ordered = true;
  private firstSubmit = 0;
  private lastSubmit = 0;
  private count = 0;
  private work = 0;
  private serial = 0;
  private pow2 = 0;
  private over = 0;
  private deadline = 0;
  private licenses = 0;
  private done = false;

  /** Jobs added so far. */
  get jobs(): number {
    return this.count;
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
    const submit = job.submit;
    if (!this.ordered) this.submits.push(submit);
    else if (!isOrderedTime(submit) || (this.count > 0 && submit < this.lastSubmit)) {
      this.unorder();
      this.submits.push(submit);
    } else {
      // The same number the sorted times' difference gives (the times are sorted as they come).
      if (this.count === 0) this.firstSubmit = submit;
      else this.gaps.push(submit - this.lastSubmit);
      this.lastSubmit = submit;
    }
    this.count++;
    this.cores.push(job.cores);
    if (!this.sameEstimates) this.estimates.push(job.estimate);
    else if (!Object.is(job.estimate, job.runtime)) {
      // The first estimate that is not its run time: the ones before it were.
      this.sameEstimates = false;
      const estimates = this.estimates;
      this.runtimes.forEach((v) => {
        estimates.push(v);
      });
      estimates.push(job.estimate);
    }
    this.runtimes.push(job.runtime);
    this.work += job.runtime * job.cores;
    if (job.cores === 1) this.serial++;
    else if ((job.cores & (job.cores - 1)) === 0) this.pow2++;
    if (job.runtime > job.estimate) this.over++;
    if (job.deadline !== undefined) this.deadline++;
    if (job.licenses !== undefined && Object.keys(job.licenses).length > 0) this.licenses++;
  }

  /**
   * The submit times so far, rebuilt from the first and the gaps (exact: whole numbers of at
   * most 2^52), into `submits`, for a submit time that is out of order or not kept as a gap.
   */
  private unorder(): void {
    this.ordered = false;
    if (this.count === 0) return;
    let t = this.firstSubmit;
    const submits = this.submits;
    submits.push(t);
    this.gaps.drain((gap) => {
      t += gap;
      submits.push(t);
    });
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
    const n = this.count;
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
    // A column of integers gives its figures from its own chunks; the others, and the
    // submit times when they came out of order, are read back, in turn, into one buffer (each
    // sorted there, read, then overwritten by the next): n values of the widest kind, made when
    // first needed, all that summarizing allocates.
    const times = this.ordered ? this.gaps : this.submits;
    const columns = [times, this.cores, this.runtimes, this.estimates];
    const bytes = n * Math.max(...columns.map((c) => c.bytes));
    let room: ArrayBuffer | undefined;
    const buffer = (): ArrayBuffer => {
      room ??= new ArrayBuffer(bytes);
      return room;
    };
    const figures = (c: CompactColumn) => c.figures() ?? distribution(c.take(buffer()));
    let firstSubmit: number;
    let lastSubmit: number;
    let gaps: Uint16Array | Uint32Array | Float64Array | undefined;
    if (this.ordered) {
      firstSubmit = this.firstSubmit;
      lastSubmit = this.lastSubmit;
    } else {
      const submits = this.submits.take(buffer()).sort();
      firstSubmit = submits[0]!;
      lastSubmit = submits[n - 1]!;
      gaps = gapsInPlace(submits);
    }
    const span = lastSubmit - firstSubmit;
    const interArrival =
      n < 2 ? null : gaps === undefined ? figures(this.gaps) : distribution(gaps);
    const cores = figures(this.cores);
    const runtime = figures(this.runtimes);
    // The run times' figures when each estimate was its run time (the same numbers, sorted).
    const estimate = this.sameEstimates ? { ...runtime } : figures(this.estimates);
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
