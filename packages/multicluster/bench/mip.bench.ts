import { createJob, type Job } from "@sched/core";
import { bench, describe } from "vitest";
import { buildOasModel, solveOas } from "../src/mip.js";
import { multiClusterPlatform } from "../src/platform.js";
import { loadSolver } from "../src/solver.js";

await loadSolver();

const platformOf = (nodes: number) =>
  multiClusterPlatform([
    { nodes, speed: 1 },
    { nodes, speed: 0.75 },
    { nodes, speed: 0.5 },
  ]);
const jobsOf = (n: number): Job[] =>
  Array.from({ length: n }, (_, i) => createJob({ id: i, submit: 0, runtime: 60 + 30 * ((i * 7) % 5), cores: 1 + (i % 3) }));
const profile = (job: Job) => ({ sigma: 0.7, ptbw: 10e6 * (1 + (job.id % 4)) });
const opts = { bench: { iterations: 3, warmupIterations: 1, time: 0 } };

describe("OAS MIP: build only (LP text), 3 clusters x 2 nodes, 12 slots", () => {
  for (const n of [2, 4, 8]) {
    bench(`${n} jobs`, () => {
      buildOasModel(jobsOf(n), platformOf(2), { eta: 60, theta: 12, profile });
    }, opts.bench);
  }
});

describe("OAS MIP: build + solve vs jobs (3x2 nodes, eta 60 s, theta 12)", () => {
  for (const n of [2, 3, 4]) {
    bench(`${n} jobs`, async () => {
      await solveOas(jobsOf(n), platformOf(2), { eta: 60, theta: 12, profile, timeLimit: 30 });
    }, opts.bench);
  }
});

describe("OAS MIP: build + solve vs nodes per cluster (3 jobs, theta 12)", () => {
  for (const nodes of [1, 2, 3]) {
    bench(`3 x ${nodes} nodes`, async () => {
      await solveOas(jobsOf(3), platformOf(nodes), { eta: 60, theta: 12, profile, timeLimit: 30 });
    }, opts.bench);
  }
});

describe("OAS MIP: build + solve vs slots (3 jobs, 3x2 nodes, eta 60 s)", () => {
  for (const theta of [8, 16, 32]) {
    bench(`theta ${theta}`, async () => {
      await solveOas(jobsOf(3), platformOf(2), { eta: 60, theta, profile, timeLimit: 30 });
    }, opts.bench);
  }
});
