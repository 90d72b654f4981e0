import { createJob } from "@sched/core";
import { it } from "vitest";
import { solveOas } from "../src/mip.js";
import { multiClusterPlatform } from "../src/platform.js";
import { loadSolver } from "../src/solver.js";
const paper = multiClusterPlatform([{ nodes: 2, speed: 1 }, { nodes: 2, speed: 0.75 }, { nodes: 2, speed: 0.5 }]);
it("probe", async () => {
  await loadSolver();
  const lone = [createJob({ id: 7, submit: 0, runtime: 100, cores: 2 })];
  let r = await solveOas(lone, paper, { eta: 50, theta: 8 });
  console.log("lone", r.status, r.buildTimeMs.toFixed(1), r.solveTimeMs.toFixed(1));
  r = await solveOas(lone, paper, { eta: 50, theta: 8 });
  console.log("lone again", r.status, r.buildTimeMs.toFixed(1), r.solveTimeMs.toFixed(1));
  const jobs = [1, 2].map((id) => createJob({ id, submit: 0, runtime: 100, cores: 4 }));
  for (const theta of [undefined, 7]) {
    r = await solveOas(jobs, paper, theta === undefined ? { eta: 50 } : { eta: 50, theta });
    console.log("two", theta, r.theta, r.status, r.makespanSlots, r.solveTimeMs.toFixed(1), r.variables, r.constraints);
  }
  const eight = Array.from({ length: 8 }, (_, i) => createJob({ id: i, submit: 0, runtime: 40 + 17 * i, cores: 1 + (i % 4) }));
  for (const frac of [1, 0.5]) {
    r = await solveOas(eight, paper, { eta: frac * 99.5, timeLimit: 20 });
    console.log("eight", frac, r.theta, r.status, r.makespanSlots, r.gap, r.solveTimeMs.toFixed(1), r.variables, r.constraints);
  }
}, 120000);
