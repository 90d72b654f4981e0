import { InvalidInputError } from "@sched/core";
import { describe, expect, it } from "vitest";
import type { Heuristic } from "../src/heuristic.js";
import { buildMatrix, MIN_ELIGIBLE, rowMeans } from "../src/matrix.js";
import { PAPER_CONSTANTS, paperHeuristics, scaled } from "../src/paper-heuristics.js";
import { farm, job, row, rowOf } from "./helpers.js";

const platform = farm();

describe("buildMatrix", () => {
  it("is the sum of the heuristics on eligible entries and 0 elsewhere", () => {
    const rows = [rowOf(job({ id: 1, cores: 4 })), rowOf(job({ id: 2, submit: 0 }))];
    const plus: Heuristic = {
      name: "plus",
      apply(_ctx, p) {
        for (let k = 0; k < p.length; k++) p[k]! += k;
      },
    };
    const { weights, rows: n, cols } = buildMatrix({ now: 0, platform, jobs: rows }, [plus]);
    expect([n, cols]).toEqual([2, 3]);
    expect(Array.from(weights)).toEqual([0, 1, 0, 3, 4, 5]);
  });
  it("floors eligible entries at MIN_ELIGIBLE so they stay eligible", () => {
    const minus: Heuristic = {
      name: "minus",
      apply(_ctx, p) {
        p.fill(-5);
      },
    };
    const { weights } = buildMatrix({ now: 0, platform, jobs: [rowOf(job({ id: 1 }))] }, [minus]);
    expect(Array.from(weights)).toEqual([MIN_ELIGIBLE, MIN_ELIGIBLE, MIN_ELIGIBLE]);
  });
  it("throws naming the entry when a heuristic leaves NaN", () => {
    const bad: Heuristic = {
      name: "bad",
      apply(_ctx, p) {
        p[1] = Number.NaN;
      },
    };
    expect(() => buildMatrix({ now: 0, platform, jobs: [rowOf(job({ id: 1 }))] }, [bad])).toThrow(
      InvalidInputError,
    );
    expect(() => buildMatrix({ now: 0, platform, jobs: [rowOf(job({ id: 1 }))] }, [bad])).toThrow(
      /p\[0\]\[1\] is NaN/,
    );
  });
  it("with the paper's heuristics: the hand-computed row of a lone job", () => {
    // One job, estimate 100 (ref speed 1), no deadline, no license, no input, submitted at 0,
    // now 50, previously on m2. Eligible everywhere (1 core).
    // base 1; deadline 0; licenses 0; input 3; wait 4 (1 - (100/speed)/100) = [0, 2, 3];
    // overhead 8 on m2; anti-aging 0.02 * 50 = 1.
    const { weights } = buildMatrix(
      { now: 50, platform, jobs: [rowOf(job({ id: 1 }))], previous: Int32Array.from([2]) },
      paperHeuristics(),
    );
    expect(row(weights, 0, 3).map((x) => +x.toFixed(12))).toEqual([5, 7, 16]);
  });
  it("rowMeans is the mean of the positive entries", () => {
    expect(Array.from(rowMeans(new Float64Array([0, 4, 2, 0, 0, 0]), 2, 3))).toEqual([3, 0]);
  });
});

describe("paperHeuristics and scaled", () => {
  it("lists the seven heuristics in the paper's order with its constants", () => {
    expect(paperHeuristics().map((h) => h.name)).toEqual([
      "minimal-requirements",
      "deadline",
      "licenses",
      "input",
      "wait-minimization",
      "overhead-minimization",
      "anti-aging",
    ]);
    expect(PAPER_CONSTANTS).toMatchObject({
      deadlineMax: 10,
      deadlineMin: 0.1,
      deadlineK: 1.3,
      input: 3,
      overhead: 8,
      antiAging: 0.02,
      licenses: 2.5,
      waitMinimization: 4,
    });
  });
  it("reweights through constants", () => {
    const rows = [rowOf(job({ id: 1 }))];
    const a = buildMatrix(
      { now: 0, platform, jobs: rows },
      paperHeuristics({ input: 0, waitMinimization: 0 }),
    );
    expect(Array.from(a.weights)).toEqual([1, 1, 1]);
  });
  it("rejects a constant that is not finite", () => {
    expect(() => paperHeuristics({ input: Number.NaN })).toThrow(/constants.input is NaN/);
    expect(() => paperHeuristics({ base: 0 })).toThrow(InvalidInputError);
  });
  it("scaled multiplies a heuristic's update values", () => {
    const rows = [rowOf(job({ id: 1, submit: 0 }))];
    const base = paperHeuristics()[0]!;
    const aging = paperHeuristics()[6]!;
    const { weights } = buildMatrix({ now: 100, platform, jobs: rows }, [base, scaled(aging, 3)]);
    expect(Array.from(weights).map((x) => +x.toFixed(12))).toEqual([7, 7, 7]);
    expect(() => scaled(aging, Number.POSITIVE_INFINITY)).toThrow(InvalidInputError);
    // row by row: each row its own update, times 3 (submitted at 0, 50 and 100)
    const three = [0, 50, 100].map((submit, i) => rowOf(job({ id: i + 1, submit })));
    const m = buildMatrix({ now: 100, platform, jobs: three }, [base, scaled(aging, 3)]);
    expect(Array.from(m.weights).map((x) => +x.toFixed(12))).toEqual([7, 7, 7, 4, 4, 4, 1, 1, 1]);
  });
});
