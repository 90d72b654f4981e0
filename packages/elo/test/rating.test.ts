import { InvalidInputError } from "@sched/core";
import { describe, expect, it } from "vitest";
import { updateRating } from "../src/rating.js";

describe("updateRating", () => {
  it("applies CR_n = CR_o + C (S - S_e) with the paper's C = 20, hand-computed", () => {
    expect(updateRating(1250, true, 0.6)).toBeCloseTo(1258, 12); // +20 * 0.4
    expect(updateRating(1250, false, 0.6)).toBeCloseTo(1238, 12); // -20 * 0.6
    expect(updateRating(2000, false, 2 / 6)).toBeCloseTo(2000 - 20 / 3, 12);
    expect(updateRating(2000, true, 2 / 6)).toBeCloseTo(2000 + 40 / 3, 12);
    expect(updateRating(100, true, 0.5, { growth: 32 })).toBe(116);
  });

  it("never lets the rating reach 0: it stops at minRating", () => {
    expect(updateRating(5, false, 0.9)).toBe(1); // 5 - 18 < 1
    expect(updateRating(1, false, 0.6)).toBe(1);
    expect(updateRating(30, false, 0.9, { minRating: 20 })).toBe(20);
    expect(updateRating(30, false, 0.4, { minRating: 20 })).toBe(22);
  });

  it("validates its arguments and options", () => {
    expect(() => updateRating(0, true, 0.5)).toThrow(InvalidInputError);
    expect(() => updateRating(10, true, 1.5)).toThrow(
      "@sched/elo/updateRating: expected is 1.5, expected a number in [0, 1]",
    );
    expect(() => updateRating(10, true, 0.5, { growth: -1 })).toThrow("options.growth");
    expect(() => updateRating(10, true, 0.5, { minRating: 0 })).toThrow("options.minRating");
  });
});
