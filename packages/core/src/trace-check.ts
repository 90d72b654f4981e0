import { describeValue, InvalidInputError } from "@sched/errors";
import { isValidJobSpec, requireJob } from "./job.js";
import { requirePlatform } from "./platform.js";
import type { JobRecord, RunStats, ScheduleTrace } from "./trace.js";

// The shape of a trace or of job records given by a caller (built by hand, or by their own
// scheduler), checked at the public doors that read them (`computeMetrics`, `metricsOf`,
// `checkSchedule`, `traceToJSON`): every field of the type present, of its type, and every time
// a finite number, so that a mistake is an InvalidInputError naming the record and the field
// (`trace.records[12].intervals[0].start is NaN, expected a finite number`), never a raw
// TypeError or NaN metrics. Only types: whether the schedule is valid (times in order, capacity,
// …) is `checkSchedule`'s report, and the metrics' sums check the order of the times they add.
//
// Cost: a few comparisons per field of each record, in the pass the caller makes anyway, no allocation unless a record is
// malformed (the messages are built only then). Internal.

/**
 * Checks the trace's own fields and its platform, and that `records` is an array; not the
 * records themselves: each caller checks each record as it reads it ({@link checkRecord}), in
 * the pass it makes anyway (a second pass over a million records cost about 5% more). `label`
 * names the trace in messages (`trace`).
 */
export function checkTrace(where: string, label: string, trace: ScheduleTrace): void {
  if (typeof trace !== "object" || trace === null || Array.isArray(trace)) {
    throw new InvalidInputError(where, label, `is ${describeValue(trace)}, expected an object`);
  }
  if (typeof trace.scheduler !== "string") {
    throw new InvalidInputError(
      where,
      `${label}.scheduler`,
      `is ${describeValue(trace.scheduler)}, expected a string`,
    );
  }
  requirePlatform(where, `${label}.platform`, trace.platform);
  checkStats(where, `${label}.stats`, trace.stats);
  const horizon = trace.horizon;
  // finite: a cut run's `until` (traceFromJSON reads no other)
  if (horizon !== undefined && !(typeof horizon === "number" && Number.isFinite(horizon))) {
    throw new InvalidInputError(
      where,
      `${label}.horizon`,
      `is ${describeValue(horizon)}, expected a finite number (or absent)`,
    );
  }
  if (!Array.isArray(trace.records)) {
    throw new InvalidInputError(
      where,
      `${label}.records`,
      `is ${describeValue(trace.records)}, expected an array of job records`,
    );
  }
}

/**
 * Checks one record, `label[i]`: a job that `createJob` accepts (its `estimate` may be absent),
 * `intervals` an array of `{ start, end, allocation }` with finite times and an array of
 * `{ machine, cores }` parts of finite numbers (`machine` an index below `machines` unless that
 * is -1), `end` a finite number or null, `outcome` one of the three, `reason` a string or absent.
 */
export function checkRecord(
  where: string,
  label: string,
  i: number,
  r: JobRecord,
  machines: number,
): void {
  if (typeof r !== "object" || r === null) fail(where, `${label}[${i}]`, r, "a job record");
  const job = r.job;
  if (!isValidJobSpec(job, true)) requireJob(where, `${label}[${i}].job`, job);
  const intervals = r.intervals;
  if (!Array.isArray(intervals)) {
    fail(where, `${label}[${i}].intervals`, intervals, "an array of intervals");
  }
  for (let k = 0; k < intervals.length; k++) {
    const iv = intervals[k];
    if (typeof iv !== "object" || iv === null) {
      fail(where, `${label}[${i}].intervals[${k}]`, iv, "{ start, end, allocation }");
    }
    const start = iv.start;
    const end = iv.end;
    // finite: x - x is 0 only for a finite number (NaN and ±Infinity give NaN)
    if (typeof start !== "number" || start - start !== 0) {
      fail(where, `${label}[${i}].intervals[${k}].start`, start, "a finite number");
    }
    if (typeof end !== "number" || end - end !== 0) {
      fail(where, `${label}[${i}].intervals[${k}].end`, end, "a finite number");
    }
    const allocation = iv.allocation;
    if (!Array.isArray(allocation)) {
      fail(where, `${label}[${i}].intervals[${k}].allocation`, allocation, "an array of parts");
    }
    for (let j = 0; j < allocation.length; j++) {
      const part = allocation[j];
      if (typeof part !== "object" || part === null) {
        fail(where, `${label}[${i}].intervals[${k}].allocation[${j}]`, part, "{ machine, cores }");
      }
      const m = part.machine;
      if (typeof m !== "number" || m - m !== 0) {
        fail(
          where,
          `${label}[${i}].intervals[${k}].allocation[${j}].machine`,
          m,
          "a machine index",
        );
      }
      if (machines >= 0 && !(m >= 0 && m < machines && Number.isInteger(m))) {
        fail(
          where,
          `${label}[${i}].intervals[${k}].allocation[${j}].machine`,
          m,
          `a machine index of the platform (it has ${machines})`,
        );
      }
      const c = part.cores;
      if (typeof c !== "number" || c - c !== 0) {
        fail(where, `${label}[${i}].intervals[${k}].allocation[${j}].cores`, c, "a finite number");
      }
    }
  }
  const end = r.end;
  if (end !== null && (typeof end !== "number" || end - end !== 0)) {
    fail(where, `${label}[${i}].end`, end, "a finite number, or null when unfinished");
  }
  const outcome = r.outcome;
  if (outcome !== "completed" && outcome !== "rejected" && outcome !== "unfinished") {
    fail(where, `${label}[${i}].outcome`, outcome, '"completed", "rejected" or "unfinished"');
  }
  const reason = r.reason;
  if (reason !== undefined && typeof reason !== "string") {
    fail(where, `${label}[${i}].reason`, reason, "a string (or absent)");
  }
}

function fail(where: string, field: string, value: unknown, expected: string): never {
  throw new InvalidInputError(where, field, `is ${describeValue(value)}, expected ${expected}`);
}

/** Run statistics: `events` and `decisions` integers >= 0, `schedulerMs` >= 0 or NaN. */
export function checkStats(where: string, label: string, stats: RunStats): void {
  if (typeof stats !== "object" || stats === null || Array.isArray(stats)) {
    fail(where, label, stats, "{ events, decisions, schedulerMs }");
  }
  requireCount(where, `${label}.events`, stats.events);
  requireCount(where, `${label}.decisions`, stats.decisions);
  // NaN: unknown (a trace written without timings reads back so).
  const ms = stats.schedulerMs;
  if (typeof ms !== "number" || ms < 0 || ms === Number.POSITIVE_INFINITY) {
    fail(where, `${label}.schedulerMs`, ms, "a finite number >= 0 (or NaN: unknown)");
  }
}

/** A non-negative integer count (`stats.events`, `stats.decisions`). */
function requireCount(where: string, field: string, value: unknown): void {
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 0) {
    fail(where, field, value, "an integer >= 0");
  }
}
