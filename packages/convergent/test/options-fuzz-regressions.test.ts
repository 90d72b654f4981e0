import { createJob, createPlatform, simulate } from "@sched/core";
import { describe, expect, it } from "vitest";
import {
  antiAgingHeuristic,
  convergent,
  deadlineDeltas,
  deadlineHeuristic,
  f1,
  inputHeuristic,
} from "../src/index.js";

// Defects the options fuzz suite found (options-fuzz.property.test.ts), one example each.
describe("convergent: hostile values end in an InvalidInputError naming the option", () => {
  it("f1 checks its options (a string was compared as a number, NaN returned)", () => {
    expect(() => f1({ extime: "5" as never, t: 0, deadline: 10, min: 0.1, max: 10 })).toThrow(
      '@sched/convergent/f1: options.extime is "5", expected a finite number',
    );
    expect(() => f1({ extime: 5, t: Number.NaN, deadline: 10, min: 0.1, max: 10 })).toThrow(
      /options\.t is NaN/,
    );
    expect(f1({ extime: 5, t: 0, deadline: 10, min: 0.1, max: 10 })).toBeCloseTo(5.05);
  });

  it("constants that overflow a row are named as options.constants (was @sched/matching/mfs's weights)", () => {
    const platform = createPlatform({ machines: [{ speed: 1 }, { speed: 4 }] });
    const jobs = [
      createJob({ id: 1, submit: 0, runtime: 100, cores: 1 }),
      createJob({ id: 2, submit: 0, runtime: 100, cores: 1, deadline: 40 }),
    ];
    expect(() => simulate(jobs, platform, convergent({ constants: { antiAging: 1e308 } }))).toThrow(
      /@sched\/convergent\/matrixSource: options\.constants make job \d+'s row of the matrix sum to Infinity/,
    );
  });

  it("the heuristic factories check their options (NaN reached the matrix as p[i][m] is NaN)", () => {
    expect(() => antiAgingHeuristic({ weight: Number.NaN })).toThrow(
      "@sched/convergent/antiAgingHeuristic: options.weight is NaN, expected a finite number",
    );
    expect(() => inputHeuristic({ defaultBandwidth: 0 })).toThrow(
      /options\.defaultBandwidth is 0, expected a finite number > 0/,
    );
    expect(() => deadlineHeuristic({ late: "maximum" as never })).toThrow(
      /options\.late is "maximum", expected "max" or "min"/,
    );
    expect(() => deadlineDeltas(0, 100, "20" as never)).toThrow(
      /nxtime is "20", expected an array/,
    );
    expect(Array.from(deadlineDeltas(0, 100, [20, 120]))).toHaveLength(2);
  });
});
