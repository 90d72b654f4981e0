import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { imfs, mfs } from "../src/index.js";
import { assertCertificate } from "./certificate.js";
import { assertValidMatching, maxCardinality, prng } from "./oracle.js";

/**
 * Nearly square matrices (at most one spare line per 128 of the shorter side) take the column
 * reduction path of `mfs`, which leaves the spare columns free with negative potentials and
 * repairs them at the end; other rectangles take the plain path. The same problem with a few
 * extra all-ineligible lines (which change nothing) takes the plain path, so the two paths
 * check each other, and the certificate checks both.
 */
function matrix(rows: number, cols: number, seed: number, levels: number, ineligible: number) {
  const rand = prng(seed);
  const weights = new Float64Array(rows * cols);
  for (let k = 0; k < weights.length; k++) {
    weights[k] = rand() < ineligible ? 0 : levels > 0 ? 1 + Math.floor(rand() * levels) : rand();
  }
  // Some lines with no eligible pair at all.
  if (rows > 3) weights.fill(0, 2 * cols, 3 * cols);
  if (cols > 3) for (let i = 0; i < rows; i++) weights[i * cols + 1] = 0;
  return { rows, cols, weights };
}

/** The matrix with `extra` all-ineligible columns (or rows) appended. */
function withIneligible(m: ReturnType<typeof matrix>, extra: number, asRows: boolean) {
  const { rows, cols, weights } = m;
  if (asRows) {
    const w = new Float64Array((rows + extra) * cols);
    w.set(weights);
    return { rows: rows + extra, cols, weights: w };
  }
  const w = new Float64Array(rows * (cols + extra));
  for (let i = 0; i < rows; i++)
    w.set(weights.subarray(i * cols, (i + 1) * cols), i * (cols + extra));
  return { rows, cols: cols + extra, weights: w };
}

describe("mfs on nearly square rectangles (column reduction path)", () => {
  it("is exact both ways (certificate, cardinality, and the plain path on a padded copy)", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 128, max: 170 }),
        fc.boolean(),
        fc.integer(),
        fc.constantFrom(0, 2, 40),
        fc.constantFrom(0, 0.3, 0.9),
        (n, tall, seed, levels, ineligible) => {
          // One spare line (the most the reduction path takes below 256).
          const rows = tall ? n + 1 : n;
          const cols = tall ? n : n + 1;
          const a = matrix(rows, cols, seed, levels, ineligible);
          const r = mfs(a);
          assertValidMatching(a, r);
          expect(r.size).toBe(maxCardinality(a));
          assertCertificate(a, r);
          // 20 more spare lines: beyond the threshold, so the plain path.
          const padded = withIneligible(a, 20, tall);
          const p = mfs(padded);
          expect(p.size).toBe(r.size);
          expect(Math.abs(p.weight - r.weight)).toBeLessThanOrEqual(1e-9 * Math.max(1, r.weight));
          // The state is a valid start for imfs (here: the same matrix, nothing changed).
          const again = imfs(a, r, { changedRows: [] });
          expect([again.size, again.weight]).toEqual([r.size, r.weight]);
        },
      ),
      { numRuns: 40 },
    );
  });

  it("keeps square, 256 x 258 and 150 x 1500 results consistent with the padded plain path", () => {
    for (const [rows, cols] of [
      [200, 200],
      [256, 258],
      [258, 256],
      [150, 1500],
      [1500, 150],
    ] as const) {
      const a = matrix(rows, cols, rows * 31 + cols, 0, 0.3);
      const r = mfs(a);
      assertCertificate(a, r);
      const p = mfs(withIneligible(a, 25, rows > cols));
      expect(p.size).toBe(r.size);
      expect(Math.abs(p.weight - r.weight)).toBeLessThanOrEqual(1e-9 * r.weight);
    }
  });
});
