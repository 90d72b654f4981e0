import { join } from "node:path";
import { bench, describe } from "vitest";
import { SCHEDULERS } from "../src/schedulers.js";
import { builtCliAndFolder, loadAverage, measure } from "./whole-process.js";

// Every policy `sched-sim run` offers, whole process, on a machine the size of the largest in the
// Parallel Workloads Archive: Lublin jobs on 131,072 processors (ANL Intrepid has 163,840; an SWF
// machine is as many one-core machines, so a job's allocation lists thousands of parts, and a
// policy that maps a job onto one machine rejects every wider job). `sched-sim gen lublin --jobs
// BIG_MACHINE_JOBS --procs 131072 --seed 1` (default 5,000 jobs), then `sched-sim run -w TRACE -s
// P --out DIR` per policy, each a child process: user + system CPU and max RSS from
// /usr/bin/time, one run each, printed as a table with the load average. The figures of the
// READMEs come from 20,000 jobs (BIG_MACHINE_JOBS=20000, about 3 minutes).

const JOBS = Number(process.env.BIG_MACHINE_JOBS ?? 5000);
const once = { iterations: 1, warmupIterations: 0, time: 0, warmupTime: 0 };
const built = builtCliAndFolder("sched-sim-big-machine-");
let measured = false;

describe(`every policy on ${JOBS} Lublin jobs on 131,072 processors, whole process`, () => {
  bench(
    "one run each",
    () => {
      // vitest may call a bench function more than once: measure once.
      if (measured) return;
      measured = true;
      const trace = join(built.dir, "big.swf");
      const args = ["gen", "lublin", "--jobs", String(JOBS), "--procs", "131072"];
      measure([process.execPath, built.cli, ...args, "--seed", "1", "--out", trace]);
      console.log(`[big-machine] ${JOBS} jobs, 131,072 processors; load average ${loadAverage()}`);
      console.log("[big-machine] policy                  CPU s   max RSS MB   rejected");
      for (const entry of SCHEDULERS) {
        if (entry.experimentOnly !== undefined) continue;
        const out = join(built.dir, entry.name);
        const run = ["run", "-w", trace, "-s", entry.name, "--out", out];
        const r = measure([process.execPath, built.cli, ...run]);
        const rejected = /rejected (\d+) of/.exec(r.stderr)?.[1] ?? "0";
        console.log(
          `[big-machine] ${entry.name.padEnd(22)} ${r.cpu.toFixed(2).padStart(7)} ${r.maxRssMb.toFixed(0).padStart(12)} ${rejected.padStart(10)}`,
        );
      }
      console.log(`[big-machine] load average at the end ${loadAverage()}`);
    },
    once,
  );
});
