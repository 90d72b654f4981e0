import { InvalidInputError, identicalPool, type Job } from "@sched/core";
import { optionKeys, requireKnownKeys } from "@sched/errors";
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
  /** The allowed run times; a model run time is rounded up to the next one (capped at the last). @defaultValue {@link AR_RUNTIME_CLASSES} */
  readonly runtimeClasses?: readonly number[];
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
 * uHi 10, uProb .82, UMed `uMed`), each run time rounded up to the next of
 * {@link AR_RUNTIME_CLASSES}, then for each job a ready time
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
      throw new InvalidInputError(WHERE, `options.${k}`, `is ${v}, expected a finite number >= 0`);
    }
  }
  const arrivalFactor = checkPositive(WHERE, "options.arrivalFactor", options.arrivalFactor ?? 1);
  const classes = options.runtimeClasses ?? AR_RUNTIME_CLASSES;
  if (!Array.isArray(classes) || classes.length === 0) {
    throw new InvalidInputError(
      WHERE,
      "options.runtimeClasses",
      "is empty, expected increasing run times > 0",
    );
  }
  classes.forEach((c, i) => {
    if (!(c > 0) || !Number.isFinite(c) || (i > 0 && !(c > classes[i - 1]!))) {
      throw new InvalidInputError(
        WHERE,
        `options.runtimeClasses[${i}]`,
        `is ${c}, expected finite run times > 0 in increasing order`,
      );
    }
  });
  const typeless: Partial<LublinParameters> = {
    ...AR_LANL_CM5,
    uMed: options.uMed ?? 7,
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
    let duration = classes[classes.length - 1]!;
    for (const c of classes) {
      if (c >= r.runTime) {
        duration = c;
        break;
      }
    }
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
