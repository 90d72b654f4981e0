import { CandidateLists } from "./candidates.js";
import { TIGHT_CAP } from "./cost.js";
import { NONE, type SolverState } from "./solver-state.js";

const INF = Number.POSITIVE_INFINITY;

/** Rounds of augmenting paths on tight pairs (each `O(tight pairs)`). */
const TIGHT_ROUNDS = 4;
/**
 * Columns kept per row in the lists of augmenting row reduction (at most: fewer when `mfs`'s
 * candidate lists are shorter, none when it has none).
 */
const ROW_REDUCTION_LIST = 8;

/**
 * The start of `mfs`, before the shortest-path phase: Jonker-Volgenant's column reduction and
 * reduction transfer, a maximum matching on the tight pairs, then augmenting row reduction. It
 * assigns most rows in a few passes over the matrix (`O(n m)`) so that only a few are left for
 * the Dijkstra phase. The engine must read rows contiguously (`colStride = 1`).
 *
 * 1. Column reduction (when `colMax` is given: square or nearly square matrices): every column
 *    gets the potential of its cheapest entry, `v[j] = -scale * colMax[j]`, and goes to its
 *    argmin row if that row has no column yet. Reduction transfer: a row that won exactly one
 *    column passes its slack to that column (its second-best reduced cost).
 * 2. Tight pairs: one pass gives every row its smallest reduced cost `min_j (C[i][j] - v[j])`
 *    and up to 32 columns that reach it (the tight pairs, where `u[i]` would make the reduced
 *    cost 0). Free rows take a free tight column greedily, then a few rounds of augmenting
 *    paths over tight pairs (Kuhn's algorithm, one visit per column per round) match more. This
 *    is what makes integer weights cheap: with weights 1-100 on 1000 x 1000, the tight pairs
 *    (about 10 per row) almost always hold a perfect matching, and the whole problem is solved
 *    here, where the shortest-path phase would need about 500 searches.
 * 3. Augmenting row reduction (two passes over the rows still free, each capped at about `n`
 *    steps): a free row takes its best column, lowering that column's potential by the gap to
 *    its second best, and the row it displaces is tried next.
 *
 * Afterwards every assigned row `i` satisfies `C[i][x_i] - v[x_i] = min_j (C[i][j] - v[j])`,
 * and `u[i]` is set to that value, so (D1)-(D2) hold for the assigned rows; matched columns
 * have `v <= 0` (costs are `<= 0` and potentials only decrease). Free columns keep `v = 0`
 * without column reduction (augmenting row reduction only lowers the potential of a column it
 * assigns, and an assigned column stays assigned); with it they may end below 0, which the
 * caller repairs after the Dijkstra phase (`SolverState.repairColumn`).
 *
 * Ties: lowest row index in column reduction, lowest column index in the tight pairs (and the
 * greedy and augmenting rounds try them in that order, rows in increasing index), lowest
 * column index in row reduction.
 */
export function jvInit(
  engine: SolverState,
  colMax: Float64Array | undefined,
  argRow: Int32Array | undefined,
  /** Columns per row in the lists of augmenting row reduction (0: none; same result). */
  listLength = ROW_REDUCTION_LIST,
  /**
   * Each row's columns of largest weight (`scanWeights`, without column reduction): its tight
   * columns while every potential is 0, when the scale is 1 (`-w - 0` is then exactly `-w`).
   */
  tightCols?: Int32Array,
  tightCount?: Int32Array,
): void {
  const { n, W, u, v, rowToCol, rowStride } = engine;
  const reduced = colMax !== undefined && argRow !== undefined;
  if (reduced) columnReduction(engine, colMax, argRow);
  if (!reduced && engine.scale === 1 && tightCols !== undefined && tightCount !== undefined) {
    tightMatching(engine, tightCols, tightCount);
  } else {
    tightMatching(engine);
  }
  rowReduction(engine, Math.min(listLength, ROW_REDUCTION_LIST));
  const negScale = -engine.scale;
  for (let i = 0; i < n; i++) {
    const j = rowToCol[i]!;
    if (j !== NONE) u[i] = W[i * rowStride + j]! * negScale - v[j]!;
  }
}

/** Column reduction and reduction transfer (step 1 of {@link jvInit}). */
function columnReduction(engine: SolverState, colMax: Float64Array, argRow: Int32Array): void {
  const { n, m, W, v, rowToCol, colToRow, rowStride } = engine;
  const negScale = -engine.scale;
  const matches = new Int32Array(n);
  for (let j = 0; j < m; j++) {
    const i = argRow[j]!;
    if (i === NONE) continue; // column with no eligible pair: v stays 0, free
    v[j] = colMax[j]! * negScale;
    if (matches[i]!++ === 0) {
      rowToCol[i] = j;
      colToRow[j] = i;
    }
  }
  // Reduction transfer: a row that won exactly one column passes its slack to that column.
  for (let i = 0; i < n; i++) {
    if (matches[i] !== 1) continue;
    const j1 = rowToCol[i]!;
    const base = i * rowStride;
    let min = INF;
    for (let j = 0; j < m; j++) {
      const w = W[base + j]!;
      const r = w * negScale - v[j]!;
      if (r < min && w > 0 && j !== j1) min = r;
    }
    if (min !== INF) v[j1]! -= min;
  }
}

/** The maximum matching on tight pairs (step 2 of {@link jvInit}). */
function tightMatching(engine: SolverState, known?: Int32Array, knownCount?: Int32Array): void {
  const { n, m, W, v, rowToCol, colToRow, rowStride } = engine;
  const negScale = -engine.scale;
  const adj = known ?? new Int32Array(n * TIGHT_CAP);
  const degree = knownCount ?? new Int32Array(n);
  let free = 0;
  for (let i = 0; i < n; i++) {
    let nt: number;
    if (knownCount !== undefined) {
      nt = knownCount[i]!;
    } else {
      const base = i * rowStride;
      let low = INF;
      nt = 0;
      for (let j = 0; j < m; j++) {
        const w = W[base + j]!;
        const r = w * negScale - v[j]!;
        if (r <= low && w > 0) {
          if (r < low) {
            low = r;
            nt = 0;
          }
          if (nt < TIGHT_CAP) adj[i * TIGHT_CAP + nt++] = j;
        }
      }
      degree[i] = nt;
    }
    if (rowToCol[i] !== NONE) continue;
    // Greedy: the first free tight column.
    for (let q = 0; q < nt; q++) {
      const j = adj[i * TIGHT_CAP + q]!;
      if (colToRow[j] === NONE) {
        rowToCol[i] = j;
        colToRow[j] = i;
        break;
      }
    }
    if (rowToCol[i] === NONE && nt > 0) free++;
  }
  if (free === 0) return;
  // Augmenting paths over tight pairs (depth first, iterative): a column is visited at most
  // once per round, so a round costs O(tight pairs).
  const seen = new Int32Array(m);
  const stackRow = new Int32Array(n);
  const stackNext = new Int32Array(n);
  const stackCol = new Int32Array(n);
  for (let round = 1; round <= TIGHT_ROUNDS && free > 0; round++) {
    let grown = false;
    for (let r = 0; r < n; r++) {
      if (rowToCol[r] !== NONE || degree[r] === 0) continue;
      let top = 0;
      stackRow[0] = r;
      stackNext[0] = 0;
      let found = -1;
      while (top >= 0) {
        const i = stackRow[top]!;
        if (stackNext[top] === degree[i]) {
          top--;
          continue;
        }
        const j = adj[i * TIGHT_CAP + stackNext[top]!++]!;
        if (seen[j] === round) continue;
        seen[j] = round;
        stackCol[top] = j;
        const owner = colToRow[j]!;
        if (owner === NONE) {
          found = top;
          break;
        }
        top++;
        stackRow[top] = owner;
        stackNext[top] = 0;
      }
      if (found < 0) continue;
      for (let q = found; q >= 0; q--) {
        const i = stackRow[q]!;
        const j = stackCol[q]!;
        rowToCol[i] = j;
        colToRow[j] = i;
      }
      free--;
      grown = true;
    }
    if (!grown) break;
  }
}

/** Augmenting row reduction (step 3 of {@link jvInit}). */
function rowReduction(engine: SolverState, listLength: number): void {
  const { n, m, W, v, rowToCol, colToRow, rowStride } = engine;
  const negScale = -engine.scale;
  const free = new Int32Array(n);
  let numFree = 0;
  for (let i = 0; i < n; i++) if (rowToCol[i] === NONE) free[numFree++] = i;
  if (numFree === 0) return;
  // A row met again (a bidding war: rows that all want the same columns displace one another,
  // and the same few rows come back again and again) is read through a list of its cheapest
  // columns, built at its second visit (`candidates.ts`; potentials only fall here, so the
  // list's bound stays a bound), when the list answers for the whole row: its second best below
  // the bound of the columns left out. The same two best columns as a full read, to the bit.
  // visit[i]: 0 never read, 1 read before, 2 read in full from now on (a fresh list that could
  // not answer: ties at its bound, which would recur).
  const visit = new Uint8Array(listLength > 0 ? n : 0);
  const lists = new CandidateLists(listLength > 0 ? n : 0, listLength, false);
  const listCols = lists.cols;
  for (let pass = 0; pass < 2 && numFree > 0; pass++) {
    const previous = numFree;
    numFree = 0;
    let k = 0;
    let steps = 0;
    const maxSteps = n + 16; // measured: beyond ~n steps per pass ARR costs more than it saves
    while (k < previous) {
      if (++steps > maxSteps) {
        // Step cap reached: keep the unread rows free for the Dijkstra phase.
        while (k < previous) free[numFree++] = free[k++]!;
        break;
      }
      const i = free[k++]!;
      let u1 = INF;
      let u2 = INF;
      let j1 = NONE;
      let j2 = NONE;
      const base = i * rowStride;
      let listed = false;
      if (listLength > 0 && visit[i] === 1) {
        const fresh = lists.count[i] === -1;
        if (fresh) lists.build(i, W, base, m, negScale, v);
        const at = i * listLength;
        const end = at + lists.count[i]!;
        for (let p = at; p < end; p++) {
          const j = listCols[p]!;
          const r = W[base + j]! * negScale - v[j]!;
          // The two smallest (cost, column) pairs, as a scan in column order finds them.
          if (r < u2 || (r === u2 && j < j2)) {
            if (r < u1 || (r === u1 && j < j1)) {
              u2 = u1;
              j2 = j1;
              u1 = r;
              j1 = j;
            } else {
              u2 = r;
              j2 = j;
            }
          }
        }
        const bound = lists.bound[i]!;
        listed = bound === INF || u2 < bound;
        if (!listed) {
          u1 = INF;
          u2 = INF;
          j1 = NONE;
          j2 = NONE;
          if (fresh) visit[i] = 2;
          else lists.count[i] = -1; // built again at the next visit, from the potentials then
        }
      }
      if (listLength > 0 && visit[i] === 0) visit[i] = 1;
      if (!listed) {
        for (let j = 0; j < m; j++) {
          const w = W[base + j]!;
          const r = w * negScale - v[j]!;
          if (r < u2 && w > 0) {
            if (r < u1) {
              u2 = u1;
              j2 = j1;
              u1 = r;
              j1 = j;
            } else {
              u2 = r;
              j2 = j;
            }
          }
        }
      }
      if (j1 === NONE) {
        free[numFree++] = i; // no eligible pair: the Dijkstra phase gives it a dummy
        continue;
      }
      let i0 = colToRow[j1]!;
      let lowers = false;
      if (u2 !== INF && u1 < u2) {
        const vNew = v[j1]! - (u2 - u1);
        if (vNew < v[j1]!) {
          v[j1] = vNew;
          lowers = true;
        }
      }
      if (!lowers && i0 !== NONE) {
        if (u1 === u2 && j2 !== NONE) {
          // Equal second choice: take it instead of stealing.
          j1 = j2;
          i0 = colToRow[j2]!;
        } else {
          free[numFree++] = i; // its best column is taken: leave it to the Dijkstra phase
          continue;
        }
      }
      rowToCol[i] = j1;
      colToRow[j1] = i;
      if (i0 !== NONE) {
        rowToCol[i0] = NONE;
        if (lowers) free[--k] = i0;
        else free[numFree++] = i0;
      }
    }
  }
}
