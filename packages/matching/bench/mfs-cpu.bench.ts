import { loadavg } from "node:os";
import { bench, describe } from "vitest";
import { mfs } from "../src/index.js";
import { calibrate, clockName, cpuMs, quantile } from "./clock.js";
import { randomMatrix } from "./events.js";

/**
 * CPU time of `mfs` on every benchmark shape, square and rectangular both ways, interleaved
 * round by round so that load from other processes hits all shapes alike (see `clock.ts`).
 * Prints one table per density: median ms and interquartile range.
 *
 * Run: `pnpm vitest bench --run bench/mfs-cpu.bench.ts`
 */
const SHAPES: [number, number][] = [
  [500, 500],
  [1000, 1000],
  [2000, 2000],
  [150, 1500],
  [1500, 150],
  [1000, 999],
  [999, 1000],
];
const ROUNDS = 9;

function report(ineligible: number): void {
  const label = ineligible === 0 ? "dense" : "30% ineligible";
  const before = loadavg()[0];
  const matrices = SHAPES.map(([rows, cols]) =>
    randomMatrix(rows, cols, ineligible, rows * 7 + cols),
  );
  for (const m of matrices) mfs(m); // warm-up
  calibrate();
  const times = SHAPES.map(() => [] as number[]);
  for (let round = 0; round < ROUNDS; round++) {
    for (const [k, m] of matrices.entries()) {
      // 2000 x 2000 takes a few hundred ms: five rounds of it are enough.
      if (m.rows >= 2000 && round >= 5) continue;
      times[k].push(cpuMs(() => mfs(m)));
    }
  }
  const lines = [
    `mfs, ${label}: ${clockName()}, ms, median over ${ROUNDS} interleaved rounds (5 at 2000) [IQR]; load average ${before.toFixed(1)} -> ${loadavg()[0].toFixed(1)}`,
    "| matrix | median | IQR |",
    "| --- | --- | --- |",
  ];
  for (const [k, [rows, cols]] of SHAPES.entries()) {
    const t = times[k];
    lines.push(
      `| ${rows} x ${cols} | ${quantile(t, 0.5).toFixed(1)} | ${quantile(t, 0.25).toFixed(1)} - ${quantile(t, 0.75).toFixed(1)} |`,
    );
  }
  console.log(lines.join("\n"));
}

let measured = false;

describe("mfs: CPU time on every shape (tables on the console)", () => {
  bench(
    "interleaved CPU-time measurement, dense and 30% ineligible",
    () => {
      // tinybench may call this more than once; one measurement is enough.
      if (measured) return;
      measured = true;
      report(0);
      report(0.3);
    },
    { iterations: 1, time: 0, warmupIterations: 0, warmupTime: 0 },
  );
});
