import { identicalPool, simulate } from "@sched/core";
import { bench, describe } from "vitest";
import { measure } from "./lublin.js";
import { POLICIES } from "./policies.js";

// One run per policy over 1,000,000 jobs of the Lublin-Feitelson model (typeless, seed 1) on 256
// processors, arrival factor 0.65 (offered load 0.55: backfilling queues stay short, FCFS's
// does not). The jobs are streamed from the lazy generator into simulate, never an array. Each
// run prints a "[lublin]" line with wall and CPU time, jobs/s and the mean queue length.

const once = { iterations: 1, warmupIterations: 0, time: 0, warmupTime: 0 };
/** Lets the worker answer vitest's messages before a long synchronous run (its RPC times out otherwise). */
const breathe = () => new Promise((resolve) => setTimeout(resolve, 0));
const pool = identicalPool(256);

describe("Lublin typeless, 1,000,000 jobs streamed, 256 processors, arrival factor 0.65", () => {
  for (const p of POLICIES) {
    bench(
      p.label,
      async () => {
        await breathe();
        measure(
          `1M ${p.label}`,
          { jobs: 1_000_000, procs: 256, seed: 1, arrivalFactor: 0.65, deadlines: p.deadlines },
          pool,
          p.make(),
          simulate,
        );
      },
      once,
    );
  }
});
