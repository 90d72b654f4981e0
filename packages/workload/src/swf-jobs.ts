import { InvalidInputError, type Job, ParseError } from "@sched/core";
import { optionKeys, requireBoolean, requireKnownKeys, requireOneOf } from "@sched/errors";
import { jobTimeProblem } from "./job-times.js";
import { KeptIds } from "./kept-ids.js";
import { requireIterable } from "./require-iterable.js";
import { type SwfOrigin, swfOriginOf } from "./swf-origin.js";
import { SWF_UNKNOWN, type SwfRecord } from "./swf-record.js";

/**
 * The hints of the errors that the clean-up would avoid, in the API's words, always as a last
 * parenthesis `(or set options.…)` (so a command line can say the same with its own options).
 */
const DROP_HINT = " (or set options.clean to drop such jobs)";
const DROP_OR_RUNTIME_HINT =
  ' (or set options.clean to drop such jobs, or set options.estimate to "runtime" to use the run time as the estimate)';

/** The id-like fields that become optional `Job` properties: -1 (unknown) or an integer >= 0. */
const OPTIONAL_IDS = [
  ["userId", "user id (field 12)"],
  ["groupId", "group id (field 13)"],
  ["queue", "queue (field 15)"],
  ["partition", "partition (field 16)"],
] as const;

/** Whether `v` is not what an id-like field may be: -1 (unknown) or an integer >= 0. */
function notAnId(v: number): boolean {
  return v !== SWF_UNKNOWN && !(Number.isSafeInteger(v) && v >= 0);
}

/** Options of {@link swfToJobs}. */
export interface SwfToJobsOptions {
  /**
   * Apply the conventional clean-up before simulating a log (what the classic simulators do):
   * drop jobs whose run time (field 4), size (field 5, or 8 when 5 is unknown) or requested
   * time (field 9) is not positive, and cap the run time at the requested time. Everything it
   * changes is listed in the returned {@link SwfCleanupReport}. Without it, such a record is an
   * error.
   * @defaultValue `false`
   */
  readonly clean?: boolean;
  /**
   * Where a job's estimate comes from: `"requested"` is the requested time (field 9);
   * `"runtime"` is the run time itself (exact estimates), for logs that have no requested time
   * (the NASA iPSC/860 log); then field 9 is neither checked, dropped on, nor capped at.
   * @defaultValue `"requested"`
   */
  readonly estimate?: "requested" | "runtime";
}

/** The keys of {@link SwfToJobsOptions}, all of them (checked by the compiler). Internal. */
export const SWF_TO_JOBS_KEYS = optionKeys<SwfToJobsOptions>({
  clean: true,
  estimate: true,
});

/**
 * What {@link swfToJobs} did to the records. Every list holds SWF job numbers (field 1), in
 * input order. A dropped job is listed under the first reason that applies, in the order
 * run time, processors, requested time.
 */
export interface SwfCleanupReport {
  /** Records read. */
  readonly records: number;
  /** Jobs returned. */
  readonly jobs: number;
  /** Dropped (clean-up only): run time (field 4) not positive. */
  readonly droppedRuntime: readonly number[];
  /** Dropped (clean-up only): neither allocated (5) nor requested (8) processors positive. */
  readonly droppedProcs: readonly number[];
  /** Dropped (clean-up only, estimate `"requested"`): requested time (field 9) not positive. */
  readonly droppedRequestedTime: readonly number[];
  /** Run time was above the requested time and was capped at it (clean-up only). */
  readonly runtimeCapped: readonly number[];
  /** Size taken from the allocated processors (5) where it differs from the requested (8). */
  readonly sizeFromAllocated: readonly number[];
  /** Allocated processors unknown: size taken from the requested processors (8). */
  readonly sizeFromRequested: readonly number[];
}

/** Jobs converted from SWF records, and what the conversion changed. */
export interface SwfJobs {
  readonly jobs: readonly Job[];
  readonly report: SwfCleanupReport;
}

/** The resolved options of {@link swfToJobs}. Internal. */
export interface ResolvedSwfToJobsOptions {
  readonly clean: boolean;
  readonly estimate: "requested" | "runtime";
}

/** Fills and checks the options of {@link swfToJobs}. Internal. */
export function resolveSwfToJobsOptions(
  where: string,
  options: SwfToJobsOptions,
): ResolvedSwfToJobsOptions {
  const clean = requireBoolean(where, "options.clean", options.clean ?? false);
  const estimate = options.estimate ?? "requested";
  requireOneOf(where, "options.estimate", estimate, ["requested", "runtime"]);
  return { clean, estimate };
}

/**
 * Converts records one at a time: `add` returns the job, or null for a record the clean-up
 * dropped. Internal: shared by the sync, async and chunked entry points, which keep the jobs or
 * pass them on.
 *
 * A record that fails is named by its line when `origin` knows it (a ParseError
 * `source:line: (job N) field …`), else by its index (an InvalidInputError
 * `records[i] (job N) field …`). The origin is asked only then: the line is a reader's counter,
 * never a string or an object per record.
 */
export class SwfJobConverter {
  private index = 0;
  private kept = 0;
  private readonly ids = new KeptIds();
  private readonly droppedRuntime: number[] = [];
  private readonly droppedProcs: number[] = [];
  private readonly droppedRequestedTime: number[] = [];
  private readonly runtimeCapped: number[] = [];
  private readonly sizeFromAllocated: number[] = [];
  private readonly sizeFromRequested: number[] = [];

  constructor(
    private readonly where: string,
    private readonly opts: ResolvedSwfToJobsOptions,
    private readonly origin: SwfOrigin | null = null,
  ) {}

  private fail(r: SwfRecord, field: string, detail: string): never {
    const line = this.origin === null ? 0 : this.origin.line(r, this.index);
    if (line > 0) {
      // `file:line: …` (the form editors jump to), then the words of the records[i] form; the
      // field is named in the message only (`ParseError.field` would print as `field: detail`).
      throw new ParseError(
        this.where,
        { source: this.origin!.source, line },
        `(job ${r.jobNumber}) ${field} ${detail}`,
      );
    }
    throw new InvalidInputError(
      this.where,
      `records[${this.index}] (job ${r.jobNumber}) ${field}`,
      detail,
    );
  }

  /** The error of OPTIONAL_IDS[`k`], of value `v`. */
  private notAnId(r: SwfRecord, k: number, v: number): never {
    this.fail(r, OPTIONAL_IDS[k]![1], `is ${v}, expected an integer >= 0, or -1 for unknown`);
  }

  add(r: SwfRecord): Job | null {
    const { clean, estimate: estimateFrom } = this.opts;
    const id = r.jobNumber;
    if (!Number.isSafeInteger(id) || id < 0) {
      this.fail(r, "job number (field 1)", `is ${id}, expected an integer >= 0`);
    }
    // Every record, kept or dropped, names one job: a number seen twice is an error either way.
    if (!this.ids.add(id)) this.fail(r, "job number (field 1)", `${id} appears twice`);
    if (!(r.submitTime >= 0) || !Number.isFinite(r.submitTime)) {
      this.fail(r, "submit time (field 2)", `is ${r.submitTime}, expected a number >= 0`);
    }
    // The four in OPTIONAL_IDS' order, each read by its name (a loop over the names read them
    // with a keyed load of four names, a lookup per field on every record).
    if (notAnId(r.userId)) this.notAnId(r, 0, r.userId);
    if (notAnId(r.groupId)) this.notAnId(r, 1, r.groupId);
    if (notAnId(r.queue)) this.notAnId(r, 2, r.queue);
    if (notAnId(r.partition)) this.notAnId(r, 3, r.partition);
    const size = r.allocatedProcs > 0 ? r.allocatedProcs : r.requestedProcs;
    let runtime = r.runTime;
    if (!(runtime > 0)) {
      if (!clean) this.fail(r, "run time (field 4)", `is ${runtime}, expected > 0${DROP_HINT}`);
      this.droppedRuntime.push(id);
      this.index++;
      return null;
    }
    if (!(size > 0)) {
      if (!clean) {
        this.fail(
          r,
          "processors (fields 5 and 8)",
          `are ${r.allocatedProcs} and ${r.requestedProcs}, expected one > 0${DROP_HINT}`,
        );
      }
      this.droppedProcs.push(id);
      this.index++;
      return null;
    }
    let estimate = runtime;
    if (estimateFrom === "requested") {
      estimate = r.requestedTime;
      if (!(estimate > 0)) {
        if (!clean) {
          this.fail(
            r,
            "requested time (field 9)",
            `is ${estimate}, expected > 0${DROP_OR_RUNTIME_HINT}`,
          );
        }
        this.droppedRequestedTime.push(id);
        this.index++;
        return null;
      }
      if (clean && runtime > estimate) {
        runtime = estimate;
        this.runtimeCapped.push(id);
      }
    }
    if (!Number.isSafeInteger(size)) {
      this.fail(r, "processors (fields 5 and 8)", `is ${size}, expected an integer`);
    }
    if (r.allocatedProcs > 0) {
      if (r.requestedProcs > 0 && r.requestedProcs !== r.allocatedProcs) {
        this.sizeFromAllocated.push(id);
      }
    } else {
      this.sizeFromRequested.push(id);
    }
    const job: { -readonly [K in keyof Job]: Job[K] } = {
      id,
      submit: r.submitTime,
      runtime,
      estimate,
      cores: size,
    };
    const problem = jobTimeProblem(job);
    if (problem !== null) {
      const field =
        problem.field === "submit"
          ? "submit time (field 2)"
          : problem.field === "estimate" && estimateFrom === "requested"
            ? "requested time (field 9)"
            : "run time (field 4)";
      this.fail(r, field, problem.detail);
    }
    if (r.userId >= 0) job.user = r.userId;
    if (r.groupId >= 0) job.group = r.groupId;
    if (r.queue >= 0) job.queue = r.queue;
    if (r.partition >= 0) job.partition = r.partition;
    this.index++;
    this.kept++;
    return job;
  }

  /** What the conversion did, so far. */
  report(): SwfCleanupReport {
    return {
      records: this.index,
      jobs: this.kept,
      droppedRuntime: this.droppedRuntime,
      droppedProcs: this.droppedProcs,
      droppedRequestedTime: this.droppedRequestedTime,
      runtimeCapped: this.runtimeCapped,
      sizeFromAllocated: this.sizeFromAllocated,
      sizeFromRequested: this.sizeFromRequested,
    };
  }
}

/**
 * Converts SWF records to @sched/core `Job`s, in input order: `id` = job number (1),
 * `submit` = submit time (2), `runtime` = run time (4), `cores` = allocated processors (5),
 * or requested processors (8) when 5 is unknown, `estimate` = requested time (9) (or the run
 * time, see `options.estimate`), and `user`, `group`, `queue`, `partition` (12, 13, 15, 16)
 * when known (not -1). With `clean: true` it applies the conventional clean-up; the report
 * says what changed either way.
 *
 * Records read from a text name their line in the errors: the `records` array that
 * {@link parseSwf} or {@link readSwfTrace} returned (as it is, or sorted in place), or a
 * generator of {@link readSwfLinesSync} / {@link readSwfLines} handed over as it is. Records in
 * an array or iterable of your own (built, or a filtered copy) are named by their index in it.
 *
 * Complexity: O(n).
 *
 * @throws ParseError naming the source and line (`source`, `line`), then the job and the field
 *   (`kth.swf:1043: (job 1042) run time (field 4) is 0, expected > 0 …`), for a record read
 *   from a text, or InvalidInputError naming the record, the job and the field
 *   (`records[3] (job 7) run time (field 4) is 0, …`), for a record you built, when a job
 *   number is not a non-negative integer or appears twice (among all records, dropped or kept),
 *   a submit time is negative, a user, group, queue or partition is neither -1 nor an integer
 *   >= 0, the size is fractional, a time breaks {@link jobTimeProblem}'s rules (beyond 2^53 − 1
 *   s, or a run time or estimate too short to survive being added to the submit time), or
 *   (without `clean`) a run time, size or requested time is not positive; the message then ends
 *   with a hint `(or set options.clean …)`.
 *
 * @example
 * ```ts
 * const { jobs, report } = swfToJobs(parseSwf(text, { source: "kth.swf" }).records, { clean: true });
 * report.droppedRuntime.length; // jobs dropped for a run time <= 0
 * ```
 */
export function swfToJobs(records: Iterable<SwfRecord>, options: SwfToJobsOptions = {}): SwfJobs {
  const where = "@sched/workload/swfToJobs";
  requireKnownKeys(where, "options", options, SWF_TO_JOBS_KEYS);
  requireIterable(where, "records", records, "SWF records");
  const c = new SwfJobConverter(
    where,
    resolveSwfToJobsOptions(where, options),
    swfOriginOf(records),
  );
  const jobs: Job[] = [];
  for (const r of records) {
    const job = c.add(r);
    if (job !== null) jobs.push(job);
  }
  return { jobs, report: c.report() };
}

/**
 * {@link swfToJobs} over records that arrive asynchronously (from {@link readSwfLines}), so a
 * large trace is never held as records, only as the jobs it becomes.
 *
 * Complexity: O(n).
 *
 * @throws ParseError or InvalidInputError as {@link swfToJobs} (where
 *   `@sched/workload/swfToJobsAsync`): a generator of {@link readSwfLines} handed over as it is
 *   names the line of a record that fails.
 *
 * @example
 * ```ts
 * const { jobs, report } = await swfToJobsAsync(readSwfLines(lines, { source: "kth.swf" }), { clean: true });
 * ```
 */
export async function swfToJobsAsync(
  records: Iterable<SwfRecord> | AsyncIterable<SwfRecord>,
  options: SwfToJobsOptions = {},
): Promise<SwfJobs> {
  const where = "@sched/workload/swfToJobsAsync";
  requireKnownKeys(where, "options", options, SWF_TO_JOBS_KEYS);
  const c = new SwfJobConverter(
    where,
    resolveSwfToJobsOptions(where, options),
    swfOriginOf(records),
  );
  const jobs: Job[] = [];
  for await (const r of records) {
    const job = c.add(r);
    if (job !== null) jobs.push(job);
  }
  return { jobs, report: c.report() };
}
