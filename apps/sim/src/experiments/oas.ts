import { computeMetrics, type Job, type ScheduleTrace, simulate } from "@sched/core";
import {
  ALLOCATION_CANDIDATES,
  type AllocationCandidates,
  contentionDelays,
  OAS_HEURISTIC_DEFAULTS,
  OAS_RULES,
  type OasAssignment,
  type OasFormulation,
  type OasProfile,
  type OasResult,
  type OasRule,
  oasExecutionModel,
  oasHeuristic,
  oasPlanScheduler,
  slottedPlanFromTrace,
  solveOas,
} from "@sched/multicluster";
import { OAS_WORKLOAD_NAMES, type OasWorkloadName, oasWorkload } from "@sched/workload";
import { checkTraceNoLostJobs } from "../lost-jobs.js";
import { OAS_HEURISTIC_OPTIONS, oasEntry, oasRuleDescription } from "../registry/multicluster.js";
import type { SchedulerChoice } from "../schedulers.js";
import { UsageError } from "../usage-error.js";
import type {
  Experiment,
  ExperimentInstance,
  ExperimentMetric,
  ExperimentRunResult,
  ExperimentWorkload,
} from "./experiment.js";
import { OAS_FIGURES, OAS_LINKS_FIGURES, OAS_SLOTS_FIGURES } from "./oas-figures.js";
import { numberParam, type ParameterSpec, type Params, textParam } from "./parameters.js";
import { selfRunPolicy } from "./self-run-policy.js";

const PAPER = "Blanco et al., §4";
const WL = "packages/workload README, Interpretation (OAS workloads)";
const MIP = "packages/multicluster README, Interpretation (OAS MIP)";
const HEURISTICS = "packages/multicluster README, Interpretation (Heuristics)";

/** The comparison's workloads, and the `--quick` grid. */
export const OAS_WORKLOADS: readonly string[] = ["WL-1", "WL-2", "WL-3", "WL-4", "WL-5", "WL-6"];
export const OAS_QUICK_WORKLOADS: readonly string[] = ["WL-3", "WL-6"];

/** Slot sizes of the slot-size study (fractions of the mean base time), and the `--quick` grid. */
export const OAS_SLOT_FRACTIONS: readonly number[] = [0.15, 0.25, 0.5, 1, 1.5, 2, 2.5];
export const OAS_QUICK_SLOT_FRACTIONS: readonly number[] = [0.5, 2];

/** The parameters of every OAS experiment; `bandwidth` sets the per-task bandwidth defaults. */
function oasParameters(bandwidth: "moderate" | "heavy"): ParameterSpec[] {
  const [lo, hi] = bandwidth === "heavy" ? [65, 78] : [1, 40];
  const n = (
    name: string,
    def: number,
    meaning: string,
    source: string,
    more: Partial<ParameterSpec> = {},
  ): ParameterSpec => ({ name, type: "number", default: def, meaning, source, ...more });
  return [
    {
      name: "workload",
      type: "choice",
      choices: OAS_WORKLOAD_NAMES.filter((w) => w !== "random"),
      default: "WL-3",
      meaning:
        "The batch: WL-1 (made for FPFS), WL-2 (for small jobs first), WL-3..WL-6 (random, one stream each of the seed).",
      source: `${PAPER}.2; ${WL}`,
    },
    {
      name: "jobs",
      type: "integer",
      default: 8,
      quick: 4,
      min: 1,
      max: 8,
      meaning: "Jobs of the batch (the first ones of WL-1 and WL-2).",
      source: PAPER,
    },
    n(
      "slotFraction",
      0.5,
      "Slot size eta, as a fraction of the batch's mean base time.",
      `${PAPER}.1 (stable below 50%)`,
      {
        min: 0,
        minExclusive: true,
      },
    ),
    {
      name: "maxNodes",
      type: "integer",
      default: 100_000,
      min: 1,
      meaning:
        "The solver's deterministic budget: branch-and-bound nodes per solve (a solve stopped by it is reported feasible, with its gap).",
      source: MIP,
    },
    {
      name: "formulation",
      type: "choice",
      choices: ["configurations", "resources"],
      default: "configurations",
      meaning:
        "How the MIP is written for HiGHS: configurations (time-indexed on classes of interchangeable resources) or resources (the paper's per-resource variables); same optimum.",
      source: MIP,
    },
    {
      name: "allocationCandidates",
      type: "choice",
      choices: ALLOCATION_CANDIDATES,
      default: OAS_HEURISTIC_DEFAULTS.allocationCandidates,
      meaning:
        "The allocations the six heuristics (and the MIP's list-schedule horizon and warm start) try for a job: union (the tau fastest free resources, each cluster's fastest tau, each cluster topped up with the fastest elsewhere), fastest (the tau fastest free resources only), or exhaustive (every split of the tasks over the clusters: a best allocation of the free resources by ct, then link demand).",
      source: `${PAPER} ('one-by-one', 'considering all the available resources'; the paper lists no candidate set); ${HEURISTICS}`,
    },
    {
      name: "nodesPerCluster",
      type: "integer",
      default: 2,
      min: 1,
      meaning: "Nodes per cluster (3 clusters).",
      source: `${PAPER} (3 clusters, 2 nodes per cluster)`,
    },
    n("gamma1", 1, "Effective power of cluster 1.", `${PAPER} (Gamma = {1.0, 0.75, 0.5})`, {
      min: 0,
      minExclusive: true,
      max: 1,
    }),
    n("gamma2", 0.75, "Effective power of cluster 2.", `${PAPER} (Gamma = {1.0, 0.75, 0.5})`, {
      min: 0,
      minExclusive: true,
      max: 1,
    }),
    n("gamma3", 0.5, "Effective power of cluster 3.", `${PAPER} (Gamma = {1.0, 0.75, 0.5})`, {
      min: 0,
      minExclusive: true,
      max: 1,
    }),
    n("linkBandwidth", 125, "Bandwidth of each inter-cluster link, MB/s.", `${PAPER} (Gigabit)`, {
      min: 0,
      minExclusive: true,
    }),
    {
      name: "tasksMin",
      type: "integer",
      default: 1,
      min: 1,
      meaning: "Random batches: fewest tasks per job (uniform).",
      source: WL,
    },
    {
      name: "tasksMax",
      type: "integer",
      default: 6,
      min: 1,
      meaning: "Random batches: most tasks per job (at most the nodes).",
      source: WL,
    },
    n("baseTimeMin", 100, "Random batches: shortest base time, s (uniform).", WL, {
      min: 0,
      minExclusive: true,
    }),
    n("baseTimeMax", 1000, "Random batches: longest base time, s.", WL, {
      min: 0,
      minExclusive: true,
    }),
    n("sigmaMin", 0.5, "Random batches: smallest processing weight sigma (uniform).", WL, {
      min: 0,
      max: 1,
    }),
    n("sigmaMax", 1, "Random batches: largest sigma.", WL, { min: 0, max: 1 }),
    n(
      "perTaskBandwidthMin",
      lo,
      "Smallest per-task bandwidth, MB/s (uniform for random batches; WL-1 and WL-2 use the midpoint).",
      `${WL} (${bandwidth} family)`,
      { min: 0 },
    ),
    n(
      "perTaskBandwidthMax",
      hi,
      "Largest per-task bandwidth, MB/s.",
      `${WL} (${bandwidth} family)`,
      {
        min: 0,
      },
    ),
  ];
}

function checkOas(params: Params): string[] {
  const out: string[] = [];
  const v = (k: string) => numberParam(params, k);
  for (const k of ["tasks", "baseTime", "sigma", "perTaskBandwidth"]) {
    if (v(`${k}Min`) > v(`${k}Max`))
      out.push(`${k}Min (${v(`${k}Min`)}) is above ${k}Max (${v(`${k}Max`)})`);
  }
  const nodes = 3 * v("nodesPerCluster");
  if (v("tasksMax") > nodes) out.push(`tasksMax (${v("tasksMax")}) is above the ${nodes} nodes`);
  const w = textParam(params, "workload");
  if ((w === "WL-1" || w === "WL-2") && nodes < 6) {
    out.push(`${w} needs 6 nodes, nodesPerCluster ${v("nodesPerCluster")} gives ${nodes}`);
  }
  return out;
}

/** The @sched/workload model and options of the batch (`sched-sim gen oas`). */
function oasWorkloadOf(params: Params): ExperimentWorkload {
  const v = (k: string) => numberParam(params, k);
  return {
    model: "oas",
    options: {
      workload: textParam(params, "workload"),
      jobs: v("jobs"),
      nodesPerCluster: v("nodesPerCluster"),
      powers: [v("gamma1"), v("gamma2"), v("gamma3")],
      linkBandwidth: v("linkBandwidth") * 1e6,
      tasks: [v("tasksMin"), v("tasksMax")],
      baseTime: [v("baseTimeMin"), v("baseTimeMax")],
      sigma: [v("sigmaMin"), v("sigmaMax")],
      perTaskBandwidth: [v("perTaskBandwidthMin") * 1e6, v("perTaskBandwidthMax") * 1e6],
    },
  };
}

/** The batch, its platform and its BSP profile (the same generator as `gen oas`). */
function oasPoint(params: Params, seed: number) {
  const w = oasWorkload({
    ...(oasWorkloadOf(params).options as Parameters<typeof oasWorkload>[0]),
    workload: textParam<OasWorkloadName>(params, "workload"),
    seed,
  });
  const bsp = new Map(w.jobs.map((j, i) => [j.id, w.bsp[i]!]));
  const profile = (job: Job): OasProfile => {
    const b = bsp.get(job.id)!;
    return { sigma: b.sigma, ptbw: b.perTaskBandwidth };
  };
  const instance: ExperimentInstance = {
    jobs: w.jobs,
    platform: w.platform,
    executionModel: oasExecutionModel({ profile }),
  };
  return { instance, profile };
}

/**
 * A run of one schedule in the engine, with the OAS cost model (contention charged). A run that
 * ends with jobs never started (a plan or heuristic that forgets one) is a failed run, as in
 * every other experiment: its makespan over the jobs that did run would look like a result.
 * Exported for the tests.
 * @throws LostJobsError naming the policy and the first lost jobs.
 */
export function replay(
  instance: ExperimentInstance,
  scheduler: Parameters<typeof simulate>[2],
): ScheduleTrace {
  const trace = simulate(
    instance.jobs,
    instance.platform,
    scheduler,
    instance.executionModel === undefined ? {} : { executionModel: instance.executionModel },
  );
  checkTraceNoLostJobs("run", trace);
  return trace;
}

/** How one OAS variant solves: the MIP's own start or a warm start, with or without links. */
interface SolveKey {
  readonly warmStart: boolean;
  readonly links: boolean;
}

/**
 * Solves of this process, by point, seed and variant: `oas` and `oas(replay=compact)` share one
 * solve when they run in the same worker (the solve is deterministic, so sharing changes no
 * figure, only the time). A handful is kept.
 */
const solves = new Map<string, Promise<OasResult>>();

function solveFor(
  params: Params,
  seed: number,
  key: SolveKey,
  instance: ExperimentInstance,
  profile: (job: Job) => OasProfile,
): Promise<OasResult> {
  const id = JSON.stringify([
    oasWorkloadOf(params).options,
    seed,
    numberParam(params, "slotFraction"),
    numberParam(params, "maxNodes"),
    textParam(params, "formulation"),
    textParam(params, "allocationCandidates"),
    key,
  ]);
  let r = solves.get(id);
  if (r === undefined) {
    r = solve(params, key, instance, profile);
    solves.set(id, r);
    while (solves.size > 4) solves.delete(solves.keys().next().value as string);
  }
  return r;
}

/** The slot size of a point: `slotFraction` x the batch's mean base time. */
function slotSize(params: Params, jobs: readonly Job[]): number {
  const mean = jobs.reduce((s, j) => s + j.estimate, 0) / Math.max(1, jobs.length);
  return numberParam(params, "slotFraction") * mean;
}

/** A horizon no list schedule of these jobs exceeds (every job twice its base time, in slots). */
function looseHorizon(jobs: readonly Job[], eta: number): number {
  return Math.ceil(jobs.reduce((s, j) => s + 2 * j.estimate, 0) / Math.max(eta, 1e-9));
}

async function solve(
  params: Params,
  key: SolveKey,
  instance: ExperimentInstance,
  profile: (job: Job) => OasProfile,
): Promise<OasResult> {
  const { jobs, platform } = instance;
  const eta = slotSize(params, jobs);
  const allocationCandidates = candidatesOf(params);
  const incumbents = key.warmStart
    ? heuristicPlans(instance, profile, eta, allocationCandidates)
    : [];
  return solveOas(jobs, platform, {
    eta,
    profile,
    allocationCandidates,
    maxNodes: numberParam(params, "maxNodes"),
    formulation: textParam<OasFormulation>(params, "formulation"),
    links: key.links,
    warmStart: key.warmStart,
    incumbents,
  });
}

/** The heuristics' candidate set of a point (the `allocationCandidates` parameter). */
function candidatesOf(params: Params): AllocationCandidates {
  return textParam<AllocationCandidates>(params, "allocationCandidates");
}

/** The six heuristics' runs as slotted schedules (warm-start candidates). */
function heuristicPlans(
  instance: ExperimentInstance,
  profile: (job: Job) => OasProfile,
  eta: number,
  allocationCandidates: AllocationCandidates,
): OasAssignment[][] {
  const theta = looseHorizon(instance.jobs, eta);
  const out: OasAssignment[][] = [];
  for (const rule of OAS_RULES) {
    const trace = replay(instance, oasHeuristic(rule, { profile, allocationCandidates }));
    const plan = slottedPlanFromTrace(trace, instance.jobs, { eta, theta, profile });
    if (plan !== null) out.push(plan);
  }
  return out;
}

const nan = Number.NaN;

/** The metrics of a run in the engine: core's, and the jobs contention slowed. */
function traceMetrics(trace: ScheduleTrace, profile: (job: Job) => OasProfile) {
  const m = computeMetrics(trace);
  return {
    makespan: m.makespan,
    meanResponse: m.meanResponse,
    utilization: m.utilization,
    contentionSlowed: contentionDelays(trace, { profile }).length,
  };
}

/**
 * A heuristic's run in the MIP's own model: its trace made slotted (same order and allocations,
 * each job from the first slot it fits, rounded up to whole slots of `eta`), as slots x eta; NaN
 * when the trace is not one interval per job. The MIP's optimum is at or below it.
 */
function slottedMakespan(
  trace: ScheduleTrace,
  jobs: readonly Job[],
  eta: number,
  profile: (job: Job) => OasProfile,
): number {
  const plan = slottedPlanFromTrace(trace, jobs, { eta, theta: looseHorizon(jobs, eta), profile });
  if (plan === null) return nan;
  return plan.reduce((m, a) => Math.max(m, a.startSlot + a.slots), 0) * eta;
}

/** The solver's figures of a run (NaN for a heuristic). */
function solverMetrics(r: OasResult | null) {
  if (r === null) {
    return {
      optimal: nan,
      gapPct: nan,
      solveSeconds: nan,
      solveWallSeconds: nan,
      nodes: nan,
      mipMakespan: nan,
      theta: nan,
      variables: nan,
    };
  }
  return {
    optimal: r.status === "optimal" ? 1 : 0,
    gapPct: r.gap === null ? nan : 100 * r.gap,
    solveSeconds: r.solveCpuMs === null ? nan : r.solveCpuMs / 1000,
    solveWallSeconds: r.solveTimeMs / 1000,
    nodes: r.nodes,
    mipMakespan: r.makespan ?? nan,
    theta: r.theta,
    variables: r.variables,
  };
}

/** An OAS variant (`oas` with the given options). */
const oasPolicy = (options: Record<string, string | boolean> = {}): SchedulerChoice => {
  const entry = oasEntry();
  return selfRunPolicy(entry.name, entry.description, options, entry.options);
};

/** A heuristic (lower-case rule name), link-aware unless `links` is false. */
const heuristicPolicy = (rule: OasRule, links = true): SchedulerChoice =>
  selfRunPolicy(
    rule.toLowerCase(),
    oasRuleDescription(rule),
    links ? {} : { links: false },
    OAS_HEURISTIC_OPTIONS,
  );

/** The comparison's policies: OAS (own, compacted, warm-started), then the six heuristics. */
export function oasPolicies(): SchedulerChoice[] {
  return [
    oasPolicy(),
    oasPolicy({ replay: "compact" }),
    oasPolicy({ warmStart: true }),
    ...OAS_RULES.map((rule) => heuristicPolicy(rule)),
  ];
}

/** The links study's policies: OAS with and without (21)-(22), the heuristics aware and blind. */
export function oasLinksPolicies(): SchedulerChoice[] {
  return [
    oasPolicy(),
    oasPolicy({ links: false }),
    ...OAS_RULES.map((rule) => heuristicPolicy(rule)),
    ...OAS_RULES.map((rule) => heuristicPolicy(rule, false)),
  ];
}

/** One run of an OAS experiment: an OAS variant or a heuristic. */
async function runOasPolicy({
  params,
  seed,
  scheduler,
}: Parameters<NonNullable<Experiment["run"]>>[0]): Promise<ExperimentRunResult> {
  const { instance, profile } = oasPoint(params, seed);
  const o = scheduler.options;
  if (scheduler.entry.name === "oas") {
    const key: SolveKey = { warmStart: o.warmStart === true, links: o.links !== false };
    const r = await solveFor(params, seed, key, instance, profile);
    const compact = o.replay === "compact";
    const trace =
      r.schedule.length === 0
        ? null
        : replay(instance, oasPlanScheduler(r.schedule, r.eta, { compact, profile }));
    return {
      metrics: {
        ...(trace === null
          ? { makespan: nan, meanResponse: nan, utilization: nan, contentionSlowed: nan }
          : traceMetrics(trace, profile)),
        slottedMakespan: r.makespan ?? nan,
        ...solverMetrics(r),
      },
      events: trace?.stats.events ?? 0,
      decisions: trace?.stats.decisions ?? 0,
      schedulerMs: r.buildTimeMs + r.solveTimeMs,
    };
  }
  const rule = OAS_RULES.find((r) => r.toLowerCase() === scheduler.entry.name);
  if (rule === undefined) {
    throw new UsageError(
      `reproduce: scheduler '${scheduler.entry.name}' is neither OAS nor one of its heuristics`,
      "reproduce",
    );
  }
  const trace = replay(
    instance,
    oasHeuristic(rule, {
      profile,
      links: o.links !== false,
      allocationCandidates: candidatesOf(params),
    }),
  );
  return {
    metrics: {
      ...traceMetrics(trace, profile),
      slottedMakespan: slottedMakespan(
        trace,
        instance.jobs,
        slotSize(params, instance.jobs),
        profile,
      ),
      ...solverMetrics(null),
    },
    events: trace.stats.events,
    decisions: trace.stats.decisions,
    schedulerMs: trace.stats.schedulerMs,
  };
}

const COMPARISON_METRICS: readonly ExperimentMetric[] = [
  { key: "makespan", title: "makespan (s)", digits: 1, better: "lower" },
  { key: "meanResponse", title: "mean response (s)", digits: 1, better: "lower" },
  { key: "utilization", title: "utilization", digits: 4, better: "higher" },
  { key: "contentionSlowed", title: "jobs slowed by contention", digits: 2, better: "lower" },
  { key: "slottedMakespan", title: "slotted makespan (s)", digits: 1, better: "lower" },
  { key: "optimal", title: "proven optimal", digits: 2, better: "higher" },
  { key: "gapPct", title: "gap (%)", digits: 2, better: "lower" },
  { key: "mipMakespan", title: "MIP makespan (s)", digits: 1, better: "lower" },
  { key: "nodes", title: "B&B nodes", digits: 0, better: "none" },
  { key: "solveSeconds", title: "solve CPU (s)", digits: 2, better: "lower" },
  { key: "solveWallSeconds", title: "solve wall (s)", digits: 2, better: "lower" },
];

const SHARED_DESCRIPTION =
  "Platform: 3 clusters x nodesPerCluster nodes, Gamma gamma1/gamma2/gamma3, links of linkBandwidth MB/s " +
  "(the paper's 3 x 2, 1/0.75/0.5, Gigabit). Batches: @sched/workload's oasWorkload (the paper gives no " +
  "job figures; `sched-sim gen oas` writes the same jobs), jobs submitted at 0. The MIP (the configuration " +
  "form by default) is solved by HiGHS within maxNodes branch-and-bound nodes, so every figure but the " +
  "solve times is deterministic; optimal is 1 when HiGHS' bound, rounded up to whole slots, meets the " +
  "incumbent. solveSeconds is the process's CPU time during the solve (the solve's own with --jobs 1; " +
  "worker threads share the process's clock), solveWallSeconds wall clock: neither is deterministic. " +
  "Every schedule runs in core's engine with the OAS cost model, link contention charged (eq. 5-7 over " +
  "the running jobs); contentionSlowed counts the jobs it slowed. slottedMakespan is each run in the MIP's " +
  "own slotted model (OAS: the MIP's makespan; a heuristic: its run made slotted, same order and " +
  "allocations, whole slots of eta), where the proven optimum is at or below every heuristic. 'report' " +
  "draws no Gantt chart.";

/**
 * `oas`: the OAS paper's comparison (§4.2): OAS (its own schedule at its slots; compacted; and
 * warm-started, as separate policies) against FCFS, SJF, BJF, FPFS, SPT and LPT on WL-1..WL-6.
 */
export const oasReproduction: Experiment = {
  name: "oas",
  title: "OAS (MIP, HiGHS) vs FCFS/SJF/BJF/FPFS/SPT/LPT on WL-1..WL-6 (3x2 multi-cluster)",
  description:
    "The OAS paper's comparison (Blanco et al., §4.2): makespan, mean response and utilization of OAS " +
    "and of the six heuristics (same link-aware allocation and cost model), per batch WL-1..WL-6 (WL-3 and " +
    "WL-6 with --quick). OAS is the MIP's own schedule (no warm start) at its slots (slot size " +
    "slotFraction x the mean base time), 'oas(replay=compact)' the same schedule compacted, " +
    "'oas(warmStart=true)' the MIP started from the best list schedule and heuristic run, at its slots. " +
    `Moderate per-task bandwidths (links rarely bind). ${SHARED_DESCRIPTION}`,
  parameters: oasParameters("moderate"),
  check: checkOas,
  grid: (quick) => [{ name: "workload", values: quick ? OAS_QUICK_WORKLOADS : OAS_WORKLOADS }],
  defaultSeeds: () => 1,
  schedulers: oasPolicies,
  metrics: COMPARISON_METRICS,
  figures: OAS_FIGURES,
  workload: oasWorkloadOf,
  instance: (params, seed) => oasPoint(params, seed).instance,
  run: runOasPolicy,
};

/**
 * `oas-links`: the co-allocation half of the paper (eq. 4-7, constraints 21-22) made to bind:
 * the heavy bandwidth family, OAS with and without the link constraints, the heuristics
 * link-aware and link-blind; `contentionSlowed` counts the jobs contention slowed.
 */
export const oasLinksReproduction: Experiment = {
  name: "oas-links",
  title: "OAS and the heuristics, link-aware and link-blind, when links bind (heavy bandwidths)",
  description:
    "The co-allocation half of the OAS paper (eq. 4-7, constraints 21-22) on the heavy bandwidth family: " +
    "per-task bandwidths of 65-78 MB/s, so any two co-allocated jobs with tasks in a common cluster " +
    "saturate its link while every job fits alone. Policies: OAS (its own schedule at its slots), " +
    "'oas(links=false)' (the MIP without constraints 21-22), the six heuristics link-aware and " +
    "link-blind ('(links=false)': they co-allocate without looking at links, and the engine charges " +
    `the contention). ${SHARED_DESCRIPTION}`,
  parameters: oasParameters("heavy"),
  check: checkOas,
  grid: (quick) => [{ name: "workload", values: quick ? OAS_QUICK_WORKLOADS : OAS_WORKLOADS }],
  defaultSeeds: () => 1,
  schedulers: oasLinksPolicies,
  metrics: COMPARISON_METRICS,
  figures: OAS_LINKS_FIGURES,
  workload: oasWorkloadOf,
  instance: (params, seed) => oasPoint(params, seed).instance,
  run: runOasPolicy,
};

/**
 * `oas-slots`: the OAS paper's slot-size study (§4.1): the slot size from 15% to 250% of the
 * mean base time on one batch: the MIP's slotted makespan, its schedule run at its slots and
 * compacted, whether it is proven optimal, and the solve's nodes and time.
 */
export const oasSlotsReproduction: Experiment = {
  name: "oas-slots",
  title: "OAS: makespan and solve time against the slot size (15%..250% of the mean base time)",
  description:
    "The OAS paper's slot-size study (Blanco et al., §4.1): OAS on one batch (workload, WL-3 by default) " +
    "with the slot size eta = slotFraction x the mean base time (0.15..2.5; 0.5 and 2 with --quick). " +
    "Metrics: mipMakespan (the MIP's slotted makespan, slots x eta), makespan (its schedule run in the " +
    "engine: 'oas' at its slots, 'oas(replay=compact)' compacted), optimal, gapPct, nodes, theta (the " +
    "horizon, slots), variables, and the solve's CPU and wall time. --vary formulation=configurations," +
    `resources shows the paper's per-resource form's growth (with a smaller maxNodes). ${SHARED_DESCRIPTION}`,
  parameters: oasParameters("moderate"),
  check: checkOas,
  grid: (quick) => [
    { name: "slotFraction", values: quick ? OAS_QUICK_SLOT_FRACTIONS : OAS_SLOT_FRACTIONS },
  ],
  defaultSeeds: () => 1,
  schedulers: () => [oasPolicy(), oasPolicy({ replay: "compact" })],
  metrics: [
    { key: "mipMakespan", title: "MIP makespan (s)", digits: 1, better: "lower" },
    { key: "makespan", title: "makespan (s)", digits: 1, better: "lower" },
    { key: "optimal", title: "proven optimal", digits: 2, better: "higher" },
    { key: "gapPct", title: "gap (%)", digits: 2, better: "lower" },
    { key: "nodes", title: "B&B nodes", digits: 0, better: "none" },
    { key: "theta", title: "theta (slots)", digits: 0, better: "none" },
    { key: "variables", title: "variables", digits: 0, better: "none" },
    { key: "solveSeconds", title: "solve CPU (s)", digits: 2, better: "lower" },
    { key: "solveWallSeconds", title: "solve wall (s)", digits: 2, better: "lower" },
  ],
  figures: OAS_SLOTS_FIGURES,
  workload: oasWorkloadOf,
  instance: (params, seed) => oasPoint(params, seed).instance,
  run: runOasPolicy,
};
