import { InvalidInputError } from "@sched/core";
import { describe, expect, it } from "vitest";
import { betaParameters, expectedResult } from "../src/expected-result.js";

describe("betaParameters", () => {
  it("uses the positive perspective when job level <= tier level (alpha = 3 + gap, beta = 2)", () => {
    expect(betaParameters(3, 3)).toEqual({ alpha: 3, beta: 2, perspective: "positive" });
    expect(betaParameters(5, 1)).toEqual({ alpha: 7, beta: 2, perspective: "positive" });
    expect(betaParameters(3, 1)).toEqual({ alpha: 5, beta: 2, perspective: "positive" });
  });

  it("uses the negative perspective when job level > tier level (alpha = 2, beta = 3 + gap)", () => {
    expect(betaParameters(1, 2)).toEqual({ alpha: 2, beta: 4, perspective: "negative" });
    expect(betaParameters(1, 5)).toEqual({ alpha: 2, beta: 7, perspective: "negative" });
  });

  it("rejects levels that are not integers >= 1", () => {
    expect(() => betaParameters(0, 1)).toThrow(InvalidInputError);
    expect(() => betaParameters(1, 1.5)).toThrow("@sched/elo/betaParameters: jobLevel is 1.5");
    expect(() => betaParameters(Number.NaN, 1)).toThrow(InvalidInputError);
  });
});

describe("expectedResult", () => {
  it("is the beta mean alpha / (alpha + beta), hand-computed", () => {
    expect(expectedResult(3, 3)).toBeCloseTo(3 / 5, 15); // 0.6
    expect(expectedResult(5, 1)).toBeCloseTo(7 / 9, 15);
    expect(expectedResult(2, 1)).toBeCloseTo(4 / 6, 15);
    expect(expectedResult(1, 2)).toBeCloseTo(2 / 6, 15);
    expect(expectedResult(1, 3)).toBeCloseTo(2 / 7, 15);
    expect(expectedResult(1, 5)).toBeCloseTo(2 / 9, 15);
  });
});
