import { createJob, simulate } from "@sched/core";
import { describe, expect, it } from "vitest";
import {
  adaptivePartitionSize,
  bruteForceOas,
  dynamicPartitionSize,
  fitnessFactors,
  multiClusterPlatform,
  oasExecutionModel,
  oasHeuristic,
  oasPlanScheduler,
  slotsNeeded,
  spaceSharingPass,
  spaceSharingScheduler,
  taskBunches,
  timeCost,
} from "../src/index.js";

// Defects the options fuzz suite found (options-fuzz.property.test.ts), one example each.
const platform = () => multiClusterPlatform([{ nodes: 2, speed: 1 }]);
const jobs = () => [createJob({ id: 1, submit: 0, runtime: 10, cores: 1 })];

describe("multicluster: hostile values end in an InvalidInputError naming the place", () => {
  it("multiClusterPlatform caps the nodes (1e308 ran out of memory)", () => {
    expect(() => multiClusterPlatform([{ nodes: 1e308 }])).toThrow(
      /clusters\[0\]\.nodes is 1e\+308, which makes 1e\+308 nodes in all, expected at most 16777216/,
    );
  });

  it("multiClusterPlatform names coresPerNode and name (core named spec.machines[0].cores; a symbol name threw raw)", () => {
    expect(() => multiClusterPlatform([{ nodes: 1, coresPerNode: 0.5 }])).toThrow(
      /clusters\[0\]\.coresPerNode is 0\.5, expected an integer in \[1, 2147483647\]/,
    );
    expect(() => multiClusterPlatform([{ nodes: 1, name: Symbol() as never }])).toThrow(
      /clusters\[0\]\.name is symbol, expected a string/,
    );
  });

  it("bruteForceOas checks theta, maxNodes and profile (raw RangeError / TypeError before)", () => {
    expect(() =>
      bruteForceOas(jobs(), platform(), { eta: 40, theta: Number.POSITIVE_INFINITY }),
    ).toThrow(/options\.theta is Infinity, expected an integer in \[1, 16777216\]/);
    expect(() =>
      bruteForceOas(jobs(), platform(), { eta: 40, theta: 4, maxNodes: "9" as never }),
    ).toThrow(/options\.maxNodes is "9"/);
    expect(() =>
      bruteForceOas(jobs(), platform(), { eta: 40, theta: 4, profile: 1 as never }),
    ).toThrow(/options\.profile is 1, expected a function/);
  });

  it("timeCost checks its options (NaN and strings passed through)", () => {
    expect(() => timeCost({ sigma: 0.5, sp: "10" as never, sc: 2 })).toThrow(
      '@sched/multicluster/timeCost: options.sp is "10", expected a finite number >= 0',
    );
    expect(timeCost({ sigma: 0.5, sp: 10, sc: 2 })).toBe(6);
  });

  it("a symbol option is named (a raw TypeError came from comparing it)", () => {
    expect(() => spaceSharingScheduler({ executingWeight: Symbol() as never })).toThrow(
      /options\.executingWeight is symbol, expected a number >= 0/,
    );
  });

  it("a hole in state.available is a bad processor, not a skip", () => {
    // biome-ignore lint/suspicious/noSparseArray: the hostile input
    const available = [, 1] as number[];
    expect(() =>
      spaceSharingPass({ platform: platform(), available, queue: [], executing: 0 }),
    ).toThrow(/state\.available\[0\] is undefined/);
  });

  it("taskBunches refuses tasks < weights and overflowing weights (its rounding loop never ended)", () => {
    expect(() => taskBunches([1, 1, 1], 2)).toThrow(
      "@sched/multicluster/taskBunches: tasks is 2, expected an integer >= 3",
    );
    expect(() => taskBunches([1e308, 2, 4], 10)).toThrow(/weights\[0\] is 1e\+308, too large/);
    expect(Array.from(taskBunches([1, 1, 1], 4))).toEqual([2, 1, 1]);
  });

  it("the partition formulas check their arguments (NaN and strings passed through)", () => {
    expect(() =>
      dynamicPartitionSize({ processors: 16, queued: Number.NaN, executing: 0 }),
    ).toThrow(/options\.queued is NaN, expected an integer >= 0/);
    expect(() => adaptivePartitionSize("16" as never, 1)).toThrow(/processors is "16"/);
    expect(() => fitnessFactors([1, 2], 0)).toThrow(/mpl is 0, expected a finite number > 0/);
    expect(() => slotsNeeded({ baseTime: 100, ct: 1, eta: 40, extra: 1 } as never)).toThrow(
      /options\.extra is not a known key/,
    );
  });

  it("oasPlanScheduler checks the schedule, eta and compact (a bad entry silently never started)", () => {
    expect(() => oasPlanScheduler([{ jobId: 1, slot: 0 }] as never, 40)).toThrow(
      "@sched/multicluster/oasPlanScheduler: schedule[0].startSlot is undefined, expected an integer >= 0",
    );
    expect(() => oasPlanScheduler([], 0)).toThrow(/eta is 0, expected a finite number > 0/);
    expect(() => oasPlanScheduler([], 40, { compact: 1 as never })).toThrow(
      /options\.compact is 1, expected a boolean/,
    );
    expect(() => oasExecutionModel({ contention: "yes" as never })).toThrow(
      /options\.contention is "yes", expected a boolean/,
    );
  });

  it("a profile function returning nonsense is named in evaluateCost (was linkDemand's options.ptbw)", () => {
    const model = oasExecutionModel({ profile: () => ({}) as never });
    const p = multiClusterPlatform([{ nodes: 1 }, { nodes: 1 }]);
    const j = [createJob({ id: 1, submit: 0, runtime: 10, cores: 2 })];
    expect(() => simulate(j, p, oasHeuristic("FCFS"), { executionModel: model })).toThrow(
      /set\[0\]\.profile\.sigma is undefined, expected a number in \[0, 1\]/,
    );
  });

  it("still runs a valid space-sharing schedule", () => {
    expect(simulate(jobs(), platform(), spaceSharingScheduler()).records).toHaveLength(1);
  });
});
