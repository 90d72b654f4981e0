import { InvalidInputError } from "@sched/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { emptySwfHeader, formatSwfHeader, type SwfHeader } from "../src/swf-header.js";
import { parseSwf } from "../src/swf-read.js";
import { formatSwf, writeSwfLines } from "../src/swf-write.js";
import { SwfWriter } from "../src/swf-writer.js";

// formatSwf promises `parseSwf(formatSwf(h, rs))` gives back `h`: a header that would not read
// back as itself (or that is not a header at all) is refused, naming its field, instead of being
// written as something else.

const h = (fields: Record<string, unknown>) => ({ ...emptySwfHeader(), ...fields }) as SwfHeader;

function refusal(header: unknown): string {
  try {
    formatSwfHeader(header as SwfHeader);
  } catch (e) {
    expect(e).toBeInstanceOf(InvalidInputError);
    return (e as Error).message;
  }
  throw new Error("accepted");
}

describe("writing an SWF header", () => {
  it("refuses fields of the wrong type or range (written as something else before)", () => {
    // "No" was written as "AllowOveruse: Yes" (truthy), "abc" as "MaxProcs: abc" (unreadable).
    expect(refusal(h({ allowOveruse: "No" }))).toBe(
      '@sched/workload/formatSwfHeader: header.allowOveruse is "No", expected true or false',
    );
    expect(refusal(h({ maxProcs: "abc" }))).toBe(
      '@sched/workload/formatSwfHeader: header.maxProcs is "abc", expected an integer >= 1 up to 9007199254740991 (the MaxProcs directive)',
    );
    expect(refusal(h({ maxProcs: 0 }))).toMatch(/header\.maxProcs is 0, expected an integer >= 1/);
    expect(refusal(h({ maxJobs: 2.5 }))).toMatch(/header\.maxJobs is 2\.5, expected an integer/);
    expect(refusal(h({ maxRuntime: Number.NaN }))).toMatch(/header\.maxRuntime is NaN/);
    expect(refusal(h({ timeZone: 2 ** 60 }))).toMatch(
      /header\.timeZone is .*, expected an integer from -9007199254740991 up to 9007199254740991/,
    );
    expect(refusal(h({ version: 2.2 }))).toBe(
      "@sched/workload/formatSwfHeader: header.version is 2.2, expected a string",
    );
  });

  it("refuses a number past the limit below zero as above it (a time zone, a start time)", () => {
    for (const field of ["timeZone", "unixStartTime"]) {
      expect(refusal(h({ [field]: -(2 ** 60) }))).toMatch(
        new RegExp(`header\\.${field} is .*, expected an integer from -9007199254740991 up to`),
      );
    }
    expect(formatSwfHeader(h({ timeZone: -9007199254740991 }))).toEqual([
      "; TimeZone: -9007199254740991",
    ]);
  });

  it("refuses a free comment with a carriage return (the readers end a line at it)", () => {
    // Written as is, "1 0 0 10 1" would start a line of its own after the "\r".
    for (const c of ["x\r1 0 0 10 1", "x\r"]) {
      expect(refusal(h({ comments: [c] }))).toMatch(/header\.comments\[0\] .*line break/);
    }
  });

  it("writes a directive whose text is empty as `; Key:`, with no blank after the colon", () => {
    expect(formatSwfHeader(h({ computer: "", notes: ["", "\nsecond line"] }))).toEqual([
      "; Computer:",
      "; Note:",
      "; Note:",
      ";        second line",
    ]);
  });

  it("refuses an unknown field, with the nearest known one", () => {
    expect(refusal(h({ maxproc: 64 }))).toMatch(/header.*maxproc.*did you mean `maxProcs`/);
  });

  it("refuses a header that is not one (a raw TypeError before)", () => {
    expect(refusal(null)).toBe(
      "@sched/workload/formatSwfHeader: header is null, expected an object",
    );
    expect(refusal({ version: "2.2" })).toBe(
      "@sched/workload/formatSwfHeader: header.queues is undefined, expected an array",
    );
    expect(refusal(h({ notes: ["ok", 3] }))).toBe(
      "@sched/workload/formatSwfHeader: header.notes[1] is 3, expected a string",
    );
  });

  it("refuses text the readers would not give back", () => {
    expect(refusal(h({ computer: "IBM SP2 " }))).toMatch(
      /header\.computer is "IBM SP2 ": its text has leading or trailing blanks/,
    );
    expect(refusal(h({ notes: ["first\n  second"] }))).toMatch(
      /header\.notes\[0\] .*its line 2 has leading or trailing blanks/,
    );
    expect(refusal(h({ notes: ["first\n\nthird"] }))).toMatch(/its line 2 is empty/);
    expect(refusal(h({ information: "a\r\nb" }))).toMatch(/header\.information .*carriage return/);
  });

  it("refuses free comments that would read back as something else", () => {
    // Written as "; MaxProcs: 64", this comment would have sized the machine.
    expect(refusal(h({ comments: [" MaxProcs: 64"] }))).toBe(
      '@sched/workload/formatSwfHeader: header.comments[0] is " MaxProcs: 64", which reads back as the directive MaxProcs; put it in header.other (or the typed field) instead',
    );
    // Its second line would have been a data record.
    expect(refusal(h({ comments: ["x\n1 0 0 10 1"] }))).toMatch(
      /header\.comments\[0\] .*line break/,
    );
    expect(refusal(h({ comments: ["   "] }))).toMatch(/a blank comment/);
    expect(refusal(h({ comments: ["note "] }))).toMatch(/ends in blanks/);
  });

  it("refuses other directives that read back as typed ones", () => {
    expect(refusal(h({ other: [{ key: "MaxProcs", value: "64" }] }))).toMatch(
      /header\.other\[0\]\.key is "MaxProcs", which reads back as header\.maxProcs \(unset here\)/,
    );
    expect(refusal(h({ maxProcs: 32, other: [{ key: "maxprocs", value: "64" }] }))).toMatch(
      /header\.other\[0\]\.value is "64", but header\.maxProcs is 32/,
    );
    expect(refusal(h({ other: [{ key: "Note", value: "x" }] }))).toMatch(
      /reads back into header\.notes/,
    );
    expect(refusal(h({ other: [{ key: "Max Procs", value: "1" }] }))).toMatch(
      /header\.other\[0\]\.key is "Max Procs", expected a directive key/,
    );
    // A repeat the readers keep under other is accepted, and reads back so.
    const repeat = h({
      maxProcs: 32,
      version: "2.2",
      other: [
        { key: "MaxProcs", value: "32" },
        { key: "Version", value: "2.3" },
      ],
    });
    expect(parseSwf(formatSwf(repeat, [])).header).toEqual(repeat);
  });

  it("names the function the caller called", () => {
    const bad = h({ allowOveruse: "No" });
    expect(() => formatSwf(bad, [])).toThrow(/^@sched\/workload\/formatSwf: header\.allowOveruse/);
    expect(() => [...writeSwfLines(bad, [])]).toThrow(
      /^@sched\/workload\/writeSwfLines: header\.allowOveruse/,
    );
    const chunks: Uint8Array[] = [];
    const writer = new SwfWriter((b) => chunks.push(b.slice()));
    expect(() => writer.header(bad)).toThrow(/^@sched\/workload\/SwfWriter: header\.allowOveruse/);
    writer.flush();
    expect(chunks).toEqual([]); // nothing of the refused header was written
  });

  it("writes a header that reads back as itself, or refuses it naming a header field (any values)", () => {
    const text = fc.oneof(
      fc.string({ unit: fc.constantFrom(..."ab1 :;\t\n\r-".split("")), maxLength: 12 }),
      fc.string({ maxLength: 8 }),
    );
    const anyValue = fc.oneof(
      text,
      fc.integer({ min: -5, max: 100 }),
      fc.double(),
      fc.boolean(),
      fc.constantFrom(null, undefined, 2 ** 60, -0, 1e-7),
    );
    const key = fc.oneof(
      fc.constantFrom("MaxProcs", "maxjobs", "Note", "Version", "AllowOveruse", "X-1", "a b", ""),
      fc.stringMatching(/^[A-Za-z][A-Za-z0-9_-]{0,6}$/),
    );
    // Each field mostly of its own kind (so that whole headers are often writable), sometimes
    // anything at all.
    const mostly = <T>(arb: fc.Arbitrary<T>) =>
      fc.oneof({ arbitrary: arb, weight: 12 }, { arbitrary: anyValue, weight: 1 });
    const line = fc
      .string({ unit: fc.constantFrom(..."ab1 :;\t-#".split("")), maxLength: 10 })
      .map((x) => x.trim());
    const textValue = fc.oneof(
      line,
      fc.array(line, { minLength: 1, maxLength: 3 }).map((ls) => ls.join("\n")),
    );
    const count = (min: number) => fc.integer({ min, max: 1e6 });
    const loose = fc.record(
      {
        version: mostly(textValue),
        maxJobs: mostly(count(0)),
        maxProcs: mostly(count(1)),
        timeZone: mostly(fc.integer({ min: -1e5, max: 1e5 })),
        maxRuntime: mostly(fc.double({ min: 0, max: 1e9, noNaN: true })),
        allowOveruse: mostly(fc.boolean()),
        preemption: mostly(textValue),
        queues: fc.array(mostly(textValue), { maxLength: 2 }),
        partitions: fc.array(mostly(textValue), { maxLength: 2 }),
        notes: fc.array(mostly(textValue), { maxLength: 3 }),
        other: fc.array(fc.record({ key, value: mostly(textValue) }), { maxLength: 2 }),
        comments: fc.array(mostly(line.map((x) => (x === "" ? "c" : x))), { maxLength: 3 }),
      },
      {
        requiredKeys: ["queues", "partitions", "notes", "other", "comments"],
      },
    );
    let accepted = 0;
    fc.assert(
      fc.property(loose, (header) => {
        let written: string;
        try {
          written = formatSwf(header as SwfHeader, []);
        } catch (e) {
          expect(e).toBeInstanceOf(InvalidInputError);
          expect((e as InvalidInputError).field).toMatch(/^header(\.|$)/);
          return;
        }
        accepted++;
        // Undefined fields are absent once read back; -0 is written "0" (as in data lines).
        const expected = Object.fromEntries(
          Object.entries(header)
            .filter(([, v]) => v !== undefined)
            .map(([k, v]) => [k, typeof v === "number" ? v + 0 : v]),
        );
        expect(parseSwf(written).header).toEqual(expected);
      }),
      { numRuns: 3000 },
    );
    expect(accepted).toBeGreaterThan(20);
  });
});
