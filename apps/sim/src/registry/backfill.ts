import {
  BACKFILL_DEFAULTS,
  backfill,
  conservative,
  EDF_DEFAULTS,
  easy,
  edf,
  fcfs,
  MACHINE_ORDERS,
  type PresetOptions,
} from "@sched/backfill";
import type { SchedulerEntry } from "../scheduler-entry.js";
import {
  booleanOption,
  choiceOption,
  given,
  integerOption,
  numberOption,
  type OptionValues,
} from "../scheduler-options.js";

const MACHINE_ORDER = choiceOption({
  key: "machineOrder",
  choices: MACHINE_ORDERS,
  default: BACKFILL_DEFAULTS.machineOrder,
  description:
    "Machines tried lowest index first (default), fastest first, or fewest cores first (best-fit).",
});

const QUEUE_ORDER = choiceOption({
  key: "order",
  choices: ["fcfs", "sjf", "largest-first", "user-priority", "deadline"],
  default: BACKFILL_DEFAULTS.order,
  description:
    "Queue order (default {default}; deadline: earliest first, jobs without one last); ties by submit time, then id.",
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
export const PLACEMENT = [MACHINE_ORDER, SINGLE_MACHINE, EXCLUSIVE] as const;

/** The placement options given among `o`. */
export function placementOf(o: OptionValues) {
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

/** FCFS, EASY, conservative, backfilling of any depth and EDF (@sched/backfill). */
export const BACKFILL_ENTRIES: readonly SchedulerEntry[] = [
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
];
