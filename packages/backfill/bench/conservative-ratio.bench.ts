import { identicalPool, simulate } from "@sched/core";
import { bench, describe } from "vitest";
import { conservative, easy } from "../src/presets.js";
import { measure } from "./lublin.js";

// Conservative backfilling against EASY under overload, measured in one process: the
// load-1.01 run of bench/lublin-load.bench.ts (100,000 Lublin jobs, seed 2, 256 processors,
// arrival factor 1.1), easy and conservative alternating, ROUNDS rounds. Each run prints its
// "[lublin]" line; then one "[conservative-ratio]" line per round and one for all rounds: CPU
// µs per job of each policy and conservative / easy (issue 22 asks for at most 2).

const ROUNDS = 2;
const once = { iterations: 1, warmupIterations: 0, time: 0, warmupTime: 0 };
/** Lets the worker answer vitest's messages before a long synchronous run. */
const breathe = () => new Promise((resolve) => setTimeout(resolve, 0));
const workload = { jobs: 100_000, procs: 256, seed: 2, arrivalFactor: 1.1, deadlines: false };

describe("conservative / easy, CPU per job, one run, load 1.01", () => {
  bench(
    `${ROUNDS} rounds, alternating`,
    async () => {
      const pool = identicalPool(256);
      let easySum = 0;
      let consSum = 0;
      for (let round = 1; round <= ROUNDS; round++) {
        await breathe();
        const e = measure(`ratio r${round} easy`, workload, pool, easy(), simulate);
        await breathe();
        const c = measure(`ratio r${round} conservative`, workload, pool, conservative(), simulate);
        const eu = (e.cpuMs * 1000) / e.jobs;
        const cu = (c.cpuMs * 1000) / c.jobs;
        easySum += eu;
        consSum += cu;
        console.log(
          `[conservative-ratio] round ${round}: easy ${eu.toFixed(1)} us/job, ` +
            `conservative ${cu.toFixed(1)} us/job, ratio ${(cu / eu).toFixed(2)}`,
        );
      }
      console.log(
        `[conservative-ratio] all rounds: easy ${(easySum / ROUNDS).toFixed(1)} us/job, ` +
          `conservative ${(consSum / ROUNDS).toFixed(1)} us/job, ratio ${(consSum / easySum).toFixed(2)}`,
      );
    },
    once,
  );
});
