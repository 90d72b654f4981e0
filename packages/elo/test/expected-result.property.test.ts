import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { betaParameters, expectedResult } from "../src/expected-result.js";

const level = fc.integer({ min: 1, max: 50 });

describe("expectedResult properties", () => {
  it("is strictly inside (0, 1)", () => {
    fc.assert(
      fc.property(level, level, (t, j) => {
        const e = expectedResult(t, j);
        expect(e).toBeGreaterThan(0);
        expect(e).toBeLessThan(1);
      }),
    );
  });

  it("is >= 0.6 in the positive perspective and <= 1/3 in the negative one", () => {
    fc.assert(
      fc.property(level, level, (t, j) => {
        const e = expectedResult(t, j);
        if (j <= t) expect(e).toBeGreaterThanOrEqual(0.6);
        else expect(e).toBeLessThanOrEqual(1 / 3 + 1e-15);
      }),
    );
  });

  it("moves away from 1/2 as the gap between tier and job level grows", () => {
    fc.assert(
      fc.property(level, level, (t, j) => {
        const a = expectedResult(t, j);
        if (j <= t) expect(expectedResult(t + 1, j)).toBeGreaterThan(a);
        else expect(expectedResult(t, j + 1)).toBeLessThan(a);
      }),
    );
  });

  it("has alpha and beta >= 2 and the larger one equal to 3 + |tier - level|", () => {
    fc.assert(
      fc.property(level, level, (t, j) => {
        const { alpha, beta } = betaParameters(t, j);
        expect(Math.min(alpha, beta)).toBe(2);
        expect(Math.max(alpha, beta)).toBe(3 + Math.abs(t - j));
      }),
    );
  });
});
