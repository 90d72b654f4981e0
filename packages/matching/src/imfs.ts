import { InvalidInputError } from "@sched/errors";
import { scaleFor } from "./cost.js";
import { Engine, NONE } from "./engine.js";
import { finish } from "./result.js";
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
}

/**
 * Incremental Maximum Flow Search: re-solves {@link mfs}'s problem after the matrix changed
 * (rows or columns added or removed, any weights changed, pairs becoming eligible or not),
 * starting from the previous optimal matching and its dual potentials.
 *
 * **Guarantee: exact.** The result is optimal for the new matrix in the same sense as
 * {@link mfs}: maximum cardinality, then maximum total weight, so its `size` equals that of
 * `mfs(matrix)` and its `weight` equals it up to floating-point rounding (the inherited
 * certificate is accepted with a tolerance of 2^-40 times the largest potential; bit-exact for
 * integer weights with `(rows + cols) * max weight < 2^40`). When several optimal matchings
 * exist, the one returned may differ from `mfs`'s. The paper's IMFS is an approximation; this
 * one is not.
 *
 * How: every kept row whose potentials still certify optimality (all its reduced costs
 * non-negative, its pair tight, its column kept) keeps its pair; the others are re-added with
 * one shortest-augmenting-path search each; a column freed with a negative potential is
 * repaired with one reverse search. No list of changed weights is needed: the check finds
 * them.
 *
 * Complexity: `O(rows * cols)` for the check, plus one `O(rows * cols)`-worst search per
 * changed, added or freed line; after one job arrives or leaves, a small fraction of a full
 * solve.
 *
 * @param matrix the new weight matrix (never modified)
 * @param previous the result of the previous {@link mfs} or `imfs` (never modified)
 * @param options how rows and columns map to the previous matrix
 * @returns the matching, its size and weight, and a `state` for the next call
 * @throws {InvalidInputError} on a malformed matrix, a malformed `previous`, or origins of the
 *   wrong length, out of range or repeated
 * @example
 * ```ts
 * const plan = mfs({ rows: 2, cols: 2, weights: new Float64Array([3, 1, 1, 2]) });
 * // a third job arrives (a new last row)
 * const next = imfs({ rows: 3, cols: 2, weights: new Float64Array([3, 1, 1, 2, 9, 0]) }, plan);
 * // next.rowToCol [-1, 1, 0], size 2, weight 11
 * ```
 */
export function imfs(
  matrix: MatchingInput,
  previous: ExactMatching,
  options: ImfsOptions = {},
): ExactMatching {
  validateShape(WHERE, matrix);
  const state = validateState(previous);
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
  const rowFrom = t ? colOrigin : rowOrigin;
  const colFrom = t ? rowOrigin : colOrigin;
  const rowStride = t ? 1 : cols;
  const colStride = t ? cols : 1;
  const oldToNewCol = new Int32Array(pm).fill(NONE);
  for (let j = 0; j < m; j++) if (colFrom[j] >= 0) oldToNewCol[colFrom[j]] = j;
  const prevU = state.rowPotential;
  const prevV = state.colPotential;
  let largest = 0; // largest |potential|: rounding tolerance is relative to it
  for (let i = 0; i < prevU.length; i++) largest = Math.max(largest, Math.abs(prevU[i]));
  for (let j = 0; j < prevV.length; j++) largest = Math.max(largest, Math.abs(prevV[j]));

  // One pass over the matrix validates it, finds its largest weight and checks, row by row,
  // whether the previous certificate still holds. The weight scale is assumed unchanged; in the
  // rare case it changes (weights crossing 2^900) the pass is repeated with the right one.
  const checkU = new Float64Array(n);
  const checkV = new Float64Array(m);
  const keep = new Int32Array(n); // kept row -> its real column, or m + previous dummy index
  const inS = new Uint8Array(n);
  const bound = new Float64Array(n);
  let scale = state.scale;
  for (;;) {
    const ratio = scale / state.scale; // a power of two: rescaling potentials is exact
    const tol = 2 ** -40 * largest * ratio;
    const negScale = -scale;
    // Columns: previous potential, or -Infinity for a new column while rows are checked (its
    // reduced costs are then +Infinity, which passes).
    for (let j = 0; j < m; j++) {
      const o = colFrom[j];
      checkV[j] = o >= 0 ? prevV[o] * ratio : Number.NEGATIVE_INFINITY;
    }
    // Per internal row: the column it would keep (NONE: not a candidate) and the bound its
    // reduced costs are checked against (+Infinity: nothing to check).
    for (let i = 0; i < n; i++) {
      const o = rowFrom[i];
      let target = NONE;
      if (o >= 0) {
        const a = state.assignment[o];
        target = a >= pm ? m + (a - pm) : oldToNewCol[a];
      }
      keep[i] = target;
      inS[i] = target === NONE ? 0 : 1;
      checkU[i] = target === NONE ? 0 : prevU[o] * ratio;
      // Row i is fine while -scale * w - v[k] >= -bound[i] for every eligible k.
      bound[i] = target === NONE ? Number.POSITIVE_INFINITY : tol - checkU[i];
    }
    // The pass follows the memory order of the weights: one external row at a time.
    let max = 0;
    let probe = 0; // becomes NaN on a NaN or infinite entry, without a branch
    if (!t) {
      for (let i = 0; i < n; i++) {
        const base = i * cols;
        const b = -bound[i];
        let ok = true;
        for (let k = 0; k < m; k++) {
          const w = W[base + k];
          if (w > max) max = w;
          probe += w * 0;
          // Well-predicted test first; eligibility (a coin toss on sparse rows) second.
          if (w * negScale - checkV[k] < b && w > 0) ok = false;
        }
        if (!ok) inS[i] = 0;
      }
    } else {
      // Transposed state: external row k is internal column k.
      for (let k = 0; k < m; k++) {
        const base = k * cols;
        const vk = checkV[k];
        for (let i = 0; i < n; i++) {
          const w = W[base + i];
          if (w > max) max = w;
          probe += w * 0;
          if (w * negScale - vk < -bound[i] && w > 0) inS[i] = 0;
        }
      }
    }
    const nan = probe !== 0;
    // Kept pairs must still be eligible and tight.
    for (let i = 0; i < n; i++) {
      const target = keep[i];
      if (inS[i] === 0 || target >= m) continue;
      const w = W[i * rowStride + target * colStride];
      if (!(w > 0 && Math.abs(w * negScale - checkU[i] - checkV[target]) <= tol)) inS[i] = 0;
      else if (checkV[target] > tol) inS[i] = 0; // (D3) (only a foreign state breaks it)
    }
    // (D1) on the dummy columns: a row on a dummy must have the largest potential of the kept
    // rows. Always true of a state from mfs/imfs on the same matrix; enforced for safety.
    let maxKeptU = Number.NEGATIVE_INFINITY;
    for (let i = 0; i < n; i++) if (inS[i] === 1 && checkU[i] > maxKeptU) maxKeptU = checkU[i];
    for (let i = 0; i < n; i++) {
      if (inS[i] === 1 && keep[i] >= m && checkU[i] < maxKeptU - tol) inS[i] = 0;
    }
    if (nan || !(max <= Number.MAX_VALUE)) {
      for (let k = 0; k < W.length; k++) {
        if (!isValidWeight(W[k])) throw badEntry(WHERE, matrix, k);
      }
    }
    const needed = scaleFor(max);
    if (needed === scale) break;
    scale = needed;
  }

  const engine = new Engine(n, m, W, { scale, rowStride, colStride });
  const { u, v, rowToCol, colToRow } = engine;
  u.set(checkU);
  v.set(checkV);
  const dummyOf = new Int32Array(n).fill(NONE); // previous dummy index of a kept row
  let anyDummy = false;
  for (let i = 0; i < n; i++) {
    if (inS[i] === 0) continue;
    const target = keep[i];
    if (target >= m) {
      dummyOf[i] = target - m;
      anyDummy = true;
    } else {
      rowToCol[i] = target;
      colToRow[target] = i;
    }
  }
  const ratio = scale / state.scale;
  for (let j = 0; j < m; j++) if (colFrom[j] < 0) v[j] = 0;
  // (D3): a free real column sits at 0; lowering a potential only raises reduced costs.
  for (let j = 0; j < m; j++) if (colToRow[j] === NONE && v[j] > 0) v[j] = 0;

  // (K): a kept row on a dummy must not reach a free real column by an alternating path
  // (the matrix change may have opened one); such rows are re-added.
  if (anyDummy) dropAugmentableDummyRows(engine, inS, dummyOf);

  // Dummies still in use, renumbered in their previous order.
  const pK = prevV.length - pm;
  const newDummy = new Int32Array(pK).fill(NONE);
  for (let i = 0; i < n; i++) if (inS[i] === 1 && dummyOf[i] !== NONE) newDummy[dummyOf[i]] = 0;
  let K = 0;
  for (let d = 0; d < pK; d++) {
    if (newDummy[d] === NONE) continue;
    newDummy[d] = K;
    engine.dummyCost[K] = state.dummyCost[d] * ratio;
    v[m + K] = prevV[pm + d] * ratio;
    K++;
  }
  engine.K = K;
  for (let i = 0; i < n; i++) {
    if (inS[i] === 1 && dummyOf[i] !== NONE) {
      const c = m + newDummy[dummyOf[i]];
      rowToCol[i] = c;
      colToRow[c] = i;
    }
  }

  // New columns: the highest potential <= 0 that keeps (D1) for the kept rows.
  for (let j = 0; j < m; j++) {
    if (colFrom[j] >= 0) continue;
    let min = 0;
    for (let i = 0; i < n; i++) {
      if (inS[i] === 0) continue;
      const r = engine.cost(i, j) - u[i];
      if (r < min) min = r;
    }
    v[j] = min;
  }

  // (D3): free real columns with a negative potential.
  for (let j = 0; j < m; j++) {
    if (colToRow[j] === NONE && v[j] < 0) engine.repairColumn(j, inS);
  }

  // Re-add the other rows, in increasing index.
  for (let i = 0; i < n; i++) if (inS[i] === 0) engine.augmentRow(i);
  return finish(matrix, engine, t, scale);
}

/**
 * Reverse breadth-first search from the free real columns over eligible pairs and matched
 * pairs: a kept row on a dummy that is reached has an augmenting path, so it leaves the kept
 * set (its dummy is dropped). Other rows' paths never pass through a row on a dummy (it can
 * only end one), so dropping it changes nothing else. `O(rows * cols)`.
 */
function dropAugmentableDummyRows(engine: Engine, inS: Uint8Array, dummyOf: Int32Array): void {
  const { n, m, rowToCol, colToRow } = engine;
  const queue = new Int32Array(m);
  const seenRow = new Uint8Array(n);
  let head = 0;
  let tail = 0;
  for (let j = 0; j < m; j++) if (colToRow[j] === NONE) queue[tail++] = j;
  while (head < tail) {
    const j = queue[head++];
    for (let i = 0; i < n; i++) {
      if (inS[i] === 0 || seenRow[i] === 1 || engine.cost(i, j) === Number.POSITIVE_INFINITY) {
        continue;
      }
      seenRow[i] = 1;
      if (dummyOf[i] !== NONE) {
        inS[i] = 0;
        dummyOf[i] = NONE;
      } else {
        queue[tail++] = rowToCol[i];
      }
    }
  }
}

function validateState(previous: ExactMatching): MatchingState {
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
  const seen = new Uint8Array(pm + dummyCost.length);
  for (let i = 0; i < pn; i++) {
    const a = assignment[i];
    if (a < 0 || a >= seen.length || seen[a] === 1) return bad("is inconsistent (assignment)");
    seen[a] = 1;
  }
  for (const potentials of [rowPotential, colPotential, dummyCost]) {
    for (let k = 0; k < potentials.length; k++) {
      if (!Number.isFinite(potentials[k]))
        return bad("is inconsistent (a potential is not finite)");
    }
  }
  return state;
}

function resolveOrigin(
  given: ArrayLike<number> | undefined,
  length: number,
  previousLength: number,
  field: string,
): Int32Array {
  const out = new Int32Array(length);
  if (given === undefined) {
    for (let k = 0; k < length; k++) out[k] = k < previousLength ? k : -1;
    return out;
  }
  if (given === null || typeof given !== "object" || given.length !== length) {
    throw new InvalidInputError(
      WHERE,
      field,
      `has length ${String((given as { length?: unknown } | null)?.length)}, expected ${length}`,
    );
  }
  const seen = new Uint8Array(previousLength);
  for (let k = 0; k < length; k++) {
    const o = given[k];
    if (!Number.isInteger(o) || o < -1 || o >= previousLength) {
      throw new InvalidInputError(
        WHERE,
        `${field}[${k}]`,
        `is ${String(o)}, expected -1 or an integer index below ${previousLength}`,
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
