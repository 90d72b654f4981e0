import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { repeatSum } from "../src/repeat-sum.js";

/** The definition: one addition at a time. */
function loop(s: number, x: number, n: number): number {
  for (let k = 0; k < n; k++) s += x;
  return s;
}

// Values of every kind: plain doubles, few significant bits (sums exact for long, then ties
// once the unit of the sum reaches their last bit), odd multiples of a power of two (ties at
// one interval), and values near powers of two.
const value = fc.oneof(
  fc.double({ min: 1e-9, max: 1e4, noNaN: true }),
  fc
    .tuple(fc.integer({ min: 1, max: 2 ** 20 }), fc.integer({ min: -60, max: 10 }))
    .map(([m, e]) => m * 2 ** e),
  fc
    .tuple(fc.integer({ min: 0, max: 2 ** 26 }), fc.integer({ min: -70, max: -20 }))
    .map(([m, e]) => (2 * m + 1) * 2 ** e),
  fc
    .tuple(fc.integer({ min: -40, max: 20 }), fc.integer({ min: -3, max: 3 }))
    .map(([e, k]) => 2 ** e * (1 + k * 2 ** -52)),
);
const start = fc.oneof(fc.constant(0), value, fc.double({ min: 0, max: 1e12, noNaN: true }));

describe("repeatSum", () => {
  it("equals adding x n times, one addition at a time", () => {
    fc.assert(
      fc.property(start, value, fc.integer({ min: 0, max: 4000 }), (s, x, n) => {
        expect(Object.is(repeatSum(s, x, n), loop(s, x, n))).toBe(true);
      }),
      { numRuns: 3000 },
    );
  });

  it("equals the loop on long rows (up to 200,000 entries)", () => {
    fc.assert(
      fc.property(value, fc.integer({ min: 10_000, max: 200_000 }), (x, n) => {
        expect(Object.is(repeatSum(0, x, n), loop(0, x, n))).toBe(true);
      }),
      { numRuns: 60 },
    );
  });

  it("equals the loop where the loop's sum stops growing or overflows", () => {
    // 0.5 on 2^53: the first addition is a tie to even and leaves the sum where it is.
    expect(repeatSum(2 ** 53, 0.5, 1000)).toBe(loop(2 ** 53, 0.5, 1000));
    expect(repeatSum(2 ** 53 + 2, 1.5, 1001)).toBe(loop(2 ** 53 + 2, 1.5, 1001));
    expect(repeatSum(1e308, 1e307, 100)).toBe(Number.POSITIVE_INFINITY);
    expect(repeatSum(1, 1e-17, 5000)).toBe(1);
  });

  it("falls back to the loop outside s >= 0, x > 0, both finite", () => {
    for (const [s, x] of [
      [-1, 0.1],
      [0, -0.3],
      [0, 0],
      [Number.NaN, 1],
      [0, Number.NaN],
      [0, Number.POSITIVE_INFINITY],
      [Number.POSITIVE_INFINITY, 1],
    ] as const) {
      expect(Object.is(repeatSum(s, x, 777), loop(s, x, 777))).toBe(true);
    }
  });
});
