import { InvalidInputError, type Platform } from "@sched/core";
import { describeValue, requireInteger } from "@sched/errors";
import type { Heuristic, HeuristicContext, MatrixJob, RowKernel } from "./heuristic.js";
import { checkHeuristics, checkMatrixInput, countEligible } from "./matrix-checks.js";
import { eligibilityRow } from "./minimal-requirements.js";

/** The smallest value of an eligible entry after the heuristics (keeps it eligible). */
export const MIN_ELIGIBLE = 1e-9;

/** What {@link buildMatrix} needs. */
export interface MatrixInput {
  /** Wall clock. */
  readonly now: number;
  readonly platform: Platform;
  /** The jobs in the system (rows), queued and running. */
  readonly jobs: readonly MatrixJob[];
  /** Machine of each row in the previous plan, or -1. @defaultValue all -1 */
  readonly previous?: Int32Array;
  /**
   * Eligibility row of each job (`cols` entries of 0/1), e.g. cached across plans; computed with
   * `meetsRequirements` when missing.
   */
  readonly eligibility?: (row: MatrixJob, index: number) => Uint8Array;
}

/** The Job-Machine matrix `P` and what it was built from. */
export interface JobMachineMatrix {
  /** `|N|`. */
  readonly rows: number;
  /** `|M|`. */
  readonly cols: number;
  /** `p_{i,m}` at `weights[i * cols + m]`; > 0 exactly on eligible pairs. */
  readonly weights: Float64Array;
  /** The context the heuristics saw. */
  readonly context: HeuristicContext;
}

/**
 * What a {@link MatrixSource} gives for one scheduling event: the matrix to plan with, and what
 * the planner may know about it.
 */
export interface MatrixUpdate {
  /**
   * The matrix of this event (its `context` is this event's). It may live in buffers the source
   * reuses at its next update; the planner may clear rows of it in place.
   */
  readonly matrix: JobMachineMatrix;
  /**
   * The rows that may differ from the same job's row at the previous update (new rows
   * included), ascending: a promise that every other row is identical, which lets IMFS re-solve
   * from the previous plan. A source that rebuilds every row lists them all.
   */
  readonly changedRows: readonly number[];
  /**
   * The pre-matching's cost `c_i` of each row, when the source has it at hand (see
   * {@link MatrixSource}); `undefined`: the mean of each row's positive entries.
   */
  readonly costs: Float64Array | undefined;
  /** The uniform shift added to every eligible entry (0 for a from-scratch source). */
  readonly shift: number;
}

/**
 * Where the planner's Job-Machine matrix comes from, event after event: the one contract of the
 * from-scratch and the incremental matrices (`matrixSource` picks one from an options object).
 * A source is bound to its heuristics when it is made; `update` is called once per scheduling
 * event with that event's jobs, `reset` forgets everything kept between events.
 */
export interface MatrixSource {
  /**
   * Whether rows are kept across events (so `changedRows` is a real change hint, and the
   * matrix is the from-scratch `P` only up to the refresh tolerance and a uniform shift).
   */
  readonly incremental: boolean;
  /** The matrix of this event. @throws InvalidInputError when a heuristic leaves a NaN or infinite entry. */
  update(input: MatrixInput): MatrixUpdate;
  /** Forgets every row and base kept between events. */
  reset(): void;
}

/**
 * The key of a source's `update` without the checks of its input. Internal: the scheduler's
 * planner calls it at every event with an input valid by construction (the engine's jobs, its
 * own eligibility rows), so the checks of the public `update` stay off its hot path.
 */
export const UNCHECKED_UPDATE: unique symbol = Symbol("@sched/convergent/uncheckedUpdate");

/**
 * The key of a source's notice that the caller of its last unchecked update cleared rows of
 * that update's matrix in place (set them to 0, as `makePlan` with `clearInPlace` does).
 * Internal: a source that keeps its matrix buffer across unchecked updates (and rewrites only
 * the rows that do not already hold their value) must hear of every such row before its next
 * unchecked update (`null`: anything may have been written). The planner's only write into the
 * matrix is this clearing (and the restoring of {@link DEFERRED_ROWS}).
 */
export const ROWS_CLEARED: unique symbol = Symbol("@sched/convergent/rowsCleared");

/**
 * The key of a source's rows left at 0 by its last unchecked update (rows the caller cleared
 * at the previous event: most are cleared again). Internal: the caller must restore each of
 * them that it does not clear (`restore(i)` writes row `i`) before it reads the matrix.
 */
export const DEFERRED_ROWS: unique symbol = Symbol("@sched/convergent/deferredRows");

/** Rows of a matrix left at 0, to restore unless cleared (see {@link DEFERRED_ROWS}). */
export interface DeferredRows {
  /** The rows, ascending. */
  readonly rows: readonly number[];
  /** `mask[i]` is 1 while row `i` is deferred and still 0. */
  readonly mask: Uint8Array;
  /** Writes row `i`'s values (a deferred row). */
  restore(i: number): void;
}

/** A source of this package: {@link MatrixSource} plus its unchecked update. Internal. */
export interface SourceWithCore extends MatrixSource {
  [UNCHECKED_UPDATE](input: MatrixInput): MatrixUpdate;
  /** Rows (indices) of the last unchecked update's matrix the caller zeroed in place. */
  [ROWS_CLEARED]?(rows: readonly number[] | null): void;
  /** The rows the last unchecked update left at 0 (undefined: none). */
  [DEFERRED_ROWS]?(): DeferredRows | undefined;
}

/**
 * Builds the Job-Machine matrix: fixes the eligible pairs (minimal requirements), runs each
 * heuristic in order (each adds its `Δp_{i,m}`), then clears ineligible entries to 0 and floors
 * eligible ones at {@link MIN_ELIGIBLE} so that they stay eligible for the matching.
 *
 * Complexity: O(|N| x |M|) per heuristic (the paper's bound), plus the eligibility rows.
 *
 * @throws InvalidInputError naming the field of `input` (`input.jobs[2].progress`,
 *   `input.previous`, …) or of `heuristics` that is invalid, or when a heuristic leaves a NaN or
 *   infinite entry.
 * @example
 * ```ts
 * const { weights } = buildMatrix({ now: 0, platform, jobs }, paperHeuristics());
 * ```
 */
export function buildMatrix(
  input: MatrixInput,
  heuristics: readonly Heuristic[],
): JobMachineMatrix {
  checkMatrixInput(BUILD, "input", input);
  checkHeuristics(BUILD, "heuristics", heuristics);
  const builder = rowBuilder(input, heuristics);
  const { context } = builder;
  const rows = context.jobs.length;
  const cols = context.cols;
  const weights = new Float64Array(rows * cols);
  for (let i = 0; i < rows; i++) builder.row(i, weights, i * cols);
  return { rows, cols, weights, context };
}

const BUILD = "@sched/convergent/buildMatrix";

/**
 * The heuristic context of `input` (eligibility rows, previous plan). Internal: shared by
 * {@link buildMatrix} and the incremental scheduler; errors in what `input.eligibility` returns
 * name `where`.
 */
export function matrixContext(
  input: MatrixInput,
  scratch?: Scratch,
  where = BUILD,
): HeuristicContext {
  const { platform, jobs } = input;
  const rows = jobs.length;
  const cols = platform.machines.length;
  const eligible =
    scratch === undefined ? new Uint8Array(rows * cols) : scratch.eligible(rows * cols);
  const eligibleCount = new Int32Array(rows);
  for (let i = 0; i < rows; i++) {
    const row = jobs[i]!;
    // without `input.eligibility`, `meetsRequirements` on every machine (`eligibilityRow`)
    const e =
      input.eligibility !== undefined
        ? input.eligibility(row, i)
        : eligibilityRow(row.job, platform);
    eligibleCount[i] = countEligible(e, i, cols, where);
    eligible.set(e, i * cols);
  }
  const previous = input.previous ?? new Int32Array(rows).fill(-1);
  return { now: input.now, platform, jobs, cols, eligible, eligibleCount, previous };
}

/**
 * Reusable buffers (grow-only), so that a scheduler does not allocate a fresh `|N| x |M|`
 * matrix at every event (allocating large typed arrays dominated the cost of small plans).
 * Internal.
 */
export class Scratch {
  #eligible = new Uint8Array(0);
  #weights = new Float64Array(0);

  /** A zero-length-or-more view of `n` bytes (contents unspecified). */
  eligible(n: number): Uint8Array {
    if (this.#eligible.length < n)
      this.#eligible = new Uint8Array(Math.max(n, 2 * this.#eligible.length));
    return this.#eligible.subarray(0, n);
  }

  /** A view of `n` doubles (contents unspecified). */
  weights(n: number): Float64Array {
    if (this.#weights.length < n)
      this.#weights = new Float64Array(Math.max(n, 2 * this.#weights.length));
    return this.#weights.subarray(0, n);
  }
}

/**
 * {@link buildMatrix} into `scratch`'s buffers (the result is valid until the next use of
 * `scratch`). Internal.
 */
export function buildMatrixInto(
  input: MatrixInput,
  heuristics: readonly Heuristic[],
  scratch: Scratch,
  where = BUILD,
): JobMachineMatrix {
  const builder = rowBuilder(input, heuristics, scratch, where);
  const { context } = builder;
  const rows = context.jobs.length;
  const cols = context.cols;
  const weights = scratch.weights(rows * cols);
  for (let i = 0; i < rows; i++) builder.row(i, weights, i * cols);
  return { rows, cols, weights, context };
}

/** Computes the final rows of `P` one at a time (see {@link rowBuilder}). */
export interface RowBuilder {
  readonly context: HeuristicContext;
  /** Writes row `i` of `P` (all heuristics, cleared and floored) to `out[offset .. offset+cols)`. */
  row(i: number, out: Float64Array, offset: number): void;
}

/**
 * Row-by-row construction of `P`: when every heuristic has a row kernel
 * ({@link Heuristic.rows}), row `i` is computed on demand by running the kernels in order;
 * otherwise the whole matrix is built with `apply` once and rows are copied out of it. Either
 * way each row equals the same row of {@link buildMatrix}, bit for bit. Internal.
 *
 * @throws InvalidInputError when a heuristic leaves a NaN or infinite entry (when the row is
 *   computed).
 */
export function rowBuilder(
  input: MatrixInput,
  heuristics: readonly Heuristic[],
  scratch?: Scratch,
  where = BUILD,
): RowBuilder {
  const context = matrixContext(input, scratch, where);
  const { cols, eligible } = context;
  const names = () => heuristics.map((h) => h.name).join(", ");
  const finish = (i: number, out: Float64Array, offset: number): void => {
    const b = i * cols;
    for (let m = 0; m < cols; m++) {
      const v = out[offset + m]!;
      if (eligible[b + m] !== 1) {
        out[offset + m] = 0;
      } else if (v >= MIN_ELIGIBLE && v <= Number.MAX_VALUE) {
        // the common case: finite and above the floor
      } else if (!Number.isFinite(v)) {
        throw new InvalidInputError(
          where,
          `p[${i}][${m}]`,
          `is ${v} after the heuristics (${names()}), expected a finite number`,
        );
      } else if (v < MIN_ELIGIBLE) {
        out[offset + m] = MIN_ELIGIBLE;
      }
    }
  };
  if (heuristics.every((h) => typeof h.rows === "function")) {
    const kernels: RowKernel[] = heuristics.map((h, k) => {
      const kernel = (h.rows as (c: HeuristicContext) => RowKernel).call(h, context);
      if (typeof kernel !== "function")
        throw new InvalidInputError(
          where,
          `heuristics[${k}].rows`,
          `returned ${describeValue(kernel)} (heuristic ${h.name}), expected a function (i, out, offset) => void`,
        );
      return kernel;
    });
    return {
      context,
      row(i, out, offset) {
        out.fill(0, offset, offset + cols);
        for (const k of kernels) k(i, out, offset);
        finish(i, out, offset);
      },
    };
  }
  const full = new Float64Array(context.jobs.length * cols);
  for (const h of heuristics) h.apply(context, full);
  return {
    context,
    row(i, out, offset) {
      out.set(full.subarray(i * cols, (i + 1) * cols), offset);
      finish(i, out, offset);
    },
  };
}

/**
 * The mean of the positive entries of each row of `P` (the pre-matching's cost `c_i`; 0 for a
 * row without one).
 *
 * Complexity: O(|N| x |M|).
 *
 * @example
 * ```ts
 * rowMeans(new Float64Array([0, 4, 2, 0, 0, 0]), 2, 3); // Float64Array [3, 0]
 * ```
 */
export function rowMeans(weights: Float64Array, rows: number, cols: number): Float64Array {
  const where = "@sched/convergent/rowMeans";
  requireInteger(where, "rows", rows, 0);
  requireInteger(where, "cols", cols, 0);
  if (!(weights instanceof Float64Array) || weights.length < rows * cols)
    throw new InvalidInputError(
      where,
      "weights",
      `is ${weights instanceof Float64Array ? `a Float64Array of ${weights.length}` : describeValue(weights)}, expected a Float64Array of at least rows x cols = ${rows * cols}`,
    );
  return meansOf(weights, rows, cols);
}

/** {@link rowMeans} without its checks. Internal: the pre-matching's costs in `makePlan`. */
export function meansOf(weights: Float64Array, rows: number, cols: number): Float64Array {
  const out = new Float64Array(rows);
  for (let i = 0; i < rows; i++) {
    let s = 0;
    let c = 0;
    for (let m = 0; m < cols; m++) {
      const v = weights[i * cols + m]!;
      if (v > 0) {
        s += v;
        c++;
      }
    }
    out[i] = c === 0 ? 0 : s / c;
  }
  return out;
}
