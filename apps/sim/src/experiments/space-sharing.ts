import type { Platform } from "@sched/core";
import {
  moldableWorkload,
  multiClusterPlatform,
  type SpaceSharingPolicy,
  simulateSpaceSharing,
} from "@sched/multicluster";
import type { SchedulerChoice } from "../schedulers.js";
import type { Experiment } from "./experiment.js";
import { numberParam, type ParameterSpec } from "./parameters.js";
import { selfRunPolicy } from "./self-run-policy.js";
import { SPACE_SHARING_FIGURES } from "./space-sharing-figures.js";

/** Clusters and processors per cluster: the paper's 8 x 8. */
const CLUSTERS = 8;
const NODES = 8;
const PROCESSORS = CLUSTERS * NODES;

/** Link bandwidth of each cluster, bytes/s: the paper's 100 Mbit/s. */
const BANDWIDTH = 12.5e6;

/**
 * Cluster speeds of the heterogeneous platform: @sched/multicluster's `spaceSharingExperiment`
 * default (assumed; the paper does not list its Pentium 3/4 ratios).
 */
export const SPACE_SHARING_HETEROGENEOUS_SPEEDS: readonly number[] = [
  1, 1, 1.3, 1.3, 1.7, 1.7, 2.2, 2.2,
];

/** Background load when it is on: the package's default (the paper gives MPL 2, demand 2.0). */
export const SPACE_SHARING_BACKGROUND = 0.3;

/** Offered loads, and the `--quick` grid. */
export const SPACE_SHARING_LOADS: readonly number[] = [0.2, 0.4, 0.6, 0.8];
export const SPACE_SHARING_QUICK_LOADS: readonly number[] = [0.3, 0.7];

/** Jobs per run: 2000 as in the package's experiment, 200 with `--quick`. */
export const SPACE_SHARING_JOBS = 2000;
export const SPACE_SHARING_QUICK_JOBS = 200;

function platformOf(heterogeneous: boolean): Platform {
  return multiClusterPlatform(
    Array.from({ length: CLUSTERS }, (_, k) => ({
      nodes: NODES,
      speed: heterogeneous
        ? (SPACE_SHARING_HETEROGENEOUS_SPEEDS[
            k % SPACE_SHARING_HETEROGENEOUS_SPEEDS.length
          ] as number)
        : 1,
      bandwidth: BANDWIDTH,
    })),
  );
}

const DESCRIPTIONS: Readonly<Record<SpaceSharingPolicy, string>> = {
  dynamic:
    "Abawajy's dynamic space sharing: partition from queued and executing jobs, speed-weighted bunches.",
  adaptive:
    "Adaptive partitioning (the baseline): partition from P and the queue, even split, lowest-index processors.",
};

/**
 * The eight policies: {dynamic, adaptive} x {homogeneous, heterogeneous} x {without, with}
 * background load (its level is the experiment's parameter `backgroundLoad`).
 */
export function spaceSharingPolicies(): SchedulerChoice[] {
  const out: SchedulerChoice[] = [];
  for (const platform of ["homogeneous", "heterogeneous"]) {
    for (const background of [false, true]) {
      for (const policy of ["dynamic", "adaptive"] as const) {
        out.push(
          selfRunPolicy(policy, DESCRIPTIONS[policy], { background, platform }, [
            {
              key: "background",
              type: "boolean",
              description: "Background load on every processor (its level: backgroundLoad).",
            },
            {
              key: "platform",
              type: "string",
              choices: ["homogeneous", "heterogeneous"],
              description: "Cluster speeds: all 1, or 1 / 1.3 / 1.7 / 2.2 (two clusters each).",
            },
          ]),
        );
      }
    }
  }
  return out;
}

const PAPER = "Abawajy, §3";
const ASSUMED = "packages/multicluster README, Interpretation";

/** The space-sharing experiment's parameters. */
const SPACE_SHARING_PARAMETERS: readonly ParameterSpec[] = [
  {
    name: "load",
    type: "number",
    default: 0.5,
    min: 0,
    minExclusive: true,
    max: 0.99,
    meaning: "Offered load of the parallel jobs (fraction of the processors).",
    source: PAPER,
  },
  {
    name: "jobs",
    type: "integer",
    default: SPACE_SHARING_JOBS,
    quick: SPACE_SHARING_QUICK_JOBS,
    min: 1,
    meaning: "Parallel jobs per run.",
    source: ASSUMED,
  },
  {
    name: "backgroundLoad",
    type: "number",
    default: SPACE_SHARING_BACKGROUND,
    min: 0,
    max: 0.99,
    meaning: "Background (local) load per processor of the policies run with background.",
    source: ASSUMED,
  },
  {
    name: "meanDemand",
    type: "number",
    default: 14.06,
    min: 0,
    minExclusive: true,
    meaning: "Mean service demand of a parallel job (s, hyper-exponential).",
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
];

/**
 * `space-sharing`: the dynamic-space-sharing paper's experiment (Abawajy, ICCS 2004): mean
 * response time and utilization against offered load, dynamic space sharing vs adaptive
 * partitioning, on 8 x 8 processors, homogeneous and heterogeneous, with and without background
 * load. Runs in @sched/multicluster's own simulator (`simulateSpaceSharing`, the reference: it
 * returns each processor to the pool when its bunch of tasks ends, which core's engine cannot;
 * the package's `simulateSpaceSharingOnCore` runs the same policies on core's engine, holding
 * processors until the job ends), through `Experiment.run`. A run at seed s equals
 * the matching row of the package's `spaceSharingExperiment({ seed: s })`.
 */
export const spaceSharingReproduction: Experiment = {
  name: "space-sharing",
  title: "Dynamic space sharing vs adaptive partitioning on 8x8 multi-cluster (moldable jobs)",
  description:
    "The dynamic-space-sharing paper's experiment (Abawajy, ICCS 2004, section 3): mean response " +
    "time and utilization against offered load (0.2..0.8; 0.3 and 0.7 with --quick) for the " +
    "dynamic policy and adaptive partitioning, on 8 clusters x 8 processors (100 Mbit/s links), " +
    "homogeneous (speed 1) and heterogeneous (speeds 1, 1.3, 1.7, 2.2, assumed), without and " +
    `with background load ${SPACE_SHARING_BACKGROUND} per processor (MPL 2, mean demand 2 s): ` +
    "eight policies, options background and platform. Workload: @sched/multicluster's " +
    `moldableWorkload, ${SPACE_SHARING_JOBS} jobs per run (${SPACE_SHARING_QUICK_JOBS} with ` +
    "--quick; Poisson arrivals, hyper-exponential demands of mean 14.06 and CV 3.5, maximum " +
    "parallelism 1..64), the same jobs for the eight policies. Runs in the package's own " +
    "simulator (simulateSpaceSharing, which returns each processor when its bunch of tasks " +
    "ends; core's engine holds processors until the job ends, see the package's " +
    "simulateSpaceSharingOnCore), so 'report' draws no Gantt chart. Utilization is processor-time held by parallel " +
    "jobs / capacity. Mean and Student-t 95% CI over seeds (workload and background seed).",
  parameters: SPACE_SHARING_PARAMETERS,
  grid: (quick) => [
    { name: "load", values: quick ? SPACE_SHARING_QUICK_LOADS : SPACE_SHARING_LOADS },
  ],
  defaultSeeds: (quick) => (quick ? 2 : 5),
  schedulers: spaceSharingPolicies,
  metrics: [
    { key: "meanResponse", title: "mean response (s)", digits: 2 },
    { key: "utilization", title: "utilization", digits: 4 },
  ],
  figures: SPACE_SHARING_FIGURES,
  instance: (params, seed) => ({
    jobs: moldableWorkload({
      jobs: numberParam(params, "jobs"),
      load: numberParam(params, "load"),
      processors: PROCESSORS,
      maxParallelism: PROCESSORS,
      meanDemand: numberParam(params, "meanDemand"),
      demandCv: numberParam(params, "demandCv"),
      seed,
    }),
    platform: platformOf(false),
  }),
  run: ({ instance, params, seed, scheduler }) => {
    const heterogeneous = scheduler.options.platform === "heterogeneous";
    const started = performance.now();
    const r = simulateSpaceSharing(
      instance.jobs,
      heterogeneous ? platformOf(true) : instance.platform,
      {
        policy: scheduler.entry.name as SpaceSharingPolicy,
        backgroundLoad:
          scheduler.options.background === true ? numberParam(params, "backgroundLoad") : 0,
        seed,
      },
    );
    return {
      metrics: {
        meanResponse: r.meanResponse,
        utilization: r.utilization,
        makespan: r.makespan,
        jobs: r.records.length,
      },
      events: 0,
      decisions: r.decisions,
      schedulerMs: performance.now() - started,
    };
  },
};
