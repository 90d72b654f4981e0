import { type Engine, NONE } from "./engine.js";

/**
 * Jonker-Volgenant initialisation (column reduction, reduction transfer, augmenting row
 * reduction), adapted to forbidden pairs and to the engine's invariants. It assigns most rows
 * in `O(n m)` time so that only a few are left for the Dijkstra phase.
 *
 * Afterwards every assigned row `i` satisfies `c[i][x_i] - v[x_i] = min_j (c[i][j] - v[j])`
 * (so `u[i]` set to that value gives (D1)-(D2)), and matched columns have `v <= 0` (costs are
 * `<= 0` and potentials only decrease).
 *
 * With column minima given (square or nearly square matrices: column reduction) free columns
 * may end with `v < 0`; the caller repairs them after the Dijkstra phase (`Engine.repairColumn`). Without it, free columns keep
 * `v = 0`: augmenting row reduction only lowers the potential of a column it assigns, and an
 * assigned column stays assigned.
 *
 * Ties: lowest row index in column reduction, lowest column index in row reduction.
 */
export function jvInit(
  engine: Engine,
  colMin: Float64Array | undefined,
  argRow: Int32Array | undefined,
): void {
  const { n, m, C, u, v, rowToCol, colToRow } = engine;
  const INF = Number.POSITIVE_INFINITY;
  if (colMin !== undefined && argRow !== undefined) {
    // Column reduction: v[j] = min_i c[i][j] (computed while the costs were built); the column
    // goes to its argmin row if that row is still free.
    const matches = new Int32Array(n);
    for (let j = 0; j < m; j++) {
      const i = argRow[j];
      if (i === NONE) continue; // column with no eligible pair: v stays 0, free
      v[j] = colMin[j];
      if (matches[i]++ === 0) {
        rowToCol[i] = j;
        colToRow[j] = i;
      }
    }
    // Reduction transfer: a row that won exactly one column passes its slack to that column.
    for (let i = 0; i < n; i++) {
      if (matches[i] !== 1) continue;
      const j1 = rowToCol[i];
      const base = i * m;
      let min = INF;
      for (let j = 0; j < m; j++) {
        if (j === j1) continue;
        const r = C[base + j] - v[j];
        if (r < min) min = r;
      }
      if (min !== INF) v[j1] -= min;
    }
  }

  // Augmenting row reduction: two passes over the free rows.
  const raw = engine.raw;
  const cs = engine.colStride;
  const negScale = -engine.scale;
  const free = new Int32Array(n);
  let numFree = 0;
  for (let i = 0; i < n; i++) if (rowToCol[i] === NONE) free[numFree++] = i;
  for (let pass = 0; pass < 2 && numFree > 0; pass++) {
    const previous = numFree;
    numFree = 0;
    let k = 0;
    let steps = 0;
    const maxSteps = n + 16; // measured: beyond ~n steps per pass ARR costs more than it saves
    while (k < previous) {
      if (++steps > maxSteps) {
        // Step cap reached: keep the unread rows free for the Dijkstra phase.
        while (k < previous) free[numFree++] = free[k++];
        break;
      }
      const i = free[k++];
      let u1 = INF;
      let u2 = INF;
      let j1 = NONE;
      let j2 = NONE;
      if (!raw) {
        const base = i * m;
        for (let j = 0; j < m; j++) {
          const r = C[base + j] - v[j];
          if (r < u2) {
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
      } else {
        const base = i * engine.rowStride;
        for (let j = 0; j < m; j++) {
          const w = C[base + j * cs];
          const r = w * negScale - v[j];
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
      let i0 = colToRow[j1];
      let lowers = false;
      if (u2 !== INF && u1 < u2) {
        const vNew = v[j1] - (u2 - u1);
        if (vNew < v[j1]) {
          v[j1] = vNew;
          lowers = true;
        }
      }
      if (!lowers && i0 !== NONE) {
        if (u1 === u2 && j2 !== NONE) {
          // Equal second choice: take it instead of stealing.
          j1 = j2;
          i0 = colToRow[j2];
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
  for (let i = 0; i < n; i++) {
    const j = rowToCol[i];
    if (j !== NONE) u[i] = engine.cost(i, j) - v[j];
  }
}
