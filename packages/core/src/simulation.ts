import { describeValue, InvalidInputError, optionKeys, requireKnownKeys } from "@sched/errors";
import { Engine } from "./engine.js";
import { resolveTau } from "./metric-sums.js";
import type { Metrics, MetricsOptions } from "./metrics.js";
import { METRICS_KEYS } from "./metrics-types.js";
import type { Scheduler } from "./scheduler.js";
import {
  checkJobsIterable,
  checkRunInputs,
  resolveSimulateOptions,
  type SimulateOptions,
} from "./simulate.js";
import type { JobRecord, RunStats } from "./trace.js";
import type { Job, Platform } from "./types.js";

/** Options of {@link simulateStream} and {@link createSimulation}. */
export interface SimulateStreamOptions extends SimulateOptions {
  /**
   * Called with each job's record once it has ended (completed or rejected) and every job read
   * before it has ended too: in input order, like a trace's records. Jobs still unfinished when
   * the run ends (lost, or cut by `until`) are passed at the end. The engine forgets a record
   * once it is passed on, so a run holds only the jobs in flight (and the ended ones read after
   * the oldest job still in flight).
   * @defaultValue none
   */
  readonly onRecord?: (record: JobRecord) => void;
  /**
   * Accumulate the metrics online (as {@link computeMetrics} defines them, equal to it bit for
   * bit on the same run): `true`, or the metrics' options; `false` leaves them out.
   * @defaultValue `true`
   */
  readonly metrics?: boolean | MetricsOptions;
}

/** The keys of {@link SimulateStreamOptions}, all of them (checked by the compiler). */
const STREAM_KEYS = optionKeys<SimulateStreamOptions>({
  onRecord: true,
  metrics: true,
  until: true,
  maxEvents: true,
  maxStalledEvents: true,
  executionModel: true,
});

/** What a streamed run gives back: everything of a trace but its records, and its metrics. */
export interface SimulationSummary {
  readonly scheduler: string;
  readonly platform: Platform;
  /** Records passed on: one per job read (not counting jobs submitted after the horizon). */
  readonly jobs: number;
  readonly stats: RunStats;
  /** As {@link ScheduleTrace.horizon}: set when the run was cut at `until` with work pending. */
  readonly horizon?: number;
  /** The run's metrics, unless `options.metrics` was `false`. */
  readonly metrics?: Metrics;
}

/**
 * A simulation fed with jobs as they come (from a file read in chunks, a queue, a socket):
 * `push` runs the loop as far as the jobs given so far allow (never past the last submit
 * received, where more jobs may still arrive), `end` finishes the run. The run is exactly the one
 * `simulate` makes on all the jobs at once.
 */
export interface Simulation {
  /**
   * Gives the next jobs (sorted by submit, none before a job already pushed) and runs the loop
   * as far as they allow. Jobs submitted after the horizon are not read.
   * @throws as {@link simulate}, naming the job by its position in the whole input.
   */
  push(jobs: Iterable<Job>): void;
  /** Ends the input and the run; returns the summary. Call it once. */
  end(): SimulationSummary;
}

function streamOutput(
  where: string,
  options: SimulateStreamOptions,
): { keepRecords: false; onRecord: ((r: JobRecord) => void) | null; metricsTau: number | null } {
  const onRecord = options.onRecord ?? null;
  if (onRecord !== null && typeof onRecord !== "function") {
    throw new InvalidInputError(where, "options.onRecord", "is not a function");
  }
  const metrics = options.metrics ?? true;
  let metricsTau: number | null = null;
  if (metrics === true) metricsTau = resolveTau(where, undefined);
  else if (typeof metrics === "object" && metrics !== null && !Array.isArray(metrics)) {
    requireKnownKeys(where, "options.metrics", metrics, METRICS_KEYS);
    metricsTau = resolveTau(where, metrics.tau);
  } else if (metrics !== false) {
    throw new InvalidInputError(
      where,
      "options.metrics",
      `is ${describeValue(metrics)}, expected true, false or { tau }`,
    );
  }
  return { keepRecords: false, onRecord, metricsTau };
}

/**
 * Runs `scheduler` over `jobs` like {@link simulate}, without keeping the trace: each record goes
 * to `options.onRecord` as soon as it and every earlier one ended, and the metrics are
 * accumulated online. Memory holds the jobs in flight, not the run: ten million jobs fit in
 * Node's default heap. Same schedule, same errors, and metrics equal bit for bit to
 * `computeMetrics(simulate(...))` (wall-clock `schedulerMsPerDecision` aside).
 *
 * Complexity: as {@link simulate}, plus O(parts) per start and completion for the machine usage
 * and O(1) per record for the other metrics.
 *
 * @throws as {@link simulate} (where `@sched/core/simulateStream`).
 *
 * @example
 * ```ts
 * const rows: string[] = [];
 * const { metrics } = simulateStream(jobs, identicalPool(128), easy(), {
 *   onRecord: (r) => rows.push(`${r.job.id},${r.end}`),
 * });
 * metrics!.meanWait; // the same number as computeMetrics(simulate(jobs, ...)).meanWait
 * ```
 */
export function simulateStream(
  jobs: Iterable<Job>,
  platform: Platform,
  scheduler: Scheduler,
  options: SimulateStreamOptions = {},
): SimulationSummary {
  const where = "@sched/core/simulateStream";
  const engine = streamEngine(where, platform, scheduler, options, { jobs });
  engine.feed(jobs, true);
  return summaryOf(engine);
}

/**
 * A simulation to feed with `push(jobs)` as jobs come, then `end()`: for inputs read
 * asynchronously (a file streamed in chunks), where a synchronous iterable cannot be used. Same
 * options, records and metrics as {@link simulateStream}; pushing all jobs at once gives the
 * same run as `simulateStream` (and as `simulate`).
 *
 * Complexity: as {@link simulateStream}.
 *
 * @throws as {@link simulate} (where `@sched/core/createSimulation`), from `push` or `end`; once
 * one has thrown, the simulation is over (a further call throws InvalidInputError).
 *
 * @example
 * ```ts
 * const sim = createSimulation(identicalPool(100), easy(), { onRecord: write });
 * for await (const chunk of chunksOfJobs) sim.push(chunk);
 * const { metrics, stats } = sim.end();
 * ```
 */
export function createSimulation(
  platform: Platform,
  scheduler: Scheduler,
  options: SimulateStreamOptions = {},
): Simulation {
  const where = "@sched/core/createSimulation";
  const engine = streamEngine(where, platform, scheduler, options, null);
  return {
    push(jobs: Iterable<Job>): void {
      checkJobsIterable(where, jobs);
      engine.feed(jobs, false);
    },
    end: () => summaryOf(engine),
  };
}

/** An engine for a streamed run, its inputs checked (`input.jobs` too, when given). */
function streamEngine(
  where: string,
  platform: Platform,
  scheduler: Scheduler,
  options: SimulateStreamOptions,
  input: { jobs: unknown } | null,
): Engine {
  requireKnownKeys(where, "options", options, STREAM_KEYS);
  const opts = resolveSimulateOptions(where, options, streamOutput(where, options ?? {}));
  checkRunInputs(where, platform, scheduler);
  if (input !== null) checkJobsIterable(where, input.jobs);
  return new Engine(platform, scheduler, opts);
}

function summaryOf(engine: Engine): SimulationSummary {
  const r = engine.finish();
  const summary: {
    -readonly [K in keyof SimulationSummary]: SimulationSummary[K];
  } = { scheduler: r.scheduler, platform: r.platform, jobs: r.jobs, stats: r.stats };
  if (r.horizon !== undefined) summary.horizon = r.horizon;
  if (r.metrics !== undefined) summary.metrics = r.metrics;
  return summary;
}
