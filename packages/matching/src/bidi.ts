import type { SolverState } from "./solver-state.js";

/** "No row / no column" (the value of `NONE` in solver-state.ts, kept local for the hot loops). */
const NONE = -1;
const INF = Number.POSITIVE_INFINITY;

/** Tuning of the bidirectional searches. Any values give the same, exact result. */
export interface SearchOptions {
  /**
   * The relative cost of a backward step (reading a column of the row-major matrix, one cache
   * line per entry) to a forward one (reading a row), per entry: the side with less weighted
   * work so far takes the next step. Tests use 0 (backward whenever possible) and a huge value
   * (forward only) to exercise both sides.
   * @defaultValue 3
   */
  readonly backwardCost: number;
  /**
   * {@link SearchOptions.backwardCost} in an `imfs` call that reads columns from the column
   * copy the states of a chain share (a hinted call of the same shape, every line its own
   * origin, on a state that is not transposed; see `column-cache.ts`), where a column is
   * contiguous and costs about as much as a row. Used however many columns the call actually
   * finds in the copy (a call from an older state finds only those copied by its version, a
   * call that starts a copy none at first), so that the result never depends on it.
   * @defaultValue 1
   */
  readonly copiedBackwardCost: number;
  /**
   * Adding a row while real columns are free: the search runs from both ends (the backward
   * side starting from every free column, one matrix column read each) when at most this many
   * are free, else forward only (`SolverState.augmentRow`, which then ends quickly anyway).
   * @defaultValue 4
   */
  readonly maxFreeTargets: number;
  /**
   * `mfs`'s one-sided searches scan a row through a list of its this many cheapest columns
   * (`candidates.ts`), reading the whole row only when the search comes within reach of the
   * rest; 0 reads every row in full. Either way the result is the same, to the bit.
   * @defaultValue 16
   */
  readonly candidates: number;
  /**
   * `mfs` uses the candidate lists only where they pay (enough rows left, long searches, few
   * ties; see `mfs.ts`); `false` uses them in every one-sided search (tests).
   * @defaultValue true
   */
  readonly candidateGates: boolean;
}

/** The default {@link SearchOptions} (frozen). */
export const DEFAULT_SEARCH: SearchOptions = Object.freeze({
  backwardCost: 3,
  copiedBackwardCost: 1,
  maxFreeTargets: 4,
  candidates: 16,
  candidateGates: true,
});

/** The three searches: where a path starts and where it may end. */
const TO_DUMMY = 0;
const TO_FREE = 1;
const REPAIR = 2;

/**
 * Adds the free row `r` when no real column is free: the shortest path to a new dummy column,
 * searched from both ends (see {@link bidirectionalSearch}).
 */
export function addRowToDummy(engine: SolverState, r: number, options: SearchOptions): void {
  bidirectionalSearch(engine, TO_DUMMY, r, NONE, options);
}

/**
 * Adds the free row `r` while some real columns are free: the shortest augmenting path to any
 * of them, searched from both ends. Returns `false`, with nothing modified but `u[r]`, when no
 * free real column is reachable (the caller then adds a dummy, `SolverState.augmentRow`).
 */
export function addRowToFreeColumn(
  engine: SolverState,
  r: number,
  options: SearchOptions,
): boolean {
  return bidirectionalSearch(engine, TO_FREE, r, NONE, options);
}

/** Restores (D3) at the free real column `j0` (`v[j0] < 0`), searching from both ends. */
export function repairColumnBidirectional(
  engine: SolverState,
  j0: number,
  options: SearchOptions,
): void {
  bidirectionalSearch(engine, REPAIR, NONE, j0, options);
}

/**
 * Bidirectional shortest augmenting path: the one exact repair a single event needs, searched
 * from both ends at once (internal).
 *
 * ## The three searches
 * Every processed row is matched (to a real or a dummy column) and (D1)-(D2) hold (see
 * `solver-state.ts`). Nodes are the processed rows and the columns; a row `i` leads to any column `c`
 * other than its own at the reduced cost `rc(i, c) = C[i][c] - u[i] - v[c] >= 0`, a matched
 * column leads to its row at cost 0.
 * - **Add a row to a new dummy** (`r`, only when no real column is free: a job arrives on a
 *   full plan, or a row lost its column). Cardinality cannot grow, so one row must end on a new
 *   dummy column `T` of cost `D` = the largest potential of the other processed rows (as in
 *   `SolverState.augmentRow`). `r` gets `u[r] = min(D, min_c (C[r][c] - v[c]))`, so every arc is
 *   non-negative, and the shortest path goes from `r` to `T`, entered from any row `i` (`r`
 *   included) at cost `D - u[i]`.
 * - **Add a row to a free column** (`r`, while real columns are free). Cardinality grows by
 *   one: the shortest path from `r` to any free real column `f` (a target `T` that every free
 *   column enters at cost 0). `r` gets `u[r] = min_c (C[r][c] - v[c])`. The backward side
 *   starts from every free column at once (one matrix column read each), so this is used when
 *   few are free (`maxFreeTargets`): a row changed on a full square plan (its column is the
 *   only free one), or the last rows of `mfs`.
 * - **Repair a column** (`j0`: a free real column with `v[j0] < 0`, after its row left or for
 *   a new column). As in `SolverState.repairColumn`: a super-source `S` leads to every matched
 *   column `k` at cost `-v[k]` (freeing it) and to `j0` at `-v[j0]` (just raising it); the
 *   shortest path from `S` to `j0` is the cheapest repair.
 *
 * ## The search
 * The forward search settles columns in order of their distance from the source (reading one
 * matrix row per settled column, contiguous), the backward search settles rows in order of their
 * distance to the target (reading one matrix column per settled row, strided). The side with
 * less (weighted) work so far takes the next step. A complete path is checked whenever a row is
 * reached from the second side: when the forward search settles a row's column, with the row's
 * tentative backward label, and when the backward search settles a row, with its column's
 * tentative forward label (tentative labels are lengths of real paths); and, adding a row to a
 * free column, when the forward search settles a free column. It is also checked as soon as a
 * label drops: once over the first labels of both sides, then whenever a forward relaxation
 * lowers a column's label (with its row's backward label) or a backward one lowers a row's
 * (with its column's forward label). These extra checks only find real paths earlier; with
 * integer weights, whose shortest path after one changed line usually has length 0, they end
 * the search at the first such path instead of after the columns tied at 0 that come before it
 * in index order (1 to 11 rows read forward instead of 5 to 28 after one changed row or column
 * of the 1000 x 1000 benchmark plans). `mu`, the shortest complete path
 * seen, is kept; the searches stop when `topF + topB >= mu` (the smallest unsettled labels of
 * the two sides). Then `mu = delta`, the shortest distance: on a shortest path every node has
 * `d_f < topF` (forward-settled) or `d_b < topB` (backward-settled), so some arc `x -> y` leads
 * from a forward-settled node to a backward-settled one. If `y`'s row was settled backward
 * after `x` was reached, `x` had already relaxed `y`, and the check at that settling saw a
 * path no longer than this one; if before, expanding `y` relaxed `x`'s backward label (or `x`
 * was already settled backward, with `d_b(x) <= rc + d_b(y)`), and the check when `x` was
 * reached or settled saw it. Matched arcs (a column to its row) and the arcs from `S`, from `r`
 * and into `T` or `j0`, which are initial labels, are covered the same way.
 *
 * ## The potential update (why the certificate survives)
 * With `theta = min(topF, delta)`, every node with `d_f < theta` is forward-settled and every
 * node with `d_b < delta - theta` is backward-settled (as `delta <= topF + topB`). Then
 *
 *   P(x) = d_f(x)                          if d_f(x) < theta,
 *          max(delta - d_b(x), theta)      otherwise,
 *
 * is computable from the settled labels, is a feasible potential (`P(y) <= P(x) + rc(x, y)` on
 * every arc: check the four cases of `d_f` against `theta`, using `d_f(y) <= d_f(x) + rc`,
 * `d_b(x) <= rc + d_b(y)` and `delta <= d_f(x) + rc + d_b(y)`), and equals `d_f` on the
 * shortest path, whose arcs are therefore tight. A row has the potential of its column (the
 * matched arc has cost 0 both ways), and `P <= d_f` everywhere. The update is the one of the
 * one-sided searches with `min(d, delta)` replaced by `P`:
 * - add a row: `u[i] += delta - P(i)`, `v[c] -= delta - P(c)` (`P(r) = 0`, `P(T) = delta`, so
 *   a new dummy `T` gets `v = 0`; potentials of columns only go down; a free column has
 *   `d_b = 0`, so `P = delta` and its potential does not move);
 * - repair a column: `v[c] += P(c)`, `u[i] -= P(i)`; a matched column ends at
 *   `v + P <= v + d_f <= v - v = 0`, `j0` at `v[j0] + delta` (0 when it stays free, the source
 *   column of the path at exactly 0), and other free real columns that rose above 0 are put back
 *   to 0 (lowering a column potential only raises reduced costs).
 * New reduced costs are `rc + P(row) - P(column) >= 0` and 0 on the new matched pairs.
 *
 * With ties (zero reduced costs) the forward and backward halves can share a node, making the
 * path a walk with a zero-cost cycle; the cycle is cut out (its arcs stay tight), which leaves a
 * simple shortest path.
 *
 * Cardinality: adding a row to a dummy keeps `nu` (no free real column exists, so (K) needs
 * exactly one more dummy); adding it to a free column raises `nu` by one with the same dummies;
 * repairing a column moves "free" along an even alternating path, which keeps the real part's
 * size, as a row on a dummy cannot reach a free real column (the caller ensures it).
 *
 * `O(rows + cols)` plus `O(cols)` per forward and `O(rows)` per backward step (and, to a free
 * column, `O(rows)` per free column to start).
 *
 * @returns `false` only when adding a row to a free column finds none reachable (nothing
 *   modified but `u[r]`)
 */
function bidirectionalSearch(
  engine: SolverState,
  kind: number,
  r: number,
  j0: number,
  options: SearchOptions,
): boolean {
  const { n, m, W, u, v, colToRow, rowToCol, dummyCost } = engine;
  const K = engine.K;
  const M = m + K; // columns, dummies included
  const addRow = kind !== REPAIR;
  const rowStride = engine.rowStride;
  const cs = engine.colStride;
  const negScale = -engine.scale;
  // The work arrays live in the engine (allocated once per solve).
  engine.twoSided();
  // Forward side: labels on columns; a settled matched column passes its label to its row.
  const fLabel = engine.label;
  const pathRow = engine.pathRow; // the row that gave a column its label
  const fSettled = engine.fSettled;
  // The search loop reads every column in index order (contiguous, no index list): an unsettled
  // column has key = its label and vs = its potential; a settled (or excluded) one has key = +Inf
  // (never the minimum) and vs = -Inf (so that its new label, +Inf, never wins).
  const { key, vs } = engine;
  // Backward side: labels on rows (distance to the target); a settled row passes it to its column.
  const { bLabel, bNext, bOpen, bColLabel } = engine;
  bColLabel.fill(INF, 0, M);

  let mu = INF; // length of the shortest complete path seen
  // That path: forward part up to meetRow, backward chain (bNext) after it; or, to a free
  // column, the forward chain ending at meetCol (meetRow NONE).
  let meetRow = NONE;
  let meetCol = NONE;
  let D = 0;
  let topF = INF;
  let best = NONE;

  // The backward side's first labels come first, and the smallest of them (`topB`) on the way:
  // then the forward side's first labels can check their complete paths (a column, its row,
  // then that row's backward chain) in the same pass. With integer weights the shortest path
  // often has length 0 and is found here.
  let topB = INF;
  let bestRow = NONE;
  if (addRow) {
    // r's arcs: u[r] is the largest value that keeps them (to every column, and to T when
    // adding to a dummy) non-negative. Raw labels (with u[r] = 0) go to `key` first.
    let ur = INF;
    if (kind === TO_DUMMY) {
      let maxU = Number.NEGATIVE_INFINITY;
      for (let i = 0; i < n; i++) {
        const matched = rowToCol[i] !== NONE;
        bOpen[i] = matched ? 1 : 0;
        if (matched && u[i]! > maxU) maxU = u[i]!;
      }
      D = maxU === Number.NEGATIVE_INFINITY ? 0 : maxU;
      ur = D;
    }
    const base = r * rowStride;
    for (let c = 0; c < m; c++) {
      const w = W[base + c * cs]!;
      const t = w > 0 ? w * negScale - v[c]! : INF;
      key[c] = t;
      if (t < ur) ur = t;
    }
    for (let c = m; c < M; c++) {
      const t = dummyCost[c - m]! - v[c]!;
      key[c] = t;
      if (t < ur) ur = t;
    }
    if (ur === INF) return false; // to a free column: r has no eligible pair at all
    u[r] = ur;
    if (kind === TO_DUMMY) {
      bOpen[r] = 1;
      for (let i = 0; i < n; i++) {
        const b = D - u[i]!;
        bLabel[i] = b;
        bNext[i] = M; // the new dummy (only read for open rows)
        if (bOpen[i] === 1 && b < topB) {
          topB = b;
          bestRow = i;
        }
      }
      mu = D - ur; // r itself takes the new dummy
      meetRow = r;
    } else {
      // Every free real column is a target at distance 0: the backward labels start from
      // them (one column read each); r's own arcs to them are complete paths already.
      let first = NONE;
      let free = 0;
      for (let f = 0; f < m; f++) {
        if (colToRow[f] !== NONE) continue;
        if (free++ === 0) first = f;
        bColLabel[f] = 0;
        const t = key[f]! - ur; // r's label of f (as the forward labels below)
        if (t < mu) {
          mu = t;
          meetCol = f;
        }
      }
      if (free === 1) {
        // One free column (a changed row on a full square plan): one pass does it all.
        bestRow = startFromColumn(engine, first, bLabel, bNext, bOpen);
      } else {
        for (let i = 0; i < n; i++) bOpen[i] = rowToCol[i] !== NONE ? 1 : 0;
        bLabel.fill(INF);
        bNext.fill(NONE);
        for (let f = first; f < m; f++) {
          if (colToRow[f] !== NONE) continue;
          const { src, base: colBase, step } = columnAt(engine, f);
          const shift = -v[f]!;
          for (let i = 0; i < n; i++) {
            const w = src[colBase + i * step]!;
            const t = shift + w * negScale - u[i]!;
            if (t < bLabel[i]! && w > 0 && bOpen[i] === 1) {
              bLabel[i] = t;
              bNext[i] = f;
            }
          }
        }
        bestRow = argMinOpen(bLabel, bOpen, n);
      }
      topB = bestRow === NONE ? INF : bLabel[bestRow]!;
    }
    for (let c = 0; c < M; c++) {
      const t = key[c]! - ur; // +Infinity stays
      key[c] = t;
      fLabel[c] = t;
      pathRow[c] = t === INF ? NONE : r;
      fSettled[c] = 0;
      vs[c] = v[c]!;
      if (t < topF) {
        topF = t;
        best = c;
      }
      const q = colToRow[c]!;
      if (q !== NONE && t + bLabel[q]! < mu) {
        mu = t + bLabel[q]!;
        meetRow = q;
      }
    }
  } else {
    // Repairing j0: the super-source frees any matched column k at cost -v[k].
    mu = -v[j0]!; // just raise v[j0] to 0 (meetRow stays NONE)
    bColLabel[j0] = 0;
    const { src, base: colBase, step } = columnAt(engine, j0);
    const shift = -v[j0]!;
    for (let i = 0; i < n; i++) {
      const matched = rowToCol[i] !== NONE;
      bOpen[i] = matched ? 1 : 0;
      const w = src[colBase + i * step]!;
      const b = matched && w > 0 ? shift + w * negScale - u[i]! : INF;
      bLabel[i] = b;
      bNext[i] = j0;
      if (matched && b < topB) {
        topB = b;
        bestRow = i;
      }
    }
    for (let c = 0; c < M; c++) {
      const q = colToRow[c]!;
      const t = c !== j0 && q !== NONE ? -v[c]! : INF;
      key[c] = t;
      fLabel[c] = t;
      pathRow[c] = NONE;
      fSettled[c] = 0;
      vs[c] = v[c]!;
      if (t < topF) {
        topF = t;
        best = c;
      }
      if (q !== NONE && t + bLabel[q]! < mu) {
        mu = t + bLabel[q]!;
        meetRow = q;
      }
    }
    key[j0] = INF;
    vs[j0] = Number.NEGATIVE_INFINITY;
  }
  let open = kind === REPAIR ? M - 1 : M; // unsettled columns (work measure)
  // The relaxations report the shortest complete path they see in `meet` ([length, row]).
  const meet = Float64Array.of(mu, NONE);

  const backwardCost = engine.copyCall ? options.copiedBackwardCost : options.backwardCost;
  let fWork = 0;
  let bWork = 0;
  while (topF + topB < mu) {
    if (topB === INF || (topF !== INF && fWork <= bWork)) {
      // Forward step: settle column c, read its row.
      const c = best;
      const dc = topF;
      fSettled[c] = 1;
      key[c] = INF;
      vs[c] = Number.NEGATIVE_INFINITY;
      open--;
      fWork += open;
      const i = colToRow[c]!;
      topF = INF;
      best = NONE;
      if (i === NONE) {
        // A free real column: the end of a path when adding a row to one (then dc >= mu ends
        // the loop), else a dead end (a free column other than j0).
        if (kind === TO_FREE && dc < mu) {
          mu = dc;
          meetCol = c;
          meetRow = NONE;
        }
        best = argMin(key, M);
        topF = best === NONE ? INF : key[best]!;
        continue;
      }
      if (dc + bLabel[i]! < mu) {
        mu = dc + bLabel[i]!;
        meetRow = i;
      }
      const shift = dc - u[i]!;
      const base = i * rowStride;
      meet[0] = mu;
      best = relaxRow(W, base, cs, m, shift, negScale, key, vs, fLabel, pathRow, i, engine, meet);
      if (M > m) best = relaxDummies(dummyCost, m, M, shift, key, vs, fLabel, pathRow, i, best);
      topF = best === NONE ? INF : key[best]!;
      if (meet[0]! < mu) {
        mu = meet[0]!;
        meetRow = meet[1]!;
      }
    } else {
      // Backward step: settle row i, label its column, read that column.
      const i = bestRow;
      const di = topB;
      bOpen[i] = 0;
      const ownCol = rowToCol[i]!;
      const fi = i === r ? 0 : fLabel[ownCol]!; // tentative forward label: a real path too
      if (fi + di < mu) {
        mu = fi + di;
        meetRow = i;
      }
      topB = INF;
      bestRow = NONE;
      bWork += backwardCost * n;
      if (ownCol === NONE) {
        // r (adding a row to a dummy): no column to pass its label to.
        bestRow = argMinOpen(bLabel, bOpen, n);
      } else {
        const c = ownCol;
        bColLabel[c] = di;
        const shift = di - v[c]!;
        meet[0] = mu;
        const column = c < m ? columnAt(engine, c) : undefined;
        bestRow =
          column === undefined
            ? relaxDummyColumn(shift + dummyCost[c - m]!, n, u, bOpen, bLabel, bNext, c)
            : relaxColumn(
                column.src,
                column.base,
                column.step,
                n,
                shift,
                negScale,
                u,
                bOpen,
                bLabel,
                bNext,
                c,
                engine,
                r,
                meet,
              );
        if (meet[0]! < mu) {
          mu = meet[0]!;
          meetRow = meet[1]!;
        }
      }
      topB = bestRow === NONE ? INF : bLabel[bestRow]!;
    }
  }
  if (mu === INF) return false; // to a free column: none reachable (nothing modified but u[r])

  // The path as (row, its new column) pairs from its source to the terminal.
  const raiseOnly = meetRow === NONE && meetCol === NONE;
  const walkRow: number[] = [];
  const walkCol: number[] = [];
  let source = NONE; // repairing a column: the column the path frees
  if (raiseOnly) {
    // No path: v[j0] is just raised (below).
  } else if (meetRow === NONE) {
    // To a free column, found by the forward side alone.
    for (let c = meetCol; ; ) {
      const p = pathRow[c]!;
      walkRow.push(p);
      walkCol.push(c);
      if (p === r) break;
      c = rowToCol[p]!;
    }
    walkRow.reverse();
    walkCol.reverse();
  } else {
    for (let x = meetRow; ; ) {
      if (x === r) break;
      const c = rowToCol[x]!;
      const p = pathRow[c]!;
      if (p === NONE) {
        source = c;
        break;
      }
      walkRow.push(p);
      walkCol.push(c);
      x = p;
    }
    walkRow.reverse();
    walkCol.reverse();
    for (let x = meetRow, c = bNext[meetRow]!; ; ) {
      walkRow.push(x);
      walkCol.push(c);
      if (c === j0 || c === M || (c < m && colToRow[c] === NONE)) break; // the target
      x = colToRow[c]!;
      c = bNext[x]!;
    }
  }
  const len = cutCycles(walkRow, walkCol, n, engine.walkAt);
  const cache = engine.columns;
  if (cache !== undefined && engine.checkColumns && !eligibleWalk(engine, walkRow, walkCol, len)) {
    // The column copy differs from the matrix (only an untruthful change hint can
    // cause this): search again without it, reading the matrix itself.
    engine.columns = undefined;
    engine.startColumns = false;
    return bidirectionalSearch(engine, kind, r, j0, options);
  }

  // Potentials (see the header): P per column, a row takes its column's (one pass over the
  // columns, each matched row updated through its column).
  const delta = mu;
  const theta = Math.min(topF, delta);
  for (let c = 0; c < M; c++) {
    let P: number;
    if (fSettled[c] === 1 && fLabel[c]! < theta) P = fLabel[c]!;
    else if (bColLabel[c] !== INF) P = Math.max(delta - bColLabel[c]!, theta);
    else P = theta;
    const i = colToRow[c]!;
    if (addRow) {
      v[c]! -= delta - P;
      if (i !== NONE) u[i]! += delta - P;
    } else {
      v[c]! += P;
      if (i !== NONE) u[i]! -= P;
      else if (c !== j0 && c < m && v[c]! > 0) v[c] = 0;
    }
  }
  if (addRow) {
    u[r]! += delta;
    if (kind === TO_DUMMY) {
      dummyCost[K] = D;
      v[M] = 0;
      colToRow[M] = NONE;
      engine.K = K + 1;
    }
  }

  if (raiseOnly) {
    v[j0] = 0; // raised (exactly 0; it is 0 up to rounding)
    return true;
  }
  if (source !== NONE) colToRow[source] = NONE;
  for (let q = 0; q < len; q++) {
    rowToCol[walkRow[q]!] = walkCol[q]!;
    colToRow[walkCol[q]!] = walkRow[q]!;
  }
  if (source !== NONE) v[source] = 0; // exactly 0 (it is 0 up to rounding)
  return true;
}

/**
 * Cuts the cycles out of an alternating walk given as (row, its new column) pairs in walk
 * order: when a row occurs again, the moves from its first occurrence up to (not including) the
 * new one are dropped, so every row keeps only its last move and the walk stays consistent (each
 * kept move's column was the old column of the next kept row). The result is compacted in place;
 * returns its length. Rows are integers in `[0, rows)`; `at` is a work array of at least `rows`
 * entries, all NONE (-1), and left so (the searches keep one per solve instead of allocating
 * one per walk).
 */
export function cutCycles(
  walkRow: number[],
  walkCol: number[],
  rows: number,
  at: Int32Array = new Int32Array(rows).fill(NONE),
): number {
  let len = 0;
  for (let q = 0; q < walkRow.length; q++) {
    const x = walkRow[q]!;
    const c = walkCol[q]!;
    const prev = at[x]!;
    if (prev !== NONE) {
      for (let z = prev; z < len; z++) at[walkRow[z]!] = NONE;
      len = prev;
    }
    walkRow[len] = x;
    walkCol[len] = c;
    at[x] = len;
    len++;
  }
  for (let q = 0; q < len; q++) at[walkRow[q]!] = NONE; // all NONE again, for the next walk
  return len;
}

// The hot loops, as small functions of their own: each is optimized once with stable type
// feedback, whichever kind of repair calls it (one large function deoptimized repeatedly when
// the two repairs alternated). Each returns the index with the smallest label afterwards
// (lowest index on ties), or NONE when every label is +Infinity.

/**
 * Forward step: relaxes every column from row `i` (its entries at `base`, `cs` apart). A
 * column whose label drops, followed by its row's backward chain, is a complete path: the
 * shortest one below `meet[0]` goes to `meet` as [length, that row].
 */
function relaxRow(
  C: Float64Array,
  base: number,
  cs: number,
  m: number,
  shift: number,
  negScale: number,
  key: Float64Array,
  vs: Float64Array,
  fLabel: Float64Array,
  pathRow: Int32Array,
  i: number,
  engine: SolverState,
  meet: Float64Array,
): number {
  const { colToRow, bLabel } = engine;
  let low = Number.POSITIVE_INFINITY;
  let best = NONE;
  for (let j = 0; j < m; j++) {
    let s = key[j]!;
    const w = C[base + j * cs]!;
    const t = shift + w * negScale - vs[j]!;
    if (t < s && w > 0) {
      s = t;
      key[j] = t;
      fLabel[j] = t;
      pathRow[j] = i;
      const q = colToRow[j]!;
      if (q !== NONE && t + bLabel[q]! < meet[0]!) {
        meet[0] = t + bLabel[q]!;
        meet[1] = q;
      }
    }
    if (s < low) {
      low = s;
      best = j;
    }
  }
  return best;
}

/** Forward step, dummy columns `m .. M-1` (cost independent of the row); `best` so far. */
function relaxDummies(
  dummyCost: Float64Array,
  m: number,
  M: number,
  shift: number,
  key: Float64Array,
  vs: Float64Array,
  fLabel: Float64Array,
  pathRow: Int32Array,
  i: number,
  best: number,
): number {
  let low = best === NONE ? Number.POSITIVE_INFINITY : key[best]!;
  for (let j = m; j < M; j++) {
    let s = key[j]!;
    const t = shift + dummyCost[j - m]! - vs[j]!;
    if (t < s) {
      s = t;
      key[j] = t;
      fLabel[j] = t;
      pathRow[j] = i;
    }
    if (s < low) {
      low = s;
      best = j;
    }
  }
  return best;
}

/**
 * Backward step: relaxes every open row through real column `c` (its entries at `colBase`).
 * A row whose label drops, reached by the forward side (tentative label of its column; 0 for
 * the source row `r`), is a complete path: the shortest one below `meet[0]` goes to `meet`.
 */
function relaxColumn(
  C: Float64Array,
  colBase: number,
  rowStride: number,
  n: number,
  shift: number,
  negScale: number,
  u: Float64Array,
  bOpen: Uint8Array,
  bLabel: Float64Array,
  bNext: Int32Array,
  c: number,
  engine: SolverState,
  r: number,
  meet: Float64Array,
): number {
  const { rowToCol, label: fLabel } = engine;
  let low = Number.POSITIVE_INFINITY;
  let best = NONE;
  for (let q = 0; q < n; q++) {
    if (bOpen[q] === 0) continue;
    let s = bLabel[q]!;
    const w = C[colBase + q * rowStride]!;
    const t = shift + w * negScale - u[q]!;
    if (t < s && w > 0) {
      s = t;
      bLabel[q] = t;
      bNext[q] = c;
      const through = (q === r ? 0 : fLabel[rowToCol[q]!]!) + t;
      if (through < meet[0]!) {
        meet[0] = through;
        meet[1] = q;
      }
    }
    if (s < low) {
      low = s;
      best = q;
    }
  }
  return best;
}

/** Backward step through dummy column `c` (`t0` = label + cost - potential of the column). */
function relaxDummyColumn(
  t0: number,
  n: number,
  u: Float64Array,
  bOpen: Uint8Array,
  bLabel: Float64Array,
  bNext: Int32Array,
  c: number,
): number {
  let low = Number.POSITIVE_INFINITY;
  let best = NONE;
  for (let q = 0; q < n; q++) {
    if (bOpen[q] === 0) continue;
    let s = bLabel[q]!;
    const t = t0 - u[q]!;
    if (t < s) {
      s = t;
      bLabel[q] = t;
      bNext[q] = c;
    }
    if (s < low) {
      low = s;
      best = q;
    }
  }
  return best;
}

/**
 * The backward side's start from the one free real column `f` (adding a row to a free column):
 * marks the open rows (the matched ones), labels each with its reduced cost to `f` (`+Infinity`
 * when not eligible), and returns the open row with the smallest label (lowest index on ties;
 * NONE when none is finite). One pass over the rows and the column.
 */
function startFromColumn(
  engine: SolverState,
  f: number,
  bLabel: Float64Array,
  bNext: Int32Array,
  bOpen: Uint8Array,
): number {
  const { n, u, v, rowToCol } = engine;
  const { src, base: colBase, step } = columnAt(engine, f);
  const negScale = -engine.scale;
  const shift = -v[f]!;
  let low = INF;
  let best = NONE;
  for (let i = 0; i < n; i++) {
    const open = rowToCol[i] !== NONE;
    bOpen[i] = open ? 1 : 0;
    const w = src[colBase + i * step]!;
    const t = shift + w * negScale - u[i]!;
    if (t < INF && w > 0 && open) {
      bLabel[i] = t;
      bNext[i] = f;
      if (t < low) {
        low = t;
        best = i;
      }
    } else {
      bLabel[i] = INF;
      bNext[i] = NONE;
    }
  }
  return best;
}

/**
 * Where the backward side reads real column `c`: entry of row `i` at `src[base + i * step]`.
 * From the engine's column-major copy when it has one (`SolverState.columnSource` copies the
 * column there on its first read, or patches the rows a read-only copy has stale), else from
 * the contiguous copy of a changed column `imfs` made, else strided from the matrix. Every source holds the same values (see `imfs`), so the
 * search is the same whichever it reads.
 */
function columnAt(
  engine: SolverState,
  c: number,
): { src: Float64Array; base: number; step: number } {
  const source = engine.columnSource(c);
  if (source === 1) return { src: engine.columns!.column(c), base: 0, step: 1 };
  if (source === 2) return { src: engine.patchedColumn, base: 0, step: 1 };
  if (c === engine.copiedCol) return { src: engine.colCopy, base: 0, step: 1 };
  return { src: engine.W, base: c * engine.colStride, step: engine.rowStride };
}

/**
 * Whether every new pair of a walk on a real column is eligible in the matrix itself (`W`): the
 * check that an inherited column copy agreed with the matrix along the path found.
 */
function eligibleWalk(
  engine: SolverState,
  walkRow: number[],
  walkCol: number[],
  len: number,
): boolean {
  const { m, W, rowStride, colStride } = engine;
  for (let q = 0; q < len; q++) {
    const c = walkCol[q]!;
    if (c < m && !(W[walkRow[q]! * rowStride + c * colStride]! > 0)) return false;
  }
  return true;
}

/** Index of the smallest of `a[0 .. length-1]` (NONE if all are +Infinity). */
function argMin(a: Float64Array, length: number): number {
  let low = Number.POSITIVE_INFINITY;
  let best = NONE;
  for (let k = 0; k < length; k++) {
    if (a[k]! < low) {
      low = a[k]!;
      best = k;
    }
  }
  return best;
}

/** Index of the smallest `a[k]` with `open[k] = 1` (NONE if none is finite). */
function argMinOpen(a: Float64Array, open: Uint8Array, length: number): number {
  let low = Number.POSITIVE_INFINITY;
  let best = NONE;
  for (let k = 0; k < length; k++) {
    if (open[k] === 1 && a[k]! < low) {
      low = a[k]!;
      best = k;
    }
  }
  return best;
}
