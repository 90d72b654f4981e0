import {
  computeMetrics,
  identicalPool,
  type Job,
  type Metrics,
  type Platform,
  type RunStats,
  type ScheduleTrace,
  type SimulationSummary,
  simulate,
} from "@sched/core";
import {
  type JobsFileHeader,
  parseModelOption,
  type SwfHeader,
  WORKLOAD_MODELS,
} from "@sched/workload";
import { eloInstance } from "../experiments/elo-instance.js";
import type { Experiment, ExperimentInstance } from "../experiments/experiment.js";
import type { Params, ParamValue } from "../experiments/parameters.js";
import { EXPERIMENTS } from "../experiments/registry.js";
import { experimentScheduler } from "../experiments/resolve.js";
import { inCallersWords } from "../hints.js";
import { STREAMED_TRACE_LIMITS } from "../limits.js";
import { checkTraceNoLostJobs } from "../lost-jobs.js";
import { deterministicMetrics } from "../outputs.js";
import { chooseScheduler, createScheduler, type SchedulerChoice } from "../schedulers.js";
import {
  bySubmitThenId,
  readSwfWorkload,
  type SwfWorkload,
  streamSwfWorkload,
} from "../swf-input.js";
import { syntheticWorkload } from "../synthetic.js";
import type { PlannedScheduler, RunTask, SweepPlan, WorkloadSpec } from "./plan.js";
import { readPlatformFile } from "./platform-file.js";
import {
  generalSimulation,
  type NativeSpec,
  type NativeWorkload,
  nativeMachines,
  pooledPolicyOf,
  readNativeBatches,
  readNativeWorkload,
  type SwfSpec,
  streamNativeTask,
  streamSwfTask,
  summaryOfJobs,
  swfProcs,
} from "./stream-task.js";

/** What one finished run recorded (deterministic: same plan and task, same record). */
export interface RunRecord {
  readonly key: string;
  /** Scheduler label, e.g. `easy(order=sjf)`. */
  readonly scheduler: string;
  /** The grid point: a value per swept parameter. */
  readonly params: Readonly<Record<string, ParamValue>>;
  readonly seed: number;
  /** Every deterministic number of core's `computeMetrics` (NaN where undefined). */
  readonly metrics: Readonly<Record<string, number>>;
  readonly events: number;
  readonly decisions: number;
}

/** Wall-clock measurements of a run: not deterministic, kept apart from the record. */
export interface RunTiming {
  /** Whole run: instance, simulation, metrics. */
  readonly wallMs: number;
  /** Inside the policy only. */
  readonly schedulerMs: number;
}

/**
 * Per-thread memo: the last workload instance (runs of one point and seed are adjacent and share
 * it), parsed SWF and native files (the runs that read one whole), and platform files.
 */
export interface InstanceCache {
  last?: { readonly id: string; readonly instance: ExperimentInstance };
  readonly swf: Map<string, Promise<SwfWorkload>>;
  readonly native: Map<string, Promise<NativeWorkload>>;
  readonly platforms: Map<string, Promise<Platform>>;
  /** The command whose words a trace's read errors take (`sweep: FILE:3: …`). */
  readonly command: string;
}

/** An empty {@link InstanceCache}, for runs made by `command` (`sweep`, or `report` re-simulating one). */
export function createInstanceCache(command = "sweep"): InstanceCache {
  return { swf: new Map(), native: new Map(), platforms: new Map(), command };
}

/** The registry experiment a plan's runs come from (undefined for an experiment file's workload). */
function registryExperiment(plan: SweepPlan): Experiment | undefined {
  const source = plan.source;
  if (source.kind !== "registry") return undefined;
  const experiment = EXPERIMENTS.find((e) => e.name === source.experiment);
  if (experiment === undefined) throw new Error(`unknown experiment '${source.experiment}'`);
  return experiment;
}

/**
 * Every parameter's value in a run of a registry experiment: the plan's fixed values (defaults,
 * set values) and the task's grid point. A file sweep's tasks have only their grid point.
 */
export function taskParams(plan: SweepPlan, task: RunTask): Params {
  const source = plan.source;
  return source.kind === "registry" ? { ...source.parameters, ...task.params } : task.params;
}

/** The scheduler of `task`, with the options its parameters imply. */
function taskScheduler(plan: SweepPlan, task: RunTask): SchedulerChoice {
  const s = plan.schedulers[task.scheduler];
  if (s === undefined) throw new Error(`no scheduler #${task.scheduler}`);
  const experiment = registryExperiment(plan);
  if (experiment !== undefined) {
    return experimentScheduler(experiment, taskParams(plan, task), s.label);
  }
  return chooseScheduler(s.name, s.opts, "sweep");
}

async function buildInstance(
  plan: SweepPlan,
  task: RunTask,
  cache: InstanceCache,
): Promise<ExperimentInstance> {
  const source = plan.source;
  if (source.kind === "registry") {
    const experiment = registryExperiment(plan) as Experiment;
    return experiment.instance(taskParams(plan, task), task.seed);
  }
  return workloadInstance(source.workload, numericParams(task.params), task.seed, cache);
}

/** A file sweep's grid point: its axes are workload keys, all numeric. */
function numericParams(params: Readonly<Record<string, ParamValue>>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [k, v] of Object.entries(params)) {
    if (typeof v !== "number") throw new Error(`grid value ${k}=${String(v)} is not a number`);
    out[k] = v;
  }
  return out;
}

async function workloadInstance(
  w: WorkloadSpec,
  params: Readonly<Record<string, number>>,
  seed: number,
  cache: InstanceCache,
): Promise<ExperimentInstance> {
  switch (w.type) {
    case "synthetic": {
      const { jobs, load, procs } = { ...w, ...params };
      return {
        jobs: syntheticWorkload({ jobs, load, procs, seed }),
        platform: identicalPool(procs),
      };
    }
    case "swf": {
      const [swf, platform] = await Promise.all([readSwf(w, cache), platformOf(w, cache)]);
      return {
        jobs: swf.jobs,
        platform: platform ?? identicalPool(swfProcs(w, params, swf.header)),
      };
    }
    case "native": {
      const [read, platform] = await Promise.all([readNative(w, cache), platformOf(w, cache)]);
      const machines = nativeMachines(w, params, platform, read.header);
      return {
        jobs: read.jobs,
        platform: typeof machines === "number" ? identicalPool(machines) : machines,
      };
    }
    case "model": {
      const model = WORKLOAD_MODELS.find((m) => m.name === w.model);
      if (model === undefined) throw new Error(`unknown workload model '${w.model}'`);
      const options: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(w.options)) options[k] = parseModelOption(w.model, k, v);
      for (const [k, v] of Object.entries(params)) {
        options[k] = parseModelOption(w.model, k, String(v));
      }
      options.seed = seed;
      const out = model.generate(options);
      return { jobs: out.jobs, platform: out.platform };
    }
    case "elo": {
      const { machines, jobs, fluctuation, load } = { ...w, ...params };
      return eloInstance({ machines, jobs, seed, fluctuation, load });
    }
  }
}

/**
 * An experiment file's SWF trace read whole, once per thread (the runs that need it whole: a
 * trace not sorted by submit time, whose jobs come sorted by submit, then id, as `run` sorts
 * them; `report`'s re-simulation).
 */
function readSwf(w: SwfSpec, cache: InstanceCache): Promise<SwfWorkload> {
  const id = `${w.path}\n${w.clean}\n${w.estimate}`;
  let pending = cache.swf.get(id);
  if (pending === undefined) {
    pending = readSwfWorkload(w.path, {
      clean: w.clean,
      estimate: w.estimate,
      where: cache.command,
    }).then(
      (read) => (isSorted(read.jobs) ? read : { ...read, jobs: sortedJobs(read.jobs) }),
      (error: unknown) => {
        throw inCallersWords(error, { experimentFile: w.path });
      },
    );
    cache.swf.set(id, pending);
  }
  return pending;
}

/**
 * An experiment file's native workload read whole, once per thread, its jobs sorted by submit,
 * then id (the runs that need it whole: a file not sorted by submit time; `report`'s
 * re-simulation).
 */
function readNative(w: NativeSpec, cache: InstanceCache): Promise<NativeWorkload> {
  let pending = cache.native.get(w.path);
  if (pending === undefined) {
    pending = readNativeWorkload(w.path, cache.command);
    cache.native.set(w.path, pending);
  }
  return pending;
}

/** The machines of a trace's platform file, read once per thread; undefined without one. */
async function platformOf(
  w: SwfSpec | NativeSpec,
  cache: InstanceCache,
): Promise<Platform | undefined> {
  if (w.platform === undefined) return undefined;
  let pending = cache.platforms.get(w.platform);
  if (pending === undefined) {
    pending = readPlatformFile(w.platform, cache.command);
    cache.platforms.set(w.platform, pending);
  }
  return pending;
}

/** Whether `jobs` are in non-decreasing submit order. */
function isSorted(jobs: readonly Job[]): boolean {
  for (let i = 1; i < jobs.length; i++) if (jobs[i]!.submit < jobs[i - 1]!.submit) return false;
  return true;
}

/** `jobs` sorted by submit time, then id. */
function sortedJobs(jobs: readonly Job[]): Job[] {
  return [...jobs].sort(bySubmitThenId);
}

async function instanceFor(
  plan: SweepPlan,
  task: RunTask,
  cache: InstanceCache,
): Promise<ExperimentInstance> {
  const id = JSON.stringify([task.params, task.seed]);
  if (cache.last?.id === id) return cache.last.instance;
  const instance = await buildInstance(plan, task, cache);
  cache.last = { id, instance };
  return instance;
}

/**
 * Simulate one run of `plan` and return its full trace (used by `report` to draw a run's Gantt
 * chart: the run is a pure function of the plan and the task, so it is recomputed, not stored).
 *
 * @throws whatever building the workload or the policy throws.
 */
export async function simulateTask(
  plan: SweepPlan,
  task: RunTask,
  cache: InstanceCache = createInstanceCache(),
): Promise<ScheduleTrace> {
  const own = selfRunExperiment(plan);
  if (own !== undefined) {
    throw new Error(
      `experiment '${own.name}' runs its policies itself (not in core's engine): there is no core trace to simulate`,
    );
  }
  const { jobs, platform, executionModel } = await instanceFor(plan, task, cache);
  const choice = taskScheduler(plan, task);
  return simulate(
    jobs,
    platform,
    createScheduler(choice, task.seed),
    executionModel === undefined ? {} : { executionModel },
  );
}

/** The first part of a run (see {@link simulateTaskPart}). */
export interface TaskPart {
  /** The run whole, or its first part cut at `cut.until`. */
  readonly trace: ScheduleTrace;
  /** Null when the run is whole: it has at most `maxJobs` jobs. */
  readonly cut: {
    /** Jobs simulated: those submitted before `before`. */
    readonly jobs: number;
    /** The submit time of the first job left out. */
    readonly before: number;
  } | null;
}

/** Thrown (and caught) once a streamed trace has given the jobs a part needs. */
const ENOUGH = Symbol("enough");

/**
 * {@link simulateTask}, or, when the run has more than `maxJobs` jobs, its first part: the jobs
 * submitted before the arrival time of job `maxJobs + 1` (in submit order), simulated up to just
 * before that time (core's `until`). Policies see no job before its arrival, so that part is
 * exactly the whole run's up to then: same starts, same allocations; jobs still running or
 * waiting at the horizon are `unfinished`. An experiment file's sorted SWF or native trace is
 * streamed and only its first `maxJobs + 1` jobs are kept (a trace not sorted by submit time, or
 * one with a read error in that part, is read whole, as {@link simulateTask} reads it).
 *
 * @throws as {@link simulateTask}, and an Error when the first `maxJobs + 1` jobs all arrive
 *   at one time (no part of the run ends before it).
 */
export async function simulateTaskPart(
  plan: SweepPlan,
  task: RunTask,
  cache: InstanceCache,
  maxJobs: number,
): Promise<TaskPart> {
  const source = plan.source;
  let head: readonly Job[] | null = null;
  let platform: ExperimentInstance["platform"] | undefined;
  let executionModel: ExperimentInstance["executionModel"];
  if (
    selfRunExperiment(plan) === undefined &&
    source.kind === "file" &&
    source.workload.type === "swf"
  ) {
    const w = source.workload;
    let header: SwfHeader | undefined;
    head = await streamedHead(maxJobs, (take) =>
      streamSwfWorkload(
        w.path,
        {
          clean: w.clean,
          estimate: w.estimate,
          where: cache.command,
          onHeader: (h) => {
            header = h;
          },
        },
        (chunk) => {
          if (!take(chunk)) throw ENOUGH;
        },
      ).catch((error: unknown) => {
        if (error !== ENOUGH) throw error;
      }),
    );
    if (head !== null) {
      platform =
        (await platformOf(w, cache)) ??
        identicalPool(swfProcs(w, numericParams(task.params), header));
    }
  } else if (
    selfRunExperiment(plan) === undefined &&
    source.kind === "file" &&
    source.workload.type === "native"
  ) {
    const w = source.workload;
    let header: JobsFileHeader | undefined;
    head = await streamedHead(maxJobs, (take) =>
      readNativeBatches(w.path, cache.command, STREAMED_TRACE_LIMITS, {
        onHeader: (h) => {
          header = h;
        },
        onJobs: take,
      }),
    );
    if (head !== null) {
      const params = numericParams(task.params);
      const machines = nativeMachines(w, params, await platformOf(w, cache), header);
      platform = typeof machines === "number" ? identicalPool(machines) : machines;
    }
  } else if (selfRunExperiment(plan) === undefined) {
    const instance = await instanceFor(plan, task, cache);
    if (instance.jobs.length > maxJobs) {
      const jobs = isSorted(instance.jobs) ? instance.jobs : sortedJobs(instance.jobs);
      head = jobs.slice(0, maxJobs + 1);
      platform = instance.platform;
      executionModel = instance.executionModel;
    }
  }
  if (head === null || platform === undefined) {
    return { trace: await simulateTask(plan, task, cache), cut: null };
  }
  const before = (head[maxJobs] as Job).submit;
  let n = maxJobs;
  while (n > 0 && (head[n - 1] as Job).submit === before) n--;
  if (n === 0) {
    throw new Error(
      `its first ${maxJobs + 1} jobs all arrive at t = ${before}: no first part of the run to draw`,
    );
  }
  const trace = simulate(
    head.slice(0, n),
    platform,
    createScheduler(taskScheduler(plan, task), task.seed),
    { until: justBefore(before), ...(executionModel === undefined ? {} : { executionModel }) },
  );
  return { trace, cut: { jobs: n, before } };
}

/**
 * The first `maxJobs + 1` jobs of a trace that `read` streams, handing each chunk to `take`
 * (false: stop reading); null when the trace has no more than `maxJobs` jobs, is not sorted by
 * submit time in that part, or its read fails (the whole read then says it, in the words it
 * always has).
 */
async function streamedHead(
  maxJobs: number,
  read: (take: (chunk: readonly Job[]) => boolean) => Promise<unknown>,
): Promise<Job[] | null> {
  const jobs: Job[] = [];
  let sorted = true;
  try {
    await read((chunk) => {
      for (const job of chunk) {
        const last = jobs.at(-1);
        if (last !== undefined && job.submit < last.submit) {
          sorted = false;
          return false;
        }
        jobs.push(job);
        if (jobs.length > maxJobs) return false;
      }
      return true;
    });
  } catch {
    return null;
  }
  return sorted && jobs.length > maxJobs ? jobs : null;
}

/** The largest double below `t` (a finite number). */
function justBefore(t: number): number {
  if (t === 0) return -Number.MIN_VALUE;
  const bits = new BigInt64Array(new Float64Array([t]).buffer);
  bits[0] = (bits[0] as bigint) + (t > 0 ? -1n : 1n);
  return new Float64Array(bits.buffer)[0] as number;
}

/**
 * The metrics recorded for a run: every deterministic number of core's `computeMetrics`, plus
 * what a registry experiment measures itself (`Experiment.measure`, e.g. the advance-reservation
 * paper's slowdown from the ready time).
 */
export async function measureRun(
  plan: SweepPlan,
  task: RunTask,
  trace: ScheduleTrace,
  cache: InstanceCache = createInstanceCache(),
): Promise<Record<string, number>> {
  const numbers = numericMetrics(computeMetrics(trace));
  const experiment = registryExperiment(plan);
  if (experiment?.measure !== undefined) {
    const instance = await instanceFor(plan, task, cache);
    Object.assign(numbers, experiment.measure(trace, instance, taskParams(plan, task), task.seed));
  }
  return numbers;
}

/** Every deterministic number of `metrics` (the per-name breakdowns left out). */
function numericMetrics(metrics: Metrics): Record<string, number> {
  const numbers: Record<string, number> = {};
  for (const [k, v] of Object.entries(deterministicMetrics(metrics))) {
    if (typeof v === "number") numbers[k] = v;
  }
  return numbers;
}

/** Run one task: simulate, then measure. Deterministic apart from the timing. */
export async function executeTask(
  plan: SweepPlan,
  task: RunTask,
  cache: InstanceCache,
): Promise<{ record: RunRecord; timing: RunTiming }> {
  const started = performance.now();
  const own = selfRunExperiment(plan);
  if (own !== undefined) return executeSelfRun(own, plan, task, cache, started);
  if (plan.source.kind === "file") {
    // Not kept: the trace (a file sweep measures core's metrics only, accumulated online).
    const summary = await summaryOfFileTask(plan.source.workload, plan, task, cache);
    return finished(plan, task, numericMetrics(summary.metrics!), summary.stats, started);
  }
  const trace = await simulateTask(plan, task, cache);
  // A run that ends with jobs waiting and nothing left to happen is a failed run, not a result.
  checkTraceNoLostJobs("run", trace);
  const numbers = await measureRun(plan, task, trace, cache);
  return finished(plan, task, numbers, trace.stats, started);
}

/** The record and timing of a finished run. */
function finished(
  plan: SweepPlan,
  task: RunTask,
  numbers: Record<string, number>,
  stats: RunStats,
  started: number,
): { record: RunRecord; timing: RunTiming } {
  const label = (plan.schedulers[task.scheduler] as { label: string }).label;
  return {
    record: {
      key: task.key,
      scheduler: label,
      params: task.params,
      seed: task.seed,
      metrics: numbers,
      events: stats.events,
      decisions: stats.decisions,
    },
    timing: { wallMs: performance.now() - started, schedulerMs: stats.schedulerMs },
  };
}

/**
 * A run of an experiment file's workload without its trace (the same metrics, events and
 * decisions as {@link simulateTask}'s trace): an SWF or native trace streamed from its file
 * (memory holds the jobs in flight; `easy` and `fcfs` with default options on the pooled kernel,
 * as `run`), a generated workload simulated from memory.
 */
async function summaryOfFileTask(
  w: WorkloadSpec,
  plan: SweepPlan,
  task: RunTask,
  cache: InstanceCache,
): Promise<SimulationSummary> {
  const choice = taskScheduler(plan, task);
  if (w.type === "swf") {
    const planned = plan.schedulers[task.scheduler] as PlannedScheduler;
    return streamSwfTask(
      w,
      numericParams(task.params),
      await platformOf(w, cache),
      {
        pooled: pooledPolicyOf(planned),
        general: generalSimulation(() => createScheduler(choice, task.seed)),
      },
      cache.command,
      () => readSwf(w, cache),
    );
  }
  if (w.type === "native") {
    const planned = plan.schedulers[task.scheduler] as PlannedScheduler;
    return streamNativeTask(
      w,
      numericParams(task.params),
      await platformOf(w, cache),
      {
        pooled: pooledPolicyOf(planned),
        general: generalSimulation(() => createScheduler(choice, task.seed)),
      },
      cache.command,
      () => readNative(w, cache),
    );
  }
  const { jobs, platform, executionModel } = await instanceFor(plan, task, cache);
  return summaryOfJobs(jobs, platform, createScheduler(choice, task.seed), executionModel);
}

/** The registry experiment of `plan` when it runs its policies itself ({@link Experiment.run}). */
function selfRunExperiment(
  plan: SweepPlan,
): (Experiment & Required<Pick<Experiment, "run">>) | undefined {
  const experiment = registryExperiment(plan);
  if (experiment?.run === undefined) return undefined;
  return experiment as Experiment & Required<Pick<Experiment, "run">>;
}

/** {@link executeTask} for an experiment with a `run` hook: its numbers become the record. */
async function executeSelfRun(
  experiment: Experiment & Required<Pick<Experiment, "run">>,
  plan: SweepPlan,
  task: RunTask,
  cache: InstanceCache,
  started: number,
): Promise<{ record: RunRecord; timing: RunTiming }> {
  const label = (plan.schedulers[task.scheduler] as { label: string }).label;
  const result = await experiment.run({
    instance: await instanceFor(plan, task, cache),
    params: taskParams(plan, task),
    seed: task.seed,
    scheduler: taskScheduler(plan, task),
  });
  return {
    record: {
      key: task.key,
      scheduler: label,
      params: task.params,
      seed: task.seed,
      metrics: { ...result.metrics },
      events: result.events,
      decisions: result.decisions,
    },
    timing: { wallMs: performance.now() - started, schedulerMs: result.schedulerMs },
  };
}
