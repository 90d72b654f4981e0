import { InvalidInputError } from "@sched/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { WORKLOAD_MODELS } from "../src/models.js";
import { jobsToSwf } from "../src/swf-from-jobs.js";
import { emptySwfHeader, type SwfHeader } from "../src/swf-header.js";
import { SWF_FIELDS, type SwfRecord, swfRecord } from "../src/swf-record.js";
import { formatSwf, formatSwfRecord } from "../src/swf-write.js";
import { SwfWriter, type SwfWriterOptions, writeInteger } from "../src/swf-writer.js";

/** What the writer gives its sink, chunks joined (each copied: the writer reuses its chunk). */
function writtenBytes(
  header: SwfHeader,
  records: Iterable<SwfRecord>,
  options?: SwfWriterOptions,
): Buffer {
  const chunks: Buffer[] = [];
  const writer = new SwfWriter((bytes) => chunks.push(Buffer.from(bytes)), options);
  writer.header(header);
  for (const r of records) writer.record(r);
  writer.flush();
  return Buffer.concat(chunks);
}

/** Finite numbers of every shape a field may hold, -0 and the exponent forms included. */
const fieldValue = fc.oneof(
  fc.constantFrom(-1, 0, -0, 1, 9, 10, 99, 100, 552.21, 1e21, -1e21, 1e-7, 5e-324, 2 ** 53),
  fc.constantFrom(Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER, 2 ** 53 + 2, 1.5e300),
  fc.integer({ min: -1, max: 100_000_000 }),
  fc.integer(),
  fc.maxSafeInteger(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.double({ min: -1e6, max: 1e6, noNaN: true }).map((x) => Math.round(x * 100) / 100),
);

const record = fc
  .array(fieldValue, { minLength: 18, maxLength: 18 })
  .map((values) =>
    swfRecord(
      Object.fromEntries(SWF_FIELDS.map((f, i) => [f.key, values[i]!])) as Partial<SwfRecord>,
    ),
  );

const header = fc
  .record({
    maxProcs: fc.option(fc.integer({ min: 1, max: 1 << 20 }), { nil: undefined }),
    notes: fc.array(fc.string({ unit: "binary", maxLength: 40 }), { maxLength: 3 }),
  })
  .map(({ maxProcs, notes }): SwfHeader => {
    const h: SwfHeader = { ...emptySwfHeader(), notes };
    return maxProcs === undefined ? h : { ...h, maxProcs };
  });

describe("SwfWriter", () => {
  it("writes the bytes of formatSwf, on any header and any finite fields (or refuses the header as formatSwf does)", () => {
    fc.assert(
      fc.property(
        header,
        fc.array(record, { maxLength: 30 }),
        fc.integer({ min: 4096, max: 20_000 }),
        (h, rs, chunkBytes) => {
          let expected: Buffer;
          try {
            expected = Buffer.from(formatSwf(h, rs), "utf8");
          } catch (e) {
            // A note that would not read back as itself (binary strings: blanks at the ends,
            // carriage returns, empty continuation lines): both refuse it, naming the note.
            expect(e).toBeInstanceOf(InvalidInputError);
            const field = (e as InvalidInputError).field;
            expect(field).toMatch(/^header\.notes\[\d+\]$/);
            expect(() => writtenBytes(h, rs, { chunkBytes })).toThrow(
              new RegExp(`^@sched/workload/SwfWriter: ${field.replace(/[[\].]/g, "\\$&")} `),
            );
            return;
          }
          expect(writtenBytes(h, rs, { chunkBytes }).equals(expected)).toBe(true);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("writes each record as formatSwfRecord's line, field values at the column edges", () => {
    fc.assert(
      fc.property(record, (r) => {
        const chunks: Buffer[] = [];
        const writer = new SwfWriter((bytes) => chunks.push(Buffer.from(bytes)));
        writer.record(r);
        writer.flush();
        expect(Buffer.concat(chunks).toString("latin1")).toBe(`${formatSwfRecord(r)}\n`);
      }),
      { numRuns: 2000 },
    );
  });

  it("writes -0 as 0 and 1e21 in exponent form, as the string formatter does", () => {
    const r = swfRecord({ jobNumber: -0, submitTime: 1e21, runTime: 5e-324, allocatedProcs: -7 });
    expect(writtenBytes(emptySwfHeader(), [r]).toString("latin1")).toBe(
      formatSwf(emptySwfHeader(), [r]),
    );
    expect(formatSwfRecord(r).startsWith("     0     1e+21      -1  5e-324    -7")).toBe(true);
  });

  it("writes every model's trace as formatSwf does, across chunk boundaries", () => {
    for (const model of WORKLOAD_MODELS) {
      const out = model.generate({ seed: 5 });
      // A model without an SWF trace of its own is written as gen writes it: converted.
      const trace = out.swf ?? jobsToSwf(out.jobs, { maxProcs: out.platform.totalCores });
      expect(trace.records.length).toBeGreaterThan(0);
      const expected = Buffer.from(formatSwf(trace.header, trace.records), "utf8");
      expect(writtenBytes(trace.header, trace.records, { chunkBytes: 4096 }).equals(expected)).toBe(
        true,
      );
    }
  });

  it("rejects a non-finite field naming the record and field, writing nothing of its line", () => {
    const chunks: Buffer[] = [];
    const writer = new SwfWriter((bytes) => chunks.push(Buffer.from(bytes)));
    writer.record(swfRecord({ jobNumber: 1, runTime: 60 }));
    const bad = swfRecord({ jobNumber: 3, runTime: Number.NaN });
    expect(() => writer.record(bad)).toThrow(InvalidInputError);
    expect(() => writer.record(bad)).toThrow(
      "@sched/workload/formatSwfRecord: record 3 runTime is NaN, expected a finite number (-1 for unknown)",
    );
    expect(() =>
      writer.record(swfRecord({ jobNumber: 4, queue: Number.POSITIVE_INFINITY })),
    ).toThrow("record 4 queue is Infinity");
    writer.flush();
    expect(Buffer.concat(chunks).toString("latin1")).toBe(
      `${formatSwfRecord(swfRecord({ jobNumber: 1, runTime: 60 }))}\n`,
    );
  });

  it("rejects a sink that is not a function and a chunk too small, naming the option", () => {
    expect(() => new SwfWriter(null as never)).toThrow("@sched/workload/SwfWriter: sink is null");
    expect(() => new SwfWriter(() => {}, { chunkBytes: 100 })).toThrow(
      "@sched/workload/SwfWriter: options.chunkBytes is 100, expected an integer from 4096 to 1073741824 (1 GiB)",
    );
  });
});

describe("writeInteger", () => {
  it("counts the digits right at every power of ten (the digit count's boundaries)", () => {
    for (let k = 0; k <= 15; k++) {
      for (const v of [10 ** k - 1, 10 ** k, 10 ** k + 1]) {
        for (const x of [v, -v]) {
          const chunk = new Uint8Array(40).fill(0x7e);
          const end = writeInteger(chunk, 2, x, 12);
          expect(new TextDecoder().decode(chunk.subarray(2, end))).toBe(`${x}`.padStart(12));
          expect(chunk[end]).toBe(0x7e);
        }
      }
    }
  });

  it("writes a safe integer as String(v) would, right-aligned in its width, at any position", () => {
    const integer = fc.oneof(
      fc.integer({ min: -1, max: 100_000 }),
      fc.integer(),
      fc.integer({ min: 2 ** 30, max: 2 ** 31 + 10 }),
      fc.integer({ min: -(2 ** 31) - 10, max: -(2 ** 30) }),
      fc.maxSafeInteger(),
      fc.constantFrom(-0, 2 ** 31 - 1, 2 ** 31, -(2 ** 31), Number.MAX_SAFE_INTEGER),
    );
    fc.assert(
      fc.property(integer, fc.nat({ max: 20 }), fc.nat({ max: 8 }), (v, width, at) => {
        const chunk = new Uint8Array(at + 40).fill(0x7e);
        const end = writeInteger(chunk, at, v, width);
        const want = `${v}`.padStart(width);
        expect(new TextDecoder().decode(chunk.subarray(at, end))).toBe(want);
        expect(chunk.subarray(0, at).every((b) => b === 0x7e)).toBe(true);
        expect(chunk.subarray(end).every((b) => b === 0x7e)).toBe(true);
      }),
      { numRuns: 3000 },
    );
  });
});
