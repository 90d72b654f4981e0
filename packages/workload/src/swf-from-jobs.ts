import type { Job } from "@sched/core";
import { optionKeys, requireKnownKeys } from "@sched/errors";
import { requireIterable } from "./require-iterable.js";
import { emptySwfHeader } from "./swf-header.js";
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
  const dropped = new Set<string>();
  let lossy = 0;
  for (const j of jobs) {
    let lost = false;
    for (const k of LOST) {
      if (j[k] !== undefined) {
        dropped.add(k);
        lost = true;
      }
    }
    if (lost) lossy++;
    records.push({
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
    });
  }
  const notes = ["converted from @sched jobs by @sched/workload"];
  if (lossy > 0) {
    notes.push(
      `${lossy} of ${records.length} jobs had fields SWF cannot hold, dropped: ${LOST.filter((k) => dropped.has(k)).join(", ")}`,
    );
  }
  notes.push(...(options.notes ?? []));
  const header = {
    ...emptySwfHeader(),
    version: "2.2",
    maxJobs: records.length,
    maxRecords: records.length,
    notes,
  };
  return {
    header:
      options.maxProcs === undefined
        ? header
        : { ...header, maxNodes: options.maxProcs, maxProcs: options.maxProcs },
    records,
  };
}
