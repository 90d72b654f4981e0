import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  describeValue,
  InvalidInputError,
  requireAnyInteger,
  requireBoolean,
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

  it("requireBoolean accepts exactly true and false, and its message names the field and shows the value", () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.boolean(), fc.anything(), fc.constantFrom("true", "false", 0, 1, null)),
        fc.string({ minLength: 1, maxLength: 8 }),
        (v, field) => {
          const ok = v === true || v === false;
          expectValid(() => requireBoolean(W, field, v), ok);
          if (ok) expect(requireBoolean(W, field, v)).toBe(v);
          else {
            try {
              requireBoolean(W, field, v);
            } catch (e) {
              expect((e as InvalidInputError).field).toBe(field);
              expect((e as Error).message).toBe(
                `${W}: ${field} is ${describeValue(v)}, expected true or false`,
              );
            }
          }
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
