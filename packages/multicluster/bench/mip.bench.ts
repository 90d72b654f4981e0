import { createJob, type Job } from "@sched/core";
import { bench, describe } from "vitest";
import { buildOasModel, type SolveOasOptions, solveOas } from "../src/mip.js";
import { multiClusterPlatform } from "../src/platform.js";
import { loadSolver } from "../src/solver.js";
import { cpuMs, cpuMsAsync, median } from "./cpu.js";

// Figures are CPU time (user + system of this single-threaded process: HiGHS' Wasm runs on
// it), medians over repetitions: the machine is shared, so wall clock would mislead.
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
const LIMIT = 20;
/** The solver before this round's improvements: no horizon tightening, symmetry or load rows. */
const OLD: SolveOasOptions = { tightenHorizon: false, symmetryBreaking: false, loadCuts: false };

async function row(label: string, jobs: Job[], nodes: number, o: SolveOasOptions, reps: number) {
  const cpu: number[] = [];
  let last = await solveOas(jobs, platformOf(nodes), { profile, timeLimit: LIMIT, ...o });
  for (let i = 0; i < reps; i++) {
    cpu.push(
      await cpuMsAsync(async () => {
        last = await solveOas(jobs, platformOf(nodes), { profile, timeLimit: LIMIT, ...o });
      }),
    );
  }
  const r = last;
  console.log(
    `${label}: CPU median ${median(cpu).toFixed(0)} ms (${reps} runs); ${r.status}, ${r.makespanSlots} slots (start ${r.warmStartSlots}), gap ${r.gap === null ? "-" : `${(r.gap * 100).toFixed(1)}%`}, theta ${r.theta}, ${r.variables} vars, ${r.constraints} rows, build ${r.buildTimeMs.toFixed(1)} ms`,
  );
}

// build only
for (const n of [2, 4, 8, 16]) {
  const times: number[] = [];
  for (let i = 0; i < 7; i++) {
    times.push(
      cpuMs(() => {
        buildOasModel(jobsOf(n), platformOf(2), { eta: 60, theta: 12, profile });
      }),
    );
  }
  console.log(
    `build ${n} jobs (3x2, theta 12): CPU median ${median(times).toFixed(2)} ms (7 runs)`,
  );
}
// build + solve vs jobs, new defaults against the old configuration
for (const n of [2, 4, 6, 8]) {
  const reps = n <= 4 ? 3 : 1;
  await row(
    `jobs ${n}, 3x2, eta 60, theta <= 12 (new)`,
    jobsOf(n),
    2,
    { eta: 60, theta: 12 },
    reps,
  );
  await row(
    `jobs ${n}, 3x2, eta 60, theta 12 (old)`,
    jobsOf(n),
    2,
    { eta: 60, theta: 12, ...OLD },
    reps,
  );
}
for (const nodes of [2, 4, 8]) {
  await row(
    `nodes 3x${nodes}, 4 jobs, theta <= 12 (new)`,
    jobsOf(4),
    nodes,
    { eta: 60, theta: 12 },
    3,
  );
}
for (const theta of [6, 12, 24, 48]) {
  await row(
    `slots ${theta}, 4 jobs, 3x2, eta 720/theta (new)`,
    jobsOf(4),
    2,
    { eta: 720 / theta, theta },
    3,
  );
}

describe("OAS MIP: build only (LP text), 3 clusters x 2 nodes, 12 slots", () => {
  for (const n of [2, 8, 16]) {
    bench(
      `${n} jobs`,
      () => {
        buildOasModel(jobsOf(n), platformOf(2), { eta: 60, theta: 12, profile });
      },
      { iterations: 10, warmupIterations: 2, time: 0 },
    );
  }
});
