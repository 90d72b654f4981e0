import { InvalidInputError } from "@sched/core";
import {
  describeValue,
  optionKeys,
  requireFinite,
  requireKnownKeys,
  requireNonNegative,
  requireObject,
  requireOneOf,
} from "@sched/errors";
import {
  applyRows,
  type Heuristic,
  type HeuristicContext,
  type RowHeuristic,
  type RowKernel,
  sharedMachineSpeeds,
  sharedRemainingWork,
} from "./heuristic.js";
import { weightOption } from "./option-checks.js";

/** The Deadline heuristic's constants (the paper's footnote: MAX 10.0, MIN 0.1, k 1.3). */
export interface DeadlineOptions {
  /**
   * `Max`: the value of `f1` at the deadline.
   * @defaultValue `10`
   */
  readonly max?: number;
  /**
   * `Min`: the value of `f1` before `t_{i,m}` and after the deadline.
   * @defaultValue `0.1`
   */
  readonly min?: number;
  /**
   * `k`: how much `Nxtime` is overestimated when computing `t_{i,m} = Deadline - k * Nxtime`.
   * @defaultValue `1.3`
   */
  readonly k?: number;
  /**
   * Value of `f1` when `Extime > Deadline` (the job would be late on that machine). `"max"`:
   * `Max`, so that `f̄1 = 0` there and equation (1) gives that machine nothing while the urgency
   * term grows (what the paper's prose describes); `"min"`: `Min`, the formula as printed in
   * the extracted text (it then gives the most to the machines where the job is late).
   * @defaultValue `"max"`
   */
  readonly late?: "max" | "min";
  /**
   * The update of a job with `d_i = 0` (`f1 = Max` on every eligible machine: late, or due right
   * now, everywhere), where equation (1) is `0 / 0`. `"max"`: the urgency shared equally, i.e.
   * `Max` on each machine (the limit of equation (1) as `f1` rises to `Max` everywhere);
   * `"zero"`: nothing (such a job has no machine where it can still meet its deadline).
   * @defaultValue `"max"`
   */
  readonly allLate?: "max" | "zero";
}

/** The keys of {@link DeadlineOptions}, all of them (checked by the compiler). Internal. */
export const DEADLINE_KEYS = optionKeys<DeadlineOptions>({
  max: true,
  min: true,
  k: true,
  late: true,
  allLate: true,
});

/** The paper's Deadline constants. */
export const DEADLINE_DEFAULTS: Readonly<Required<DeadlineOptions>> = Object.freeze({
  max: 10,
  min: 0.1,
  k: 1.3,
  late: "max",
  allLate: "max",
});

/** Arguments of {@link f1}, in the paper's notation. */
export interface F1Options {
  /** `Extime`, the job's expected completion time on the machine. */
  readonly extime: number;
  /** `t`, where the line starts (`Deadline - k * Nxtime`). */
  readonly t: number;
  /** `Deadline`, the job's deadline. */
  readonly deadline: number;
  /** `Min`, the value up to `t`. */
  readonly min: number;
  /** `Max`, the value at the deadline. */
  readonly max: number;
  /**
   * The value after the deadline (see {@link DeadlineOptions.late}).
   * @defaultValue `max`
   */
  readonly late?: number;
}

/**
 * The paper's `f1`: `Min` when `Extime <= t`, the straight line through `(t, Min)` and
 * `(Deadline, Max)` when `t < Extime <= Deadline` (`Γ = a (Extime - t) + Min`,
 * `a = (Max - Min) / (Deadline - t)`), and `late` when `Extime > Deadline` (`Max` by default, see
 * {@link DeadlineOptions.late}).
 *
 * Complexity: O(1).
 *
 * @example
 * ```ts
 * f1({ extime: 5, t: 0, deadline: 10, min: 0.1, max: 10 }); // 0.1 + (10 - 0.1) * 5 / 10 = 5.05
 * f1({ extime: 11, t: 0, deadline: 10, min: 0.1, max: 10 }); // 10 (late)
 * f1({ extime: 11, t: 0, deadline: 10, min: 0.1, max: 10, late: 0.1 }); // 0.1 (late, the formula as printed)
 * ```
 */
export function f1(options: F1Options): number {
  const where = "@sched/convergent/f1";
  requireKnownKeys(where, "options", options, F1_KEYS);
  requireObject(where, "options", options);
  for (const key of ["extime", "t", "deadline", "min", "max"] as const) {
    requireFinite(where, `options.${key}`, options[key]);
  }
  if (options.late !== undefined) requireFinite(where, "options.late", options.late);
  return f1Unchecked(options);
}

const F1_KEYS = optionKeys<F1Options>({
  extime: true,
  t: true,
  deadline: true,
  min: true,
  max: true,
  late: true,
});

/** {@link f1} without validation, for the heuristic's inner loop (its inputs are checked). */
function f1Unchecked(options: F1Options): number {
  const { extime, t, deadline, min, max } = options;
  const late = options.late ?? max;
  if (extime > deadline) return late;
  if (extime <= t) return min;
  const a = (max - min) / (deadline - t);
  const v = a * (extime - t) + min;
  return onLine(v, min, max);
}

/**
 * `v`, a point of f1's line computed as `a * (Extime - t) + Min`, kept between the line's two
 * ends `min` and `max` (in either order). Rounding can step past the end by an ulp
 * (10.000000000000002 for Max 10 at Extime = Deadline), which made Max - f1, and so the
 * machine's Δp, negative. Shared with the fused row computation (paper-incremental.ts).
 */
export function onLine(v: number, min: number, max: number): number {
  return min <= max ? Math.min(Math.max(v, min), max) : Math.min(Math.max(v, max), min);
}

/**
 * The Deadline heuristic's update values for one job over its eligible machines: equation (1),
 * `Δp_{i,m} = (Σ_k f1(Extime_{i,k})) * f̄1(Extime_{i,m}) / d_i` with `f̄1 = Max - f1` and
 * `d_i = Σ_m f̄1(Extime_{i,m})`, where `Nxtime_{i,m}` is given per machine,
 * `Extime_{i,m} = now + Nxtime_{i,m}` and `t_{i,m} = deadline - k * Nxtime_{i,m}`.
 * When `d_i = 0` (f1 = Max on every machine: late, or due right now, everywhere) the urgency
 * is shared equally, so such a job gets `Max` on every machine (nothing with `allLate: "zero"`).
 *
 * Complexity: O(machines).
 *
 * @param nxtime `Nxtime_{i,m}` of each eligible machine
 * @returns `Δp_{i,m}` for each eligible machine (same order); empty for no machine
 * @example
 * ```ts
 * deadlineDeltas(0, 100, [20, 120]); // f1 = [0.1, 10]: urgency 10.1, all of it on machine 0: [10.1, 0]
 * ```
 */
export function deadlineDeltas(
  now: number,
  deadline: number,
  nxtime: ArrayLike<number>,
  options: DeadlineOptions = {},
): Float64Array {
  const where = "@sched/convergent/deadlineDeltas";
  requireKnownKeys(where, "options", options, DEADLINE_KEYS);
  const { max, min, k, late, allLate } = resolveDeadlineOptions(where, options);
  requireFinite(where, "now", now);
  if (typeof deadline !== "number" || Number.isNaN(deadline)) {
    throw new InvalidInputError(
      where,
      "deadline",
      `is ${describeValue(deadline)}, expected a time`,
    );
  }
  if (!Array.isArray(nxtime) && !(nxtime instanceof Float64Array)) {
    throw new InvalidInputError(
      where,
      "nxtime",
      `is ${describeValue(nxtime)}, expected an array of times`,
    );
  }
  for (let j = 0; j < nxtime.length; j++) requireNonNegative(where, `nxtime[${j}]`, nxtime[j]);
  const lateValue = late === "min" ? min : max;
  const none = allLate === "zero";
  const n = nxtime.length;
  const f = new Float64Array(n);
  let urgency = 0;
  let d = 0;
  for (let j = 0; j < n; j++) {
    const nx = nxtime[j] as number;
    f[j] = f1Unchecked({
      extime: now + nx,
      t: deadline - k * nx,
      deadline,
      min,
      max,
      late: lateValue,
    });
    urgency += f[j] as number;
    d += max - (f[j] as number);
  }
  const out = new Float64Array(n);
  for (let j = 0; j < n; j++)
    out[j] = d > 0 ? (urgency * (max - (f[j] as number))) / d : none ? 0 : urgency / n;
  return out;
}

/**
 * The Deadline heuristic: boosts jobs close to their deadline, more on the machines where they
 * are most likely to meet it (equation (1), see {@link deadlineDeltas}). Jobs without a deadline
 * get nothing.
 *
 * Complexity: O(|N| x |M|).
 *
 * @example
 * ```ts
 * const h = deadlineHeuristic({ k: 2 });
 * h.apply(ctx, p);
 * ```
 */
export function deadlineHeuristic(options: DeadlineOptions = {}): Heuristic {
  requireKnownKeys("@sched/convergent/deadlineHeuristic", "options", options, DEADLINE_KEYS);
  const o = resolveDeadlineOptions("@sched/convergent/deadlineHeuristic", options);
  const lateValue = o.late === "min" ? o.min : o.max;
  const h: RowHeuristic = {
    name: "deadline",
    apply(ctx: HeuristicContext, p: Float64Array): void {
      applyRows(ctx, p, h.rows(ctx));
    },
    rows(ctx: HeuristicContext): RowKernel {
      const { cols, eligible, now } = ctx;
      const work = sharedRemainingWork(ctx);
      const speed = sharedMachineSpeeds(ctx.platform);
      const nx = new Float64Array(cols);
      const machines = new Int32Array(cols);
      const { k, min, max } = o;
      const none = o.allLate === "zero";
      return (i, out, offset) => {
        const deadline = ctx.jobs[i]!.job.deadline;
        if (deadline === undefined) return;
        const b = i * cols;
        const w = work[i]!;
        let n = 0;
        for (let m = 0; m < cols; m++) {
          if (eligible[b + m] !== 1) continue;
          machines[n] = m;
          nx[n] = w / speed[m]!;
          n++;
        }
        if (n === 0) return;
        // Equation (1), inlined from deadlineDeltas (same operations, same order).
        let urgency = 0;
        let d = 0;
        for (let j = 0; j < n; j++) {
          const x = nx[j]!;
          const f = f1Unchecked({
            extime: now + x,
            t: deadline - k * x,
            deadline,
            min,
            max,
            late: lateValue,
          });
          nx[j] = f;
          urgency += f;
          d += max - f;
        }
        for (let j = 0; j < n; j++)
          out[offset + machines[j]!]! +=
            d > 0 ? (urgency * (max - nx[j]!)) / d : none ? 0 : urgency / n;
      };
    },
  };
  // frozen: `apply` runs `h.rows`, which a caller must not replace
  return Object.freeze(h);
}

/**
 * The Deadline heuristic's options with their defaults, checked: `max`, `min` and `k` finite
 * numbers, as the paper's constants (NaN and strings used to reach the matrix), `late` "max" | "min", `allLate`
 * "max" | "zero" (any other value used to read as the default).
 */
function resolveDeadlineOptions(
  where: string,
  options: DeadlineOptions,
): Required<DeadlineOptions> {
  const d = DEADLINE_DEFAULTS;
  // an option set to `undefined` means its default (spreading it over the defaults did not)
  const late = options.late ?? d.late;
  requireOneOf(where, "options.late", late, ["max", "min"]);
  const allLate = options.allLate ?? d.allLate;
  requireOneOf(where, "options.allLate", allLate, ["max", "zero"]);
  return {
    max: weightOption(where, "options.max", options.max, d.max),
    min: weightOption(where, "options.min", options.min, d.min),
    k: weightOption(where, "options.k", options.k, d.k),
    late,
    allLate,
  };
}
