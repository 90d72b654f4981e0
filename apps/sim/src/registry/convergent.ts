import { flexible } from "@sched/backfill";
import {
  type ConvergentVariant,
  convergent,
  convergentPriority,
  convergentVariant,
  type HeuristicConstants,
  type HeuristicReadings,
  OVERHEAD_NON_PREEMPTIVE,
  OVERHEAD_PREEMPTIVE,
  PAPER_CONSTANTS,
  PAPER_READINGS,
  PLAN_DEFAULTS,
  REFRESH_TOLERANCE,
} from "@sched/convergent";
import type { Scheduler } from "@sched/core";
import type { SchedulerEntry } from "../scheduler-entry.js";
import { choiceOption, given, numberOption, type OptionValues } from "../scheduler-options.js";
import { PLACEMENT, placementOf } from "./backfill.js";

/** What each constant of the convergent heuristics is (the paper's footnote 1). */
const CONSTANT_MEANING: Readonly<Record<keyof HeuristicConstants, string>> = {
  base: "Minimal requirements: the value every eligible entry starts from",
  deadlineMax: "Deadline heuristic: Max",
  deadlineMin: "Deadline heuristic: Min",
  deadlineK: "Deadline heuristic: k",
  licenses: "Licenses heuristic: weight LI",
  input: "Input heuristic: weight IN",
  waitMinimization: "Wait minimization: weight WM",
  overhead: `Overhead minimization: Delta (the CS variants' default: ${OVERHEAD_PREEMPTIVE} with preemption, ${OVERHEAD_NON_PREEMPTIVE} without)`,
  antiAging: "Anti-aging: weight AA",
};

/** The constants in the order `--help` lists them. */
const CONSTANT_KEYS = [
  "base",
  "deadlineMax",
  "deadlineMin",
  "deadlineK",
  "licenses",
  "input",
  "waitMinimization",
  "overhead",
  "antiAging",
] as const satisfies readonly (keyof HeuristicConstants)[];

/**
 * The convergent heuristics' constants as `--opt` options (CS variants, BF-rm, BF-unrm), the
 * overhead's default `overhead` (the package's: {@link OVERHEAD_NON_PREEMPTIVE} in the
 * non-preemptive CS variants, else the paper's constant).
 */
function constantOptions(overhead: number) {
  return CONSTANT_KEYS.map((key) =>
    numberOption({
      key,
      default: key === "overhead" ? overhead : PAPER_CONSTANTS[key],
      description: `${CONSTANT_MEANING[key]} (default {default}).`,
    }),
  );
}

/** The constants with the paper's defaults (their keys and types are every variant's). */
const CONSTANT_OPTIONS = constantOptions(PAPER_CONSTANTS.overhead);

const DEADLINE_LATE = choiceOption({
  key: "deadlineLate",
  choices: ["max", "min"],
  default: PAPER_READINGS.deadlineLate,
  description:
    "f1 after the deadline: max (the prose; default) or min (the formula as printed) (convergent README, Interpretation 1).",
});

const DEADLINE_ALL_LATE = choiceOption({
  key: "deadlineAllLate",
  choices: ["max", "zero"],
  default: PAPER_READINGS.deadlineAllLate,
  description:
    "Deadline update of a job late on every machine (d_i = 0): max on each (default) or zero (Interpretation 2).",
});

const WAIT_SUP = choiceOption({
  key: "waitSup",
  choices: ["global", "row"],
  default: PAPER_READINGS.waitSup,
  description:
    "Wait minimization's SupRemaining: global, the largest Remaining of the matrix (shorter jobs get more; default), or row, the job's own largest (only faster machines get more) (Interpretation 9).",
});

/** The heuristics' readings as `--opt` options (CS variants, BF-rm, BF-unrm). */
const READING_OPTIONS = [DEADLINE_LATE, DEADLINE_ALL_LATE, WAIT_SUP] as const;

/** The readings given among typed `--opt` values. */
function readingsOf(o: OptionValues): HeuristicReadings {
  return { ...given(DEADLINE_LATE, o), ...given(DEADLINE_ALL_LATE, o), ...given(WAIT_SUP, o) };
}

/** The heuristic constants given among typed `--opt` values. */
function constantsOf(o: OptionValues): HeuristicConstants {
  const out: { -readonly [K in keyof HeuristicConstants]?: number } = {};
  for (const spec of CONSTANT_OPTIONS) {
    const value = spec.read(o);
    if (value !== undefined) out[spec.key] = value;
  }
  return out;
}

const NON_PREEMPTION = choiceOption({
  key: "nonPreemption",
  choices: ["strict", "overhead"],
  default: "strict",
  description: `strict: a running job is never preempted (default); overhead: only the overhead Delta (${OVERHEAD_NON_PREEMPTIVE}) keeps it, as the paper simulates it (Interpretation 11).`,
});

const KNAPSACK = choiceOption({
  key: "knapsack",
  choices: ["greedy", "exact"],
  default: PLAN_DEFAULTS.knapsack,
  description:
    "Knapsack solver of the licence pre-matching (default {default}; greedy is the paper's MKP).",
});

const REFRESH = numberOption({
  key: "refreshTolerance",
  default: REFRESH_TOLERANCE,
  description:
    "Incremental matrix: a row is recomputed when an entry moved by more than this (default {default}).",
});

/** A convergent-scheduling variant with its typed `--opt` values. */
function convergentScheduler(variant: ConvergentVariant, o: OptionValues): Scheduler {
  const options = {
    constants: constantsOf(o),
    readings: readingsOf(o),
    ...given(KNAPSACK, o),
    ...given(REFRESH, o),
  };
  if (NON_PREEMPTION.read(o) === "overhead") {
    // The paper's simulation of non-preemption: preemption allowed, the overhead (800 unless
    // set) the only thing that keeps a running job on its machine.
    return convergent({
      ...options,
      name: variant,
      matcher: variant === "CS_inp" ? "imfs" : "mfs",
      preemption: true,
      constants: { overhead: OVERHEAD_NON_PREEMPTIVE, ...options.constants },
    });
  }
  return convergentVariant(variant, options);
}

/** The CS variants: name, variant, what it is. */
const CONVERGENT_VARIANTS = [
  ["cs-ip", "CS_ip", "incremental (IMFS), with preemption"],
  ["cs-inp", "CS_inp", "incremental (IMFS), no preemption"],
  ["cs-nip", "CS_nip", "non-incremental (MFS), with preemption"],
  ["cs-ninp", "CS_ninp", "non-incremental (MFS), no preemption"],
] as const;

/** Convergent scheduling's four variants, and flexible backfilling ranked by its heuristics. */
export const CONVERGENT_ENTRIES: readonly SchedulerEntry[] = [
  ...CONVERGENT_VARIANTS.map(
    ([name, variant, what]): SchedulerEntry => ({
      name,
      description: `Convergent scheduling ${variant}: ${what}; one job per machine (@sched/convergent).`,
      options: [
        ...constantOptions(
          variant === "CS_inp" || variant === "CS_ninp"
            ? OVERHEAD_NON_PREEMPTIVE
            : OVERHEAD_PREEMPTIVE,
        ),
        ...READING_OPTIONS,
        ...(variant === "CS_inp" || variant === "CS_ninp" ? [NON_PREEMPTION] : []),
        KNAPSACK,
        ...(variant === "CS_ip" || variant === "CS_inp" ? [REFRESH] : []),
      ],
      create: (o) => convergentScheduler(variant, o),
    }),
  ),
  ...(["rm", "unrm"] as const).map(
    (variant): SchedulerEntry => ({
      name: `bf-${variant}`,
      description: `Flexible backfilling BF-${variant} (the reservation ${variant === "rm" ? "follows the first job" : "stays with its job until it starts"}), queue ranked by the convergent heuristics (@sched/backfill + @sched/convergent's convergentPriority).`,
      options: [...PLACEMENT, ...CONSTANT_OPTIONS, ...READING_OPTIONS],
      create: (o) =>
        flexible({
          priority: convergentPriority({ constants: constantsOf(o), readings: readingsOf(o) }),
          variant,
          ...placementOf(o),
        }),
    }),
  ),
];
