import type { Matching, MatchingInput } from "./types.js";
import { validateInput } from "./validate.js";

/**
 * Maximum Iterative Search, the paper's greedy matcher: repeatedly takes the eligible pair of
 * largest weight whose row and column are both still free. Fast and simple, but neither the
 * cardinality nor the weight is optimal in general (it is a 1/2-approximation of the maximum
 * weight; see {@link mfs} for the exact objective).
 *
 * Ties: equal weights are taken in row-major order (lower row first, then lower column).
 *
 * Complexity: `O(E)` time and memory after an `O(E)` radix sort (`E` = eligible pairs,
 * at most `rows * cols`); the paper's bound `O(nm log nm)` holds a fortiori.
 *
 * @param matrix the weight matrix (never modified)
 * @returns the greedy matching
 * @throws {InvalidInputError} on a malformed matrix (sizes, length, NaN or `+Infinity`)
 * @example
 * ```ts
 * mis({ rows: 2, cols: 2, weights: new Float64Array([5, 1, 1, 0]) });
 * // rowToCol [0, -1], size 1, weight 5 (mfs finds size 2, weight 2)
 * ```
 */
export function mis(matrix: MatchingInput): Matching {
  validateInput("@sched/matching/mis", matrix);
  const { rows, cols, weights } = matrix;
  const order = sortEligibleDescending(weights);
  const rowToCol = new Int32Array(rows).fill(-1);
  const colToRow = new Int32Array(cols).fill(-1);
  let left = Math.min(rows, cols);
  for (let k = 0; k < order.length && left > 0; k++) {
    const e = order[k]!;
    const i = Math.floor(e / cols);
    const j = e - i * cols;
    if (rowToCol[i] === -1 && colToRow[j] === -1) {
      rowToCol[i] = j;
      colToRow[j] = i;
      left--;
    }
  }
  let size = 0;
  let weight = 0;
  for (let i = 0; i < rows; i++) {
    const j = rowToCol[i]!;
    if (j >= 0) {
      size++;
      weight += weights[i * cols + j]!;
    }
  }
  return { rowToCol, colToRow, size, weight };
}

/**
 * Indices of the entries `> 0`, by decreasing weight, ties by increasing index: a stable LSD
 * radix sort on the IEEE-754 bits (monotone for positive doubles), 16 bits per pass; a
 * comparison sort for up to 4096 entries.
 */
function sortEligibleDescending(weights: ArrayLike<number>): Int32Array {
  let count = 0;
  for (let k = 0; k < weights.length; k++) if (weights[k]! > 0) count++;
  let idx = new Int32Array(count);
  let hi = new Uint32Array(count);
  let lo = new Uint32Array(count);
  const bits = new Float64Array(1);
  const words = new Uint32Array(bits.buffer);
  const little = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;
  const [loWord, hiWord] = little ? [0, 1] : [1, 0];
  let p = 0;
  for (let k = 0; k < weights.length; k++) {
    const w = weights[k]!;
    if (w > 0) {
      bits[0] = w;
      idx[p] = k;
      // Complemented: ascending keys = descending weights.
      hi[p] = ~words[hiWord]! >>> 0;
      lo[p] = ~words[loWord]! >>> 0;
      p++;
    }
  }
  if (count <= 4096) {
    // Small: a comparison sort is cheaper than the radix passes' 2^16 buckets.
    return idx.sort((a, b) => weights[b]! - weights[a]! || a - b);
  }
  let idx2 = new Int32Array(count);
  let hi2 = new Uint32Array(count);
  let lo2 = new Uint32Array(count);
  const counts = new Int32Array(65537);
  for (let pass = 0; pass < 4; pass++) {
    const src = pass < 2 ? lo : hi;
    const shift = (pass & 1) * 16;
    counts.fill(0);
    for (let q = 0; q < count; q++) counts[((src[q]! >>> shift) & 0xffff) + 1]!++;
    if (counts[((src[0]! >>> shift) & 0xffff) + 1] === count) continue; // one digit: no-op
    for (let d = 0; d < 65536; d++) counts[d + 1]! += counts[d]!;
    for (let q = 0; q < count; q++) {
      const at = counts[(src[q]! >>> shift) & 0xffff]!++;
      idx2[at] = idx[q]!;
      hi2[at] = hi[q]!;
      lo2[at] = lo[q]!;
    }
    [idx, idx2] = [idx2, idx];
    [hi, hi2] = [hi2, hi];
    [lo, lo2] = [lo2, lo];
  }
  return idx;
}
