import { InvalidInputError, identicalPool } from "@sched/core";
import { describe, expect, it } from "vitest";
import {
  antiAgingHeuristic,
  convergent,
  convergentPass,
  convergentPriority,
  convergentVariant,
  deadlineHeuristic,
  IncrementalMatrix,
  inputHeuristic,
  licensesHeuristic,
  matrixSource,
  minimalRequirementsHeuristic,
  overheadHeuristic,
  paperHeuristics,
  waitMinimizationHeuristic,
} from "../src/index.js";

const state = {
  now: 0,
  platform: identicalPool(2, { cores: 4 }),
  running: [],
  queue: [{ id: 1, cores: 2, estimate: 10, submit: 0 }],
};

/** `fn` throws an InvalidInputError whose message contains `text`. */
function expectRefused(fn: () => unknown, text: string | RegExp): void {
  expect(fn).toThrow(InvalidInputError);
  expect(fn).toThrow(text);
}

describe("unknown option keys are refused", () => {
  it("convergentPass names the misspelt key and the one meant", () => {
    expectRefused(
      () => convergentPass(state, { matching: "mis" } as never),
      /^@sched\/convergent\/convergentPass: options\.matching is not a known key \(did you mean `matcher`\?\)/,
    );
    expectRefused(
      () => convergentPass(state, { name: "x" } as never),
      "options.name is not a known key",
    );
    expect(convergentPass(state, { matcher: "mis", matching: undefined } as never).start).toEqual([
      1,
    ]);
  });

  it("convergent, convergentVariant and nested constants and readings", () => {
    expectRefused(
      () => convergent({ preemptoin: false } as never),
      "@sched/convergent/convergent: options.preemptoin is not a known key (did you mean `preemption`?)",
    );
    expectRefused(
      () => convergentVariant("CS_ip", { matcher: "mis" } as never),
      "@sched/convergent/convergentVariant: options.matcher is not a known key",
    );
    expectRefused(
      () => convergent({ constants: { licence: 5 } } as never),
      "constants.licence is not a known key (did you mean `licenses`?)",
    );
    expectRefused(
      () => convergent({ readings: { deadlinelate: "min" } } as never),
      "readings.deadlinelate is not a known key (did you mean `deadlineLate`?)",
    );
    expectRefused(() => paperHeuristics({ bse: 2 } as never), "constants.bse");
    expectRefused(
      () => convergent(null as never),
      "@sched/convergent/convergent: options is null, expected an object",
    );
  });

  it("every heuristic factory, the matrix sources and the priority", () => {
    const cases: [() => unknown, string][] = [
      [() => antiAgingHeuristic({ wieght: 1 } as never), "antiAgingHeuristic: options.wieght"],
      [() => deadlineHeuristic({ kk: 1 } as never), "deadlineHeuristic: options.kk"],
      [() => inputHeuristic({ bandwidth: 1 } as never), "inputHeuristic: options.bandwidth"],
      [() => licensesHeuristic({ w: 1 } as never), "licensesHeuristic: options.w"],
      [() => minimalRequirementsHeuristic({ bas: 1 } as never), "options.bas"],
      [() => overheadHeuristic({ weigth: 1 } as never), "overheadHeuristic: options.weigth"],
      [() => waitMinimizationHeuristic({ x: 1 } as never), "waitMinimizationHeuristic: options.x"],
      [() => matrixSource({ incremantal: true } as never), "matrixSource: options.incremantal"],
      [
        () => new IncrementalMatrix({ heuristics: [], tol: 1 } as never),
        "IncrementalMatrix: options.tol",
      ],
      [() => convergentPriority({ constant: {} } as never), "convergentPriority: options.constant"],
    ];
    for (const [fn, text] of cases) expectRefused(fn, text);
  });
});

describe("quoted values", () => {
  it("an unknown matcher is quoted", () => {
    expectRefused(
      () => convergentPass(state, { matcher: "hungarian" } as never),
      'options.matcher is "hungarian", expected "mis", "mfs" or "imfs"',
    );
  });
});

describe("unknown state keys are refused", () => {
  it("convergentPass names a misspelt state key", () => {
    expectRefused(
      () => convergentPass({ ...state, freelicenses: {} } as never),
      "state.freelicenses is not a known key (did you mean `freeLicenses`?)",
    );
  });
});
