import { describeValue, InvalidInputError, optionKeys, requireKnownKeys } from "@sched/errors";
import { Arena, resetScratch } from "./arena.js";
import {
  addRowToDummy,
  addRowToFreeColumn,
  DEFAULT_SEARCH,
  repairColumnBidirectional,
  type SearchOptions,
} from "./bidi.js";
import { type ColumnCache, columnCopyOf, MAX_PATCHED_ROWS, setColumnCopy } from "./column-cache.js";
import { scaleFor } from "./cost.js";
import { finish } from "./result.js";
import { NONE, SolverState } from "./solver-state.js";
import type { ExactMatching, MatchingInput, MatchingState } from "./types.js";
import { badEntry, isValidWeight, validateInput, validateShape } from "./validate.js";

const WHERE = "@sched/matching/imfs";

/** How the lines of the new matrix relate to those of the previous one. */
export interface ImfsOptions {
  /**
   * `rowOrigin[i]` is the index in the previous matrix of row `i` of the new one, or `-1` for a
   * row that is new. Rows of the previous matrix that appear nowhere were removed. Integers,
   * each previous index at most once; length `matrix.rows`.
   * @defaultValue row `i` is previous row `i` while `i < previous rows`, new after that
   *   (rows appended at the end or removed from the end)
   */
  readonly rowOrigin?: ArrayLike<number>;
  /**
   * `colOrigin[j]` is the index in the previous matrix of column `j`, or `-1` for a new column;
   * as {@link ImfsOptions.rowOrigin}.
   * @defaultValue column `j` is previous column `j` while `j < previous cols`, new after that
   */
  readonly colOrigin?: ArrayLike<number>;
  /**
   * Change hint: the rows of the NEW matrix (indices in `[0, matrix.rows)`, any order,
   * repeats allowed) whose weights may differ from those of their origin row. Giving this or
   * {@link ImfsOptions.changedCols} is a **promise**: every entry `(i, j)` whose row and
   * column both have an origin and are both unlisted equals entry
   * `(rowOrigin[i], colOrigin[j])` of the matrix `previous` was computed for (equal values, or
   * both `<= 0`: both ineligible). New rows and columns (origin `-1`) count as changed without
   * being listed.
   *
   * With the promise, `imfs` reads only the changed and new lines, plus what its augmenting
   * searches visit, instead of the whole matrix (when `weights` is a `Float64Array`; any other
   * array-like is still validated and copied whole); a previous pair on an unlisted row and
   * column is kept without being read (its weight is the one `previous.state` recorded). A
   * truthful hint keeps the result exact (the same guarantee as without a hint). An untruthful
   * one voids it: see {@link imfs}. Entries outside the changed and new lines are not validated
   * (they were when first seen).
   * @defaultValue no hint: `imfs` reads and checks the whole matrix (always exact)
   */
  readonly changedRows?: ArrayLike<number>;
  /**
   * Change hint for columns (indices in `[0, matrix.cols)`); see
   * {@link ImfsOptions.changedRows}. Giving only one of the two means the other lists
   * nothing: no row (or column) changed apart from new ones.
   * @defaultValue no hint (see {@link ImfsOptions.changedRows})
   */
  readonly changedCols?: ArrayLike<number>;
  /**
   * Safety check of the change hint, for tests and cautious callers: the previous matrix (the
   * one `previous` was computed for). When given together with a hint, `imfs` first compares
   * every promised-unchanged entry with its origin in this matrix, in `O(rows * cols)`, and
   * throws `InvalidInputError` at the first difference (equal values or both `<= 0` count as
   * unchanged). Ignored without a hint.
   * @defaultValue no check
   */
  readonly verifyHint?: MatchingInput;
}

/** The keys of {@link ImfsOptions}, all of them (checked by the compiler). */
const IMFS_KEYS = optionKeys<ImfsOptions>({
  rowOrigin: true,
  colOrigin: true,
  changedRows: true,
  changedCols: true,
  verifyHint: true,
});

/**
 * Incremental Maximum Flow Search: re-solves {@link mfs}'s problem after the matrix changed
 * (rows or columns added or removed, any weights changed, pairs becoming eligible or not),
 * starting from the previous optimal matching and its dual potentials.
 *
 * **Guarantee: exact.** The result is optimal for the new matrix in the same sense as
 * {@link mfs}: maximum cardinality, then maximum total weight, so its `size` equals that of
 * `mfs(matrix)` and its `weight` equals it up to floating-point rounding (the inherited
 * certificate is accepted with a tolerance of 2^-40 times the largest potential; bit-exact for
 * integer weights with `(rows + cols) * max weight < 2^40`; without a change hint, potentials
 * above `(rows + cols)` times the new largest weight are set aside, so the tolerance follows the
 * new weights; with one, it follows the previous potentials). When several optimal matchings
 * exist, the one returned may differ from `mfs`'s. The paper's IMFS is an approximation; this
 * one is not.
 *
 * How: every kept row whose potentials still certify optimality (all its reduced costs
 * non-negative, its pair tight, its column kept) keeps its pair; the others are re-added with
 * one shortest-augmenting-path search each; a column freed with a negative potential is
 * repaired with one search. On a full plan (no free column) and for every repair these are
 * bidirectional searches, from the source and from the target at once (see the README and
 * `src/bidi.ts`). No list of changed weights is needed: the check finds them, by reading the
 * whole matrix once.
 *
 * **Change hint** ({@link ImfsOptions.changedRows}, {@link ImfsOptions.changedCols}): a caller
 * who knows which lines changed can promise that every other kept line is identical to its
 * origin; `imfs` then reads only the changed and new lines instead of the whole matrix, plus
 * what its searches visit (a previous pair on unlisted lines is kept unread, with the weight
 * the previous state recorded for it).
 * - Truthful hint: the same guarantee as above (exact), and the returned `state` is as good
 *   as one from `mfs` for the next call, hinted or not. (Over a long chain of hinted calls the
 *   rounding of potentials that no call re-checks can add up, a few units in the last place
 *   per update; a call without a hint re-checks them all.)
 * - Untruthful hint (an unlisted line did change): the guarantee is void. The result is still
 *   a matching (no row or column twice, `size` its number of pairs), but a previous pair on
 *   unlisted lines is kept unread: if its entry changed, it may be ineligible now, and `weight`
 *   counts it with the weight recorded before. Every other pair has weight `> 0` and counts its
 *   new weight. Its weight may be below the optimum (its size is not proven maximum either),
 *   and its `state` may be a wrong certificate, so later hinted calls from it are not exact
 *   either. A call without a hint (or `mfs`) is exact again from
 *   such a state. Unlisted lines are not validated either, so a NaN or `+Infinity` in them
 *   goes unreported (and can make the state's potentials non-finite, which the next `imfs`
 *   rejects with `InvalidInputError`).
 *   {@link ImfsOptions.verifyHint} catches a false promise, in `O(rows * cols)`.
 * - No hint: as before, nothing is taken on trust.
 *
 * Complexity: `O(rows * cols)` for the check without a hint; with a hint,
 * `O((changed rows) * cols + (changed columns) * rows + rows + cols)`. Plus one search per
 * re-added row or freed column, `O(rows * cols)` worst case each (in practice, after one event
 * on a 1000 x 1000 plan, 7 to 279 rows read forward and 3 to 80 columns backward); with a hint,
 * one job or machine arriving or leaving, or one changed row or column, costs about 1-6% of a
 * full `mfs` (see the README's benchmarks). Memory: the result, plus work arrays taken from a
 * scratch pool the module keeps between calls (about 100 bytes per row and column of the
 * largest call so far), and, for a chain of hinted calls of the same shape and lines, one
 * column-major copy of the weights (8 bytes per entry) shared by the chain's states, alive
 * while one of them is (README, "Chains of calls").
 *
 * @param matrix the new weight matrix (never modified)
 * @param previous the result of the previous {@link mfs} or `imfs` (never modified)
 * @param options how rows and columns map to the previous matrix, and an optional change hint
 * @returns the matching, its size and weight, and a `state` for the next call
 * @throws {InvalidInputError} on a malformed matrix, a malformed `previous`, origins of the
 *   wrong length, out of range or repeated, a hint index out of range, or (with
 *   `verifyHint`) a hint that omits a changed entry
 * @example
 * ```ts
 * const plan = mfs({ rows: 2, cols: 2, weights: new Float64Array([3, 1, 1, 2]) });
 * // a third job arrives (a new last row)
 * const next = imfs({ rows: 3, cols: 2, weights: new Float64Array([3, 1, 1, 2, 9, 0]) }, plan);
 * // next.rowToCol [-1, 1, 0], size 2, weight 11
 * // the same, promising that the two kept rows are unchanged (only new row 2 is read)
 * imfs({ rows: 3, cols: 2, weights: new Float64Array([3, 1, 1, 2, 9, 0]) }, plan, {
 *   changedRows: [],
 * });
 * ```
 */
export function imfs(
  matrix: MatchingInput,
  previous: ExactMatching,
  options: ImfsOptions = {},
): ExactMatching {
  requireKnownKeys("@sched/matching/imfs", "options", options, IMFS_KEYS);
  return incrementalSolve(matrix, previous, options, DEFAULT_SEARCH);
}

/**
 * The body of {@link imfs}, with the tuning of its searches as a parameter (internal: tests run
 * it with extreme tunings to exercise both sides of the bidirectional search; any tuning gives
 * an exact result).
 */
export function incrementalSolve(
  matrix: MatchingInput,
  previous: ExactMatching,
  options: ImfsOptions,
  search: SearchOptions,
  /** Use column copies (tests turn it off to compare: the results must be the same). */
  columnCopy = true,
): ExactMatching {
  validateShape(WHERE, matrix);
  // Work arrays of this call come from the scratch pool (see arena.ts); none reaches the result.
  resetScratch();
  const { state, largest, pairWeight } = validateState(previous);
  const { rows, cols, weights } = matrix;
  const rowOrigin = resolveOrigin(options.rowOrigin, rows, state.rows, "options.rowOrigin");
  const colOrigin = resolveOrigin(options.colOrigin, cols, state.cols, "options.colOrigin");
  // The engine reads the caller's weights in place (no O(rows * cols) copy of a Float64Array).
  let W: Float64Array;
  if (weights instanceof Float64Array) {
    W = weights;
  } else {
    validateInput(WHERE, matrix);
    W = Float64Array.from(weights);
  }

  // Work in the previous orientation.
  const t = state.transposed;
  const n = t ? cols : rows;
  const m = t ? rows : cols;
  const pm = t ? state.rows : state.cols;
  const pn = t ? state.cols : state.rows;
  const rowFrom = t ? colOrigin : rowOrigin;
  const colFrom = t ? rowOrigin : colOrigin;
  const rowStride = t ? 1 : cols;
  const colStride = t ? cols : 1;
  const hint = resolveHint(options, matrix, state, rowOrigin, colOrigin);
  // Default origins (line k is previous line k while both exist): no inverse column map is
  // needed (previous column a is column a when a < m, else removed), and potentials and the
  // assignment are copied rather than mapped (below).
  const sameCols = (t ? options.rowOrigin : options.colOrigin) === undefined;
  const sameRows = (t ? options.colOrigin : options.rowOrigin) === undefined;
  // The work arrays of this call, in one allocation (see arena.ts).
  const readColumns = hint === undefined || hint.cols.length > 0;
  // (Every array here is written before it is read: no zeroing.)
  const arena = new Arena(
    n + (readColumns ? m : 0),
    (sameCols ? 0 : pm) + n,
    hint === undefined ? 2 * n + m : n,
    true,
    false,
  );
  const oldToNewCol = arena.i32(sameCols ? 0 : pm).fill(NONE);
  let keptCols = Math.min(m, pm);
  if (!sameCols) {
    keptCols = 0;
    for (let j = 0; j < m; j++) {
      if (colFrom[j]! < 0) continue;
      oldToNewCol[colFrom[j]!] = j;
      keptCols++;
    }
  }
  const prevU = state.rowPotential;
  const prevV = state.colPotential;

  // One pass over the matrix validates it, finds its largest weight and checks, row by row,
  // whether the previous certificate still holds. The weight scale is assumed unchanged; in the
  // rare case it changes (weights crossing 2^900) the pass is repeated with the right one.
  // Potentials are written straight into the engine (every array allocated costs time here).
  const engine = new SolverState(
    n,
    m,
    W,
    { scale: state.scale, rowStride, colStride },
    dummyCapacity(state, hint, pairWeight !== undefined, n, pm - keptCols),
    true,
  );
  const { u, v, rowToCol, colToRow } = engine;
  // The column-major copy the backward searches read (`column-cache.ts`; a transposed state's
  // internal columns are contiguous already), for a hinted call whose lines are those of the
  // previous matrix (same shape, each line its own origin). From the newest state of a chain,
  // the call updates the copy with the hint's lines and its result is the next version; from an
  // older one (a second call from the same state), it reads the columns copied at or before
  // its version, with the lines changed since patched from its own matrix; from a state with
  // none, it starts one.
  let inherited: ColumnCache | undefined; // the copy, updated in place by this call
  let started = false; // this call may start a copy (registered at the end)
  if (
    !t &&
    hint !== undefined &&
    n === pn &&
    m === pm &&
    (sameRows || isIdentity(rowFrom)) &&
    (sameCols || isIdentity(colFrom))
  ) {
    engine.copyCall = true;
    const handle = columnCopy ? columnCopyOf(state) : undefined;
    const cache = handle?.cache;
    if (!columnCopy) {
      // (no copy: tests)
    } else if (cache === undefined || cache.n !== n || cache.m !== m) {
      engine.startColumns = true;
      started = true;
    } else if (handle!.version === cache.version) {
      // Recorded before anything is written (a call that throws leaves the log right).
      engine.columnsVersion = cache.advance(hint.rows, hint.cols);
      inherited = cache;
      engine.columns = cache;
      engine.columnsWritable = true;
      engine.checkColumns = true;
    } else {
      const flags = new Arena(0, 0, n + m, true); // zeroed
      const staleRow = flags.u8(n);
      const staleCol = flags.u8(m);
      if (cache.changedSince(handle!.version, staleRow, staleCol)) {
        for (let q = 0; q < hint.rows.length; q++) staleRow[hint.rows[q]!] = 1;
        for (let q = 0; q < hint.cols.length; q++) staleCol[hint.cols[q]!] = 1;
        let count = 0;
        for (let i = 0; i < n; i++) count += staleRow[i]!;
        if (count <= MAX_PATCHED_ROWS) {
          const rows = new Arena(0, count, 0, true, false).i32(count);
          for (let i = 0, q = 0; i < n; i++) if (staleRow[i] === 1) rows[q++] = i;
          engine.columns = cache;
          engine.columnsVersion = handle!.version;
          engine.staleRows = rows;
          engine.staleCol = staleCol;
          engine.checkColumns = true;
        }
      }
    }
  }
  const keep = arena.i32(n); // kept row -> its real column, or m + previous dummy index
  const inS = arena.u8(n);
  // A kept row's potential, -Infinity for the others (they bound nothing: a column's minimum
  // is taken over kept rows only, and only kept rows are checked).
  const rowU = arena.f64(n);
  // Per column read in full: the smallest `C[i][k] - u[i]` over kept rows, the highest potential
  // that keeps (D1) on that column.
  const colMin = arena.f64(readColumns ? m : 0);
  // Without a hint: the rows and the columns where a reduced cost fell below 0.
  const violated = arena.u8(hint === undefined ? n : 0);
  const violatedCol = arena.u8(hint === undefined ? m : 0);
  let scale = state.scale;
  let largestWeight = 0; // of what the last pass read (without a hint: the whole matrix)
  for (;;) {
    const ratio = scale / state.scale; // a power of two: rescaling potentials is exact
    const tol = 2 ** -40 * largest * ratio;
    const negScale = -scale;
    // Columns: previous potential, or -Infinity for a column whose potential is recomputed
    // (new, or changed according to the hint): its reduced costs are then +Infinity, which
    // passes, and its potential is set from its column minimum below.
    // With default origins and an unchanged scale these are copies (`set`, no loop body).
    if (sameCols && ratio === 1) {
      const kept = Math.min(m, pm);
      v.set(prevV.subarray(0, kept));
      v.fill(Number.NEGATIVE_INFINITY, kept, m);
      if (hint !== undefined) {
        for (let q = 0; q < hint.cols.length; q++) v[hint.cols[q]!] = Number.NEGATIVE_INFINITY;
      }
    } else {
      for (let j = 0; j < m; j++) {
        const o = colFrom[j]!;
        const fresh = o < 0 || (hint !== undefined && hint.colFlag[j] === 1);
        v[j] = fresh ? Number.NEGATIVE_INFINITY : prevV[o]! * ratio;
      }
    }
    // (With a hint, only the recomputed columns' minima are read, each written first.)
    if (hint === undefined) colMin.fill(Number.POSITIVE_INFINITY);
    // Per internal row: the column it would keep (NONE: not a candidate) and its potential.
    // Row i is fine while C[i][k] - v[k] >= u[i] - tol for every eligible k.
    let onDummy = false; // some row would keep a dummy (may be true when none does)
    if (sameRows && sameCols && m === pm && ratio === 1) {
      // Row i keeps its column, which is its previous index (dummies included, as m = pm).
      const kept = Math.min(n, prevU.length);
      keep.set(state.assignment.subarray(0, kept));
      keep.fill(NONE, kept, n);
      inS.fill(1, 0, kept);
      inS.fill(0, kept, n);
      u.set(prevU.subarray(0, kept));
      u.fill(0, kept, n);
      rowU.set(prevU.subarray(0, kept));
      rowU.fill(Number.NEGATIVE_INFINITY, kept, n);
      onDummy = state.dummyCost.length > 0;
    } else {
      for (let i = 0; i < n; i++) {
        const o = rowFrom[i]!;
        let target = NONE;
        if (o >= 0) {
          const a = state.assignment[o]!;
          if (a >= pm) {
            target = m + (a - pm);
            onDummy = true;
          } else {
            target = sameCols ? (a < m ? a : NONE) : oldToNewCol[a]!;
          }
        }
        keep[i] = target;
        inS[i] = target === NONE ? 0 : 1;
        u[i] = target === NONE ? 0 : prevU[o]! * ratio;
        rowU[i] = target === NONE ? Number.NEGATIVE_INFINITY : u[i]!;
      }
    }
    let max = 0;
    let nan = false; // a NaN entry was read (+Infinity shows in `max`)
    // Column minima read column by column (the largest weight of what they read and a NaN
    // flag go to `seen`; a closure writing `max` would slow the passes below).
    const seen = Float64Array.of(0, 0);
    const columnMinimum = (k: number, copy?: Float64Array, copyAt = 0): number =>
      columnMin(W, k * colStride, rowStride, n, negScale, rowU, seen, copy, copyAt);
    if (hint !== undefined) {
      // Only the changed and new lines: full internal rows first, then internal columns.
      // Unchanged entries are promised equal to their origin's, so they still satisfy the
      // inherited certificate. A changed row that violates it is re-added; a changed column
      // gets the highest potential that keeps it (its column minimum).
      const { rows: dirtyRows, cols: dirtyCols } = hint;
      for (let q = 0; q < dirtyRows.length; q++) {
        const i = dirtyRows[q]!;
        const base = i * rowStride;
        const b = rowU[i]! - tol;
        let ok = true;
        for (let k = 0; k < m; k++) {
          const w = W[base + k * colStride]!;
          if (!(w <= max)) {
            if (w > max) max = w;
            else nan = true; // neither > nor <=: NaN
          }
          if (w * negScale - v[k]! < b && w > 0) ok = false;
        }
        if (!ok) inS[i] = 0;
        // The inherited column copy gets the row's new entries (in the columns it holds).
        if (inherited !== undefined) updateRow(inherited, W, base, i);
      }
      // Changed columns are read here anyway: they go to the column copy (started now if this
      // call starts one), which the searches read instead of the matrix.
      const copy =
        inherited ?? (started && dirtyCols.length > 0 ? engine.startColumnCopy() : undefined);
      if (copy !== undefined) {
        for (let q = 0; q < dirtyCols.length; q++) {
          const k = dirtyCols[q]!;
          colMin[k] = columnMinimum(k, copy.column(k));
          copy.builtAt[k] = engine.columnsVersion;
        }
      } else if (dirtyCols.length === 1) {
        // One changed column (a machine's weights updated, or one arrived): its entries are
        // kept in a contiguous copy, which the search that re-matches it reads instead.
        const k = dirtyCols[0]!;
        if (engine.copiedCol !== k) engine.colCopy = new Arena(n, 0, 0, true, false).f64(n);
        engine.copiedCol = k;
        colMin[k] = columnMinimum(k, engine.colCopy);
      } else {
        for (let q = 0; q < dirtyCols.length; q++)
          colMin[dirtyCols[q]!] = columnMinimum(dirtyCols[q]!);
      }
    } else {
      // Every entry: a reduced cost below 0 marks its row and its column (rare: the test is
      // false and well predicted on every entry the change did not touch).
      violated.fill(0);
      violatedCol.fill(0);
      if (!t) {
        // The pass follows the memory order of the weights: one external row at a time.
        for (let i = 0; i < n; i++) {
          const base = i * cols;
          const b = rowU[i]! - tol;
          for (let k = 0; k < m; k++) {
            const w = W[base + k]!;
            if (!(w <= max)) {
              if (w > max) max = w;
              else nan = true;
            }
            // Eligibility (a coin toss on sparse rows) tested second.
            if (w * negScale - v[k]! < b && w > 0) {
              violated[i] = 1;
              violatedCol[k] = 1;
            }
          }
        }
      } else {
        // Transposed state: external row k is internal column k, whose minimum comes free.
        for (let k = 0; k < m; k++) {
          const base = k * cols;
          const vk = v[k]!;
          let low = Number.POSITIVE_INFINITY;
          for (let i = 0; i < n; i++) {
            const w = W[base + i]!;
            if (!(w <= max)) {
              if (w > max) max = w;
              else nan = true;
            }
            const c = w * negScale;
            const ui = rowU[i]!;
            if (c - ui < low && w > 0) low = c - ui;
            if (c - vk < ui - tol && w > 0) {
              violated[i] = 1;
              violatedCol[k] = 1;
            }
          }
          colMin[k] = low;
        }
      }
      // Violations (reduced costs below 0) are fixed by dropping their rows (re-added later)
      // or by lowering their columns' potentials to the column minimum (which leaves the row
      // on such a column for re-adding if its pair is no longer tight). One changed row violates
      // in one row, one changed column in one column: the side with fewer lines is taken.
      let violatedRows = 0;
      for (let i = 0; i < n; i++) violatedRows += violated[i]!;
      let violatedCols = 0;
      for (let k = 0; k < m; k++) violatedCols += violatedCol[k]!;
      if (violatedCols > 0 && violatedCols < violatedRows) {
        for (let k = 0; k < m; k++) {
          if (violatedCol[k] === 0) continue;
          if (!t) colMin[k] = columnMinimum(k);
          v[k] = Math.min(0, colMin[k]!);
        }
      } else {
        for (let i = 0; i < n; i++) if (violated[i] === 1) inS[i] = 0;
      }
      // New columns: their minimum (read here unless the transposed pass gave it).
      if (!t) {
        for (let k = 0; k < m; k++) {
          if (v[k] === Number.NEGATIVE_INFINITY) colMin[k] = columnMinimum(k);
        }
      }
    }
    if (seen[0]! > max) max = seen[0]!;
    if (seen[1] !== 0) nan = true;
    // Recomputed columns (new, or changed according to the hint): the highest potential <= 0
    // that keeps (D1) for the kept rows.
    // (With a hint, they are exactly the hint's columns.)
    if (hint !== undefined) {
      for (let q = 0; q < hint.cols.length; q++) {
        const k = hint.cols[q]!;
        v[k] = Math.min(0, colMin[k]!);
      }
    } else {
      for (let k = 0; k < m; k++) {
        if (v[k] === Number.NEGATIVE_INFINITY) v[k] = Math.min(0, colMin[k]!);
      }
    }
    // Kept pairs must still be eligible and tight. Their weights are kept (in `rowU`, no
    // longer needed) for the result's total: one read of these scattered entries, not two.
    // With a hint, a pair on an unlisted row and column is promised unchanged: its weight is
    // the one the previous state recorded, and it is as tight as it was (its potentials are
    // inherited), so it is not read at all (one cache and TLB miss each, most of what a
    // hinted call without a search costs).
    const trust = hint !== undefined && pairWeight !== undefined;
    for (let i = 0; i < n; i++) {
      const target = keep[i]!;
      rowU[i] = Number.NaN;
      if (target === NONE || target >= m) continue;
      if (trust && hint.rowFlag[i] === 0 && hint.colFlag[target] === 0) {
        rowU[i] = pairWeight[rowFrom[i]!]!;
        continue;
      }
      const w = W[i * rowStride + target * colStride]!;
      rowU[i] = w;
      if (inS[i] === 0) continue;
      if (!(w > 0 && Math.abs(w * negScale - u[i]! - v[target]!) <= tol)) inS[i] = 0;
      else if (v[target]! > tol) inS[i] = 0; // (D3) (only a foreign state breaks it)
    }
    // (D1) on the dummy columns: a row on a dummy must have the largest potential of the kept
    // rows. Always true of a state from mfs/imfs on the same matrix; enforced for safety.
    if (onDummy) {
      let maxKeptU = Number.NEGATIVE_INFINITY;
      for (let i = 0; i < n; i++) if (inS[i] === 1 && u[i]! > maxKeptU) maxKeptU = u[i]!;
      for (let i = 0; i < n; i++) {
        if (inS[i] === 1 && keep[i]! >= m && u[i]! < maxKeptU - tol) inS[i] = 0;
      }
    }
    if (nan || !(max <= Number.MAX_VALUE)) {
      for (let k = 0; k < W.length; k++) {
        if (!isValidWeight(W[k])) throw badEntry(WHERE, matrix, k);
      }
    }
    // With a hint, `max` covers only the lines read; the unread ones were covered by the
    // previous scale, so the scale may only shrink (exact either way: a power of two).
    largestWeight = max;
    const needed = hint === undefined ? scaleFor(max) : Math.min(state.scale, scaleFor(max));
    if (needed === scale) break;
    scale = needed;
  }
  engine.scale = scale;
  // Without a hint the whole matrix was read, so its scale is known: an inherited certificate
  // whose largest potential exceeds (rows + cols) times the largest weight (both scaled) is not
  // used. Its tolerance, relative to those potentials, could hide whole weights (after an
  // outlier weight left the matrix, or from an unrelated one); the solve starts afresh instead.
  // Potentials that mfs and imfs leave stay well below that bound.
  if (hint === undefined && largest * (scale / state.scale) > (n + m) * largestWeight * scale) {
    inS.fill(0);
    v.fill(0, 0, m);
  }

  let dummyOf: Int32Array | undefined; // previous dummy index of a kept row on a dummy
  let readd = 0; // rows to re-add
  for (let i = 0; i < n; i++) {
    if (inS[i] === 0) {
      u[i] = 0;
      readd++;
      continue;
    }
    const target = keep[i]!;
    if (target >= m) {
      dummyOf ??= new Int32Array(n).fill(NONE);
      dummyOf[i] = target - m;
    } else {
      rowToCol[i] = target;
      colToRow[target] = i;
    }
  }
  const ratio = scale / state.scale;
  // (D3): a free real column sits at 0 or below (repaired below); lowering a potential only
  // raises reduced costs.
  let free = 0; // free real columns
  for (let j = 0; j < m; j++) {
    if (colToRow[j] !== NONE) continue;
    free++;
    if (v[j]! > 0) v[j] = 0;
  }

  // (K): a kept row on a dummy must not reach a free real column by an alternating path
  // (the matrix change may have opened one); such rows are re-added.
  if (dummyOf !== undefined) {
    readd += dropAugmentableDummyRows(engine, inS, dummyOf);
    // Dummies still in use, renumbered in their previous order.
    const pK = prevV.length - pm;
    const newDummy = new Int32Array(pK).fill(NONE);
    for (let i = 0; i < n; i++) if (inS[i] === 1 && dummyOf[i] !== NONE) newDummy[dummyOf[i]!] = 0;
    let K = 0;
    for (let d = 0; d < pK; d++) {
      if (newDummy[d] === NONE) continue;
      newDummy[d] = K;
      engine.dummyCost[K] = state.dummyCost[d]! * ratio;
      v[m + K] = prevV[pm + d]! * ratio;
      K++;
    }
    engine.K = K;
    for (let i = 0; i < n; i++) {
      if (inS[i] === 1 && dummyOf[i] !== NONE) {
        const c = m + newDummy[dummyOf[i]!]!;
        rowToCol[i] = c;
        colToRow[c] = i;
      }
    }
  }

  // Re-add the other rows, in increasing index: on a full plan (cardinality cannot grow) by the
  // bidirectional search to a new dummy; while few real columns are free (a changed row on a
  // square plan frees its own column), by the bidirectional search to one of them; else by the
  // one-sided search to the nearest one.
  // Each re-added row creates at most one dummy: the searches' work arrays need no more.
  engine.workColumns = m + engine.K + readd;
  for (let i = 0; i < n; i++) {
    if (inS[i] !== 0) continue;
    if (free === 0) {
      addRowToDummy(engine, i, search);
      continue;
    }
    const before = engine.K;
    if (free > search.maxFreeTargets || !addRowToFreeColumn(engine, i, search)) {
      engine.augmentRow(i);
    }
    if (engine.K === before) free--;
  }

  // (D3): free real columns with a negative potential (freed by a departure, new, or left free
  // by the searches above).
  for (let j = 0; j < m; j++) {
    if (colToRow[j] === NONE && v[j]! < 0) repairColumnBidirectional(engine, j, search);
  }
  const result = finish(matrix, engine, t, scale, { col: keep, weight: rowU });
  // The result is the next version of a copy this call wrote (unless a search dropped it); a
  // copy started here also serves the previous state, as the version before.
  const cache = engine.columns;
  if (cache !== undefined && engine.columnsWritable) {
    if (started) {
      setColumnCopy(state, cache, cache.version);
      cache.advance(hint!.rows, hint!.cols);
    }
    setColumnCopy(result.state, cache, cache.version);
  }
  return result;
}

/** Whether `origin[k] = k` for every `k` (every line is its own origin). */
function isIdentity(origin: Int32Array): boolean {
  for (let k = 0; k < origin.length; k++) if (origin[k] !== k) return false;
  return true;
}

/**
 * Writes the entries of internal row `i` (row-major at `base` in `W`, not transposed) into the
 * columns `cache` holds (the others are not touched: their pages may never be).
 */
function updateRow(cache: ColumnCache, W: Float64Array, base: number, i: number): void {
  const { m, builtAt } = cache;
  for (let c = 0; c < m; c++) if (builtAt[c] !== 0) cache.column(c)[i] = W[base + c]!;
}

/**
 * The most dummy columns this call can end with. Every dummy belongs to a row on it, kept from
 * the previous state (at most its number of dummies) or re-added (each re-added row creates at
 * most one). Without a hint, or without the pairs' weights, any row can be re-added: `n`. With
 * both, the rows re-added are the new and listed rows, rows whose column was listed or removed,
 * and rows on a dummy (already counted), since every other kept pair is trusted.
 */
function dummyCapacity(
  state: MatchingState,
  hint: Hint | undefined,
  trust: boolean,
  n: number,
  removed: number,
): number {
  if (hint === undefined || !trust) return n;
  return Math.min(n, state.dummyCost.length + removed + hint.rows.length + hint.cols.length);
}

/**
 * The smallest `C[i][k] - rowU[i]` over the eligible entries of one internal column (entries
 * at `base + i * rowStride`): the highest potential that keeps (D1) on it. Raises `seen[0]` to
 * the largest weight read; sets `seen[1]` to 1 on a NaN entry. With `copy`, also writes the
 * entries there (`copy[copyAt + i]` for row `i`).
 */
function columnMin(
  W: Float64Array,
  base: number,
  rowStride: number,
  n: number,
  negScale: number,
  rowU: Float64Array,
  seen: Float64Array,
  copy?: Float64Array,
  copyAt = 0,
): number {
  let low = Number.POSITIVE_INFINITY;
  let max = seen[0]!;
  let nan = false;
  for (let i = 0; i < n; i++) {
    const w = W[base + i * rowStride]!;
    if (copy !== undefined) copy[copyAt + i] = w;
    if (!(w <= max)) {
      if (w > max) max = w;
      else nan = true;
    }
    const r = w * negScale - rowU[i]!;
    if (r < low && w > 0) low = r;
  }
  seen[0] = max;
  if (nan) seen[1] = 1;
  return low;
}

/**
 * Reverse breadth-first search from the free real columns over eligible pairs and matched
 * pairs: a kept row on a dummy that is reached has an augmenting path, so it leaves the kept
 * set (its dummy is dropped). Other rows' paths never pass through a row on a dummy (it can
 * only end one), so dropping it changes nothing else. `O(rows * cols)`. Returns the number of
 * rows dropped.
 */
function dropAugmentableDummyRows(
  engine: SolverState,
  inS: Uint8Array,
  dummyOf: Int32Array,
): number {
  const { n, m, rowToCol, colToRow } = engine;
  const queue = new Int32Array(m);
  const seenRow = new Uint8Array(n);
  let left = 0; // kept rows on a dummy not reached yet: the search stops when none is left
  for (let i = 0; i < n; i++) if (inS[i] === 1 && dummyOf[i] !== NONE) left++;
  const all = left;
  let head = 0;
  let tail = 0;
  for (let j = 0; j < m; j++) if (colToRow[j] === NONE) queue[tail++] = j;
  while (head < tail && left > 0) {
    const j = queue[head++]!;
    for (let i = 0; i < n; i++) {
      if (inS[i] === 0 || seenRow[i] === 1 || engine.cost(i, j) === Number.POSITIVE_INFINITY) {
        continue;
      }
      seenRow[i] = 1;
      if (dummyOf[i] !== NONE) {
        inS[i] = 0;
        dummyOf[i] = NONE;
        left--;
      } else {
        queue[tail++] = rowToCol[i]!;
      }
    }
  }
  return all - left;
}

/** The change hint in the internal orientation: the lines `imfs` has to read. */
interface Hint {
  /** Internal rows that are changed or new, increasing. */
  readonly rows: Int32Array;
  /** Internal columns that are changed or new, increasing. */
  readonly cols: Int32Array;
  /** `rowFlag[k] = 1` for the internal rows in {@link Hint.rows}. */
  readonly rowFlag: Uint8Array;
  /** `colFlag[k] = 1` for the internal columns in {@link Hint.cols}. */
  readonly colFlag: Uint8Array;
}

/**
 * Validates `changedRows`/`changedCols` (and checks them against `verifyHint` when given);
 * returns `undefined` when no hint was given.
 */
function resolveHint(
  options: ImfsOptions,
  matrix: MatchingInput,
  state: MatchingState,
  rowOrigin: Int32Array,
  colOrigin: Int32Array,
): Hint | undefined {
  const { changedRows, changedCols, verifyHint } = options;
  if (changedRows === undefined && changedCols === undefined) return undefined;
  // With default origins the new lines are those past the previous length: no scan for them.
  const rowDirty = dirtyLines(
    changedRows,
    rowOrigin,
    options.rowOrigin === undefined ? state.rows : 0,
    "options.changedRows",
  );
  const colDirty = dirtyLines(
    changedCols,
    colOrigin,
    options.colOrigin === undefined ? state.cols : 0,
    "options.changedCols",
  );
  if (verifyHint !== undefined)
    checkHint(matrix, state, verifyHint, rowDirty.flags, colDirty.flags, rowOrigin, colOrigin);
  const t = state.transposed;
  const rowSide = t ? colDirty : rowDirty;
  const colSide = t ? rowDirty : colDirty;
  return { rows: rowSide.list, cols: colSide.list, rowFlag: rowSide.flags, colFlag: colSide.flags };
}

/**
 * The changed lines of one side: `flags` is 1 for each listed line and each new line (origin
 * -1), else 0; `list` holds those lines in increasing order (one pass over the origins from
 * index `from`, below which none is new; none over the flags: the lines listed are few).
 */
function dirtyLines(
  given: ArrayLike<number> | undefined,
  origin: Int32Array,
  from: number,
  field: string,
): { flags: Uint8Array; list: Int32Array } {
  const length = origin.length;
  const flags = new Arena(0, 0, length, true).u8(length);
  const picked: number[] = [];
  for (let k = from; k < length; k++) {
    if (origin[k]! < 0) {
      flags[k] = 1;
      picked.push(k);
    }
  }
  if (given !== undefined) markGiven(given, flags, picked, field);
  const list = new Arena(0, picked.length, 0, true, false).i32(picked.length);
  for (let q = 0; q < picked.length; q++) list[q] = picked[q]!;
  list.sort();
  return { flags, list };
}

/** Validates the listed lines `given` and marks those not marked yet (in `flags` and `picked`). */
function markGiven(
  given: ArrayLike<number>,
  flags: Uint8Array,
  picked: number[],
  field: string,
): void {
  const length = flags.length;
  if (given === null || typeof given !== "object" || typeof given.length !== "number") {
    throw new InvalidInputError(
      WHERE,
      field,
      "is not an array, expected indices of the new matrix",
    );
  }
  for (let q = 0; q < given.length; q++) {
    const k = given[q]!;
    if (!Number.isInteger(k) || k < 0 || k >= length) {
      throw new InvalidInputError(
        WHERE,
        `${field}[${q}]`,
        `is ${describeValue(k)}, expected an integer index below ${length}`,
      );
    }
    if (flags[k] === 0) {
      flags[k] = 1;
      picked.push(k);
    }
  }
}

/**
 * The `verifyHint` check: every entry whose row and column are both kept and unlisted must
 * equal its origin in `previousMatrix` (or both be `<= 0`). `O(rows * cols)`.
 * @throws {InvalidInputError} at the first entry (row-major) that differs
 */
function checkHint(
  matrix: MatchingInput,
  state: MatchingState,
  previousMatrix: MatchingInput,
  rowDirty: Uint8Array,
  colDirty: Uint8Array,
  rowOrigin: Int32Array,
  colOrigin: Int32Array,
): void {
  const field = "options.verifyHint";
  if (
    previousMatrix === null ||
    typeof previousMatrix !== "object" ||
    previousMatrix.rows !== state.rows ||
    previousMatrix.cols !== state.cols ||
    previousMatrix.weights?.length !== state.rows * state.cols
  ) {
    throw new InvalidInputError(
      WHERE,
      field,
      `is not a ${state.rows} x ${state.cols} matrix, expected the matrix previous was computed for`,
    );
  }
  const { rows, cols, weights } = matrix;
  const P = previousMatrix.weights;
  const pc = state.cols;
  for (let i = 0; i < rows; i++) {
    if (rowDirty[i] === 1) continue;
    const base = i * cols;
    const prevBase = rowOrigin[i]! * pc;
    for (let j = 0; j < cols; j++) {
      if (colDirty[j] === 1) continue;
      const a = weights[base + j]!;
      const b = P[prevBase + colOrigin[j]!]!;
      if (a === b || (a <= 0 && b <= 0)) continue;
      throw new InvalidInputError(
        WHERE,
        "options.changedRows/changedCols",
        `omit row ${i} and column ${j}, whose weight changed from ${String(b)} (previous row ${rowOrigin[i]}, column ${colOrigin[j]}) to ${String(a)}`,
      );
    }
  }
}

/**
 * Checks `previous.state`; returns it with its largest absolute potential and its pairs'
 * weights (`undefined` when the state has none: the pairs are then read from the matrix).
 */
function validateState(previous: ExactMatching): {
  state: MatchingState;
  largest: number;
  pairWeight: Float64Array | undefined;
} {
  const state = (previous as { state?: MatchingState } | null)?.state;
  const bad = (detail: string): never => {
    throw new InvalidInputError(WHERE, "previous.state", detail);
  };
  if (state === null || typeof state !== "object") {
    return bad("is missing, expected the result of mfs or imfs");
  }
  const { rows, cols, transposed, scale, rowPotential, colPotential, dummyCost, assignment } =
    state;
  if (!Number.isSafeInteger(rows) || rows < 0 || !Number.isSafeInteger(cols) || cols < 0) {
    return bad("has invalid rows/cols, expected the result of mfs or imfs");
  }
  const pn = transposed ? cols : rows;
  const pm = transposed ? rows : cols;
  if (
    !(rowPotential instanceof Float64Array) ||
    !(colPotential instanceof Float64Array) ||
    !(dummyCost instanceof Float64Array) ||
    !(assignment instanceof Int32Array) ||
    rowPotential.length !== pn ||
    assignment.length !== pn ||
    colPotential.length !== pm + dummyCost.length ||
    !(scale > 0)
  ) {
    return bad("is inconsistent, expected the unmodified result of mfs or imfs");
  }
  const columns = colPotential.length;
  const seen = new Arena(0, 0, columns, true).u8(columns);
  // The largest |potential| (the rounding tolerance is relative to it), checking on the way
  // that every potential is finite; the rows' loop checks the assignment too (one pass each).
  let largest = 0;
  let finite = true; // false once a NaN is seen (+Infinity shows in `largest`)
  for (let i = 0; i < pn; i++) {
    const a = assignment[i]!;
    if (!(a >= 0 && a < columns) || seen[a] === 1) return bad("is inconsistent (assignment)");
    seen[a] = 1;
    const p = Math.abs(rowPotential[i]!);
    if (p > largest) largest = p;
    else if (!(p <= largest)) finite = false;
  }
  for (let k = 0; k < columns; k++) {
    const p = Math.abs(colPotential[k]!);
    if (p > largest) largest = p;
    else if (!(p <= largest)) finite = false;
  }
  let dummies = 0; // 0 when every dummy cost is finite (NaN or an infinity makes it NaN)
  for (let k = 0; k < dummyCost.length; k++) dummies += dummyCost[k]! * 0;
  if (!finite || !(largest <= Number.MAX_VALUE) || dummies !== 0) {
    return bad("is inconsistent (a potential is not finite)");
  }
  const { pairWeight } = state;
  const usable = pairWeight instanceof Float64Array && pairWeight.length === pn;
  return { state, largest, pairWeight: usable ? pairWeight : undefined };
}

function resolveOrigin(
  given: ArrayLike<number> | undefined,
  length: number,
  previousLength: number,
  field: string,
): Int32Array {
  const out = new Arena(0, length, 0, true, false).i32(length);
  if (given === undefined) {
    const kept = Math.min(length, previousLength);
    for (let k = 0; k < kept; k++) out[k] = k;
    out.fill(-1, kept);
    return out;
  }
  if (given === null || typeof given !== "object" || given.length !== length) {
    throw new InvalidInputError(
      WHERE,
      field,
      `has length ${String((given as { length?: unknown } | null)?.length)}, expected ${length}`,
    );
  }
  const seen = new Arena(0, 0, previousLength, true).u8(previousLength);
  for (let k = 0; k < length; k++) {
    const o = given[k]!;
    if (!Number.isInteger(o) || o < -1 || o >= previousLength) {
      throw new InvalidInputError(
        WHERE,
        `${field}[${k}]`,
        `is ${describeValue(o)}, expected -1 or an integer index below ${previousLength}`,
      );
    }
    if (o >= 0) {
      if (seen[o] === 1) {
        throw new InvalidInputError(WHERE, `${field}[${k}]`, `repeats previous index ${o}`);
      }
      seen[o] = 1;
    }
    out[k] = o;
  }
  return out;
}
