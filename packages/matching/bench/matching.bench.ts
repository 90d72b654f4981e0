import { bench, describe } from "vitest";
import { imfs, mfs, mis } from "../src/index.js";

/** Seeded uniform weights in (0, 1]; a fraction `ineligible` of the entries is 0. */
function randomMatrix(rows: number, cols: number, ineligible: number, seed: number) {
  let a = seed >>> 0;
  const rand = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const weights = new Float64Array(rows * cols);
  for (let k = 0; k < weights.length; k++) weights[k] = rand() < ineligible ? 0 : 1 - rand();
  return { rows, cols, weights };
}

/** The matrix without row `at` (a job leaves), and the rowOrigin that says so. */
function withoutRow(matrix: { rows: number; cols: number; weights: Float64Array }, at: number) {
  const { rows, cols, weights } = matrix;
  const out = new Float64Array((rows - 1) * cols);
  out.set(weights.subarray(0, at * cols), 0);
  out.set(weights.subarray((at + 1) * cols), at * cols);
  const rowOrigin = Array.from({ length: rows - 1 }, (_, i) => (i < at ? i : i + 1));
  return { matrix: { rows: rows - 1, cols, weights: out }, rowOrigin };
}

const shapes: [number, number][] = [
  [500, 500],
  [1000, 1000],
  [2000, 2000],
  [150, 1500],
];
const options = (rows: number) => ({
  iterations: rows >= 2000 ? 5 : 15,
  time: 0,
  warmupIterations: 2,
});

for (const ineligible of [0, 0.3]) {
  const label = ineligible === 0 ? "dense" : "30% ineligible";
  describe(`mfs, ${label}`, () => {
    for (const [rows, cols] of shapes) {
      const matrix = randomMatrix(rows, cols, ineligible, rows * 7 + cols);
      bench(
        `mfs ${rows} x ${cols}`,
        () => {
          mfs(matrix);
        },
        options(rows),
      );
    }
  });

  describe(`mis, ${label}`, () => {
    for (const [rows, cols] of [
      [1000, 1000],
      [150, 1500],
    ] as const) {
      const matrix = randomMatrix(rows, cols, ineligible, rows * 7 + cols);
      bench(
        `mis ${rows} x ${cols}`,
        () => {
          mis(matrix);
        },
        options(rows),
      );
    }
  });

  describe(`imfs after one event, ${label}`, () => {
    for (const [rows, cols] of [
      [1000, 1000],
      [150, 1500],
    ] as const) {
      // The plan for `rows` jobs; the same matrix plus one job (a new last row).
      const grown = randomMatrix(rows + 1, cols, ineligible, 99 + rows);
      const matrix = { rows, cols, weights: grown.weights.slice(0, rows * cols) };
      const plan = mfs(matrix);
      const leave = withoutRow(matrix, rows >> 1);
      bench(
        `mfs ${rows} x ${cols} (reference)`,
        () => {
          mfs(matrix);
        },
        options(rows),
      );
      bench(
        `imfs ${rows} x ${cols}: a job arrives`,
        () => {
          imfs(grown, plan);
        },
        options(rows),
      );
      bench(
        `imfs ${rows} x ${cols}: a job leaves`,
        () => {
          imfs(leave.matrix, plan, { rowOrigin: leave.rowOrigin });
        },
        options(rows),
      );
    }
  });
}
