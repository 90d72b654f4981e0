import { loadavg } from "node:os";
import { bench, describe } from "vitest";
import { mfs } from "../src/index.js";
import { calibrate, clockName, cpuMs, quantile } from "./clock.js";
import { randomMatrix } from "./events.js";
import { ScipyPeer } from "./scipy-peer.js";

/**
 * CPU time of `mfs` on every benchmark shape, square and rectangular both ways, interleaved
 * round by round so that load from other processes hits all shapes alike (see `clock.ts`), with
 * SciPy's `linear_sum_assignment` on the same matrices in the same rounds when a Python with
 * SciPy is there (`scipy-peer.ts`). Prints one table per density: median ms, interquartile
 * range, SciPy's median and the median of the per-round ratios.
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

async function report(ineligible: number, peer: ScipyPeer | undefined): Promise<void> {
  const label = ineligible === 0 ? "dense" : "30% ineligible";
  const before = loadavg()[0]!;
  const matrices = SHAPES.map(([rows, cols]) =>
    randomMatrix(rows, cols, ineligible, rows * 7 + cols),
  );
  for (const [k, m] of matrices.entries()) {
    const ours = mfs(m); // warm-up, and a check against SciPy
    if (peer === undefined) continue;
    await peer.load(`s${k}`, m);
    const theirs = await peer.run(`s${k}`);
    if (theirs.size !== ours.size || Math.abs(ours.weight + theirs.cost) > 1e-9 * ours.weight) {
      throw new Error(`mfs and SciPy disagree on ${m.rows} x ${m.cols} ${label}`);
    }
  }
  calibrate();
  const times = SHAPES.map(() => [] as number[]);
  const peerTimes = SHAPES.map(() => [] as number[]);
  const ratios = SHAPES.map(() => [] as number[]);
  for (let round = 0; round < ROUNDS; round++) {
    for (const [k, m] of matrices.entries()) {
      // 2000 x 2000 takes a few hundred ms: five rounds of it are enough.
      if (m.rows >= 2000 && round >= 5) continue;
      const t = cpuMs(() => mfs(m));
      times[k]!.push(t);
      if (peer === undefined) continue;
      const p = (await peer.run(`s${k}`)).ms;
      peerTimes[k]!.push(p);
      ratios[k]!.push(t / p);
    }
  }
  const lines = [
    `mfs, ${label}: ${clockName()}, ms, median over ${ROUNDS} interleaved rounds (5 at 2000) [IQR]${peer === undefined ? "" : `, next to SciPy's linear_sum_assignment (${peer.versions}; time.thread_time in its process) and the median of the per-round ratios`}; load average ${before.toFixed(1)} -> ${loadavg()[0]!.toFixed(1)}`,
    "| matrix | mfs | IQR | SciPy | mfs / SciPy |",
    "| --- | --- | --- | --- | --- |",
  ];
  for (const [k, [rows, cols]] of SHAPES.entries()) {
    const t = times[k]!;
    const theirs =
      peer === undefined
        ? "- | -"
        : `${quantile(peerTimes[k]!, 0.5).toFixed(1)} | ${quantile(ratios[k]!, 0.5).toFixed(2)}`;
    lines.push(
      `| ${rows} x ${cols} | ${quantile(t, 0.5).toFixed(1)} | ${quantile(t, 0.25).toFixed(1)} - ${quantile(t, 0.75).toFixed(1)} | ${theirs} |`,
    );
  }
  console.log(lines.join("\n"));
}

let measured = false;

describe("mfs: CPU time on every shape (tables on the console)", () => {
  bench(
    "interleaved CPU-time measurement, dense and 30% ineligible",
    async () => {
      // tinybench may call this more than once; one measurement is enough.
      if (measured) return;
      measured = true;
      const peer = await ScipyPeer.start();
      try {
        await report(0, peer);
        await report(0.3, peer);
      } finally {
        await peer?.close();
      }
    },
    { iterations: 1, time: 0, warmupIterations: 0, warmupTime: 0 },
  );
});
