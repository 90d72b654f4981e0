import { InvalidInputError } from "@sched/core";
import { describe, expect, it } from "vitest";
import { isWin, WIN_TOLERANCE, winCondition } from "../src/win-condition.js";

// The paper's setting: MAXSPEED = 9 Mflops, machines of 5 to 9 Mflops, sizes in Mflop.
const paper = { maxSpeed: 9 };

describe("winCondition (equation 2 read as a speed)", () => {
  it("is (MAXSPEED - overhead) / tierLevel", () => {
    expect(winCondition(1, paper)).toBe(9);
    expect(winCondition(2, paper)).toBe(4.5);
    expect(winCondition(5, paper)).toBeCloseTo(1.8, 15);
    expect(winCondition(3, { maxSpeed: 9, overhead: 3 })).toBe(2);
    expect(winCondition(1, { maxSpeed: 9, overhead: -1 })).toBe(10);
  });

  it("validates", () => {
    expect(() => winCondition(0, paper)).toThrow(InvalidInputError);
    expect(() => winCondition(1, { maxSpeed: 0 })).toThrow("options.maxSpeed");
    expect(() => winCondition(1, { maxSpeed: 9, overhead: 9 })).toThrow(
      "@sched/elo/winCondition: options.overhead is 9, expected a number < options.maxSpeed (9)",
    );
  });
});

describe("isWin (execution time <= tierLevel * size / (MAXSPEED - overhead))", () => {
  it("lets only a 9 Mflops machine win tier 1, and every 5-9 Mflops machine win tier 2", () => {
    const size = 9000; // Mflop
    for (const speed of [5, 6, 7, 8, 9]) {
      const elapsed = size / speed;
      expect(isWin({ size, elapsed, tierLevel: 1 }, paper)).toBe(speed === 9);
      expect(isWin({ size, elapsed, tierLevel: 2 }, paper)).toBe(true);
    }
  });

  it("uses the time reading: 900 Mflop must take at most 100 s in tier 1, 300 s in tier 3", () => {
    expect(isWin({ size: 900, elapsed: 100, tierLevel: 1 }, paper)).toBe(true);
    expect(isWin({ size: 900, elapsed: 100.001, tierLevel: 1 }, paper)).toBe(false);
    expect(isWin({ size: 900, elapsed: 300, tierLevel: 3 }, paper)).toBe(true);
    expect(isWin({ size: 900, elapsed: 301, tierLevel: 3 }, paper)).toBe(false);
  });

  it("loosens with a positive overhead and tightens with a negative one", () => {
    const run = { size: 900, elapsed: 150, tierLevel: 1 }; // 6 Mflops
    expect(isWin(run, paper)).toBe(false);
    expect(isWin(run, { maxSpeed: 9, overhead: 3 })).toBe(true);
    const fast = { size: 900, elapsed: 100, tierLevel: 1 }; // 9 Mflops
    expect(isWin(fast, { maxSpeed: 9, overhead: -1 })).toBe(false);
  });

  it("survives rounding of end - start at exactly the threshold speed", () => {
    const start = 123456.789;
    const end = start + 900 / 9;
    expect(isWin({ size: 900, elapsed: end - start, tierLevel: 1 }, paper)).toBe(true);
    // Here end - start comes out an ulp above 100 (100.00000000000001): still a win.
    const late = 31.610000000000003;
    expect(late + 100 - late).toBeGreaterThan(100);
    expect(isWin({ size: 900, elapsed: late + 100 - late, tierLevel: 1 }, paper)).toBe(true);
  });

  it("counts a run that takes exactly the bound, slack included, as a win (<=, not <)", () => {
    const bound = ((1 * 900) / 9) * (1 + WIN_TOLERANCE);
    expect(isWin({ size: 900, elapsed: bound, tierLevel: 1 }, paper)).toBe(true);
    expect(isWin({ size: 900, elapsed: bound * (1 + 1e-15), tierLevel: 1 }, paper)).toBe(false);
  });

  it("validates", () => {
    expect(() => isWin({ size: 0, elapsed: 1, tierLevel: 1 }, paper)).toThrow("outcome.size");
    expect(() => isWin({ size: 1, elapsed: -1, tierLevel: 1 }, paper)).toThrow("outcome.elapsed");
    expect(() => isWin({ size: 1, elapsed: 1, tierLevel: 1.5 }, paper)).toThrow(
      "outcome.tierLevel",
    );
  });
});
