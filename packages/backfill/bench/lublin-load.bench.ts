import { identicalPool, simulate } from "@sched/core";
import { bench, describe } from "vitest";
import { measure } from "./lublin.js";
import { POLICIES } from "./policies.js";

// How the time per job grows with the queue: the same 100,000 Lublin jobs (typeless, seed 2,
// 256 processors) at five arrival factors (offered load 0.46, 0.60, 0.73, 0.87 and 1.01, the
// last an overload whose queue keeps growing). Each run prints a "[lublin]" line with the mean
// queue length seen at each decision, the CPU time per job and the time per decision.

const once = { iterations: 1, warmupIterations: 0, time: 0, warmupTime: 0 };
/** Lets the worker answer vitest's messages before a long synchronous run (its RPC times out otherwise). */
const breathe = () => new Promise((resolve) => setTimeout(resolve, 0));
const pool = identicalPool(256);

for (const p of POLICIES) {
  describe(`Lublin typeless, 100,000 jobs, 256 processors: ${p.label}`, () => {
    for (const arrivalFactor of [0.5, 0.65, 0.8, 0.95, 1.1]) {
      bench(
        `arrival factor ${arrivalFactor}`,
        async () => {
          await breathe();
          measure(
            `100k f${arrivalFactor} ${p.label}`,
            { jobs: 100_000, procs: 256, seed: 2, arrivalFactor, deadlines: p.deadlines },
            pool,
            p.make(),
            simulate,
          );
        },
        once,
      );
    }
  });
}
