import { describeValue, InvalidInputError, optionKeys, requireKnownKeys } from "@sched/errors";
import { DEFAULT_MAX_STALLED_EVENTS, Engine, type EngineOptions } from "./engine.js";
import { defaultExecutionModel, type ExecutionModel } from "./execution.js";
import { requirePlatform } from "./platform.js";
import type { Scheduler } from "./scheduler.js";
import type { JobRecord, ScheduleTrace } from "./trace.js";
import type { Job, Platform } from "./types.js";

/** Options of {@link simulate} (and of `simulateStream` and `createSimulation`). */
export interface SimulateOptions {
  /**
   * Horizon: events after this time are not processed. Jobs still waiting or running then are
   * `unfinished` (running jobs' last interval ends at `until`); jobs submitted after it are
   * never read from the iterable and are not in the trace.
   * A number other than NaN and -Infinity.
   * @defaultValue `Infinity` (run until no event remains)
   */
  readonly until?: number;
  /**
   * Guard against a policy that never lets the run end: more events (arrivals, completions,
   * timer batches, ready times) than this throws LimitExceededError naming the policy, the time
   * and the jobs waiting and running. `Infinity` turns the budget off.
   * @defaultValue a million events plus a thousand per job read so far (a run needs about two
   * per job, plus one per timer batch)
   */
  readonly maxEvents?: number;
  /**
   * Guard against a policy that keeps waking itself while nothing happens: more `schedule`
   * calls than this in a row in which no job arrived, ran (a job running while the clock moved
   * counts), reached its ready time, completed or was rejected throws LimitExceededError naming
   * the policy, the time and the jobs waiting. `Infinity` turns it off.
   * @defaultValue `100_000`
   */
  readonly maxStalledEvents?: number;
  /** How long a job runs on an allocation. @defaultValue {@link defaultExecutionModel} */
  readonly executionModel?: ExecutionModel;
}

/** The keys of {@link SimulateOptions}, all of them (checked by the compiler). */
const SIMULATE_KEYS = optionKeys<SimulateOptions>({
  until: true,
  maxEvents: true,
  maxStalledEvents: true,
  executionModel: true,
});

const WHERE = "@sched/core/simulate";

/** Resolves and checks the options shared by the run functions. Internal. */
export function resolveSimulateOptions(
  where: string,
  options: SimulateOptions,
  output: {
    keepRecords: boolean;
    onRecord?: ((record: JobRecord) => void) | null;
    metricsTau?: number | null;
  },
): EngineOptions {
  if (typeof options !== "object" || options === null) {
    throw new InvalidInputError(
      where,
      "options",
      `is ${describeValue(options)}, expected an object`,
    );
  }
  const until = options.until ?? Number.POSITIVE_INFINITY;
  // -Infinity: a horizon no trace can write (JSON has no -Infinity), for a run that reads nothing
  if (typeof until !== "number" || Number.isNaN(until) || until === Number.NEGATIVE_INFINITY) {
    throw new InvalidInputError(
      where,
      "options.until",
      `is ${describeValue(until)}, expected a number > -Infinity (Infinity: no horizon)`,
    );
  }
  const maxEvents = options.maxEvents ?? null;
  if (
    maxEvents !== null &&
    (typeof maxEvents !== "number" || Number.isNaN(maxEvents) || maxEvents < 0)
  ) {
    throw new InvalidInputError(
      where,
      "options.maxEvents",
      `is ${describeValue(maxEvents)}, expected a number >= 0`,
    );
  }
  const maxStalledEvents = options.maxStalledEvents ?? DEFAULT_MAX_STALLED_EVENTS;
  if (
    typeof maxStalledEvents !== "number" ||
    Number.isNaN(maxStalledEvents) ||
    maxStalledEvents < 1
  ) {
    throw new InvalidInputError(
      where,
      "options.maxStalledEvents",
      `is ${describeValue(maxStalledEvents)}, expected a number >= 1`,
    );
  }
  const model = options.executionModel ?? defaultExecutionModel;
  if (typeof model !== "object" || model === null || typeof model.duration !== "function") {
    throw new InvalidInputError(
      where,
      "options.executionModel",
      "has no duration(job, allocation, platform, seconds) function",
    );
  }
  if (model.slowdowns !== undefined && typeof model.slowdowns !== "function") {
    throw new InvalidInputError(
      where,
      "options.executionModel.slowdowns",
      "is not a function (leave it out for fixed durations)",
    );
  }
  const slowdowns = model.slowdowns === undefined ? null : model.slowdowns.bind(model);
  return {
    where,
    until,
    maxEvents,
    maxStalledEvents,
    model,
    slowdowns,
    keepRecords: output.keepRecords,
    onRecord: output.onRecord ?? null,
    metricsTau: output.metricsTau ?? null,
  };
}

/** Checks the platform and the scheduler of a run. Internal. */
export function checkRunInputs(where: string, platform: Platform, scheduler: Scheduler): void {
  requirePlatform(where, "platform", platform);
  if (
    typeof scheduler !== "object" ||
    scheduler === null ||
    typeof scheduler.schedule !== "function"
  ) {
    throw new InvalidInputError(where, "scheduler", "has no schedule(ctx) function");
  }
  if (typeof scheduler.name !== "string") {
    throw new InvalidInputError(
      where,
      "scheduler.name",
      `is ${describeValue(scheduler.name)}, expected a string (traces and reports show it)`,
    );
  }
}

/** Checks that `jobs` can be iterated. Internal. */
export function checkJobsIterable(where: string, jobs: unknown): void {
  if (
    jobs === null ||
    jobs === undefined ||
    typeof jobs === "string" ||
    typeof (jobs as Iterable<Job>)[Symbol.iterator] !== "function"
  ) {
    // a string is iterable by characters, never a list of jobs (the empty one included)
    throw new InvalidInputError(
      where,
      "jobs",
      typeof jobs === "string" ? "is a string, expected an iterable of jobs" : "is not iterable",
    );
  }
}

/**
 * Runs `scheduler` over `jobs` on `platform`: the discrete-event loop. Returns the schedule
 * trace (one record per job read, in input order) and run statistics.
 *
 * Event order: at each time t the engine applies, together, every completion at t (in the order
 * they were scheduled), then every arrival at t (in queue order: submit, then id), then every
 * timer (`wakeAt`) and ready time at t, and then calls `scheduler.schedule` ONCE (not at all when
 * nothing happened at t). Jobs are read lazily from `jobs`, which must be sorted by submit.
 * Preempted jobs keep their progress (fraction of work done) and return to the queue at their
 * original position (submit, id); they may resume on any allocation. Durations come from the
 * execution model (default: runtime * benchmark(job) / slowest speed of the allocation); a
 * model with a `slowdowns` hook is rate-based: after every batch in which the running set
 * changed the engine asks it for each running job's slowdown and reschedules the completions
 * of the jobs whose slowdown changed (see {@link ExecutionModel}).
 * The run ends when no event remains (jobs still waiting are then `unfinished`: a policy that
 * leaves jobs waiting with nothing pending has lost them) or at `options.until`.
 *
 * Complexity: O(E log E) heap work for E events plus the policy's own work; the view's
 * `waiting`/`running` arrays are maintained incrementally, `totalFreeCores` is O(1). A job
 * leaving the head of the queue costs amortised O(1) and `waitingAt`/`waitingCount` are O(1),
 * but the first read of `view.waiting` in a call after the head moved costs O(queue) on
 * queues longer than about 16k jobs. Each job read is checked by an allocation-free predicate
 * (messages are built only for an invalid job).
 *
 * @throws InvalidInputError when a job is invalid, an id repeats, the jobs are not sorted by
 * submit (naming the job), an option is invalid, or `wakeAt` gets a time <= now.
 * @throws ConstraintViolationError (from the policy's verbs) naming the job and the resource.
 * @throws LimitExceededError when more than `options.maxEvents` events occur (by default a
 * budget of a million events plus a thousand per job read), or when the policy makes no progress
 * for `options.maxStalledEvents` schedule calls in a row (it keeps waking itself while no job
 * arrives, runs, completes or is rejected): the message names the policy, the time and the jobs
 * waiting and running.
 * @throws PolicyError when the policy's own code throws (not one of our typed errors): names the
 * policy, the time and the jobs involved, with the original exception as `cause`.
 *
 * @example
 * ```ts
 * const greedy: Scheduler = {
 *   name: "greedy",
 *   schedule(ctx) {
 *     for (const w of ctx.view.waiting) {
 *       const a = firstFitAllocation(ctx.view, w.job.cores);
 *       if (a) ctx.start(w.job.id, a);
 *     }
 *   },
 * };
 * const trace = simulate([createJob({ id: 1, submit: 0, runtime: 10, cores: 2 })], identicalPool(2), greedy);
 * trace.records[0]; // { job, intervals: [{ start: 0, end: 10, allocation: [...] }], end: 10, outcome: "completed" }
 * ```
 */
export function simulate(
  jobs: Iterable<Job>,
  platform: Platform,
  scheduler: Scheduler,
  options: SimulateOptions = {},
): ScheduleTrace {
  requireKnownKeys(WHERE, "options", options, SIMULATE_KEYS);
  const opts = resolveSimulateOptions(WHERE, options, { keepRecords: true });
  checkRunInputs(WHERE, platform, scheduler);
  checkJobsIterable(WHERE, jobs);
  const engine = new Engine(platform, scheduler, opts);
  engine.feed(jobs, true);
  return engine.trace();
}
