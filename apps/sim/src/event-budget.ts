import { LimitExceededError, type Scheduler, type SchedulingContext } from "@sched/core";

/**
 * What a policy did in a run on the general engine, as its scheduling calls saw it: for the
 * message of an exhausted event budget (`run --max-events`), which says what is true of the run
 * instead of guessing at it.
 */
export interface PolicyActivity {
  /** Timers the policy set (`ctx.wakeAt` calls). */
  timers: number;
  /** Jobs it preempted (`ctx.preempt` calls). */
  preemptions: number;
  /** Jobs it rejected (`ctx.reject` calls). */
  rejected: number;
  /** Completions its scheduling calls were told of (`ctx.completed`). */
  completed: number;
}

/** A fresh {@link PolicyActivity} with every count 0. */
export function newPolicyActivity(): PolicyActivity {
  return { timers: 0, preemptions: 0, rejected: 0, completed: 0 };
}

/**
 * `inner`, counting into `activity` the timers it sets, the jobs it preempts and rejects, and
 * the completions its calls are told of. Each call sees a context that forwards to the engine's
 * (built once per engine context), so the policy behaves exactly as it would unwrapped.
 */
export function countingScheduler(inner: Scheduler, activity: PolicyActivity): Scheduler {
  let seen: SchedulingContext | undefined;
  let wrapped: SchedulingContext | undefined;
  const wrap = (ctx: SchedulingContext): SchedulingContext => ({
    view: ctx.view,
    get arrived() {
      return ctx.arrived;
    },
    get completed() {
      return ctx.completed;
    },
    get woken() {
      return ctx.woken;
    },
    get ready() {
      return ctx.ready;
    },
    start: (jobId, allocation) => ctx.start(jobId, allocation),
    preempt: (jobId) => {
      ctx.preempt(jobId);
      activity.preemptions++;
    },
    reject: (jobId, reason) => {
      ctx.reject(jobId, reason);
      activity.rejected++;
    },
    wakeAt: (t) => {
      ctx.wakeAt(t);
      activity.timers++;
    },
  });
  const counting: Scheduler = {
    name: inner.name,
    schedule(ctx) {
      if (ctx !== seen) {
        seen = ctx;
        wrapped = wrap(ctx);
      }
      activity.completed += ctx.completed.length;
      inner.schedule(wrapped as SchedulingContext);
    },
  };
  if (inner.reset !== undefined) {
    const reset = inner.reset.bind(inner);
    return { ...counting, reset: (platform) => reset(platform) };
  }
  return counting;
}

/** The engine's generic question, replaced by what the run did. */
const GENERIC_HINT = "; does it keep setting timers (wakeAt) or preempting?";

function count(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

/**
 * `error` with the event budget's hint said from what the run did: when it is the engine's
 * `options.maxEvents` guard, its generic question ("does it keep setting timers (wakeAt) or
 * preempting?") becomes the jobs completed and rejected of those read, and either the timers
 * and preemptions the policy made (when it made any) or the fact that it made none, so every
 * event was a job's arrival or completion (at most 2 per job: an SWF job has no ready time).
 * Anything else is returned unchanged.
 *
 * @example
 * ```ts
 * explainEventBudget(e, { timers: 0, preemptions: 0, rejected: 0, completed: 3 }, 10).message;
 * // "… did not finish within options.maxEvents (5) events, at t=20; …; by its last scheduling
 * // call 3 of the 10 jobs read had completed and 0 had been rejected; it set no timer (wakeAt)
 * // and preempted no job, so every event so far was a job's arrival or completion, at most 2
 * // per job (20 for the 10 jobs read). Raise …"
 * ```
 */
export function explainEventBudget(
  error: unknown,
  activity: PolicyActivity,
  jobsRead: number,
): unknown {
  if (!(error instanceof LimitExceededError) || error.limit !== "options.maxEvents") return error;
  const detail = error.message.slice(`${error.where}: `.length);
  const at = detail.indexOf(GENERIC_HINT);
  if (at < 0) return error;
  const progress = `by its last scheduling call ${activity.completed} of the ${count(jobsRead, "job", "jobs")} read had completed and ${activity.rejected} had been rejected`;
  const { timers, preemptions } = activity;
  const why =
    timers === 0 && preemptions === 0
      ? `it set no timer (wakeAt) and preempted no job, so every event so far was a job's arrival or completion, at most 2 per job (${2 * jobsRead} for the ${count(jobsRead, "job", "jobs")} read).`
      : `it set ${count(timers, "timer", "timers")} (wakeAt) and made ${count(preemptions, "preemption", "preemptions")}; does it keep doing so?`;
  const rewritten = `${detail.slice(0, at)}; ${progress}; ${why}${detail.slice(at + GENERIC_HINT.length)}`;
  return new LimitExceededError(error.where, rewritten, { cause: error, limit: error.limit });
}
