import type { Job } from "@sched/core";

/**
 * The largest time (seconds) or id a workload may hold: 2^53 − 1, about 285 million years, the
 * largest integer a JavaScript number holds exactly. Beyond it, ids and whole seconds are
 * rounded silently (`9007199254740993` reads as `9007199254740992`).
 */
export const MAX_WORKLOAD_TIME = Number.MAX_SAFE_INTEGER;

/**
 * How exactly a job's end time must hold its run time and estimate: `start + runtime - start`
 * may differ from `runtime` by at most this fraction of it. At submit time 1e17 a double's
 * resolution is 16 s, so a 100 s job would end 96 or 112 s after it starts (or at its start, at
 * 1e20): the readers reject such jobs instead of simulating them with another run time.
 */
const RESOLUTION = 1e-6;

/** What is wrong with a job's times: the field (a `Job` property) and what is wrong with it. */
export interface JobTimeProblem {
  /** The `Job` property, e.g. `"submit"` or `"runtime"`. */
  readonly field: "submit" | "runtime" | "estimate" | "deadline" | "ready";
  /** What is wrong, starting with the value: `is -5, expected a time >= 0`. */
  readonly detail: string;
}

/** The spacing of doubles at `x` (x > 0): the smallest step a time of that size can take. */
function resolutionAt(x: number): number {
  let exponent = Math.floor(Math.log2(x));
  // log2 rounds: just below a power of two it may say the power itself
  if (2 ** exponent > x) exponent--;
  return 2 ** (exponent - 52);
}

const BEYOND = `beyond 2^53 − 1 = ${MAX_WORKLOAD_TIME} s, where times are no longer exact`;

function spanProblem(start: number, span: number, what: string, from: string): string | null {
  if (!(span <= MAX_WORKLOAD_TIME)) return `is ${span}, ${BEYOND}`;
  const end = start + span;
  if (!(end <= MAX_WORKLOAD_TIME)) return `is ${span}: ${from} + ${what} = ${end} is ${BEYOND}`;
  if (Math.abs(end - start - span) > span * RESOLUTION) {
    return `is ${span}, too short for ${from} ${start}: a time that large moves in steps of ${resolutionAt(end)} s, so the job would end ${end - start} s after it starts`;
  }
  return null;
}

/**
 * Whether `start + span` holds `span` as {@link spanProblem} requires (false for NaN). With
 * `start >= 0`, `span <= MAX_WORKLOAD_TIME` follows from `end <= MAX_WORKLOAD_TIME`.
 */
function spanFits(start: number, span: number): boolean {
  const end = start + span;
  return end <= MAX_WORKLOAD_TIME && Math.abs(end - start - span) <= span * RESOLUTION;
}

/**
 * Whether {@link jobTimeProblem} finds nothing for these times (`ready` and `deadline` undefined
 * when absent), without building its answer: the writers' per-job check (about 16 ns a Lublin job
 * where jobTimeProblem took about 32). Each comparison is written so that NaN fails it. Internal.
 */
export function timesFit(
  submit: number,
  ready: number | undefined,
  deadline: number | undefined,
  runtime: number,
  estimate: number,
): boolean {
  if (!(submit >= 0)) return false;
  // submit and ready at most MAX_WORKLOAD_TIME: implied by the spans' `end <= MAX_WORKLOAD_TIME`
  // (a span that fits is >= 0, so its end is not before its start)
  if (ready !== undefined && !(ready >= submit)) return false;
  if (deadline !== undefined && !(deadline >= submit && deadline <= MAX_WORKLOAD_TIME)) {
    return false;
  }
  const start = ready ?? submit;
  return spanFits(start, runtime) && spanFits(start, estimate);
}

/**
 * The first problem with the times of `job` as a workload (what every @sched/workload reader
 * checks after the job's own validation), or null:
 *
 * - `submit` is a time in [0, {@link MAX_WORKLOAD_TIME}] (times count from the trace's start);
 * - `ready`, when set, is in [submit, MAX_WORKLOAD_TIME], and so is `deadline`;
 * - `runtime` and `estimate` survive being added to the earliest start (`ready`, else `submit`):
 *   the sum stays at most MAX_WORKLOAD_TIME and holds them to one part in a million, so no run
 *   time is absorbed or rounded by the size of the clock.
 *
 * Complexity: O(1).
 *
 * @example
 * ```ts
 * jobTimeProblem({ id: 1, submit: 1e17, runtime: 100, estimate: 100, cores: 1 });
 * // { field: "runtime", detail: "is 100, too short for submit 100000000000000000: …" }
 * jobTimeProblem({ id: 1, submit: 0, runtime: 100, estimate: 100, cores: 1 }); // null
 * ```
 */
export function jobTimeProblem(job: Job): JobTimeProblem | null {
  if (timesFit(job.submit, job.ready, job.deadline, job.runtime, job.estimate)) return null;
  const { submit, ready, deadline } = job;
  if (!(submit >= 0)) return { field: "submit", detail: `is ${submit}, expected a time >= 0` };
  if (!(submit <= MAX_WORKLOAD_TIME)) return { field: "submit", detail: `is ${submit}, ${BEYOND}` };
  if (ready !== undefined) {
    if (!(ready >= submit)) {
      return { field: "ready", detail: `is ${ready}, expected a time >= submit (${submit})` };
    }
    if (!(ready <= MAX_WORKLOAD_TIME)) return { field: "ready", detail: `is ${ready}, ${BEYOND}` };
  }
  if (deadline !== undefined) {
    if (!(deadline >= submit)) {
      return { field: "deadline", detail: `is ${deadline}, expected a time >= submit (${submit})` };
    }
    if (!(deadline <= MAX_WORKLOAD_TIME)) {
      return { field: "deadline", detail: `is ${deadline}, ${BEYOND}` };
    }
  }
  const start = ready ?? submit;
  const from = ready === undefined ? "submit" : "ready";
  const runtime = spanProblem(start, job.runtime, "runtime", from);
  if (runtime !== null) return { field: "runtime", detail: runtime };
  const estimate = spanProblem(start, job.estimate, "estimate", from);
  if (estimate !== null) return { field: "estimate", detail: estimate };
  return null;
}
