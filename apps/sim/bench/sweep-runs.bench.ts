import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { bench, describe } from "vitest";
import { builtCliAndFolder, loadAverage, measure } from "./whole-process.js";

// A sweep of many small runs, whole processes: its cost is the results directory (a file per
// run), not the simulations. `sched-sim sweep` of SWEEP_RUNS runs (default 16,000: 4 policies x
// 4 loads x SWEEP_RUNS / 16 seeds of a 20-job synthetic workload, 2 worker threads), then
// `compare` of the directory, then the same sweep again (a resume that finds every run done:
// it reads the directory and rewrites the summaries). Wall clock and max RSS of each; the file
// system's load moves the wall times by tens of percent from run to run on a shared machine.

const RUNS = Number(process.env.SWEEP_RUNS ?? "16000");
const once = { iterations: 1, warmupIterations: 0, time: 0, warmupTime: 0 };
const built = builtCliAndFolder("sched-sim-sweep-runs-");
let measured = false;

describe("a sweep of many small runs, whole process", () => {
  bench(
    `${RUNS} runs: sweep, compare, resume`,
    async () => {
      if (measured) return;
      measured = true;
      const experiment = join(built.dir, "many.json");
      await writeFile(
        experiment,
        JSON.stringify({
          name: "many",
          workload: { type: "synthetic", jobs: 20 },
          platform: { procs: 8 },
          schedulers: ["fcfs", "easy", "conservative", { name: "easy", options: { order: "sjf" } }],
          grid: { load: [0.3, 0.5, 0.7, 0.9] },
          seeds: Math.max(1, Math.round(RUNS / 16)),
        }),
      );
      const out = join(built.dir, "out");
      const cli = (...args: string[]) => measure([process.execPath, built.cli, ...args]);
      const report = (what: string, c: ReturnType<typeof cli>) =>
        console.log(
          `[sweep-runs] ${what}: wall ${c.wall.toFixed(1)} s, CPU ${c.cpu.toFixed(1)} s, max RSS ${c.maxRssMb.toFixed(0)} MB; load ${loadAverage()}`,
        );
      report(
        `sweep of ${RUNS} runs`,
        cli("sweep", experiment, "--out", out, "--jobs", "2", "--quiet"),
      );
      report("compare of its directory", cli("compare", out));
      report(
        "the same sweep again (all done)",
        cli("sweep", experiment, "--out", out, "--jobs", "2", "--quiet"),
      );
    },
    once,
  );
});
