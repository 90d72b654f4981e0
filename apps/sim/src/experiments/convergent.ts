import type { Scheduler } from "@sched/core";
import { CONVERGENT_DEADLINE_READINGS, CONVERGENT_INTER_ARRIVALS } from "@sched/workload";
import {
  booleanOption,
  numberOption,
  type OptionValue,
  type OptionValues,
} from "../scheduler-options.js";
import { chooseScheduler, type SchedulerChoice } from "../schedulers.js";
import { CONVERGENT_FIGURES } from "./convergent-figures.js";
import { paperMetrics } from "./convergent-metrics.js";
import type { Experiment, ExperimentWorkload } from "./experiment.js";
import {
  booleanParam,
  numberParam,
  type ParameterSpec,
  type Params,
  textParam,
} from "./parameters.js";
import { preemptionCostModel, withPreemptionCost } from "./preemption-cost.js";
import { generateWorkload } from "./workload.js";

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

const choice = (
  name: string,
  choices: readonly string[],
  meaning: string,
  source: string,
): ParameterSpec => ({
  name,
  type: "choice",
  choices,
  default: choices[0] as string,
  meaning,
  source,
});

/** The machines of the paper's farm, and of `--quick`'s (a fifth, with everything scaled). */
const MACHINES = 150;
const QUICK_MACHINES = 30;

/** The convergent experiment's parameters, in `--params` order. */
export const CONVERGENT_PARAMETERS: readonly ParameterSpec[] = [
  number(
    "interArrival",
    10,
    "Mean inter-arrival time T_a of the jobs (s, negative exponential), as the paper gives it for its 150 machines.",
    PAPER_S6,
    { min: 0, minExclusive: true },
  ),
  integer("jobs", 1500, "Jobs per run.", PAPER_S6, { quick: 300, min: 1 }),
  integer("machines", MACHINES, "Machines of the farm.", PAPER_S6, {
    quick: QUICK_MACHINES,
    min: 1,
  }),
  number(
    "interArrivalScale",
    1,
    "The mean gap between arrivals is interArrival x this: --quick's farm has a fifth of the machines, so its jobs arrive 5 times apart (the paper's load per machine).",
    "packages/convergent README, Reproduction (--quick)",
    { quick: MACHINES / QUICK_MACHINES, min: 0, minExclusive: true },
  ),
  integer(
    "licenses",
    20,
    "Floating licences (kinds; each job needs each one with probability licenseNeed).",
    PAPER_S6,
  ),
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
    "Smallest value of the paper's 'Deadline [25-150]' (read as deadlineReading says).",
    PAPER_S6,
    { min: 0 },
  ),
  integer("deadlineSlackMax", 150, "Largest value of 'Deadline [25-150]'.", PAPER_S6, { min: 0 }),
  choice(
    "deadlineReading",
    CONVERGENT_DEADLINE_READINGS,
    "How 'Deadline [25-150]' makes a deadline: slack-percent (submit + estimate x (1 + D/100)), slack-seconds (submit + estimate + D), percent-of-estimate (submit + estimate x D/100).",
    INTERPRETATION(14),
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
  integer("inputMin", 100, "Smallest input of a job (MB, on one random machine).", PAPER_S6),
  integer("inputMax", 800, "Largest input of a job (MB).", PAPER_S6),
  number(
    "licenseRatioMin",
    0.55,
    "License ratio, lower end: copies of a licence / machines it is usable on.",
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
  number("antiAging", 0.02, "Anti-aging: AA (per antiAgingUnit of age).", FOOTNOTE),
  number(
    "antiAgingUnit",
    1,
    "Seconds in the time unit anti-aging counts age in (the paper's 'simulator time unit'; its estimates use the same unit).",
    INTERPRETATION(16),
    { min: 0, minExclusive: true },
  ),
  choice(
    "deadlineLate",
    ["max", "min"],
    "Deadline heuristic, f1 after the deadline: max (the prose) or min (the formula as printed).",
    INTERPRETATION(1),
  ),
  choice(
    "deadlineAllLate",
    ["max", "zero"],
    "Deadline heuristic, a job late on every machine (d_i = 0 in equation (1)): Max on each machine, or nothing.",
    INTERPRETATION(2),
  ),
  choice(
    "waitSup",
    ["global", "row"],
    "Wait minimization, SupRemaining ('the maximum value of Remaining_i'): global, over the whole matrix (shorter jobs get more, as the prose says), or row, over the job's own machines (only faster machines get more).",
    INTERPRETATION(9),
  ),
  choice(
    "nonPreemption",
    ["strict", "overhead"],
    "CS_inp, CS_ninp: a running job is never preempted (strict), or only the overhead Delta keeps it (overhead: the paper's simulation of it).",
    INTERPRETATION(11),
  ),
  choice(
    "knapsack",
    ["greedy", "exact"],
    "Solver of the licence pre-matching: the paper's MKP greedy, or exact branch and bound.",
    "paper §4.2",
  ),
  number(
    "refreshTolerance",
    0.05,
    "CS_ip and CS_inp: a row of the kept matrix is recomputed when an entry moved by more than this.",
    INTERPRETATION(13),
    { min: 0 },
  ),
  number(
    "restartCost",
    0,
    "Seconds added to every resumed execution of a preempted job (checkpoint, input moved); 0: preemption and migration are free.",
    "packages/convergent README, Interpretation 17",
    { min: 0 },
  ),
  {
    name: "preemptionLosesProgress",
    type: "boolean",
    default: false,
    meaning: "A preempted job loses its progress and resumes from the start of its work.",
    source: "packages/convergent README, Interpretation 17",
  },
  {
    name: "baselineExclusive",
    type: "boolean",
    default: true,
    meaning:
      "EASY, BF-rm, BF-unrm and EDF run one job per machine at a time, as the paper's model (and CS) does.",
    source: "paper §3 ('each machine is executing only a single job at a time')",
  },
  choice(
    "baselineMachineOrder",
    ["speed", "index", "best-fit"],
    "EASY, BF-rm, BF-unrm: the idle machine a job starts on, fastest first (as the paper's EDF), the first by index, or fewest cores first.",
    "paper §6 (EDF: 'machines ordered ... w.r.t. the Benchmark'); packages/convergent README, Interpretation 18",
  ),
  choice(
    "edfDeadlineOrder",
    ["increasing", "decreasing"],
    "EDF's queue: earliest deadline first, or latest first ('ordered in decreasing order w.r.t. their deadline', read literally).",
    "paper §2 and §6; packages/convergent README, Interpretation 19",
  ),
  choice(
    "edfUndated",
    ["last", "mean-deadline", "submit"],
    "EDF, jobs without a deadline: after every dated job, as if due at the mean relative deadline of the dated ones, or as if due on arrival.",
    "packages/convergent README, Interpretation 19",
  ),
  choice(
    "edfPreemptFor",
    ["arrivals", "waiting"],
    "EDF preempts for a newly submitted job ('to execute first new submitted job with an earliest deadline'), or for any waiting job at every event.",
    "paper §6; packages/convergent README, Interpretation 19",
  ),
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
    antiAging: numberParam(params, "antiAging") / numberParam(params, "antiAgingUnit"),
    deadlineLate: textParam(params, "deadlineLate"),
    deadlineAllLate: textParam(params, "deadlineAllLate"),
    waitSup: textParam(params, "waitSup"),
  };
}

/**
 * EDF's `undatedFactor` for the reading `edfUndated`: a job without a deadline is ordered as if
 * due at submit + factor x estimate; "mean-deadline" is the mean of the dated jobs' (deadline -
 * submit) / estimate under the workload's deadline reading (for slack-seconds, over the mean
 * estimate).
 */
function undatedFactor(params: Params): number | undefined {
  const how = textParam(params, "edfUndated");
  if (how === "last") return undefined;
  if (how === "submit") return 0;
  const slack =
    (numberParam(params, "deadlineSlackMin") + numberParam(params, "deadlineSlackMax")) / 2;
  switch (textParam(params, "deadlineReading")) {
    case "slack-seconds":
      return (
        1 + slack / ((numberParam(params, "estimateMin") + numberParam(params, "estimateMax")) / 2)
      );
    case "percent-of-estimate":
      return slack / 100;
    default:
      return 1 + slack / 100;
  }
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
      ...(preemption ? {} : { nonPreemption: textParam(params, "nonPreemption") }),
    };
  }
  const exclusive = booleanParam(params, "baselineExclusive");
  const machineOrder = textParam(params, "baselineMachineOrder");
  if (name === "bf-rm" || name === "bf-unrm") {
    return { ...constants(params, true), exclusive, machineOrder };
  }
  if (name === "easy") return { exclusive, machineOrder };
  const factor = undatedFactor(params);
  return {
    exclusive,
    deadlineOrder: textParam(params, "edfDeadlineOrder"),
    preemptFor: textParam(params, "edfPreemptFor"),
    ...(factor === undefined ? {} : { undatedFactor: factor }),
  };
}

/** The options a policy of this experiment takes beyond its registry entry's: what preemption costs. */
const RESTART_COST = numberOption({
  key: "restartCost",
  default: 0,
  description: "Seconds added to every resumed execution of a preempted job (default {default}).",
});
const LOSES_PROGRESS = booleanOption({
  key: "preemptionLosesProgress",
  default: false,
  description: "A preempted job resumes from the start of its work (default {default}).",
});

/**
 * `choice` with the preemption cost as two more options: its scheduler is wrapped by
 * `withPreemptionCost` (the instance's execution model charges the cost). Costs are passed only
 * when not free, so the default runs are the registry's policies as they are.
 */
function withCost(choice: SchedulerChoice, params: Params): SchedulerChoice {
  const restartCost = numberParam(params, "restartCost");
  const losesProgress = booleanParam(params, "preemptionLosesProgress");
  const entry = choice.entry;
  return {
    ...choice,
    entry: {
      ...entry,
      options: [...entry.options, RESTART_COST, LOSES_PROGRESS],
      create(o: OptionValues): Scheduler {
        const costKeys: readonly string[] = [RESTART_COST.key, LOSES_PROGRESS.key];
        const rest = Object.fromEntries(Object.entries(o).filter(([k]) => !costKeys.includes(k)));
        return withPreemptionCost(entry.create(rest), {
          restartSeconds: RESTART_COST.read(o) ?? 0,
          losesProgress: LOSES_PROGRESS.read(o) ?? false,
        });
      },
    },
    options: {
      ...choice.options,
      ...(restartCost === 0 ? {} : { restartCost }),
      ...(losesProgress ? { preemptionLosesProgress: true } : {}),
    },
  };
}

/** The @sched/workload model and options of the run's jobs (`sched-sim gen convergent`). */
export function convergentModel(params: Params): ExperimentWorkload {
  const n = (name: string) => numberParam(params, name);
  return {
    model: "convergent",
    options: {
      jobs: n("jobs"),
      machines: n("machines"),
      licenses: n("licenses"),
      meanInterArrival: n("interArrival") * n("interArrivalScale"),
      estimated: [n("estimateMin"), n("estimateMax")],
      deadlineSlack: [n("deadlineSlackMin"), n("deadlineSlackMax")],
      deadlineReading: textParam(params, "deadlineReading"),
      cpus: [1, n("cpusMax")],
      benchmark: [n("benchmarkMin"), n("benchmarkMax")],
      inputMB: [n("inputMin"), n("inputMax")],
      licenseRatio: [n("licenseRatioMin"), n("licenseRatioMax")],
      licenseSuitability: n("licenseSuitability"),
      licenseNeed: n("licenseNeed"),
      noDeadline: n("noDeadline"),
    },
  };
}

/**
 * `convergent`: the convergent-scheduling paper's experiment (Capannini et al., SC'07, section
 * 6): the four CS variants against EASY, BF-rm, BF-unrm and EDF on @sched/workload's
 * `convergent` model, swept over the mean inter-arrival time, with the paper's metrics
 * (`paperMetrics`). Every constant and reading is a parameter (`--params`). The scheduling time
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
    "4-6): @sched/workload's convergent model, 150 machines (1-8 CPUs, benchmark 200-600), 20 " +
    "floating licences, 1500 jobs per run arriving with negative-exponential inter-arrival " +
    "times of mean interArrival s (4..20), 70% with a deadline; seed s draws the same farm and " +
    "jobs at every interArrival. --quick scales the farm down with its contention: 30 machines, " +
    "300 jobs, arrivals 5 times apart (interArrivalScale), the same licence kinds (their copies " +
    "follow the machines), the same 7 interArrival values, 5 seeds. " +
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
    "30 minutes on 2 cores; --out resumes a killed run).",
  parameters: CONVERGENT_PARAMETERS,
  grid: () => [{ name: "interArrival", values: CONVERGENT_INTER_ARRIVALS }],
  check: (params) =>
    (
      [
        ["estimateMin", "estimateMax"],
        ["deadlineSlackMin", "deadlineSlackMax"],
        ["benchmarkMin", "benchmarkMax"],
        ["inputMin", "inputMax"],
        ["licenseRatioMin", "licenseRatioMax"],
      ] as const
    )
      .filter(([lo, hi]) => numberParam(params, lo) > numberParam(params, hi))
      .map(([lo, hi]) => `${lo} (${params[lo]}) must not exceed ${hi} (${params[hi]})`),
  defaultSeeds: (quick) => (quick ? 5 : 20),
  schedulers: (params) =>
    CONVERGENT_SCHEDULERS.map((name) => {
      const options = policyOptions(name, params);
      const choice = chooseScheduler(
        name,
        Object.keys(options).map((k) => `${k}=${String(options[k])}`),
        "reproduce",
      );
      return withCost({ ...choice, label: name }, params);
    }),
  metrics: [
    { key: "latePct", title: "late deadline jobs (%)", digits: 2, better: "lower" },
    { key: "slowdownNoDeadline", title: "slowdown, no deadline", digits: 3, better: "lower" },
    { key: "machineUsage", title: "machine usage (%)", digits: 2, better: "higher" },
    { key: "licenseUsage", title: "license usage (%)", digits: 2, better: "higher" },
  ],
  figures: CONVERGENT_FIGURES,
  workload: convergentModel,
  instance: (params, seed) => {
    const { jobs, platform } = generateWorkload(convergentModel(params), seed);
    return { jobs, platform, executionModel: preemptionCostModel(platform) };
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
