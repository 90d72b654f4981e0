import {
  ADVANCE_RESERVATION_DEFAULTS,
  advanceReservation,
  paperPolicies,
} from "@sched/advance-reservation";
import {
  BACKFILL_DEFAULTS,
  backfill,
  conservative,
  EDF_DEFAULTS,
  easy,
  edf,
  fcfs,
  flexible,
  MACHINE_ORDERS,
  type PresetOptions,
} from "@sched/backfill";
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
  REFRESH_TOLERANCE,
} from "@sched/convergent";
import type { Scheduler } from "@sched/core";
import {
  COMPETITIVE_DEFAULTS,
  competitiveScheduler,
  maxMinScheduler,
  mctScheduler,
  minMinScheduler,
  RANDOM_SCHEDULER_DEFAULTS,
  randomScheduler,
} from "@sched/elo";
import {
  OAS_HEURISTIC_DEFAULTS,
  OAS_RULES,
  OAS_SOLVE_DEFAULTS,
  type OasRule,
  oasHeuristic,
  SPACE_SHARING_DEFAULTS,
  spaceSharingScheduler,
} from "@sched/multicluster";
import { hanging } from "./format.js";
import {
  booleanOption,
  choiceOption,
  given,
  integerOption,
  numberOption,
  type OptionValue,
  type OptionValues,
  optionText,
  optionValue,
  type SchedulerOptionSpec,
} from "./scheduler-options.js";
import { UsageError } from "./usage-error.js";

/**
 * A fresh scheduler of `choice` for the run of seed `seed`: its options, plus the run's seed in
 * the entry's {@link SchedulerEntry.seedOption} when that is not set (so the policy's dice differ
 * from instance to instance and a run is reproduced by its seed alone).
 */
export function createScheduler(choice: SchedulerChoice, seed: number): Scheduler {
  const key = choice.entry.seedOption;
  if (key === undefined || choice.options[key] !== undefined) {
    return choice.entry.create(choice.options);
  }
  return choice.entry.create({ ...choice.options, [key]: seed });
}

/**
 * Why a policy cannot run on the workload of `run`, `sweep` or `demo` (jobs on a pool of
 * machines, simulated by core's engine), and the experiments it runs in instead.
 */
export interface ExperimentOnly {
  /** What it needs that a plain workload lacks, in a phrase. */
  readonly reason: string;
  /** The `sched-sim reproduce` experiments that run it. */
  readonly experiments: readonly string[];
}

/** A policy the CLI can run: its name, one line of help, its options and a factory. */
export interface SchedulerEntry {
  readonly name: string;
  readonly description: string;
  readonly options: readonly SchedulerOptionSpec[];
  /**
   * The option a policy that rolls dice takes its seed from: in `reproduce` and `sweep`, when it
   * is not set, each run passes its own seed there (see {@link createScheduler}), as a library
   * study seeds the policy per instance.
   * @defaultValue none: the policy is deterministic
   */
  readonly seedOption?: string;
  /**
   * Set when the policy is not a core scheduler of any workload: {@link chooseScheduler} then
   * refuses it with a usage error naming `--scheduler`, and `create` is never called.
   * @defaultValue none: it runs wherever a core scheduler does
   */
  readonly experimentOnly?: ExperimentOnly;
  /** A fresh scheduler; `options` holds only keys of {@link SchedulerEntry.options}, already typed. */
  create(options: OptionValues): Scheduler;
}

const MACHINE_ORDER = choiceOption({
  key: "machineOrder",
  choices: MACHINE_ORDERS,
  default: BACKFILL_DEFAULTS.machineOrder,
  description:
    "Machines tried lowest index first (default), fastest first, or fewest cores first (best-fit).",
});

const QUEUE_ORDER = choiceOption({
  key: "order",
  choices: ["fcfs", "sjf", "largest-first", "user-priority"],
  default: BACKFILL_DEFAULTS.order,
  description: "Queue order (default {default}); ties by submit time, then id.",
});

const SINGLE_MACHINE = booleanOption({
  key: "singleMachine",
  default: BACKFILL_DEFAULTS.singleMachine,
  description:
    "Every job on one machine (the farm shape); a job no single machine can host is rejected (default {default}).",
});

const EXCLUSIVE = booleanOption({
  key: "exclusive",
  default: BACKFILL_DEFAULTS.exclusive,
  description:
    "One job per machine at a time, whatever its free cores (implies singleMachine; default {default}).",
});

/** The placement options of fcfs and the backfilling policies. */
const PLACEMENT = [MACHINE_ORDER, SINGLE_MACHINE, EXCLUSIVE] as const;

/** The placement options given among `o`. */
function placementOf(o: OptionValues) {
  return { ...given(MACHINE_ORDER, o), ...given(SINGLE_MACHINE, o), ...given(EXCLUSIVE, o) };
}

/** The backfill options common to the presets, from typed `--opt` values. */
function presetOptions(o: OptionValues): PresetOptions {
  return { ...given(QUEUE_ORDER, o), ...given(KEEP_RESERVATIONS, o), ...placementOf(o) };
}

const KEEP_RESERVATIONS = booleanOption({
  key: "keepReservations",
  default: BACKFILL_DEFAULTS.keepReservations,
  description: "A job keeps its reservation until it starts (BF-unrm; default {default}).",
});

const RESERVATIONS = integerOption({
  key: "reservations",
  min: 0,
  allowInfinity: true,
  default: BACKFILL_DEFAULTS.reservations,
  description: "Waiting jobs holding a reservation: an integer >= 0 or inf (default {default}).",
});

const EDF_OPTIONS = [
  booleanOption({
    key: "preemption",
    default: EDF_DEFAULTS.preemption,
    description: "Preempt later-deadline jobs for an earlier one (default {default}).",
  }),
  choiceOption({
    key: "machineOrder",
    choices: MACHINE_ORDERS,
    default: EDF_DEFAULTS.machineOrder,
    description: "Machines tried fastest first (default {default}) or by index.",
  }),
  booleanOption({
    key: "exclusive",
    default: EDF_DEFAULTS.exclusive,
    description:
      "One job per machine at a time; a preempting job empties a whole machine (default {default}).",
  }),
  choiceOption({
    key: "deadlineOrder",
    choices: ["increasing", "decreasing"],
    default: EDF_DEFAULTS.deadlineOrder,
    description:
      "Queue by increasing deadline (default) or decreasing (the convergent paper's words read literally).",
  }),
  numberOption({
    key: "undatedFactor",
    default: EDF_DEFAULTS.undatedFactor,
    description:
      "Jobs without a deadline ordered as if due at submit + this x estimate (default: after every dated job).",
  }),
  choiceOption({
    key: "preemptFor",
    choices: ["arrivals", "waiting"],
    default: EDF_DEFAULTS.preemptFor,
    description:
      "Who may preempt: jobs submitted at this event (default) or any waiting job with a deadline.",
  }),
] as const;

const COMPETITIVE_OPTIONS = [
  integerOption({
    key: "tiers",
    min: 1,
    default: COMPETITIVE_DEFAULTS.tiers,
    description: "Number of tiers (default {default}).",
  }),
  numberOption({
    key: "tierWidth",
    default: COMPETITIVE_DEFAULTS.tierWidth,
    description: "Rating range per tier (default {default}).",
  }),
  numberOption({
    key: "growth",
    default: COMPETITIVE_DEFAULTS.growth,
    description: "Rating growth constant C (default {default}).",
  }),
  numberOption({
    key: "baseRating",
    description: "Starting rating (default tiers x tierWidth / 2).",
  }),
  numberOption({
    key: "overhead",
    default: COMPETITIVE_DEFAULTS.overhead,
    description: "Win-condition overhead, in speed units (default {default}).",
  }),
  numberOption({
    key: "maxSpeed",
    description: "MAXSPEED of the win condition (default the fastest benchmark).",
  }),
  booleanOption({
    key: "stickyTopTier",
    default: COMPETITIVE_DEFAULTS.stickyTopTier,
    description: "Machines never leave the top tier once there (default {default}).",
  }),
  choiceOption({
    key: "levelScale",
    choices: ["log", "linear"],
    default: COMPETITIVE_DEFAULTS.levelScale,
    description: "Job levels: equal bins of log size (default) or of size.",
  }),
] as const;

const RANDOM_SEED = integerOption({
  key: "seed",
  default: RANDOM_SCHEDULER_DEFAULTS.seed,
  description: "PRNG seed (default: the run's seed in reproduce and sweep, {default} in run).",
});

const AR_POLICY = choiceOption({
  key: "policy",
  choices: paperPolicies.map((p) => p.name),
  default: ADVANCE_RESERVATION_DEFAULTS.policy.name,
  description:
    "Allocation policy (default {default}): first fit, PE/duration/PE-duration best or worst fit.",
});

const CLIP_TO_DEADLINE = booleanOption({
  key: "clipToDeadline",
  default: ADVANCE_RESERVATION_DEFAULTS.clipToDeadline,
  description: "Clip availability rectangles at the request's deadline (default {default}).",
});

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

/** The Deadline heuristic's readings as `--opt` options (CS variants, BF-rm, BF-unrm). */
const READING_OPTIONS = [DEADLINE_LATE, DEADLINE_ALL_LATE] as const;

/** The readings given among typed `--opt` values. */
function readingsOf(o: OptionValues): HeuristicReadings {
  return { ...given(DEADLINE_LATE, o), ...given(DEADLINE_ALL_LATE, o) };
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
  description: "Knapsack solver of the licence pre-matching (default greedy, the paper's MKP).",
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

const ALPHA = integerOption({
  key: "alpha",
  min: 0,
  default: SPACE_SHARING_DEFAULTS.alpha,
  description:
    "Space-sharing threshold: the head starts once min(target, alpha) processors are idle (default {default}).",
});

const BASELINE_PARTITION = choiceOption({
  key: "baselinePartition",
  choices: ["map", "rosti"],
  default: SPACE_SHARING_DEFAULTS.baselinePartition,
  description:
    "Partition size: MAP, from every job in the system (default {default}), or Rosti's, from the queued jobs.",
});

const EXECUTING_WEIGHT = numberOption({
  key: "executingWeight",
  default: SPACE_SHARING_DEFAULTS.executingWeight,
  description:
    "MAP: weight of the executing jobs in ceil(P / (queued + 1 + weight x executing)) (default {default}).",
});

const BASELINE_SELECTION = choiceOption({
  key: "baselineSelection",
  choices: ["random", "fastest", "lowest-index"],
  default: SPACE_SHARING_DEFAULTS.baselineSelection,
  description: "Which idle processors it takes (default {default}).",
});

const BASELINE_SEED = integerOption({
  key: "seed",
  default: SPACE_SHARING_DEFAULTS.seed,
  description:
    "Seed of the random processor selection (default: the run's seed in reproduce and sweep, {default} in run).",
});

/** What each OAS list heuristic does (the second multicluster paper's baselines). */
const OAS_RULE_DESCRIPTIONS: Readonly<Record<OasRule, string>> = {
  FCFS: "First come, first served (strict order), OAS's allocation and cost model.",
  SJF: "Smallest job (fewest tasks) first, strict order.",
  BJF: "Biggest job (most tasks) first, strict order.",
  FPFS: "Fit processors first served: the first job in arrival order that fits.",
  SPT: "Shortest base time first, strict order.",
  LPT: "Longest base time first, strict order.",
};

/** The option of the OAS heuristics (`oas-fcfs` … `oas-lpt`, and the OAS experiments' `fcfs` …). */
export const OAS_HEURISTIC_OPTIONS = [
  booleanOption({
    key: "links",
    default: OAS_HEURISTIC_DEFAULTS.links,
    description:
      "Link-aware: start a job only where no link saturates (default {default}); false: the link-blind variant.",
  }),
] as const;

/** The registry name of an OAS heuristic: `oas-` and the rule in lower case. */
function oasHeuristicName(rule: OasRule): string {
  return `oas-${rule.toLowerCase()}`;
}

/** OAS itself: a MIP over the whole workload, run by the OAS experiments only. */
const OAS_ENTRY: SchedulerEntry = experimentOnlyEntry({
  name: "oas",
  description:
    "OAS: the MIP of Blanco et al. solved by HiGHS within the node budget; its own schedule run by the engine.",
  options: [
    choiceOption({
      key: "replay",
      choices: ["slots", "compact"],
      default: "slots",
      description:
        "How the MIP's schedule runs in the engine: each job at its slot (default), or compacted (same order per machine and allocations, each job as soon as allowed).",
    }),
    booleanOption({
      key: "warmStart",
      default: OAS_SOLVE_DEFAULTS.warmStart,
      description:
        "Hand HiGHS a start: the best of the six slotted list schedules and the heuristics' runs (default {default}: the solver's own schedule).",
    }),
    booleanOption({
      key: "links",
      default: OAS_SOLVE_DEFAULTS.links,
      description: "Keep constraints (21)-(22): no link saturated in any slot (default {default}).",
    }),
  ],
  experimentOnly: {
    reason:
      "it solves one MIP over every job of the workload, known in advance, on a multi-cluster platform with inter-cluster links",
    experiments: ["oas", "oas-links", "oas-slots"],
  },
});

/**
 * An entry that runs only inside its experiments: its `create` throws a {@link UsageError}
 * ({@link chooseScheduler} refuses the name before that).
 */
function experimentOnlyEntry(
  entry: Omit<SchedulerEntry, "create"> & { readonly experimentOnly: ExperimentOnly },
): SchedulerEntry {
  return {
    ...entry,
    create: () => {
      throw new UsageError(notRunnableMessage(entry.name, entry.experimentOnly));
    },
  };
}

/** Why `name` cannot run on a workload, and where it runs. */
function notRunnableMessage(name: string, only: ExperimentOnly): string {
  return `scheduler '${name}' cannot run on a workload: ${only.reason}; it runs in sched-sim reproduce ${only.experiments.join(" | ")}`;
}

/**
 * Every policy `sched-sim` knows, by name, in `--help` order. Packages' policies are added here
 * as they land (one entry each, options declared once, with their packages' defaults, so `--opt`
 * is checked and `--help` and the README's table say the same).
 */
export const SCHEDULERS: readonly SchedulerEntry[] = [
  {
    name: "fcfs",
    description: "First come, first served: strict arrival order, no overtaking.",
    options: PLACEMENT,
    create: (o) => fcfs(placementOf(o)),
  },
  {
    name: "easy",
    description:
      "EASY backfilling: the first waiting job gets a reservation; later jobs start if they do not delay it.",
    options: [QUEUE_ORDER, ...PLACEMENT],
    create: (o) => easy(presetOptions(o)),
  },
  {
    name: "conservative",
    description:
      "Conservative backfilling: every job gets a reservation on arrival, compressed when jobs end early.",
    options: [QUEUE_ORDER, ...PLACEMENT],
    create: (o) => conservative(presetOptions(o)),
  },
  {
    name: "backfill",
    description:
      "Backfilling with a chosen depth: reservations=0 (no backfilling), 1 (EASY), k, or inf (conservative).",
    options: [RESERVATIONS, QUEUE_ORDER, KEEP_RESERVATIONS, ...PLACEMENT],
    create: (o) => backfill({ ...presetOptions(o), ...given(RESERVATIONS, o) }),
  },
  {
    name: "edf",
    description:
      "Earliest deadline first (the convergent paper's baseline); on jobs without deadlines, greedy first fit in submit order.",
    options: EDF_OPTIONS,
    create: (o) => {
      const [preemption, machineOrder, exclusive, deadlineOrder, undatedFactor, preemptFor] =
        EDF_OPTIONS;
      return edf({
        ...given(preemption, o),
        ...given(machineOrder, o),
        ...given(exclusive, o),
        ...given(deadlineOrder, o),
        ...given(undatedFactor, o),
        ...given(preemptFor, o),
      });
    },
  },
  {
    name: "competitive",
    description:
      "Competitive matchmaking: Elo-rated machines in tiers, a job goes to its level's tier (@sched/elo). One job per machine.",
    options: COMPETITIVE_OPTIONS,
    create: (o) => {
      const [tiers, tierWidth, growth, baseRating, overhead, maxSpeed, sticky, levelScale] =
        COMPETITIVE_OPTIONS;
      return competitiveScheduler({
        ...given(tiers, o),
        ...given(tierWidth, o),
        ...given(growth, o),
        ...given(baseRating, o),
        ...given(overhead, o),
        ...given(maxSpeed, o),
        ...given(sticky, o),
        ...given(levelScale, o),
      });
    },
  },
  {
    name: "random",
    description: "A uniformly random machine per job, FIFO per machine (@sched/elo).",
    options: [RANDOM_SEED],
    seedOption: RANDOM_SEED.key,
    create: (o) => randomScheduler(given(RANDOM_SEED, o)),
  },
  {
    name: "min-min",
    description: "Batch-mode Min-Min on benchmark-based expected times (@sched/elo).",
    options: [],
    create: () => minMinScheduler(),
  },
  {
    name: "max-min",
    description: "Batch-mode Max-Min on benchmark-based expected times (@sched/elo).",
    options: [],
    create: () => maxMinScheduler(),
  },
  {
    name: "mct",
    description: "Minimum completion time, immediate mode (@sched/elo).",
    options: [],
    create: () => mctScheduler(),
  },
  {
    name: "ar",
    description:
      "Advance reservation with deadlines: at arrival, reserve PEs inside [ready, deadline] by an allocation policy, or reject (@sched/advance-reservation).",
    options: [AR_POLICY, CLIP_TO_DEADLINE],
    create: (o) => {
      const name = AR_POLICY.read(o);
      const policy = paperPolicies.find((p) => p.name === name);
      return advanceReservation({
        ...(policy === undefined ? {} : { policy }),
        ...given(CLIP_TO_DEADLINE, o),
      });
    },
  },
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
  {
    name: "dynamic-space-sharing",
    description:
      "Abawajy's dynamic space sharing on core's engine: the head job on a partition sized from queued and executing jobs, processors held until it ends (the paper's per-bunch release: reproduce space-sharing). A rigid job gets exactly its size, so on an SWF trace it is FCFS (@sched/multicluster).",
    options: [ALPHA],
    create: (o) => spaceSharingScheduler({ policy: "dynamic", ...given(ALPHA, o) }),
  },
  {
    name: "adaptive-partitioning",
    description:
      "The space-sharing baseline (MAP/MPAP adaptive partitioning) on core's engine: partition from every job in the system and all P processors, the head waits for that many. A rigid job gets exactly its size, so on an SWF trace it is FCFS (@sched/multicluster).",
    options: [BASELINE_PARTITION, EXECUTING_WEIGHT, BASELINE_SELECTION, BASELINE_SEED],
    seedOption: BASELINE_SEED.key,
    create: (o) =>
      spaceSharingScheduler({
        policy: "adaptive",
        ...given(BASELINE_PARTITION, o),
        ...given(EXECUTING_WEIGHT, o),
        ...given(BASELINE_SELECTION, o),
        ...given(BASELINE_SEED, o),
      }),
  },
  ...OAS_RULES.map(
    (rule): SchedulerEntry => ({
      name: oasHeuristicName(rule),
      description: `OAS list heuristic ${rule} (@sched/multicluster): ${OAS_RULE_DESCRIPTIONS[rule]}`,
      options: OAS_HEURISTIC_OPTIONS,
      create: (o) => oasHeuristic(rule, given(OAS_HEURISTIC_OPTIONS[0], o)),
    }),
  ),
  OAS_ENTRY,
];

/** One line of what OAS heuristic `rule` does (the OAS experiments describe their policies so). */
export function oasRuleDescription(rule: OasRule): string {
  return OAS_RULE_DESCRIPTIONS[rule];
}

/** The OAS entry (the OAS experiments run its options in their own hook). */
export function oasEntry(): SchedulerEntry {
  return OAS_ENTRY;
}

/**
 * The policies `demo` and the `fcfs-load` experiment compare: the backfilling family on a pool
 * of identical processors (EDF is left out: the synthetic jobs have no deadlines).
 */
export const COMPARED_SCHEDULERS: readonly string[] = ["fcfs", "easy", "conservative"];

/** The registry entries of {@link COMPARED_SCHEDULERS}, with default options. */
export function comparedSchedulers(): SchedulerChoice[] {
  return COMPARED_SCHEDULERS.map((name) => ({
    entry: findScheduler(name, "demo"),
    options: {},
    label: name,
  }));
}

/** A scheduler picked on the command line: the entry, its typed options and a display label. */
export interface SchedulerChoice {
  readonly entry: SchedulerEntry;
  readonly options: OptionValues;
  /** `name` or `name(key=value,...)`, keys sorted. */
  readonly label: string;
}

/** The registry entry called `name`, or a {@link UsageError} listing the known names. */
export function findScheduler(name: string, command: string): SchedulerEntry {
  const entry = SCHEDULERS.find((s) => s.name === name);
  if (entry === undefined) {
    throw new UsageError(
      `${command}: option --scheduler: unknown scheduler '${name}'; known: ${SCHEDULERS.map((s) => s.name).join(", ")}`,
      command,
    );
  }
  return entry;
}

/**
 * Resolve `--scheduler NAME` and its `--opt key=value` words: unknown names and keys, a missing
 * `=`, a repeated key and a value of the wrong type throw a {@link UsageError} naming them, and
 * so does a policy that runs only inside its experiments ({@link SchedulerEntry.experimentOnly}).
 */
export function chooseScheduler(
  name: string,
  optWords: readonly string[],
  command: string,
): SchedulerChoice {
  const entry = findScheduler(name, command);
  if (entry.experimentOnly !== undefined) {
    throw new UsageError(
      `${command}: option --scheduler: ${notRunnableMessage(entry.name, entry.experimentOnly)}`,
      command,
    );
  }
  const options: Record<string, OptionValue> = {};
  for (const word of optWords) {
    const eq = word.indexOf("=");
    const key = eq === -1 ? word : word.slice(0, eq);
    const where = `${command}: option --opt ${word}`;
    if (eq <= 0) throw new UsageError(`${where}: expected key=value`, command);
    const spec = entry.options.find((o) => o.key === key);
    if (spec === undefined) {
      const known = entry.options.map((o) => o.key);
      throw new UsageError(
        `${where}: scheduler '${entry.name}' has no option '${key}'${known.length > 0 ? `; it has ${known.join(", ")}` : "; it takes no options"}`,
        command,
      );
    }
    if (key in options) throw new UsageError(`${where}: '${key}' given twice`, command);
    options[key] = optionValue(spec, word.slice(eq + 1), where, command);
  }
  const keys = Object.keys(options).sort();
  const label =
    keys.length === 0
      ? entry.name
      : `${entry.name}(${keys.map((k) => `${k}=${options[k]}`).join(",")})`;
  return { entry, options, label };
}

/** An option's value type as `--help` writes it: `integer|inf`, `fcfs|sjf`. */
function optionTypeText(o: SchedulerOptionSpec): string {
  return o.choices ? o.choices.join("|") : o.allowInfinity ? `${o.type}|inf` : o.type;
}

/** `--help` text listing the schedulers and their options. */
export function schedulersHelp(): string {
  const lines = ["Schedulers (--scheduler NAME; their options with --opt key=value):"];
  for (const s of SCHEDULERS) {
    const only = s.experimentOnly;
    const description =
      only === undefined
        ? s.description
        : `${s.description} Only in sched-sim reproduce ${only.experiments.join(" | ")}.`;
    lines.push(hanging(`  ${s.name}`, description, 16));
    for (const o of s.options) {
      lines.push(hanging(`${" ".repeat(16)}${o.key}=<${optionTypeText(o)}>`, o.description, 20));
    }
  }
  return lines.join("\n");
}

/** `|` escaped for a Markdown table cell. */
function cell(text: string): string {
  return text.replaceAll("|", "\\|");
}

/**
 * The README's scheduler table (Markdown), generated from {@link SCHEDULERS}: one row per
 * policy with its options (`key=type`, the package's default), what it is, and where it runs.
 * `test/schedulers.test.ts` fails when the table committed in the README differs.
 */
export function schedulersMarkdown(): string {
  const rows = [
    "| name | options (`--opt key=value`, default) | what | runs in |",
    "| --- | --- | --- | --- |",
  ];
  for (const s of SCHEDULERS) {
    const options =
      s.options.length === 0
        ? "none"
        : s.options
            .map(
              (o) =>
                `\`${o.key}=${optionTypeText(o)}\`${o.default === undefined ? "" : ` (${optionText(o.default)})`}`,
            )
            .join(", ");
    const where =
      s.experimentOnly === undefined
        ? "`run`, `sweep`"
        : `\`reproduce ${s.experimentOnly.experiments.join("`, `reproduce ")}\` only: ${s.experimentOnly.reason}`;
    rows.push(`| \`${s.name}\` | ${cell(options)} | ${cell(s.description)} | ${cell(where)} |`);
  }
  return `${rows.join("\n")}\n`;
}
