import { InvalidInputError, ParseError } from "@sched/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  createSwfJobStream,
  readSwfLinesSync,
  SWF_FIELDS,
  type SwfHeader,
  type SwfRecord,
  swfToJobs,
} from "../src/index.js";
import { parseSwfNumber, swfNumberProblem } from "../src/swf-number.js";

/** Field texts: plain integers and decimals (the fast path), and everything around them. */
const numberText = fc.oneof(
  fc.integer({ min: -1, max: 100_000 }).map(String),
  fc.integer({ min: 1, max: 10 ** 15 }).map(String),
  fc
    .tuple(fc.nat({ max: 99_999 }), fc.nat({ max: 9999 }), fc.nat({ max: 4 }))
    .map(([a, b, z]) => `${a}.${"0".repeat(z)}${b}`),
  fc.double({ noNaN: true }).map(String),
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
    "0.1234567890123456789",
    "-.5",
    "+.e1",
  ),
  fc.string({ unit: fc.constantFrom(..."0123456789+-.eE"), maxLength: 8 }),
);

describe("the in-place field scanner", () => {
  it("reads any field text as parseSwfNumber does, bit for bit, or says why it is not one", () => {
    fc.assert(
      fc.property(
        fc.array(numberText, { minLength: 18, maxLength: 18 }),
        fc.constantFrom(" ", "  ", "\t"),
        (fields, sep) => {
          const line = fields.join(sep);
          const want = outcome(() => [...referenceRecords([line])]);
          const got = outcome(() => [...readSwfLinesSync([line], { source: "t.swf" })]);
          if ("ok" in (want as object)) {
            const [w] = (want as { ok: SwfRecord[] }).ok;
            const [g] = (got as { ok: SwfRecord[] }).ok;
            for (const f of SWF_FIELDS) expect(Object.is(g![f.key], w![f.key])).toBe(true);
          } else {
            expect(got).toEqual(want);
          }
        },
      ),
      { numRuns: 2000 },
    );
  });
});

const BLANK = fc.constantFrom(" ", "  ", "\t", " \t ");
/** Mostly what logs hold (counts, `-1` for unknown, some decimals), at times anything. */
const field = (valid: boolean) =>
  valid
    ? fc.oneof(
        { arbitrary: fc.integer({ min: 1, max: 5000 }).map(String), weight: 6 },
        { arbitrary: fc.constant("-1"), weight: 2 },
        {
          arbitrary: fc
            .tuple(fc.nat({ max: 9999 }), fc.nat({ max: 99 }))
            .map(([a, b]) => `${a}.${b}`),
          weight: 1,
        },
      )
    : numberText;

/**
 * A data line: 18 fields (sometimes 17 or 19), mostly valid jobs, separated by ASCII blanks
 * (the in-place scan) or, in one line of eight, with one non-ASCII blank somewhere (the
 * reference `split`), with blanks around it at times.
 */
const dataLine = fc
  .record({
    fields: fc.array(
      fc.oneof({ arbitrary: field(true), weight: 120 }, { arbitrary: field(false), weight: 1 }),
      { minLength: 18, maxLength: 18 },
    ),
    count: fc.oneof(
      { arbitrary: fc.constant(18), weight: 15 },
      { arbitrary: fc.constantFrom(17, 19), weight: 1 },
    ),
    blanks: fc.array(BLANK, { minLength: 20, maxLength: 20 }),
    exotic: fc.option(
      fc.tuple(fc.nat({ max: 19 }), fc.constantFrom("\u00a0", "\u3000 ", "\u2028")),
      {
        freq: 8,
        nil: null,
      },
    ),
    lead: fc.constantFrom("", "", " ", "\t", "\u00a0"),
    trail: fc.constantFrom("", "", " ", "\t", "\u00a0", "\ufeff"),
  })
  .map(({ fields, count, blanks, exotic, lead, trail }) => {
    const f = count === 19 ? [...fields, "1"] : fields.slice(0, count);
    const sep = (i: number) => (exotic !== null && exotic[0] === i ? exotic[1] : blanks[i]!);
    return lead + f.map((x, i) => (i === 0 ? x : sep(i) + x)).join("") + trail;
  });

const line = fc.oneof(
  { arbitrary: dataLine, weight: 8 },
  { arbitrary: fc.constantFrom("", " ", "\t", "\u00a0"), weight: 1 },
  {
    arbitrary: fc.constantFrom(
      "; MaxProcs: 64",
      "; MaxNodes: 32",
      ";Version: 2.2",
      "; Note: a note",
      "  ; UnixStartTime: 0",
      "\u00a0; Computer: x",
    ),
    weight: 1,
  },
);

const EOL = fc.constantFrom("\n", "\n", "\r\n", "\r");

/** The lines as Node's readline gives them: split at \n, \r\n and a lone \r; no empty last line. */
function readlineLines(text: string): string[] {
  const lines = text.split(/\r\n|\n|\r/);
  if (lines[lines.length - 1] === "") lines.pop();
  return lines;
}

/**
 * The reference reading of data lines, written out here independently of the library's scanner:
 * trim, split at /\s+/, 18 fields, each `parseSwfNumber`; comments (`;`) and blank lines skipped.
 * The line of each record read goes to `at`.
 */
function* referenceRecords(lines: readonly string[], at: number[] = []): Generator<SwfRecord> {
  let lineNo = 0;
  for (const raw of lines) {
    lineNo++;
    const text = raw.trim();
    if (text === "" || text.startsWith(";")) continue;
    at.push(lineNo);
    const tokens = text.split(/\s+/);
    if (tokens.length !== 18) {
      throw new ParseError(
        "@sched/workload/reference",
        { source: "t.swf", line: lineNo },
        `expected 18 whitespace-separated fields, found ${tokens.length}`,
      );
    }
    const record: Record<string, number> = {};
    tokens.forEach((token, i) => {
      const n = parseSwfNumber(token);
      const f = SWF_FIELDS[i]!;
      if (n === null) {
        throw new ParseError(
          "@sched/workload/reference",
          { source: "t.swf", line: lineNo, field: `${f.label} (field ${f.column})` },
          swfNumberProblem(token),
        );
      }
      record[f.key] = n;
    });
    yield record as unknown as SwfRecord;
  }
}

/**
 * A conversion error of records the test handed over (`records[i] (job N) field detail`), said
 * as the library says it of records read from `source` (`source:line: (job N) field detail`),
 * `at[i]` being the line of record i as the reference reading counted it.
 */
function located(error: unknown, source: string, at: readonly number[]): unknown {
  if (!(error instanceof InvalidInputError)) return error;
  const m = /^records\[(\d+)\] (.*)$/.exec(error.field);
  if (m === null) return error;
  const detail = error.message.slice(`${error.where}: ${error.field} `.length);
  return new ParseError(error.where, { source, line: at[Number(m[1])]! }, `${m[2]!} ${detail}`);
}

function outcome(run: () => unknown): unknown {
  try {
    return { ok: run() };
  } catch (error) {
    const e = error as Error;
    // Same message after the function's name (the reference reader names itself).
    return {
      error: e.constructor.name,
      message: e.message.replace(/^@sched\/workload\/\w+: /, ""),
    };
  }
}

describe("createSwfJobStream", () => {
  it("gives swfToJobs of the reference reading of the lines, whatever the pieces, line ends and blanks", () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(line, EOL), { maxLength: 25 }),
        fc.boolean(),
        fc.array(fc.nat({ max: 40 }), { maxLength: 30 }),
        fc.boolean(),
        (lines, lastEol, cuts, clean) => {
          let text = lines.map(([l, e]) => l + e).join("");
          if (!lastEol && lines.length > 0)
            text = text.slice(0, text.length - lines.at(-1)![1].length);
          const options = { source: "t.swf", clean, estimate: "requested" as const };
          let refHeader: SwfHeader | undefined;
          const want = outcome(() => {
            const lines = readlineLines(text);
            const at: number[] = [];
            let converted: ReturnType<typeof swfToJobs>;
            try {
              converted = swfToJobs(referenceRecords(lines, at), {
                clean,
                estimate: options.estimate,
              });
            } catch (error) {
              // A record that fails is named by the line the reference reading found it on.
              throw located(error, "t.swf", at);
            }
            const { jobs, report } = converted;
            // The header as the line reader builds it (the scanner does not touch comments).
            for (const _ of readSwfLinesSync(lines, {
              onHeader: (h) => {
                refHeader = h;
              },
            }));
            return { jobs, report, header: refHeader };
          });
          let header: SwfHeader | undefined;
          const got = outcome(() => {
            const stream = createSwfJobStream({
              ...options,
              onHeader: (h) => {
                header = h;
              },
            });
            const jobs = [];
            let at = 0;
            for (const c of cuts) {
              const next = Math.min(text.length, at + c);
              jobs.push(...stream.push(text.slice(at, next)));
              at = next;
            }
            jobs.push(...stream.push(text.slice(at)));
            jobs.push(...stream.end());
            expect(stream.header).toEqual(header);
            return { jobs, report: stream.report(), header };
          });
          expect(got).toEqual(want);
        },
      ),
      { numRuns: 400 },
    );
  });
});

describe("swfToJobs: the duplicate job number check (runs of increasing numbers, then a set)", () => {
  it("fails at the first number kept before, whatever the order", () => {
    const ids = fc.oneof(
      fc.array(fc.nat({ max: 60 }), { maxLength: 80 }),
      fc
        .array(fc.integer({ min: 1, max: 3 }), { maxLength: 80 })
        .map((steps) => steps.map((_, i) => steps.slice(0, i + 1).reduce((a, b) => a + b, 0))),
      fc
        .tuple(fc.array(fc.nat({ max: 200 }), { maxLength: 40 }), fc.nat({ max: 200 }))
        .map(([xs, y]) => [...xs.sort((a, b) => a - b), y]),
    );
    fc.assert(
      fc.property(ids, (list) => {
        const seen = new Set<number>();
        let dup = -1;
        for (let i = 0; i < list.length && dup < 0; i++) {
          if (seen.has(list[i]!)) dup = i;
          seen.add(list[i]!);
        }
        const records = list.map((id) => ({
          jobNumber: id,
          submitTime: 0,
          waitTime: -1,
          runTime: 10,
          allocatedProcs: 1,
          avgCpuTime: -1,
          usedMemory: -1,
          requestedProcs: 1,
          requestedTime: 10,
          requestedMemory: -1,
          status: 1,
          userId: -1,
          groupId: -1,
          executable: -1,
          queue: -1,
          partition: -1,
          precedingJob: -1,
          thinkTime: -1,
        }));
        if (dup < 0) expect(swfToJobs(records).jobs).toHaveLength(list.length);
        else {
          expect(() => swfToJobs(records)).toThrow(
            `records[${dup}] (job ${list[dup]}) job number (field 1) ${list[dup]} appears twice`,
          );
        }
      }),
      { numRuns: 500 },
    );
  });
});

describe("createSwfJobStream's line limit", () => {
  const line = "1 0 -1 10 1 -1 -1 1 10 -1 1 -1 -1 -1 -1 -1 -1 -1";
  it("names the first line longer than maxLineLength, whatever the pieces", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 40 }), fc.integer({ min: 1, max: 7 }), (cut, n) => {
        // line 1 fits, line 2 (a comment of 60 characters) does not
        const text = `${line}\n;${"x".repeat(59)}\n${line.replace(/^1/, "2")}\n`;
        const swf = createSwfJobStream({ source: "t.swf", maxLineLength: 50 });
        const pieces: string[] = [];
        for (let i = 0; i < text.length; i += cut) pieces.push(text.slice(i, i + cut));
        let error: unknown;
        try {
          for (const p of pieces.slice(0, pieces.length - (n % 2))) swf.push(p);
          swf.end();
        } catch (e) {
          error = e;
        }
        expect(error).toBeInstanceOf(ParseError);
        expect((error as ParseError).message).toBe(
          "@sched/workload/createSwfJobStream: t.swf:2: is longer than 50 characters, the limit of a line (options.maxLineLength)",
        );
      }),
      { numRuns: 200 },
    );
  });

  it("reads a line of exactly maxLineLength, and refuses a limit that is not an integer >= 1", () => {
    const swf = createSwfJobStream({ maxLineLength: line.length });
    expect(swf.push(`${line}\n`)).toHaveLength(1);
    for (const bad of [0, 1.5, Number.NaN, -1]) {
      expect(() => createSwfJobStream({ maxLineLength: bad })).toThrow(/options\.maxLineLength/);
    }
  });
});
