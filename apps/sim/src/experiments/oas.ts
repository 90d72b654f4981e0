import { computeMetrics, type Job, type Metrics, type ScheduleTrace, simulate } from "@sched/core";
import {
  OAS_RULES,
  type OasProfile,
  type OasRule,
  oasExecutionModel,
  oasHeuristic,
  oasPlatform,
  oasWorkload,
  runOas,
} from "@sched/multicluster";
import type { SchedulerChoice } from "../schedulers.js";
import type { Experiment, ExperimentInstance, ExperimentRunResult } from "./experiment.js";
import { OAS_FIGURES, OAS_SLOTS_FIGURES } from "./oas-figures.js";
import { numberParam, type ParameterSpec, type Params } from "./parameters.js";
import { selfRunPolicy } from "./self-run-policy.js";

/** A workload number of the OAS paper (WL-1..WL-6). */
type Which = 1 | 2 | 3 | 4 | 5 | 6;

/** Jobs of each workload used (the first ones): the package's 8, and 4 with `--quick`. */
export const OAS_JOBS = 8;
export const OAS_QUICK_JOBS = 4;

/** HiGHS time limit per solve, s: the package's 20, and 10 with `--quick`. */
export const OAS_TIME_LIMIT = 20;
export const OAS_QUICK_TIME_LIMIT = 10;

/** Slot size of the comparison, as a fraction of the mean base time (the package's default). */
export const OAS_COMPARISON_FRACTION = 0.5;

/** Workload of the slot-size study (the package's default, WL-3). */
export const OAS_SLOT_WORKLOAD: Which = 3;

/** Slot sizes of the slot-size study (fractions of the mean base time), and the `--quick` grid. */
export const OAS_SLOT_FRACTIONS: readonly number[] = [0.15, 0.25, 0.5, 1, 1.5, 2, 2.5];
export const OAS_QUICK_SLOT_FRACTIONS: readonly number[] = [0.5, 2];

/** Workloads of the comparison, and the `--quick` grid. */
export const OAS_WORKLOADS: readonly number[] = [1, 2, 3, 4, 5, 6];
export const OAS_QUICK_WORKLOADS: readonly number[] = [3, 6];

const PAPER = "Blanco et al., §4";
const ASSUMED = "packages/multicluster README, Interpretation";

/** The parameters of both OAS experiments. */
const OAS_PARAMETERS: readonly ParameterSpec[] = [
  {
    name: "workload",
    type: "integer",
    default: OAS_SLOT_WORKLOAD,
    min: 1,
    max: 6,
    meaning: "The workload WL-1..WL-6.",
    source: PAPER,
  },
  {
    name: "jobs",
    type: "integer",
    default: OAS_JOBS,
    quick: OAS_QUICK_JOBS,
    min: 1,
    max: 8,
    meaning: "Jobs of the workload used (its first ones).",
    source: PAPER,
  },
  {
    name: "slotFraction",
    type: "number",
    default: OAS_COMPARISON_FRACTION,
    min: 0,
    minExclusive: true,
    meaning: "Slot size eta of the MIP, as a fraction of the mean base time.",
    source: PAPER,
  },
  {
    name: "timeLimit",
    type: "number",
    default: OAS_TIME_LIMIT,
    quick: OAS_QUICK_TIME_LIMIT,
    min: 0,
    minExclusive: true,
    meaning: "HiGHS wall-clock time limit per solve (s).",
    source: ASSUMED,
  },
];

/** The OAS point: the first jobs of WL-`which` at `seed`, the paper's platform, the cost model. */
function oasPoint(params: Params, seed: number) {
  const which = numberParam(params, "workload");
  const w = oasWorkload(which as Which, seed);
  const jobs = w.jobs.slice(0, numberParam(params, "jobs"));
  const profile = (job: Job): OasProfile => w.profiles.get(job.id) as OasProfile;
  const instance: ExperimentInstance = {
    jobs,
    platform: oasPlatform(),
    executionModel: oasExecutionModel({ profile }),
  };
  return { instance, profile };
}

/**
 * The package's OAS pipeline (`runOas`) at slot size `fraction` x mean base time: the six
 * heuristics' runs and the slotted list schedules are the warm-start candidates, the MIP is
 * solved, and its schedule and its start are run in core's engine.
 */
async function solveAndReplay(
  instance: ExperimentInstance,
  profile: (job: Job) => OasProfile,
  params: Params,
) {
  const fraction = numberParam(params, "slotFraction");
  const { jobs, platform } = instance;
  const mean = jobs.reduce((s, j) => s + j.estimate, 0) / Math.max(1, jobs.length);
  const run = await runOas(jobs, platform, {
    eta: fraction * mean,
    profile,
    timeLimit: numberParam(params, "timeLimit"),
  });
  const of = (trace: ScheduleTrace | null) =>
    trace === null ? undefined : { metrics: computeMetrics(trace), trace };
  return {
    r: run.result,
    atSlots: of(run.atSlots),
    compacted: of(run.compacted),
    best: of(run.best),
  };
}

const orNaN = (x: number | null | undefined): number => x ?? Number.NaN;

const HEURISTICS: Readonly<Record<OasRule, string>> = {
  FCFS: "First come, first served (strict order), OAS's link-aware allocation.",
  SJF: "Smallest job (fewest tasks) first, strict order.",
  BJF: "Biggest job (most tasks) first, strict order.",
  FPFS: "Fit processors first served: the first job in arrival order that fits.",
  SPT: "Shortest base time first, strict order.",
  LPT: "Longest base time first, strict order.",
};

const OAS_POLICY = (): SchedulerChoice =>
  selfRunPolicy(
    "oas",
    "OAS: the MIP of Blanco et al. solved by HiGHS (warm-started from the heuristics' and list " +
      "schedules), reported as the better compacted engine run of its schedule and its start.",
  );

/** The comparison's policies: OAS, then the six heuristics (lower-case names). */
export function oasPolicies(): SchedulerChoice[] {
  return [
    OAS_POLICY(),
    ...OAS_RULES.map((rule) => selfRunPolicy(rule.toLowerCase(), HEURISTICS[rule])),
  ];
}

function fromMetrics(m: Metrics | undefined): Record<string, number> {
  return {
    makespan: orNaN(m?.makespan),
    meanResponse: orNaN(m?.meanResponse),
    utilization: orNaN(m?.utilization),
  };
}

const SHARED_DESCRIPTION =
  "Platform: 3 clusters x 2 nodes, Gamma 1 / 0.75 / 0.5, Gigabit links (oasPlatform); " +
  `workloads: @sched/multicluster's oasWorkload (ours, the paper gives no numbers), the first ` +
  `${OAS_JOBS} jobs (${OAS_QUICK_JOBS} with --quick), seeded by the seed; HiGHS time limit ` +
  `${OAS_TIME_LIMIT} s per solve (${OAS_QUICK_TIME_LIMIT} s with --quick). Every plan and ` +
  "heuristic is run by core's engine with the OAS cost model. solveTimeMs is wall clock (not " +
  "deterministic), and a solve that stops at its time limit keeps the incumbent it had, which " +
  "depends on the machine's speed and load: only runs whose solves are proven optimal (gap 0) " +
  "are deterministic. Runs in worker threads compete for the cores (--jobs 1 for steadier " +
  "solve times). 'report' draws no Gantt chart.";

/**
 * `oas`: the OAS paper's comparison (Blanco et al., part (b)): OAS against FCFS, SJF, BJF,
 * FPFS, SPT and LPT on WL-1..WL-6. A run equals the matching row of the package's
 * `oasExperiment` (same workload, slot size and time limit) when its solve is proven optimal.
 */
export const oasReproduction: Experiment = {
  name: "oas",
  title: "OAS (MIP, HiGHS) vs FCFS/SJF/BJF/FPFS/SPT/LPT on WL-1..WL-6 (3x2 multi-cluster)",
  description:
    "The OAS paper's comparison (Blanco et al.): makespan, mean response and utilization of " +
    "OAS (the MIP, slot size 50% of the mean base time, warm-started with the best of the six " +
    "heuristics' runs and the six slotted list schedules by compacted makespan; the value is " +
    "the better compacted run of the solver's final schedule and that start) and of the six " +
    "heuristics (same link-aware allocation and cost model), per workload WL-1..WL-6 (the value " +
    `is the workload number; 3 and 6 with --quick); gap (HiGHS' relative gap, 0 when proven optimal) and solveTimeMs for OAS only. ${SHARED_DESCRIPTION}`,
  parameters: OAS_PARAMETERS,
  grid: (quick) => [{ name: "workload", values: quick ? OAS_QUICK_WORKLOADS : OAS_WORKLOADS }],
  defaultSeeds: () => 1,
  schedulers: oasPolicies,
  metrics: [
    { key: "makespan", title: "makespan (s)", digits: 1 },
    { key: "meanResponse", title: "mean response (s)", digits: 1 },
    { key: "utilization", title: "utilization", digits: 4 },
    { key: "gap", title: "gap", digits: 4 },
    { key: "solveTimeMs", title: "solve time (ms)", digits: 0 },
  ],
  figures: OAS_FIGURES,
  instance: (params, seed) => oasPoint(params, seed).instance,
  run: async ({ instance, params, seed, scheduler }): Promise<ExperimentRunResult> => {
    const { profile } = oasPoint(params, seed);
    if (scheduler.entry.name === "oas") {
      const { r, best } = await solveAndReplay(instance, profile, params);
      return {
        metrics: {
          ...fromMetrics(best?.metrics),
          solveTimeMs: r.solveTimeMs,
          gap: orNaN(r.gap),
        },
        events: best?.trace.stats.events ?? 0,
        decisions: best?.trace.stats.decisions ?? 0,
        schedulerMs: r.buildTimeMs + r.solveTimeMs,
      };
    }
    const rule = scheduler.entry.name.toUpperCase() as OasRule;
    const trace = simulate(
      instance.jobs,
      instance.platform,
      oasHeuristic(rule, { profile }),
      instance.executionModel === undefined ? {} : { executionModel: instance.executionModel },
    );
    return {
      metrics: { ...fromMetrics(computeMetrics(trace)), solveTimeMs: Number.NaN, gap: Number.NaN },
      events: trace.stats.events,
      decisions: trace.stats.decisions,
      schedulerMs: trace.stats.schedulerMs,
    };
  },
};

/**
 * `oas-slots`: the OAS paper's slot-size study (part (a)): the slot size from 15% to 250% of
 * the mean base time on WL-3: the MIP's slotted makespan, its plan run at its slots and
 * compacted, the gap and the solve time. A run equals the matching row of the package's
 * `oasExperiment` when its solve is proven optimal.
 */
export const oasSlotsReproduction: Experiment = {
  name: "oas-slots",
  title: "OAS: makespan and solve time against the slot size (15%..250% of the mean base time)",
  description:
    "The OAS paper's slot-size study (Blanco et al.): OAS on WL-3 with the slot size eta = " +
    "slotFraction x the mean base time (0.15..2.5; 0.5 and 2 with --quick). Metrics: " +
    "mipMakespan (the MIP's slotted makespan, slots x eta), makespan (its plan run by core's " +
    "engine, each job at its slot), compactMakespan (the same plan compacted), bestMakespan " +
    "(the better compacted run of the solver's schedule and its warm start), gap (HiGHS' " +
    `relative gap, 0 when proven optimal) and solveTimeMs. ${SHARED_DESCRIPTION}`,
  parameters: OAS_PARAMETERS,
  grid: (quick) => [
    { name: "slotFraction", values: quick ? OAS_QUICK_SLOT_FRACTIONS : OAS_SLOT_FRACTIONS },
  ],
  defaultSeeds: () => 1,
  schedulers: () => [OAS_POLICY()],
  metrics: [
    { key: "mipMakespan", title: "MIP makespan (s)", digits: 1 },
    { key: "makespan", title: "makespan (s)", digits: 1 },
    { key: "compactMakespan", title: "compacted makespan (s)", digits: 1 },
    { key: "bestMakespan", title: "reported makespan (s)", digits: 1 },
    { key: "gap", title: "gap", digits: 4 },
    { key: "solveTimeMs", title: "solve time (ms)", digits: 0 },
  ],
  figures: OAS_SLOTS_FIGURES,
  instance: (params, seed) => oasPoint(params, seed).instance,
  run: async ({ instance, params, seed }): Promise<ExperimentRunResult> => {
    const { profile } = oasPoint(params, seed);
    const { r, atSlots, compacted, best } = await solveAndReplay(instance, profile, params);
    return {
      metrics: {
        mipMakespan: orNaN(r.makespan),
        makespan: orNaN(atSlots?.metrics.makespan),
        compactMakespan: orNaN(compacted?.metrics.makespan),
        bestMakespan: orNaN(best?.metrics.makespan),
        gap: orNaN(r.gap),
        solveTimeMs: r.solveTimeMs,
        eta: r.eta,
      },
      events: atSlots?.trace.stats.events ?? 0,
      decisions: atSlots?.trace.stats.decisions ?? 0,
      schedulerMs: r.buildTimeMs + r.solveTimeMs,
    };
  },
};
