import {
  type BackgroundSharing,
  type BaselinePartition,
  type BaselineSelection,
  CLUSTER_PROXIMITIES,
  CLUSTER_SELECTIONS,
  type ClusterProximity,
  type ClusterSelection,
  DYNAMIC_ALLOTMENTS,
  type DynamicAllotment,
  type SpaceSharingOptions,
  type SpaceSharingPolicy,
  simulateSpaceSharing,
} from "@sched/multicluster";
import type { SchedulerChoice } from "../schedulers.js";
import type { Experiment, ExperimentWorkload } from "./experiment.js";
import { numberParam, type ParameterSpec, type Params, textParam } from "./parameters.js";
import { selfRunPolicy } from "./self-run-policy.js";
import { SPACE_SHARING_FIGURES } from "./space-sharing-figures.js";
import { generateWorkload } from "./workload.js";

/** Offered loads, and the `--quick` grid. */
export const SPACE_SHARING_LOADS: readonly number[] = [0.2, 0.4, 0.6, 0.8];
export const SPACE_SHARING_QUICK_LOADS: readonly number[] = [0.3, 0.7];

/** Background loads compared: none, and the package's assumed level. */
export const SPACE_SHARING_BACKGROUND_LOADS: readonly number[] = [0, 0.3];

/** Platforms compared: the paper's homogeneous one (§4.1) and a heterogeneous one (§4.2). */
export const SPACE_SHARING_SPEEDS: readonly string[] = ["homogeneous", "heterogeneous"];

const PAPER = "Abawajy, §3";
const ASSUMED = "packages/multicluster README, Interpretation (space sharing)";

/** The space-sharing experiment's parameters. */
const SPACE_SHARING_PARAMETERS: readonly ParameterSpec[] = [
  {
    name: "load",
    type: "number",
    default: 0.5,
    min: 0,
    minExclusive: true,
    max: 0.99,
    meaning:
      "Offered load: arrival rate x mean service demand / capacity (the paper's 'average utilization').",
    source: PAPER,
  },
  {
    name: "speeds",
    type: "choice",
    choices: ["homogeneous", "heterogeneous", "clock"],
    default: "heterogeneous",
    meaning:
      "Cluster speeds: homogeneous (all 1), heterogeneous (1, 1, 1.3, 1.3, 1.7, 1.7, 2.2, 2.2) or clock (Pentium III/4 clock rates 0.8..3.2).",
    source: `${PAPER} (SPECfp2000 of Pentium 3/4, not listed); ${ASSUMED}`,
  },
  {
    name: "backgroundLoad",
    type: "number",
    default: 0,
    min: 0,
    max: 0.99,
    meaning:
      "Background (local) load per processor: the fraction of time local jobs would use it alone.",
    source: `${PAPER} (not given); ${ASSUMED}`,
  },
  {
    name: "loadBasis",
    type: "choice",
    choices: ["capacity", "processors"],
    default: "capacity",
    meaning:
      "What the offered load is a fraction of: the processors' total speed (capacity) or their number.",
    source: ASSUMED,
  },
  {
    name: "jobs",
    type: "integer",
    default: 2000,
    quick: 200,
    min: 1,
    meaning: "Parallel jobs per run.",
    source: ASSUMED,
  },
  {
    name: "clusters",
    type: "integer",
    default: 8,
    min: 1,
    meaning: "Clusters.",
    source: `${PAPER} (8 clusters of 8 processors)`,
  },
  {
    name: "processorsPerCluster",
    type: "integer",
    default: 8,
    min: 1,
    meaning: "Processors per cluster.",
    source: `${PAPER} (8 clusters of 8 processors)`,
  },
  {
    name: "meanDemand",
    type: "number",
    default: 14.06,
    min: 0,
    minExclusive: true,
    meaning: "Mean service demand of a parallel job, s (hyper-exponential).",
    source: PAPER,
  },
  {
    name: "demandCv",
    type: "number",
    default: 3.5,
    min: 1,
    meaning: "Coefficient of variation of the service demand.",
    source: PAPER,
  },
  {
    name: "arrivalCv",
    type: "number",
    default: 1,
    min: 1,
    meaning: "Coefficient of variation of the inter-arrival times (1: Poisson).",
    source: PAPER,
  },
  {
    name: "maxParallelism",
    type: "integer",
    default: 64,
    min: 1,
    meaning: "Largest maximum parallelism (uniform from 1).",
    source: PAPER,
  },
  {
    name: "jobSizeKB",
    type: "number",
    default: 1024,
    min: 1,
    meaning: "Largest job size, KB (uniform from 1; the data scattered at start).",
    source: `${PAPER} (size in Kbytes, range not given); ${ASSUMED}`,
  },
  {
    name: "bandwidth",
    type: "number",
    default: 100,
    min: 0,
    minExclusive: true,
    meaning: "Network transfer rate, Mbit/s.",
    source: `${PAPER} (100 Mbit/s)`,
  },
  {
    name: "startup",
    type: "number",
    default: 50,
    min: 0,
    meaning: "Message startup (network latency), microseconds.",
    source: `${PAPER} (50 us)`,
  },
  {
    name: "contextSwitch",
    type: "number",
    default: 200,
    min: 0,
    meaning: "Context switch cost, microseconds (twice per local job a parallel task meets).",
    source: `${PAPER} (200 us)`,
  },
  {
    name: "alpha",
    type: "integer",
    default: 2,
    min: 0,
    meaning: "Space-sharing threshold alpha of the dynamic policy.",
    source: `${PAPER} (alpha = 2)`,
  },
  {
    name: "clusterSelection",
    type: "choice",
    choices: CLUSTER_SELECTIONS,
    default: "fastest",
    meaning:
      "The dynamic policy's cluster when several have enough available processors ('within the same cluster if possible'): fastest (its fastest processors fastest in total), best-fit (fewest available), or lowest-index.",
    source: `Abawajy, §2.2; ${ASSUMED}`,
  },
  {
    name: "clusterProximity",
    type: "choice",
    choices: CLUSTER_PROXIMITIES,
    default: "line",
    meaning:
      "How the dynamic policy spreads a job no cluster can hold ('taking cluster proximity into account'), from the cluster with the most available processors: line (the others by index distance, clusters on a line), fewest-clusters (the others by most available, spanning the fewest clusters), or fastest (the fastest available processors of the other clusters).",
    source: `Abawajy, §2.2; ${ASSUMED}`,
  },
  {
    name: "dynamicAllotment",
    type: "choice",
    choices: DYNAMIC_ALLOTMENTS,
    default: "pool",
    meaning:
      "Processors the dynamic policy gives the head job: pool, min(target, idle) once min(target, alpha) are idle; target, exactly target (eq. 1), waiting until that many are idle ('assigns a set of processors equal to the lesser of the partition size and the job's maximum parallelism', read literally; alpha then plays no role).",
    source: `Abawajy, §2.2; ${ASSUMED}`,
  },
  {
    name: "mpl",
    type: "number",
    default: 2,
    min: 1,
    minExclusive: true,
    meaning:
      "Multiprogramming level: in the fitness factor, and a parallel task's share 1/MPL of a processor shared with a local job.",
    source: `${PAPER} (MPL = 2)`,
  },
  {
    name: "backgroundMeanDemand",
    type: "number",
    default: 2,
    min: 0,
    minExclusive: true,
    meaning: "Mean service demand of a local job, s (exponential).",
    source: `${PAPER} (background job mean service demand = 2.0)`,
  },
  {
    name: "backgroundSharing",
    type: "choice",
    choices: ["conserving", "legacy"],
    default: "conserving",
    meaning:
      "A processor running a task and a local job: the local job gets the rest of the CPU (conserving) or all of it (legacy: 1 + 1/MPL CPUs).",
    source: ASSUMED,
  },
  {
    name: "baselinePartition",
    type: "choice",
    choices: ["map", "rosti"],
    default: "map",
    meaning:
      "The baseline's partition size: MAP, from every job in the system (its reference [2]), or Rosti's, from the queued jobs.",
    source: `${PAPER}.1, §4.2 and its [2]; ${ASSUMED}`,
  },
  {
    name: "executingWeight",
    type: "number",
    default: 1,
    min: 0,
    meaning:
      "MAP: weight of the executing jobs in ceil(P / (queued + 1 + weight x executing)) (1: every job once; 0.5: the dynamic policy's eq. 2).",
    source: ASSUMED,
  },
  {
    name: "baselineSelection",
    type: "choice",
    choices: ["random", "fastest", "lowest-index"],
    default: "random",
    meaning:
      "The baseline's processors: random (oblivious to selection, as the paper says classical policies are), fastest, or lowest index.",
    source: `${PAPER}, §2.1; ${ASSUMED}`,
  },
];

/** The @sched/workload model and options of the jobs (`sched-sim gen multicluster`). */
function spaceSharingWorkload(params: Params): ExperimentWorkload {
  const v = (k: string) => numberParam(params, k);
  return {
    model: "multicluster",
    options: {
      jobs: v("jobs"),
      clusters: v("clusters"),
      processorsPerCluster: v("processorsPerCluster"),
      speeds: textParam(params, "speeds"),
      load: v("load"),
      loadBasis: textParam(params, "loadBasis"),
      meanServiceDemand: v("meanDemand"),
      serviceCV: v("demandCv"),
      arrivalCV: v("arrivalCv"),
      maxParallelism: [1, v("maxParallelism")],
      jobSizeKB: [1, v("jobSizeKB")],
      linkBandwidth: (v("bandwidth") * 1e6) / 8,
    },
  };
}

/** The simulator's options for a policy at `params` and `seed`. */
function simulatorOptions(
  params: Params,
  seed: number,
  policy: SpaceSharingPolicy,
): SpaceSharingOptions {
  const v = (k: string) => numberParam(params, k);
  return {
    policy,
    alpha: v("alpha"),
    clusterSelection: textParam<ClusterSelection>(params, "clusterSelection"),
    clusterProximity: textParam<ClusterProximity>(params, "clusterProximity"),
    dynamicAllotment: textParam<DynamicAllotment>(params, "dynamicAllotment"),
    mpl: v("mpl"),
    backgroundLoad: v("backgroundLoad"),
    backgroundMeanDemand: v("backgroundMeanDemand"),
    backgroundSharing: textParam<BackgroundSharing>(params, "backgroundSharing"),
    contextSwitch: v("contextSwitch") * 1e-6,
    startup: v("startup") * 1e-6,
    bandwidth: (v("bandwidth") * 1e6) / 8,
    baselinePartition: textParam<BaselinePartition>(params, "baselinePartition"),
    executingWeight: v("executingWeight"),
    baselineSelection: textParam<BaselineSelection>(params, "baselineSelection"),
    seed,
  };
}

/**
 * The policies: the dynamic policy, the baseline (adaptive partitioning: MAP by default), and
 * `dynamic-vs-adaptive`, which runs both on the same jobs and background and reports the
 * paired difference (so its mean and 95% interval over seeds are the paired ones).
 */
export function spaceSharingPolicies(): SchedulerChoice[] {
  return [
    selfRunPolicy(
      "dynamic",
      "Abawajy's dynamic space sharing: partition from queued and executing jobs, speed-weighted bunches, processors returned one by one.",
    ),
    selfRunPolicy(
      "adaptive",
      "The baseline (MAP/MPAP): partition from every job in the system and all P processors, even split, processors held until the job ends.",
    ),
    selfRunPolicy(
      "dynamic-vs-adaptive",
      "Both policies on the same jobs and background load: the paired difference of their mean response times.",
    ),
  ];
}

/** Mean response and utilization of one policy's run. */
function runPolicy(
  params: Params,
  seed: number,
  instance: Parameters<NonNullable<Experiment["run"]>>[0]["instance"],
  policy: SpaceSharingPolicy,
) {
  return simulateSpaceSharing(
    instance.jobs,
    instance.platform,
    simulatorOptions(params, seed, policy),
  );
}

/**
 * `space-sharing`: the dynamic-space-sharing paper's experiment (Abawajy, ICCS 2004): mean
 * response time against offered load, the dynamic policy against its baseline, on 8 x 8
 * processors, homogeneous and heterogeneous, with and without background load; paired
 * differences over seeds.
 */
export const spaceSharingReproduction: Experiment = {
  name: "space-sharing",
  title:
    "Dynamic space sharing vs adaptive partitioning (MAP) on 8x8 multi-cluster (moldable jobs)",
  description:
    "The dynamic-space-sharing paper's experiment (Abawajy, ICCS 2004, §3-4): mean response time and " +
    "utilization against offered load (0.2..0.8; 0.3 and 0.7 with --quick) of the dynamic policy and its " +
    "baseline (adaptive partitioning, MAP: partition ceil(P / (queued + 1 + executing)) on all P " +
    "processors, blind to background load, random processors, even split, processors held until the job " +
    "ends), on 8 clusters x 8 processors (100 Mbit/s), homogeneous and heterogeneous (speeds), without " +
    "and with background load 0.3 per processor (MPL 2, mean local demand 2 s, a processor shared by a " +
    "task and a local job gives each its share). 'dynamic-vs-adaptive' runs both on the same jobs and " +
    "background and reports gainPct = 100 x (adaptive - dynamic) / adaptive mean response and " +
    "responseDiff = adaptive - dynamic (s): their mean and Student-t 95% CI over seeds are the paired " +
    "ones. Jobs: @sched/workload's multiclusterWorkload (`sched-sim gen multicluster` writes them), the " +
    "load a fraction of the platform's capacity (its total speed), 2000 per run (200 with --quick). Runs " +
    "in @sched/multicluster's own simulator (simulateSpaceSharing), which returns each processor of a " +
    "dynamic job when its bunch ends (core's engine cannot), so 'report' draws no Gantt chart. " +
    "Utilization is processor-time held by parallel jobs / (processors x span).",
  parameters: SPACE_SHARING_PARAMETERS,
  grid: (quick) => [
    { name: "speeds", values: SPACE_SHARING_SPEEDS },
    { name: "backgroundLoad", values: SPACE_SHARING_BACKGROUND_LOADS },
    { name: "load", values: quick ? SPACE_SHARING_QUICK_LOADS : SPACE_SHARING_LOADS },
  ],
  defaultSeeds: (quick) => (quick ? 2 : 10),
  schedulers: spaceSharingPolicies,
  metrics: [
    { key: "meanResponse", title: "mean response (s)", digits: 3, better: "lower" },
    { key: "utilization", title: "utilization", digits: 4, better: "higher" },
    { key: "gainPct", title: "dynamic better by (%)", digits: 1, better: "none" },
    { key: "responseDiff", title: "adaptive - dynamic (s)", digits: 3, better: "none" },
  ],
  figures: SPACE_SHARING_FIGURES,
  workload: spaceSharingWorkload,
  instance: (params, seed) => {
    const { jobs, platform } = generateWorkload(spaceSharingWorkload(params), seed);
    return { jobs, platform };
  },
  run: ({ instance, params, seed, scheduler }) => {
    const started = performance.now();
    const name = scheduler.entry.name;
    if (name === "dynamic-vs-adaptive") {
      const d = runPolicy(params, seed, instance, "dynamic");
      const a = runPolicy(params, seed, instance, "adaptive");
      return {
        metrics: {
          meanResponse: Number.NaN,
          utilization: Number.NaN,
          gainPct: (100 * (a.meanResponse - d.meanResponse)) / a.meanResponse,
          responseDiff: a.meanResponse - d.meanResponse,
        },
        events: 0,
        decisions: d.decisions + a.decisions,
        schedulerMs: performance.now() - started,
      };
    }
    const r = runPolicy(params, seed, instance, name as SpaceSharingPolicy);
    return {
      metrics: {
        meanResponse: r.meanResponse,
        utilization: r.utilization,
        gainPct: Number.NaN,
        responseDiff: Number.NaN,
      },
      events: 0,
      decisions: r.decisions,
      schedulerMs: performance.now() - started,
    };
  },
};
