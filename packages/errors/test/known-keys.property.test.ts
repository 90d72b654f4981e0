import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { InvalidInputError, optionKeys, requireKnownKeys } from "../src/index.js";
import { editDistance, nearestKey } from "../src/known-keys.js";

const W = "@sched/x/f";
const KNOWN = ["reservations", "machineOrder", "seed", "nodeLimit"] as const;
const KEYS = optionKeys<Record<(typeof KNOWN)[number], unknown>>({
  reservations: true,
  machineOrder: true,
  seed: true,
  nodeLimit: true,
});

describe("requireKnownKeys (properties)", () => {
  it("throws exactly when some key outside the list has a value other than undefined, naming it", () => {
    fc.assert(
      fc.property(
        fc.dictionary(
          fc.oneof(fc.constantFrom(...KNOWN), fc.string({ minLength: 1, maxLength: 12 })),
          fc.oneof(fc.constant(undefined), fc.integer(), fc.constant(null)),
        ),
        (o) => {
          const bad = Object.keys(o).filter(
            (k) => !(KNOWN as readonly string[]).includes(k) && o[k] !== undefined,
          );
          let error: unknown;
          try {
            requireKnownKeys(W, "options", { ...o }, KEYS);
          } catch (e) {
            error = e;
          }
          if (bad.length === 0) expect(error).toBeUndefined();
          else {
            expect(error).toBeInstanceOf(InvalidInputError);
            expect((error as InvalidInputError).field).toBe(`options.${bad[0]}`);
          }
        },
      ),
    );
  });

  it("nearestKey returns a known key or undefined, and a known key for itself in any case", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 15 }), (k) => {
        const near = nearestKey(k, KNOWN);
        expect(near === undefined || (KNOWN as readonly string[]).includes(near)).toBe(true);
      }),
    );
    for (const k of KNOWN) expect(nearestKey(k.toUpperCase(), KNOWN)).toBe(k);
  });

  it("editDistance is a metric bounded by the longer length", () => {
    const s = fc.string({ maxLength: 8 });
    fc.assert(
      fc.property(s, s, s, (a, b, c) => {
        const ab = editDistance(a, b);
        expect(ab).toBe(editDistance(b, a));
        expect(ab === 0).toBe(a === b);
        expect(ab).toBeLessThanOrEqual(Math.max(a.length, b.length));
        expect(ab).toBeGreaterThanOrEqual(Math.abs(a.length - b.length));
        expect(editDistance(a, c)).toBeLessThanOrEqual(ab + editDistance(b, c));
      }),
    );
  });
});
