import { createJob, type Job } from "@sched/core";
import { bench, describe } from "vitest";
import { buildOasModel, type OasFormulation, type SolveOasOptions, solveOas } from "../src/mip.js";
import { multiClusterPlatform } from "../src/platform.js";
import { loadSolver } from "../src/solver.js";
import { cpuMs, cpuMsAsync, median } from "./cpu.js";

// Figures are CPU time (user + system of this single-threaded process: HiGHS' Wasm runs on
// it), medians over repetitions: the machine is shared, so wall clock would mislead. Both
// formulations of the same MIP are timed in the same loop, interleaved, so their ratio holds
// whatever the load.
await loadSolver();
// warm the Wasm JIT before timing
await solveOas(
  [createJob({ id: 0, submit: 0, runtime: 60, cores: 2 })],
  multiClusterPlatform([{ nodes: 2 }, { nodes: 2 }]),
  { eta: 30, theta: 6 },
);

const platformOf = (nodes: number) =>
  multiClusterPlatform([
    { nodes, speed: 1 },
    { nodes, speed: 0.75 },
    { nodes, speed: 0.5 },
  ]);
const jobsOf = (n: number): Job[] =>
  Array.from({ length: n }, (_, i) =>
    createJob({ id: i, submit: 0, runtime: 60 + 30 * ((i * 7) % 5), cores: 1 + (i % 3) }),
  );
const profile = (job: Job) => ({ sigma: 0.7, ptbw: 10e6 * (1 + (job.id % 4)) });
/** The same deterministic budget for every solve: results do not move with load. */
const BUDGET = 20_000;
const FORMULATIONS: readonly OasFormulation[] = ["configurations", "resources"];

async function rows(label: string, jobs: Job[], nodes: number, o: SolveOasOptions, reps: number) {
  const cpu = new Map<OasFormulation, number[]>(FORMULATIONS.map((f) => [f, []]));
  const last = new Map<OasFormulation, Awaited<ReturnType<typeof solveOas>>>();
  for (let i = 0; i < reps; i++) {
    for (const formulation of FORMULATIONS) {
      cpu.get(formulation)!.push(
        await cpuMsAsync(async () => {
          last.set(
            formulation,
            await solveOas(jobs, platformOf(nodes), {
              profile,
              maxNodes: BUDGET,
              formulation,
              ...o,
            }),
          );
        }),
      );
    }
  }
  for (const formulation of FORMULATIONS) {
    const r = last.get(formulation)!;
    console.log(
      `${label}, ${formulation}: CPU median ${median(cpu.get(formulation)!).toFixed(0)} ms (${reps} runs); ${r.status}, ${r.makespanSlots} slots, bound ${r.bound}, ${r.nodes} nodes, theta ${r.theta}, ${r.variables} vars, ${r.constraints} rows`,
    );
  }
}

// build + solve against the number of jobs (3 x 2 nodes, eta 60 s, the default horizon)
for (const n of [2, 4, 6, 8])
  await rows(`jobs ${n}, 3x2, eta 60`, jobsOf(n), 2, { eta: 60 }, n <= 4 ? 3 : 1);
// against the nodes per cluster (4 jobs)
for (const nodes of [2, 4, 8])
  await rows(`nodes 3x${nodes}, 4 jobs, eta 60`, jobsOf(4), nodes, { eta: 60 }, 3);
// against the slot size (6 jobs, 3 x 2): finer slots, a longer horizon
for (const eta of [120, 60, 30, 15])
  await rows(`eta ${eta}, 6 jobs, 3x2`, jobsOf(6), 2, { eta }, 1);

describe("OAS MIP: build only (LP text), 3 clusters x 2 nodes, eta 60 s, theta 12", () => {
  for (const formulation of FORMULATIONS) {
    for (const n of [2, 8, 16]) {
      const times: number[] = [];
      for (let i = 0; i < 7; i++) {
        times.push(
          cpuMs(() => {
            buildOasModel(jobsOf(n), platformOf(2), { eta: 60, theta: 12, profile, formulation });
          }),
        );
      }
      console.log(
        `build ${n} jobs, ${formulation}: CPU median ${median(times).toFixed(2)} ms (7 runs)`,
      );
      bench(
        `${n} jobs, ${formulation}`,
        () => {
          buildOasModel(jobsOf(n), platformOf(2), { eta: 60, theta: 12, profile, formulation });
        },
        { iterations: 10, warmupIterations: 2, time: 0 },
      );
    }
  }
});
