import { InvalidInputError, identicalPool, type Job } from "@sched/core";
import {
  describeValue,
  optionKeys,
  requireArray,
  requireKnownKeys,
  requireObject,
  requireOneOf,
} from "@sched/errors";
import { Random } from "@sched/random";
import { checkInteger, checkJobCount, checkPositive, type GeneratedWorkload } from "./generated.js";
import {
  LUBLIN_TYPELESS,
  type LublinParameters,
  lublinRecords,
  lublinShift,
  resolveLublinParameters,
} from "./lublin.js";

/** The run times the advance-reservation paper restricts jobs to, seconds. */
export const AR_RUNTIME_CLASSES: readonly number[] = Object.freeze([
  60, 300, 900, 1800, 3600, 10800,
]);

/**
 * The readings of the paper's arrival process, "the combined model of arrival process in the
 * Feitelson-Lublin model and its parameters for LANL-CM5" (section 6.1, item 1). Lublin and
 * Feitelson's per-log arrival parameters are not at hand, so neither reading is LANL-CM5's
 * fitted process:
 * - `"lanl-cm5-rate"` (the default): the model's typeless arrival process (same gap
 *   distribution shape, same daily cycle) with its arrival-rate ratio `arar` set to
 *   {@link AR_LANL_CM5_ARAR}, which makes the long-run mean gap the cleaned LANL-CM5 log's,
 *   about 510 s: the one LANL-CM5 arrival figure we have;
 * - `"generic"`: the model's published typeless arrival parameters ({@link LUBLIN_TYPELESS}:
 *   aarr, barr, anum, bnum, arar), a long-run mean gap of about 923 s (the default before
 *   this option existed; the paper says LANL-CM5's parameters, not these).
 */
export type ArArrivalReading = "lanl-cm5-rate" | "generic";

/** Every {@link ArArrivalReading}, the default first. */
export const AR_ARRIVAL_READINGS: readonly ArArrivalReading[] = Object.freeze([
  "lanl-cm5-rate",
  "generic",
]);

/**
 * The Lublin arrival-rate ratio (`arar`, every inter-arrival time is multiplied by it) that gives
 * the typeless arrival process a long-run mean gap of 510.4 s: the cleaned LANL-CM5 log's
 * 122,060 jobs (201,387 less the 79,327 its cleaning removed) over the 721 days between its
 * header's StartTime and EndTime, 62,294,400 s / 122,060 = 510.4 s. The published typeless
 * `arar` 1.0225 gives 923 s (mean over 12 seeds of 10^6 arrivals), and the mean gap is not
 * exactly proportional to `arar` (the daily cycle's rate is read at each arrival), so the value
 * was found by measurement: 0.5724 gives 510.0 s (12 seeds of 10^6 arrivals, standard deviation
 * 4.6 s between seeds). See the advance-reservation README, Interpretation 15.
 */
export const AR_LANL_CM5_ARAR = 0.5724;

/**
 * The readings of how the model's run times become the paper's six run times ("we made minor
 * modifications for this model to only generate runtime values of 60, 300, 900, 1800, 3600 and
 * 10800", section 6.1, item 3), each a rule on one run time:
 * - `"up"`: the smallest class at least the run time, the largest class above it (a request
 *   never shorter than the model's job);
 * - `"nearest-log"`: the class nearest in log scale (boundaries at the geometric means of
 *   neighbouring classes: 134, 520, 1273, 2546, 6235 s for the paper's classes);
 * - `"nearest"`: the class nearest in seconds (boundaries at the midpoints: 180, 600, 1350,
 *   2700, 7200 s).
 * A run time on a boundary takes the larger class.
 */
export type ArRuntimeMapping = "up" | "nearest-log" | "nearest";

/** Every {@link ArRuntimeMapping}, the default first. */
export const AR_RUNTIME_MAPPINGS: readonly ArRuntimeMapping[] = Object.freeze([
  "up",
  "nearest-log",
  "nearest",
]);

/**
 * @internal Exported for the tests only (not from the package index).
 * The class of `runtime` under `mapping` (see {@link ArRuntimeMapping}); `classes` increasing.
 */
export function arRuntimeClass(
  runtime: number,
  mapping: ArRuntimeMapping,
  classes: readonly number[] = AR_RUNTIME_CLASSES,
): number {
  const last = classes.length - 1;
  for (let i = 0; i < last; i++) {
    const lo = classes[i]!;
    const hi = classes[i + 1]!;
    const boundary =
      mapping === "up" ? lo : mapping === "nearest" ? (lo + hi) / 2 : Math.sqrt(lo * hi);
    // "up": runtime <= lo takes lo; the nearest readings: below the boundary takes lo
    if (mapping === "up" ? runtime <= boundary : runtime < boundary) return lo;
  }
  return classes[last]!;
}

/**
 * Options of {@link advanceReservationWorkload}: the advance-reservation paper's workload, a
 * Lublin-Feitelson workload with the LANL-CM5 settings plus ready times and deadlines.
 */
export interface AdvanceReservationWorkloadOptions {
  /** Number of jobs. @defaultValue `10000` */
  readonly jobs?: number;
  /** Processors (the LANL CM-5 had 1024). @defaultValue `1024` */
  readonly procs?: number;
  /** The Lublin model's UMed (the paper varies it from 5 to 9). @defaultValue `7` */
  readonly uMed?: number;
  /** Ready time = arrival + artimeFactor * U[0,1] * duration. @defaultValue `3` */
  readonly artimeFactor?: number;
  /** Deadline = ready + (1 + deadlineFactor * U[0,1]) * duration. @defaultValue `3` */
  readonly deadlineFactor?: number;
  /** Arrival times are divided by it (more load when larger). @defaultValue `1` */
  readonly arrivalFactor?: number;
  /** The allowed run times, increasing; a model run time becomes one of them as `runtimeMapping` says. @defaultValue {@link AR_RUNTIME_CLASSES} */
  readonly runtimeClasses?: readonly number[];
  /**
   * How a model run time becomes one of `runtimeClasses` (see {@link ArRuntimeMapping}):
   * rounded up (capped at the largest), or to the nearest class in log scale or in seconds.
   * @defaultValue `"up"`
   */
  readonly runtimeMapping?: ArRuntimeMapping;
  /**
   * The arrival process (see {@link ArArrivalReading}): the Lublin model's typeless one at the
   * cleaned LANL-CM5 log's mean gap of 510 s (`arar` = {@link AR_LANL_CM5_ARAR}), or with the
   * model's generic parameters (mean gap 923 s). `lublin.arar`, if given, wins over both.
   * @defaultValue `"lanl-cm5-rate"`
   */
  readonly arrivals?: ArArrivalReading;
  /** Further overrides of the Lublin typeless parameters (after the LANL-CM5 settings). @defaultValue none */
  readonly lublin?: Partial<LublinParameters>;
  /** Seed. @defaultValue `0` */
  readonly seed?: number;
}

/** The keys of {@link AdvanceReservationWorkloadOptions}, all of them (checked by the compiler). */
const AR_KEYS = optionKeys<AdvanceReservationWorkloadOptions>({
  jobs: true,
  procs: true,
  uMed: true,
  artimeFactor: true,
  deadlineFactor: true,
  arrivalFactor: true,
  runtimeClasses: true,
  runtimeMapping: true,
  arrivals: true,
  lublin: true,
  seed: true,
});

const WHERE = "@sched/workload/advanceReservationWorkload";

/** The LANL-CM5 size settings: no serial jobs, powers of two from 32 to 1024. */
export const AR_LANL_CM5: Readonly<Partial<LublinParameters>> = Object.freeze({
  serialProb: 0,
  pow2Prob: 1,
  uLow: 4.5,
  uHi: 10,
  uProb: 0.82,
});

/**
 * Generates the advance-reservation paper's workload: the Lublin-Feitelson model (job types
 * off) with the LANL-CM5 settings (all jobs parallel, powers of two from 32 to 1024: uLow 4.5,
 * uHi 10, uProb .82, UMed `uMed`) and the arrival process `arrivals` reads, each run time
 * mapped to one of {@link AR_RUNTIME_CLASSES} as `runtimeMapping` says (default: rounded up),
 * then for each job a ready time
 * `submit + artimeFactor * U * duration` and a deadline
 * `ready + (1 + deadlineFactor * U') * duration` (U, U' uniform in [0, 1]), with duration the
 * job's run time. Jobs are rigid (`cores` processors of an identical pool) with exact estimates.
 *
 * Random streams: the Lublin model's, then `advance-reservation/windows`.
 *
 * Complexity: O(jobs).
 *
 * @throws InvalidInputError naming the option that is out of range (including the Lublin
 *   parameters' checks).
 *
 * @example
 * ```ts
 * const { platform, jobs } = advanceReservationWorkload({ uMed: 5, seed: 1 });
 * jobs[0].ready; jobs[0].deadline;
 * ```
 */
export function advanceReservationWorkload(
  options: AdvanceReservationWorkloadOptions = {},
): GeneratedWorkload {
  requireKnownKeys(WHERE, "options", options, AR_KEYS);
  const jobs = checkJobCount(WHERE, "options.jobs", options.jobs ?? 10_000);
  const procs = checkInteger(WHERE, "options.procs", options.procs ?? 1024, 1);
  const seed = checkInteger(WHERE, "options.seed", options.seed ?? 0, Number.MIN_SAFE_INTEGER);
  const artimeFactor = options.artimeFactor ?? 3;
  const deadlineFactor = options.deadlineFactor ?? 3;
  for (const [k, v] of [
    ["artimeFactor", artimeFactor],
    ["deadlineFactor", deadlineFactor],
  ] as const) {
    if (typeof v !== "number" || !Number.isFinite(v) || v < 0) {
      throw new InvalidInputError(
        WHERE,
        `options.${k}`,
        `is ${describeValue(v)}, expected a finite number >= 0`,
      );
    }
  }
  const arrivalFactor = checkPositive(WHERE, "options.arrivalFactor", options.arrivalFactor ?? 1);
  const classes: readonly number[] = options.runtimeClasses ?? AR_RUNTIME_CLASSES;
  requireArray(WHERE, "options.runtimeClasses", classes);
  if (classes.length === 0) {
    throw new InvalidInputError(
      WHERE,
      "options.runtimeClasses",
      "is empty, expected increasing run times > 0",
    );
  }
  // An index loop, not forEach: a hole of a sparse array is refused, not skipped.
  for (let i = 0; i < classes.length; i++) {
    const c: unknown = classes[i];
    if (
      typeof c !== "number" ||
      !(c > 0) ||
      !Number.isFinite(c) ||
      (i > 0 && !(c > classes[i - 1]!))
    ) {
      throw new InvalidInputError(
        WHERE,
        `options.runtimeClasses[${i}]`,
        `is ${c === undefined && !(i in classes) ? "a hole" : describeValue(c)}, expected finite run times > 0 in increasing order`,
      );
    }
  }
  if (options.lublin !== undefined) requireObject(WHERE, "options.lublin", options.lublin);
  const runtimeMapping = checkChoice("runtimeMapping", options.runtimeMapping, AR_RUNTIME_MAPPINGS);
  const arrivals = checkChoice("arrivals", options.arrivals, AR_ARRIVAL_READINGS);
  const typeless: Partial<LublinParameters> = {
    ...AR_LANL_CM5,
    uMed: options.uMed ?? 7,
    ...(arrivals === "lanl-cm5-rate" ? { arar: AR_LANL_CM5_ARAR } : {}),
    ...options.lublin,
  };
  // Checked here first, so that an error names this function's options (`options.uMed`,
  // `options.lublin.<key>`), not the Lublin generator's `options.typeless`.
  const lublin = options.lublin ?? {};
  resolveLublinParameters(LUBLIN_TYPELESS, typeless, lublinShift(procs), WHERE, (k) =>
    k === "uMed" && lublin.uMed === undefined
      ? "options.uMed"
      : Object.hasOwn(lublin, k)
        ? `options.lublin.${k}`
        : `options.lublin.${k} (this workload's LANL-CM5 value)`,
  );
  const rng = new Random(seed, "advance-reservation/windows");
  const out: Job[] = [];
  for (const r of lublinRecords({ jobs, procs, seed, jobTypes: false, typeless, arrivalFactor })) {
    const duration = arRuntimeClass(r.runTime, runtimeMapping, classes);
    const ready = r.submitTime + artimeFactor * rng.next() * duration;
    const deadline = ready + (1 + deadlineFactor * rng.next()) * duration;
    out.push(
      Object.freeze({
        id: r.jobNumber - 1,
        submit: r.submitTime,
        runtime: duration,
        estimate: duration,
        cores: r.allocatedProcs,
        ready,
        deadline,
      }),
    );
  }
  return { platform: identicalPool(procs), jobs: out };
}

/** `value` if it is one of `choices`, the first choice if undefined; otherwise an error naming `options.<key>`. */
function checkChoice<T extends string>(key: string, value: unknown, choices: readonly T[]): T {
  if (value === undefined) return choices[0]!;
  return requireOneOf(WHERE, `options.${key}`, value, choices);
}
