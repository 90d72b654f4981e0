import { eloInstance } from "@sched/elo";
import { findScheduler } from "../schedulers.js";
import type { Experiment } from "./experiment.js";
import { numberParam, type ParameterSpec } from "./parameters.js";

/** The policies the competitive-matchmaking paper compares, in its order. */
export const ELO_SCHEDULERS: readonly string[] = [
  "competitive",
  "min-min",
  "random",
  "max-min",
  "mct",
];

const PAPER = "Mendez Lopez and Garcia Nocetti, §5";
const ASSUMED = "packages/elo README, Interpretation";

function eloParameters(machines: number): ParameterSpec[] {
  return [
    {
      name: "jobs",
      type: "integer",
      default: 20,
      min: 1,
      meaning: "Jobs per set (all submitted at time 0 unless meanInterarrival > 0).",
      source: PAPER,
    },
    {
      name: "machines",
      type: "integer",
      default: machines,
      min: 1,
      meaning: "Machines of the system.",
      source: PAPER,
    },
    {
      name: "minSpeed",
      type: "number",
      default: 5,
      min: 0,
      minExclusive: true,
      meaning: "Slowest machine benchmark (Mflops, uniform).",
      source: PAPER,
    },
    {
      name: "maxSpeed",
      type: "number",
      default: 9,
      min: 0,
      minExclusive: true,
      meaning: "Fastest machine benchmark (Mflops); also MAXSPEED of the win condition.",
      source: PAPER,
    },
    {
      name: "fluctuation",
      type: "number",
      default: 0.1,
      min: 0,
      max: 0.99,
      meaning: "Hidden per-job speed fluctuation: a machine runs at its benchmark x (1 +- this).",
      source: ASSUMED,
    },
    {
      name: "meanInterarrival",
      type: "number",
      default: 0,
      min: 0,
      meaning: "Mean gap between submissions (s); 0: every job at time 0 (a batch).",
      source: ASSUMED,
    },
  ];
}

function eloBatch(machines: number): Experiment {
  return {
    name: machines === 30 ? "elo" : `elo-${machines}`,
    title: `Competitive matchmaking vs Min-Min, Max-Min, MCT, random: ${machines} machines`,
    description:
      "The competitive-matchmaking paper's batch experiment (its Fig. 3): sets of independent " +
      "single-core jobs of 1e3..9e9 operations (log-uniform), all submitted at time 0, on " +
      `${machines} machines whose benchmarks are uniform in 5..9 Mflops; each machine really runs ` +
      "at its benchmark +-10% per job, hidden from the policies (@sched/elo's eloInstance). " +
      "Metrics: makespan and mean response (s), mean and Student-t 95% CI over seeds.",
    parameters: eloParameters(machines),
    grid: (quick) => [{ name: "jobs", values: quick ? [10, 60] : [10, 15, 20, 40, 60] }],
    defaultSeeds: (quick) => (quick ? 3 : 10),
    schedulers: () =>
      ELO_SCHEDULERS.map((n) => ({ entry: findScheduler(n, "reproduce"), options: {}, label: n })),
    metrics: [
      { key: "makespan", title: "makespan (s)", digits: 1 },
      { key: "meanResponse", title: "mean response (s)", digits: 1 },
    ],
    instance: (params, seed) =>
      eloInstance({
        machines: numberParam(params, "machines"),
        jobs: numberParam(params, "jobs"),
        seed,
        minSpeed: numberParam(params, "minSpeed"),
        maxSpeed: numberParam(params, "maxSpeed"),
        fluctuation: numberParam(params, "fluctuation"),
        meanInterarrival: numberParam(params, "meanInterarrival"),
      }),
  };
}

/** `elo` (30 machines) and `elo-60` (60 machines). */
export const eloExperiments: readonly Experiment[] = [eloBatch(30), eloBatch(60)];
