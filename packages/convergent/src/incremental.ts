import { InvalidInputError } from "@sched/core";
import { optionKeys, requireInteger, requireKnownKeys } from "@sched/errors";
import type { Heuristic, HeuristicContext } from "./heuristic.js";
import {
  type MatrixInput,
  type MatrixUpdate,
  rowBuilder,
  Scratch,
  type SourceWithCore,
  UNCHECKED_UPDATE,
} from "./matrix.js";
import { checkHeuristics, checkMatrixInput } from "./matrix-checks.js";
import { finiteOption } from "./option-checks.js";

/**
 * Default refresh tolerance of the incremental variants: a stored row of `P` is recomputed
 * when one of its entries moved by more than this since it was stored (after removing the
 * uniform anti-aging drift). 0.05 is 0.5 % of the deadline heuristic's `Max` (10) and 1/160 of
 * the preemptive overhead constant (8). See the README, Interpretation 13.
 */
export const REFRESH_TOLERANCE = 0.05;

/**
 * Seconds of clock after which the incremental matrix re-bases its uniform anti-aging shift
 * (every row is then refreshed once).
 */
export const SHIFT_HORIZON = 20000;

/**
 * The uniform shift added to every eligible entry at `now` to cancel a drift of `rate` per
 * second (anti-aging): it falls by `rate` per second, so an entry stored earlier stays equal to
 * the fresh one plus the shift. It is never negative while `base <= now <= base + horizon`, so
 * a positive entry stays positive: `rate · (base + horizon - now)` for a rate >= 0, and
 * `rate · (base - now)` for a negative one (a negative anti-aging weight). Internal.
 */
export function uniformShift(rate: number, base: number, horizon: number, now: number): number {
  return rate >= 0 ? rate * (base + horizon - now) : rate * (base - now);
}

/** Options of {@link IncrementalMatrix}. */
export interface IncrementalMatrixOptions {
  /** The heuristics that compute each row (in order). */
  readonly heuristics: readonly Heuristic[];
  /**
   * A stored row is replaced when one of its entries moved by more than this (relative to the
   * entry) since it was stored.
   * @defaultValue {@link REFRESH_TOLERANCE}
   */
  readonly tolerance?: number;
  /**
   * Seconds of clock after which the uniform shift is re-based (every row refreshed once).
   * @defaultValue {@link SHIFT_HORIZON}
   */
  readonly horizon?: number;
}

/** The keys of {@link IncrementalMatrixOptions}, all of them (checked by the compiler). Internal. */
export const INCREMENTAL_KEYS = optionKeys<IncrementalMatrixOptions>({
  heuristics: true,
  tolerance: true,
  horizon: true,
});

const WHERE = "@sched/convergent/IncrementalMatrix";

interface StoredRow {
  readonly values: Float64Array;
  /** Mean of the positive entries of `values`. */
  readonly mean: number;
}

/**
 * The Job-Machine matrix kept across scheduling events, for the incremental variants: a row
 * (one job) is recomputed from the heuristics at every event, but the row the matching sees is
 * replaced only when some entry moved by more than `tolerance` since it was stored (or the
 * row is new, or its eligibility changed). Unchanged rows keep the same numbers, so
 * `imfs` can be told exactly which rows changed (a truthful change hint for the matrix it is
 * given) and re-solves from the previous plan with one search per changed row.
 *
 * Heuristics that declare a {@link Heuristic.uniformRate} (anti-aging: every eligible entry
 * grows by `AA` per second) would otherwise change every row at every event; their drift is
 * cancelled by adding the same `shift = rate · (base + horizon - now)` to every eligible entry
 * (`rate · (base - now)` when the rate is negative, so that the shift is never negative and an
 * eligible entry stays positive; a uniform shift of the eligible entries changes no
 * maximum-cardinality maximum-weight matching). `base` is re-set to `now` once
 * `now - base > horizon / 2`, which refreshes every row once.
 *
 * Guarantee: every eligible entry of the returned matrix is within `tolerance` (plus
 * floating-point rounding) of the from-scratch `P` of this event plus `shift`; ineligible
 * entries are 0 in both. Hence an optimal matching of it is a maximum-cardinality matching of
 * `P` whose weight is at most `2 · tolerance · min(|N|, |M|)` below the optimum of `P`.
 * With `tolerance` 0 the matrix is `P + shift` up to rounding.
 */
export class IncrementalMatrix implements SourceWithCore {
  readonly incremental = true;
  readonly tolerance: number;
  readonly horizon: number;
  readonly heuristics: readonly Heuristic[];
  #stored = new Map<number, StoredRow>();
  #base = Number.NaN;
  #scratch = new Scratch();

  /**
   * @throws InvalidInputError when `options.heuristics` is not an array, or the tolerance or
   *   the horizon is not a finite number (>= 0, > 0).
   */
  constructor(options: IncrementalMatrixOptions) {
    const where = WHERE;
    requireKnownKeys(where, "options", options, INCREMENTAL_KEYS);
    if (options === null || typeof options !== "object" || options.heuristics === undefined)
      throw new InvalidInputError(where, "options.heuristics", "is missing, expected an array");
    checkHeuristics(where, "options.heuristics", options.heuristics);
    const tolerance = finiteOption(
      where,
      "options.tolerance",
      options.tolerance,
      REFRESH_TOLERANCE,
      false,
    );
    const horizon = finiteOption(where, "options.horizon", options.horizon, SHIFT_HORIZON, true);
    this.heuristics = options.heuristics;
    this.tolerance = tolerance;
    this.horizon = horizon;
  }

  /** Forgets every stored row. */
  reset(): void {
    this.#stored = new Map();
    this.#base = Number.NaN;
  }

  /** Forgets the row of job `id` (it left the system). */
  forget(id: number): void {
    requireInteger(WHERE, "id", id, 0);
    this.#stored.delete(id);
  }

  /** Number of rows stored. */
  get size(): number {
    return this.#stored.size;
  }

  /**
   * The matrix of this event (see the class): recomputes each row with the heuristics,
   * replaces the stored row when it moved by more than the tolerance, and assembles the
   * stored rows. Rows of jobs not in `input.jobs` are dropped. The returned matrix lives in
   * buffers reused by the next call (callers may clear rows of it in place).
   *
   * Complexity: O(|N| x |M|) for the heuristics and the comparison, plus the heuristics'
   * own per-plan preparation.
   *
   * @throws InvalidInputError when a heuristic leaves a NaN or infinite entry.
   */
  update(input: MatrixInput): MatrixUpdate & { readonly costs: Float64Array } {
    checkMatrixInput(WHERE, "input", input);
    return this[UNCHECKED_UPDATE](input);
  }

  /** {@link IncrementalMatrix.update} without the checks of `input`. Internal. */
  [UNCHECKED_UPDATE](input: MatrixInput): MatrixUpdate & { readonly costs: Float64Array } {
    const heuristics = this.heuristics;
    const builder = rowBuilder(input, heuristics, this.#scratch, WHERE);
    const context: HeuristicContext = builder.context;
    const rows = context.jobs.length;
    const cols = context.cols;
    let rate = 0;
    for (const h of heuristics) if (typeof h.uniformRate === "number") rate += h.uniformRate;
    const now = input.now;
    let rebased = false;
    if (!(now - this.#base <= this.horizon / 2) || now < this.#base) {
      this.#base = now;
      rebased = true;
    }
    const shift = uniformShift(rate, this.#base, this.horizon, now);
    // rounding slack of adding `shift`: a few ulps of the largest magnitude involved
    const slack = 1e-9 * (1 + Math.abs(shift));
    const rel = this.tolerance;
    const next = new Map<number, StoredRow>();
    const weights = this.#scratch.weights(rows * cols);
    const costs = new Float64Array(rows);
    const changedRows: number[] = [];
    const fresh = new Float64Array(cols);
    for (let i = 0; i < rows; i++) {
      const id = context.jobs[i]!.job.id;
      builder.row(i, fresh, 0);
      const old = rebased ? undefined : this.#stored.get(id);
      // the stored row, while it may be kept; one stored on a platform of another size is not
      // compared (its columns are others)
      let kept = old !== undefined && old.values.length === cols ? old : undefined;
      if (kept !== undefined) {
        const v = kept.values;
        for (let m = 0; m < cols; m++) {
          const f = fresh[m]!;
          const o = v[m]!;
          if (f > 0 ? !(o > 0) || Math.abs(f + shift - o) > slack + rel * f : o > 0) {
            kept = undefined;
            break;
          }
        }
      }
      let row: StoredRow;
      if (kept !== undefined) {
        row = kept;
      } else {
        const values = new Float64Array(cols);
        let sum = 0;
        let count = 0;
        for (let m = 0; m < cols; m++) {
          const f = fresh[m]!;
          if (f > 0) {
            const x = f + shift;
            values[m] = x;
            sum += x;
            count++;
          }
        }
        row = { values, mean: count === 0 ? 0 : sum / count };
        changedRows.push(i);
      }
      next.set(id, row);
      weights.set(row.values, i * cols);
      costs[i] = row.mean === 0 ? 0 : row.mean - shift;
    }
    this.#stored = next;
    return { matrix: { rows, cols, weights, context }, changedRows, costs, shift };
  }
}
