import { createJob, simulate } from "@sched/core";
import { describe, expect, it } from "vitest";
import {
  multiClusterPlatform,
  oasExecutionModel,
  oasHeuristic,
  spaceSharingScheduler,
} from "../src/index.js";

// A referenceSpeed so far from the speeds that runtime x referenceSpeed / speed underflows is
// named as the platform's referenceSpeed, the value the caller set.
describe("multicluster: a referenceSpeed whose durations underflow", () => {
  it("a referenceSpeed whose durations underflow is named, not the execution model (it said options.executionModel returned 0)", () => {
    const p = multiClusterPlatform([{ nodes: 2, speed: 1e30 }], { referenceSpeed: 1e-300 });
    const j = [createJob({ id: 1, submit: 0, runtime: 1, cores: 2 })];
    expect(() => simulate(j, p, oasHeuristic("FCFS"))).toThrow(
      /@sched\/core\/simulate: platform\.referenceSpeed is 1e-300: job 1's duration/,
    );
    expect(() =>
      simulate(j, p, oasHeuristic("FCFS"), { executionModel: oasExecutionModel() }),
    ).toThrow(
      "@sched/multicluster/oasExecutionModel: platform.referenceSpeed is 1e-300: job 1's duration seconds x ct = 1 x 0 is 0 in double precision (ct = sigma x SP + (1 - sigma) x SC, SP = referenceSpeed / speed), expected a finite number > 0 (scale referenceSpeed and the machines' speeds together)",
    );
    expect(() => simulate(j, p, spaceSharingScheduler())).toThrow(
      /platform\.referenceSpeed is 1e-300/,
    );
  });
});
