import { InvalidInputError } from "@sched/core";
import { describeValue, optionKeys, requireKnownKeys, requireOneOf } from "@sched/errors";
import { antiAgingHeuristic } from "./anti-aging.js";
import { deadlineHeuristic } from "./deadline.js";
import type { Heuristic } from "./heuristic.js";
import { inputHeuristic } from "./input.js";
import { licensesHeuristic } from "./licenses.js";
import { checkHeuristic } from "./matrix-checks.js";
import { minimalRequirementsHeuristic } from "./minimal-requirements.js";
import { OVERHEAD_PREEMPTIVE, overheadHeuristic } from "./overhead.js";
import { waitMinimizationHeuristic } from "./wait-minimization.js";

/** The constants of the seven heuristics (the paper's footnote 1). */
export interface HeuristicConstants {
  /** Minimal requirements: value of every eligible entry before the other heuristics. @defaultValue `1` */
  readonly base?: number;
  /** Deadline `Max`. @defaultValue `10` */
  readonly deadlineMax?: number;
  /** Deadline `Min`. @defaultValue `0.1` */
  readonly deadlineMin?: number;
  /** Deadline `k`. @defaultValue `1.3` */
  readonly deadlineK?: number;
  /** Licenses `LI`. @defaultValue `2.5` */
  readonly licenses?: number;
  /** Input `IN`. @defaultValue `3` */
  readonly input?: number;
  /** Wait minimization `WM`. @defaultValue `4` */
  readonly waitMinimization?: number;
  /** Overhead minimization `Δ`. @defaultValue `8` (the convergent scheduler uses 800 without preemption) */
  readonly overhead?: number;
  /** Anti-aging `AA`. @defaultValue `0.02` */
  readonly antiAging?: number;
}

/** The keys of {@link HeuristicConstants}, all of them (checked by the compiler). Internal. */
export const CONSTANT_KEYS = optionKeys<HeuristicConstants>({
  base: true,
  deadlineMax: true,
  deadlineMin: true,
  deadlineK: true,
  licenses: true,
  input: true,
  waitMinimization: true,
  overhead: true,
  antiAging: true,
});

/** The paper's constants, with the preemptive overhead value. */
export const PAPER_CONSTANTS: Readonly<Required<HeuristicConstants>> = Object.freeze({
  base: 1,
  deadlineMax: 10,
  deadlineMin: 0.1,
  deadlineK: 1.3,
  licenses: 2.5,
  input: 3,
  waitMinimization: 4,
  overhead: OVERHEAD_PREEMPTIVE,
  antiAging: 0.02,
});

/**
 * The readings of the heuristics that the paper's text leaves open (README, Interpretation 1, 2
 * and 9); the constants do not fix them.
 */
export interface HeuristicReadings {
  /**
   * `f1` when `Extime > Deadline`: `"max"` (what the prose describes) or `"min"` (the formula as
   * printed); see `DeadlineOptions.late`.
   * @defaultValue `"max"`
   */
  readonly deadlineLate?: "max" | "min";
  /**
   * The Deadline update of a job late on every eligible machine (`d_i = 0`): `"max"` (`Max` on
   * each, the limit of equation (1)) or `"zero"`; see `DeadlineOptions.allLate`.
   * @defaultValue `"max"`
   */
  readonly deadlineAllLate?: "max" | "zero";
  /**
   * Wait minimization's `SupRemaining`, "the maximum value of `Remaining_i`": `"global"` (the
   * largest `Remaining_{i,m}` of the matrix, so shorter jobs get more, as the prose asks) or
   * `"row"` (the largest of job `i`'s own row, as the subscript reads: only faster machines get
   * more); see `WaitMinimizationOptions.sup`.
   * @defaultValue `"global"`
   */
  readonly waitSup?: "global" | "row";
}

/** The keys of {@link HeuristicReadings}, all of them (checked by the compiler). Internal. */
export const READING_KEYS = optionKeys<HeuristicReadings>({
  deadlineLate: true,
  deadlineAllLate: true,
  waitSup: true,
});

/** The default readings (README, Interpretation 1, 2 and 9). */
export const PAPER_READINGS: Readonly<Required<HeuristicReadings>> = Object.freeze({
  deadlineLate: "max",
  deadlineAllLate: "max",
  waitSup: "global",
});

/** Fills the default readings and validates them; errors name `field` (an option's path). */
export function resolveReadings(
  where: string,
  readings: HeuristicReadings = {},
  field = "readings",
): Required<HeuristicReadings> {
  requireKnownKeys(where, field, readings, READING_KEYS);
  const r = { ...PAPER_READINGS, ...readings };
  requireOneOf(where, `${field}.deadlineLate`, r.deadlineLate, ["max", "min"]);
  requireOneOf(where, `${field}.deadlineAllLate`, r.deadlineAllLate, ["max", "zero"]);
  requireOneOf(where, `${field}.waitSup`, r.waitSup, ["global", "row"]);
  return r;
}

/**
 * Fills the defaults and validates (every constant a finite number; `base` > 0); errors name
 * `field` (an option's path).
 */
export function resolveConstants(
  where: string,
  constants: HeuristicConstants = {},
  field = "constants",
): Required<HeuristicConstants> {
  requireKnownKeys(where, field, constants, CONSTANT_KEYS);
  const c = { ...PAPER_CONSTANTS };
  for (const key of Object.keys(PAPER_CONSTANTS) as (keyof HeuristicConstants)[]) {
    const v = constants[key];
    if (v === undefined) continue;
    if (typeof v !== "number" || !Number.isFinite(v)) {
      throw new InvalidInputError(
        where,
        `${field}.${key}`,
        `is ${describeValue(v)}, expected a finite number`,
      );
    }
    c[key] = v;
  }
  if (!(c.base > 0))
    throw new InvalidInputError(where, `${field}.base`, `is ${c.base}, expected a number > 0`);
  return c;
}

/**
 * The seven heuristics of the paper, in the paper's order (minimal requirements, deadline,
 * licenses, input, wait minimization, overhead minimization, anti-aging), with the given
 * constants (the paper's by default) and readings (Deadline, Wait minimization).
 *
 * @throws InvalidInputError when a constant is not a finite number or `base <= 0`, or a reading
 *   is unknown.
 * @example
 * ```ts
 * paperHeuristics({ licenses: 5 }).map((h) => h.name);
 * // ["minimal-requirements", "deadline", "licenses", "input", "wait-minimization", "overhead-minimization", "anti-aging"]
 * ```
 */
export function paperHeuristics(
  constants: HeuristicConstants = {},
  readings: HeuristicReadings = {},
): Heuristic[] {
  const c = resolveConstants("@sched/convergent/paperHeuristics", constants);
  const r = resolveReadings("@sched/convergent/paperHeuristics", readings);
  return [
    minimalRequirementsHeuristic({ base: c.base }),
    deadlineHeuristic({
      max: c.deadlineMax,
      min: c.deadlineMin,
      k: c.deadlineK,
      late: r.deadlineLate,
      allLate: r.deadlineAllLate,
    }),
    licensesHeuristic({ weight: c.licenses }),
    inputHeuristic({ weight: c.input }),
    waitMinimizationHeuristic({ weight: c.waitMinimization, sup: r.waitSup }),
    overheadHeuristic({ weight: c.overhead }),
    antiAgingHeuristic({ weight: c.antiAging }),
  ];
}

/**
 * Wraps a heuristic so that its update values are multiplied by `factor` (reweighting a
 * heuristic that has no weight constant, e.g. the deadline heuristic or a user's own).
 *
 * Complexity: that of `h`, plus O(|N| x |M|).
 *
 * @throws InvalidInputError when `factor` is not finite.
 * @example
 * ```ts
 * const strongerDeadline = scaled(deadlineHeuristic(), 2);
 * ```
 */
export function scaled(h: Heuristic, factor: number): Heuristic {
  checkHeuristic("@sched/convergent/scaled", "h", h);
  if (typeof factor !== "number" || !Number.isFinite(factor)) {
    throw new InvalidInputError(
      "@sched/convergent/scaled",
      "factor",
      `is ${describeValue(factor)}, expected a finite number`,
    );
  }
  const out: Heuristic = {
    name: `${h.name}*${factor}`,
    apply(ctx, p) {
      const delta = new Float64Array(p.length);
      h.apply(ctx, delta);
      for (let k = 0; k < p.length; k++) p[k]! += factor * delta[k]!;
    },
    ...(h.uniformRate === undefined ? {} : { uniformRate: h.uniformRate * factor }),
  };
  const inner = h.rows;
  if (inner === undefined) return out;
  return {
    ...out,
    rows(ctx) {
      const kernel = inner.call(h, ctx);
      const tmp = new Float64Array(ctx.cols);
      return (i, dst, offset) => {
        tmp.fill(0);
        kernel(i, tmp, 0);
        for (let m = 0; m < tmp.length; m++) dst[offset + m]! += factor * tmp[m]!;
      };
    },
  };
}
