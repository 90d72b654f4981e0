import { Random } from "@sched/random";
import { ProcessorPool } from "../src/processor-pool.js";
import { chooseBaseline, choosePoolBaseline } from "../src/space-sharing.js";
import { cpuMs, median, reportOnce } from "./cpu.js";

// The adaptive baseline's random choice on a machine of 131 072 processors (the shape of the
// largest SWF traces), half of them available at random: chooseBaseline (the list of the
// available ones read from every flag, then the partial shuffle) against choosePoolBaseline
// (the core path's: the sparse shuffle of ranks on a ProcessorPool, or the list read from its
// bits when the job takes more than a 32nd of the pool). Both choose the same processors
// from the same draws (test/processor-pool.property.test.ts). Prints the median CPU time of 5
// rounds of 200 choices per job size.

const PROCS = 131_072;
const layout = new Random(1, "bench/layout");
const flags = new Uint8Array(PROCS);
const pool = new ProcessorPool(PROCS);
for (let p = 0; p < PROCS; p++) {
  if (layout.integer(0, 1) === 1) {
    flags[p] = 1;
    pool.set(p, 1);
  }
}
const speeds = new Array<number>(PROCS).fill(1);
const CALLS = 200;

reportOnce("space sharing on 131 072 processors", "baseline random choice", () => {
  for (const k of [1, 64, 4096, 65_536]) {
    const plain: number[] = [];
    const kept: number[] = [];
    for (let r = 0; r < 5; r++) {
      const a = new Random(r, "baseline/selection");
      plain.push(
        cpuMs(() => {
          for (let c = 0; c < CALLS; c++) chooseBaseline(flags, speeds, k, "random", a);
        }),
      );
      const b = new Random(r, "baseline/selection");
      kept.push(
        cpuMs(() => {
          for (let c = 0; c < CALLS; c++) choosePoolBaseline(pool, speeds, k, "random", b);
        }),
      );
    }
    console.log(
      `k = ${k} of ${pool.count} available: chooseBaseline ${((median(plain) * 1000) / CALLS).toFixed(1)} us, choosePoolBaseline ${((median(kept) * 1000) / CALLS).toFixed(1)} us per choice (median of 5 x ${CALLS})`,
    );
  }
});
