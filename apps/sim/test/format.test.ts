import { describe, expect, it } from "vitest";
import {
  csvField,
  fixed,
  formatNumber,
  hanging,
  renderTable,
  shortDuration,
  stableJson,
  toCsv,
  wrap,
} from "../src/format.js";

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

  it("writes an empty array and an empty object on one line", () => {
    expect(stableJson({ a: [], b: {}, c: [1] })).toBe(
      '{\n  "a": [],\n  "b": {},\n  "c": [\n    1\n  ]\n}\n',
    );
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

  it("ends no line with spaces (a left-aligned last column is not padded)", () => {
    const text = renderTable(
      [
        { title: "n", align: "right" },
        { title: "name", align: "left" },
      ],
      [
        ["1", "x"],
        ["22", "fcfs"],
      ],
    );
    expect(text).toBe(" n  name\n--  ----\n 1  x\n22  fcfs\n");
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

describe("hanging", () => {
  it("pads a shorter label to the indent, and puts a label as long as the indent on its own line", () => {
    expect(hanging("ab", "some text", 4)).toBe("ab  some text");
    expect(hanging("abc", "x", 4)).toBe("abc x");
    expect(hanging("abcd", "x", 4)).toBe("abcd\n    x");
  });
});

describe("shortDuration and fixed", () => {
  it("writes seconds below a minute, then minutes and padded seconds, then hours and padded minutes", () => {
    expect(shortDuration(59_000)).toBe("59s");
    expect(shortDuration(60_000)).toBe("1m00s");
    expect(shortDuration(3_599_000)).toBe("59m59s");
    expect(shortDuration(3_600_000)).toBe("1h00m");
    expect(shortDuration(3_720_000)).toBe("1h02m");
  });

  it("fixed writes a number not finite as a dash", () => {
    expect(fixed(2.5, 2)).toBe("2.50");
    expect(fixed(Number.NaN, 1)).toBe("-");
    expect(fixed(Number.POSITIVE_INFINITY, 1)).toBe("-");
  });
});
