import type { SparseColumns } from "./dual-simplex.js";

/**
 * Improves a feasible MKP solution by local search, in place: repeatedly (1) adds any item that
 * fits, (2) swaps one chosen item for the most valuable unchosen item worth more that then fits,
 * (3) swaps one chosen item for two unchosen items worth more together, scanning chosen items in
 * index order, until no move improves. `a` holds the packing rows (entries in rows >= `rows` are
 * ignored), `c` their capacities. Loads are kept as running sums, so the caller rechecks the
 * result with plain sums. Returns the number of moves made. Deterministic.
 *
 * Complexity: O(n·nnz) per pass of moves (1)-(2), O(k·n²·q) for move (3) with k chosen items
 * and q entries per column; the number of passes is bounded because each move raises the value.
 */
export function localSearch(
  a: SparseColumns,
  rows: number,
  v: Float64Array,
  c: Float64Array,
  x: Uint8Array,
): number {
  const n = a.cols;
  const { start, row, val } = a;
  const load = new Float64Array(rows);
  for (let j = 0; j < n; j++) {
    if (x[j] !== 1) continue;
    for (let p = start[j] as number; p < (start[j + 1] as number); p++) {
      const k = row[p] as number;
      if (k < rows) load[k] = (load[k] as number) + (val[p] as number);
    }
  }
  const move = (j: number, sign: number): void => {
    for (let p = start[j] as number; p < (start[j + 1] as number); p++) {
      const k = row[p] as number;
      if (k < rows) load[k] = (load[k] as number) + sign * (val[p] as number);
    }
  };
  /** Whether j fits the current loads. */
  const fits = (j: number): boolean => {
    for (let p = start[j] as number; p < (start[j + 1] as number); p++) {
      const k = row[p] as number;
      if (k < rows && (load[k] as number) + (val[p] as number) > (c[k] as number)) return false;
    }
    return true;
  };
  let moves = 0;
  const outside: number[] = [];
  for (;;) {
    let improved = false;
    // (1) Add every item that fits.
    for (let j = 0; j < n; j++) {
      if (x[j] === 0 && fits(j)) {
        x[j] = 1;
        move(j, 1);
        moves++;
        improved = true;
      }
    }
    outside.length = 0;
    for (let j = 0; j < n; j++) if (x[j] === 0) outside.push(j);
    // (2) One out, one in; (3) one out, two in.
    swaps: for (let i = 0; i < n; i++) {
      if (x[i] !== 1) continue;
      move(i, -1);
      const fitting: number[] = [];
      for (const j of outside) if (x[j] === 0 && fits(j)) fitting.push(j);
      let bestJ = -1;
      for (const j of fitting)
        if ((v[j] as number) > (bestJ < 0 ? (v[i] as number) : (v[bestJ] as number))) bestJ = j;
      if (bestJ >= 0) {
        x[i] = 0;
        x[bestJ] = 1;
        move(bestJ, 1);
        moves++;
        improved = true;
        continue;
      }
      for (let p = 0; p < fitting.length; p++) {
        const j = fitting[p] as number;
        move(j, 1);
        for (let q = p + 1; q < fitting.length; q++) {
          const k = fitting[q] as number;
          if ((v[j] as number) + (v[k] as number) > (v[i] as number) && fits(k)) {
            x[i] = 0;
            x[j] = 1;
            x[k] = 1;
            move(k, 1);
            moves++;
            improved = true;
            continue swaps;
          }
        }
        move(j, -1);
      }
      move(i, 1);
    }
    if (!improved) return moves;
  }
}
