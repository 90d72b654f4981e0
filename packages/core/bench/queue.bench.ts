import { bench, describe } from "vitest";
import { firstFitAllocation } from "../src/allocation.js";
import { identicalPool } from "../src/platform.js";
import type { Scheduler } from "../src/scheduler.js";
import { simulate } from "../src/simulate.js";
import type { Job } from "../src/types.js";

/** Deterministic LCG in [0, 1). */
function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 4294967296;
  };
}

/**
 * A saturated queue: `n` jobs of 1-4 cores (runtimes exponential, mean 600 s) arriving at
 * `load` times what `procs` single-core machines can serve, so the queue keeps growing (to
 * about 100k entries for 150k jobs at load 3) and then drains.
 */
function* saturated(n: number, procs: number, load: number): Generator<Job> {
  const rnd = lcg(7);
  const meanGap = (600 * 2.5) / (procs * load);
  let t = 0;
  for (let id = 0; id < n; id++) {
    t += Math.floor(-Math.log(1 - rnd()) * meanGap);
    const runtime = 1 + Math.floor(-Math.log(1 - rnd()) * 600);
    yield { id, submit: t, runtime, estimate: runtime * 2, cores: 1 + Math.floor(rnd() * 4) };
  }
}

/** FCFS reading the whole `view.waiting` array (materialised at each call after a start). */
const fcfsArray: Scheduler = {
  name: "fcfs-array",
  schedule(ctx) {
    const view = ctx.view;
    for (const w of view.waiting) {
      const alloc = firstFitAllocation(view, w.job.cores);
      if (alloc === null) return;
      ctx.start(w.job.id, alloc);
    }
  },
};

/** The same FCFS through `waitingAt`/`waitingCount` (O(1) per look, no array). */
const fcfsAt: Scheduler = {
  name: "fcfs-at",
  schedule(ctx) {
    const view = ctx.view;
    const n = view.waitingCount!;
    for (let i = 0; i < n; i++) {
      const w = view.waitingAt!(i)!;
      const alloc = firstFitAllocation(view, w.job.cores);
      if (alloc === null) return;
      ctx.start(w.job.id, alloc);
    }
  },
};

function report(policy: Scheduler, n: number, procs: number, load: number): void {
  let maxQueue = 0;
  const probe: Scheduler = {
    name: policy.name,
    schedule(ctx) {
      const q = ctx.view.waitingCount!;
      if (q > maxQueue) maxQueue = q;
      policy.schedule(ctx);
    },
  };
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const trace = simulate(saturated(n, procs, load), identicalPool(procs), probe);
  const ms = performance.now() - t0;
  const c = process.cpuUsage(c0);
  console.log(
    `${policy.name}, ${n} jobs, ${procs} machines, load ${load}: ${trace.stats.events} events, queue up to ${maxQueue}; wall ${ms.toFixed(0)} ms, cpu ${((c.user + c.system) / 1000).toFixed(0)} ms`,
  );
}

describe("saturated FCFS queue (150k jobs, queue past 100k)", () => {
  const once = { iterations: 1, warmupIterations: 0, time: 0, warmupTime: 0 };
  bench("head of the queue via view.waiting", () => report(fcfsArray, 150_000, 64, 3), once);
  bench("head of the queue via view.waitingAt", () => report(fcfsAt, 150_000, 64, 3), once);
});
