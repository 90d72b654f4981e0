import { readFileSync } from "node:fs";
import { format } from "node:util";
import { computeMetrics, createJob, simulate } from "@sched/core";
import { runReadmeExample } from "@sched/core/testing";
import { expect, it } from "vitest";
import * as multicluster from "../src/index.js";
import {
  checkOasSchedule,
  multiClusterPlatform,
  oasExecutionModel,
  oasHeuristic,
  oasPlanScheduler,
  solveOas,
} from "../src/index.js";

it("the README example gives the figures it shows", async () => {
  const platform = multiClusterPlatform([
    { nodes: 2, speed: 1 },
    { nodes: 2, speed: 0.75 },
    { nodes: 2, speed: 0.5 },
  ]);
  const jobs = [
    createJob({ id: 1, submit: 0, runtime: 100, cores: 4 }),
    createJob({ id: 2, submit: 0, runtime: 30, cores: 1 }),
    createJob({ id: 3, submit: 0, runtime: 60, cores: 2 }),
    createJob({ id: 4, submit: 0, runtime: 90, cores: 3 }),
  ];
  const profile = () => ({ sigma: 0.5, ptbw: 50e6 });
  const r = await solveOas(jobs, platform, { eta: 40, profile });
  const check = checkOasSchedule(jobs, platform, r.schedule, { eta: 40, profile });
  const executionModel = oasExecutionModel({ profile });
  const makespan = (s: Parameters<typeof simulate>[2]) =>
    computeMetrics(simulate(jobs, platform, s, { executionModel })).makespan;
  expect([r.status, r.makespan, r.gap, check]).toEqual(["optimal", 240, 0, []]);
  expect(makespan(oasPlanScheduler(r.schedule, r.eta))).toBeCloseTo(236.6666666666667, 9);
  expect(makespan(oasPlanScheduler(r.schedule, r.eta, { compact: true, profile }))).toBeCloseTo(
    221.6666666666667,
    9,
  );
  expect(makespan(oasHeuristic("FCFS", { profile }))).toBeCloseTo(221.6666666666667, 9);
});

// The README's live-loop example, run as it is written there (runReadmeExample: its import lines
// dropped and the names they import passed in, its console.log captured as Node prints it), and
// what it prints compared with the "// " lines that end the block.
it("README live-loop example: spaceSharingPass across two calls", () => {
  const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8");
  const example = runReadmeExample({
    readme,
    contains: "spaceSharingPass({",
    modules: { "@sched/multicluster": multicluster },
    format,
  });
  expect(example.lines).toBeLessThan(15);
  expect(example.printed).toEqual(example.expected);
});
