import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { DEFAULT_SEARCH, type SearchOptions } from "../src/bidi.js";
import { type ExactMatching, imfs, type MatchingInput, mfs, mis } from "../src/index.js";
import { exactSolve } from "../src/mfs.js";
import { assertCertificate } from "./certificate.js";
import { smallMatrix } from "./matcher-specs.js";
import { assertValidMatching, maxCardinality, prng, randomMaximumMatching } from "./oracle.js";

/** Medium matrices (up to 30 x 30) with a random density of eligible pairs and few distinct weights. */
const mediumMatrix: fc.Arbitrary<MatchingInput> = fc
  .record({
    rows: fc.integer({ min: 0, max: 30 }),
    cols: fc.integer({ min: 0, max: 30 }),
    density: fc.double({ min: 0.02, max: 1, noNaN: true }),
    levels: fc.integer({ min: 1, max: 50 }),
    seed: fc.integer(),
  })
  .map(({ rows, cols, density, levels, seed }) => {
    const rand = prng(seed);
    const weights = new Float64Array(rows * cols);
    for (let k = 0; k < weights.length; k++) {
      weights[k] = rand() < density ? 1 + Math.floor(rand() * levels) : -Math.floor(rand() * 3);
    }
    return { rows, cols, weights };
  });

const transpose = ({ rows, cols, weights }: MatchingInput): MatchingInput => {
  const t = new Float64Array(rows * cols);
  for (let i = 0; i < rows; i++)
    for (let j = 0; j < cols; j++) t[j * rows + i] = weights[i * cols + j]!;
  return { rows: cols, cols: rows, weights: t };
};

describe("mfs properties", () => {
  it("mfs(matrix) has the cardinality of a plain maximum bipartite matching", () => {
    fc.assert(
      fc.property(mediumMatrix, (matrix) => {
        expect(mfs(matrix).size).toBe(maxCardinality(matrix));
      }),
      { numRuns: 150 },
    );
  });

  it("mfs(matrix) weighs at least as much as any maximum matching found another way", () => {
    fc.assert(
      fc.property(mediumMatrix, fc.integer(), (matrix, seed) => {
        const best = mfs(matrix);
        const rand = prng(seed);
        for (let k = 0; k < 5; k++) {
          const other = randomMaximumMatching(matrix, rand);
          expect(other.size).toBe(best.size);
          expect(other.weight).toBeLessThanOrEqual(best.weight);
        }
      }),
      { numRuns: 100 },
    );
  });

  it("mfs(matrix) carries a valid dual certificate (an independent optimality proof)", () => {
    fc.assert(
      fc.property(mediumMatrix, (matrix) => {
        const r = mfs(matrix);
        assertValidMatching(matrix, r);
        assertCertificate(matrix, r);
      }),
      { numRuns: 150 },
    );
  });

  it("mfs(matrix) is exact under every search tuning (one-sided only, both-ended throughout, backward first, forward first)", () => {
    const tunings: SearchOptions[] = [
      {
        ...DEFAULT_SEARCH,
        backwardCost: 3,
        copiedBackwardCost: 3,
        maxFreeTargets: 0,
        candidateGates: false,
      },
      { ...DEFAULT_SEARCH, backwardCost: 3, copiedBackwardCost: 3, maxFreeTargets: 1e9 },
      { ...DEFAULT_SEARCH, backwardCost: 0, copiedBackwardCost: 0, maxFreeTargets: 1e9 },
      { ...DEFAULT_SEARCH, backwardCost: 1e9, copiedBackwardCost: 1e9, maxFreeTargets: 1e9 },
    ];
    fc.assert(
      fc.property(mediumMatrix, fc.constantFrom(...tunings), (matrix, tuning) => {
        const r = exactSolve(matrix, tuning);
        const reference = mfs(matrix);
        assertValidMatching(matrix, r);
        assertCertificate(matrix, r);
        expect(r.size).toBe(reference.size);
        expect(r.weight).toBe(reference.weight); // integer weights: exact
      }),
      { numRuns: 200 },
    );
  });

  it("mfs(matrix) is exact on larger matrices with heavy ties (the start on tight pairs does most of the work)", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 30, max: 90 }),
        fc.integer({ min: 30, max: 90 }),
        fc.integer({ min: 1, max: 4 }),
        fc.constantFrom(0, 0.3, 0.9),
        fc.integer(),
        (rows, cols, levels, ineligible, seed) => {
          const rand = prng(seed);
          const weights = new Float64Array(rows * cols);
          for (let k = 0; k < weights.length; k++) {
            weights[k] = rand() < ineligible ? 0 : 1 + Math.floor(rand() * levels);
          }
          const matrix = { rows, cols, weights };
          const r = mfs(matrix);
          assertValidMatching(matrix, r);
          assertCertificate(matrix, r);
          expect(r.size).toBe(maxCardinality(matrix));
        },
      ),
      { numRuns: 40 },
    );
  });

  it("mis(matrix) never beats mfs(matrix) (cardinality, then weight)", () => {
    fc.assert(
      fc.property(fc.oneof(smallMatrix(7), mediumMatrix), (matrix) => {
        const greedy = mis(matrix);
        const exact = mfs(matrix);
        expect(greedy.size).toBeLessThanOrEqual(exact.size);
        if (greedy.size === exact.size) expect(greedy.weight).toBeLessThanOrEqual(exact.weight);
      }),
      { numRuns: 200 },
    );
  });

  it("mfs objective is invariant under transposition and row permutation", () => {
    fc.assert(
      fc.property(mediumMatrix, fc.integer(), (matrix, seed) => {
        const a = mfs(matrix);
        const b = mfs(transpose(matrix));
        expect([b.size, b.weight]).toEqual([a.size, a.weight]);
        const rand = prng(seed);
        const perm = Array.from({ length: matrix.rows }, (_, i) => i).sort(() => rand() - 0.5);
        const permuted = new Float64Array(matrix.weights.length);
        perm.forEach((from, to) => {
          permuted.set(
            (matrix.weights as Float64Array).subarray(from * matrix.cols, (from + 1) * matrix.cols),
            to * matrix.cols,
          );
        });
        const c = mfs({ ...matrix, weights: permuted });
        expect([c.size, c.weight]).toEqual([a.size, a.weight]);
      }),
      { numRuns: 100 },
    );
  });

  it("mfs(matrix) is unchanged when every weight is multiplied by a power of two", () => {
    fc.assert(
      fc.property(smallMatrix(7), fc.integer({ min: -60, max: 60 }), (matrix, e) => {
        const f = 2 ** e;
        const scaled = { ...matrix, weights: (matrix.weights as Float64Array).map((w) => w * f) };
        const a = mfs(matrix);
        const b = mfs(scaled);
        expect(Array.from(b.rowToCol)).toEqual(Array.from(a.rowToCol));
      }),
      { numRuns: 150 },
    );
  });

  it("mfs(matrix) has maximum cardinality, and weight up to rounding, with weights spanning the double range", () => {
    const huge = fc.constantFrom(0, 5e-324, 1e-300, 1e-10, 1, 1e10, 1e300, Number.MAX_VALUE / 8);
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 6 }),
        fc.integer({ min: 1, max: 6 }),
        fc.array(huge, { minLength: 36, maxLength: 36 }),
        (rows, cols, w) => {
          const matrix = { rows, cols, weights: Float64Array.from(w.slice(0, rows * cols)) };
          const r = mfs(matrix);
          assertValidMatching(matrix, r);
          expect(r.size).toBe(maxCardinality(matrix));
          assertCertificate(matrix, r);
          // Weights are doubles: the optimum is exact up to rounding relative to the largest
          // weight (1e300 swamps 1e10 in any floating-point sum), never in cardinality.
          const maxW = Math.max(...matrix.weights);
          const rand = prng(rows * 7 + cols);
          for (let k = 0; k < 5; k++) {
            const other = randomMaximumMatching(matrix, rand);
            expect(other.size).toBe(r.size);
            expect(other.weight).toBeLessThanOrEqual(r.weight + (rows + cols) * 2 ** -50 * maxW);
          }
        },
      ),
      { numRuns: 200 },
    );
  });

  it("with every real column matched, the largest column potential is not below 0 (normalized)", () => {
    // `finish` shifts potentials between rows and columns so that the largest column potential
    // is 0 when every real column is matched (SolverState.normalize): a column freed later then
    // starts at the 0 it must reach. (It may stay a rounding error above 0, never below.)
    const check = (r: ExactMatching): void => {
      const s = r.state;
      const m = s.transposed ? s.rows : s.cols;
      const matched = new Uint8Array(m);
      for (const a of s.assignment) if (a < m) matched[a] = 1;
      if (m === 0 || matched.includes(0)) return;
      expect(Math.max(...s.colPotential)).toBeGreaterThanOrEqual(0);
    };
    fc.assert(
      fc.property(mediumMatrix, fc.integer({ min: 1, max: 50 }), (matrix, bump) => {
        // Integer weights, and the same divided by 64 (exactly: potentials then lie in (-1, 0)
        // more often).
        const small = Float64Array.from(matrix.weights, (w) => w / 64);
        for (const weights of [matrix.weights, small]) {
          const plan = mfs({ ...matrix, weights });
          check(plan);
          // And after an imfs call (every weight raised, so the plan's certificate no longer
          // holds as it is).
          const raised = Float64Array.from(weights, (w) => (w > 0 ? w + bump / 64 : w));
          check(imfs({ ...matrix, weights: raised }, plan));
        }
      }),
      { numRuns: 200 },
    );
  });
});
