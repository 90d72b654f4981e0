import { cpus, loadavg } from "node:os";
import { createSimulation, identicalPool } from "@sched/core";
import { bench, describe } from "vitest";
import { lublinJobs } from "./lublin.js";
import { POLICIES } from "./policies.js";

// Every policy on a machine of the size of the largest in the Parallel Workloads Archive (ANL
// Intrepid: 163,840 cores; CEA Curie: 93,312): 131,072 processors as the engine models an SWF
// machine (that many single-core machines), 5,000 jobs of the Lublin-Feitelson model (typeless,
// seed 1, arrival factor 0.65) at that size (jobs of up to 2^17 processors, about 6,500 on
// average). A job's allocation is then a list of thousands of machines, which the engine checks,
// takes, gives back and counts for machine usage: this bench watches that per-part cost.
// (`sched-sim run` runs EASY and FCFS with default options on its pooled kernel, which has
// none.) Streamed (`createSimulation`, records dropped): a kept trace holds every allocation.
// Prints CPU ms per policy (process.cpuUsage around the run: user + system).

const once = { iterations: 1, warmupIterations: 0, time: 0, warmupTime: 0 };
/** Lets the worker answer vitest's messages before a long synchronous run (its RPC times out otherwise). */
const breathe = () => new Promise((resolve) => setTimeout(resolve, 0));
const PROCS = 131_072;
const JOBS = 5_000;
const pool = identicalPool(PROCS);

describe(`Lublin typeless, ${JOBS} jobs streamed, ${PROCS} processors, arrival factor 0.65`, () => {
  for (const p of POLICIES) {
    bench(
      p.label,
      async () => {
        await breathe();
        const jobs = lublinJobs({
          jobs: JOBS,
          procs: PROCS,
          seed: 1,
          arrivalFactor: 0.65,
          deadlines: p.deadlines,
        });
        const start = process.cpuUsage();
        const sim = createSimulation(pool, p.make(), { onRecord: () => {}, metrics: true });
        sim.push(jobs);
        const summary = sim.end();
        const cpu = process.cpuUsage(start);
        console.log(
          `[big-machine] ${p.label}: ${JOBS} jobs on ${PROCS} processors, CPU ${((cpu.user + cpu.system) / 1000).toFixed(0)} ms, mean wait ${(summary.metrics?.meanWait ?? Number.NaN).toFixed(0)} s; load ${loadavg()[0]!.toFixed(2)} on ${cpus().length} cores`,
        );
      },
      once,
    );
  }
});
