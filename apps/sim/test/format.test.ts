import { describe, expect, it } from "vitest";
import { csvField, formatNumber, renderTable, stableJson, toCsv, wrap } from "../src/format.js";

describe("formatNumber", () => {
  it("writes integers as they are and rounds other numbers to 6 decimals", () => {
    expect(formatNumber(42)).toBe("42");
    expect(formatNumber(0.1 + 0.2)).toBe("0.3");
    expect(formatNumber(2 / 3)).toBe("0.666667");
    expect(formatNumber(-1e-9)).toBe("0");
    expect(formatNumber(Number.NaN)).toBe("");
  });
});

describe("CSV", () => {
  it("quotes fields with commas, quotes or line breaks", () => {
    expect(csvField('a,"b"')).toBe('"a,""b"""');
    expect(csvField(null)).toBe("");
    expect(
      toCsv(
        ["x", "y"],
        [
          [1, "a\nb"],
          [0.5, undefined],
        ],
      ),
    ).toBe('x,y\n1,"a\nb"\n0.5,\n');
  });
});

describe("stableJson", () => {
  it("sorts keys at every depth, drops undefined, writes non-finite numbers as null", () => {
    const a = stableJson({ b: 1, a: { d: [1, { z: 1, y: 2 }], c: Number.NaN }, e: undefined });
    const b = stableJson({ a: { c: Number.NaN, d: [1, { y: 2, z: 1 }] }, b: 1 });
    expect(a).toBe(b);
    expect(JSON.parse(a)).toEqual({ a: { c: null, d: [1, { y: 2, z: 1 }] }, b: 1 });
    expect(a.endsWith("}\n")).toBe(true);
    expect(a.indexOf('"a"')).toBeLessThan(a.indexOf('"b"'));
  });
});

describe("renderTable", () => {
  it("aligns columns under their titles", () => {
    const text = renderTable(
      [
        { title: "name", align: "left" },
        { title: "n", align: "right" },
      ],
      [
        ["fcfs", "1"],
        ["x", "100"],
      ],
    );
    expect(text).toBe("name    n\n----  ---\nfcfs    1\nx     100\n");
  });

  it("renders a table of a million rows (a spread into Math.max overflowed the stack)", () => {
    const rows = Array.from({ length: 1_000_000 }, (_, i) => [String(i)]);
    const text = renderTable([{ title: "n", align: "right" }], rows);
    expect(text.startsWith("     n\n------\n     0\n")).toBe(true);
    expect(text.endsWith("999999\n")).toBe(true);
  });
});

describe("wrap", () => {
  it("re-flows words into lines of at most width characters", () => {
    expect(wrap("aa bb  cc\ndd", 5)).toBe("aa bb\ncc dd");
    expect(wrap("abcdefgh ij", 4)).toBe("abcdefgh\nij");
  });
});
