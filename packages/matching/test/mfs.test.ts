import { describe, expect, it } from "vitest";
import { imfs, mfs, mis } from "../src/index.js";
import { assertCertificate } from "./certificate.js";
import { matcherSpecs } from "./matcher-specs.js";
import { assertValidMatching, bruteForce } from "./oracle.js";

matcherSpecs("mfs", mfs, { exact: true });

const m = (rows: number, cols: number, w: number[]) => ({
  rows,
  cols,
  weights: Float64Array.from(w),
});

describe("mfs examples", () => {
  it("prefers two pairs to one heavier pair (cardinality first)", () => {
    const r = mfs(m(2, 2, [5, 1, 1, 0]));
    expect([Array.from(r.rowToCol), r.size, r.weight]).toEqual([[1, 0], 2, 2]);
  });

  it("then maximises the weight among maximum matchings", () => {
    // Perfect matchings: {(0,0),(1,2),(2,1)} = 4 + 1 + 2 = 7 and {(0,1),(1,0),(2,2)} = 3 + 3 + 2.
    const r = mfs(m(3, 3, [4, 3, 0, 3, 0, 1, 0, 2, 2]));
    expect([Array.from(r.rowToCol), r.size, r.weight]).toEqual([[1, 0, 2], 3, 8]);
  });

  it("keeps cardinality first with huge and tiny weights", () => {
    // One pair of 1e300 against two pairs of 1e-300: two pairs win.
    const r = mfs(m(2, 2, [1e300, 1e-300, 1e-300, 0]));
    expect([Array.from(r.rowToCol), r.size]).toEqual([[1, 0], 2]);
    expect(r.weight).toBe(2e-300);
    // Near the top of the double range (scaled internally) and at the bottom (subnormal).
    const big = mfs(m(2, 3, [Number.MAX_VALUE, 1e308, 5e-324, 1e308, Number.MAX_VALUE / 2, 0]));
    expect([Array.from(big.rowToCol), big.size]).toEqual([[0, 1], 2]);
    expect(big.weight).toBe(Number.POSITIVE_INFINITY); // the true sum overflows a double
    assertCertificate(
      m(2, 3, [Number.MAX_VALUE, 1e308, 5e-324, 1e308, Number.MAX_VALUE / 2, 0]),
      big,
    );
    const tiny = m(3, 2, [5e-324, 1e-323, 2e-323, 5e-324, 5e-324, 5e-324]);
    const rt = mfs(tiny);
    expect([rt.size, rt.weight]).toEqual([2, bruteForce(tiny).weight]);
  });

  it("scales weights above 2^900 by a power of two that brings the largest to (2^899, 2^900]", () => {
    // cost.ts, scaleFor: potentials then stay below 2 (rows + cols + 1) 2^900, far from
    // overflow. Square (column reduction), wide and tall (the passes that keep each row's tight
    // columns), with the largest weight in any row.
    const shapes: [number, number][] = [
      [2, 2],
      [1, 3],
      [2, 5],
      [3, 1],
      [5, 2],
    ];
    for (const [rows, cols] of shapes) {
      for (const big of [1.5 * 2 ** 1000, Number.MAX_VALUE, 2 ** 901, 2 ** 900]) {
        for (let at = 0; at < rows * cols; at++) {
          const weights = new Float64Array(rows * cols).fill(3);
          weights[at] = big;
          const r = mfs({ rows, cols, weights });
          const { scale } = r.state;
          expect(Math.log2(scale)).toBe(Math.round(Math.log2(scale)));
          expect(big * scale).toBeLessThanOrEqual(2 ** 900);
          expect(big * scale).toBeGreaterThan(2 ** 899);
          if (big === 2 ** 900) expect(scale).toBe(1);
          expect(r.size).toBe(Math.min(rows, cols));
        }
      }
    }
  });

  it("solves rectangular matrices both ways (tall ones are transposed)", () => {
    const wide = m(2, 4, [1, 2, 3, 4, 4, 3, 2, 9]);
    const tall = m(4, 2, [1, 4, 2, 3, 3, 2, 4, 9]);
    const a = mfs(wide);
    const b = mfs(tall);
    expect([Array.from(a.rowToCol), a.weight]).toEqual([[2, 3], 12]);
    expect([Array.from(b.colToRow), b.weight]).toEqual([[2, 3], 12]);
    expect(b.state.transposed).toBe(true);
  });

  it("leaves rows unmatched only when no maximum matching can cover them", () => {
    // Column 0 is wanted by rows 0 and 1; row 1 values it more; row 2 has nothing.
    const r = mfs(m(3, 2, [1, 0, 5, 0, 0, 0]));
    expect([Array.from(r.rowToCol), r.weight]).toEqual([[-1, 0, -1], 5]);
  });

  it("carries a dual certificate of optimality on larger random matrices", () => {
    let seed = 7;
    const rand = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    for (const [rows, cols, holes] of [
      [40, 40, 0],
      [40, 40, 0.9],
      [30, 70, 0.5],
      [70, 30, 0.5],
      [50, 50, 0.97],
      [120, 120, 0.99],
      [150, 60, 0.95],
      [60, 150, 0.995],
    ] as const) {
      const weights = new Float64Array(rows * cols);
      for (let k = 0; k < weights.length; k++)
        weights[k] = rand() < holes ? 0 : Math.ceil(rand() * 20);
      const matrix = { rows, cols, weights };
      const r = mfs(matrix);
      assertValidMatching(matrix, r);
      assertCertificate(matrix, r);
    }
  });
});

describe("mfs with many equal weights (the start on tight pairs)", () => {
  it("matches every row when all weights are equal (more tight pairs per row than are kept)", () => {
    for (const [rows, cols] of [
      [100, 100],
      [80, 120],
      [120, 80],
    ] as const) {
      const matrix = { rows, cols, weights: new Float64Array(rows * cols).fill(3) };
      const r = mfs(matrix);
      expect([r.size, r.weight]).toEqual([Math.min(rows, cols), 3 * Math.min(rows, cols)]);
      assertCertificate(matrix, r);
    }
  });

  it("takes the heavy diagonal of a block of ties", () => {
    // 60 x 60, every weight 1 except a shifted diagonal of 2s: the optimum uses all the 2s.
    const n = 60;
    const weights = new Float64Array(n * n).fill(1);
    for (let i = 0; i < n; i++) weights[i * n + ((i + 7) % n)] = 2;
    const r = mfs({ rows: n, cols: n, weights });
    expect([r.size, r.weight]).toEqual([n, 2 * n]);
    for (let i = 0; i < n; i++) expect(r.rowToCol[i]).toBe((i + 7) % n);
  });
});

describe("README example", () => {
  const weights = Float64Array.of(9, 8, 0, 8, 0, 0, 0, 7, 1);
  it("mfs uses three machines where mis uses two", () => {
    const plan = mfs({ rows: 3, cols: 3, weights });
    expect([Array.from(plan.rowToCol), plan.size, plan.weight]).toEqual([[1, 0, 2], 3, 17]);
    const greedy = mis({ rows: 3, cols: 3, weights });
    expect([Array.from(greedy.rowToCol), greedy.size, greedy.weight]).toEqual([[0, -1, 1], 2, 16]);
  });

  it("imfs follows job 1 leaving and a job arriving", () => {
    const plan = mfs({ rows: 3, cols: 3, weights });
    const next = imfs(
      { rows: 3, cols: 3, weights: Float64Array.of(9, 8, 0, 0, 7, 1, 0, 0, 5) },
      plan,
      { rowOrigin: [0, 2, -1] },
    );
    expect([Array.from(next.rowToCol), next.size, next.weight]).toEqual([[0, 1, 2], 3, 21]);
  });
});

describe("mfs rounding", () => {
  it("is exact in cardinality but only up to rounding in weight when magnitudes clash", () => {
    // Found by fast-check: next to 1e300, the choice between 1e10 and 1e-10 is below rounding.
    const matrix = m(2, 4, [1e-10, 1e300, 1e10, 0, 0, 1e10, 0, 0]);
    const r = mfs(matrix);
    expect(r.size).toBe(2);
    expect(Math.abs(r.weight - 2e10)).toBeLessThanOrEqual(6 * 2 ** -50 * 1e300);
  });
});
