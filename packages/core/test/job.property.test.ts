import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  checkJobFields,
  hasOnlyJobFields,
  isValidJobSpec,
  JOB_FIELDS,
  type JobSpec,
} from "../src/job.js";

/** A field value: usually valid for any field, sometimes invalid for some. */
const anyValue = fc.oneof(
  fc.integer({ min: -3, max: 50 }),
  fc.constantFrom(0, 0.5, 1.5, -0.5, Number.NaN, Infinity, -Infinity, 2 ** 60),
  fc.constantFrom("7", null, true, [], {}),
);

const fieldNames = [
  "id",
  "submit",
  "runtime",
  "estimate",
  "cores",
  "deadline",
  "ready",
  "benchmark",
  "maxParallelism",
  "tasks",
  "user",
  "group",
  "queue",
  "partition",
  "priority",
] as const;

/** Usually a valid count (>= 1), sometimes anything. */
const mostlyCount = fc.oneof(
  { weight: 4, arbitrary: fc.integer({ min: 1, max: 5 }) },
  { weight: 1, arbitrary: anyValue },
);

/** Mostly valid specs with a few fields replaced by arbitrary values (or left out). */
const arbSpec: fc.Arbitrary<unknown> = fc
  .record({
    base: fc.record({
      id: fc.nat({ max: 1000 }),
      submit: fc.integer({ min: 0, max: 1000 }),
      runtime: fc.integer({ min: 1, max: 100 }),
      estimate: fc.integer({ min: 1, max: 100 }),
      cores: fc.integer({ min: 1, max: 8 }),
    }),
    overrides: fc.oneof(
      fc.constant({}),
      fc.dictionary(fc.constantFrom(...fieldNames), fc.option(anyValue), { maxKeys: 2 }),
    ),
    licenses: fc.option(
      fc.oneof(
        { weight: 4, arbitrary: fc.dictionary(fc.constantFrom("a", "b"), mostlyCount) },
        { weight: 1, arbitrary: fc.constantFrom(null, 3, [], "x") },
      ),
    ),
    input: fc.option(
      fc.oneof(
        fc.array(
          fc.oneof(
            { weight: 4, arbitrary: fc.record({ size: mostlyCount, machine: mostlyCount }) },
            { weight: 1, arbitrary: fc.record({ size: anyValue, machine: anyValue }) },
            { weight: 1, arbitrary: fc.constantFrom(null, 1, [], "x") },
          ),
          { maxLength: 3 },
        ),
        fc.constantFrom(null, 3, {}, "x"),
      ),
    ),
  })
  .map(({ base, overrides, licenses, input }) => {
    const spec: Record<string, unknown> = { ...base };
    for (const [k, v] of Object.entries(overrides)) {
      if (v === null) delete spec[k];
      else spec[k] = v;
    }
    if (licenses !== null) spec.licenses = licenses;
    if (input !== null) spec.input = input;
    return spec;
  });

const fullCheckPasses = (spec: unknown, copy: boolean): boolean => {
  try {
    checkJobFields("test", spec as JobSpec, "spec", copy);
    return true;
  } catch {
    return false;
  }
};

describe("isValidJobSpec (the engine's message-free job check)", () => {
  it("accepts exactly what the full, message-building check accepts", () => {
    fc.assert(
      fc.property(arbSpec, fc.boolean(), (spec, copy) => {
        expect(isValidJobSpec(spec, copy)).toBe(fullCheckPasses(spec, copy));
      }),
      { numRuns: 3000 },
    );
  });

  it("rejects non-objects like the full check", () => {
    for (const v of [null, undefined, 3, "job", true]) {
      expect(isValidJobSpec(v, false)).toBe(false);
      expect(fullCheckPasses(v, false)).toBe(false);
    }
  });
});

describe("hasOnlyJobFields", () => {
  it("is true exactly when every enumerable key is a job field, whatever specs it saw before", () => {
    // Keys from the fields and a few others, in any order: specs in a row often share their
    // keys, or all but the last, or have one more or one less (the remembered keys' edges).
    const key = fc.constantFrom(...JOB_FIELDS, "dedline", "tag", "Cores");
    const keys = fc.uniqueArray(key, { maxLength: 8 });
    fc.assert(
      fc.property(fc.array(keys, { minLength: 1, maxLength: 12 }), fc.nat(), (lists, seed) => {
        let previous: string[] = [];
        lists.forEach((list, i) => {
          // now and then the previous spec's keys with one added or dropped
          const own =
            (seed + i) % 3 === 0
              ? [...previous, ...list.slice(0, 1)].filter((k, j, a) => a.indexOf(k) === j)
              : (seed + i) % 3 === 1
                ? previous.slice(0, -1)
                : list;
          const spec = Object.fromEntries(own.map((k) => [k, 1]));
          expect(hasOnlyJobFields(spec)).toBe(
            own.every((k) => (JOB_FIELDS as readonly string[]).includes(k)),
          );
          previous = own;
        });
      }),
      { numRuns: 300 },
    );
  });
});
