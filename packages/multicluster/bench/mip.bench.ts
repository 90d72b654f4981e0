import { createJob, type Job } from "@sched/core";
import { bench, describe } from "vitest";
import { buildOasModel, solveOas } from "../src/mip.js";
import { multiClusterPlatform } from "../src/platform.js";
import { loadSolver } from "../src/solver.js";

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
const opts = { bench: { iterations: 2, warmupIterations: 0, time: 0 } };

// one solve per setting, to report status, gap and model size next to the timings
for (const n of [2, 4, 6, 8]) {
  const r = await solveOas(jobsOf(n), platformOf(2), {
    eta: 60,
    theta: 12,
    profile,
    timeLimit: 20,
  });
  console.log(
    `jobs ${n}: ${r.status} makespan ${r.makespanSlots} slots (warm start ${r.warmStartSlots}), gap ${r.gap?.toFixed(3)}, ${r.variables} vars, ${r.constraints} rows, build ${r.buildTimeMs.toFixed(1)} ms, solve ${r.solveTimeMs.toFixed(0)} ms`,
  );
}

describe("OAS MIP: build only (LP text), 3 clusters x 2 nodes, 12 slots", () => {
  for (const n of [2, 4, 8, 16]) {
    bench(
      `${n} jobs`,
      () => {
        buildOasModel(jobsOf(n), platformOf(2), { eta: 60, theta: 12, profile });
      },
      { iterations: 20, warmupIterations: 5, time: 0 },
    );
  }
});

describe("OAS MIP: build + solve vs jobs (3x2 nodes, eta 60 s, theta 12, limit 20 s)", () => {
  for (const n of [2, 4, 6, 8]) {
    bench(
      `${n} jobs`,
      async () => {
        await solveOas(jobsOf(n), platformOf(2), { eta: 60, theta: 12, profile, timeLimit: 20 });
      },
      opts.bench,
    );
  }
});

describe("OAS MIP: build + solve vs nodes per cluster (4 jobs, theta 12, limit 20 s)", () => {
  for (const nodes of [2, 4, 8]) {
    bench(
      `3 x ${nodes} nodes`,
      async () => {
        await solveOas(jobsOf(4), platformOf(nodes), {
          eta: 60,
          theta: 12,
          profile,
          timeLimit: 20,
        });
      },
      opts.bench,
    );
  }
});

describe("OAS MIP: build + solve vs slots (4 jobs, 3x2 nodes, a 720 s window cut into theta slots)", () => {
  for (const theta of [6, 12, 24, 48]) {
    bench(
      `theta ${theta}`,
      async () => {
        await solveOas(jobsOf(4), platformOf(2), {
          eta: 720 / theta,
          theta,
          profile,
          timeLimit: 20,
        });
      },
      opts.bench,
    );
  }
});
