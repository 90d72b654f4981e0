/**
 * A job x machine weight matrix: `rows x cols`, row-major in `weights` (entry `(i, j)` at
 * `weights[i * cols + j]`). An entry `> 0` is the preference of row `i` for column `j`; an entry
 * `<= 0` (including `-Infinity`) means the pair is not eligible and is never matched.
 */
export interface MatchingInput {
  /** Number of rows (jobs); a non-negative integer. */
  readonly rows: number;
  /** Number of columns (machines); a non-negative integer. */
  readonly cols: number;
  /**
   * `rows * cols` weights, row-major; finite numbers or `-Infinity` (usually a `Float64Array`).
   * Never modified.
   */
  readonly weights: ArrayLike<number>;
}

/** A matching: every row has at most one column and every column at most one row. */
export interface Matching {
  /** `rowToCol[i]` is the column matched to row `i`, or `-1`. Length `rows`. */
  readonly rowToCol: Int32Array;
  /** `colToRow[j]` is the row matched to column `j`, or `-1`. Length `cols`. */
  readonly colToRow: Int32Array;
  /** Number of matched pairs. */
  readonly size: number;
  /** Sum of the weights of the matched pairs (added in increasing row order). */
  readonly weight: number;
}

/**
 * What an exact solve hands over to the next incremental one: an optimal dual certificate
 * (potentials) in the solver's internal orientation. Treat it as opaque and read-only; `imfs`
 * copies it and never modifies it.
 */
export interface MatchingState {
  /** Rows of the matrix this state belongs to. */
  readonly rows: number;
  /** Columns of the matrix this state belongs to. */
  readonly cols: number;
  /** `true` when the solver worked on the transposed matrix (its "rows" are the columns). */
  readonly transposed: boolean;
  /** Power of two the weights were multiplied by before solving (1 unless weights are huge). */
  readonly scale: number;
  /** Potential of each internal row. */
  readonly rowPotential: Float64Array;
  /** Potential of each internal real column, followed by one per dummy column. */
  readonly colPotential: Float64Array;
  /** Cost of each dummy column ("this internal row stays unmatched"). */
  readonly dummyCost: Float64Array;
  /** Internal row -> internal column (`>= internal cols` means a dummy: row unmatched). */
  readonly assignment: Int32Array;
  /**
   * Weight of each internal row's pair as read from the matrix (0 for a row on a dummy), so
   * that a hinted `imfs` need not read the pairs its hint promises unchanged again. (A state
   * without it, or of the wrong length, is still accepted: the pairs are then read.)
   */
  readonly pairWeight: Float64Array;
}

/** The result of {@link mfs} and {@link imfs}: an optimal matching and its certificate. */
export interface ExactMatching extends Matching {
  /** Hand this to {@link imfs} after the matrix changes. */
  readonly state: MatchingState;
}
