import {
  createSimulation,
  type ExecutionModel,
  identicalPool,
  type Job,
  type JobRecord,
  type Platform,
  type Scheduler,
  type Simulation,
  type SimulationSummary,
  simulateStream,
} from "@sched/core";
import type { SwfHeader } from "@sched/workload";
import {
  createPooledSimulation,
  type JobColumns,
  type PooledPolicy,
} from "../fast/pooled-simulation.js";
import { scanSwfFile } from "../fast/swf-scan.js";
import { inCallersWords } from "../hints.js";
import { MAX_PROCS } from "../limits.js";
import { checkSummaryNoLostJobs, LostJobsNote } from "../lost-jobs.js";
import { type SwfWorkload, streamSwfWorkload } from "../swf-input.js";
import type { PlannedScheduler, WorkloadSpec } from "./plan.js";

/** An SWF workload of an experiment file. */
export type SwfSpec = Extract<WorkloadSpec, { type: "swf" }>;

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
  policy: StreamedPolicy,
  command: string,
  readWhole: () => Promise<SwfWorkload>,
): Promise<SimulationSummary> {
  let run: StreamedRun | null = policy.pooled === null ? null : scanRun(w, params, policy);
  if (run === null) run = await streamRun(w, params, policy, command);
  if (run === null) {
    // Not sorted: the caller's copy of the trace read whole, kept between runs, sorted.
    const whole = await readWhole();
    run = new StreamedRun(w, params, policy);
    run.header(whole.header);
    run.push(whole.jobs, false);
  }
  return run.end();
}

/**
 * The run of {@link streamSwfTask} on the pooled kernel, read by `scanSwfFile`: null when the
 * scanner leaves the file to the general reader, or when anything fails (an unsorted trace, a
 * missing machine size), so that the general reader reads the file again and says what is wrong
 * in its words.
 */
function scanRun(
  w: SwfSpec,
  params: Readonly<Record<string, number>>,
  policy: StreamedPolicy,
): StreamedRun | null {
  const run = new StreamedRun(w, params, policy);
  try {
    const read = scanSwfFile(w.path, {
      clean: w.clean,
      estimate: w.estimate,
      onHeader: (h) => run.header(h),
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
  params: Readonly<Record<string, number>>,
  policy: StreamedPolicy,
  command: string,
): Promise<StreamedRun | null> {
  const run = new StreamedRun(w, params, policy);
  // What the simulation threw, kept apart from the reader's errors: only those are said in the
  // experiment file's words.
  const own: { thrown: boolean; error: unknown } = { thrown: false, error: undefined };
  try {
    await streamSwfWorkload(
      w.path,
      { clean: w.clean, estimate: w.estimate, where: command, onHeader: (h) => run.header(h) },
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

/** Feeds one simulation, built at the first job (when the header has given the machine size). */
class StreamedRun {
  private headerSeen: SwfHeader | undefined;
  private sim: Simulation | null = null;
  private kernel: ReturnType<typeof createPooledSimulation> | null = null;
  private lastSubmit = Number.NEGATIVE_INFINITY;
  private readonly lost = new LostJobsNote();

  constructor(
    private readonly w: SwfSpec,
    private readonly params: Readonly<Record<string, number>>,
    private readonly policy: StreamedPolicy,
  ) {}

  header(h: SwfHeader | undefined): void {
    this.headerSeen = h;
  }

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
    const procs = swfProcs(this.w, this.params, this.headerSeen);
    if (this.policy.pooled !== null) {
      // The kernel finishes every job: no lost jobs to note.
      this.kernel = createPooledSimulation({ policy: this.policy.pooled, procs });
      this.sim = this.kernel;
    } else {
      const lost = this.lost;
      this.sim = this.policy.general(identicalPool(procs), (r) => lost.record(r));
    }
    return this.sim;
  }
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
