import { describe, expect, it } from "vitest";
import { imfs, type MatchingInput, mfs, mis } from "../src/index.js";
import { bruteForce, prng } from "./oracle.js";

/** Every matrix of the given shape over `values`, in lexicographic order. */
function* allMatrices(rows: number, cols: number, values: number[]): Generator<MatchingInput> {
  const cells = rows * cols;
  const digits = new Int32Array(cells);
  for (;;) {
    yield { rows, cols, weights: Float64Array.from(digits, (d) => values[d]!) };
    let k = 0;
    while (k < cells && ++digits[k]! === values.length) digits[k++] = 0;
    if (k === cells) return;
  }
}

function compare(matrix: MatchingInput): void {
  const want = bruteForce(matrix);
  const exact = mfs(matrix);
  if (exact.size !== want.size || exact.weight !== want.weight) {
    expect({
      matrix: Array.from(matrix.weights),
      rows: matrix.rows,
      got: [exact.size, exact.weight],
    }).toEqual({
      matrix: Array.from(matrix.weights),
      rows: matrix.rows,
      got: [want.size, want.weight],
    });
  }
  const greedy = mis(matrix);
  if (greedy.size > want.size || (greedy.size === want.size && greedy.weight > want.weight)) {
    throw new Error(`mis beats the optimum on ${Array.from(matrix.weights)}`);
  }
  // imfs from the optimum of a different matrix of the same shape (all ones).
  const previous = mfs({ ...matrix, weights: new Float64Array(matrix.weights.length).fill(1) });
  const inc = imfs(matrix, previous);
  if (inc.size !== want.size || inc.weight !== want.weight) {
    throw new Error(
      `imfs ${inc.size}/${inc.weight} on ${Array.from(matrix.weights)} (${matrix.rows} rows)`,
    );
  }
}

/**
 * The largest enumerations (3 x 3 over {0, 1, 2}: 19,683 matrices; 8 cells over {0..3}: 131,072)
 * take tens of seconds on a busy machine, so the test run enumerates the smaller shapes and
 * `pnpm test:exhaustive` (EXHAUSTIVE=1) all of them.
 */
const FULL = process.env.EXHAUSTIVE === "1";

describe("exhaustive comparison with brute force", () => {
  /** Runs `compare` on every matrix of every shape up to `maxSide` with `<= maxCells` cells. */
  const sweep = (maxSide: number, maxCells: number, values: number[]): number => {
    let count = 0;
    for (let rows = 1; rows <= maxSide; rows++) {
      for (let cols = 1; cols <= maxSide && rows * cols <= maxCells; cols++) {
        for (const matrix of allMatrices(rows, cols, values)) {
          compare(matrix);
          count++;
        }
      }
    }
    return count;
  };

  it(`mfs and imfs are optimal and mis never beats them on every matrix up to ${FULL ? "3 x 3, " : "3 x 2, "}2 x 4, 4 x 2 over {0, 1, 2}`, () => {
    // 1x1..1x4, 2x1..2x4, 3x1..3x2 (3x3 with EXHAUSTIVE=1), 4x1, 4x2
    if (FULL) expect(sweep(4, 9, [0, 1, 2])).toBe(120 + 7380 + 20439 + 6642);
    else expect(sweep(4, 8, [0, 1, 2])).toBe(120 + 7380 + 756 + 6642);
  });

  it("... and on every matrix up to 2 x 3 and 3 x 2 over {0, 1, 2, 5}", () => {
    expect(sweep(3, 6, [0, 1, 2, 5])).toBe(84 + 4368 + 4160);
  });

  it(`... and on every matrix of <= ${FULL ? 8 : 6} cells over {0, 1, 2, 3}`, () => {
    // 1x1..1x4, 2x1..2x4 (2x4 with EXHAUSTIVE=1), 3x1, 3x2, 4x1, 4x2 (with EXHAUSTIVE=1)
    if (FULL) expect(sweep(4, 8, [0, 1, 2, 3])).toBe(340 + 69904 + 4160 + 65792);
    else expect(sweep(4, 6, [0, 1, 2, 3])).toBe(340 + 4368 + 4160 + 256);
  });

  it("... and on 3000 sampled matrices up to 7 x 7 with heavy ties", () => {
    const rand = prng(20261121);
    for (let t = 0; t < 3000; t++) {
      const rows = 4 + Math.floor(rand() * 4);
      const cols = 4 + Math.floor(rand() * 4);
      const weights = new Float64Array(rows * cols);
      for (let k = 0; k < weights.length; k++) weights[k] = Math.floor(rand() * 5) - 1;
      compare({ rows, cols, weights });
    }
  });
});
