import { loadavg } from "node:os";
import { bench, describe } from "vitest";
import { mfs } from "../src/index.js";
import { randomMatrix } from "./events.js";

/**
 * CPU time (process.cpuUsage, user + system) of `mfs` on every benchmark shape, square and
 * rectangular both ways, interleaved round by round so that load from other processes hits all
 * shapes alike. Prints one table per density: median ms and interquartile range.
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

const pause = new Int32Array(new SharedArrayBuffer(4));
/**
 * CPU time of one call. process.cpuUsage counts the whole process, including V8's background
 * threads (garbage collection, optimizing compilation): after each call the thread sleeps 15 ms
 * (no CPU), so that background work an earlier call started (mostly freeing the 8 MB cost
 * matrices of `mfs`) is mostly done before the next one. A collection that a call's own
 * allocations trigger still counts, even when most of its garbage came from earlier calls (see
 * the README). (Per-thread CPU time would avoid that, but Node 20 has no such clock, and
 * /proc/thread-self/schedstat is only updated at scheduler ticks.)
 */
const cpuMs = (f: () => unknown): number => {
  const start = process.cpuUsage();
  f();
  const d = process.cpuUsage(start);
  Atomics.wait(pause, 0, 0, 15);
  return (d.user + d.system) / 1000;
};
const quantile = (xs: number[], q: number): number => {
  const s = xs.slice().sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))];
};

function report(ineligible: number): void {
  const label = ineligible === 0 ? "dense" : "30% ineligible";
  const before = loadavg()[0];
  const matrices = SHAPES.map(([rows, cols]) =>
    randomMatrix(rows, cols, ineligible, rows * 7 + cols),
  );
  for (const m of matrices) mfs(m); // warm-up
  const times = SHAPES.map(() => [] as number[]);
  for (let round = 0; round < ROUNDS; round++) {
    for (const [k, m] of matrices.entries()) {
      // 2000 x 2000 takes a few hundred ms: five rounds of it are enough.
      if (m.rows >= 2000 && round >= 5) continue;
      times[k].push(cpuMs(() => mfs(m)));
    }
  }
  const lines = [
    `mfs, ${label}: CPU ms (process.cpuUsage), median over ${ROUNDS} interleaved rounds (5 at 2000) [IQR]; load average ${before.toFixed(1)} -> ${loadavg()[0].toFixed(1)}`,
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
