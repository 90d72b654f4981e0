import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { mis } from "../src/index.js";
import { matcherSpecs, smallMatrix } from "./matcher-specs.js";
import { bruteForce, prng } from "./oracle.js";

matcherSpecs("mis", mis, { exact: false });

/** The greedy rule written the obvious way: sort all eligible pairs, take what fits. */
function naiveGreedy(rows: number, cols: number, weights: Float64Array): Int32Array {
  const pairs: number[] = [];
  for (let k = 0; k < weights.length; k++) if (weights[k]! > 0) pairs.push(k);
  pairs.sort((a, b) => weights[b]! - weights[a]! || a - b);
  const rowToCol = new Int32Array(rows).fill(-1);
  const used = new Uint8Array(cols);
  for (const k of pairs) {
    const i = Math.floor(k / cols);
    const j = k % cols;
    if (rowToCol[i] === -1 && used[j] === 0) {
      rowToCol[i] = j;
      used[j] = 1;
    }
  }
  return rowToCol;
}

describe("mis examples", () => {
  it("takes the heaviest pair first, even when that costs cardinality", () => {
    const r = mis({ rows: 2, cols: 2, weights: Float64Array.from([5, 1, 1, 0]) });
    expect([Array.from(r.rowToCol), r.size, r.weight]).toEqual([[0, -1], 1, 5]);
  });

  it("breaks ties in row-major order", () => {
    const r = mis({ rows: 2, cols: 2, weights: Float64Array.from([3, 3, 3, 3]) });
    expect(Array.from(r.rowToCol)).toEqual([0, 1]);
    const c = mis({ rows: 3, cols: 1, weights: Float64Array.from([0, 2, 2]) });
    expect(Array.from(c.rowToCol)).toEqual([-1, 0, -1]);
  });

  it("agrees with the obvious sort-based greedy on large matrices (radix-sort path)", () => {
    const rand = prng(3);
    for (const [rows, cols, levels] of [
      [80, 120, 5],
      [150, 60, 1000],
      [100, 100, 0],
    ] as const) {
      const weights = new Float64Array(rows * cols);
      for (let k = 0; k < weights.length; k++) {
        const x = rand();
        // levels 0: continuous weights spanning many orders of magnitude, incl. subnormals
        weights[k] = x < 0.2 ? 0 : levels > 0 ? Math.ceil(x * levels) : 10 ** (600 * x - 320);
      }
      expect(Array.from(mis({ rows, cols, weights }).rowToCol)).toEqual(
        Array.from(naiveGreedy(rows, cols, weights)),
      );
    }
  });

  it("orders weights that differ only in their last bits (radix-sort path, low words)", () => {
    // 1 + r 2^-40 with r < 2^20: every weight has the same high 32 bits, so only the passes over
    // the low words order them.
    const rand = prng(5);
    const rows = 70;
    const cols = 70;
    const weights = new Float64Array(rows * cols);
    for (let k = 0; k < weights.length; k++) {
      weights[k] = rand() < 0.05 ? 0 : 1 + Math.floor(rand() * 2 ** 20) * 2 ** -40;
    }
    expect(Array.from(mis({ rows, cols, weights }).rowToCol)).toEqual(
      Array.from(naiveGreedy(rows, cols, weights)),
    );
  });

  it("orders a lone entry whose weight differs in one 16-bit digit only (radix-sort path)", () => {
    // 65 x 65 = 4225 pairs (radix path), all of weight 1 but one: each pass of the sort sees
    // every key share its digit but at most one. The lone entry must still go first (or last):
    // 1 + 2^-52, 1 + 2^-36 and 1 + 2^-20 differ from 1 in one digit of the low word (lowest,
    // then highest) and of the high word (lowest), 2 and 0.5 in its highest digit only.
    const rows = 65;
    const cols = 65;
    for (const lone of [1 + 2 ** -52, 1 + 2 ** -36, 1 + 2 ** -20, 2, 0.5]) {
      for (const at of [0, 64 * cols, 64 * cols + 64, 33 * cols + 7]) {
        const weights = new Float64Array(rows * cols).fill(1);
        weights[at] = lone;
        expect(Array.from(mis({ rows, cols, weights }).rowToCol)).toEqual(
          Array.from(naiveGreedy(rows, cols, weights)),
        );
      }
    }
  });
});

describe("mis properties", () => {
  it("mis(matrix) equals the sort-based greedy", () => {
    fc.assert(
      fc.property(smallMatrix(8), (m) => {
        const w = Float64Array.from(m.weights);
        expect(Array.from(mis(m).rowToCol)).toEqual(Array.from(naiveGreedy(m.rows, m.cols, w)));
      }),
      { numRuns: 200 },
    );
  });

  it("mis(matrix) weighs at least half the maximum-weight matching (greedy bound)", () => {
    fc.assert(
      fc.property(smallMatrix(6), (m) => {
        expect(mis(m).weight).toBeGreaterThanOrEqual(0.5 * bruteForce(m).maxWeightAnySize - 1e-9);
      }),
      { numRuns: 200 },
    );
  });
});
