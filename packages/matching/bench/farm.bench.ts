import { loadavg } from "node:os";
import { bench, describe } from "vitest";
import type { MatchingInput } from "../src/index.js";
import { builtMatching } from "./built.js";
import { calibrate, clockName, cpuMs, quantile } from "./clock.js";
import { seededRandom } from "./events.js";
import { ScipyPeer } from "./scipy-peer.js";

/**
 * `mfs` on matrices shaped like convergent scheduling's plans (`@sched/convergent`: CS_nip and
 * CS_ninp solve one per event): jobs x 150 machines, more jobs than machines under load. The
 * generator copies what the plans of the paper-scale farm measured (`sched-sim gen convergent`,
 * CS_nip, a plan of 293 jobs fitted as job + machine + rest): a third of the pairs eligible,
 * nested by CPUs (a job of c CPUs only on machines of at least c, both uniform in 1..8) and
 * thinned at random (licenses, inputs); a job's own term spread with a standard deviation of
 * about 24, a machine's about 3.3, the rest about 6.9. So every machine ranks the jobs alike.
 * Timed next to SciPy's `linear_sum_assignment` on the same matrices, interleaved round by
 * round (`clock.ts`), and, with `MATCHING_BASE_SRC=<a src/ folder>`, next to that build of
 * `mfs` too (another revision, in the same rounds).
 *
 * On such matrices the searches run long although half the columns are free (about ten rows
 * each), which the free columns do not predict; `mfs` then scans rows through their candidate
 * lists on that evidence (`src/mfs.ts`).
 *
 * Run: `pnpm vitest bench --run bench/farm.bench.ts` (`ROUNDS=n`, default 9; `SCIPY_PYTHON`).
 */
const MACHINES = 150;
const JOBS = [100, 150, 250, 350, 450, 1100];
const ROUNDS = Number(process.env.ROUNDS ?? 9);
const SEED = 730_000; // held out: never used while tuning

function farmMatrix(jobs: number, seed: number): MatchingInput {
  const rand = seededRandom(seed);
  const cpus = Array.from({ length: MACHINES }, () => 1 + Math.floor(8 * rand()));
  const machineTerm = Array.from({ length: MACHINES }, () => 11.4 * rand()); // sd 3.3
  const weights = new Float64Array(jobs * MACHINES);
  for (let i = 0; i < jobs; i++) {
    const need = 1 + Math.floor(8 * rand());
    const own = 20 + 85 * rand(); // sd 24.5
    for (let j = 0; j < MACHINES; j++) {
      if (need > cpus[j]! || rand() >= 0.6) continue;
      weights[i * MACHINES + j] = own + machineTerm[j]! + 24 * rand(); // rest: sd 6.9
    }
  }
  return { rows: jobs, cols: MACHINES, weights };
}

let measured = false;

describe("mfs on farm-shaped matrices (table on the console)", () => {
  bench(
    "interleaved CPU-time measurement, next to SciPy",
    async () => {
      if (measured) return;
      measured = true;
      const { lib, remove } = await builtMatching();
      const baseSrc = process.env.MATCHING_BASE_SRC;
      const base = baseSrc === undefined ? undefined : await builtMatching(baseSrc);
      const peer = await ScipyPeer.start();
      const before = loadavg()[0]!.toFixed(1);
      try {
        const matrices = JOBS.map((jobs, k) => farmMatrix(jobs, SEED + k));
        for (const [k, m] of matrices.entries()) {
          const ours = lib.mfs(m);
          if (peer === undefined) continue;
          await peer.load(`f${k}`, m);
          const theirs = await peer.run(`f${k}`);
          if (
            theirs.size !== ours.size ||
            Math.abs(ours.weight + theirs.cost) > 1e-9 * ours.weight
          ) {
            throw new Error(`mfs and SciPy disagree on ${m.rows} x ${m.cols}`);
          }
        }
        calibrate();
        const times = JOBS.map(() => [] as number[]);
        const baseTimes = JOBS.map(() => [] as number[]);
        const baseRatios = JOBS.map(() => [] as number[]);
        const peerTimes = JOBS.map(() => [] as number[]);
        const ratios = JOBS.map(() => [] as number[]);
        for (let round = 0; round < ROUNDS; round++) {
          for (const [k, m] of matrices.entries()) {
            const t = cpuMs(() => lib.mfs(m));
            times[k]!.push(t);
            if (base !== undefined) {
              const b = cpuMs(() => base.lib.mfs(m));
              baseTimes[k]!.push(b);
              baseRatios[k]!.push(t / b);
            }
            if (peer === undefined) continue;
            const p = (await peer.run(`f${k}`)).ms;
            peerTimes[k]!.push(p);
            ratios[k]!.push(t / p);
          }
        }
        const lines = [
          `mfs on farm-shaped matrices (jobs x ${MACHINES} machines, a third eligible, every machine ranking the jobs alike): ${clockName()}, ms, median over ${ROUNDS} interleaved rounds [IQR]${peer === undefined ? " (no SciPy: set SCIPY_PYTHON)" : `, next to SciPy's linear_sum_assignment (${peer.versions}; time.thread_time in its process) and the median of the per-round ratios`}; load average ${before} -> ${loadavg()[0]!.toFixed(1)}`,
          `| matrix | mfs | IQR | SciPy | mfs / SciPy |${base === undefined ? "" : " base | mfs / base |"}`,
          `| --- | --- | --- | --- | --- |${base === undefined ? "" : " --- | --- |"}`,
        ];
        for (const [k, jobs] of JOBS.entries()) {
          const t = times[k]!;
          const theirs =
            peer === undefined
              ? "- | -"
              : `${quantile(peerTimes[k]!, 0.5).toFixed(2)} | ${quantile(ratios[k]!, 0.5).toFixed(2)}`;
          lines.push(
            `| ${jobs} x ${MACHINES} | ${quantile(t, 0.5).toFixed(2)} | ${quantile(t, 0.25).toFixed(2)} - ${quantile(t, 0.75).toFixed(2)} | ${theirs} |${base === undefined ? "" : ` ${quantile(baseTimes[k]!, 0.5).toFixed(2)} | ${quantile(baseRatios[k]!, 0.5).toFixed(2)} |`}`,
          );
        }
        console.log(lines.join("\n"));
      } finally {
        await peer?.close();
        await remove();
        await base?.remove();
      }
    },
    { iterations: 1, time: 0, warmupIterations: 0, warmupTime: 0 },
  );
});
