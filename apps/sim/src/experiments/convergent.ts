import { paperMetrics, paperWorkload } from "@sched/convergent";
import { chooseScheduler, type OptionValue } from "../schedulers.js";
import { CONVERGENT_FIGURES } from "./convergent-figures.js";
import type { Experiment } from "./experiment.js";
import {
  booleanParam,
  numberParam,
  type ParameterSpec,
  type Params,
  textParam,
} from "./parameters.js";

/** The policies the convergent-scheduling paper compares, in its order (registry names). */
export const CONVERGENT_SCHEDULERS: readonly string[] = [
  "cs-ip",
  "cs-inp",
  "cs-nip",
  "cs-ninp",
  "easy",
  "bf-rm",
  "bf-unrm",
  "edf",
];

/** The paper's mean inter-arrival times (s), and the `--quick` grid. */
export const CONVERGENT_INTER_ARRIVALS: readonly number[] = [4, 6, 8, 10, 12, 16, 20];
export const CONVERGENT_QUICK_INTER_ARRIVALS: readonly number[] = [4, 16];

/** Where the paper states the farm and the job stream (section 6). */
const PAPER_S6 = "paper §6";
/** Where it states the heuristics' constants. */
const FOOTNOTE = "paper §6, footnote 1";
/** Where our readings of it are written down. */
const INTERPRETATION = (n: number) => `packages/convergent README, Interpretation ${n}`;

const number = (
  name: string,
  value: number,
  meaning: string,
  source: string,
  extra: Partial<ParameterSpec> = {},
): ParameterSpec => ({ name, type: "number", default: value, meaning, source, ...extra });

const integer = (
  name: string,
  value: number,
  meaning: string,
  source: string,
  extra: Partial<ParameterSpec> = {},
): ParameterSpec => ({ name, type: "integer", default: value, min: 0, meaning, source, ...extra });

/** The convergent experiment's parameters, in `--params` order. */
export const CONVERGENT_PARAMETERS: readonly ParameterSpec[] = [
  number(
    "interArrival",
    10,
    "Mean inter-arrival time T_a of the jobs (s, negative exponential).",
    PAPER_S6,
    { min: 0, minExclusive: true },
  ),
  integer("jobs", 1500, "Jobs per run.", PAPER_S6, { quick: 150, min: 1 }),
  integer("machines", 150, "Machines of the farm.", PAPER_S6, { min: 1 }),
  integer("licenses", 20, "Floating licences.", PAPER_S6),
  integer("estimateMin", 500, "Smallest estimated execution time (s, uniform).", PAPER_S6, {
    min: 0,
    minExclusive: true,
  }),
  integer("estimateMax", 3000, "Largest estimated execution time (s, uniform).", PAPER_S6, {
    min: 0,
    minExclusive: true,
  }),
  integer(
    "deadlineSlackMin",
    25,
    "Smallest deadline slack, % of the estimate over the submission (paper: 'Deadline [25-150]').",
    INTERPRETATION(14),
    { min: 0 },
  ),
  integer(
    "deadlineSlackMax",
    150,
    "Largest deadline slack, % of the estimate.",
    INTERPRETATION(14),
    { min: 0 },
  ),
  number("noDeadline", 0.3, "Fraction of jobs without a deadline.", PAPER_S6, { min: 0, max: 1 }),
  integer("cpusMax", 8, "CPUs of a machine and of a job: uniform in 1..cpusMax.", PAPER_S6, {
    min: 1,
  }),
  integer("benchmarkMin", 200, "Smallest Benchmark of a machine or job.", PAPER_S6, {
    min: 0,
    minExclusive: true,
  }),
  integer("benchmarkMax", 600, "Largest Benchmark of a machine or job.", PAPER_S6, {
    min: 0,
    minExclusive: true,
  }),
  number(
    "licenseRatioMin",
    0.55,
    "License ratio, lower end: copies of a licence / machines.",
    PAPER_S6,
    { min: 0, max: 1 },
  ),
  number("licenseRatioMax", 0.65, "License ratio, upper end.", PAPER_S6, { min: 0, max: 1 }),
  number(
    "licenseSuitability",
    0.9,
    "Probability that a licence is usable on a machine.",
    PAPER_S6,
    { min: 0, max: 1 },
  ),
  number("licenseNeed", 0.2, "Probability that a job needs a given licence.", PAPER_S6, {
    min: 0,
    max: 1,
  }),
  number(
    "base",
    1,
    "Minimal requirements: value of an eligible entry before the other heuristics.",
    INTERPRETATION(7),
    { min: 0, minExclusive: true },
  ),
  number("deadlineMax", 10, "Deadline heuristic: Max.", FOOTNOTE),
  number("deadlineMin", 0.1, "Deadline heuristic: Min.", FOOTNOTE),
  number("deadlineK", 1.3, "Deadline heuristic: k.", FOOTNOTE),
  number("licenseWeight", 2.5, "Licenses heuristic: LI.", FOOTNOTE),
  number("inputWeight", 3, "Input heuristic: IN.", FOOTNOTE),
  number("waitWeight", 4, "Wait minimization: WM.", FOOTNOTE),
  number(
    "overheadPreemptive",
    8,
    "Overhead minimization: Delta of the CS variants with preemption (CS_ip, CS_nip) and of BF-rm/BF-unrm's priority.",
    FOOTNOTE,
  ),
  number(
    "overheadNonPreemptive",
    800,
    "Overhead minimization: Delta of the CS variants without preemption (CS_inp, CS_ninp).",
    FOOTNOTE,
  ),
  number(
    "antiAging",
    0.02,
    "Anti-aging: AA (per second of age).",
    `${FOOTNOTE}; ${INTERPRETATION(16)}`,
  ),
  {
    name: "knapsack",
    type: "choice",
    choices: ["greedy", "exact"],
    default: "greedy",
    meaning:
      "Solver of the licence pre-matching: the paper's MKP greedy, or exact branch and bound.",
    source: "paper §4.1",
  },
  number(
    "refreshTolerance",
    0.05,
    "CS_ip and CS_inp: a row of the kept matrix is recomputed when an entry moved by more than this.",
    INTERPRETATION(13),
    { min: 0 },
  ),
  {
    name: "baselineExclusive",
    type: "boolean",
    default: true,
    meaning:
      "EASY, BF-rm, BF-unrm and EDF run one job per machine at a time, as the paper's model (and CS) does.",
    source: "paper §3 ('each machine is executing only a single job at a time')",
  },
];

/** The heuristic constants at `params`, with the overhead of a policy with or without preemption. */
function constants(params: Params, preemption: boolean): Record<string, OptionValue> {
  return {
    base: numberParam(params, "base"),
    deadlineMax: numberParam(params, "deadlineMax"),
    deadlineMin: numberParam(params, "deadlineMin"),
    deadlineK: numberParam(params, "deadlineK"),
    licenses: numberParam(params, "licenseWeight"),
    input: numberParam(params, "inputWeight"),
    waitMinimization: numberParam(params, "waitWeight"),
    overhead: numberParam(params, preemption ? "overheadPreemptive" : "overheadNonPreemptive"),
    antiAging: numberParam(params, "antiAging"),
  };
}

/** The options of each policy at `params`, by registry name. */
function policyOptions(name: string, params: Params): Record<string, OptionValue> {
  if (name.startsWith("cs-")) {
    const preemption = name === "cs-ip" || name === "cs-nip";
    return {
      ...constants(params, preemption),
      knapsack: textParam(params, "knapsack"),
      ...(name === "cs-ip" || name === "cs-inp"
        ? { refreshTolerance: numberParam(params, "refreshTolerance") }
        : {}),
    };
  }
  const exclusive = booleanParam(params, "baselineExclusive");
  if (name === "bf-rm" || name === "bf-unrm") return { ...constants(params, true), exclusive };
  return { exclusive };
}

/**
 * `convergent`: the convergent-scheduling paper's experiment (Capannini et al., SC'07, section
 * 6): the four CS variants against EASY, BF-rm, BF-unrm and EDF on @sched/convergent's
 * `paperWorkload`, swept over the mean inter-arrival time, with the paper's metrics measured by
 * `paperMetrics`. Every constant and reading is a parameter (`--params`). The scheduling time
 * per plan is wall-clock, so it is not in the records: it is `schedTimeMs`
 * (`timing.schedulerMs / decisions` of each run file) in `timing.csv` and the printed wall-clock
 * table. Seed s is the workload's seed at every inter-arrival time (common random numbers: the
 * same farm and jobs, the arrival gaps scaled).
 */
export const convergentReproduction: Experiment = {
  name: "convergent",
  title: "Convergent scheduling vs backfilling and EDF: deadlines, slowdown, usage (150 machines)",
  description:
    "The convergent-scheduling paper's experiment (Capannini et al., SC'07, section 6, Figures " +
    "4-6): @sched/convergent's paperWorkload, 150 machines (1-8 CPUs, benchmark 200-600), 20 " +
    "floating licenses, 1500 jobs per run (150 with --quick, a smoke test) arriving with " +
    "negative-exponential inter-arrival times of mean interArrival s (4..20; 4 and 16 with " +
    "--quick), 70% with a deadline; seed s draws the same farm and jobs at every interArrival. " +
    `Policies: ${CONVERGENT_SCHEDULERS.join(", ")} (CS_ip, CS_inp, CS_nip, CS_ninp; BF-easy; ` +
    "BF-rm and BF-unrm ranked by convergentPriority; EDF); the baselines run with " +
    "exclusive=true (parameter baselineExclusive): one job per machine at a time, as in the " +
    "paper's model (section 3) and as CS does. Every heuristic constant, workload parameter " +
    "and reading is a parameter: see --params. Metrics (paperMetrics): latePct " +
    "(% of deadline jobs late), slowdownNoDeadline ((Tw + Te)/Te of jobs without deadline), " +
    "machineUsage and licenseUsage (percent, the paper's definitions); mean and Student-t 95% " +
    "CI over seeds. Scheduling time per plan (schedTimeMs = timing.schedulerMs / decisions) is " +
    "wall-clock, so it is kept apart in timing.csv and the wall-clock table. One full-size " +
    "simulation takes 0.2-0.5 s (EASY, EDF) to 14 s of CPU (CS_nip at interArrival 4), the " +
    "grid is 56 simulations per seed, about 170 s of CPU per seed (20 seeds by default: about " +
    "30 minutes on 2 cores; --out resumes a killed run); --quick (16 small runs, one seed) " +
    "takes seconds.",
  parameters: CONVERGENT_PARAMETERS,
  grid: (quick) => [
    {
      name: "interArrival",
      values: quick ? CONVERGENT_QUICK_INTER_ARRIVALS : CONVERGENT_INTER_ARRIVALS,
    },
  ],
  check: (params) =>
    (
      [
        ["estimateMin", "estimateMax"],
        ["deadlineSlackMin", "deadlineSlackMax"],
        ["benchmarkMin", "benchmarkMax"],
        ["licenseRatioMin", "licenseRatioMax"],
      ] as const
    )
      .filter(([lo, hi]) => numberParam(params, lo) > numberParam(params, hi))
      .map(([lo, hi]) => `${lo} (${params[lo]}) must not exceed ${hi} (${params[hi]})`),
  defaultSeeds: (quick) => (quick ? 1 : 20),
  schedulers: (params) =>
    CONVERGENT_SCHEDULERS.map((name) => {
      const options = policyOptions(name, params);
      const choice = chooseScheduler(
        name,
        Object.keys(options).map((k) => `${k}=${String(options[k])}`),
        "reproduce",
      );
      return { ...choice, label: name };
    }),
  metrics: [
    { key: "latePct", title: "late deadline jobs (%)", digits: 2 },
    { key: "slowdownNoDeadline", title: "slowdown, no deadline", digits: 3 },
    { key: "machineUsage", title: "machine usage (%)", digits: 2 },
    { key: "licenseUsage", title: "license usage (%)", digits: 2 },
  ],
  figures: CONVERGENT_FIGURES,
  instance: (params, seed) => {
    const n = (name: string) => numberParam(params, name);
    return paperWorkload({
      seed,
      interArrival: n("interArrival"),
      jobs: n("jobs"),
      machines: n("machines"),
      licenses: n("licenses"),
      estimate: [n("estimateMin"), n("estimateMax")],
      deadlineSlack: [n("deadlineSlackMin"), n("deadlineSlackMax")],
      noDeadline: n("noDeadline"),
      cpus: [1, n("cpusMax")],
      benchmark: [n("benchmarkMin"), n("benchmarkMax")],
      licenseRatio: [n("licenseRatioMin"), n("licenseRatioMax")],
      licenseSuitability: n("licenseSuitability"),
      licenseNeed: n("licenseNeed"),
    });
  },
  measure: (trace) => {
    const m = paperMetrics(trace);
    return {
      latePct: m.latePct,
      slowdownNoDeadline: m.slowdownNoDeadline,
      machineUsage: m.machineUsage,
      licenseUsage: m.licenseUsage,
      meanWorkload: m.meanWorkload,
      lateJobs: m.late,
      deadlineJobs: m.deadlineJobs,
    };
  },
};
