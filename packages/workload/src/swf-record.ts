/**
 * One job of a Standard Workload Format (SWF 2.2) trace: its 18 fields, in file order.
 *
 * Every field is a number; `-1` ({@link SWF_UNKNOWN}) means "unknown / not applicable", exactly
 * as in the file. Times are in seconds, memory in kilobytes per processor. Fields may be
 * fractional (`552.21` CPU seconds in the HPC2N log); nothing is rounded.
 *
 * @example
 * ```ts
 * const r: SwfRecord = { jobNumber: 1, submitTime: 0, waitTime: 10, runTime: 3600, ... };
 * ```
 */
export interface SwfRecord {
  /** Field 1: job number, a counter from 1. */
  readonly jobNumber: number;
  /** Field 2: submit time, seconds since the trace's start. */
  readonly submitTime: number;
  /** Field 3: wait time, seconds from submit to start. */
  readonly waitTime: number;
  /** Field 4: run time, wall-clock seconds from start to end. */
  readonly runTime: number;
  /** Field 5: number of allocated processors. */
  readonly allocatedProcs: number;
  /** Field 6: average CPU time used per processor, seconds (may be fractional). */
  readonly avgCpuTime: number;
  /** Field 7: used memory, average kilobytes per processor. */
  readonly usedMemory: number;
  /** Field 8: requested number of processors. */
  readonly requestedProcs: number;
  /** Field 9: requested time (the user's runtime estimate), seconds. */
  readonly requestedTime: number;
  /** Field 10: requested memory, kilobytes per processor. */
  readonly requestedMemory: number;
  /** Field 11: status: 1 completed, 0 failed, 5 cancelled; 2, 3, 4 for checkpoint/swap records. */
  readonly status: number;
  /** Field 12: user id (a natural number). */
  readonly userId: number;
  /** Field 13: group id. */
  readonly groupId: number;
  /** Field 14: executable (application) number. */
  readonly executable: number;
  /** Field 15: queue number. */
  readonly queue: number;
  /** Field 16: partition number. */
  readonly partition: number;
  /** Field 17: preceding job number (a job this one depends on). */
  readonly precedingJob: number;
  /** Field 18: think time from the preceding job's end, seconds. */
  readonly thinkTime: number;
}

/** The value SWF uses for an unknown field. */
export const SWF_UNKNOWN = -1;

/** The name of a field of {@link SwfRecord}. */
export type SwfFieldKey = keyof SwfRecord;

/** One SWF field: its property name in {@link SwfRecord}, its 1-based column and its label. */
export interface SwfFieldInfo {
  readonly key: SwfFieldKey;
  /** 1-based column in the file. */
  readonly column: number;
  /** The name the SWF definition gives it, e.g. `"run time"`. */
  readonly label: string;
}

/**
 * The 18 SWF fields in file order (index `i` is column `i + 1`).
 *
 * @example
 * ```ts
 * SWF_FIELDS[3]; // { key: "runTime", column: 4, label: "run time" }
 * ```
 */
export const SWF_FIELDS: readonly SwfFieldInfo[] = [
  { key: "jobNumber", column: 1, label: "job number" },
  { key: "submitTime", column: 2, label: "submit time" },
  { key: "waitTime", column: 3, label: "wait time" },
  { key: "runTime", column: 4, label: "run time" },
  { key: "allocatedProcs", column: 5, label: "allocated processors" },
  { key: "avgCpuTime", column: 6, label: "average CPU time" },
  { key: "usedMemory", column: 7, label: "used memory" },
  { key: "requestedProcs", column: 8, label: "requested processors" },
  { key: "requestedTime", column: 9, label: "requested time" },
  { key: "requestedMemory", column: 10, label: "requested memory" },
  { key: "status", column: 11, label: "status" },
  { key: "userId", column: 12, label: "user id" },
  { key: "groupId", column: 13, label: "group id" },
  { key: "executable", column: 14, label: "executable" },
  { key: "queue", column: 15, label: "queue" },
  { key: "partition", column: 16, label: "partition" },
  { key: "precedingJob", column: 17, label: "preceding job" },
  { key: "thinkTime", column: 18, label: "think time" },
];

/** Number of fields on an SWF data line. */
export const SWF_FIELD_COUNT = 18;

/**
 * A record with every field unknown (`-1`), overridden by `fields`. Handy for writing traces
 * that know only a few fields.
 *
 * @example
 * ```ts
 * swfRecord({ jobNumber: 1, submitTime: 0, runTime: 60, allocatedProcs: 4 }).waitTime; // -1
 * ```
 */
export function swfRecord(fields: Partial<SwfRecord>): SwfRecord {
  return {
    jobNumber: fields.jobNumber ?? SWF_UNKNOWN,
    submitTime: fields.submitTime ?? SWF_UNKNOWN,
    waitTime: fields.waitTime ?? SWF_UNKNOWN,
    runTime: fields.runTime ?? SWF_UNKNOWN,
    allocatedProcs: fields.allocatedProcs ?? SWF_UNKNOWN,
    avgCpuTime: fields.avgCpuTime ?? SWF_UNKNOWN,
    usedMemory: fields.usedMemory ?? SWF_UNKNOWN,
    requestedProcs: fields.requestedProcs ?? SWF_UNKNOWN,
    requestedTime: fields.requestedTime ?? SWF_UNKNOWN,
    requestedMemory: fields.requestedMemory ?? SWF_UNKNOWN,
    status: fields.status ?? SWF_UNKNOWN,
    userId: fields.userId ?? SWF_UNKNOWN,
    groupId: fields.groupId ?? SWF_UNKNOWN,
    executable: fields.executable ?? SWF_UNKNOWN,
    queue: fields.queue ?? SWF_UNKNOWN,
    partition: fields.partition ?? SWF_UNKNOWN,
    precedingJob: fields.precedingJob ?? SWF_UNKNOWN,
    thinkTime: fields.thinkTime ?? SWF_UNKNOWN,
  };
}
