import { InvalidInputError } from "@sched/errors";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Matching, MatchingInput } from "../src/index.js";
import { assertValidMatching, bruteForce } from "./oracle.js";

/** A matcher under test: `mis`, `mfs`, or `imfs` wrapped with some previous plan. */
export type Matcher = (matrix: MatchingInput) => Matching;

/** Small matrices: a mix of ineligible entries (0, negative, -Infinity), ties and floats. */
export const smallMatrix = (maxSide = 6): fc.Arbitrary<MatchingInput> =>
  fc
    .record({
      rows: fc.integer({ min: 0, max: maxSide }),
      cols: fc.integer({ min: 0, max: maxSide }),
    })
    .chain(({ rows, cols }) =>
      fc
        .array(
          fc.oneof(
            fc.constantFrom(0, -1, Number.NEGATIVE_INFINITY, 1, 2, 3),
            fc.integer({ min: 1, max: 9 }),
            fc.double({ min: 0.001, max: 10, noNaN: true }),
          ),
          { minLength: rows * cols, maxLength: rows * cols },
        )
        .map((w) => ({ rows, cols, weights: Float64Array.from(w) })),
    );

/**
 * The conformance suite every matcher passes: valid matchings, determinism, inputs untouched,
 * edge shapes, validation errors; with `exact`, also brute-force optimality.
 */
export function matcherSpecs(name: string, solve: Matcher, options: { exact: boolean }): void {
  describe(`${name} conformance`, () => {
    it(`${name}(matrix) returns a valid matching (no row or column twice, no ineligible pair)`, () => {
      fc.assert(
        fc.property(smallMatrix(7), (matrix) => {
          assertValidMatching(matrix, solve(matrix));
        }),
        { numRuns: 300 },
      );
    });

    it(`${name}(matrix) is deterministic and never modifies the matrix`, () => {
      fc.assert(
        fc.property(smallMatrix(6), (matrix) => {
          const copy = Float64Array.from(matrix.weights);
          const a = solve(matrix);
          const b = solve(matrix);
          expect(Array.from(a.rowToCol)).toEqual(Array.from(b.rowToCol));
          expect(a.weight).toBe(b.weight);
          expect(Array.from(matrix.weights)).toEqual(Array.from(copy));
        }),
        { numRuns: 100 },
      );
    });

    it(`${name}(matrix) is maximal: no eligible pair has both ends free`, () => {
      fc.assert(
        fc.property(smallMatrix(7), (matrix) => {
          const r = solve(matrix);
          for (let i = 0; i < matrix.rows; i++) {
            if (r.rowToCol[i] !== -1) continue;
            for (let j = 0; j < matrix.cols; j++) {
              if (r.colToRow[j] === -1)
                expect(matrix.weights[i * matrix.cols + j]! > 0).toBe(false);
            }
          }
        }),
        { numRuns: 200 },
      );
    });

    it(`${name} handles empty matrices and all-ineligible rows`, () => {
      for (const [rows, cols] of [
        [0, 0],
        [0, 5],
        [5, 0],
      ] as const) {
        const r = solve({ rows, cols, weights: new Float64Array(0) });
        expect([r.rowToCol.length, r.colToRow.length, r.size, r.weight]).toEqual([
          rows,
          cols,
          0,
          0,
        ]);
      }
      const weights = Float64Array.from([0, -1, 0, 4, 0, 2, 0, 0, 0]);
      const r = solve({ rows: 3, cols: 3, weights });
      expect([Array.from(r.rowToCol), r.size, r.weight]).toEqual([[-1, 0, -1], 1, 4]);
    });

    it(`${name} rejects malformed matrices with InvalidInputError`, () => {
      const ok = new Float64Array(4).fill(1);
      const bad: unknown[] = [
        { rows: -1, cols: 2, weights: ok },
        { rows: 1.5, cols: 2, weights: ok },
        { rows: 2, cols: Number.NaN, weights: ok },
        { rows: 2, cols: 3, weights: ok },
        { rows: 2, cols: 2, weights: Float64Array.from([1, Number.NaN, 1, 1]) },
        { rows: 2, cols: 2, weights: Float64Array.from([1, Number.POSITIVE_INFINITY, 1, 1]) },
        { rows: 2, cols: 2, weights: null },
        { rows: 1, cols: 1, weights: ["1"] },
        null,
      ];
      for (const matrix of bad) {
        expect(() => solve(matrix as MatchingInput)).toThrow(InvalidInputError);
      }
      expect(() =>
        solve({ rows: 1, cols: 2, weights: Float64Array.from([1, Number.NaN]) }),
      ).toThrow(/matrix\.weights\[1\] \(row 0, col 1\) is NaN/);
      // A string reads as one: "2", not 2 (which would look valid).
      expect(() => solve({ rows: "2", cols: 1, weights: [1, 1] } as never)).toThrow(
        'matrix.rows is "2", expected a non-negative integer',
      );
      expect(() => solve({ rows: 1, cols: 2, weights: [1, "3"] } as never)).toThrow(
        'matrix.weights[1] (row 0, col 1) is "3", expected a finite number',
      );
      // Shapes that pass a looser check than the README's: rows or cols beyond the safe
      // integers, or negative, with no entry at all (rows * cols = 0 or -0), and a weights array
      // longer than rows * cols. Each is refused naming its field (not a RangeError from an
      // array of that length, nor a silent result).
      expect(() => solve({ rows: 0, cols: 2 ** 53, weights: new Float64Array(0) })).toThrow(
        "matrix.cols is 9007199254740992, expected a non-negative integer",
      );
      expect(() => solve({ rows: -1, cols: 0, weights: new Float64Array(0) })).toThrow(
        "matrix.rows is -1, expected a non-negative integer",
      );
      expect(() => solve({ rows: 1, cols: 1, weights: Float64Array.of(1, 2) })).toThrow(
        "matrix.weights has length 2, expected rows * cols = 1",
      );
      // The error names the first invalid entry, not a valid extreme one before it (the largest
      // double, -Infinity); in every shape (square, wide and tall take different passes in mfs).
      for (const bad of [Number.NaN, Number.POSITIVE_INFINITY]) {
        const extremes = [Number.MAX_VALUE, Number.NEGATIVE_INFINITY, bad];
        expect(() => solve({ rows: 1, cols: 3, weights: Float64Array.from(extremes) })).toThrow(
          `matrix.weights[2] (row 0, col 2) is ${bad}`,
        );
        const wide = [1, 1, 1, 1, 1, bad];
        expect(() => solve({ rows: 2, cols: 3, weights: Float64Array.from(wide) })).toThrow(
          `matrix.weights[5] (row 1, col 2) is ${bad}`,
        );
        const tall = [1, 1, 1, 1, bad, 1];
        expect(() => solve({ rows: 3, cols: 2, weights: Float64Array.from(tall) })).toThrow(
          `matrix.weights[4] (row 2, col 0) is ${bad}`,
        );
      }
    });

    if (options.exact) {
      it(`${name}(matrix) has maximum cardinality, then maximum weight (brute force)`, () => {
        fc.assert(
          fc.property(smallMatrix(6), (matrix) => {
            const got = solve(matrix);
            const want = bruteForce(matrix);
            expect(got.size).toBe(want.size);
            expect(got.weight).toBeCloseTo(want.weight, 9);
          }),
          { numRuns: 300 },
        );
      });
    }
  });
}
