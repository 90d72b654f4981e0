import { computeMetrics, createJob, createPlatform, simulate } from "@sched/core";
import { expect, it } from "vitest";
import { convergentVariant } from "../src/index.js";

it("README example", () => {
  const platform = createPlatform({
    machines: [{ speed: 1 }, { speed: 4 }],
    licenses: [{ name: "cad", copies: 1 }],
  });
  const jobs = [
    createJob({ id: 1, submit: 0, runtime: 100, cores: 1 }),
    createJob({ id: 2, submit: 0, runtime: 100, cores: 1, deadline: 40 }),
    createJob({ id: 3, submit: 10, runtime: 20, cores: 1, deadline: 60, licenses: { cad: 1 } }),
  ];
  const trace = simulate(jobs, platform, convergentVariant("CS_ip"));
  const runs = trace.records.map((r) => [
    r.job.id,
    r.intervals.map((iv) => [iv.start, iv.end, iv.allocation[0]?.machine]),
  ]);
  expect(runs).toEqual([
    [1, [[0, 100, 0]]],
    [2, [[0, 25, 1]]], // the deadline job gets the fast machine
    [3, [[25, 30, 1]]], // not urgent: waits for the fast machine rather than preempting
  ]);
  expect(computeMetrics(trace).deadlineMissRate).toBe(0);
});
