import { PE_SELECTIONS, paperPolicies } from "@sched/advance-reservation";
import { createPlatform } from "@sched/core";
import { AR_ARRIVAL_READINGS, AR_RUNTIME_MAPPINGS } from "@sched/workload";
import { chooseScheduler } from "../schedulers.js";
import { AR_FIGURES } from "./advance-reservation-figures.js";
import { arMetrics } from "./ar-metrics.js";
import type { Experiment, ExperimentWorkload } from "./experiment.js";
import {
  booleanParam,
  numberParam,
  type ParameterSpec,
  type Params,
  textParam,
} from "./parameters.js";
import { generateWorkload } from "./workload.js";

/** PEs of the simulated machine: the LANL CM-5's 1024. */
const PES = 1024;

/** Jobs per run: the paper's 10^4, and 1000 with `--quick`. */
const JOBS = 10_000;
const QUICK_JOBS = 1000;

/** One experiment per study of the paper (section 6.2). */
interface ArStudyExperiment {
  readonly name: string;
  /** The swept parameter and the paper's values of it. */
  readonly param: string;
  readonly values: readonly number[];
  readonly title: string;
  /** Where the study is, in the paper's figures, and what is fixed. */
  readonly what: string;
  readonly quickValues: readonly number[];
}

const STUDIES: readonly ArStudyExperiment[] = [
  {
    name: "ar-size",
    param: "uMed",
    values: [5, 6, 7, 8, 9],
    title: "Advance reservation: acceptance and slowdown against job size (UMed 5..9)",
    what: "its Figures 2-3: UMed 5..9 (job size grows with it), arrival factor 1, {artime, deadline} factors {3,3}",
    quickValues: [5, 7, 9],
  },
  {
    name: "ar-load",
    param: "arrivalFactor",
    values: [0.5, 0.75, 1, 1.25, 1.5],
    title: "Advance reservation: acceptance and slowdown against load (arrival factor 0.5..1.5)",
    what: "its Figures 4-5: arrival factor 0.5..1.5 step 0.25 (arrival times divided by it), UMed 7, factors {3,3}",
    quickValues: [0.5, 1, 1.5],
  },
  {
    name: "ar-flex",
    param: "factors",
    values: [1, 2, 3, 4, 5],
    title: "Advance reservation: acceptance and slowdown against flexibility ({f,f}, f = 1..5)",
    what: "its Figures 6-7: {artime factor, deadline factor} = {f,f} for f = 1..5 (the value is f), UMed 7, arrival factor 1",
    quickValues: [1, 3, 5],
  },
];

const PAPER = "Li et al., §6.1";

/** The parameters of every advance-reservation study; the study's own one is its grid axis. */
const AR_PARAMETERS: readonly ParameterSpec[] = [
  {
    name: "uMed",
    type: "number",
    default: 7,
    min: 4.5,
    max: 10,
    meaning:
      "UMed of the Lublin-Feitelson size model (between ULow 4.5 and UHi = log2(pes) = 10): larger, bigger jobs.",
    source: PAPER,
  },
  {
    name: "arrivalFactor",
    type: "number",
    default: 1,
    min: 0,
    minExclusive: true,
    meaning: "Arrival times are divided by it: larger, heavier load.",
    source: PAPER,
  },
  {
    name: "factors",
    type: "number",
    default: 3,
    min: 0,
    meaning: "Flexibility f: the artime factor and the deadline factor are both f ({f,f}).",
    source: PAPER,
  },
  {
    name: "jobs",
    type: "integer",
    default: JOBS,
    quick: QUICK_JOBS,
    min: 1,
    meaning: "Jobs per run.",
    source: "Li et al., §6.2 ('10^4 jobs were submitted to the scheduler')",
  },
  {
    name: "pes",
    type: "integer",
    default: PES,
    min: 1,
    meaning: "Processing elements of the machine (the LANL CM-5's 1024).",
    source: PAPER,
  },
  {
    name: "clip",
    type: "boolean",
    default: true,
    meaning:
      "Availability rectangles end at the request's deadline before a policy scores them (false: at the next conflicting reservation, Infinity if none); the 'ar' scheduler's clipToDeadline.",
    source: "packages/advance-reservation README, Interpretation 2",
  },
  {
    name: "peSelection",
    type: "choice",
    choices: PE_SELECTIONS,
    default: "lowest-index",
    meaning:
      "Which n of the chosen rectangle's free PEs a reservation takes (the paper returns 'the IDs of the n_job PEs' without saying which): lowest-index; highest-index; soonest-reserved, those whose next reservation after the job's end comes soonest (best fit in time, the PEs free longest kept for later); latest-released, those released most recently at or before its start. Ties to the lower index; the 'ar' scheduler's peSelection.",
    source: "packages/advance-reservation README, Interpretation 5",
  },
  {
    name: "arrivals",
    type: "choice",
    choices: AR_ARRIVAL_READINGS,
    default: "lanl-cm5-rate",
    meaning:
      "The paper's 'arrival process ... and its parameters for LANL-CM5': lanl-cm5-rate, the Lublin-Feitelson model's typeless arrival process with its arrival-rate ratio arar set to 0.5724 so the mean gap is the cleaned LANL-CM5 log's ~510 s; generic, the model's published typeless arrival parameters (mean gap ~923 s, offered load about 0.55 times lanl-cm5-rate's).",
    source: "packages/advance-reservation README, Interpretation 15",
  },
  {
    name: "runtimeMapping",
    type: "choice",
    choices: AR_RUNTIME_MAPPINGS,
    default: "up",
    meaning:
      "How a model run time becomes one of the paper's 60, 300, 900, 1800, 3600, 10800 s: up, the next class up (10800 above it); nearest-log, the nearest class in log scale; nearest, the nearest class in seconds.",
    source: "packages/advance-reservation README, Interpretation 15",
  },
];

/** The jobs of every study: @sched/workload's `advance-reservation` model (`sched-sim gen`). */
function arWorkload(params: Params): ExperimentWorkload {
  return {
    model: "advance-reservation",
    options: {
      jobs: numberParam(params, "jobs"),
      procs: numberParam(params, "pes"),
      uMed: numberParam(params, "uMed"),
      arrivalFactor: numberParam(params, "arrivalFactor"),
      artimeFactor: numberParam(params, "factors"),
      deadlineFactor: numberParam(params, "factors"),
      arrivals: textParam(params, "arrivals"),
      runtimeMapping: textParam(params, "runtimeMapping"),
    },
  };
}

function arExperiment(s: ArStudyExperiment): Experiment {
  return {
    name: s.name,
    title: s.title,
    description:
      "The advance-reservation paper's experiment (Li et al., section 6), " +
      `${s.what}. Workload: @sched/workload's advanceReservationWorkload (Lublin-Feitelson with ` +
      "the LANL-CM5 size settings, sizes powers of two 32..1024; arrivals as parameter arrivals " +
      "says, by default the model's typeless process at LANL-CM5's mean gap of 510 s; run times mapped to " +
      "{60, 300, 900, 1800, 3600, 10800} s as parameter runtimeMapping says, by default rounded " +
      "up: packages/advance-reservation README, Interpretation 15; " +
      "ready = arrival + artime factor x U x duration, deadline = ready + (1 + " +
      `deadline factor x U') x duration), ${JOBS} jobs (${QUICK_JOBS} with --quick) per seed on ` +
      `one ${PES}-PE machine. Policies: the scheduler 'ar' with each of the seven allocation ` +
      `policies (${paperPolicies.map((p) => p.name).join(", ")}), on the same jobs. Metrics: the ` +
      "paper's acceptance rate (accepted / submitted) and mean slowdown (end - ready) / (end - " +
      "start) over accepted jobs, i.e. waiting counted from the ready time (this experiment's " +
      "meanSlowdown replaces core's, which counts from submission); offeredLoad, the work of " +
      "every request (cores x duration) over the PEs' capacity during the arrival span, and " +
      "utilization, the work done over the capacity from the first submission to the last end " +
      "(it replaces core's); mean and Student-t 95% CI over seeds. Parameter clip: rectangles " +
      "clipped at the deadline (true, the reading that reproduces Du_B close to PE_W) or not; " +
      "parameter peSelection: which of the rectangle's free PEs a reservation takes.",
    parameters: AR_PARAMETERS,
    grid: (quick) => [
      {
        name: s.param,
        values: quick ? s.quickValues : s.values,
      },
    ],
    defaultSeeds: (quick) => (quick ? 2 : 5),
    schedulers: (params) =>
      paperPolicies.map((p) => ({
        ...chooseScheduler(
          "ar",
          [
            `policy=${p.name}`,
            `clipToDeadline=${booleanParam(params, "clip")}`,
            `peSelection=${textParam(params, "peSelection")}`,
          ],
          "reproduce",
        ),
        label: `ar(policy=${p.name})`,
      })),
    metrics: [
      { key: "acceptanceRate", title: "acceptance rate", digits: 4, better: "higher" },
      { key: "meanSlowdown", title: "mean slowdown (from ready)", digits: 3, better: "lower" },
      { key: "offeredLoad", title: "offered load", digits: 3, better: "none" },
      { key: "utilization", title: "utilization", digits: 3, better: "higher" },
    ],
    figures: AR_FIGURES[s.name] ?? [],
    workload: arWorkload,
    instance(params, seed) {
      return {
        jobs: generateWorkload(arWorkload(params), seed).jobs,
        // One machine of `pes` cores: the same decisions as that many single-core machines (PEs
        // are numbered machine by machine), with one allocation part per job instead of many.
        platform: createPlatform({ machines: [{ cores: numberParam(params, "pes") }] }),
      };
    },
    measure: (trace, _instance, params) => ({ ...arMetrics(trace, numberParam(params, "pes")) }),
  };
}

/** `ar-size`, `ar-load`, `ar-flex`: the advance-reservation paper's three studies. */
export const advanceReservationExperiments: readonly Experiment[] = STUDIES.map(arExperiment);
