import { InvalidInputError, type SchedulerView, type WaitingJob } from "@sched/core";
import {
  describeValue,
  optionKeys,
  requireBoolean,
  requireKnownKeys,
  requireOneOf,
} from "@sched/errors";
import { MACHINE_ORDERS, type MachineOrder } from "./allocation.js";
import { BACKFILL_DEFAULTS, EDF_DEFAULTS } from "./defaults.js";
import type { Keyed } from "./incremental-sort.js";
import { namedComparator, type QueueOrder, type QueueSorter, queueSorter } from "./order.js";

/** Options of `backfill`. */
export interface BackfillOptions {
  /**
   * How many waiting jobs hold a reservation: `0` no backfilling (the queue order is strict:
   * the first job that does not fit stops the pass), `1` EASY (the first job that does not fit
   * gets a reservation, later jobs may start if they do not delay it), `k` the first `k` jobs
   * that do not fit, `Infinity` conservative (every job gets a reservation on arrival, kept and
   * compressed when a job ends earlier than its estimate). An integer >= 0 or `Infinity`.
   * @defaultValue `1`
   */
  readonly reservations?: number;
  /**
   * The queue order, recomputed at every scheduling event: `"fcfs"`, `"sjf"`,
   * `"largest-first"`, `"user-priority"`, `"deadline"`, a comparator `{ compare }` or a
   * priority function `{ priority }` (flexible backfilling). Ties always fall back to submit
   * time, then id.
   * @defaultValue `"fcfs"`
   */
  readonly order?: QueueOrder;
  /**
   * Finite `reservations` only. `false`: reservations are recomputed from scratch at every
   * event for the first jobs in the current order (BF-rm: the reservation moves to the new
   * first job). `true`: a job that got a reservation keeps it, ahead of every other job, until
   * it starts (BF-unrm). Conservative always keeps its reservations.
   * @defaultValue `false`
   */
  readonly keepReservations?: boolean;
  /**
   * The order in which machines are tried when a job starts.
   * @defaultValue `"index"` (lowest index first)
   */
  readonly machineOrder?: MachineOrder;
  /**
   * Run every job on one machine (the farm shape, as the convergent paper's baselines do): a
   * job takes all its cores on the first machine, in `machineOrder`, that has them and its
   * licenses free now and in the plan, and the plan is kept per machine, so a reservation is a
   * machine and a start time. A job that no single machine can host (cores, licenses) is
   * rejected on arrival. `false`: a job's cores may span machines.
   * @defaultValue `false`
   */
  readonly singleMachine?: boolean;
  /**
   * Machine-exclusive placement (implies `singleMachine`): a machine runs at most one job at a
   * time, whatever its free cores, as in the convergent paper's model ("each machine is
   * executing only a single job at a time"). A job still gets exactly its `cores`, on one idle
   * machine with at least that many cores (and its licenses); the plan counts one slot per
   * machine, free again at the estimated end of the job on it, so a reservation is a machine
   * and the time it becomes idle. `singleMachine: false` with `exclusive: true` is an error.
   * @defaultValue `false`
   */
  readonly exclusive?: boolean;
  /**
   * The scheduler's name in traces and reports.
   * @defaultValue derived: `"fcfs"` for 0 reservations in FCFS order, `"easy"`, `"conservative"`,
   * `"backfill-k"`, with `"/<order>"` appended for another order, `"+keep"` for kept reservations
   * and `"+single"` for `singleMachine` (`"+excl"` for `exclusive`)
   */
  readonly name?: string;
}

/** Options of `easy` and `conservative`: those of `backfill` minus the depth. */
export type PresetOptions = Omit<BackfillOptions, "reservations">;

/** Options of `flexible`. */
export interface FlexibleOptions {
  /**
   * The priority of a waiting job, recomputed at every scheduling event (higher first; ties by
   * submit time, then id). Required.
   */
  readonly priority: (job: WaitingJob, view: SchedulerView) => number;
  /**
   * `"rm"` (BF-rm): the reservation moves to whichever job is first at each event.
   * `"unrm"` (BF-unrm): the job that got the reservation keeps it until it starts.
   * @defaultValue `"rm"`
   */
  readonly variant?: "rm" | "unrm";
  /**
   * Reservations held at a time.
   * @defaultValue `1` (as in the convergent-scheduling paper)
   */
  readonly reservations?: number;
  /** @defaultValue `"index"` */
  readonly machineOrder?: MachineOrder;
  /** Every job on one machine; see `BackfillOptions.singleMachine`. @defaultValue `false` */
  readonly singleMachine?: boolean;
  /** One job per machine at a time; see `BackfillOptions.exclusive`. @defaultValue `false` */
  readonly exclusive?: boolean;
  /**
   * @defaultValue `"bf-rm"` or `"bf-unrm"`, with `"+single"` appended for `singleMachine`
   * (`"+excl"` for `exclusive`)
   */
  readonly name?: string;
}

/** Options of `fcfs`. */
export interface FcfsOptions {
  /**
   * The order in which machines are tried when a job starts.
   * @defaultValue `"index"` (lowest machine index first)
   */
  readonly machineOrder?: MachineOrder;
  /**
   * Run every job on one machine: the first machine, in `machineOrder`, that has all its cores
   * and licenses free; a job that no single machine can host is rejected on arrival.
   * @defaultValue `false`
   */
  readonly singleMachine?: boolean;
  /**
   * Machine-exclusive (implies `singleMachine`): a job starts only on a machine that runs no
   * job, with at least its cores; see `BackfillOptions.exclusive`.
   * @defaultValue `false`
   */
  readonly exclusive?: boolean;
}

/** Options of `edf`. */
export interface EdfOptions {
  /**
   * Preempt running jobs with a later deadline to start a newly submitted job with an earlier
   * one (the convergent paper's EDF).
   * @defaultValue `true`
   */
  readonly preemption?: boolean;
  /**
   * The order machines are tried in.
   * @defaultValue `"speed"` (fastest first, ties by lowest index: "the best available machine")
   */
  readonly machineOrder?: MachineOrder;
  /**
   * Machine-exclusive placement: a machine runs at most one job at a time (the convergent
   * paper's model). Every job runs on one idle machine with at least its cores (a job no single
   * machine can host is rejected on arrival), and a preempting job frees a whole machine: the
   * first machine, in `machineOrder`, that could host it, whose running jobs all have a
   * strictly later deadline, and where its licenses are free once they are preempted.
   * @defaultValue `false`
   */
  readonly exclusive?: boolean;
  /**
   * The queue's order by deadline: `"increasing"` (earliest deadline first: the policy's name,
   * and the convergent paper's section 2, "the priority of a job is inversely proportional to its
   * deadline") or `"decreasing"` (latest first: its section 6, "ordered in decreasing order w.r.t.
   * their deadline", read literally). Jobs without a deadline stay last either way (unless
   * `undatedFactor` gives them one); preemption always favours the earlier deadline.
   * @defaultValue `"increasing"`
   */
  readonly deadlineOrder?: "increasing" | "decreasing";
  /**
   * Where jobs without a deadline go: ordered (and preempted) as if their deadline were
   * `submit + undatedFactor × estimate` (0: as if due on arrival; 1.875: the convergent paper's
   * mean deadline); `Infinity`: after every job with a deadline, in submit order. They never
   * preempt.
   * @defaultValue `Infinity`
   */
  readonly undatedFactor?: number;
  /**
   * Which jobs may preempt (with `preemption`): `"arrivals"`, the jobs submitted at this event
   * (the convergent paper: "to execute first new submitted job with an earliest deadline"), or
   * `"waiting"`, every waiting job with a deadline at every event, earliest first (preemptive
   * EDF as its section 2 describes it).
   * @defaultValue `"arrivals"`
   */
  readonly preemptFor?: "arrivals" | "waiting";
  /** @defaultValue `"edf"`, or `"edf+excl"` with `exclusive` */
  readonly name?: string;
}

/** The keys of each options type, one list per type (a key added to the type and not here fails to compile). */
export const PRESET_KEYS = optionKeys<PresetOptions>({
  order: true,
  keepReservations: true,
  machineOrder: true,
  singleMachine: true,
  exclusive: true,
  name: true,
});
/** Internal. */
export const BACKFILL_KEYS = optionKeys<BackfillOptions>({
  reservations: true,
  ...PRESET_KEYS.record,
});
/** Internal. */
export const FLEXIBLE_KEYS = optionKeys<FlexibleOptions>({
  priority: true,
  variant: true,
  reservations: true,
  machineOrder: true,
  singleMachine: true,
  exclusive: true,
  name: true,
});
/** Internal. */
export const FCFS_KEYS = optionKeys<FcfsOptions>({
  machineOrder: true,
  singleMachine: true,
  exclusive: true,
});
/** Internal. */
export const EDF_KEYS = optionKeys<EdfOptions>({
  preemption: true,
  machineOrder: true,
  exclusive: true,
  deadlineOrder: true,
  undatedFactor: true,
  preemptFor: true,
  name: true,
});

/**
 * Refuses a `reservations` option given to a preset that fixes the depth (`easy`: 1,
 * `conservative`: Infinity), naming what to use instead (`remedy`). Internal.
 */
export function refusePresetDepth(
  where: string,
  preset: string,
  depth: "1" | "Infinity",
  options: unknown,
  remedy: string,
): void {
  if (typeof options !== "object" || options === null) return;
  const value = (options as { readonly reservations?: unknown }).reservations;
  if (value === undefined) return;
  throw new InvalidInputError(
    where,
    "options.reservations",
    `is ${describeValue(value)}, but ${preset} sets it (${depth}): ${remedy}`,
  );
}

/** The backfilling options, checked and with defaults filled in. Internal. */
export interface ResolvedBackfill {
  readonly reservations: number;
  /** The order is FCFS: the queue as the engine (or the caller) gives it. */
  readonly fcfsOrder: boolean;
  /** Orders the waiting queue (or the part of it that holds reservations), event after event. */
  readonly sorter: QueueSorter;
  /**
   * Orders a batch of arrivals (conservative): a sorter of the same order, apart from `sorter`
   * so that the batches do not replace the queue that `sorter` keeps between events.
   */
  readonly arrivalSorter: QueueSorter;
  /** The comparator of a named order other than FCFS (key, then queue order), else null. */
  readonly compare: ((a: Keyed, b: Keyed) => number) | null;
  readonly keepReservations: boolean;
  readonly machineOrder: MachineOrder;
  /** Every job on one machine (`exclusive` implies it). */
  readonly singleMachine: boolean;
  readonly exclusive: boolean;
  readonly name: string;
}

/** The EDF options, checked and with defaults filled in. Internal. */
export interface ResolvedEdf {
  readonly preemption: boolean;
  readonly machineOrder: MachineOrder;
  readonly exclusive: boolean;
  readonly deadlineOrder: "increasing" | "decreasing";
  readonly undatedFactor: number;
  readonly preemptFor: "arrivals" | "waiting";
  readonly name: string;
}

/** Checks a `machineOrder` option. @throws InvalidInputError naming `options.machineOrder`. */
function resolveMachineOrder(where: string, value: unknown, fallback: MachineOrder): MachineOrder {
  return requireOneOf(where, "options.machineOrder", value ?? fallback, MACHINE_ORDERS);
}

/** Checks an optional `name` option. @throws InvalidInputError naming `options.name`. */
function resolveName(where: string, value: unknown, fallback: string): string {
  const name = value ?? fallback;
  if (typeof name !== "string" || name.length === 0) {
    throw new InvalidInputError(where, "options.name", "is empty, expected a non-empty string");
  }
  return name;
}

/**
 * Reads and checks `singleMachine` and `exclusive` (which implies `singleMachine`; an explicit
 * `singleMachine: false` beside `exclusive: true` is an error). Internal.
 * @throws InvalidInputError naming the option.
 */
export function resolvePlacement(
  where: string,
  options: { readonly singleMachine?: boolean; readonly exclusive?: boolean } | undefined,
): { singleMachine: boolean; exclusive: boolean } {
  // absent stays absent here (`null` is refused): only an explicit false conflicts with exclusive
  const single = options?.singleMachine;
  if (single !== undefined) requireBoolean(where, "options.singleMachine", single);
  const exclusive = requireBoolean(
    where,
    "options.exclusive",
    options?.exclusive ?? BACKFILL_DEFAULTS.exclusive,
  );
  if (exclusive && single === false) {
    throw new InvalidInputError(
      where,
      "options.singleMachine",
      "is false, but exclusive: true runs every job on one machine; omit singleMachine or pass true",
    );
  }
  return { singleMachine: exclusive || single === true, exclusive };
}

/**
 * The options of `backfill`, checked, with defaults and the derived name. Internal.
 * @throws InvalidInputError naming the first invalid option.
 */
export function resolveBackfill(
  options: BackfillOptions | undefined,
  where = "@sched/backfill/backfill",
): ResolvedBackfill {
  requireKnownKeys(where, "options", options, BACKFILL_KEYS);
  const reservations = options?.reservations ?? BACKFILL_DEFAULTS.reservations;
  if (
    typeof reservations !== "number" ||
    !(
      reservations === Number.POSITIVE_INFINITY ||
      (Number.isInteger(reservations) && reservations >= 0)
    )
  ) {
    throw new InvalidInputError(
      where,
      "options.reservations",
      `is ${describeValue(reservations)}, expected an integer >= 0 or Infinity`,
    );
  }
  const order = options?.order ?? BACKFILL_DEFAULTS.order;
  const sorter = queueSorter(order, where, "options.order");
  const arrivalSorter = queueSorter(order, where, "options.order");
  const keepReservations = requireBoolean(
    where,
    "options.keepReservations",
    options?.keepReservations ?? BACKFILL_DEFAULTS.keepReservations,
  );
  const machineOrder = resolveMachineOrder(
    where,
    options?.machineOrder,
    BACKFILL_DEFAULTS.machineOrder,
  );
  const { singleMachine, exclusive } = resolvePlacement(where, options);
  let fallback: string;
  {
    const base =
      reservations === 0
        ? "fcfs"
        : reservations === 1
          ? "easy"
          : reservations === Number.POSITIVE_INFINITY
            ? "conservative"
            : `backfill-${reservations}`;
    const orderName = typeof order === "string" ? order : "custom";
    fallback = base + (orderName === "fcfs" ? "" : `/${orderName}`);
    if (keepReservations && reservations > 0 && reservations !== Number.POSITIVE_INFINITY)
      fallback += "+keep";
    if (exclusive) fallback += "+excl";
    else if (singleMachine) fallback += "+single";
  }
  return {
    reservations,
    fcfsOrder: order === "fcfs",
    sorter,
    arrivalSorter,
    compare: namedComparator(order),
    keepReservations,
    machineOrder,
    singleMachine,
    exclusive,
    name: resolveName(where, options?.name, fallback),
  };
}

/**
 * The options of `flexible` as `backfill` options (`order: { priority }`, `keepReservations`
 * for BF-unrm). Internal.
 * @throws InvalidInputError when `priority` is not a function or `variant` is unknown.
 */
export function flexibleAsBackfill(
  options: FlexibleOptions,
  where = "@sched/backfill/flexible",
): BackfillOptions {
  requireKnownKeys(where, "options", options, FLEXIBLE_KEYS);
  const priority: unknown =
    typeof options === "object" && options !== null ? options.priority : undefined;
  if (typeof priority !== "function") {
    throw new InvalidInputError(
      where,
      "options.priority",
      `${priority === undefined ? "is missing" : `is ${describeValue(priority)}`}, expected a function (job, view) => number`,
    );
  }
  const variant = options.variant ?? "rm";
  requireOneOf(where, "options.variant", variant, ["rm", "unrm"]);
  const { singleMachine, exclusive } = resolvePlacement(where, options);
  return {
    reservations: options.reservations ?? BACKFILL_DEFAULTS.reservations,
    order: { priority: options.priority },
    keepReservations: variant === "unrm",
    machineOrder: options.machineOrder ?? BACKFILL_DEFAULTS.machineOrder,
    singleMachine,
    exclusive,
    name: options.name ?? `bf-${variant}${exclusive ? "+excl" : singleMachine ? "+single" : ""}`,
  };
}

/**
 * The options of `fcfs` as resolved `backfill` options with no reservation (strict FCFS order).
 * Internal.
 * @throws InvalidInputError naming the first invalid option.
 */
export function resolveFcfs(
  options: FcfsOptions | undefined,
  where = "@sched/backfill/fcfs",
): ResolvedBackfill {
  requireKnownKeys(where, "options", options, FCFS_KEYS);
  const machineOrder = resolveMachineOrder(
    where,
    options?.machineOrder,
    BACKFILL_DEFAULTS.machineOrder,
  );
  const { singleMachine, exclusive } = resolvePlacement(where, options);
  return {
    reservations: 0,
    fcfsOrder: true,
    sorter: queueSorter("fcfs", where, "options.order"),
    arrivalSorter: queueSorter("fcfs", where, "options.order"),
    compare: null,
    keepReservations: false,
    machineOrder,
    singleMachine,
    exclusive,
    name: exclusive ? "fcfs+excl" : singleMachine ? "fcfs+single" : "fcfs",
  };
}

/**
 * The options of `edf`, checked and with defaults. Internal.
 * @throws InvalidInputError naming the first invalid option.
 */
export function resolveEdf(
  options: EdfOptions | undefined,
  where = "@sched/backfill/edf",
): ResolvedEdf {
  requireKnownKeys(where, "options", options, EDF_KEYS);
  const preemption = requireBoolean(
    where,
    "options.preemption",
    options?.preemption ?? EDF_DEFAULTS.preemption,
  );
  const machineOrder = resolveMachineOrder(where, options?.machineOrder, EDF_DEFAULTS.machineOrder);
  const exclusive = requireBoolean(
    where,
    "options.exclusive",
    options?.exclusive ?? EDF_DEFAULTS.exclusive,
  );
  const name = resolveName(where, options?.name, exclusive ? "edf+excl" : "edf");
  const deadlineOrder = options?.deadlineOrder ?? EDF_DEFAULTS.deadlineOrder;
  requireOneOf(where, "options.deadlineOrder", deadlineOrder, ["increasing", "decreasing"]);
  const undatedFactor = options?.undatedFactor ?? EDF_DEFAULTS.undatedFactor;
  if (typeof undatedFactor !== "number" || !(undatedFactor >= 0)) {
    throw new InvalidInputError(
      where,
      "options.undatedFactor",
      `is ${describeValue(undatedFactor)}, expected a number >= 0 or Infinity`,
    );
  }
  const preemptFor = options?.preemptFor ?? EDF_DEFAULTS.preemptFor;
  requireOneOf(where, "options.preemptFor", preemptFor, ["arrivals", "waiting"]);
  return { preemption, machineOrder, exclusive, deadlineOrder, undatedFactor, preemptFor, name };
}
