import { type ArStudyPoint, arMetrics, arStudies, paperPolicies } from "@sched/advance-reservation";
import { createPlatform } from "@sched/core";
import { advanceReservationWorkload } from "@sched/workload";
import { chooseScheduler } from "../schedulers.js";
import type { Experiment } from "./experiment.js";

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
  /** The point of the study at a value of the swept parameter. */
  readonly point: (value: number) => ArStudyPoint;
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

function pointAt(study: string, value: number): ArStudyPoint {
  const found = studyPoints(study).find((p) => sweptValue(study, p) === value);
  if (found !== undefined) return found;
  // a value off the paper's grid (a sweep file, say): the study's other settings, this value
  const base = studyPoints(study)[0] as ArStudyPoint;
  if (study === "umed") return { ...base, label: `${value}`, umed: value };
  if (study === "arrival") return { ...base, label: `${value}`, arrivalFactor: value };
  return {
    ...base,
    label: `{${value},${value}}`,
    artimeFactor: value,
    deadlineFactor: value,
  };
}

const STUDIES: readonly ArStudyExperiment[] = [
  {
    name: "ar-size",
    study: "umed",
    param: "uMed",
    title: "Advance reservation: acceptance and slowdown against job size (UMed 5..9)",
    what: "its Figures 2-3: UMed 5..9 (job size grows with it), arrival factor 1, {artime, deadline} factors {3,3}",
    point: (v) => pointAt("umed", v),
    quickValues: [5, 7, 9],
  },
  {
    name: "ar-load",
    study: "arrival",
    param: "arrivalFactor",
    title: "Advance reservation: acceptance and slowdown against load (arrival factor 0.5..1.5)",
    what: "its Figures 4-5: arrival factor 0.5..1.5 step 0.25 (arrival times divided by it), UMed 7, factors {3,3}",
    point: (v) => pointAt("arrival", v),
    quickValues: [0.5, 1, 1.5],
  },
  {
    name: "ar-flex",
    study: "flexibility",
    param: "factors",
    title: "Advance reservation: acceptance and slowdown against flexibility ({f,f}, f = 1..5)",
    what: "its Figures 6-7: {artime factor, deadline factor} = {f,f} for f = 1..5 (the value is f), UMed 7, arrival factor 1",
    point: (v) => pointAt("flexibility", v),
    quickValues: [1, 3, 5],
  },
];

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
    param: s.param,
    values: (quick) =>
      quick ? s.quickValues : studyPoints(s.study).map((p) => sweptValue(s.study, p)),
    defaultSeeds: (quick) => (quick ? 2 : 5),
    schedulers: () =>
      paperPolicies.map((p) => chooseScheduler("ar", [`policy=${p.name}`], "reproduce")),
    metrics: [
      { key: "acceptanceRate", title: "acceptance rate", digits: 4 },
      { key: "meanSlowdown", title: "mean slowdown (from ready)", digits: 3 },
    ],
    instance: (value, seed, quick) => {
      const p = s.point(value);
      return {
        jobs: advanceReservationWorkload({
          jobs: quick ? QUICK_JOBS : JOBS,
          procs: PES,
          uMed: p.umed,
          arrivalFactor: p.arrivalFactor,
          artimeFactor: p.artimeFactor,
          deadlineFactor: p.deadlineFactor,
          seed,
        }).jobs,
        // One machine of 1024 cores: the same decisions as 1024 single-core machines (PEs are
        // numbered machine by machine), with one allocation part per job instead of up to 1024.
        platform: createPlatform({ machines: [{ cores: PES }] }),
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
