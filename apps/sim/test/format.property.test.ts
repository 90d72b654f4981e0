import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { formatNumber, type JsonValue, stableJson, toCsv, wrap } from "../src/format.js";

/** A minimal RFC 4180 reader, the oracle for the writer. */
function readCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ",") {
      row.push(field);
      field = "";
    } else if (c === "\n") {
      row.push(field);
      rows.push(row);
      row = [];
      field = "";
    } else field += c;
  }
  return rows;
}

const json: fc.Arbitrary<JsonValue> = fc.letrec<{ value: JsonValue }>((tie) => ({
  value: fc.oneof(
    { depthSize: "small" },
    fc.constant(null),
    fc.boolean(),
    fc.string(),
    fc.integer(),
    fc.array(tie("value"), { maxLength: 4 }),
    fc.dictionary(fc.string({ maxLength: 6 }), tie("value"), { maxKeys: 4 }),
  ),
})).value;

describe("format properties", () => {
  it("toCsv then an RFC 4180 reader gives the fields back", () => {
    fc.assert(
      fc.property(
        fc.array(fc.array(fc.string(), { minLength: 3, maxLength: 3 }), { maxLength: 5 }),
        (rows) => {
          expect(readCsv(toCsv(["a", "b", "c"], rows))).toEqual([["a", "b", "c"], ...rows]);
        },
      ),
      { numRuns: 200 },
    );
  });

  it("stableJson is valid JSON equal to its input, and independent of key insertion order", () => {
    fc.assert(
      fc.property(json, (value) => {
        const text = stableJson(value);
        expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify(value)));
        const reversed = JSON.parse(JSON.stringify(value), (_k, v) =>
          v !== null && typeof v === "object" && !Array.isArray(v)
            ? Object.fromEntries(Object.entries(v).reverse())
            : v,
        ) as JsonValue;
        expect(stableJson(reversed)).toBe(text);
      }),
      { numRuns: 200 },
    );
  });

  it("formatNumber reads back within 5e-7 of the number", () => {
    fc.assert(
      fc.property(fc.double({ min: -1e9, max: 1e9, noNaN: true }), (x) => {
        expect(Math.abs(Number(formatNumber(x)) - x)).toBeLessThanOrEqual(
          5e-7 + Math.abs(x) * 1e-15,
        );
      }),
      { numRuns: 500 },
    );
  });

  it("wrap keeps the words in order and lines within width unless a word is longer", () => {
    fc.assert(
      fc.property(
        fc.array(fc.stringMatching(/^[a-z]{1,12}$/), { maxLength: 30 }),
        fc.integer({ min: 5, max: 40 }),
        (words, width) => {
          const text = wrap(words.join(" "), width);
          expect(text.split(/\s+/).filter((w) => w !== "")).toEqual(words);
          for (const line of text.split("\n")) {
            expect(line.length <= width || !line.includes(" ")).toBe(true);
          }
        },
      ),
      { numRuns: 200 },
    );
  });
});
