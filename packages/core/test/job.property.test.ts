import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { checkJobFields, isValidJobSpec, type JobSpec } from "../src/job.js";

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
