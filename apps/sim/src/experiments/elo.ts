import { eloInstance } from "@sched/elo";
import { findScheduler } from "../schedulers.js";
import type { Experiment } from "./experiment.js";

/** The policies the competitive-matchmaking paper compares, in its order. */
export const ELO_SCHEDULERS: readonly string[] = [
  "competitive",
  "min-min",
  "random",
  "max-min",
  "mct",
];

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
    param: "jobs",
    values: (quick) => (quick ? [10, 60] : [10, 15, 20, 40, 60]),
    defaultSeeds: (quick) => (quick ? 3 : 10),
    schedulers: () =>
      ELO_SCHEDULERS.map((n) => ({ entry: findScheduler(n, "reproduce"), options: {}, label: n })),
    metrics: [
      { key: "makespan", title: "makespan (s)", digits: 1 },
      { key: "meanResponse", title: "mean response (s)", digits: 1 },
    ],
    instance: (jobs, seed) => eloInstance({ machines, jobs, seed }),
  };
}

/** `elo` (30 machines) and `elo-60` (60 machines). */
export const eloExperiments: readonly Experiment[] = [eloBatch(30), eloBatch(60)];
