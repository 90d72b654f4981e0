import { computeMetrics, identicalPool, type ScheduleTrace, simulate } from "@sched/core";
import { parseModelOption, WORKLOAD_MODELS } from "@sched/workload";
import { eloInstance } from "../experiments/elo-instance.js";
import type { Experiment, ExperimentInstance } from "../experiments/experiment.js";
import type { Params, ParamValue } from "../experiments/parameters.js";
import { EXPERIMENTS } from "../experiments/registry.js";
import { experimentScheduler } from "../experiments/resolve.js";
import { inCallersWords } from "../hints.js";
import { MAX_PROCS } from "../limits.js";
import { checkTraceNoLostJobs } from "../lost-jobs.js";
import { deterministicMetrics } from "../outputs.js";
import { chooseScheduler, createScheduler, type SchedulerChoice } from "../schedulers.js";
import { readSwfWorkload, type SwfWorkload } from "../swf-input.js";
import { syntheticWorkload } from "../synthetic.js";
import type { RunTask, SweepPlan, WorkloadSpec } from "./plan.js";

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
 * it) and parsed SWF files.
 */
export interface InstanceCache {
  last?: { readonly id: string; readonly instance: ExperimentInstance };
  readonly swf: Map<string, Promise<SwfWorkload>>;
  /** The command whose words a trace's read errors take (`sweep: FILE:3: …`). */
  readonly command: string;
}

/** An empty {@link InstanceCache}, for runs made by `command` (`sweep`, or `report` re-simulating one). */
export function createInstanceCache(command = "sweep"): InstanceCache {
  return { swf: new Map(), command };
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
      const id = `${w.path}\n${w.clean}\n${w.estimate}`;
      let pending = cache.swf.get(id);
      if (pending === undefined) {
        pending = readSwfWorkload(w.path, {
          clean: w.clean,
          estimate: w.estimate,
          where: cache.command,
        }).catch((error: unknown) => {
          throw inCallersWords(error, { experimentFile: w.path });
        });
        cache.swf.set(id, pending);
      }
      const swf = await pending;
      const procs = params.procs ?? w.procs ?? swf.header?.maxProcs ?? swf.header?.maxNodes;
      if (procs === undefined || procs <= 0) {
        throw new Error(`${w.path}: no machine size in the header; give platform.procs`);
      }
      if (procs > MAX_PROCS) {
        throw new Error(
          `${w.path}: the header's machine size ${procs} is above the ${MAX_PROCS} processors a simulated machine may have; give platform.procs`,
        );
      }
      return { jobs: swf.jobs, platform: identicalPool(procs) };
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
  const numbers: Record<string, number> = {};
  for (const [k, v] of Object.entries(deterministicMetrics(computeMetrics(trace)))) {
    if (typeof v === "number") numbers[k] = v;
  }
  const experiment = registryExperiment(plan);
  if (experiment?.measure !== undefined) {
    const instance = await instanceFor(plan, task, cache);
    Object.assign(numbers, experiment.measure(trace, instance, taskParams(plan, task), task.seed));
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
  const trace = await simulateTask(plan, task, cache);
  // A run that ends with jobs waiting and nothing left to happen is a failed run, not a result.
  checkTraceNoLostJobs("run", trace);
  const numbers = await measureRun(plan, task, trace, cache);
  const label = (plan.schedulers[task.scheduler] as { label: string }).label;
  return {
    record: {
      key: task.key,
      scheduler: label,
      params: task.params,
      seed: task.seed,
      metrics: numbers,
      events: trace.stats.events,
      decisions: trace.stats.decisions,
    },
    timing: { wallMs: performance.now() - started, schedulerMs: trace.stats.schedulerMs },
  };
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
