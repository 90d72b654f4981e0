import { createJob, createPlatform, simulate } from "@sched/core";
import { describe, expect, it } from "vitest";
import {
  antiAgingHeuristic,
  bandwidth,
  buildMatrix,
  compareLicenseWeight,
  convergent,
  convergentPriority,
  deadlineDeltas,
  deadlineHeuristic,
  f1,
  IncrementalMatrix,
  inputHeuristic,
  licenseRho,
  licenseWeight,
  makePlan,
  matrixSource,
  paperHeuristics,
  remainingTime,
  rowMeans,
  scaled,
  transferTime,
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

  const farm = () => createPlatform({ machines: [{ speed: 1 }, { speed: 4 }] });
  const rows = () => [
    { job: createJob({ id: 1, submit: 0, runtime: 100, cores: 1 }), progress: 0, machine: -1 },
    { job: createJob({ id: 2, submit: 0, runtime: 50, cores: 1 }), progress: 0, machine: -1 },
  ];

  it("buildMatrix checks its input (a NaN progress was blamed on p[0][0], a job {} threw a raw TypeError)", () => {
    const jobs = rows();
    jobs[0] = { ...jobs[0]!, progress: Number.NaN };
    expect(() => buildMatrix({ now: 0, platform: farm(), jobs }, paperHeuristics())).toThrow(
      "@sched/convergent/buildMatrix: input.jobs[0].progress is NaN, expected a number in [0, 1]",
    );
    const bad = [{ job: {} as never, progress: 0, machine: -1 }];
    expect(() => buildMatrix({ now: 0, platform: farm(), jobs: bad }, [])).toThrow(
      /input\.jobs\[0\]\.job\.id is undefined, expected an integer/,
    );
    expect(() =>
      buildMatrix({ now: 0, platform: farm(), jobs: rows(), previous: Int32Array.of(0) }, []),
    ).toThrow(/input\.previous is an Int32Array of 1, expected an Int32Array of 2/);
    expect(() =>
      buildMatrix(
        { now: 0, platform: farm(), jobs: rows(), eligibility: () => Uint8Array.of(1) },
        [],
      ),
    ).toThrow(
      /input\.eligibility returned a Uint8Array of 1 for row 0, expected a Uint8Array of 2/,
    );
    expect(() =>
      buildMatrix({ now: 0, platform: farm(), jobs: rows() }, [{ name: "x" }] as never),
    ).toThrow(/heuristics\[0\]\.apply is undefined, expected a function/);
  });

  it("the sources' update and IncrementalMatrix check their input (raw TypeErrors before)", () => {
    expect(() => matrixSource().update(undefined as never)).toThrow(
      "@sched/convergent/matrixSource: input is undefined, expected an object",
    );
    const inc = new IncrementalMatrix({ heuristics: paperHeuristics() });
    expect(() => inc.update({ now: Number.NaN, platform: farm(), jobs: rows() })).toThrow(
      /@sched\/convergent\/IncrementalMatrix: input\.now is NaN, expected a finite number/,
    );
    expect(() => inc.forget("1" as never)).toThrow(/id is "1", expected an integer >= 0/);
    expect(inc.update({ now: 0, platform: farm(), jobs: rows() }).changedRows).toEqual([0, 1]);
  });

  it("makePlan checks its matrix and options (NaN weights were blamed on @sched/matching, a bad onPreMatch threw raw)", () => {
    const m = buildMatrix({ now: 0, platform: farm(), jobs: rows() }, paperHeuristics());
    const weights = Float64Array.from(m.weights);
    weights[1] = Number.NaN;
    expect(() => makePlan({ ...m, weights })).toThrow(
      "@sched/convergent/makePlan: matrix.weights[1] is NaN, expected a finite number (> 0: eligible)",
    );
    expect(() => makePlan(m, { changedRows: [5] })).toThrow(
      /options\.changedRows\[0\] is 5, expected an integer in \[0, 1\]/,
    );
    expect(() => makePlan(m, { onPreMatch: 1 as never })).toThrow(
      /options\.onPreMatch is 1, expected a function/,
    );
    expect(() => makePlan({ ...m, context: { ...m.context, jobs: [] } })).toThrow(
      /matrix\.context\.jobs has 0 rows, expected matrix\.rows = 2/,
    );
    expect(Array.from(makePlan(m).rowToCol).sort()).toEqual([0, 1]);
  });

  it("a built-in heuristic is frozen: its apply runs its own rows kernel, which a caller cannot replace", () => {
    const h = antiAgingHeuristic();
    expect(Object.isFrozen(h)).toBe(true);
    expect(() => {
      (h as { rows?: unknown }).rows = undefined;
    }).toThrow(TypeError);
  });

  it("the formula helpers check their arguments (raw TypeErrors, NaN results and coerced strings before)", () => {
    const p = farm();
    const row = rows()[0]!;
    expect(() => remainingTime(row, p, 5)).toThrow(
      "@sched/convergent/remainingTime: m is 5, expected an integer in [0, 1]",
    );
    expect(() => remainingTime({ ...row, progress: 2 }, p, 0)).toThrow(
      /row\.progress is 2, expected a number in \[0, 1\]/,
    );
    expect(() => bandwidth(p, 0, 1, 0)).toThrow(
      /defaultBandwidth is 0, expected a finite number > 0/,
    );
    expect(() => transferTime(row.job, p, 0, { defaultBandwidth: "9" as never })).toThrow(
      /options\.defaultBandwidth is "9"/,
    );
    expect(() => licenseRho([{ ...row, job: null as never }], p)).toThrow(
      /licenseRho: jobs\[0\]\.job is null, expected an object/,
    );
    expect(() => licenseWeight({ cad: 1 }, { cad: Number.NaN }, 1)).toThrow(
      /rho\["cad"\] is NaN, expected a number >= 0/,
    );
    expect(() =>
      compareLicenseWeight({ critical: "1", nonCritical: 0, w: 0 } as never, {
        critical: 0,
        nonCritical: 0,
        w: 0,
      }),
    ).toThrow(/a\.critical is "1", expected a number/);
    expect(() => rowMeans(Float64Array.of(1, 2), 2, 2)).toThrow(
      /weights is a Float64Array of 2, expected a Float64Array of at least rows x cols = 4/,
    );
    expect(() => scaled({ name: "x" } as never, 2)).toThrow(
      /h\.apply is undefined, expected a function/,
    );
    expect(remainingTime(row, p, 1)).toBe(25);
  });

  it("convergentPriority checks its heuristics, and its constants and readings even when heuristics make them unused", () => {
    expect(() => convergentPriority({ heuristics: [1] as never })).toThrow(
      "@sched/convergent/convergentPriority: options.heuristics[0] is 1, expected an object",
    );
    expect(() =>
      convergentPriority({ heuristics: paperHeuristics(), constants: 5 as never }),
    ).toThrow(/options\.constants is 5/);
    expect(typeof convergentPriority({ heuristics: paperHeuristics() })).toBe("function");
  });
});
