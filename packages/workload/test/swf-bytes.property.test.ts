import { createGunzip, gzipSync } from "node:zlib";
import { ParseError } from "@sched/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isAsciiBytes } from "../src/ascii.js";
import { createSwfJobStream, SWF_FIELDS, type SwfHeader } from "../src/index.js";
import { SwfLineReader } from "../src/swf-read.js";

// The byte path (`pushBytes`, `SwfLineReader.nextBytes`) against the text path it replaces for
// ASCII pieces: what `sched-sim` did before, a fatal streaming `TextDecoder` and `push` of each
// decoded piece. Same jobs, report, header, and the same error (class and message) when any.

const WHERE = "@sched/workload/createSwfJobStream";

/** Odd field texts: what the fast path leaves to `parseSwfNumber`, and what is no number. */
const oddText = fc.oneof(
  fc.constantFrom(
    "-0",
    "+7",
    ".5",
    "5.",
    "007",
    "1e3",
    "2E-2",
    "1e400",
    "0x10",
    "1a3",
    "NaN",
    "-",
    ".",
    "1.2.3",
    "12345678901234567",
    "123456789012345",
    "0.1234567890123456789",
    "9007199254740993",
    "-.5",
    "+.e1",
    "1\u0000",
    "2\u007f",
    "\u0001",
    "caf\u00e9",
    "\u0663",
  ),
  fc.double({ noNaN: true }).map(String),
);

const int = (min: number, max: number) => fc.integer({ min, max }).map(String);
const decimal = fc
  .tuple(fc.nat({ max: 99_999 }), fc.nat({ max: 9999 }), fc.nat({ max: 3 }))
  .map(([a, b, z]) => `${a}.${"0".repeat(z)}${b}`);
const unknownOr = (a: fc.Arbitrary<string>) =>
  fc.oneof({ arbitrary: fc.constant("-1"), weight: 1 }, { arbitrary: a, weight: 2 });

/**
 * The 18 fields of a job as logs have them (mostly valid: a job number, times, sizes, `-1` for
 * unknown, a few decimals), at times with -1 or 0 where the clean-up drops the job.
 */
const jobFields = fc.tuple(
  int(0, 1_000_000),
  int(0, 100_000_000),
  unknownOr(int(0, 100_000)),
  fc.oneof({ arbitrary: int(1, 100_000), weight: 20 }, fc.constantFrom("0", "-1")),
  fc.oneof({ arbitrary: int(1, 512), weight: 20 }, fc.constantFrom("0", "-1")),
  unknownOr(decimal),
  unknownOr(decimal),
  unknownOr(int(1, 512)),
  fc.oneof({ arbitrary: int(1, 200_000), weight: 20 }, fc.constantFrom("0", "-1")),
  unknownOr(decimal),
  unknownOr(int(0, 5)),
  unknownOr(int(0, 500)),
  unknownOr(int(0, 50)),
  unknownOr(int(0, 999)),
  unknownOr(int(0, 9)),
  unknownOr(int(0, 9)),
  unknownOr(int(0, 1_000_000)),
  unknownOr(int(0, 10_000)),
);

/** Blanks between fields: ASCII ones (every one `trim` and `\s` know), at times a non-ASCII one. */
const blank = fc.oneof(
  { arbitrary: fc.constantFrom(" ", "  ", "\t", " \t ", "\u000b", "\u000c"), weight: 40 },
  { arbitrary: fc.constantFrom("\u00a0", "\u3000", "\u2028", "\ufeff"), weight: 1 },
);

const dataLine = fc
  .record({
    fields: jobFields,
    odd: fc.oneof(
      { arbitrary: fc.constant(null), weight: 40 },
      fc.tuple(fc.nat({ max: 17 }), oddText),
    ),
    count: fc.oneof(
      { arbitrary: fc.constant(18), weight: 60 },
      { arbitrary: fc.constantFrom(0, 1, 17, 19), weight: 1 },
    ),
    blanks: fc.array(blank, { minLength: 20, maxLength: 20 }),
    lead: fc.oneof(
      { arbitrary: fc.constant(""), weight: 20 },
      fc.constantFrom(" ", "\t", "\u00a0"),
    ),
    trail: fc.oneof(
      { arbitrary: fc.constant(""), weight: 20 },
      fc.constantFrom(" ", "\t", "\u00a0", "\ufeff"),
    ),
  })
  .map(({ fields, odd, count, blanks, lead, trail }) => {
    const all: string[] = [...fields];
    if (odd !== null) all[odd[0]] = odd[1];
    const f = count === 19 ? [...all, "1"] : all.slice(0, count);
    return lead + f.map((x, i) => (i === 0 ? x : blanks[i]! + x)).join("") + trail;
  });

const line = fc.oneof(
  { arbitrary: dataLine, weight: 12 },
  { arbitrary: fc.constantFrom("", " ", "\t", "\u00a0"), weight: 1 },
  {
    arbitrary: fc.constantFrom(
      "; MaxProcs: 64",
      "; MaxNodes: 32",
      ";Version: 2.2",
      "; Note: a note",
      "; Note: caf\u00e9 \u2014 \u{1f600}",
      "  ; UnixStartTime: 0",
      "; MaxProcs: many",
      "\u00a0; Computer: x",
      ";",
    ),
    weight: 2,
  },
);

const EOL = fc.constantFrom("\n", "\n", "\n", "\r\n", "\r");

/** Bytes that break UTF-8, or a byte-order mark, put somewhere into the bytes of a trace. */
const damage = fc.oneof(
  { arbitrary: fc.constant(null), weight: 4 },
  fc.tuple(
    fc.constantFrom(
      [0xff],
      [0x80],
      [0xc3],
      [0xe2, 0x82],
      [0xf0, 0x9f, 0x98],
      [0xed, 0xa0, 0x80],
      [0xef, 0xbb, 0xbf],
    ),
    fc.double({ min: 0, max: 1, noNaN: true }),
  ),
);

interface Trace {
  readonly bytes: Uint8Array;
  /** Piece lengths, in bytes (the rest goes in one last piece). */
  readonly cuts: readonly number[];
  /** A piece also ends here: just after the damage (a character cut short, then ASCII). */
  readonly cutAt: number;
  readonly clean: boolean;
  readonly maxLineLength: number;
}

const trace: fc.Arbitrary<Trace> = fc
  .record({
    lines: fc.array(fc.tuple(line, EOL), { maxLength: 40 }),
    lastEol: fc.boolean(),
    bom: fc.oneof({ arbitrary: fc.constant(false), weight: 9 }, fc.constant(true)),
    damage,
    cutAtDamage: fc.boolean(),
    // Fine cuts (inside a `\r\n`, a character, a number) and coarse ones (many lines a piece).
    cuts: fc.array(fc.oneof(fc.nat({ max: 6 }), fc.nat({ max: 300 })), { maxLength: 60 }),
    clean: fc.boolean(),
    maxLineLength: fc.oneof(
      { arbitrary: fc.constantFrom(Infinity, 1 << 20), weight: 8 },
      fc.constantFrom(60, 90),
    ),
  })
  .map(({ lines, lastEol, bom, damage, cutAtDamage, cuts, clean, maxLineLength }) => {
    let text = lines.map(([l, e]) => l + e).join("");
    if (!lastEol && lines.length > 0) text = text.slice(0, text.length - lines.at(-1)![1].length);
    let bytes = new TextEncoder().encode((bom ? "\ufeff" : "") + text);
    let cutAt = -1;
    if (damage !== null) {
      const at = Math.floor(damage[1] * (bytes.length + 1));
      bytes = Uint8Array.from([...bytes.subarray(0, at), ...damage[0], ...bytes.subarray(at)]);
      if (cutAtDamage) cutAt = at + damage[0].length;
    }
    return { bytes, cuts, cutAt, clean, maxLineLength };
  });

function pieces(bytes: Uint8Array, cuts: readonly number[], cutAt: number): Uint8Array[] {
  const out: Uint8Array[] = [];
  let at = 0;
  for (const c of cuts) {
    let next = Math.min(bytes.length, at + c);
    if (at < cutAt && cutAt < next) next = cutAt;
    out.push(bytes.subarray(at, next));
    at = next;
  }
  out.push(bytes.subarray(at));
  return out;
}

interface Read {
  readonly jobs: unknown[];
  readonly report: unknown;
  readonly header: SwfHeader | undefined;
}

function outcome(run: () => Read): unknown {
  try {
    return { ok: run() };
  } catch (error) {
    const e = error as Error;
    return { error: e.constructor.name, message: e.message };
  }
}

/** A stream on `t`'s options, and the header its `onHeader` saw (once it has). */
function opened(t: Trace) {
  let seen: SwfHeader | undefined;
  const stream = createSwfJobStream({
    source: "t.swf",
    clean: t.clean,
    maxLineLength: t.maxLineLength,
    onHeader: (h) => {
      seen = h;
    },
  });
  return { stream, header: () => seen };
}

/** The reference: each piece decoded by a fatal streaming decoder, then `push` (the text path). */
function viaText(t: Trace, parts: readonly Uint8Array[]): Read {
  const { stream, header } = opened(t);
  const decoder = new TextDecoder("utf-8", { fatal: true });
  const decode = (bytes?: Uint8Array): string => {
    try {
      return bytes === undefined ? decoder.decode() : decoder.decode(bytes, { stream: true });
    } catch {
      throw new ParseError(WHERE, { source: "t.swf" }, "is not valid UTF-8 text");
    }
  };
  const jobs: unknown[] = [];
  for (const p of parts) jobs.push(...stream.push(decode(p)));
  const rest = decode();
  if (rest !== "") jobs.push(...stream.push(rest));
  jobs.push(...stream.end());
  expect(stream.header).toEqual(header());
  return { jobs, report: stream.report(), header: header() };
}

/** The byte path: each piece to `pushBytes`. */
function viaBytes(t: Trace, parts: readonly Uint8Array[]): Read {
  const { stream, header } = opened(t);
  const jobs: unknown[] = [];
  for (const p of parts) jobs.push(...stream.pushBytes(p));
  jobs.push(...stream.end());
  expect(stream.header).toEqual(header());
  return { jobs, report: stream.report(), header: header() };
}

describe("createSwfJobStream's pushBytes", () => {
  it("reads as push of the decoded text: same jobs, report, header and errors, whatever the pieces, bytes and damage", () => {
    fc.assert(
      fc.property(trace, (t) => {
        const parts = pieces(t.bytes, t.cuts, t.cutAt);
        expect(outcome(() => viaBytes(t, parts))).toEqual(outcome(() => viaText(t, parts)));
      }),
      { numRuns: 1500 },
    );
  });

  it("reads gunzipped chunks as they come as the text path does", async () => {
    const samples = fc.sample(trace, { numRuns: 60, seed: 20261128 });
    for (const t of samples) {
      const gz = gzipSync(t.bytes);
      const parts: Uint8Array[] = [];
      const gunzip = createGunzip({ chunkSize: 64 });
      gunzip.end(gz);
      for await (const chunk of gunzip) parts.push(chunk as Uint8Array);
      expect(outcome(() => viaBytes(t, parts))).toEqual(outcome(() => viaText(t, parts)));
    }
  });

  it("refuses what is not bytes, a call after end(), and text and bytes in one stream", () => {
    const line = "1 0 -1 10 1 -1 -1 1 10 -1 1 -1 -1 -1 -1 -1 -1 -1\n";
    const bytes = new TextEncoder().encode(line);
    expect(() => createSwfJobStream().pushBytes(42 as unknown as Uint8Array)).toThrow(
      `${WHERE}: pushBytes(bytes) was given 42, expected a Uint8Array`,
    );
    const s = createSwfJobStream();
    expect(s.pushBytes(bytes)).toHaveLength(1);
    expect(() => s.push(line)).toThrow(
      `${WHERE}: push(text) was called on a stream fed with bytes (pushBytes): feed one or the other`,
    );
    s.end();
    expect(() => s.pushBytes(bytes)).toThrow(`${WHERE}: pushBytes(bytes) was called after end()`);
    const t = createSwfJobStream();
    t.push(line);
    expect(() => t.pushBytes(bytes)).toThrow(
      /pushBytes\(bytes\) was called on a stream fed with text/,
    );
  });
});

/** An ASCII line, bytes as they come: digits, blanks, signs, dots, exponents, control bytes. */
const asciiLine = fc.oneof(
  dataLine.filter((l) => isAsciiBytes(new TextEncoder().encode(l))),
  fc
    .array(fc.oneof(int(-1, 100), decimal, oddText), { minLength: 17, maxLength: 19 })
    .map((f) => f.join(" "))
    .filter((l) => isAsciiBytes(new TextEncoder().encode(l))),
  fc.string({
    unit: fc.constantFrom(..."0123456789 \t\u000b\u000c\r+-.eE;x\u0000\u007f"),
    maxLength: 60,
  }),
);

describe("SwfLineReader.nextBytes", () => {
  it("reads an ASCII line as nextRange reads its text: the same values bit for bit, or the same error", () => {
    const encoder = new TextEncoder();
    fc.assert(
      fc.property(fc.array(asciiLine, { minLength: 1, maxLength: 4 }), (lines) => {
        const byText = new SwfLineReader("w", "t.swf");
        const byBytes = new SwfLineReader("w", "t.swf");
        for (const l of lines) {
          const bytes = encoder.encode(`#${l}#`);
          const want = lineOutcome(() => byText.nextRange(`#${l}#`, 1, l.length + 1));
          const got = lineOutcome(() => byBytes.nextBytes(bytes, 1, l.length + 1));
          expect(got).toEqual(want);
          if ("error" in (want as object)) return;
        }
        expect(byBytes.header()).toEqual(byText.header());
      }),
      { numRuns: 3000 },
    );
  });
});

/** A record's values as `Object.is` tells them (-0 apart from 0), or the error. */
function lineOutcome(run: () => unknown): unknown {
  try {
    const r = run() as Record<string, number> | null;
    return {
      ok: r === null ? null : SWF_FIELDS.map((f) => (Object.is(r[f.key], -0) ? "-0" : r[f.key])),
    };
  } catch (error) {
    return { error: (error as Error).constructor.name, message: (error as Error).message };
  }
}

describe("isAsciiBytes", () => {
  it("is whether every byte is below 128, at any offset and length", () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ maxLength: 70, max: 127 }),
        fc.option(fc.tuple(fc.nat(), fc.integer({ min: 128, max: 255 })), { nil: null }),
        fc.nat({ max: 7 }),
        (raw, high, offset) => {
          const buf = new Uint8Array(raw.length + offset);
          buf.set(raw, offset);
          if (high !== null && raw.length > 0) buf[offset + (high[0] % raw.length)] = high[1];
          const view = buf.subarray(offset);
          expect(isAsciiBytes(view)).toBe(view.every((b) => b < 128));
        },
      ),
      { numRuns: 2000 },
    );
  });
});
