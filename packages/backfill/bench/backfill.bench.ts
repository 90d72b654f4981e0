import { identicalPool, type Job, simulate } from "@sched/core";
import { Random } from "@sched/random";
import { bench, describe } from "vitest";
import { backfill } from "../src/backfill.js";
import { fcfs } from "../src/fcfs.js";
import { conservative, easy } from "../src/presets.js";
import { readCleanSwf } from "../test/support/swf.js";

// Figures to divide: KTH-SP2 after clean-up has 28,467 jobs; the synthetic traces have the
// number of jobs in their names. jobs/s = jobs / mean time.
const KTH = readCleanSwf(
  new URL("../../workload/fixtures/KTH-SP2-1996-2.1-cln.swf", import.meta.url).pathname,
);
const kthPool = identicalPool(100);

/** A seeded source, so every run simulates the same trace (@sched/random, stream "backfill/bench/synthetic"): floats in [0, 1). */
function prng(seed: number): () => number {
  const random = new Random(seed, "backfill/bench/synthetic");
  return () => random.next();
}

/**
 * A synthetic trace streamed one job at a time (never built as an array): exponential
 * inter-arrival times, log-uniform run times from 10 s to 10 h, estimates up to 5x the run time,
 * sizes powers of two up to 64 on a 256-processor pool; `load` scales the arrival rate.
 */
function* synthetic(n: number, load: number, seed: number): Generator<Job> {
  const rnd = prng(seed);
  // offered load = E[cores] * E[runtime] / (256 * mean gap); E[cores] = 127 / 7 ~ 18.14,
  // E[runtime] = 10 * 3599 / ln 3600 ~ 4394 s
  const meanGap = (18.14 * 4394) / (256 * load);
  let t = 0;
  for (let id = 1; id <= n; id++) {
    t += Math.round(-Math.log(1 - rnd()) * meanGap);
    const runtime = Math.max(1, Math.round(10 * 3600 ** rnd()));
    const estimate = Math.round(runtime * (1 + 4 * rnd()));
    const cores = 2 ** Math.floor(rnd() * 7);
    yield { id, submit: t, runtime, estimate, cores };
  }
}

const once = { iterations: 1, warmupIterations: 0, time: 0, warmupTime: 0 };
/** Lets the worker answer vitest's messages before a long synchronous run (its RPC times out otherwise). */
const breathe = () => new Promise((resolve) => setTimeout(resolve, 0));
const pool256 = identicalPool(256);

describe("KTH-SP2 (28,467 jobs after clean-up, 100 processors)", () => {
  bench("fcfs", () => {
    simulate(KTH, kthPool, fcfs());
  });
  bench("easy", () => {
    simulate(KTH, kthPool, easy());
  });
  bench("conservative", () => {
    simulate(KTH, kthPool, conservative());
  });
  bench("backfill 4 reservations", () => {
    simulate(KTH, kthPool, backfill({ reservations: 4 }));
  });
});

describe("synthetic, streamed, 256 processors", () => {
  bench(
    "fcfs, 1,000,000 jobs, load 0.7",
    async () => {
      await breathe();
      simulate(synthetic(1_000_000, 0.7, 1), pool256, fcfs());
    },
    once,
  );
  for (const load of [0.7, 0.85, 0.95]) {
    // The queue grows with the load: time per job shows how EASY scales with queue length.
    bench(
      `easy, 50,000 jobs, load ${load}`,
      async () => {
        await breathe();
        simulate(synthetic(50_000, load, 2), pool256, easy());
      },
      once,
    );
  }
});
