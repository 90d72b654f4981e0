import type { JobRecord, ScheduleTrace } from "@sched/core";
import { jobToSwfRecord } from "./swf-from-jobs.js";
import { emptySwfHeader } from "./swf-header.js";
import type { SwfTrace } from "./swf-read.js";
import { SWF_UNKNOWN, type SwfRecord } from "./swf-record.js";

/** SWF status of each outcome: completed 1, unfinished 0 (as "failed"), rejected 5 ("cancelled"). */
const STATUS = { completed: 1, unfinished: 0, rejected: 5 } as const;

function toRecord(rec: JobRecord): SwfRecord {
  const { job, intervals } = rec;
  const started = intervals.length > 0;
  let run = 0;
  for (const iv of intervals) run += iv.end - iv.start;
  return {
    ...jobToSwfRecord(job),
    waitTime: started ? intervals[0]!.start - job.submit : SWF_UNKNOWN,
    runTime: started ? run : SWF_UNKNOWN,
    allocatedProcs: started ? job.cores : SWF_UNKNOWN,
    status: STATUS[rec.outcome],
  };
}

/**
 * A simulated schedule as an SWF trace, one record per job in the trace's order: wait time =
 * first start - submit, run time = the total length of its execution intervals (a preempted
 * job's pieces added up), allocated processors = its cores, requested processors / time = its
 * cores / estimate, status 1 completed, 0 unfinished (SWF's "failed"), 5 rejected (SWF's
 * "cancelled"); a job that never ran has wait, run time and allocated processors -1. The header
 * has Version 2.2, MaxJobs, MaxRecords, MaxNodes (machines), MaxProcs (total cores),
 * Preemption (Yes when some job ran in several intervals) and a Note naming the scheduler.
 * Format it with {@link formatSwf}.
 *
 * Complexity: O(jobs + intervals).
 *
 * @example
 * ```ts
 * const { header, records } = traceToSwf(simulate(jobs, platform, fcfs()));
 * writeFileSync("schedule.swf", formatSwf(header, records));
 * ```
 */
export function traceToSwf(trace: ScheduleTrace): SwfTrace {
  const records = trace.records.map(toRecord);
  const preempted = trace.records.some((r) => r.intervals.length > 1);
  return {
    header: {
      ...emptySwfHeader(),
      version: "2.2",
      maxJobs: records.length,
      maxRecords: records.length,
      preemption: preempted ? "Yes" : "No",
      maxNodes: trace.platform.machines.length,
      maxProcs: trace.platform.totalCores,
      notes: [`schedule of ${trace.scheduler}, simulated with @sched`],
    },
    records,
  };
}
