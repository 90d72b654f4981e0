import type { Engine } from "./engine.js";
import type { ExactMatching, MatchingInput } from "./types.js";

/** Turns a finished engine into the public result (external orientation) and its state. */
export function finish(
  matrix: MatchingInput,
  engine: Engine,
  transposed: boolean,
  scale: number,
): ExactMatching {
  engine.normalize();
  const { rows, cols, weights } = matrix;
  const rowToCol = new Int32Array(rows).fill(-1);
  const colToRow = new Int32Array(cols).fill(-1);
  const { n, m } = engine;
  for (let i = 0; i < n; i++) {
    const j = engine.rowToCol[i];
    if (j < 0 || j >= m) continue;
    if (transposed) {
      rowToCol[j] = i;
      colToRow[i] = j;
    } else {
      rowToCol[i] = j;
      colToRow[j] = i;
    }
  }
  let size = 0;
  let weight = 0;
  for (let i = 0; i < rows; i++) {
    const j = rowToCol[i];
    if (j >= 0) {
      size++;
      weight += weights[i * cols + j];
    }
  }
  const K = engine.K;
  return {
    rowToCol,
    colToRow,
    size,
    weight,
    state: {
      rows,
      cols,
      transposed,
      scale,
      rowPotential: engine.u.slice(0, n),
      colPotential: engine.v.slice(0, m + K),
      dummyCost: engine.dummyCost.slice(0, K),
      assignment: engine.rowToCol.slice(0, n),
    },
  };
}
