import { ParseError } from "@sched/core";
import { type SwfHeader, SwfHeaderBuilder } from "./swf-header.js";
import { parseSwfNumber, swfNumberProblem } from "./swf-number.js";
import { SWF_FIELD_COUNT, SWF_FIELDS, type SwfRecord } from "./swf-record.js";

/** Options of {@link parseSwf}. */
export interface ParseSwfOptions {
  /**
   * The name of the input in error messages (a file name, usually).
   * @defaultValue `"<swf>"`
   */
  readonly source?: string;
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

/** A whole SWF trace in memory. */
export interface SwfTrace {
  readonly header: SwfHeader;
  readonly records: readonly SwfRecord[];
}

const SPACES = /\s+/;

/** Reads SWF lines one at a time. Internal: shared by every reader. */
class SwfLineReader {
  private lineNo = 0;
  private readonly headerBuilder: SwfHeaderBuilder;
  private seenData = false;

  constructor(
    private readonly where: string,
    private readonly source: string,
  ) {
    this.headerBuilder = new SwfHeaderBuilder(where, source);
  }

  /** Reads the next line; returns its record, or null for a comment or blank line. */
  next(line: string): SwfRecord | null {
    this.lineNo++;
    const text = line.trim();
    if (text === "") return null;
    if (text.charCodeAt(0) === 59 /* ; */) {
      if (!this.seenData) this.headerBuilder.add(text, this.lineNo);
      return null;
    }
    this.seenData = true;
    return this.record(text);
  }

  header(): SwfHeader {
    return this.headerBuilder.build();
  }

  private record(text: string): SwfRecord {
    const tokens = text.split(SPACES);
    if (tokens.length !== SWF_FIELD_COUNT) {
      throw new ParseError(
        this.where,
        { source: this.source, line: this.lineNo },
        `expected ${SWF_FIELD_COUNT} whitespace-separated fields, found ${tokens.length}`,
      );
    }
    const v = new Array<number>(SWF_FIELD_COUNT);
    for (let i = 0; i < SWF_FIELD_COUNT; i++) {
      const n = parseSwfNumber(tokens[i]!);
      if (n === null) {
        const f = SWF_FIELDS[i]!;
        throw new ParseError(
          this.where,
          { source: this.source, line: this.lineNo, field: `${f.label} (field ${f.column})` },
          swfNumberProblem(tokens[i]!),
        );
      }
      v[i] = n;
    }
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
  const reader = new SwfLineReader("@sched/workload/parseSwf", options.source ?? DEFAULT_SOURCE);
  const records: SwfRecord[] = [];
  let start = 0;
  const n = text.length;
  while (start < n) {
    let end = text.indexOf("\n", start);
    if (end < 0) end = n;
    const r = reader.next(text.slice(start, end));
    if (r !== null) records.push(r);
    start = end + 1;
  }
  return { header: reader.header(), records };
}

/**
 * Streams an SWF trace given line by line (synchronous input), yielding one record at a time, so
 * memory holds only what the caller keeps. Same rules and errors as {@link parseSwf}; the header
 * goes to `options.onHeader`.
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
export function* readSwfLinesSync(
  lines: Iterable<string>,
  options: ReadSwfLinesOptions = {},
): Generator<SwfRecord, void, undefined> {
  const reader = new SwfLineReader(
    "@sched/workload/readSwfLinesSync",
    options.source ?? DEFAULT_SOURCE,
  );
  let headerSent = false;
  for (const line of lines) {
    const r = reader.next(line);
    if (r === null) continue;
    if (!headerSent) {
      headerSent = true;
      options.onHeader?.(reader.header());
    }
    yield r;
  }
  if (!headerSent) options.onHeader?.(reader.header());
}

/**
 * Streams an SWF trace from lines that may arrive asynchronously (a `readline` interface over a
 * file stream, gunzipped or not), yielding one record at a time: a 1M-job trace never needs to
 * be in memory. Each item of `lines` is one line, without or with its line end. Same rules and
 * errors as {@link parseSwf}; the header goes to `options.onHeader`.
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
export async function* readSwfLines(
  lines: Iterable<string> | AsyncIterable<string>,
  options: ReadSwfLinesOptions = {},
): AsyncGenerator<SwfRecord, void, undefined> {
  const reader = new SwfLineReader(
    "@sched/workload/readSwfLines",
    options.source ?? DEFAULT_SOURCE,
  );
  let headerSent = false;
  for await (const line of lines) {
    const r = reader.next(line);
    if (r === null) continue;
    if (!headerSent) {
      headerSent = true;
      options.onHeader?.(reader.header());
    }
    yield r;
  }
  if (!headerSent) options.onHeader?.(reader.header());
}
