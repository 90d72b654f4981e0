import { InvalidInputError, type Platform } from "@sched/core";
import type { Heuristic, HeuristicContext, MatrixJob } from "./heuristic.js";
import { meetsRequirements } from "./minimalRequirements.js";

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
 * Builds the Job-Machine matrix: fixes the eligible pairs (minimal requirements), runs each
 * heuristic in order (each adds its `Δp_{i,m}`), then clears ineligible entries to 0 and floors
 * eligible ones at {@link MIN_ELIGIBLE} so that they stay eligible for the matching.
 *
 * Complexity: O(|N| x |M|) per heuristic (the paper's bound), plus the eligibility rows.
 *
 * @throws InvalidInputError when a heuristic leaves a NaN or infinite entry.
 * @example
 * ```ts
 * const { weights } = buildMatrix({ now: 0, platform, jobs }, paperHeuristics());
 * ```
 */
export function buildMatrix(
  input: MatrixInput,
  heuristics: readonly Heuristic[],
): JobMachineMatrix {
  const { platform, jobs } = input;
  const rows = jobs.length;
  const cols = platform.machines.length;
  const eligible = new Uint8Array(rows * cols);
  const eligibleCount = new Int32Array(rows);
  for (let i = 0; i < rows; i++) {
    const row = jobs[i];
    if (input.eligibility !== undefined) {
      const e = input.eligibility(row, i);
      eligible.set(e, i * cols);
      let c = 0;
      for (let m = 0; m < cols; m++) c += e[m];
      eligibleCount[i] = c;
    } else {
      let c = 0;
      for (let m = 0; m < cols; m++) {
        if (meetsRequirements(row.job, platform, m)) {
          eligible[i * cols + m] = 1;
          c++;
        }
      }
      eligibleCount[i] = c;
    }
  }
  const previous = input.previous ?? new Int32Array(rows).fill(-1);
  const context: HeuristicContext = {
    now: input.now,
    platform,
    jobs,
    cols,
    eligible,
    eligibleCount,
    previous,
  };
  const weights = new Float64Array(rows * cols);
  for (const h of heuristics) h.apply(context, weights);
  for (let k = 0; k < weights.length; k++) {
    const v = weights[k];
    if (eligible[k] !== 1) {
      weights[k] = 0;
    } else if (v >= MIN_ELIGIBLE && v <= Number.MAX_VALUE) {
      // the common case: finite and above the floor
    } else if (!Number.isFinite(v)) {
      const i = Math.floor(k / cols);
      throw new InvalidInputError(
        "@sched/convergent/buildMatrix",
        `p[${i}][${k - i * cols}]`,
        `is ${v} after the heuristics (${heuristics.map((h) => h.name).join(", ")}), expected a finite number`,
      );
    } else if (v < MIN_ELIGIBLE) {
      weights[k] = MIN_ELIGIBLE;
    }
  }
  return { rows, cols, weights, context };
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
  const out = new Float64Array(rows);
  for (let i = 0; i < rows; i++) {
    let s = 0;
    let c = 0;
    for (let m = 0; m < cols; m++) {
      const v = weights[i * cols + m];
      if (v > 0) {
        s += v;
        c++;
      }
    }
    out[i] = c === 0 ? 0 : s / c;
  }
  return out;
}
