import { type ArStudyPoint, arMetrics, arStudies, paperPolicies } from "@sched/advance-reservation";
import { createPlatform } from "@sched/core";
import { chooseScheduler } from "../schedulers.js";
import type { Experiment, ExperimentWorkload } from "./experiment.js";
import { booleanParam, numberParam, type ParameterSpec, type Params } from "./parameters.js";
import { generateWorkload } from "./workload.js";

/** PEs of the simulated machine: the LANL CM-5's 1024. */
const PES = 1024;

/** Jobs per run: the paper's 10^4, and 1000 with `--quick`. */
const JOBS = 10_000;
const QUICK_JOBS = 1000;

/** One experiment per study of the paper (section 6.2). */
interface ArStudyExperiment {
  readonly name: string;
  /** `arStudies` id of @sched/advance-reservation. */
  readonly study: string;
  readonly param: string;
  readonly title: string;
  /** Where the study is, in the paper's figures, and what is fixed. */
  readonly what: string;
  readonly quickValues: readonly number[];
}

function studyPoints(id: string): readonly ArStudyPoint[] {
  const study = arStudies.find((s) => s.id === id);
  if (study === undefined) throw new Error(`@sched/advance-reservation has no study '${id}'`);
  return study.points;
}

/** The swept value of a study point: UMed, the arrival factor, or the {f, f} factor. */
function sweptValue(study: string, p: ArStudyPoint): number {
  return study === "umed" ? p.umed : study === "arrival" ? p.arrivalFactor : p.artimeFactor;
}

const STUDIES: readonly ArStudyExperiment[] = [
  {
    name: "ar-size",
    study: "umed",
    param: "uMed",
    title: "Advance reservation: acceptance and slowdown against job size (UMed 5..9)",
    what: "its Figures 2-3: UMed 5..9 (job size grows with it), arrival factor 1, {artime, deadline} factors {3,3}",
    quickValues: [5, 7, 9],
  },
  {
    name: "ar-load",
    study: "arrival",
    param: "arrivalFactor",
    title: "Advance reservation: acceptance and slowdown against load (arrival factor 0.5..1.5)",
    what: "its Figures 4-5: arrival factor 0.5..1.5 step 0.25 (arrival times divided by it), UMed 7, factors {3,3}",
    quickValues: [0.5, 1, 1.5],
  },
  {
    name: "ar-flex",
    study: "flexibility",
    param: "factors",
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
    source: PAPER,
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
    name: "clipToDeadline",
    type: "boolean",
    default: true,
    meaning:
      "Availability rectangles are clipped at the request's deadline before a policy scores them.",
    source: "packages/advance-reservation README, Interpretation",
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
      "the LANL-CM5 settings: sizes powers of two 32..1024, run times in {60, 300, 900, 1800, " +
      "3600, 10800} s; ready = arrival + artime factor x U x duration, deadline = ready + (1 + " +
      `deadline factor x U') x duration), ${JOBS} jobs (${QUICK_JOBS} with --quick) per seed on ` +
      `one ${PES}-PE machine. Policies: the scheduler 'ar' with each of the seven allocation ` +
      `policies (${paperPolicies.map((p) => p.name).join(", ")}), on the same jobs. Metrics: the ` +
      "paper's acceptance rate (accepted / submitted) and mean slowdown (end - ready) / (end - " +
      "start) over accepted jobs, i.e. waiting counted from the ready time (this experiment's " +
      "meanSlowdown replaces core's, which counts from submission); mean and Student-t 95% CI " +
      "over seeds.",
    parameters: AR_PARAMETERS,
    grid: (quick) => [
      {
        name: s.param,
        values: quick ? s.quickValues : studyPoints(s.study).map((p) => sweptValue(s.study, p)),
      },
    ],
    defaultSeeds: (quick) => (quick ? 2 : 5),
    schedulers: (params) =>
      paperPolicies.map((p) => ({
        ...chooseScheduler(
          "ar",
          [`policy=${p.name}`, `clipToDeadline=${booleanParam(params, "clipToDeadline")}`],
          "reproduce",
        ),
        label: `ar(policy=${p.name})`,
      })),
    metrics: [
      { key: "acceptanceRate", title: "acceptance rate", digits: 4 },
      { key: "meanSlowdown", title: "mean slowdown (from ready)", digits: 3 },
    ],
    workload: arWorkload,
    instance(params, seed) {
      return {
        jobs: generateWorkload(arWorkload(params), seed).jobs,
        // One machine of `pes` cores: the same decisions as that many single-core machines (PEs
        // are numbered machine by machine), with one allocation part per job instead of many.
        platform: createPlatform({ machines: [{ cores: numberParam(params, "pes") }] }),
      };
    },
    measure: (trace) => {
      const m = arMetrics(trace);
      return { acceptanceRate: m.acceptanceRate, meanSlowdown: m.meanSlowdown };
    },
  };
}

/** `ar-size`, `ar-load`, `ar-flex`: the advance-reservation paper's three studies. */
export const advanceReservationExperiments: readonly Experiment[] = STUDIES.map(arExperiment);
