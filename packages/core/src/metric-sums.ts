import {
  describeValue,
  InvalidInputError,
  optionKeys,
  requireBoolean,
  requireKnownKeys,
} from "@sched/errors";
import { METRICS_KEYS, type Metrics, type MetricsOptions } from "./metrics-types.js";
import type { RunStats } from "./trace.js";
import { checkStats } from "./trace-check.js";

/** Options of {@link MetricSums.metrics}: what the sums do not hold. */
export interface MetricSumsResultOptions {
  /**
   * The machine usage of the run (see {@link Metrics.machineUsage}), computed apart (it needs the
   * machines' busy times, not per-job sums); reported as is when a job was added.
   * @defaultValue `NaN`
   */
  readonly machineUsage?: number;
  /**
   * When the run was cut: with unfinished jobs, the window of the time metrics ends here when
   * that is after the last end. @defaultValue the last end added
   */
  readonly horizon?: number;
  /** Run statistics, for `schedulerMsPerDecision`. @defaultValue none (the metric is NaN) */
  readonly stats?: RunStats;
  /** License usage over all licenses, computed apart. @defaultValue `NaN` */
  readonly licenseUsage?: number;
  /** License usage per license name, computed apart. @defaultValue `{}` */
  readonly licenseUsageByName?: Readonly<Record<string, number>>;
}

/** The keys of {@link MetricSumsResultOptions}, all of them (checked by the compiler). */
const RESULT_KEYS = optionKeys<MetricSumsResultOptions>({
  machineUsage: true,
  horizon: true,
  stats: true,
  licenseUsage: true,
  licenseUsageByName: true,
});

const WHERE = "@sched/core/MetricSums";
/** Where {@link MetricSums.addDeadline}'s errors come from (built once: it runs per job). */
const ADD_DEADLINE = `${WHERE}.addDeadline`;

/**
 * The fields of {@link MetricSums} that change. V8 fixes a field's representation at its first
 * store and takes a field stored only once for a constant; a later store that widens it (a
 * fraction into a field that held 0) or changes the "constant" changes the object's hidden class
 * and deoptimizes every function compiled against it (the pooled kernel of `sched-sim run`
 * inlines these methods). So the constructor stores a fraction into each, then its initial value,
 * before any method runs (the counters then hold doubles: the same numbers).
 */
const CHANGING_FIELDS = [
  "completedJobs",
  "rejectedJobs",
  "unfinishedJobs",
  "sumWait",
  "maxWait",
  "sumResponse",
  "sumSlowdown",
  "sumBsld",
  "firstSubmit",
  "lastEnd",
  "coreSeconds",
  "withDeadline",
  "missed",
] as const;

/**
 * The sums behind `@sched/core`'s {@link Metrics}, over plain numbers: add each job (and the
 * intervals it ran), then read the metrics. It is what `metricsOf`, `computeMetrics`, the
 * streamed runs of `createSimulation` and the pooled engine of `sched-sim run` use, so a schedule
 * computed elsewhere (another simulator, a production log) gets the same definitions, and the
 * same bits as `metricsOf` on the same records added in the same order (floating-point sums
 * depend on the order).
 *
 * Per job: {@link MetricSums.addCompletedRun} for a job that ran once; otherwise, in this
 * order, {@link MetricSums.addInterval} for each interval it ran (its length times the cores it
 * held is the job's share of `utilization`), then one of {@link MetricSums.addCompleted},
 * {@link MetricSums.addRejected} or {@link MetricSums.addUnfinished}; then
 * {@link MetricSums.addDeadline} if it had a deadline.
 * Machine usage and license usage need more than per-job sums: pass them to
 * {@link MetricSums.metrics} (else they are NaN).
 *
 * The sums check that each number is finite and that the times of one call are in order
 * (submit <= first start <= end, start <= end), not that the schedule is valid (see
 * `checkSchedule`).
 *
 * Complexity: O(1) per call; memory O(1).
 *
 * @throws InvalidInputError (constructor) when `totalCores` is not a number > 0 or `options.tau`
 * not a finite number > 0; (methods) naming the method and the argument that is not a finite
 * number or out of order.
 *
 * @example
 * ```ts
 * const sums = new MetricSums(4); // a 4-core platform
 * sums.addCompletedRun(0, 10, 30, 2); // submit 0, ran 10..30 on 2 cores
 * sums.addRejected(5, 5); // submit 5, rejected at 5
 * const m = sums.metrics();
 * // m.meanWait 10, m.meanBoundedSlowdown 1.5, m.makespan 30, m.utilization 40 / 120,
 * // m.acceptanceRate 0.5, m.machineUsage NaN
 * ```
 */
export class MetricSums {
  private completedJobs = 0;
  private rejectedJobs = 0;
  private unfinishedJobs = 0;
  private sumWait = 0;
  private maxWait = 0;
  private sumResponse = 0;
  private sumSlowdown = 0;
  private sumBsld = 0;
  private firstSubmit = Number.POSITIVE_INFINITY;
  private lastEnd = Number.NEGATIVE_INFINITY;
  private coreSeconds = 0;
  private withDeadline = 0;
  private missed = 0;
  private readonly totalCores: number;
  private readonly tau: number;

  /**
   * @param totalCores - cores of the platform (the denominator of `utilization`).
   * @param options - `tau`, the bounded slowdown threshold (seconds, default 10).
   */
  constructor(totalCores: number, options: MetricsOptions = {}) {
    requireKnownKeys(WHERE, "options", options, METRICS_KEYS);
    if (typeof totalCores !== "number" || !(totalCores > 0)) {
      throw new InvalidInputError(
        WHERE,
        "totalCores",
        `is ${describeValue(totalCores)}, expected a number > 0`,
      );
    }
    this.totalCores = totalCores;
    this.tau = resolveTau(WHERE, options?.tau);
    for (const key of CHANGING_FIELDS) {
      const initial = this[key];
      this[key] = 0.5;
      this[key] = initial;
    }
  }

  /** Jobs still waiting or running at the end (added with `addUnfinished`). */
  get unfinished(): number {
    return this.unfinishedJobs;
  }

  /**
   * One interval a job ran: `cores` cores from `start` to `end`. Call it for each interval of the
   * job, before the job's `add…` call.
   * @returns its length, `end - start` (the job's `ran` is the sum of these, in order).
   * @throws InvalidInputError when a number is not finite, `end < start` or `cores < 0`.
   */
  addInterval(start: number, end: number, cores: number): number {
    // typeof first: a string would be coerced by the arithmetic, a bigint throw a raw TypeError
    if (typeof start !== "number" || typeof end !== "number" || typeof cores !== "number") {
      invalidInterval(start, end, cores);
    }
    const len = end - start;
    // Finite and in order exactly when the length and the cores are finite and >= 0.
    if (!(len >= 0 && len < Infinity && cores >= 0 && cores < Infinity)) {
      invalidInterval(start, end, cores);
    }
    this.coreSeconds += len * cores;
    if (end > this.lastEnd) this.lastEnd = end;
    return len;
  }

  /**
   * A completed job: submitted at `submit`, first started at `firstStart`, ended at `end`, having
   * run `ran` seconds (the sum of its intervals' lengths, as `addInterval` returned them).
   * @throws InvalidInputError when a number is not finite, the times are out of order or
   * `ran < 0`.
   */
  addCompleted(submit: number, firstStart: number, end: number, ran: number): void {
    if (
      typeof submit !== "number" ||
      typeof firstStart !== "number" ||
      typeof end !== "number" ||
      typeof ran !== "number"
    ) {
      invalidCompleted(submit, firstStart, end, ran);
    }
    const wait = firstStart - submit;
    const response = end - submit;
    // The three times are finite and in order when the wait and the response are (an order
    // within the rounding of `- submit` can pass: harmless), `ran` when it is.
    if (!(wait >= 0 && response >= wait && response < Infinity && ran >= 0 && ran < Infinity)) {
      invalidCompleted(submit, firstStart, end, ran);
    }
    this.sumCompleted(submit, end, wait, response, ran);
  }

  /**
   * A completed job that ran in one interval, `cores` cores from `start` to `end` (a rigid job
   * never preempted): `addInterval(start, end, cores)` then
   * `addCompleted(submit, start, end, end - start)`, in one call.
   * @throws InvalidInputError when a number is not finite, the times are out of order or
   * `cores < 0`.
   */
  addCompletedRun(submit: number, start: number, end: number, cores: number): void {
    if (
      typeof submit !== "number" ||
      typeof start !== "number" ||
      typeof end !== "number" ||
      typeof cores !== "number"
    ) {
      invalidRun(submit, start, end, cores);
    }
    const wait = start - submit;
    const ran = end - start;
    const response = end - submit;
    // The three times are finite and in order when the wait, the run and the response are.
    if (!(wait >= 0 && ran >= 0 && response < Infinity && cores >= 0 && cores < Infinity)) {
      invalidRun(submit, start, end, cores);
    }
    this.coreSeconds += ran * cores;
    this.sumCompleted(submit, end, wait, response, ran);
  }

  /**
   * A rejected job: submitted at `submit`, rejected at `end` (when known).
   * @throws InvalidInputError when a number is not finite or `end < submit`.
   */
  addRejected(submit: number, end?: number): void {
    this.addOther(submit, end, "addRejected");
    this.rejectedJobs++;
  }

  /**
   * A job still waiting or running when the run stopped (its intervals so far added with
   * `addInterval`, a running one ending at the horizon); `end` only if the caller's record has
   * one.
   * @throws InvalidInputError when a number is not finite or `end < submit`.
   */
  addUnfinished(submit: number, end?: number): void {
    this.addOther(submit, end, "addUnfinished");
    this.unfinishedJobs++;
  }

  /**
   * The job just added had a deadline: `missed` when it did not complete by it (a rejected or
   * unfinished job missed it). Feeds `deadlineMissRate`.
   */
  addDeadline(missed: boolean): void {
    requireBoolean(ADD_DEADLINE, "missed", missed);
    this.withDeadline++;
    if (missed) this.missed++;
  }

  /**
   * The window of the time metrics: from the first submit to the last end (of a job or an
   * interval), or to `horizon` when unfinished jobs were added and it is later. With no job,
   * `from` is `Infinity` and `to` too.
   */
  window(horizon?: number): { from: number; to: number } {
    // finite: an infinite horizon with unfinished jobs made the makespan infinite
    if (horizon !== undefined && !(typeof horizon === "number" && Number.isFinite(horizon))) {
      throw new InvalidInputError(
        WHERE,
        "horizon",
        `is ${describeValue(horizon)}, expected a finite number (or absent)`,
      );
    }
    let lastEnd = this.lastEnd;
    if (horizon !== undefined && this.unfinishedJobs > 0 && horizon > lastEnd) lastEnd = horizon;
    return { from: this.firstSubmit, to: Math.max(lastEnd, this.firstSubmit) };
  }

  /** `to - from` of {@link MetricSums.window}; 0 with no job. */
  makespan(horizon?: number): number {
    const { from, to } = this.window(horizon);
    return this.jobCount() === 0 ? 0 : to - from;
  }

  /**
   * The metrics of the jobs added (see {@link Metrics} for each definition): machine and license
   * usage as given in `options`, NaN otherwise.
   * @throws InvalidInputError when `options.horizon` is not a finite number, a usage not a
   * number >= 0 (NaN: not computed) or `options.stats` not run statistics.
   */
  metrics(options: MetricSumsResultOptions = {}): Metrics {
    requireKnownKeys(WHERE, "metrics(options)", options, RESULT_KEYS);
    const { horizon, stats, machineUsage = Number.NaN } = options;
    if (horizon !== undefined && !(typeof horizon === "number" && Number.isFinite(horizon))) {
      throw new InvalidInputError(
        WHERE,
        "metrics(options.horizon)",
        `is ${describeValue(horizon)}, expected a finite number`,
      );
    }
    // NaN: not computed (the default)
    for (const [name, value] of [
      ["machineUsage", machineUsage],
      ["licenseUsage", options.licenseUsage ?? Number.NaN],
    ] as const) {
      if (typeof value !== "number" || value < 0 || value === Infinity) {
        throw new InvalidInputError(
          WHERE,
          `metrics(options.${name})`,
          `is ${describeValue(value)}, expected a number >= 0 (NaN: not computed)`,
        );
      }
    }
    const byName = options.licenseUsageByName;
    if (byName !== undefined) {
      if (typeof byName !== "object" || byName === null || Array.isArray(byName)) {
        throw new InvalidInputError(
          WHERE,
          "metrics(options.licenseUsageByName)",
          `is ${describeValue(byName)}, expected an object of license name -> number`,
        );
      }
      for (const [name, value] of Object.entries(byName)) {
        if (typeof value !== "number" || value < 0 || value === Infinity) {
          throw new InvalidInputError(
            WHERE,
            `metrics(options.licenseUsageByName[${JSON.stringify(name)}])`,
            `is ${describeValue(value)}, expected a number >= 0 (NaN: not computed)`,
          );
        }
      }
    }
    if (stats !== undefined) checkStats(WHERE, "metrics(options.stats)", stats);
    const jobs = this.jobCount();
    const completed = this.completedJobs;
    const makespan = this.makespan(horizon);
    return {
      jobs,
      completed,
      rejected: this.rejectedJobs,
      unfinished: this.unfinishedJobs,
      meanWait: completed > 0 ? this.sumWait / completed : Number.NaN,
      maxWait: completed > 0 ? this.maxWait : Number.NaN,
      meanResponse: completed > 0 ? this.sumResponse / completed : Number.NaN,
      meanSlowdown: completed > 0 ? this.sumSlowdown / completed : Number.NaN,
      meanBoundedSlowdown: completed > 0 ? this.sumBsld / completed : Number.NaN,
      utilization: makespan > 0 ? this.coreSeconds / (this.totalCores * makespan) : 0,
      makespan,
      machineUsage: jobs > 0 ? machineUsage : Number.NaN,
      licenseUsage: options.licenseUsage ?? Number.NaN,
      licenseUsageByName: options.licenseUsageByName ?? {},
      deadlineMissRate: this.withDeadline > 0 ? this.missed / this.withDeadline : Number.NaN,
      acceptanceRate: jobs > 0 ? (jobs - this.rejectedJobs) / jobs : Number.NaN,
      schedulerMsPerDecision:
        stats !== undefined && stats.decisions > 0
          ? stats.schedulerMs / stats.decisions
          : Number.NaN,
    };
  }

  /**
   * The sums of a completed job, its numbers checked. Apart from the checks so that each public
   * method stays within the bytecode size V8 inlines (`sched-sim`'s budget is 200 bytes: see
   * apps/sim/src/v8-tuning.ts): a call that is not inlined boxes its four fractional arguments.
   */
  private sumCompleted(
    submit: number,
    end: number,
    wait: number,
    response: number,
    ran: number,
  ): void {
    this.completedJobs++;
    if (submit < this.firstSubmit) this.firstSubmit = submit;
    if (end > this.lastEnd) this.lastEnd = end;
    this.sumWait += wait;
    if (wait > this.maxWait) this.maxWait = wait;
    this.sumResponse += response;
    this.sumSlowdown += ran > 0 ? response / ran : 1;
    const b = response / Math.max(ran, this.tau);
    this.sumBsld += Math.max(b, 1);
  }

  /** Jobs added (each add… call counts one job in its outcome). */
  private jobCount(): number {
    return this.completedJobs + this.rejectedJobs + this.unfinishedJobs;
  }

  /** The common part of `addRejected` and `addUnfinished`. */
  private addOther(submit: number, end: number | undefined, method: string): void {
    if (
      typeof submit !== "number" ||
      (end !== undefined && typeof end !== "number") ||
      !(submit > -Infinity && submit < Infinity) ||
      (end !== undefined && !(end >= submit && end < Infinity))
    ) {
      invalidOther(submit, end, method);
    }
    if (submit < this.firstSubmit) this.firstSubmit = submit;
    if (end !== undefined && end > this.lastEnd) this.lastEnd = end;
  }
}

/** Checks `tau` (bounded slowdown threshold) and fills its default. Internal. */
export function resolveTau(where: string, tau: number | undefined): number {
  const t = tau ?? 10;
  if (typeof t !== "number" || !Number.isFinite(t) || t <= 0) {
    throw new InvalidInputError(
      where,
      "options.tau",
      `is ${describeValue(t)}, expected a finite number > 0`,
    );
  }
  return t;
}

// The errors, out of line so the methods stay small (and inlined where they are called).

function notFinite(x: unknown): boolean {
  return typeof x !== "number" || !Number.isFinite(x);
}

function invalidInterval(start: number, end: number, cores: number): never {
  const at = `${WHERE}.addInterval`;
  if (notFinite(start))
    throw new InvalidInputError(
      at,
      "start",
      `is ${describeValue(start)}, expected a finite number`,
    );
  if (notFinite(end))
    throw new InvalidInputError(at, "end", `is ${describeValue(end)}, expected a finite number`);
  if (notFinite(cores) || cores < 0) {
    throw new InvalidInputError(
      at,
      "cores",
      `is ${describeValue(cores)}, expected a finite number >= 0`,
    );
  }
  throw new InvalidInputError(at, "end", `is ${end}, before start (${start})`);
}

function invalidCompleted(submit: number, firstStart: number, end: number, ran: number): never {
  const at = `${WHERE}.addCompleted`;
  const args = { submit, firstStart, end, ran };
  for (const [name, x] of Object.entries(args)) {
    if (notFinite(x))
      throw new InvalidInputError(at, name, `is ${describeValue(x)}, expected a finite number`);
  }
  if (firstStart < submit) {
    throw new InvalidInputError(at, "firstStart", `is ${firstStart}, before submit (${submit})`);
  }
  if (end < firstStart) {
    throw new InvalidInputError(at, "end", `is ${end}, before firstStart (${firstStart})`);
  }
  throw new InvalidInputError(at, "ran", `is ${ran}, expected a number >= 0`);
}

function invalidRun(submit: number, start: number, end: number, cores: number): never {
  const at = `${WHERE}.addCompletedRun`;
  for (const [name, x] of Object.entries({ submit, start, end, cores })) {
    if (notFinite(x)) {
      throw new InvalidInputError(at, name, `is ${describeValue(x)}, expected a finite number`);
    }
  }
  if (start < submit) {
    throw new InvalidInputError(at, "start", `is ${start}, before submit (${submit})`);
  }
  if (end < start) throw new InvalidInputError(at, "end", `is ${end}, before start (${start})`);
  throw new InvalidInputError(at, "cores", `is ${cores}, expected a number >= 0`);
}

function invalidOther(submit: number, end: number | undefined, method: string): never {
  const at = `${WHERE}.${method}`;
  if (notFinite(submit))
    throw new InvalidInputError(
      at,
      "submit",
      `is ${describeValue(submit)}, expected a finite number`,
    );
  if (notFinite(end))
    throw new InvalidInputError(at, "end", `is ${describeValue(end)}, expected a finite number`);
  throw new InvalidInputError(at, "end", `is ${end}, before submit (${submit})`);
}
