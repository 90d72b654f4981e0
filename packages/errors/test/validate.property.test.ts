import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  InvalidInputError,
  requireAnyInteger,
  requireFinite,
  requireInteger,
  requireNonNegative,
  requireOneOf,
  requirePositive,
} from "../src/index.js";

const W = "@sched/x/f";

/** `fn` returns when `ok`, else throws an InvalidInputError. */
function expectValid(fn: () => unknown, ok: boolean): void {
  if (ok) expect(fn).not.toThrow();
  else expect(fn).toThrow(InvalidInputError);
}

describe("validation helpers (properties)", () => {
  it("requireFinite and requirePositive accept exactly the finite (positive) numbers", () => {
    fc.assert(
      fc.property(fc.oneof(fc.double(), fc.integer(), fc.string(), fc.constant(null)), (v) => {
        const finite = typeof v === "number" && Number.isFinite(v);
        expectValid(() => requireFinite(W, "v", v), finite);
        expectValid(() => requirePositive(W, "v", v), finite && v > 0);
        expectValid(() => requireNonNegative(W, "v", v), finite && v >= 0);
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
          expectValid(() => requireInteger(W, "v", v, min), ok);
          expectValid(() => requireAnyInteger(W, "v", v), Number.isSafeInteger(v));
        },
      ),
    );
  });

  it("requireOneOf accepts exactly the listed strings, and its message lists every choice", () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.string({ maxLength: 4 }), { minLength: 1, maxLength: 5 }),
        fc.oneof(
          fc.string({ maxLength: 4 }),
          fc.integer(),
          fc.constant(null),
          fc.constant(undefined),
        ),
        (choices, v) => {
          const ok = typeof v === "string" && choices.includes(v);
          expectValid(() => requireOneOf(W, "v", v, choices), ok);
          if (!ok) {
            try {
              requireOneOf(W, "v", v, choices);
            } catch (e) {
              const message = (e as Error).message;
              for (const c of choices) expect(message).toContain(JSON.stringify(c));
            }
          }
        },
      ),
    );
  });
});
