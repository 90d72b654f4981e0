import { InvalidInputError, ParseError } from "@sched/core";
import { describeValue, optionKeys, requireKnownKeys } from "@sched/errors";
import { asciiText } from "./ascii.js";
import { requireIterable } from "./require-iterable.js";
import { type SwfHeader, SwfHeaderBuilder } from "./swf-header.js";
import { POW10, parseSwfNumber, swfNumberProblem } from "./swf-number.js";
import { arrayOrigin, withSwfOrigin } from "./swf-origin.js";
import { SWF_FIELD_COUNT, SWF_FIELDS, type SwfRecord } from "./swf-record.js";

/** Options of {@link parseSwf}. */
export interface ParseSwfOptions {
  /**
   * The name of the input in error messages (a file name, usually).
   * @defaultValue `"<swf>"`
   */
  readonly source?: string;
}

/** The keys of {@link ParseSwfOptions}, all of them (checked by the compiler). */
const PARSE_KEYS = optionKeys<ParseSwfOptions>({
  source: true,
});

/** `lines` when it is iterable or async iterable; otherwise an InvalidInputError naming `lines`. */
function requireLines(where: string, lines: unknown): void {
  const l = lines as { [Symbol.iterator]?: unknown; [Symbol.asyncIterator]?: unknown } | null;
  if (
    typeof l?.[Symbol.iterator] !== "function" &&
    typeof l?.[Symbol.asyncIterator] !== "function"
  ) {
    throw new InvalidInputError(
      where,
      "lines",
      `is ${describeValue(lines)}, expected an iterable or async iterable of lines`,
    );
  }
}

/** Options of {@link readSwfLines} and {@link readSwfLinesSync}. */
export interface ReadSwfLinesOptions extends ParseSwfOptions {
  /**
   * Called once with the header: when the first data line is met (the header is the comment
   * block at the top of the file), or at the end when the input has no data line. Comment lines
   * after the first data line are not reported.
   * @defaultValue none
   */
  readonly onHeader?: (header: SwfHeader) => void;
}

/** The keys of {@link ReadSwfLinesOptions}, all of them (checked by the compiler). */
const LINES_KEYS = optionKeys<ReadSwfLinesOptions>({
  onHeader: true,
  source: true,
});

/** A whole SWF trace in memory. */
export interface SwfTrace {
  readonly header: SwfHeader;
  readonly records: readonly SwfRecord[];
}

const SPACES = /\s+/;

/**
 * Reads SWF lines one at a time: the header (comment lines before the first data line) and one
 * record per data line. A line is given whole (`next`), as a range of a larger text
 * (`nextRange`, used by the chunked reader: no string per line) or as a range of ASCII bytes
 * (`nextBytes`, the chunked reader's bytes: no text at all). Data lines of plain ASCII are
 * scanned in place, field by field, without a regular expression;
 * a line with any other character goes through `trim`, `split(/\s+/)` and `parseSwfNumber`, the
 * definition both paths agree with (a property test compares them). Internal: shared by every
 * reader.
 */
export class SwfLineReader {
  private lineNo = 0;
  private readonly headerBuilder: SwfHeaderBuilder;
  private seenData = false;
  /** Field values of the line being read. */
  private readonly values = new Float64Array(SWF_FIELD_COUNT);

  /** The one record every data line is read into, when records are not kept (else null). */
  private readonly scratch: { -readonly [K in keyof SwfRecord]: number } | null;

  /**
   * `reuse`: every data line is read into the same record object (for a caller that converts
   * each record at once and keeps none, such as the chunked reader): no object per line.
   */
  constructor(
    private readonly where: string,
    readonly source: string,
    reuse = false,
  ) {
    // every message starts with the source: a number or an object read as its text
    if (typeof source !== "string") {
      throw new InvalidInputError(
        where,
        "options.source",
        `is ${describeValue(source)}, expected a string (the trace's name in messages)`,
      );
    }
    this.headerBuilder = new SwfHeaderBuilder(where, source);
    this.scratch = reuse ? recordOf(this.values) : null;
  }

  /** Reads the next line; returns its record, or null for a comment or blank line. */
  next(line: string): SwfRecord | null {
    return this.nextRange(line, 0, line.length);
  }

  /** {@link next} of `text.slice(start, end)` (one line, without its line end). */
  nextRange(text: string, start: number, end: number): SwfRecord | null {
    this.lineNo++;
    // Skip ASCII blanks at both ends (what `trim` does on an ASCII line).
    let s = start;
    let e = end;
    let c = 0;
    while (s < e && ((c = text.charCodeAt(s)) === 32 || (c >= 9 && c <= 13))) s++;
    while (e > s && ((c = text.charCodeAt(e - 1)) === 32 || (c >= 9 && c <= 13))) e--;
    if (s === e) return null;
    const first = text.charCodeAt(s);
    if (first === 59 /* ; */) {
      if (!this.seenData) this.headerBuilder.add(text.slice(s, e).trim(), this.lineNo);
      return null;
    }
    if (first >= 128 || text.charCodeAt(e - 1) >= 128) return this.slowLine(text.slice(s, e));
    this.seenData = true;
    return this.scan(text, s, e);
  }

  /**
   * {@link nextRange} of a line given as bytes, `bytes[start..end)` without its line end, every
   * byte of it ASCII (below 128: the caller's check, see `createSwfJobStream`'s `pushBytes`). A
   * data line is scanned byte by byte: no string is made unless a field is not a plain decimal,
   * the line is malformed or it is a comment. Same record, header and errors as `nextRange` of
   * the same text (a property test compares them).
   */
  nextBytes(bytes: Uint8Array, start: number, end: number): SwfRecord | null {
    this.lineNo++;
    // Skip ASCII blanks at both ends (what `trim` does on an ASCII line).
    let s = start;
    let e = end;
    let c = 0;
    while (s < e && ((c = bytes[s]!) === 32 || (c >= 9 && c <= 13))) s++;
    while (e > s && ((c = bytes[e - 1]!) === 32 || (c >= 9 && c <= 13))) e--;
    if (s === e) return null;
    if (bytes[s] === 59 /* ; */) {
      if (!this.seenData) this.headerBuilder.add(asciiText(bytes, s, e).trim(), this.lineNo);
      return null;
    }
    this.seenData = true;
    return this.scanBytes(bytes, s, e);
  }

  header(): SwfHeader {
    return this.headerBuilder.build();
  }

  /** The 1-based number of the line read last (0 before the first). */
  get line(): number {
    return this.lineNo;
  }

  /** A line with non-ASCII characters (which `trim` and `\s` may treat as blanks). */
  private slowLine(line: string): SwfRecord | null {
    const text = line.trim();
    if (text === "") return null;
    if (text.charCodeAt(0) === 59 /* ; */) {
      if (!this.seenData) this.headerBuilder.add(text, this.lineNo);
      return null;
    }
    this.seenData = true;
    return this.split(text);
  }

  /**
   * Scans the fields of `text[s..e)` (trimmed, ASCII at both ends) in one pass: each plain
   * decimal of at most 15 digits is read as its characters go by (`m / 10^k`, see `POW10`: this
   * loop runs over every character of a trace, mostly before the JIT has compiled it), anything
   * else (an exponent, more digits, a stray character) through `parseSwfNumber` on its slice. Errors come in the reference
   * order: first the field count, then the first field that is not a number. At the first
   * non-ASCII character the line goes to the reference `split`.
   */
  private scan(text: string, s: number, e: number): SwfRecord {
    const v = this.values;
    let field = 0;
    let bad = -1;
    let badFrom = 0;
    let badTo = 0;
    let i = s;
    while (i < e) {
      const from = i;
      let c = text.charCodeAt(i);
      const negative = c === 45; /* - */
      if (negative || c === 43 /* + */) i++;
      let m = 0;
      let digits = 0;
      let dot = -1;
      let plain = true;
      for (; i < e; i++) {
        c = text.charCodeAt(i);
        if (c >= 48 && c <= 57) {
          m = m * 10 + (c - 48);
          digits++;
        } else if (c === 32 || (c >= 9 && c <= 13)) {
          break;
        } else if (c === 46 /* . */ && dot < 0) {
          dot = i;
        } else if (c >= 128) {
          return this.split(text.slice(s, e));
        } else {
          plain = false;
        }
      }
      if (field < SWF_FIELD_COUNT) {
        let n: number;
        if (plain && digits > 0 && digits <= 15) {
          n = dot < 0 || dot === i - 1 ? m : m / POW10[i - dot - 1]!;
          if (negative) n = -n;
        } else {
          n = parseSwfNumber(text.slice(from, i)) ?? Number.NaN;
          if (Number.isNaN(n) && bad < 0) {
            bad = field;
            badFrom = from;
            badTo = i;
          }
        }
        v[field] = n;
      }
      field++;
      for (; i < e; i++) {
        c = text.charCodeAt(i);
        if (c >= 128) return this.split(text.slice(s, e));
        if (c !== 32 && !(c >= 9 && c <= 13)) break;
      }
    }
    if (field !== SWF_FIELD_COUNT) this.fieldCount(field);
    if (bad >= 0) this.notANumber(bad, text.slice(badFrom, badTo));
    return this.record(v);
  }

  /**
   * {@link scan} of the ASCII bytes `bytes[s..e)` (trimmed): the same loop on bytes, the same
   * values (a plain decimal of at most 15 digits as `m / 10^k`, anything else through
   * `parseSwfNumber` on its text), the same errors in the same order.
   */
  private scanBytes(bytes: Uint8Array, s: number, e: number): SwfRecord {
    const v = this.values;
    let field = 0;
    let bad = -1;
    let badFrom = 0;
    let badTo = 0;
    let i = s;
    while (i < e) {
      const from = i;
      let c = bytes[i]!;
      const negative = c === 45; /* - */
      if (negative || c === 43 /* + */) i++;
      let m = 0;
      let digits = 0;
      let dot = -1;
      let plain = true;
      for (; i < e; i++) {
        c = bytes[i]!;
        if (c >= 48 && c <= 57) {
          m = m * 10 + (c - 48);
          digits++;
        } else if (c === 32 || (c >= 9 && c <= 13)) {
          break;
        } else if (c === 46 /* . */ && dot < 0) {
          dot = i;
        } else {
          plain = false;
        }
      }
      if (field < SWF_FIELD_COUNT) {
        let n: number;
        if (plain && digits > 0 && digits <= 15) {
          n = dot < 0 || dot === i - 1 ? m : m / POW10[i - dot - 1]!;
          if (negative) n = -n;
        } else {
          n = parseSwfNumber(asciiText(bytes, from, i)) ?? Number.NaN;
          if (Number.isNaN(n) && bad < 0) {
            bad = field;
            badFrom = from;
            badTo = i;
          }
        }
        v[field] = n;
      }
      field++;
      for (; i < e; i++) {
        c = bytes[i]!;
        if (c !== 32 && !(c >= 9 && c <= 13)) break;
      }
    }
    if (field !== SWF_FIELD_COUNT) this.fieldCount(field);
    if (bad >= 0) this.notANumber(bad, asciiText(bytes, badFrom, badTo));
    return this.record(v);
  }

  /** The reference reading of a trimmed data line: `split(/\s+/)` and `parseSwfNumber`. */
  private split(text: string): SwfRecord {
    const tokens = text.split(SPACES);
    if (tokens.length !== SWF_FIELD_COUNT) this.fieldCount(tokens.length);
    const v = this.values;
    for (let i = 0; i < SWF_FIELD_COUNT; i++) {
      const n = parseSwfNumber(tokens[i]!);
      if (n === null) this.notANumber(i, tokens[i]!);
      v[i] = n;
    }
    return this.record(v);
  }

  /** The record of `v`: a new object, or the scratch one filled in. */
  private record(v: Float64Array): SwfRecord {
    const r = this.scratch;
    if (r === null) return recordOf(v);
    r.jobNumber = v[0]!;
    r.submitTime = v[1]!;
    r.waitTime = v[2]!;
    r.runTime = v[3]!;
    r.allocatedProcs = v[4]!;
    r.avgCpuTime = v[5]!;
    r.usedMemory = v[6]!;
    r.requestedProcs = v[7]!;
    r.requestedTime = v[8]!;
    r.requestedMemory = v[9]!;
    r.status = v[10]!;
    r.userId = v[11]!;
    r.groupId = v[12]!;
    r.executable = v[13]!;
    r.queue = v[14]!;
    r.partition = v[15]!;
    r.precedingJob = v[16]!;
    r.thinkTime = v[17]!;
    return r;
  }

  private fieldCount(found: number): never {
    throw new ParseError(
      this.where,
      { source: this.source, line: this.lineNo },
      `expected ${SWF_FIELD_COUNT} whitespace-separated fields, found ${found}`,
    );
  }

  private notANumber(field: number, token: string): never {
    const f = SWF_FIELDS[field]!;
    throw new ParseError(
      this.where,
      { source: this.source, line: this.lineNo, field: `${f.label} (field ${f.column})` },
      swfNumberProblem(token),
    );
  }
}

function recordOf(v: Float64Array): { -readonly [K in keyof SwfRecord]: number } {
  return {
    jobNumber: v[0]!,
    submitTime: v[1]!,
    waitTime: v[2]!,
    runTime: v[3]!,
    allocatedProcs: v[4]!,
    avgCpuTime: v[5]!,
    usedMemory: v[6]!,
    requestedProcs: v[7]!,
    requestedTime: v[8]!,
    requestedMemory: v[9]!,
    status: v[10]!,
    userId: v[11]!,
    groupId: v[12]!,
    executable: v[13]!,
    queue: v[14]!,
    partition: v[15]!,
    precedingJob: v[16]!,
    thinkTime: v[17]!,
  };
}

const DEFAULT_SOURCE = "<swf>";

/**
 * Parses a whole SWF text: the header (every `;` line before the first data line) and one
 * record per data line. Blank lines are skipped; `\r\n` line ends are accepted. Comment lines
 * after the first data line are skipped.
 *
 * A data line must have exactly 18 whitespace-separated fields, each a finite decimal number
 * (`-1` = unknown, fractions such as `552.21` kept as they are). Values are not range-checked
 * here: see {@link swfToJobs} and its clean-up for that.
 *
 * `swfToJobs` on the returned `records` names the line of a record that fails the conversion.
 *
 * Complexity: O(length of the text); holds the whole trace (use {@link readSwfLines} to stream).
 *
 * @throws ParseError naming the source, the 1-based line and the field, e.g.
 *   `@sched/workload/parseSwf: kth.swf:1043 run time (field 4): "1a3" is not a number`, when a
 *   data line has a field that is not a number or a number of fields other than 18, or a typed
 *   header directive (MaxProcs, ...) has a value of the wrong kind.
 *
 * @example
 * ```ts
 * const { header, records } = parseSwf("; MaxProcs: 4\n1 0 5 60 2 -1 -1 2 120 -1 1 1 1 -1 -1 -1 -1 -1\n");
 * header.maxProcs; // 4
 * records[0].runTime; // 60
 * ```
 */
export function parseSwf(text: string, options: ParseSwfOptions = {}): SwfTrace {
  requireKnownKeys("@sched/workload/parseSwf", "options", options, PARSE_KEYS);
  if (typeof text !== "string") {
    throw new InvalidInputError(
      "@sched/workload/parseSwf",
      "text",
      `is ${text === null ? "null" : typeof text}, expected the trace as a string`,
    );
  }
  const reader = new SwfLineReader("@sched/workload/parseSwf", options.source ?? DEFAULT_SOURCE);
  const trace = new TraceBuilder(reader);
  let start = 0;
  const n = text.length;
  while (start < n) {
    let end = text.indexOf("\n", start);
    if (end < 0) end = n;
    trace.add(reader.nextRange(text, start, end));
    start = end + 1;
  }
  return trace.build();
}

/**
 * {@link parseSwf} of a text given line by line, the lines arriving synchronously or not (a
 * `readline` interface over a file stream, gunzipped or not): the whole trace in memory, for a
 * caller that needs every record before converting them (to choose the estimate from them, to
 * write them out again). Same rules and errors as {@link parseSwf}; `swfToJobs` on its `records`
 * names the line of a record that fails. Each item of `lines` is one line, without or with its
 * line end.
 *
 * Complexity: O(total length) time; memory O(records).
 *
 * @throws ParseError as {@link parseSwf} (where `@sched/workload/readSwfTrace`).
 *
 * @example
 * ```ts
 * const input = createReadStream("trace.swf.gz").pipe(createGunzip());
 * const { header, records } = await readSwfTrace(createInterface({ input, crlfDelay: Infinity }), { source: "trace.swf.gz" });
 * ```
 */
export async function readSwfTrace(
  lines: Iterable<string> | AsyncIterable<string>,
  options: ParseSwfOptions = {},
): Promise<SwfTrace> {
  requireLines("@sched/workload/readSwfTrace", lines);
  requireKnownKeys("@sched/workload/readSwfTrace", "options", options, PARSE_KEYS);
  const reader = new SwfLineReader(
    "@sched/workload/readSwfTrace",
    options.source ?? DEFAULT_SOURCE,
  );
  const trace = new TraceBuilder(reader);
  for await (const line of lines) trace.add(reader.next(line));
  return trace.build();
}

/**
 * The records of a trace read whole and the line of each, kept so that `swfToJobs` on the
 * records names a failing record's line (see `swf-origin.ts`).
 */
class TraceBuilder {
  private readonly records: SwfRecord[] = [];
  private readonly lines: number[] = [];

  constructor(private readonly reader: SwfLineReader) {}

  add(r: SwfRecord | null): void {
    if (r === null) return;
    this.records.push(r);
    this.lines.push(this.reader.line);
  }

  build(): SwfTrace {
    const { records, lines, reader } = this;
    withSwfOrigin(records, arrayOrigin(reader.source, records, lines));
    return { header: reader.header(), records };
  }
}

/**
 * Streams an SWF trace given line by line (synchronous input), yielding one record at a time, so
 * memory holds only what the caller keeps. Same rules and errors as {@link parseSwf}; the header
 * goes to `options.onHeader`. Handed as it is to `swfToJobs`, the generator lets a record that
 * fails the conversion be named by its line.
 *
 * Complexity: O(1) memory beyond the current line; O(total length) time.
 *
 * @throws ParseError as {@link parseSwf} (where `@sched/workload/readSwfLinesSync`).
 *
 * @example
 * ```ts
 * let procs = 0;
 * for (const r of readSwfLinesSync(text.split("\n"), { onHeader: (h) => (procs = h.maxProcs ?? 0) })) {
 *   // one record at a time
 * }
 * ```
 */
export function readSwfLinesSync(
  lines: Iterable<string>,
  options: ReadSwfLinesOptions = {},
): Generator<SwfRecord, void, undefined> {
  requireIterable("@sched/workload/readSwfLinesSync", "lines", lines, "lines");
  requireKnownKeys("@sched/workload/readSwfLinesSync", "options", options, LINES_KEYS);
  const source = options.source ?? DEFAULT_SOURCE;
  const reader = new SwfLineReader("@sched/workload/readSwfLinesSync", source);
  return withSwfOrigin(recordsOf(reader, lines, options.onHeader), {
    source,
    line: () => reader.line,
  });
}

function* recordsOf(
  reader: SwfLineReader,
  lines: Iterable<string>,
  onHeader: ((header: SwfHeader) => void) | undefined,
): Generator<SwfRecord, void, undefined> {
  let headerSent = false;
  for (const line of lines) {
    const r = reader.next(line);
    if (r === null) continue;
    if (!headerSent) {
      headerSent = true;
      onHeader?.(reader.header());
    }
    yield r;
  }
  if (!headerSent) onHeader?.(reader.header());
}

/**
 * Streams an SWF trace from lines that may arrive asynchronously (a `readline` interface over a
 * file stream, gunzipped or not), yielding one record at a time: a 1M-job trace never needs to
 * be in memory. Each item of `lines` is one line, without or with its line end. Same rules and
 * errors as {@link parseSwf}; the header goes to `options.onHeader`. Handed as it is to
 * `swfToJobsAsync`, the generator lets a record that fails the conversion be named by its line.
 *
 * Complexity: O(1) memory beyond the current line; O(total length) time.
 *
 * @throws ParseError as {@link parseSwf} (where `@sched/workload/readSwfLines`).
 *
 * @example
 * ```ts
 * import { createReadStream } from "node:fs";
 * import { createInterface } from "node:readline";
 * import { createGunzip } from "node:zlib";
 * const input = createReadStream("trace.swf.gz").pipe(createGunzip());
 * for await (const r of readSwfLines(createInterface({ input, crlfDelay: Infinity }), { source: "trace.swf.gz" })) {
 *   // r.jobNumber, r.runTime, ...
 * }
 * ```
 */
export function readSwfLines(
  lines: Iterable<string> | AsyncIterable<string>,
  options: ReadSwfLinesOptions = {},
): AsyncGenerator<SwfRecord, void, undefined> {
  requireLines("@sched/workload/readSwfLines", lines);
  requireKnownKeys("@sched/workload/readSwfLines", "options", options, LINES_KEYS);
  const source = options.source ?? DEFAULT_SOURCE;
  const reader = new SwfLineReader("@sched/workload/readSwfLines", source);
  return withSwfOrigin(recordsOfAsync(reader, lines, options.onHeader), {
    source,
    line: () => reader.line,
  });
}

async function* recordsOfAsync(
  reader: SwfLineReader,
  lines: Iterable<string> | AsyncIterable<string>,
  onHeader: ((header: SwfHeader) => void) | undefined,
): AsyncGenerator<SwfRecord, void, undefined> {
  let headerSent = false;
  for await (const line of lines) {
    const r = reader.next(line);
    if (r === null) continue;
    if (!headerSent) {
      headerSent = true;
      onHeader?.(reader.header());
    }
    yield r;
  }
  if (!headerSent) onHeader?.(reader.header());
}
