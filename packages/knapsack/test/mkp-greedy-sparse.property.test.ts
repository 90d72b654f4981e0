import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { readMkpInstance } from "../src/instance.js";
import { greedyItems } from "../src/mkp-greedy.js";
import { denseGreedyItems } from "./greedy-dense-reference.js";

// The greedy runs on the nonzero weights only; these compare it with its dense form (the code
// before, kept in greedy-dense-reference.ts) on instances with many zero weights, ties in the
// ranking and fractional weights: the same items, so the same decisions and sums.

const weightArb = fc.oneof(
  { weight: 5, arbitrary: fc.constant(0) },
  { weight: 1, arbitrary: fc.constant(-0) },
  { weight: 3, arbitrary: fc.integer({ min: 1, max: 3 }) },
  { weight: 1, arbitrary: fc.double({ min: 0.1, max: 3, noNaN: true }) },
  // Sums whose rounding depends on their order (0.1 + 0.2 + 0.3 > 0.6, 0.3 + 0.2 + 0.1 = 0.6).
  { weight: 3, arbitrary: fc.constantFrom(0.1, 0.2, 0.3, 0.7) },
);
const instanceArb = fc
  .record({ n: fc.integer({ min: 0, max: 30 }), m: fc.integer({ min: 0, max: 6 }) })
  .chain(({ n, m }) =>
    fc.record({
      values: fc.array(
        fc.oneof(fc.constantFrom(-1, 0, 1, 2, 3), fc.double({ min: -1, max: 5, noNaN: true })),
        {
          minLength: n,
          maxLength: n,
        },
      ),
      weights: fc.array(fc.array(weightArb, { minLength: n, maxLength: n }), {
        minLength: m,
        maxLength: m,
      }),
      capacities: fc.array(
        fc.oneof(
          fc.integer({ min: 0, max: 8 }),
          fc.double({ min: 0, max: 8, noNaN: true }),
          fc.constantFrom(0.6, 0.9, 1.2),
        ),
        {
          minLength: m,
          maxLength: m,
        },
      ),
      costs: fc.option(fc.array(fc.constantFrom(0.5, 1, 2, 7), { minLength: n, maxLength: n }), {
        nil: undefined,
      }),
    }),
  );
const optionsArb = fc.record({
  reweight: fc.boolean(),
  strategy: fc.constantFrom("fill" as const, "drop" as const),
  rhoExponent: fc.constantFrom(0, 1, 2.5),
});

describe("the greedy on nonzero weights equals its dense form", () => {
  it("same items for every strategy, reweighting and rho exponent", () => {
    fc.assert(
      fc.property(instanceArb, optionsArb, ({ costs, ...instance }, options) => {
        const inst = readMkpInstance("test", instance);
        const opts = {
          ...options,
          costs: costs === undefined ? inst.v : Float64Array.from(costs),
        };
        expect(greedyItems(inst, opts)).toEqual(denseGreedyItems(inst, opts));
      }),
      { numRuns: 1000 },
    );
  });
});
