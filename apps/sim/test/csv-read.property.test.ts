import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { readCsvRecords } from "../src/csv-read.js";
import { toCsv } from "../src/format.js";

describe("readCsvRecords", () => {
  it("reads back every field toCsv writes, each record with the line it starts on", () => {
    const field = fc.string({ unit: fc.constantFrom("a", "1", ",", '"', "\n", "\r", " ", "é") });
    fc.assert(
      fc.property(
        fc
          .integer({ min: 1, max: 4 })
          .chain((width) =>
            fc.tuple(
              fc.array(field, { minLength: width, maxLength: width }),
              fc.array(fc.array(field, { minLength: width, maxLength: width }), { maxLength: 6 }),
            ),
          ),
        ([header, rows]) => {
          const text = toCsv(header, rows);
          const records = readCsvRecords(text);
          expect(records?.map((r) => r.fields)).toEqual([header, ...rows]);
          // A record starts one line after the line breaks of the records before it.
          let line = 1;
          for (const [i, record] of (records ?? []).entries()) {
            expect(record.line).toBe(line);
            line += 1 + ([header, ...rows][i] as string[]).join("").split("\n").length - 1;
          }
        },
      ),
      { seed: 11, numRuns: 300 },
    );
  });

  it("examples: CRLF, a last line without a line end, an unclosed quote", () => {
    expect(readCsvRecords("a,b\r\n1,2")).toEqual([
      { fields: ["a", "b"], line: 1 },
      { fields: ["1", "2"], line: 2 },
    ]);
    expect(readCsvRecords("")).toEqual([]);
    expect(readCsvRecords('a\n"x,1\n')).toBeNull();
  });
});
