import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  InvalidInputError,
  optionKeys,
  refuseMisspeltKeys,
  requireKnownKeys,
} from "../src/index.js";
import { editDistance, nearestKey, swapEditDistance } from "../src/known-keys.js";

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

/** A job record's fields: three required, the rest optional. */
const REQUIRED = ["id", "cores", "estimate"] as const;
const OPTIONAL = ["submit", "ready", "deadline", "priority", "licenses", "maxProcessors"] as const;
const FIELDS = [...REQUIRED, ...OPTIONAL];
const JOB_KEYS = optionKeys<Record<(typeof FIELDS)[number], unknown>>({
  id: true,
  cores: true,
  estimate: true,
  submit: true,
  ready: true,
  deadline: true,
  priority: true,
  licenses: true,
  maxProcessors: true,
});
const letters = fc.constantFrom(..."abcdefghijklmnopqrstuvwxyzADELPR_");
const someOptional = fc.subarray([...OPTIONAL]);

/** `key` with one edit at `at`: insert `c`, delete, substitute `c`, or swap with the next. */
function oneEdit(key: string, kind: number, at: number, c: string): string {
  const i = at % key.length;
  if (kind === 0) return key.slice(0, i) + c + key.slice(i);
  if (kind === 1) return key.slice(0, i) + key.slice(i + 1);
  if (kind === 2) return key.slice(0, i) + c + key.slice(i + 1);
  const j = Math.min(i, key.length - 2);
  return key.slice(0, j) + key[j + 1] + key[j] + key.slice(j + 2);
}

describe("refuseMisspeltKeys (properties)", () => {
  it("never throws for a record whose other keys are 3 or more edits from every field", () => {
    fc.assert(
      fc.property(
        someOptional,
        fc.uniqueArray(
          fc
            .array(letters, { minLength: 1, maxLength: 12 })
            .map((cs) => cs.join(""))
            .filter((k) =>
              FIELDS.every((f) => swapEditDistance(k.toLowerCase(), f.toLowerCase()) >= 3),
            ),
          { maxLength: 4 },
        ),
        (present, extras) => {
          const record: Record<string, unknown> = { id: 1, cores: 2, estimate: 3 };
          for (const f of present) record[f] = 4;
          for (const k of extras) record[k] = "caller's own";
          expect(() => refuseMisspeltKeys(W, "job", record, JOB_KEYS)).not.toThrow();
        },
      ),
    );
  });

  it("always throws for a record with one optional field replaced by a one-edit typo", () => {
    fc.assert(
      fc.property(
        someOptional,
        fc.constantFrom(...OPTIONAL),
        fc.integer({ min: 0, max: 3 }),
        fc.nat(),
        letters,
        (present, field, kind, at, c) => {
          const typo = oneEdit(field, kind, at, c);
          fc.pre(typo !== field && !(FIELDS as readonly string[]).includes(typo));
          const record: Record<string, unknown> = { id: 1, cores: 2, estimate: 3 };
          for (const f of present) if (f !== field) record[f] = 4;
          record[typo] = 5;
          let error: unknown;
          try {
            refuseMisspeltKeys(W, "job", record, JOB_KEYS);
          } catch (e) {
            error = e;
          }
          expect(error).toBeInstanceOf(InvalidInputError);
          expect((error as InvalidInputError).field).toBe(`job.${typo}`);
          expect((error as Error).message).toContain("(did you mean `");
        },
      ),
    );
  });
});
