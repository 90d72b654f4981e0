import { JOB_FIELDS } from "@sched/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { scanJobLine } from "../src/job-line-scan.js";
import { NativeLineReader, parseJobsJsonl } from "../src/jobs-json.js";
import { WORKLOAD_MODELS } from "../src/models.js";

// The native reader's fast path (scanJobLine) against its full path (JSON.parse and the checks):
// on every line, the same job (keys in the same order, the same numbers, -0 included, frozen)
// or the same error.

/** The numeric job fields (the same order): every field but the two objects, left to JSON.parse. */
const NUMERIC = JOB_FIELDS.filter((k) => k !== "licenses" && k !== "input");

/** Keys the scanner leaves to the full reader, or that no reader takes. */
const OTHER_KEYS = ["licenses", "input", "colour", "format", "Cores", "i\\u0064", "id ", ""];

/** A number as JSON text that a job field takes (mostly), in JSON's several spellings. */
const goodNumber = fc.oneof(
  { weight: 10, arbitrary: fc.integer({ min: 1, max: 400 }).map(String) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      "1.0",
      "1.5",
      "2.50",
      "1e3",
      "1E+2",
      "25e-1",
      "4e0",
      "123456789012345",
    ),
  },
);

/** A number as JSON text, or something else, with JSON's edge cases. */
const oddNumber = fc.oneof(
  fc.integer({ min: -3, max: 3 }).map(String),
  fc
    .double({ noNaN: true, noDefaultInfinity: true, min: -1e6, max: 1e6 })
    .map((x) => JSON.stringify(x)),
  fc.constantFrom(
    "0",
    "-0",
    "0.0",
    "-1.5",
    "1234567890123456",
    "9007199254740991",
    "9007199254740992",
    "9007199254740993",
    "12345678901234567890",
    "1e16",
    "1e17",
    "1e400",
    "-1e400",
    "5e-324",
    "01",
    "00",
    "-01",
    "1.",
    ".5",
    "-",
    "+1",
    "1e",
    "1e+",
    "1.e3",
    "0x10",
    "Infinity",
    "NaN",
    '"5"',
    "null",
    "true",
    "[3]",
    "{}",
    '{"a":1}',
    '[{"size":1,"machine":0}]',
  ),
);

const numberText = fc.oneof(
  { weight: 12, arbitrary: goodNumber },
  { weight: 1, arbitrary: oddNumber },
);

/** White space between tokens (the scanner takes spaces and tabs; JSON also those). */
const blank = fc.constantFrom("", "", "", " ", "\t", "  ");

const REQUIRED = ["id", "submit", "runtime", "cores"];
const OPTIONAL = NUMERIC.filter((k) => !REQUIRED.includes(k));

/**
 * A job line: the required fields (one sometimes left out or given twice), some optional ones,
 * sometimes a key the scanner leaves to JSON.parse, in the writers' order or shuffled.
 */
const jobLine = fc
  .tuple(
    fc.oneof(
      { weight: 8, arbitrary: fc.constant(REQUIRED) },
      { weight: 1, arbitrary: fc.subarray(REQUIRED, { minLength: 3, maxLength: 3 }) },
      { weight: 1, arbitrary: fc.constantFrom(...REQUIRED).map((k) => [...REQUIRED, k]) },
    ),
    fc.subarray(OPTIONAL, { maxLength: 4 }),
    fc.oneof(
      { weight: 8, arbitrary: fc.constant([]) },
      { weight: 1, arbitrary: fc.constantFrom(...OTHER_KEYS).map((k) => [k]) },
    ),
    fc.boolean(),
  )
  .chain(([r, o, other, shuffle]) => {
    const keys = [...r, ...o, ...other];
    return fc.tuple(
      shuffle ? fc.shuffledSubarray(keys, { minLength: keys.length }) : fc.constant(keys),
      fc.integer({ min: 0, max: 12 }),
      fc.array(numberText, { minLength: keys.length, maxLength: keys.length }),
      fc.tuple(blank, blank, blank),
      fc.constantFrom("", "", "", "", " ", "\t"),
    );
  })
  .map(([keys, id, values, [a, b, c], around]) => {
    // ids from a small range, so that the lines of one file repeat some
    const pairs = keys.map((k, i) => [k, k === "id" ? String(id) : (values[i] as string)]);
    const body = pairs.map(([k, v]) => `"${k}"${a}:${b}${v}`).join(`${c},${a}`);
    return `${around}{${b}${body}${c}}${around}`;
  });

/** A line changed at a few places by JSON's significant characters and others. */
const mutated = fc
  .tuple(
    jobLine,
    fc.array(
      fc.tuple(
        fc.nat(),
        fc.constantFrom(
          "",
          '"',
          ",",
          ":",
          "{",
          "}",
          " ",
          "-",
          "0",
          "9",
          ".",
          "e",
          "\\",
          "é",
          "\u00a0",
        ),
        fc.boolean(),
      ),
      { minLength: 1, maxLength: 3 },
    ),
  )
  .map(([line, edits]) => {
    let s = line;
    for (const [at, ch, replace] of edits) {
      const i = at % (s.length + 1);
      s = s.slice(0, i) + ch + s.slice(replace ? i + 1 : i);
    }
    return s;
  });

const otherLine = fc.constantFrom(
  "",
  "   ",
  '{"format":"@sched/jobs","version":1}',
  '{"format":"@sched/jobs","version":1,"meta":{"procs":8}}',
  '{"id":1,"submit":0,"runtime":5,"cores":1,"licenses":{"a":1}}',
  '{"id":2,"submit":0,"runtime":5,"cores":1,"input":[{"size":1,"machine":0}]}',
  '{"id":3,"submit":1e17,"runtime":100,"cores":1}',
  '{"id":4,"submit":0,"runtime":5,"cores":1,"ready":3,"deadline":2}',
  "[1,2]",
  "{",
);

const line = fc.oneof(
  { weight: 5, arbitrary: jobLine },
  { weight: 4, arbitrary: mutated },
  { weight: 1, arbitrary: otherLine },
);

type Outcome =
  | null
  | { keys: string[]; values: (number | string)[]; frozen: boolean }
  | { error: string; name: string };

/** What a reader gives for each line, up to the first error (which ends a read). */
function read(lines: readonly string[], scan: boolean): { outcomes: Outcome[]; header: unknown } {
  const reader = new NativeLineReader("@sched/workload/readJobsLines", "t.jsonl", scan);
  const outcomes: Outcome[] = [];
  for (const l of lines) {
    try {
      const job = reader.next(l);
      outcomes.push(
        job === null
          ? null
          : {
              keys: Object.keys(job),
              // -0 written out: toEqual would not tell it from 0 in every version
              values: Object.values(job).map((v) => (Object.is(v, -0) ? "-0" : v)),
              frozen: Object.isFrozen(job),
            },
      );
    } catch (error) {
      outcomes.push({ error: String(error), name: (error as Error).constructor.name });
      break;
    }
  }
  return { outcomes, header: reader.header };
}

describe("scanJobLine (the native reader's fast path)", () => {
  it("gives the full reader's jobs and errors on random and mutated lines (property)", () => {
    let scanned = 0;
    fc.assert(
      fc.property(fc.array(line, { maxLength: 8 }), (lines) => {
        for (const l of lines) if (scanJobLine(l) !== null) scanned++;
        expect(read(lines, true)).toEqual(read(lines, false));
      }),
      { numRuns: 3000, seed: 22 },
    );
    // the property is about the scanner only if it reads many of the lines
    expect(scanned).toBeGreaterThan(1000);
  });

  it("never accepts a line the full reader refuses, nor reads it otherwise (property)", () => {
    fc.assert(
      fc.property(fc.oneof(jobLine, mutated), (l) => {
        const job = scanJobLine(l);
        if (job === null) return;
        const [slow] = read([l], false).outcomes;
        expect(read([l], true).outcomes).toEqual([slow]);
        expect(slow).not.toHaveProperty("error");
      }),
      { numRuns: 5000, seed: 7 },
    );
  });

  it("agrees with the full reader on every numeric field at the edges: overflow, 17 digits", () => {
    // 1e400 is Infinity to both (every field must refuse it); 17 digits are beyond what the
    // scanner sums exactly (37781354964361348 is 37781354964361340 as JSON reads it).
    const base: Record<string, string> = { id: "1", submit: "0", runtime: "5", cores: "1" };
    for (const field of NUMERIC) {
      for (const value of ["1e400", "-1e400", "37781354964361348", "9007199254740993"]) {
        const fields = { ...base, [field]: value };
        const l = `{${Object.entries(fields)
          .map(([k, v]) => `"${k}":${v}`)
          .join(",")}}`;
        expect(read([l], true), l).toEqual(read([l], false));
      }
    }
    const long = '{"id":1,"submit":0,"runtime":5,"cores":1,"priority":37781354964361348}';
    expect(scanJobLine(long)?.priority).toBe(Number("37781354964361348"));
  });

  it("reads the lines gen writes (Lublin, with queue), and leaves licenses and input to JSON.parse", () => {
    const { jobs } = WORKLOAD_MODELS.find((m) => m.name === "lublin")!.generate({
      jobs: 200,
      seed: 3,
    });
    const text = jobs.map((j) => JSON.stringify(j)).join("\n");
    for (const l of text.split("\n")) expect(scanJobLine(l)).not.toBeNull();
    expect(parseJobsJsonl(text).jobs).toEqual(jobs);
    expect(scanJobLine('{"id":1,"submit":0,"runtime":5,"cores":1,"licenses":{"a":1}}')).toBeNull();
    expect(scanJobLine('{"id":1,"submit":0,"runtime":5,"cores":1}')).toEqual({
      id: 1,
      submit: 0,
      runtime: 5,
      cores: 1,
      estimate: 5,
    });
  });

  it("refuses through the full reader, in its words: a duplicate key, a bad value, a repeated id", () => {
    const where = "@sched/workload/parseJobsJsonl: j.jsonl";
    const parse = (text: string) => () => parseJobsJsonl(text, { source: "j.jsonl" });
    expect(parse('{"id":1,"submit":0,"runtime":5,"runtime":500,"cores":1}')).toThrow(
      `${where}:1 runtime: appears twice in one object (JSON would keep the last; give it once)`,
    );
    expect(parse('{"id":1,"submit":0,"runtime":5,"cores":0}')).toThrow(
      `${where}:1 cores: is 0, expected an integer >= 1`,
    );
    expect(
      parse('{"id":1,"submit":0,"runtime":5,"cores":1}\n{"id":1,"submit":0,"runtime":5,"cores":1}'),
    ).toThrow(`${where}:2 id: 1 appears twice`);
  });
});
