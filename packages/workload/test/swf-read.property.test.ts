import { ParseError } from "@sched/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { SwfHeader } from "../src/swf-header.js";
import { parseSwf } from "../src/swf-read.js";
import { SWF_FIELDS, type SwfRecord } from "../src/swf-record.js";
import { formatSwf } from "../src/swf-write.js";

const field = fc.oneof(
  fc.constant(-1),
  fc.integer({ min: -1, max: 2_000_000_000 }),
  fc.double({ min: -1e15, max: 1e15, noNaN: true, noDefaultInfinity: true }).map((x) => x + 0),
  fc.integer({ min: 0, max: 10_000_000 }).map((c) => c / 100),
);

const record: fc.Arbitrary<SwfRecord> = fc
  .array(field, { minLength: 18, maxLength: 18 })
  .map((v) => Object.fromEntries(SWF_FIELDS.map((f, i) => [f.key, v[i]!])) as unknown as SwfRecord);

const chars = fc.constantFrom(..."abcXYZ019 :.;-_[]/()=#\t".split(""));
/** A header value line: the parser trims it and an empty one would end a continuation. */
const valueLine = fc
  .string({ unit: chars, maxLength: 20 })
  .map((s) => s.trim())
  .filter((s) => s !== "");
/** A header value: one line, or several (continuation lines). */
const value = fc.oneof(
  fc.string({ unit: chars, maxLength: 20 }).map((s) => s.trim()),
  fc.array(valueLine, { minLength: 1, maxLength: 3 }).map((ls) => ls.join("\n")),
);
/** Header counts are integers (MaxProcs >= 1, MaxJobs >= 0); TimeZone may be negative. */
const count = (min: number) => fc.integer({ min, max: 2_000_000_000 });
const TYPED = new Set(
  "version computer installation acknowledge information conversion maxjobs maxrecords preemption unixstarttime timezone timezonestring starttime endtime maxnodes maxprocs maxruntime maxmemory allowoveruse maxqueues queue maxpartitions partition note".split(
    " ",
  ),
);
const otherKey = fc
  .stringMatching(/^[A-Za-z][A-Za-z0-9_-]{0,10}$/)
  .filter((k) => !TYPED.has(k.toLowerCase()));
/** A free comment: no colon (it would read as a directive), trimmed at its end. */
const comment = fc
  .string({ unit: chars, maxLength: 20 })
  .map((s) => s.replace(/:/g, "").trimEnd())
  .filter((s) => s.trim() !== "");

const header: fc.Arbitrary<SwfHeader> = fc
  .record(
    {
      version: value,
      computer: value,
      information: value,
      maxJobs: count(0),
      maxProcs: count(1),
      timeZone: fc.integer({ min: -100000, max: 100000 }),
      timeZoneString: value,
      allowOveruse: fc.boolean(),
      queues: fc.array(value, { maxLength: 2 }),
      partitions: fc.array(value, { maxLength: 2 }),
      notes: fc.array(value, { maxLength: 3 }),
      other: fc.array(fc.record({ key: otherKey, value }), { maxLength: 2 }),
      comments: fc.array(comment, { maxLength: 2 }),
    },
    { requiredKeys: ["queues", "partitions", "notes", "other", "comments"] },
  )
  .map((h) => h as SwfHeader);

describe("SWF properties", () => {
  it("parseSwf(formatSwf(header, records)) gives back the header and every field", () => {
    fc.assert(
      fc.property(header, fc.array(record, { maxLength: 20 }), (h, rs) => {
        const back = parseSwf(formatSwf(h, rs));
        expect(back.header).toEqual(h);
        expect(back.records).toEqual(rs);
      }),
      { numRuns: 300 },
    );
  });

  const token = fc.oneof(
    fc.constantFrom("-1", "0", "12", "552.21", "1e3", "1a3", "", "NaN", "0x1", ".", "-", "+.5"),
    fc.string({ maxLength: 4 }),
  );
  const line = fc.oneof(
    fc.string({ maxLength: 40 }),
    fc.array(token, { minLength: 16, maxLength: 20 }).map((ts) => ts.join(" ")),
    fc
      .tuple(fc.constantFrom("MaxProcs", "AllowOveruse", "Note", "X", "TimeZone"), fc.string())
      .map(([k, v]) => `; ${k}: ${v}`),
  );

  it("parseSwf throws nothing but ParseError, whatever the lines", () => {
    fc.assert(
      fc.property(fc.array(line, { maxLength: 8 }), (lines) => {
        try {
          parseSwf(lines.join("\n"));
        } catch (e) {
          expect(e).toBeInstanceOf(ParseError);
          expect((e as ParseError).line).toBeGreaterThanOrEqual(1);
        }
      }),
      { numRuns: 500 },
    );
  });
});
