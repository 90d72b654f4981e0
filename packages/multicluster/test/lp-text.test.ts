import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fmt, lpText, sparseValues, term } from "../src/lp-text.js";

describe("the LP text's numbers and terms", () => {
  it("writes integers as they are and other numbers to 15 significant digits", () => {
    expect([fmt(3), fmt(-2), fmt(1e21), fmt(0.5), fmt(1 / 3), fmt(2 / 3)]).toEqual([
      "3",
      "-2",
      "1e+21",
      "0.500000000000000",
      "0.333333333333333",
      "0.666666666666667",
    ]);
    // read back, a coefficient is the number within a relative 1e-14 (HiGHS compares a link
    // row's demands with its bandwidth on these digits, to its tolerance of 1e-7)
    fc.assert(
      fc.property(fc.double({ min: 1e-6, max: 1e9, noNaN: true }), (x) => {
        expect(Math.abs(Number(fmt(x)) - x)).toBeLessThanOrEqual(1e-14 * x);
      }),
      { numRuns: 200 },
    );
  });

  it("writes a term with its sign, no coefficient for 1 and -1, nothing for 0", () => {
    expect([term(1, "x"), term(-1, "x"), term(0, "x"), term(2, "y"), term(-2.5, "z")]).toEqual([
      " + x",
      " - x",
      "",
      " + 2 y",
      " - 2.50000000000000 z",
    ]);
    expect(term(-1 / 3, "w")).toBe(" - 0.333333333333333 w");
  });

  it("minimizes cmax, a general integer, with a placeholder row when there is none", () => {
    expect(
      lpText({ rows: [], bounds: [" 0 <= cmax <= 4"], binaries: ["b"], generals: ["n"] }),
    ).toBe(
      "Minimize\n obj: cmax\nSubject To\n c0: cmax >= 0\nBounds\n 0 <= cmax <= 4\nBinary\n b\nGeneral\n cmax\n n\nEnd\n",
    );
  });

  it("collects the values of the columns the model has, skipping the others", () => {
    const v = sparseValues(
      new Map([
        ["a", 0],
        ["c", 2],
      ]),
      [
        ["a", 1],
        ["b", 5],
        ["c", 0.5],
      ],
    );
    expect([...v.indices]).toEqual([0, 2]);
    expect([...v.values]).toEqual([1, 0.5]);
  });
});
