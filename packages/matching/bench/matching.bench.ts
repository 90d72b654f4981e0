import { bench, describe } from "vitest";
import { imfs, mfs, mis } from "../src/index.js";
import { oneEventCases, randomMatrix } from "./events.js";

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
  [1500, 150],
  [1000, 999],
  [999, 1000],
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

for (const ineligible of [0, 0.3]) {
  const label = ineligible === 0 ? "dense" : "30% ineligible";
  // One event on a 1000 x 1000 plan, with the change hint (only the new line is read), next to
  // the full mfs of the plan matrix and the unhinted imfs of the same event.
  describe(`imfs with a change hint after one event, 1000 x 1000 ${label}`, () => {
    const hinted = oneEventCases(1000, ineligible, 4242);
    const plain = oneEventCases(1000, ineligible, 4242, false);
    const plan = mfs(hinted.plan);
    bench(
      "mfs 1000 x 1000 (reference)",
      () => {
        mfs(hinted.plan);
      },
      options(1000),
    );
    for (const [k, event] of hinted.events.entries()) {
      bench(
        `imfs with hint: ${event.name}`,
        () => {
          imfs(event.matrix, plan, event.options);
        },
        options(1000),
      );
      const same = plain.events[k]!;
      bench(
        `imfs without hint: ${same.name}`,
        () => {
          imfs(same.matrix, plan, same.options);
        },
        options(1000),
      );
    }
  });
}
