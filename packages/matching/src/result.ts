import { NONE, type SolverState } from "./solver-state.js";
import type { ExactMatching, MatchingInput } from "./types.js";

/** Weights already read: internal row `i` on internal column `col[i]` weighs `weight[i]`. */
export interface KnownWeights {
  readonly col: Int32Array;
  readonly weight: Float64Array;
}

/**
 * Turns a finished engine into the public result (external orientation) and its state. The
 * engine is not used afterwards: its potential and assignment arrays become the state (views of
 * the used part, no copies). `known` saves re-reading the entries of pairs the caller has read
 * already (scattered reads, one cache miss each); the total is the same sum either way.
 */
export function finish(
  matrix: MatchingInput,
  engine: SolverState,
  transposed: boolean,
  scale: number,
  known?: KnownWeights,
): ExactMatching {
  engine.normalize();
  const { rows, cols, weights } = matrix;
  const rowToCol = new Int32Array(rows).fill(NONE);
  const colToRow = new Int32Array(cols).fill(NONE);
  const { n, m } = engine;
  // The pairs' weights, per internal row (the state keeps them), and their sum in increasing
  // (external) row order.
  const pairWeight = engine.pairWeight;
  const assigned = engine.rowToCol;
  let size = 0;
  let weight = 0;
  if (!transposed) {
    // Internal rows are the external ones: one pass.
    for (let i = 0; i < n; i++) {
      const j = assigned[i]!;
      if (j < 0 || j >= m) continue;
      size++;
      rowToCol[i] = j;
      colToRow[j] = i;
      const w =
        known !== undefined && known.col[i] === j ? known.weight[i]! : weights[i * cols + j]!;
      pairWeight[i] = w;
      weight += w;
    }
  } else {
    for (let i = 0; i < n; i++) {
      const j = assigned[i]!;
      if (j < 0 || j >= m) continue;
      size++;
      rowToCol[j] = i;
      colToRow[i] = j;
    }
    for (let i = 0; i < rows; i++) {
      const j = rowToCol[i]!;
      if (j < 0) continue;
      // internal row j, column i
      const w =
        known !== undefined && known.col[j] === i ? known.weight[j]! : weights[i * cols + j]!;
      pairWeight[j] = w;
      weight += w;
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
      rowPotential: engine.u,
      colPotential: engine.v.subarray(0, m + K),
      dummyCost: engine.dummyCost.subarray(0, K),
      assignment: engine.rowToCol,
      pairWeight,
    },
  };
}
