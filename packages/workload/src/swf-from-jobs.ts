import { InvalidInputError, type Job } from "@sched/core";
import { optionKeys, requireArray, requireInteger, requireKnownKeys } from "@sched/errors";
import {
  readUsualJob,
  repeatedJobId,
  requireWritableJob,
  type UsualJob,
  usualJobRecord,
} from "./jobs-json.js";
import { KeptIds } from "./kept-ids.js";
import { requireIterable } from "./require-iterable.js";
import { emptySwfHeader, requireWritableSwfHeader, type SwfHeader } from "./swf-header.js";
import type { SwfTrace } from "./swf-read.js";
import { SWF_UNKNOWN, type SwfRecord } from "./swf-record.js";

/** Options of {@link jobsToSwf}. */
export interface JobsToSwfOptions {
  /**
   * Processors of the machine, written as MaxProcs and MaxNodes.
   * @defaultValue not written
   */
  readonly maxProcs?: number;
  /**
   * Notes to add to the header (the generator and its parameters, say), after the conversion's own.
   * @defaultValue `[]`
   */
  readonly notes?: readonly string[];
}

/** The keys of {@link JobsToSwfOptions}, all of them (checked by the compiler). */
const TO_SWF_KEYS = optionKeys<JobsToSwfOptions>({
  maxProcs: true,
  notes: true,
});

/** Job fields that SWF cannot carry, in the order the Note names them (bit i of a mask: LOST[i]). */
const LOST = [
  "deadline",
  "ready",
  "licenses",
  "input",
  "benchmark",
  "maxParallelism",
  "tasks",
  "priority",
] as const;

/**
 * The fields of `j` SWF cannot carry, as bits of {@link LOST}. Each read by name, once (not in a
 * loop over LOST: a keyed read whose key changes goes megamorphic).
 */
function lostMask(j: Job | UsualJob): number {
  let mask = 0;
  if (j.deadline !== undefined) mask |= 1;
  if (j.ready !== undefined) mask |= 2;
  if (j.licenses !== undefined) mask |= 4;
  if (j.input !== undefined) mask |= 8;
  if (j.benchmark !== undefined) mask |= 16;
  if (j.maxParallelism !== undefined) mask |= 32;
  if (j.tasks !== undefined) mask |= 64;
  if (j.priority !== undefined) mask |= 128;
  return mask;
}

/**
 * Jobs (a workload, not a schedule) as an SWF trace, one record per job in input order: job
 * number = id, submit, run time = runtime, allocated and requested processors = cores, requested
 * time = estimate, status 1, user / group / queue / partition when set; wait and the rest -1.
 * `swfToJobs(records)` gives the same jobs back when they have only those fields. SWF has no
 * place for deadlines, ready times, licenses, input data, benchmarks, tasks, maximum
 * parallelism or priorities: a Note says how many jobs had any and which fields were dropped
 * (use the native JSON Lines format to keep them). A job without an estimate is written with its
 * run time as the requested time.
 *
 * @throws InvalidInputError naming the job (or the option) and the field when `swfToJobs` would
 * not give a job back (but for the dropped fields): a job the native readers refuse, an unknown
 * field, an id given twice, a negative user, group, queue or partition (SWF's -1 is "unknown");
 * `options.maxProcs` not an integer >= 1; a note the SWF writers refuse (`options.notes[i]`).
 *
 * Complexity: O(jobs).
 *
 * @example
 * ```ts
 * const { header, records } = jobsToSwf(parseJobsJsonl(text).jobs, { maxProcs: 256 });
 * ```
 */
export function jobsToSwf(jobs: Iterable<Job>, options: JobsToSwfOptions = {}): SwfTrace {
  const where = "@sched/workload/jobsToSwf";
  requireKnownKeys(where, "options", options, TO_SWF_KEYS);
  requireToSwfOptions(where, options);
  requireIterable(where, "jobs", jobs, "jobs");
  const records: SwfRecord[] = [];
  const tally = new JobsToSwfTally();
  for (const j of jobs) records.push(swfRecordOf(tally.count(where, j)));
  return { header: tally.headerOf(where, options), records };
}

/** SWF's id-like fields of a job, which it holds as an integer >= 0 (-1 there is "unknown"). */
const SWF_IDS = [
  ["user", "user id (field 12)"],
  ["group", "group id (field 13)"],
  ["queue", "queue (field 15)"],
  ["partition", "partition (field 16)"],
] as const;

/** Where {@link swfFields} reads a usual job's fields (one record: one shape for the reads after). */
const USUAL = usualJobRecord();

/**
 * Checks that `job` reads back through `swfToJobs` as itself, but for the fields SWF cannot hold
 * (which the header's Note counts): a job as the native reader takes it (`requireWritableJob`),
 * with user, group, queue and partition, when set, integers >= 0. Returns where to read its
 * fields: a usual job's record as `readUsualJob` read it, in one for-in over its keys (in
 * {@link USUAL}, until the next call); any other job (a class instance, a job without an
 * estimate) itself, to be read by name once the full check has passed, as the JSON Lines writers
 * read it (a class's getters are fields too). Read by name from every job, twice, the fields cost
 * about as much again as the check once the process had seen jobs of several shapes. Internal.
 * @throws InvalidInputError from `where` naming `job <id>` and the field.
 */
function swfFields(where: string, job: Job): UsualJob | Job {
  const u = USUAL;
  if (
    readUsualJob(job, u) &&
    (u.user === undefined || u.user >= 0) &&
    (u.group === undefined || u.group >= 0) &&
    (u.queue === undefined || u.queue >= 0) &&
    (u.partition === undefined || u.partition >= 0)
  ) {
    return u;
  }
  requireSwfWritableJob(where, job);
  return job;
}

/**
 * {@link swfFields}'s full check, which names the field.
 * @throws InvalidInputError from `where` naming `job <id>` and the field.
 */
function requireSwfWritableJob(where: string, job: Job): void {
  requireWritableJob(job, where);
  for (const [k, column] of SWF_IDS) {
    const v = job[k];
    if (v !== undefined && v < 0) {
      throw new InvalidInputError(
        where,
        `job ${job.id} ${k}`,
        `is ${v}, expected an integer >= 0: SWF's ${column} holds no other (-1 there means unknown)`,
      );
    }
  }
}

/** Checks jobsToSwf's options: maxProcs an integer >= 1, notes an array (its texts checked with the header). */
function requireToSwfOptions(where: string, options: JobsToSwfOptions): void {
  if (options.maxProcs !== undefined)
    requireInteger(where, "options.maxProcs", options.maxProcs, 1);
  if (options.notes !== undefined) requireArray(where, "options.notes", options.notes);
}

/**
 * One job as the SWF record {@link jobsToSwf} writes for it (the fields SWF cannot hold are left
 * out; {@link JobsToSwfTally} counts them for the header).
 *
 * Complexity: O(1).
 *
 * @throws InvalidInputError naming the job and the field, as {@link jobsToSwf} (but for a repeated
 * id, which only the tally sees).
 */
export function jobToSwfRecord(j: Job): SwfRecord {
  return swfRecordOf(swfFields("@sched/workload/jobToSwfRecord", j));
}

/** The record of {@link jobToSwfRecord}, from the fields {@link swfFields} gave. */
function swfRecordOf(j: UsualJob | Job): SwfRecord {
  // checked by swfFields: id, submit, runtime and cores are set (and estimate in a usual job)
  const cores = j.cores as number;
  return {
    jobNumber: j.id as number,
    submitTime: j.submit as number,
    waitTime: SWF_UNKNOWN,
    runTime: j.runtime as number,
    allocatedProcs: cores,
    avgCpuTime: SWF_UNKNOWN,
    usedMemory: SWF_UNKNOWN,
    requestedProcs: cores,
    requestedTime: j.estimate ?? (j.runtime as number),
    requestedMemory: SWF_UNKNOWN,
    status: 1,
    userId: j.user ?? SWF_UNKNOWN,
    groupId: j.group ?? SWF_UNKNOWN,
    executable: SWF_UNKNOWN,
    queue: j.queue ?? SWF_UNKNOWN,
    partition: j.partition ?? SWF_UNKNOWN,
    precedingJob: SWF_UNKNOWN,
    thinkTime: SWF_UNKNOWN,
  };
}

/**
 * The whole-trace facts of {@link jobsToSwf}'s header, gathered one job at a time, for a trace
 * converted in two passes (count in the first, write the records with an `SwfWriter` in the
 * second) without holding it: `header(options)` is the header `jobsToSwf` gives for the jobs
 * added (the same object, field for field).
 *
 * Complexity: O(1) per job. Memory: the ids added, to refuse a repeated one (a few runs while they
 * increase, as the generators and the archive's logs give them; 5.3 to 11 bytes an id out of order).
 *
 * @example
 * ```ts
 * const tally = new JobsToSwfTally();
 * for (const j of jobs()) tally.add(j);
 * writer.header(tally.header({ maxProcs: 256 }));
 * for (const j of jobs()) writer.record(jobToSwfRecord(j));
 * ```
 */
export class JobsToSwfTally {
  private added = 0;
  private lossy = 0;
  /** The fields SWF cannot hold that some job had, as bits of LOST. */
  private dropped = 0;
  private readonly ids = new KeptIds();

  /**
   * Counts `job`, and which fields SWF cannot hold it has.
   * @throws InvalidInputError naming the job and the field when `swfToJobs` would not read the
   * job back as itself (as `jobToSwfRecord`), or when its id was added before.
   */
  add(job: Job): void {
    this.count("@sched/workload/JobsToSwfTally.add", job);
  }

  /**
   * {@link add} with errors from `where`; the job's fields as {@link swfFields} gives them (valid
   * until the next job). Internal.
   */
  count(where: string, job: Job): UsualJob | Job {
    const fields = swfFields(where, job);
    const id = fields.id as number;
    if (!this.ids.add(id)) throw repeatedJobId(where, id);
    const lost = lostMask(fields);
    if (lost !== 0) {
      this.dropped |= lost;
      this.lossy++;
    }
    this.added++;
    return fields;
  }

  /** Jobs added so far. */
  get jobs(): number {
    return this.added;
  }

  /**
   * The header of {@link jobsToSwf} for the jobs added.
   * @throws InvalidInputError for an unknown option.
   */
  header(options: JobsToSwfOptions = {}): SwfHeader {
    const where = "@sched/workload/JobsToSwfTally.header";
    requireKnownKeys(where, "options", options, TO_SWF_KEYS);
    requireToSwfOptions(where, options);
    return this.headerOf(where, options);
  }

  /**
   * {@link header} with errors from `where`, options' keys and kinds checked: the notes are
   * checked as the SWF writers check a header, named `options.notes[i]`. Internal.
   */
  headerOf(where: string, options: JobsToSwfOptions): SwfHeader {
    const notes = ["converted from @sched jobs by @sched/workload"];
    if (this.lossy > 0) {
      notes.push(
        `${this.lossy} of ${this.added} jobs had fields SWF cannot hold, dropped: ${LOST.filter((_, i) => (this.dropped & (1 << i)) !== 0).join(", ")}`,
      );
    }
    notes.push(...(options.notes ?? []));
    const base = {
      ...emptySwfHeader(),
      version: "2.2",
      maxJobs: this.added,
      maxRecords: this.added,
      notes,
    };
    const header =
      options.maxProcs === undefined
        ? base
        : { ...base, maxNodes: options.maxProcs, maxProcs: options.maxProcs };
    const own = notes.length - (options.notes?.length ?? 0);
    try {
      requireWritableSwfHeader(where, header);
    } catch (error) {
      if (!(error instanceof InvalidInputError)) throw error;
      const at = /^header\.notes\[(\d+)\]/.exec(error.field);
      if (at === null) throw error;
      const field = `options.notes[${Number(at[1]) - own}]`;
      const detail = error.message.slice(`${where}: ${error.field} `.length);
      throw new InvalidInputError(where, field, detail, { cause: error });
    }
    return header;
  }
}
