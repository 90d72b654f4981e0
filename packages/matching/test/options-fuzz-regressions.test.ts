import { InvalidInputError } from "@sched/errors";
import { describe, expect, it } from "vitest";
import { mfs, mis } from "../src/index.js";

// A defect the options fuzz suite found (options-fuzz.property.test.ts).
describe("matching: a symbol weight is named", () => {
  it("mfs and mis name matrix.weights[k] (was a raw TypeError: Cannot convert a Symbol value)", () => {
    const input = { rows: 1, cols: 2, weights: [Symbol(), 1] as never };
    for (const f of [mfs, mis]) {
      expect(() => f(input)).toThrow(InvalidInputError);
      expect(() => f(input)).toThrow(/matrix\.weights\[0\] \(row 0, col 0\) is symbol/);
    }
  });
});
