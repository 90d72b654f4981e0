import type { Job } from "@sched/core";
import { optionKeys, requireKnownKeys } from "@sched/errors";
import { requireIterable } from "./require-iterable.js";
import { emptySwfHeader, type SwfHeader } from "./swf-header.js";
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

/** Job fields that SWF cannot carry. */
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
 * Jobs (a workload, not a schedule) as an SWF trace, one record per job in input order: job
 * number = id, submit, run time = runtime, allocated and requested processors = cores, requested
 * time = estimate, status 1, user / group / queue / partition when set; wait and the rest -1.
 * `swfToJobs(records)` gives the same jobs back when they have only those fields. SWF has no
 * place for deadlines, ready times, licenses, input data, benchmarks, tasks, maximum
 * parallelism or priorities: a Note says how many jobs had any and which fields were dropped
 * (use the native JSON Lines format to keep them).
 *
 * Complexity: O(jobs).
 *
 * @example
 * ```ts
 * const { header, records } = jobsToSwf(parseJobsJsonl(text).jobs, { maxProcs: 256 });
 * ```
 */
export function jobsToSwf(jobs: Iterable<Job>, options: JobsToSwfOptions = {}): SwfTrace {
  requireKnownKeys("@sched/workload/jobsToSwf", "options", options, TO_SWF_KEYS);
  requireIterable("@sched/workload/jobsToSwf", "jobs", jobs, "jobs");
  const records: SwfRecord[] = [];
  const tally = new JobsToSwfTally();
  for (const j of jobs) {
    tally.add(j);
    records.push(jobToSwfRecord(j));
  }
  return { header: tally.header(options), records };
}

/**
 * One job as the SWF record {@link jobsToSwf} writes for it (the fields SWF cannot hold are left
 * out; {@link JobsToSwfTally} counts them for the header).
 *
 * Complexity: O(1).
 */
export function jobToSwfRecord(j: Job): SwfRecord {
  return {
    jobNumber: j.id,
    submitTime: j.submit,
    waitTime: SWF_UNKNOWN,
    runTime: j.runtime,
    allocatedProcs: j.cores,
    avgCpuTime: SWF_UNKNOWN,
    usedMemory: SWF_UNKNOWN,
    requestedProcs: j.cores,
    requestedTime: j.estimate,
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
 * Complexity: O(1) per job; memory O(1).
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
  private count = 0;
  private lossy = 0;
  private readonly dropped = new Set<string>();

  /** Counts `job`, and which fields SWF cannot hold it has. */
  add(job: Job): void {
    let lost = false;
    for (const k of LOST) {
      if (job[k] !== undefined) {
        this.dropped.add(k);
        lost = true;
      }
    }
    if (lost) this.lossy++;
    this.count++;
  }

  /** Jobs added so far. */
  get jobs(): number {
    return this.count;
  }

  /**
   * The header of {@link jobsToSwf} for the jobs added.
   * @throws InvalidInputError for an unknown option.
   */
  header(options: JobsToSwfOptions = {}): SwfHeader {
    requireKnownKeys("@sched/workload/JobsToSwfTally.header", "options", options, TO_SWF_KEYS);
    const notes = ["converted from @sched jobs by @sched/workload"];
    if (this.lossy > 0) {
      notes.push(
        `${this.lossy} of ${this.count} jobs had fields SWF cannot hold, dropped: ${LOST.filter((k) => this.dropped.has(k)).join(", ")}`,
      );
    }
    notes.push(...(options.notes ?? []));
    const header = {
      ...emptySwfHeader(),
      version: "2.2",
      maxJobs: this.count,
      maxRecords: this.count,
      notes,
    };
    return options.maxProcs === undefined
      ? header
      : { ...header, maxNodes: options.maxProcs, maxProcs: options.maxProcs };
  }
}
