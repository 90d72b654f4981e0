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

/**
 * Largest transposed copy (in doubles, 2 MB) kept from one solve to the next instead of
 * allocated afresh: a fresh array is zeroed and faulted in page by page, which cost as much as
 * filling it (convergent scheduling solves one 150 x 300 plan per event, transposed; measured
 * 2026-11-28: 49 plans, transposition 6.9 ms per pass with fresh arrays, 4.1 ms reused).
 */
const KEPT_COPY = 1 << 18;
let keptCopy = new Float64Array(0);

/**
 * An array of `length` doubles for the transposed copy of the weights, every entry of which the
 * caller writes before reading it: a view of the kept one when it is small enough. The copy is
 * only read during the solve (no result holds it, and `mfs` keeps no column cache for a
 * transposed matrix), so the next solve may overwrite it.
 */
function transposedCopy(length: number): Float64Array {
  if (length > KEPT_COPY) return new Float64Array(length);
  if (keptCopy.length < length) {
    keptCopy = new Float64Array(Math.min(KEPT_COPY, Math.max(length, 2 * keptCopy.length)));
  }
  return keptCopy.subarray(0, length);
}

/** What {@link scanWeights} learnt: the weights in the solver's orientation, and more. */
export interface ScannedWeights {
  /**
   * The weights as the solver reads them, `n x m` row-major (`n = min(rows, cols)`): the
   * caller's own array when it is a `Float64Array` and no transposition is needed (never
   * written to), else a copy (transposed when `transposed`).
   */
  readonly W: Float64Array;
  /** The multiplier of the weights (see {@link scaleFor}). */
  readonly scale: number;
  /**
   * Per internal column, its largest eligible weight and the lowest internal row holding it
   * (`-1` for a column with no eligible pair), when asked for (column reduction).
   */
  readonly colMax: Float64Array | undefined;
  readonly argRow: Int32Array | undefined;
  /**
   * Without column maxima (no column reduction, so every column potential starts at 0): per
   * internal row `i`, its eligible columns of largest weight, in increasing index, at most
   * {@link TIGHT_CAP} of them, at `tightCols[i * TIGHT_CAP ..]` (`tightCount[i]` of them): the
   * tight pairs of `mfs`'s start when the scale is 1 (`init.ts`), found in this pass instead of
   * one more over the matrix.
   */
  readonly tightCols: Int32Array | undefined;
  readonly tightCount: Int32Array | undefined;
}

/**
 * Tight columns kept per row for the matching on tight pairs of `mfs`'s start (`init.ts`; any
 * subset is valid).
 */
export const TIGHT_CAP = 32;
/**
 * External rows per block of the transposed copy (measured on 49 plans of the paper-scale farm,
 * 2026-11-28: `mfs` 4% faster than row by row; 8 the same, 32 slower).
 */
const TRANSPOSE_BLOCK = 16;

/**
 * Validates the entries of a matrix whose shape is already checked, in one pass that also
 * finds the largest weight and, with `columnMaxima`, each internal column's largest weight and
 * its lowest row (what the column reduction of the Jonker-Volgenant start needs). The weights
 * are read in place when they can be: a `Float64Array` that needs no transposition is not
 * copied (one read of the matrix instead of a read and a write).
 * @throws {InvalidInputError} on an entry that is NaN, `+Infinity` or not a number
 */
export function scanWeights(
  where: string,
  input: MatchingInput,
  transposed: boolean,
  columnMaxima: boolean,
): ScannedWeights {
  const { rows, cols, weights } = input;
  // A plain array may hold anything: check it fully first. A Float64Array holds numbers, so
  // only NaN and +Infinity can be wrong; they are caught in the pass below.
  const typed = weights instanceof Float64Array;
  if (!typed) validateInput(where, input);
  let max = 0;
  let nan = false;
  let W: Float64Array;
  let colMax: Float64Array | undefined;
  let argRow: Int32Array | undefined;
  let tightCols: Int32Array | undefined;
  let tightCount: Int32Array | undefined;
  if (!transposed) {
    W = typed ? weights : Float64Array.from(weights);
    if (columnMaxima) {
      const cm = new Float64Array(cols);
      const ar = new Int32Array(cols).fill(-1);
      for (let i = 0; i < rows; i++) {
        const base = i * cols;
        for (let j = 0; j < cols; j++) {
          const w = W[base + j]!;
          if (w > cm[j]!) {
            cm[j] = w;
            ar[j] = i;
          } else if (!(w <= cm[j]!)) {
            nan = true; // neither > nor <=: NaN
          }
        }
      }
      for (let j = 0; j < cols; j++) if (cm[j]! > max) max = cm[j]!;
      colMax = cm;
      argRow = ar;
    } else {
      tightCount = new Int32Array(rows);
      tightCols = new Int32Array(rows * TIGHT_CAP);
      for (let i = 0; i < rows; i++) {
        const base = i * cols;
        const at = i * TIGHT_CAP;
        let high = 0;
        let nt = 0;
        for (let j = 0; j < cols; j++) {
          const w = W[base + j]!;
          if (w >= high && w > 0) {
            if (w > high) {
              high = w;
              nt = 0;
            }
            if (nt < TIGHT_CAP) tightCols[at + nt++] = j;
          } else if (!(w <= high)) {
            nan = true; // neither >= nor <=: NaN
          }
        }
        tightCount[i] = nt;
        if (high > max) max = high;
      }
    }
  } else {
    // Internal row j is external column j: W[j * rows + i] = weights[i * cols + j]. Internal
    // column i is external row i: its maximum is read along that row.
    W = transposedCopy(rows * cols);
    const cm = columnMaxima ? new Float64Array(rows) : undefined;
    const ar = columnMaxima ? new Int32Array(rows).fill(-1) : undefined;
    if (columnMaxima && cm !== undefined && ar !== undefined) {
      for (let i = 0; i < rows; i++) {
        const base = i * cols;
        let high = 0;
        let at = -1;
        for (let j = 0; j < cols; j++) {
          const w = weights[base + j]!;
          W[j * rows + i] = w;
          if (w > high) {
            high = w;
            at = j;
          } else if (!(w <= high)) {
            nan = true;
          }
        }
        if (high > max) max = high;
        cm[i] = high;
        ar[i] = at;
      }
    } else {
      // In blocks of TRANSPOSE_BLOCK external rows, each internal row's part of a block written
      // at once (a few cache lines instead of one per entry), and each internal row's largest
      // weight so far (`top`) and the columns that have it (external rows, in increasing order:
      // blocks and rows within them are taken in order) kept as it goes.
      const top = new Float64Array(cols);
      const count = new Int32Array(cols);
      const tight = new Int32Array(cols * TIGHT_CAP);
      for (let i0 = 0; i0 < rows; i0 += TRANSPOSE_BLOCK) {
        const i1 = Math.min(rows, i0 + TRANSPOSE_BLOCK);
        for (let j = 0; j < cols; j++) {
          const out = j * rows;
          let high = top[j]!;
          for (let i = i0; i < i1; i++) {
            const w = weights[i * cols + j]!;
            W[out + i] = w;
            if (w >= high) {
              if (w > 0) {
                let nt = count[j]!;
                if (w > high) {
                  high = w;
                  top[j] = w;
                  nt = 0;
                }
                if (nt < TIGHT_CAP) tight[j * TIGHT_CAP + nt++] = i;
                count[j] = nt;
              }
            } else if (!(w <= high)) {
              nan = true; // neither >= nor <=: NaN
            }
          }
        }
      }
      for (let j = 0; j < cols; j++) if (top[j]! > max) max = top[j]!;
      tightCols = tight;
      tightCount = count;
    }
    colMax = cm;
    argRow = ar;
  }
  if (nan || !(max <= Number.MAX_VALUE)) {
    for (let k = 0; k < weights.length; k++) {
      if (!isValidWeight(weights[k])) throw badEntry(where, input, k);
    }
  }
  return { W, scale: scaleFor(max), colMax, argRow, tightCols, tightCount };
}
