import type { MatchingInput } from "./types.js";
import { badEntry, isValidWeight, validateInput } from "./validate.js";

/** Weights above this are scaled down (by a power of two) so potentials cannot overflow. */
const SCALE_LIMIT = 2 ** 900;

/**
 * The power of two the weights are multiplied by before solving: 1, unless the largest weight
 * exceeds 2^900, when it brings it to about 2^900 (exact: only the exponent changes, apart from
 * weights so tiny that they underflow, which are negligible against the largest one anyway).
 * Potentials stay below `2 (rows + cols + 1) * 2^900`, far from overflow.
 */
export function scaleFor(maxWeight: number): number {
  if (maxWeight <= SCALE_LIMIT) return 1;
  return 2 ** (900 - Math.ceil(Math.log2(maxWeight)));
}

/** The internal cost matrix of {@link buildCost}, with what was learnt on the way. */
export interface CostMatrix {
  /** `-scale * w` for eligible pairs, `+Infinity` for the others; `n x m` row-major. */
  readonly C: Float64Array;
  /** The multiplier applied (see {@link scaleFor}). */
  readonly scale: number;
  /** Column minima of `C` and their first (lowest) row, when asked for. */
  readonly colMin: Float64Array | undefined;
  readonly argRow: Int32Array | undefined;
}

/**
 * Validates the entries of a matrix whose shape is already checked and builds the internal
 * cost matrix in the same pass: `-scale * w` for eligible pairs, `+Infinity` otherwise,
 * transposed when `transposed` (then it is `cols x rows`). With `columnMinima` it also returns
 * each (internal) column's minimum and its lowest argmin row, which the column reduction of the
 * Jonker-Volgenant start needs: one pass over the matrix instead of three.
 * @throws {InvalidInputError} on an entry that is NaN, `+Infinity` or not a number
 */
export function buildCost(
  where: string,
  input: MatchingInput,
  transposed: boolean,
  columnMinima: boolean,
): CostMatrix {
  const { rows, cols, weights } = input;
  // A plain array may hold anything: check it fully first. A Float64Array holds numbers, so
  // only NaN and +Infinity can be wrong; they are caught in the building pass below.
  if (!(weights instanceof Float64Array)) validateInput(where, input);
  const C = new Float64Array(rows * cols);
  const inf = Number.POSITIVE_INFINITY;
  let max = 0;
  let nan = false;
  let colMin: Float64Array | undefined;
  let argRow: Int32Array | undefined;
  if (!transposed) {
    if (columnMinima) {
      const cm = new Float64Array(cols).fill(inf);
      const ar = new Int32Array(cols).fill(-1);
      for (let i = 0; i < rows; i++) {
        const base = i * cols;
        for (let j = 0; j < cols; j++) {
          const w = weights[base + j];
          if (w > 0) {
            if (w > max) max = w;
            const c = -w;
            C[base + j] = c;
            if (c < cm[j]) {
              cm[j] = c;
              ar[j] = i;
            }
          } else {
            C[base + j] = inf;
            if (!(w <= 0)) nan = true; // neither > 0 nor <= 0: NaN
          }
        }
      }
      colMin = cm;
      argRow = ar;
    } else {
      for (let k = 0; k < C.length; k++) {
        const w = weights[k];
        if (w > 0) {
          if (w > max) max = w;
          C[k] = -w;
        } else {
          C[k] = inf;
          if (!(w <= 0)) nan = true; // neither > 0 nor <= 0: NaN
        }
      }
    }
  } else {
    // Internal column i is external row i: its minimum is read along that row.
    const cm = columnMinima ? new Float64Array(rows).fill(inf) : undefined;
    const ar = columnMinima ? new Int32Array(rows).fill(-1) : undefined;
    for (let i = 0; i < rows; i++) {
      const base = i * cols;
      let low = inf;
      let at = -1;
      for (let j = 0; j < cols; j++) {
        const w = weights[base + j];
        if (w > 0) {
          if (w > max) max = w;
          const c = -w;
          C[j * rows + i] = c;
          if (c < low) {
            low = c;
            at = j;
          }
        } else {
          C[j * rows + i] = inf;
          if (!(w <= 0)) nan = true; // neither > 0 nor <= 0: NaN
        }
      }
      if (cm !== undefined && ar !== undefined) {
        cm[i] = low;
        ar[i] = at;
      }
    }
    colMin = cm;
    argRow = ar;
  }
  if (nan || !(max <= Number.MAX_VALUE)) {
    for (let k = 0; k < weights.length; k++) {
      if (!isValidWeight(weights[k])) throw badEntry(where, input, k);
    }
  }
  const scale = scaleFor(max);
  if (scale !== 1) {
    for (let k = 0; k < C.length; k++) C[k] *= scale;
    if (colMin !== undefined) for (let j = 0; j < colMin.length; j++) colMin[j] *= scale;
  }
  return { C, scale, colMin, argRow };
}
