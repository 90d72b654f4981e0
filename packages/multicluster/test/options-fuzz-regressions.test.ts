import { createJob, simulate } from "@sched/core";
import { describe, expect, it } from "vitest";
import {
  bruteForceOas,
  multiClusterPlatform,
  spaceSharingPass,
  spaceSharingScheduler,
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

  it("still runs a valid space-sharing schedule", () => {
    expect(simulate(jobs(), platform(), spaceSharingScheduler()).records).toHaveLength(1);
  });
});
