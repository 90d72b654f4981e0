import { identicalPool } from "@sched/core";
import { COMPARED_SCHEDULERS, comparedSchedulers } from "../schedulers.js";
import { SYNTHETIC_DESCRIPTION, syntheticWorkload } from "../synthetic.js";
import type { Experiment } from "./experiment.js";
import { FCFS_LOAD_FIGURES } from "./fcfs-load-figures.js";
import { numberParam } from "./parameters.js";

/**
 * `fcfs-load`: FCFS, EASY and conservative backfilling on a 128-processor pool, fed the CLI's
 * synthetic workload at offered loads 0.2..0.8 (FCFS saturates near 0.5 on it). For one seed,
 * all loads use the same jobs; only arrival times are scaled (common random numbers across
 * loads, the usual way to sweep load).
 */
export const fcfsLoad: Experiment = {
  name: "fcfs-load",
  title: "Mean wait and bounded slowdown against offered load, 128 processors",
  description:
    `Workload: ${SYNTHETIC_DESCRIPTION}; 5000 jobs (1000 with --quick) per seed on 128 ` +
    "identical processors. For one seed every load uses the same jobs, only the arrival times " +
    `are scaled. Policies: ${COMPARED_SCHEDULERS.join(", ")} (@sched/backfill). Metrics: mean ` +
    "wait (s) and mean bounded slowdown (tau = 10 s), mean and Student-t 95% CI over seeds.",
  parameters: [
    {
      name: "load",
      type: "number",
      default: 0.5,
      min: 0,
      minExclusive: true,
      meaning: "Offered load: total work / (processors x span of the arrivals).",
      source: "the CLI's synthetic workload (apps/sim README)",
    },
    {
      name: "jobs",
      type: "integer",
      default: 5000,
      quick: 1000,
      min: 1,
      meaning: "Jobs per run.",
      source: "the CLI's synthetic workload (apps/sim README)",
    },
    {
      name: "procs",
      type: "integer",
      default: 128,
      min: 1,
      meaning: "Identical processors of the pool.",
      source: "the CLI's synthetic workload (apps/sim README)",
    },
  ],
  grid: (quick) => [
    { name: "load", values: quick ? [0.3, 0.5, 0.7] : [0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8] },
  ],
  defaultSeeds: (quick) => (quick ? 3 : 10),
  schedulers: comparedSchedulers,
  metrics: [
    { key: "meanWait", title: "mean wait (s)", digits: 1, better: "lower" },
    { key: "meanBoundedSlowdown", title: "mean bsld", digits: 2, better: "lower" },
  ],
  figures: FCFS_LOAD_FIGURES,
  instance: (params, seed) => {
    const procs = numberParam(params, "procs");
    return {
      jobs: syntheticWorkload({
        jobs: numberParam(params, "jobs"),
        procs,
        load: numberParam(params, "load"),
        seed,
      }),
      platform: identicalPool(procs),
    };
  },
};
