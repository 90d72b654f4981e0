import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isWin, winCondition } from "../src/win-condition.js";

const size = fc.double({ min: 1e-3, max: 1e10, noNaN: true });
const speed = fc.double({ min: 0.01, max: 100, noNaN: true });
const tier = fc.integer({ min: 1, max: 10 });
const maxSpeed = fc.double({ min: 0.1, max: 100, noNaN: true });

describe("win condition properties", () => {
  it("agrees with the speed reading: shown speed >= winCondition (away from the tolerance)", () => {
    fc.assert(
      fc.property(size, speed, tier, maxSpeed, (s, v, t, max) => {
        const threshold = winCondition(t, { maxSpeed: max });
        fc.pre(Math.abs(v - threshold) > 1e-6 * threshold);
        expect(isWin({ size: s, elapsed: s / v, tierLevel: t }, { maxSpeed: max })).toBe(
          v >= threshold,
        );
      }),
    );
  });

  it("is easier in slower tiers: a win in tier t is a win in tier t + 1", () => {
    fc.assert(
      fc.property(size, speed, tier, maxSpeed, (s, v, t, max) => {
        const o = { maxSpeed: max };
        if (isWin({ size: s, elapsed: s / v, tierLevel: t }, o)) {
          expect(isWin({ size: s, elapsed: s / v, tierLevel: t + 1 }, o)).toBe(true);
        }
      }),
    );
  });

  it("is easier for faster runs: a win at elapsed e is a win at any shorter elapsed", () => {
    fc.assert(
      fc.property(size, speed, fc.double({ min: 0, max: 1, noNaN: true }), tier, (s, v, f, t) => {
        const o = { maxSpeed: 9 };
        const e = s / v;
        fc.pre(e * f > 0);
        if (isWin({ size: s, elapsed: e, tierLevel: t }, o)) {
          expect(isWin({ size: s, elapsed: e * f, tierLevel: t }, o)).toBe(true);
        }
      }),
    );
  });

  it("does not depend on the job's size, only on the speed it shows", () => {
    fc.assert(
      fc.property(size, size, speed, tier, (a, b, v, t) => {
        const o = { maxSpeed: 9 };
        fc.pre(Math.abs(v - 9 / t) > 1e-6);
        expect(isWin({ size: a, elapsed: a / v, tierLevel: t }, o)).toBe(
          isWin({ size: b, elapsed: b / v, tierLevel: t }, o),
        );
      }),
    );
  });
});
