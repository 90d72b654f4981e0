import type { ImfsOptions, MatchingInput } from "../src/index.js";

/** A seeded generator of numbers uniform in [0, 1). */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Seeded weights: uniform in (0, 1], or with `integer` uniform integers 1-100; a fraction
 * `ineligible` of the entries is 0.
 */
export function randomMatrix(
  rows: number,
  cols: number,
  ineligible: number,
  seed: number,
  integer = false,
): { rows: number; cols: number; weights: Float64Array } {
  const rand = seededRandom(seed);
  const weights = new Float64Array(rows * cols);
  for (let k = 0; k < weights.length; k++) {
    if (rand() < ineligible) weights[k] = 0;
    else weights[k] = integer ? 1 + Math.floor(rand() * 100) : 1 - rand();
  }
  return { rows, cols, weights };
}

/** A kind of weights of the held-out benchmark instances (`targets.bench.ts`). */
export interface WeightConfig {
  readonly label: string;
  readonly ineligible: number;
  readonly integer: boolean;
}

/** The four kinds of weights of the held-out instances: dense or 30% ineligible, integer or uniform. */
export const WEIGHT_CONFIGS: readonly WeightConfig[] = [
  { label: "dense, integer 1-100", ineligible: 0, integer: true },
  { label: "dense, uniform (0, 1]", ineligible: 0, integer: false },
  { label: "30% ineligible, integer 1-100", ineligible: 0.3, integer: true },
  { label: "30% ineligible, uniform (0, 1]", ineligible: 0.3, integer: false },
];

/** `matrix` with row (or column) `at` replaced by fresh weights of the same distribution. */
export function changeLine(
  matrix: { rows: number; cols: number; weights: Float64Array },
  line: "row" | "col",
  at: number,
  config: WeightConfig,
  seed: number,
): MatchingInput {
  const { rows, cols } = matrix;
  const weights = matrix.weights.slice();
  const length = line === "row" ? cols : rows;
  const fresh = randomMatrix(1, length, config.ineligible, seed, config.integer).weights;
  for (let k = 0; k < length; k++) {
    if (line === "row") weights[at * cols + k] = fresh[k]!;
    else weights[k * cols + at] = fresh[k]!;
  }
  return { rows, cols, weights };
}

/** One scheduling event on a plan: the new matrix and the `imfs` options that describe it. */
export interface EventCase {
  readonly name: string;
  readonly matrix: MatchingInput;
  readonly options: ImfsOptions;
}

/**
 * An `n x n` plan matrix and the four one-line events on it, each with its truthful change
 * hint (nothing but the new or removed line changed): a row (job) arrives as the last row, the
 * middle row leaves, a column (machine) arrives as the last column, the middle column leaves.
 * All matrices are cut from one seeded `(n + 1) x (n + 1)` matrix. With `hint = false` the same
 * events come without the hint.
 */
export function oneEventCases(
  n: number,
  ineligible: number,
  seed: number,
  hint = true,
): { plan: MatchingInput; events: EventCase[] } {
  const big = randomMatrix(n + 1, n + 1, ineligible, seed);
  const cut = (rows: number, cols: number, skipRow: number, skipCol: number): MatchingInput => {
    const weights = new Float64Array(rows * cols);
    let k = 0;
    for (let i = 0; i <= n && k < weights.length; i++) {
      if (i === skipRow) continue;
      let taken = 0;
      for (let j = 0; j <= n && taken < cols; j++) {
        if (j === skipCol) continue;
        weights[k++] = big.weights[i * (n + 1) + j]!;
        taken++;
      }
    }
    return { rows, cols, weights };
  };
  const mid = n >> 1;
  const skipping = (length: number, at: number) =>
    Array.from({ length }, (_, k) => (k < at ? k : k + 1));
  const rowHint: ImfsOptions = hint ? { changedRows: [] } : {};
  return {
    plan: cut(n, n, -1, -1),
    events: [
      { name: "a row arrives", matrix: cut(n + 1, n, -1, -1), options: rowHint },
      {
        name: "a row leaves",
        matrix: cut(n - 1, n, mid, -1),
        options: { rowOrigin: skipping(n - 1, mid), ...rowHint },
      },
      { name: "a column arrives", matrix: cut(n, n + 1, -1, -1), options: rowHint },
      {
        name: "a column leaves",
        matrix: cut(n, n - 1, -1, mid),
        options: { colOrigin: skipping(n - 1, mid), ...rowHint },
      },
    ],
  };
}
