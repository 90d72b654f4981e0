import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { tierOf, tierRange } from "../src/tiers.js";

describe("tierOf properties", () => {
  it("puts every rating inside the range of its tier", () => {
    fc.assert(
      fc.property(
        fc.double({ min: 1e-6, max: 1e6, noNaN: true }),
        fc.integer({ min: 1, max: 10 }),
        fc.double({ min: 1, max: 1000, noNaN: true }),
        (rating, tiers, tierWidth) => {
          const t = tierOf(rating, { tiers, tierWidth });
          const { low, high } = tierRange(t, { tiers, tierWidth });
          expect(t).toBeGreaterThanOrEqual(1);
          expect(t).toBeLessThanOrEqual(tiers);
          expect(rating).toBeGreaterThanOrEqual(low);
          expect(rating).toBeLessThan(high);
        },
      ),
    );
  });

  it("never moves a machine to a slower tier when its rating rises", () => {
    fc.assert(
      fc.property(
        fc.double({ min: 1e-6, max: 1e5, noNaN: true }),
        fc.double({ min: 0, max: 1e5, noNaN: true }),
        (r, dr) => {
          expect(tierOf(r + dr)).toBeLessThanOrEqual(tierOf(r));
        },
      ),
    );
  });
});
