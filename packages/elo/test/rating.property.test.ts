import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { updateRating } from "../src/rating.js";

const rating = fc.double({ min: 1, max: 1e5, noNaN: true });
const expected = fc.double({ min: 0, max: 1, noNaN: true });

describe("updateRating properties", () => {
  it("keeps every rating > 0 along any sequence of results", () => {
    fc.assert(
      fc.property(
        rating,
        fc.array(fc.tuple(fc.boolean(), expected), { maxLength: 200 }),
        (start, results) => {
          let r = start;
          for (const [won, e] of results) {
            r = updateRating(r, won, e);
            expect(r).toBeGreaterThan(0);
          }
        },
      ),
    );
  });

  it("raises the rating on a win and lowers it on a loss (strictly when S_e is inside (0, 1), off the floor)", () => {
    fc.assert(
      fc.property(fc.double({ min: 100, max: 1e5, noNaN: true }), expected, (r, e) => {
        const up = updateRating(r, true, e);
        const down = updateRating(r, false, e);
        expect(up).toBeGreaterThanOrEqual(r);
        expect(down).toBeLessThanOrEqual(r);
        if (e > 1e-9 && e < 1 - 1e-9) {
          expect(up).toBeGreaterThan(r);
          expect(down).toBeLessThan(r);
        }
      }),
    );
  });

  it("is a fair bet: S_e * gain(win) + (1 - S_e) * gain(loss) = 0 off the floor", () => {
    fc.assert(
      fc.property(fc.double({ min: 100, max: 1e5, noNaN: true }), expected, (r, e) => {
        const drift =
          e * (updateRating(r, true, e) - r) + (1 - e) * (updateRating(r, false, e) - r);
        expect(Math.abs(drift)).toBeLessThan(1e-9 * r);
      }),
    );
  });

  it("telescopes: off the floor, the final rating is start + C * sum(S - S_e)", () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.boolean(), expected), { maxLength: 100 }), (results) => {
        const start = 1e4; // 100 results change it by at most 2000
        let r = start;
        let sum = 0;
        for (const [won, e] of results) {
          r = updateRating(r, won, e);
          sum += (won ? 1 : 0) - e;
        }
        expect(r).toBeCloseTo(start + 20 * sum, 6);
      }),
    );
  });
});
