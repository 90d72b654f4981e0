import { describe, expect, it } from "vitest";
import {
  eloWorkload,
  generateLublin,
  hiddenSpeedModel,
  multiclusterWorkload,
  oasWorkload,
} from "../src/index.js";

// Defects the options fuzz suite found (options-fuzz.property.test.ts), one example each.
describe("workload generators: hostile options end in an InvalidInputError naming the option", () => {
  it("a bigint in a range is named (JSON.stringify threw a raw TypeError)", () => {
    expect(() => eloWorkload({ operations: [1n, 5] as never })).toThrow(
      "@sched/workload/eloWorkload: options.operations is [bigint,5], expected [lo, hi] with finite",
    );
    expect(() => oasWorkload({ workload: 1n as never })).toThrow(/options\.workload is bigint/);
  });

  it("generateLublin's jobTypes is a boolean (a number was read for its truthiness)", () => {
    expect(() => generateLublin({ jobs: 5, jobTypes: 1 as never })).toThrow(
      "@sched/workload/lublin: options.jobTypes is 1, expected a boolean",
    );
  });

  it("a symbol option is named (a raw TypeError came from a template or a comparison)", () => {
    expect(() => generateLublin({ jobs: 5, arrivalFactor: Symbol() as never })).toThrow(
      /options\.arrivalFactor is symbol/,
    );
    expect(() => eloWorkload({ load: Symbol() as never })).toThrow(/options\.load is symbol/);
    expect(() => multiclusterWorkload({ serviceCV: Symbol() as never })).toThrow(
      /options\.serviceCV is symbol/,
    );
  });

  it("hiddenSpeedModel checks speeds' type (a number became an empty list, a string's digits speeds)", () => {
    expect(() => hiddenSpeedModel({ speeds: 5 as never })).toThrow(
      "@sched/workload/hiddenSpeedModel: options.speeds is 5, expected an array of speeds, one per machine",
    );
    expect(() => hiddenSpeedModel({ speeds: ["5"] as never })).toThrow(
      /options\.speeds\[0\] is "5"/,
    );
  });

  it("a hole in a list of speeds is a bad speed, not a skip", () => {
    // biome-ignore lint/suspicious/noSparseArray: the hostile input
    const speeds = [, 1] as number[];
    expect(() => multiclusterWorkload({ jobs: 5, speeds })).toThrow(
      /options\.speeds\[0\] is undefined/,
    );
  });
});
