import { readFileSync } from "node:fs";
import { format } from "node:util";
import * as core from "@sched/core";
import { computeMetrics, createJob, createPlatform, simulate } from "@sched/core";
import { runReadmeExample } from "@sched/core/testing";
import { expect, it } from "vitest";
import * as convergentPackage from "../src/index.js";
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

// The README's live-loop example, run as it is written there (runReadmeExample: its import lines
// dropped and the names they import passed in, its console.log captured as Node prints it), and
// what it prints compared with the "// " lines that end the block.
it("README live-loop example: convergentPass on a hand-built farm", () => {
  const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8");
  const example = runReadmeExample({
    readme,
    contains: "convergentPass({",
    modules: { "@sched/core": core, "@sched/convergent": convergentPackage },
    format,
  });
  expect(example.lines).toBeLessThan(15);
  expect(example.printed).toEqual(example.expected);
});
