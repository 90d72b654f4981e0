import {
  createSimulation,
  type ExecutionModel,
  identicalPool,
  type Job,
  type JobRecord,
  type Platform,
  SchedError,
  type Scheduler,
  type Simulation,
  type SimulationSummary,
  simulateStream,
} from "@sched/core";
import { createJobsLineReader, type JobsFileHeader, type SwfHeader } from "@sched/workload";
import { describeFsError } from "../atomic.js";
import { headerProcs } from "../commands/trace-files.js";
import {
  createPooledSimulation,
  type JobColumns,
  type PooledPolicy,
  pooledModels,
} from "../fast/pooled-simulation.js";
import { scanSwf } from "../fast/swf-scan.js";
import { inCallersWords } from "../hints.js";
import { MAX_PROCS, STREAMED_TRACE_LIMITS } from "../limits.js";
import { checkSummaryNoLostJobs, LostJobsNote } from "../lost-jobs.js";
import {
  bySubmitThenId,
  openJobBatches,
  openLineBatches,
  type SwfWorkload,
  streamSwfWorkload,
} from "../swf-input.js";
import { inCommand } from "../user-message.js";
import type { PlannedScheduler, WorkloadSpec } from "./plan.js";

/** An SWF workload of an experiment file. */
export type SwfSpec = Extract<WorkloadSpec, { type: "swf" }>;

/** A native (JSON Lines) workload of an experiment file. */
export type NativeSpec = Extract<WorkloadSpec, { type: "native" }>;

/**
 * The machine size of a run of `w`: the grid's `procs`, else the file's `platform.procs`, else
 * the header's MaxProcs, else its MaxNodes.
 *
 * @throws Error naming the trace when none is given, or when the header's is above
 *   {@link MAX_PROCS}.
 */
export function swfProcs(
  w: SwfSpec,
  params: Readonly<Record<string, number>>,
  header: SwfHeader | undefined,
): number {
  const procs = params.procs ?? w.procs ?? header?.maxProcs ?? header?.maxNodes;
  if (procs === undefined || procs <= 0) {
    throw new Error(`${w.path}: no machine size in the header; give platform.procs`);
  }
  if (procs > MAX_PROCS) {
    throw new Error(
      `${w.path}: the header's machine size ${procs} is above the ${MAX_PROCS} processors a simulated machine may have; give platform.procs`,
    );
  }
  return procs;
}

/**
 * The machines of a run of `w`: the platform file's (`platform`, read from `w.platform` by the
 * caller), else that many identical processors: the grid's `procs`, else the file's
 * `platform.procs`, else the header's `meta.procs` (as `sched-sim run` takes `--platform`,
 * `--procs`, then `meta.procs`).
 *
 * @throws Error naming the workload when none is given, or when the header's is above
 *   {@link MAX_PROCS} (the experiment file's loader says both first, in its words).
 */
export function nativeMachines(
  w: NativeSpec,
  params: Readonly<Record<string, number>>,
  platform: Platform | undefined,
  header: JobsFileHeader | undefined,
): Platform | number {
  if (platform !== undefined) return platform;
  const procs = params.procs ?? w.procs ?? headerProcs(undefined, header);
  if (procs === undefined) {
    throw new Error(
      `${w.path}: no header line with meta.procs; give "platform" (a platform file, or {"procs": N})`,
    );
  }
  if (procs > MAX_PROCS) {
    throw new Error(
      `${w.path}: the header's meta.procs ${procs} is above the ${MAX_PROCS} processors a simulated machine may have; give platform.procs`,
    );
  }
  return procs;
}

/**
 * The pooled kernel's policy for a sweep's scheduler, or null: `easy` and `fcfs` with their
 * default options (no `--opt` word) run on it, as `sched-sim run --engine auto` runs them, with
 * the same records, metrics, events and decisions as on the general engine (`run`'s tests).
 */
export function pooledPolicyOf(s: PlannedScheduler): PooledPolicy | null {
  return (s.name === "easy" || s.name === "fcfs") && s.opts.length === 0 ? s.name : null;
}

/** How a streamed run builds its simulation once it knows the machine size. */
export interface StreamedPolicy {
  /** The kernel's policy, or null for the general engine. */
  readonly pooled: PooledPolicy | null;
  /** A general engine's simulation on `platform` (records to `onRecord`), with a new policy. */
  readonly general: (platform: Platform, onRecord: (r: JobRecord) => void) => Simulation;
}

/** Thrown (and caught) at the first job submitted before the one before it. */
const UNSORTED = Symbol("unsorted");

/**
 * One run of an experiment file's SWF workload, simulated as the trace streams in (as `sched-sim
 * run` does): memory holds the jobs in flight, not the trace nor its records, and `easy` and
 * `fcfs` with default options run on the pooled kernel, reading the file with its byte scanner.
 * The summary's metrics, events and decisions are those of `simulate` on the whole trace (bit
 * for bit: the engines' streamed runs are tested equal to `simulate`, the kernel to the general
 * engine). A trace not sorted by submit time is read whole and sorted (by submit, then id), as
 * `run` sorts it.
 *
 * On a platform file's machines (`platform`, read from `w.platform` by the caller) every policy
 * runs on the general engine, as `run --platform` runs it.
 *
 * `readWhole` gives the trace read whole with its jobs sorted by submit time, then id (for a
 * trace that is not sorted); `command` names the reader's errors (`sweep`, `report`).
 *
 * @throws the reader's errors in the experiment file's words (`sweep: FILE:3: … (or set
 *   "clean": true in "workload" …)`), the policy's and the engine's as they are, and a
 *   LostJobsError when the run ends with jobs neither completed nor rejected.
 */
export async function streamSwfTask(
  w: SwfSpec,
  params: Readonly<Record<string, number>>,
  platform: Platform | undefined,
  policy: StreamedPolicy,
  command: string,
  readWhole: () => Promise<SwfWorkload>,
): Promise<SimulationSummary> {
  const machines = (header: SwfHeader | undefined) => platform ?? swfProcs(w, params, header);
  const chosen: StreamedPolicy = platform === undefined ? policy : { ...policy, pooled: null };
  let run: StreamedRun | null = chosen.pooled === null ? null : await scanRun(w, machines, chosen);
  if (run === null) run = await streamRun(w, machines, chosen, command);
  if (run === null) {
    // Not sorted: the caller's copy of the trace read whole, kept between runs, sorted.
    const whole = await readWhole();
    run = new StreamedRun(() => machines(whole.header), chosen);
    run.push(whole.jobs, false);
  }
  return run.end();
}

/**
 * The run of {@link streamSwfTask} on the pooled kernel, read by `scanSwf` (plain or gzipped):
 * null when the scanner leaves the file to the general reader, or when anything fails (an
 * unsorted trace, a missing machine size), so that the general reader reads the file again and
 * says what is wrong in its words.
 */
async function scanRun(
  w: SwfSpec,
  machines: (header: SwfHeader | undefined) => Platform | number,
  policy: StreamedPolicy,
): Promise<StreamedRun | null> {
  let header: SwfHeader | undefined;
  const run = new StreamedRun(() => machines(header), policy);
  try {
    const read = await scanSwf(w.path, {
      clean: w.clean,
      estimate: w.estimate,
      onHeader: (h) => {
        header = h;
      },
      onJobs: (jobs) => run.pushColumns(jobs),
    });
    return read === null ? null : run;
  } catch {
    return null;
  }
}

/** The run of {@link streamSwfTask} read by the general reader; null when it is not sorted. */
async function streamRun(
  w: SwfSpec,
  machines: (header: SwfHeader | undefined) => Platform | number,
  policy: StreamedPolicy,
  command: string,
): Promise<StreamedRun | null> {
  let header: SwfHeader | undefined;
  const run = new StreamedRun(() => machines(header), policy);
  // What the simulation threw, kept apart from the reader's errors: only those are said in the
  // experiment file's words.
  const own: { thrown: boolean; error: unknown } = { thrown: false, error: undefined };
  try {
    await streamSwfWorkload(
      w.path,
      {
        clean: w.clean,
        estimate: w.estimate,
        where: command,
        onHeader: (h) => {
          header = h;
        },
      },
      (jobs) => {
        try {
          run.push(jobs, true);
        } catch (error) {
          own.thrown = true;
          own.error = error;
          throw error;
        }
      },
    );
  } catch (error) {
    if (!own.thrown) throw inCallersWords(error, { experimentFile: w.path });
    if (own.error === UNSORTED) return null;
    throw own.error;
  }
  return run;
}

/**
 * Feeds one simulation, built at the first job (when the header has given the machine size):
 * on `machines()`, a platform (general engine) or that many identical processors.
 */
class StreamedRun {
  private sim: Simulation | null = null;
  private kernel: ReturnType<typeof createPooledSimulation> | null = null;
  private lastSubmit = Number.NEGATIVE_INFINITY;
  private readonly lost = new LostJobsNote();

  constructor(
    private readonly machines: () => Platform | number,
    private readonly policy: StreamedPolicy,
  ) {}

  push(jobs: readonly Job[], checkOrder: boolean): void {
    if (checkOrder) {
      let last = this.lastSubmit;
      for (let i = 0; i < jobs.length; i++) {
        const submit = jobs[i]!.submit;
        if (submit < last) throw UNSORTED;
        last = submit;
      }
      this.lastSubmit = last;
    }
    if (jobs.length > 0) this.simulation().push(jobs);
  }

  pushColumns(jobs: JobColumns): void {
    let last = this.lastSubmit;
    const { submit, count } = jobs;
    for (let i = 0; i < count; i++) {
      if (submit[i]! < last) throw UNSORTED;
      last = submit[i]!;
    }
    this.lastSubmit = last;
    this.simulation();
    this.kernel!.pushColumns(jobs);
  }

  end(): SimulationSummary {
    const summary = this.simulation().end();
    checkSummaryNoLostJobs("run", summary, this.lost.ids);
    return summary;
  }

  private simulation(): Simulation {
    if (this.sim !== null) return this.sim;
    const machines = this.machines();
    if (this.policy.pooled !== null) {
      if (typeof machines !== "number") {
        throw new Error("internal: the pooled kernel runs on identical processors only");
      }
      // The kernel finishes every job: no lost jobs to note.
      this.kernel = createPooledSimulation({ policy: this.policy.pooled, procs: machines });
      this.sim = this.kernel;
    } else {
      const lost = this.lost;
      const platform = typeof machines === "number" ? identicalPool(machines) : machines;
      this.sim = this.policy.general(platform, (r) => lost.record(r));
    }
    return this.sim;
  }
}

/** A native workload read whole: its header line (if any) and its jobs. */
export interface NativeWorkload {
  readonly header: JobsFileHeader | undefined;
  readonly jobs: readonly Job[];
}

/**
 * One run of an experiment file's native workload, simulated as the file streams in (as
 * `sched-sim run -w FILE.jsonl` does): memory holds the jobs in flight and a chunk of the file.
 * `easy` and `fcfs` with default options on identical processors run on the pooled kernel until
 * a job it does not model (a ready time, deadline, licences, benchmark), then the run starts over
 * on the general engine, as `run --engine auto` does (both give the same summary). A file not
 * sorted by submit time is read whole and sorted (by submit, then id), as `run` sorts it.
 *
 * `platform` is `w.platform`'s machines (read by the caller), `readWhole` the file read whole,
 * its jobs sorted (for a file that is not sorted); `command` names the reader's errors.
 *
 * @throws the reader's errors said by `command` (`sweep: FILE:5 cores: …`), the policy's and the
 *   engine's as they are, and a LostJobsError when the run ends with jobs neither completed nor
 *   rejected.
 */
export async function streamNativeTask(
  w: NativeSpec,
  params: Readonly<Record<string, number>>,
  platform: Platform | undefined,
  policy: StreamedPolicy,
  command: string,
  readWhole: () => Promise<NativeWorkload>,
): Promise<SimulationSummary> {
  let chosen: StreamedPolicy = platform === undefined ? policy : { ...policy, pooled: null };
  for (;;) {
    const run = await streamNativeRun(w, params, platform, chosen, command);
    if (run === "general") chosen = { ...chosen, pooled: null };
    else if (run === "unsorted") break;
    else return run.end();
  }
  // Not sorted: the caller's copy of the file read whole, kept between runs, sorted.
  const whole = await readWhole();
  if (chosen.pooled !== null && !whole.jobs.every(pooledModels)) {
    chosen = { ...chosen, pooled: null };
  }
  const run = new StreamedRun(() => nativeMachines(w, params, platform, whole.header), chosen);
  run.push(whole.jobs, false);
  return run.end();
}

/**
 * The run of {@link streamNativeTask} as the file streams in: "general" at the first job the
 * pooled kernel (when chosen) does not model, "unsorted" at the first job submitted before the
 * one before it.
 */
async function streamNativeRun(
  w: NativeSpec,
  params: Readonly<Record<string, number>>,
  platform: Platform | undefined,
  policy: StreamedPolicy,
  command: string,
): Promise<StreamedRun | "general" | "unsorted"> {
  let header: JobsFileHeader | undefined;
  const run = new StreamedRun(() => nativeMachines(w, params, platform, header), policy);
  const kernel = policy.pooled !== null;
  let outcome: StreamedRun | "general" | "unsorted" = run;
  await readNativeBatches(w.path, command, STREAMED_TRACE_LIMITS, {
    onHeader: (h) => {
      header = h;
    },
    onJobs: (jobs) => {
      if (kernel && !jobs.every(pooledModels)) {
        outcome = "general";
        return false;
      }
      try {
        run.push(jobs, true);
      } catch (error) {
        if (error !== UNSORTED) throw error;
        outcome = "unsorted";
        return false;
      }
      return true;
    },
  });
  return outcome;
}

/**
 * Reads the native workload at `path` a chunk at a time (`openJobBatches`, `sched-sim run`'s
 * reader), handing each chunk's jobs to `onJobs` until it returns false. The reader's errors are
 * said by `command` (`sweep: FILE:5 cores: …`), a file that cannot be read is an Error naming it;
 * what `onJobs` throws passes as it is.
 */
export async function readNativeBatches(
  path: string,
  command: string,
  limits: { readonly maxLines?: number; readonly maxBytes?: number },
  on: {
    readonly onHeader: (header: JobsFileHeader) => void;
    readonly onJobs: (jobs: Job[]) => boolean;
  },
): Promise<void> {
  const readError = nativeReadError(path, command);
  let opened: Awaited<ReturnType<typeof openJobBatches>>;
  try {
    opened = await openJobBatches(path, command, limits, on.onHeader);
  } catch (error) {
    throw readError(error);
  }
  const batches = opened.batches[Symbol.asyncIterator]();
  try {
    for (;;) {
      let next: IteratorResult<Job[]>;
      try {
        next = await batches.next();
      } catch (error) {
        throw readError(error);
      }
      if (next.done || !on.onJobs(next.value)) return;
    }
  } finally {
    opened.close();
  }
}

/**
 * The first lines of the native workload at `path`, up to its first job: its header line (if
 * any) and whether it has a job at all (what an experiment file's loader checks before any run).
 * Errors as {@link readNativeBatches}.
 */
export async function readNativeHead(
  path: string,
  command: string,
): Promise<{ readonly header: JobsFileHeader | undefined; readonly job: boolean }> {
  const readError = nativeReadError(path, command);
  let opened: Awaited<ReturnType<typeof openLineBatches>>;
  try {
    opened = await openLineBatches(path, command, STREAMED_TRACE_LIMITS);
  } catch (error) {
    throw readError(error);
  }
  const reader = createJobsLineReader({ source: path });
  try {
    for await (const lines of opened.batches) {
      for (let i = 0; i < lines.length; i++) {
        if (reader.next(lines[i] as string) !== null) return { header: reader.header, job: true };
      }
    }
    return { header: reader.header, job: false };
  } catch (error) {
    throw readError(error);
  } finally {
    opened.close();
  }
}

/** How {@link readNativeBatches} says a reading error: the reader's by `command`, the file's named. */
function nativeReadError(path: string, command: string): (error: unknown) => unknown {
  return (error) => {
    if (error instanceof SchedError) return inCommand(error, command);
    return new Error(`cannot read ${path}: ${describeFsError(error)}`, { cause: error });
  };
}

/**
 * The native workload at `path` read whole, under the limits of a trace read whole, its jobs
 * sorted by submit time, then id (as `run` sorts a file that is not sorted). Errors as
 * {@link readNativeBatches}.
 */
export async function readNativeWorkload(path: string, command: string): Promise<NativeWorkload> {
  let header: JobsFileHeader | undefined;
  const jobs: Job[] = [];
  let sorted = true;
  await readNativeBatches(
    path,
    command,
    {},
    {
      onHeader: (h) => {
        header = h;
      },
      onJobs: (batch) => {
        for (let i = 0; i < batch.length; i++) {
          const job = batch[i] as Job;
          if (sorted && jobs.length > 0 && job.submit < (jobs[jobs.length - 1] as Job).submit) {
            sorted = false;
          }
          jobs.push(job);
        }
        return true;
      },
    },
  );
  if (!sorted) jobs.sort(bySubmitThenId);
  return { header, jobs };
}

/**
 * A run of jobs held in memory (a generated workload) without keeping its trace: the metrics
 * (bit for bit those of `computeMetrics(simulate(...))`), events and decisions of the same run.
 *
 * @throws as `simulate`, and a LostJobsError when the run ends with jobs neither completed nor
 *   rejected.
 */
export function summaryOfJobs(
  jobs: readonly Job[],
  platform: Platform,
  scheduler: Scheduler,
  executionModel: ExecutionModel | undefined,
): SimulationSummary {
  const lost = new LostJobsNote();
  const summary = simulateStream(jobs, platform, scheduler, {
    onRecord: (r) => lost.record(r),
    ...(executionModel === undefined ? {} : { executionModel }),
  });
  checkSummaryNoLostJobs("run", summary, lost.ids);
  return summary;
}

/**
 * The general engine's simulation for a streamed run (`createSimulation`, default guards), with
 * a new policy from `scheduler` each time (a run read again from the start must not inherit the
 * state of the one it replaces).
 */
export function generalSimulation(scheduler: () => Scheduler): StreamedPolicy["general"] {
  return (platform, onRecord) => createSimulation(platform, scheduler(), { onRecord });
}
