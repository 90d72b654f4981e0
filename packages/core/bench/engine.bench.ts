import { bench, describe } from "vitest";
import { firstFitAllocation } from "../src/allocation.js";
import { checkSchedule } from "../src/check.js";
import { createJob } from "../src/job.js";
import { computeMetrics } from "../src/metrics.js";
import { identicalPool } from "../src/platform.js";
import type { Scheduler } from "../src/scheduler.js";
import { simulate } from "../src/simulate.js";
import type { ScheduleTrace } from "../src/trace.js";
import type { Job } from "../src/types.js";

/** Deterministic LCG in [0, 1). */
function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 4294967296;
  };
}

/** `n` jobs, Poisson-ish arrivals, sized so the pool of `procs` runs at about `load`. */
function* workload(
  n: number,
  procs: number,
  load: number,
  seed: number,
  maxCores = 2 * Math.max(1, procs / 32) - 1,
): Generator<Job> {
  const rnd = lcg(seed);
  const meanRuntime = 600;
  const meanCores = (1 + maxCores) / 2;
  const meanGap = (meanRuntime * meanCores) / (procs * load);
  let t = 0;
  for (let id = 0; id < n; id++) {
    t += Math.floor(-Math.log(1 - rnd()) * meanGap);
    const runtime = 1 + Math.floor(-Math.log(1 - rnd()) * meanRuntime);
    const cores = 1 + Math.floor(rnd() * maxCores);
    yield { id, submit: t, runtime, estimate: runtime * 2, cores };
  }
}

/** Strict arrival order: start the head of the queue while it fits (a bench-only FCFS). */
const headFirst: Scheduler = {
  name: "head-first",
  schedule(ctx) {
    const view = ctx.view;
    for (const w of view.waiting) {
      const alloc = firstFitAllocation(view, w.job.cores);
      if (alloc === null) return;
      ctx.start(w.job.id, alloc);
    }
  },
};

/** Runs one simulation and prints events/s by wall clock and by this process's CPU time. */
function report(label: string, n: number, procs: number, load: number, maxCores?: number) {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const trace = simulate(workload(n, procs, load, 7, maxCores), identicalPool(procs), headFirst);
  const ms = performance.now() - t0;
  const c = process.cpuUsage(c0);
  const cpuMs = (c.user + c.system) / 1000;
  const events = trace.stats.events;
  console.log(
    `${label}: ${events} events, ${trace.stats.decisions} decisions; wall ${ms.toFixed(0)} ms = ${Math.round(
      (events / ms) * 1000,
    )} events/s; cpu ${cpuMs.toFixed(0)} ms = ${Math.round((events / cpuMs) * 1000)} events/s`,
  );
  return trace;
}

describe("event loop throughput (head-first policy)", () => {
  bench(
    "100k jobs, 1024-machine pool, load 0.9",
    () => {
      report("100k jobs / 1024 machines / load 0.9", 100_000, 1024, 0.9);
    },
    { iterations: 2, warmupIterations: 1, time: 0, warmupTime: 0 },
  );
  bench(
    "100k jobs, 128-machine pool, load 1.5 (queue grows to ~37k)",
    () => {
      report("100k jobs / 128 machines / load 1.5", 100_000, 128, 1.5);
    },
    { iterations: 1, warmupIterations: 0, time: 0, warmupTime: 0 },
  );
  bench(
    "1M jobs, 128-machine pool, load 0.9",
    () => {
      report("1M jobs / 128 machines / load 0.9", 1_000_000, 128, 0.9);
    },
    { iterations: 1, warmupIterations: 0, time: 0, warmupTime: 0 },
  );
});

describe("repeated runs and wide jobs", () => {
  bench(
    "100k createJob jobs, 128 machines, load 0.9, 5 runs of the same array",
    () => {
      // createJob jobs cost simulate the same as plain objects (one message-free check each).
      const jobs = Array.from(workload(100_000, 128, 0.9, 11), (j) => createJob(j));
      const pool = identicalPool(128);
      const c0 = process.cpuUsage();
      for (let i = 0; i < 5; i++) simulate(jobs, pool, headFirst);
      const c = process.cpuUsage(c0);
      console.log(
        `5 runs of 100k createJob jobs: cpu ${((c.user + c.system) / 5000).toFixed(0)} ms per run`,
      );
    },
    { iterations: 1, warmupIterations: 0, time: 0, warmupTime: 0 },
  );
  bench(
    "100k jobs of up to 64 cores, 1024 single-core machines, load 0.9",
    () => {
      // Allocations of up to 64 parts: shared frozen parts, batched ledger tree updates.
      report("100k jobs / 1024 machines / up to 64 cores", 100_000, 1024, 0.9, 64);
    },
    { iterations: 2, warmupIterations: 1, time: 0, warmupTime: 0 },
  );
});

/**
 * A policy that replays the starts of `trace` at their recorded times and allocations: what the
 * engine costs with (almost) no policy work.
 */
function replay(trace: ScheduleTrace): Scheduler {
  const byTime = new Map<
    number,
    [number, (typeof trace.records)[number]["intervals"][number]["allocation"]][]
  >();
  for (const r of trace.records) {
    for (const iv of r.intervals) {
      let list = byTime.get(iv.start);
      if (list === undefined) byTime.set(iv.start, (list = []));
      list.push([r.job.id, iv.allocation]);
    }
  }
  return {
    name: "replay",
    schedule(ctx) {
      const list = byTime.get(ctx.view.now);
      if (list !== undefined) for (const [id, a] of list) ctx.start(id, a);
    },
  };
}

describe("engine alone: replaying recorded starts", () => {
  for (const [procs, maxCores] of [
    [100, 8],
    [1024, 64],
  ] as const) {
    bench(
      `100k jobs, ${procs} machines, up to ${maxCores} cores, load 0.9: plain and createJob jobs`,
      () => {
        const plain = Array.from(workload(100_000, procs, 0.9, 13, maxCores));
        const built = plain.map((j) => createJob(j));
        const pool = identicalPool(procs);
        const policy = replay(simulate(plain, pool, headFirst));
        for (const [label, jobs] of [
          ["plain", plain],
          ["createJob", built],
        ] as const) {
          const times: number[] = [];
          for (let i = 0; i < 5; i++) {
            const c0 = process.cpuUsage();
            simulate(jobs, pool, policy);
            const c = process.cpuUsage(c0);
            times.push((c.user + c.system) / 1000);
          }
          times.sort((a, b) => a - b);
          console.log(
            `replay of 100k ${label} jobs on ${procs} machines (up to ${maxCores} cores): cpu median ${times[2]!.toFixed(0)} ms per run (5 runs)`,
          );
        }
      },
      { iterations: 1, warmupIterations: 0, time: 0, warmupTime: 0 },
    );
  }
});

describe("metrics and invariant checking of a 100k-job trace", () => {
  const trace = simulate(workload(100_000, 128, 0.9, 7), identicalPool(128), headFirst);
  bench(
    "computeMetrics",
    () => {
      computeMetrics(trace);
    },
    { iterations: 2, warmupIterations: 0, time: 0, warmupTime: 0 },
  );
  bench(
    "checkSchedule",
    () => {
      checkSchedule(trace);
    },
    { iterations: 2, warmupIterations: 0, time: 0, warmupTime: 0 },
  );
});
