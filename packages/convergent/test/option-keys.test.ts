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

/** The message of the InvalidInputError `fn` throws. */
function refused(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(InvalidInputError);
    return (e as Error).message;
  }
  throw new Error("expected an InvalidInputError");
}

describe("unknown option keys are refused", () => {
  it("convergentPass names the misspelt key and the one meant", () => {
    expect(refused(() => convergentPass(state, { matching: "mis" } as never))).toMatch(
      /^@sched\/convergent\/convergentPass: options\.matching is not a known key \(did you mean `matcher`\?\)/,
    );
    expect(refused(() => convergentPass(state, { name: "x" } as never))).toContain(
      "options.name is not a known key",
    );
    expect(convergentPass(state, { matcher: "mis", matching: undefined } as never).start).toEqual([
      1,
    ]);
  });

  it("convergent, convergentVariant and nested constants and readings", () => {
    expect(refused(() => convergent({ preemptoin: false } as never))).toContain(
      "@sched/convergent/convergent: options.preemptoin is not a known key (did you mean `preemption`?)",
    );
    expect(refused(() => convergentVariant("CS_ip", { matcher: "mis" } as never))).toContain(
      "@sched/convergent/convergentVariant: options.matcher is not a known key",
    );
    expect(refused(() => convergent({ constants: { licence: 5 } } as never))).toContain(
      "constants.licence is not a known key (did you mean `licenses`?)",
    );
    expect(refused(() => convergent({ readings: { deadlinelate: "min" } } as never))).toContain(
      "readings.deadlinelate is not a known key (did you mean `deadlineLate`?)",
    );
    expect(refused(() => paperHeuristics({ bse: 2 } as never))).toContain("constants.bse");
    expect(refused(() => convergent(null as never))).toBe(
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
    for (const [fn, text] of cases) expect(refused(fn)).toContain(text);
  });
});

describe("quoted values", () => {
  it("an unknown matcher is quoted", () => {
    expect(refused(() => convergentPass(state, { matcher: "hungarian" } as never))).toContain(
      'options.matcher is "hungarian", expected "mis", "mfs" or "imfs"',
    );
  });
});

describe("unknown state keys are refused", () => {
  it("convergentPass names a misspelt state key", () => {
    expect(refused(() => convergentPass({ ...state, freelicenses: {} } as never))).toContain(
      "state.freelicenses is not a known key (did you mean `freeLicenses`?)",
    );
  });
});
