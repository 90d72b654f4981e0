import {
  type AllocationPolicy,
  advanceReservation,
  paperPolicies,
} from "@sched/advance-reservation";
import {
  backfill,
  conservative,
  type EdfOptions,
  easy,
  edf,
  fcfs,
  flexible,
  MACHINE_ORDERS,
  type MachineOrder,
  type OrderName,
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
  PAPER_CONSTANTS,
} from "@sched/convergent";
import type { Scheduler } from "@sched/core";
import {
  type CompetitiveOptions,
  competitiveScheduler,
  maxMinScheduler,
  mctScheduler,
  minMinScheduler,
  randomScheduler,
} from "@sched/elo";
import { hanging } from "./format.js";
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

/** A value of a scheduler option given with `--opt key=value`. */
export type OptionValue = string | number | boolean;

/** One option a scheduler accepts through `--opt key=value`. */
export interface SchedulerOptionSpec {
  readonly key: string;
  /** How the text after `=` is read. */
  readonly type: "integer" | "number" | "boolean" | "string";
  readonly description: string;
  /** For `string` options: the accepted values. */
  readonly choices?: readonly string[];
  /** For `integer` options: the smallest accepted value. */
  readonly min?: number;
  /** For `integer` options: also accept `inf` (read as `Infinity`). */
  readonly allowInfinity?: boolean;
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
  /** A fresh scheduler; `options` holds only keys of {@link SchedulerEntry.options}, already typed. */
  create(options: Readonly<Record<string, OptionValue>>): Scheduler;
}

const MACHINE_ORDER: SchedulerOptionSpec = {
  key: "machineOrder",
  type: "string",
  choices: MACHINE_ORDERS,
  description:
    "Machines tried lowest index first (default), fastest first, or fewest cores first (best-fit).",
};

const QUEUE_ORDER: SchedulerOptionSpec = {
  key: "order",
  type: "string",
  choices: ["fcfs", "sjf", "largest-first", "user-priority"],
  description: "Queue order (default fcfs); ties by submit time, then id.",
};

const SINGLE_MACHINE: SchedulerOptionSpec = {
  key: "singleMachine",
  type: "boolean",
  description:
    "Every job on one machine (the farm shape); a job no single machine can host is rejected (default false).",
};

const EXCLUSIVE: SchedulerOptionSpec = {
  key: "exclusive",
  type: "boolean",
  description:
    "One job per machine at a time, whatever its free cores (implies singleMachine; default false).",
};

/** What each constant of the convergent heuristics is (the paper's footnote 1). */
const CONSTANT_MEANING: Readonly<Record<keyof HeuristicConstants, string>> = {
  base: "Minimal requirements: the value every eligible entry starts from",
  deadlineMax: "Deadline heuristic: Max",
  deadlineMin: "Deadline heuristic: Min",
  deadlineK: "Deadline heuristic: k",
  licenses: "Licenses heuristic: weight LI",
  input: "Input heuristic: weight IN",
  waitMinimization: "Wait minimization: weight WM",
  overhead:
    "Overhead minimization: Delta (the CS variants' default: 8 with preemption, 800 without)",
  antiAging: "Anti-aging: weight AA",
};

/** The convergent heuristics' constants as `--opt` options (CS variants, BF-rm, BF-unrm). */
const CONSTANT_OPTIONS: readonly SchedulerOptionSpec[] = (
  Object.keys(CONSTANT_MEANING) as (keyof HeuristicConstants)[]
).map((key) => ({
  key,
  type: "number",
  description: `${CONSTANT_MEANING[key]} (default ${PAPER_CONSTANTS[key]}).`,
}));

/** The Deadline heuristic's readings as `--opt` options (CS variants, BF-rm, BF-unrm). */
const READING_OPTIONS: readonly SchedulerOptionSpec[] = [
  {
    key: "deadlineLate",
    type: "string",
    choices: ["max", "min"],
    description:
      "f1 after the deadline: max (the prose; default) or min (the formula as printed) (convergent README, Interpretation 1).",
  },
  {
    key: "deadlineAllLate",
    type: "string",
    choices: ["max", "zero"],
    description:
      "Deadline update of a job late on every machine (d_i = 0): max on each (default) or zero (Interpretation 2).",
  },
];

/** The readings given among typed `--opt` values. */
function readingsOf(o: Readonly<Record<string, OptionValue>>): HeuristicReadings {
  return {
    ...(o.deadlineLate === undefined ? {} : { deadlineLate: o.deadlineLate as "max" | "min" }),
    ...(o.deadlineAllLate === undefined
      ? {}
      : { deadlineAllLate: o.deadlineAllLate as "max" | "zero" }),
  };
}

/** The heuristic constants given among typed `--opt` values. */
function constantsOf(o: Readonly<Record<string, OptionValue>>): HeuristicConstants {
  const out: Record<string, number> = {};
  for (const { key } of CONSTANT_OPTIONS) {
    if (o[key] !== undefined) out[key] = o[key] as number;
  }
  return out as HeuristicConstants;
}

/** The backfill options common to the presets, from typed `--opt` values. */
function presetOptions(o: Readonly<Record<string, OptionValue>>): PresetOptions {
  const out: {
    order?: OrderName;
    machineOrder?: MachineOrder;
    keepReservations?: boolean;
    singleMachine?: boolean;
    exclusive?: boolean;
  } = {};
  if (o.order !== undefined) out.order = o.order as OrderName;
  if (o.machineOrder !== undefined) out.machineOrder = o.machineOrder as MachineOrder;
  if (o.keepReservations !== undefined) out.keepReservations = o.keepReservations as boolean;
  if (o.singleMachine !== undefined) out.singleMachine = o.singleMachine as boolean;
  if (o.exclusive !== undefined) out.exclusive = o.exclusive as boolean;
  return out;
}

/**
 * Every policy `sched-sim` knows, by name, in `--help` order. Packages' policies are added here
 * as they land (one entry each, options declared so `--opt` is checked).
 */
export const SCHEDULERS: readonly SchedulerEntry[] = [
  {
    name: "fcfs",
    description: "First come, first served: strict arrival order, no overtaking.",
    options: [MACHINE_ORDER, SINGLE_MACHINE, EXCLUSIVE],
    create: (o) =>
      fcfs({
        ...(o.machineOrder === undefined ? {} : { machineOrder: o.machineOrder as MachineOrder }),
        ...(o.singleMachine === undefined ? {} : { singleMachine: o.singleMachine as boolean }),
        ...(o.exclusive === undefined ? {} : { exclusive: o.exclusive as boolean }),
      }),
  },
  {
    name: "easy",
    description:
      "EASY backfilling: the first waiting job gets a reservation; later jobs start if they do not delay it.",
    options: [QUEUE_ORDER, MACHINE_ORDER, SINGLE_MACHINE, EXCLUSIVE],
    create: (o) => easy(presetOptions(o)),
  },
  {
    name: "conservative",
    description:
      "Conservative backfilling: every job gets a reservation on arrival, compressed when jobs end early.",
    options: [QUEUE_ORDER, MACHINE_ORDER, SINGLE_MACHINE, EXCLUSIVE],
    create: (o) => conservative(presetOptions(o)),
  },
  {
    name: "backfill",
    description:
      "Backfilling with a chosen depth: reservations=0 (no backfilling), 1 (EASY), k, or inf (conservative).",
    options: [
      {
        key: "reservations",
        type: "integer",
        min: 0,
        allowInfinity: true,
        description: "Waiting jobs holding a reservation: an integer >= 0 or inf (default 1).",
      },
      QUEUE_ORDER,
      {
        key: "keepReservations",
        type: "boolean",
        description: "A job keeps its reservation until it starts (BF-unrm; default false).",
      },
      MACHINE_ORDER,
      SINGLE_MACHINE,
      EXCLUSIVE,
    ],
    create: (o) =>
      backfill({
        ...presetOptions(o),
        ...(o.reservations === undefined ? {} : { reservations: o.reservations as number }),
      }),
  },
  {
    name: "edf",
    description:
      "Earliest deadline first (the convergent paper's baseline); on jobs without deadlines, greedy first fit in submit order.",
    options: [
      {
        key: "preemption",
        type: "boolean",
        description: "Preempt later-deadline jobs for an earlier one (default true).",
      },
      {
        ...MACHINE_ORDER,
        description: "Machines tried fastest first (default speed) or by index.",
      },
      {
        ...EXCLUSIVE,
        description:
          "One job per machine at a time; a preempting job empties a whole machine (default false).",
      },
      {
        key: "deadlineOrder",
        type: "string",
        choices: ["increasing", "decreasing"],
        description:
          "Queue by increasing deadline (default) or decreasing (the convergent paper's words read literally).",
      },
      {
        key: "undatedFactor",
        type: "number",
        description:
          "Jobs without a deadline ordered as if due at submit + this x estimate (default: after every dated job).",
      },
      {
        key: "preemptFor",
        type: "string",
        choices: ["arrivals", "waiting"],
        description:
          "Who may preempt: jobs submitted at this event (default) or any waiting job with a deadline.",
      },
    ],
    create: (o) => {
      const options: { -readonly [K in keyof EdfOptions]: EdfOptions[K] } = {};
      if (o.preemption !== undefined) options.preemption = o.preemption as boolean;
      if (o.machineOrder !== undefined) options.machineOrder = o.machineOrder as MachineOrder;
      if (o.exclusive !== undefined) options.exclusive = o.exclusive as boolean;
      if (o.deadlineOrder !== undefined)
        options.deadlineOrder = o.deadlineOrder as "increasing" | "decreasing";
      if (o.undatedFactor !== undefined) options.undatedFactor = o.undatedFactor as number;
      if (o.preemptFor !== undefined) options.preemptFor = o.preemptFor as "arrivals" | "waiting";
      return edf(options);
    },
  },
  {
    name: "competitive",
    description:
      "Competitive matchmaking: Elo-rated machines in tiers, a job goes to its level's tier (@sched/elo). One job per machine.",
    options: [
      { key: "tiers", type: "integer", min: 1, description: "Number of tiers (default 5)." },
      { key: "tierWidth", type: "number", description: "Rating range per tier (default 500)." },
      { key: "growth", type: "number", description: "Rating growth constant C (default 20)." },
      {
        key: "baseRating",
        type: "number",
        description: "Starting rating (default tiers x tierWidth / 2).",
      },
      {
        key: "overhead",
        type: "number",
        description: "Win-condition overhead, in speed units (default 0).",
      },
      {
        key: "maxSpeed",
        type: "number",
        description: "MAXSPEED of the win condition (default the fastest benchmark).",
      },
      {
        key: "stickyTopTier",
        type: "boolean",
        description: "Machines never leave the top tier once there (default false).",
      },
      {
        key: "levelScale",
        type: "string",
        choices: ["log", "linear"],
        description: "Job levels: equal bins of log size (default) or of size.",
      },
    ],
    create: (o) => competitiveScheduler({ ...o } as CompetitiveOptions),
  },
  {
    name: "random",
    description: "A uniformly random machine per job, FIFO per machine (@sched/elo).",
    options: [
      {
        key: "seed",
        type: "integer",
        description: "PRNG seed (default: the run's seed in reproduce and sweep, 1 in run).",
      },
    ],
    seedOption: "seed",
    create: (o) => randomScheduler(o.seed === undefined ? {} : { seed: o.seed as number }),
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
    options: [
      {
        key: "policy",
        type: "string",
        choices: paperPolicies.map((p) => p.name),
        description:
          "Allocation policy (default FF): first fit, PE/duration/PE-duration best or worst fit.",
      },
      {
        key: "clipToDeadline",
        type: "boolean",
        description: "Clip availability rectangles at the request's deadline (default true).",
      },
    ],
    create: (o) =>
      advanceReservation({
        ...(o.policy === undefined
          ? {}
          : { policy: paperPolicies.find((p) => p.name === o.policy) as AllocationPolicy }),
        ...(o.clipToDeadline === undefined ? {} : { clipToDeadline: o.clipToDeadline as boolean }),
      }),
  },
  ...(
    [
      ["cs-ip", "CS_ip", "incremental (IMFS), with preemption"],
      ["cs-inp", "CS_inp", "incremental (IMFS), no preemption"],
      ["cs-nip", "CS_nip", "non-incremental (MFS), with preemption"],
      ["cs-ninp", "CS_ninp", "non-incremental (MFS), no preemption"],
    ] as const
  ).map(
    ([name, variant, what]): SchedulerEntry => ({
      name,
      description: `Convergent scheduling ${variant}: ${what}; one job per machine (@sched/convergent).`,
      options: [
        ...CONSTANT_OPTIONS,
        ...READING_OPTIONS,
        ...(variant === "CS_inp" || variant === "CS_ninp"
          ? [
              {
                key: "nonPreemption",
                type: "string",
                choices: ["strict", "overhead"],
                description:
                  "strict: a running job is never preempted (default); overhead: only the overhead Delta (800) keeps it, as the paper simulates it (Interpretation 11).",
              } as const,
            ]
          : []),
        {
          key: "knapsack",
          type: "string",
          choices: ["greedy", "exact"],
          description:
            "Knapsack solver of the licence pre-matching (default greedy, the paper's MKP).",
        },
        ...(variant === "CS_ip" || variant === "CS_inp"
          ? [
              {
                key: "refreshTolerance",
                type: "number",
                description:
                  "Incremental matrix: a row is recomputed when an entry moved by more than this (default 0.05).",
              } as const,
            ]
          : []),
      ],
      create: (o) => convergentScheduler(variant, o),
    }),
  ),
  ...(["rm", "unrm"] as const).map(
    (variant): SchedulerEntry => ({
      name: `bf-${variant}`,
      description: `Flexible backfilling BF-${variant} (the reservation ${variant === "rm" ? "follows the first job" : "stays with its job until it starts"}), queue ranked by the convergent heuristics (@sched/backfill + @sched/convergent's convergentPriority).`,
      options: [MACHINE_ORDER, SINGLE_MACHINE, EXCLUSIVE, ...CONSTANT_OPTIONS, ...READING_OPTIONS],
      create: (o) =>
        flexible({
          priority: convergentPriority({ constants: constantsOf(o), readings: readingsOf(o) }),
          variant,
          ...(o.machineOrder === undefined ? {} : { machineOrder: o.machineOrder as MachineOrder }),
          ...(o.singleMachine === undefined ? {} : { singleMachine: o.singleMachine as boolean }),
          ...(o.exclusive === undefined ? {} : { exclusive: o.exclusive as boolean }),
        }),
    }),
  ),
];

/** A convergent-scheduling variant with its typed `--opt` values. */
function convergentScheduler(
  variant: ConvergentVariant,
  o: Readonly<Record<string, OptionValue>>,
): Scheduler {
  const options = {
    constants: constantsOf(o),
    readings: readingsOf(o),
    ...(o.knapsack === undefined ? {} : { knapsack: o.knapsack as "greedy" | "exact" }),
    ...(o.refreshTolerance === undefined ? {} : { refreshTolerance: o.refreshTolerance as number }),
  };
  if (o.nonPreemption === "overhead") {
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

/**
 * The policies `demo` and the `fcfs-load` experiment compare: the backfilling family on a pool
 * of identical processors (EDF is left out: the synthetic jobs have no deadlines).
 */
export const COMPARED_SCHEDULERS: readonly string[] = ["fcfs", "easy", "conservative"];

/** The registry entries of {@link COMPARED_SCHEDULERS}, with default options. */
export function comparedSchedulers(): SchedulerChoice[] {
  return COMPARED_SCHEDULERS.map((name) => {
    const entry = SCHEDULERS.find((s) => s.name === name) as SchedulerEntry;
    return { entry, options: {}, label: name };
  });
}

/** A scheduler picked on the command line: the entry, its typed options and a display label. */
export interface SchedulerChoice {
  readonly entry: SchedulerEntry;
  readonly options: Readonly<Record<string, OptionValue>>;
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
 * `=`, a repeated key and a value of the wrong type throw a {@link UsageError} naming them.
 */
export function chooseScheduler(
  name: string,
  optWords: readonly string[],
  command: string,
): SchedulerChoice {
  const entry = findScheduler(name, command);
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

/** An option value as the command line writes it (`inf` for Infinity). */
export function optionText(value: OptionValue): string {
  return value === Number.POSITIVE_INFINITY ? "inf" : String(value);
}

/** Options for a report: each value as a JSON-safe value (`"inf"` for Infinity). */
export function optionsForReport(
  options: Readonly<Record<string, OptionValue>>,
): Record<string, OptionValue> {
  const out: Record<string, OptionValue> = {};
  for (const [k, v] of Object.entries(options)) {
    out[k] = typeof v === "number" && !Number.isFinite(v) ? optionText(v) : v;
  }
  return out;
}

function optionValue(
  spec: SchedulerOptionSpec,
  text: string,
  where: string,
  command: string,
): OptionValue {
  switch (spec.type) {
    case "integer": {
      if (spec.allowInfinity && text === "inf") return Number.POSITIVE_INFINITY;
      const n = /^[+-]?\d+$/.test(text) ? Number(text) : Number.NaN;
      const min = spec.min ?? Number.MIN_SAFE_INTEGER;
      if (!Number.isSafeInteger(n) || n < min) {
        const expected = `an integer${spec.min === undefined ? "" : ` >= ${spec.min}`}${spec.allowInfinity ? " or inf" : ""}`;
        throw new UsageError(`${where}: expected ${expected}`, command);
      }
      return n;
    }
    case "number": {
      const n = text.trim() === "" ? Number.NaN : Number(text);
      if (!Number.isFinite(n)) throw new UsageError(`${where}: expected a finite number`, command);
      return n;
    }
    case "boolean":
      if (text === "true") return true;
      if (text === "false") return false;
      throw new UsageError(`${where}: expected true or false`, command);
    case "string":
      if (spec.choices !== undefined && !spec.choices.includes(text)) {
        throw new UsageError(`${where}: expected one of ${spec.choices.join(", ")}`, command);
      }
      return text;
  }
}

/** What a value of `spec` must be, in words: `an integer >= 1 or "inf"`, `one of a, b`. */
export function expectedOptionValue(spec: SchedulerOptionSpec): string {
  switch (spec.type) {
    case "integer":
      return `an integer${spec.min === undefined ? "" : ` >= ${spec.min}`}${spec.allowInfinity ? ' or "inf"' : ""}`;
    case "number":
      return "a finite number";
    case "boolean":
      return "true or false";
    case "string":
      return spec.choices === undefined
        ? "a string"
        : `one of ${spec.choices.map((c) => JSON.stringify(c)).join(", ")}`;
  }
}

/**
 * A JSON value (of an experiment file) as a value of option `spec`, or `undefined` when it is
 * not one: the JSON type must be the option's (a number for `integer`, never the string `"5"`;
 * `"inf"` for an integer that allows it), and the value in range, as {@link chooseScheduler}
 * checks `--opt` text.
 */
export function jsonOptionValue(
  spec: SchedulerOptionSpec,
  value: unknown,
): OptionValue | undefined {
  switch (spec.type) {
    case "integer":
      if (spec.allowInfinity && value === "inf") return Number.POSITIVE_INFINITY;
      return typeof value === "number" &&
        Number.isSafeInteger(value) &&
        value >= (spec.min ?? Number.MIN_SAFE_INTEGER)
        ? value
        : undefined;
    case "number":
      return typeof value === "number" && Number.isFinite(value) ? value : undefined;
    case "boolean":
      return typeof value === "boolean" ? value : undefined;
    case "string":
      return typeof value === "string" &&
        (spec.choices === undefined || spec.choices.includes(value))
        ? value
        : undefined;
  }
}

/** `--help` text listing the schedulers and their options. */
export function schedulersHelp(): string {
  const lines = ["Schedulers (--scheduler NAME; their options with --opt key=value):"];
  for (const s of SCHEDULERS) {
    lines.push(hanging(`  ${s.name}`, s.description, 16));
    for (const o of s.options) {
      const type = o.choices ? o.choices.join("|") : o.allowInfinity ? `${o.type}|inf` : o.type;
      lines.push(hanging(`${" ".repeat(16)}${o.key}=<${type}>`, o.description, 20));
    }
  }
  return lines.join("\n");
}
