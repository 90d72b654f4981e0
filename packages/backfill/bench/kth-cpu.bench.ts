import { execFileSync } from "node:child_process";
import {
  type Allocation,
  firstFitAllocation,
  identicalPool,
  type Job,
  type Platform,
  type Scheduler,
  simulate,
} from "@sched/core";
import { bench, describe } from "vitest";
import { fcfs } from "../src/fcfs.js";
import { conservative, easy } from "../src/presets.js";
import { readCleanSwf } from "../test/support/swf.js";

// CPU time per run on KTH-SP2 (28,467 jobs after clean-up), the figures of the README's "This
// revision: cheaper per-event work": fcfs, easy and conservative on both platform shapes
// (100 single-core machines, one 100-core machine), the engine alone (a policy that replays
// easy()'s starts and plans nothing) and, when python3 is on the machine, the plain Python EASY
// loop of bench/python/easy.py. Each case prints one "[kth-cpu]" line: the median and the
// smallest CPU time (process.cpuUsage, user + system) of 7 runs after one warm-up run.

const fixture = new URL("../../workload/fixtures/KTH-SP2-1996-2.1-cln.swf", import.meta.url)
  .pathname;
const KTH = readCleanSwf(fixture);
const SHAPES: readonly [string, Platform][] = [
  ["100 x 1 core", identicalPool(100)],
  ["1 x 100 cores", identicalPool(1, { cores: 100 })],
];
const RUNS = 7;
const once = { iterations: 1, warmupIterations: 0, time: 0, warmupTime: 0 };
/** Lets the worker answer vitest's messages before a long synchronous run. */
const breathe = () => new Promise((resolve) => setTimeout(resolve, 0));

/** Median and minimum CPU milliseconds of RUNS runs of `run`, after one warm-up run. */
function cpu(run: () => void): { median: number; min: number } {
  run();
  const times: number[] = [];
  for (let r = 0; r < RUNS; r++) {
    const c0 = process.cpuUsage();
    run();
    const c = process.cpuUsage(c0);
    times.push((c.user + c.system) / 1000);
  }
  times.sort((a, b) => a - b);
  return { median: times[times.length >> 1]!, min: times[0]! };
}

function report(label: string, t: { median: number; min: number }): void {
  console.log(`[kth-cpu] ${label}: median ${t.median.toFixed(0)} ms, min ${t.min.toFixed(0)} ms`);
}

/** A policy that starts each job at the time `starts` says (first fit), planning nothing. */
function replay(order: readonly [number, Job][]): Scheduler {
  let i = 0;
  return {
    name: "replay",
    reset() {
      i = 0;
    },
    schedule(ctx) {
      const now = ctx.view.now;
      while (i < order.length && order[i]![0] === now) {
        const job = order[i++]![1];
        ctx.start(job.id, firstFitAllocation(ctx.view, job.cores) as Allocation);
      }
    },
  };
}

for (const [shape, platform] of SHAPES) {
  describe(`KTH-SP2, ${shape}: CPU time`, () => {
    for (const [name, make] of [
      ["fcfs", fcfs],
      ["easy", easy],
      ["conservative", conservative],
    ] as const) {
      bench(
        name,
        async () => {
          await breathe();
          report(
            `${shape} ${name}`,
            cpu(() => simulate(KTH, platform, make())),
          );
        },
        once,
      );
    }
    bench(
      "engine alone (easy's starts replayed)",
      async () => {
        await breathe();
        const trace = simulate(KTH, platform, easy());
        const order = trace.records
          .map((r): [number, Job] => [r.intervals[0]!.start, r.job])
          .sort((a, b) => a[0] - b[0]);
        report(
          `${shape} engine alone`,
          cpu(() => simulate(KTH, platform, replay(order))),
        );
      },
      once,
    );
  });
}

describe("KTH-SP2: the plain Python EASY loop", () => {
  bench(
    "python3 bench/python/easy.py",
    () => {
      const script = new URL("./python/easy.py", import.meta.url).pathname;
      const times: number[] = [];
      for (let r = 0; r < 5; r++) {
        let out: string;
        try {
          out = execFileSync("python3", [script, fixture, "100"], { encoding: "utf8" });
        } catch {
          console.log("[kth-cpu] python3 not available: skipped");
          return;
        }
        const m = /cpu (\d+) ms/.exec(out);
        if (m !== null) times.push(Number(m[1]));
      }
      times.sort((a, b) => a - b);
      console.log(
        `[kth-cpu] python easy.py: median ${times[times.length >> 1]} ms, min ${times[0]} ms (simulation only, parsing excluded)`,
      );
    },
    once,
  );
});
