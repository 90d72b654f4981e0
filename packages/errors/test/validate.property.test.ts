import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  requireAnyInteger,
  requireFinite,
  requireInteger,
  requireNonNegative,
  requirePositive,
} from "../src/index.js";

const W = "@sched/x/f";

/** The error `fn` throws, or `undefined`. */
function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (e) {
    return e;
  }
  return undefined;
}

describe("validation helpers (properties)", () => {
  it("requireFinite and requirePositive accept exactly the finite (positive) numbers", () => {
    fc.assert(
      fc.property(fc.oneof(fc.double(), fc.integer(), fc.string(), fc.constant(null)), (v) => {
        const finite = typeof v === "number" && Number.isFinite(v);
        expect(thrown(() => requireFinite(W, "v", v)) === undefined).toBe(finite);
        expect(thrown(() => requirePositive(W, "v", v)) === undefined).toBe(finite && v > 0);
        expect(thrown(() => requireNonNegative(W, "v", v)) === undefined).toBe(finite && v >= 0);
      }),
    );
  });

  it("requireInteger accepts exactly the safe integers at least min", () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.double(), fc.integer()),
        fc.integer({ min: -5, max: 5 }),
        (v, min) => {
          const ok = Number.isSafeInteger(v) && v >= min;
          expect(thrown(() => requireInteger(W, "v", v, min)) === undefined).toBe(ok);
          expect(thrown(() => requireAnyInteger(W, "v", v)) === undefined).toBe(
            Number.isSafeInteger(v),
          );
        },
      ),
    );
  });
});
