import { Random } from "@sched/random";
import type { Matching, MatchingInput } from "../src/index.js";

/** Best (size, weight) over all matchings, by enumeration: each row picks a free column or none. */
export function bruteForce(matrix: MatchingInput): {
  size: number;
  weight: number;
  maxWeightAnySize: number;
} {
  const { rows, cols, weights } = matrix;
  const used = new Uint8Array(cols);
  let bestSize = 0;
  let bestWeight = 0;
  let maxWeightAnySize = 0;
  const go = (i: number, size: number, weight: number): void => {
    if (i === rows) {
      if (weight > maxWeightAnySize) maxWeightAnySize = weight;
      if (size > bestSize || (size === bestSize && weight > bestWeight)) {
        bestSize = size;
        bestWeight = weight;
      }
      return;
    }
    go(i + 1, size, weight);
    for (let j = 0; j < cols; j++) {
      const w = weights[i * cols + j]!;
      if (w > 0 && used[j] === 0) {
        used[j] = 1;
        go(i + 1, size + 1, weight + w);
        used[j] = 0;
      }
    }
  };
  go(0, 0, 0);
  return { size: bestSize, weight: bestWeight, maxWeightAnySize };
}

/** Maximum cardinality of a matching on the eligible pairs (Kuhn's augmenting paths). */
export function maxCardinality(matrix: MatchingInput): number {
  const { rows, cols, weights } = matrix;
  const colToRow = new Int32Array(cols).fill(-1);
  let size = 0;
  for (let r = 0; r < rows; r++) {
    const seen = new Uint8Array(cols);
    const tryRow = (i: number): boolean => {
      for (let j = 0; j < cols; j++) {
        if (weights[i * cols + j]! > 0 && seen[j] === 0) {
          seen[j] = 1;
          if (colToRow[j]! < 0 || tryRow(colToRow[j]!)) {
            colToRow[j] = i;
            return true;
          }
        }
      }
      return false;
    };
    if (tryRow(r)) size++;
  }
  return size;
}

/**
 * Throws unless `m` is a valid matching of `matrix` with consistent size and weight. `recorded`
 * (for results under an untruthful change hint) gives the weight a pair counts when the result
 * may keep it unread (`undefined` for the others): such a pair need not be eligible in `matrix`.
 */
export function assertValidMatching(
  matrix: MatchingInput,
  m: Matching,
  recorded?: (i: number, j: number) => number | undefined,
): void {
  const { rows, cols, weights } = matrix;
  if (m.rowToCol.length !== rows) throw new Error(`rowToCol has length ${m.rowToCol.length}`);
  if (m.colToRow.length !== cols) throw new Error(`colToRow has length ${m.colToRow.length}`);
  let size = 0;
  let weight = 0;
  const seen = new Uint8Array(cols);
  for (let i = 0; i < rows; i++) {
    const j = m.rowToCol[i]!;
    if (j === -1) continue;
    if (!Number.isInteger(j) || j < 0 || j >= cols) throw new Error(`row ${i} -> bad column ${j}`);
    if (seen[j] === 1) throw new Error(`column ${j} matched twice`);
    seen[j] = 1;
    if (m.colToRow[j] !== i) throw new Error(`colToRow[${j}] = ${m.colToRow[j]}, expected ${i}`);
    size++;
    const kept = recorded?.(i, j);
    if (kept !== undefined) {
      weight += kept;
      continue;
    }
    if (!(weights[i * cols + j]! > 0)) throw new Error(`ineligible pair (${i}, ${j}) matched`);
    weight += weights[i * cols + j]!;
  }
  for (let j = 0; j < cols; j++) {
    if (seen[j] === 0 && m.colToRow[j] !== -1) throw new Error(`colToRow[${j}] set but unmatched`);
  }
  if (size !== m.size) throw new Error(`size ${m.size}, counted ${size}`);
  if (weight !== m.weight) throw new Error(`weight ${m.weight}, summed ${weight}`);
}

/** A seeded source for test data (@sched/random, stream "matching/test"): floats in [0, 1). */
export function prng(seed: number): () => number {
  const random = new Random(seed, "matching/test");
  return () => random.next();
}

/**
 * A maximum-cardinality matching found another way: Kuhn's augmenting paths with rows and
 * columns tried in a random order. Returns its size and weight.
 */
export function randomMaximumMatching(
  matrix: MatchingInput,
  rand: () => number,
): { size: number; weight: number } {
  const { rows, cols, weights } = matrix;
  const shuffled = (k: number) => {
    const a = Array.from({ length: k }, (_, i) => i);
    for (let i = k - 1; i > 0; i--) {
      const j = Math.floor(rand() * (i + 1));
      [a[i], a[j]] = [a[j]!, a[i]!];
    }
    return a;
  };
  const rowOrder = shuffled(rows);
  const colOrder = shuffled(cols);
  const colToRow = new Int32Array(cols).fill(-1);
  for (const r of rowOrder) {
    const seen = new Uint8Array(cols);
    const tryRow = (i: number): boolean => {
      for (const j of colOrder) {
        if (weights[i * cols + j]! > 0 && seen[j] === 0) {
          seen[j] = 1;
          if (colToRow[j]! < 0 || tryRow(colToRow[j]!)) {
            colToRow[j] = i;
            return true;
          }
        }
      }
      return false;
    };
    tryRow(r);
  }
  let size = 0;
  let weight = 0;
  for (let j = 0; j < cols; j++) {
    if (colToRow[j]! >= 0) {
      size++;
      weight += weights[colToRow[j]! * cols + j]!;
    }
  }
  return { size, weight };
}
