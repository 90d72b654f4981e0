import { InvalidInputError, type Job, ParseError } from "@sched/core";
import { describeValue, optionKeys, requireKnownKeys } from "@sched/errors";
import { asciiText, isAsciiBytes } from "./ascii.js";
import type { SwfHeader } from "./swf-header.js";
import {
  resolveSwfToJobsOptions,
  type SwfCleanupReport,
  SwfJobConverter,
  type SwfToJobsOptions,
} from "./swf-jobs.js";
import { type ReadSwfLinesOptions, SwfLineReader } from "./swf-read.js";
import type { SwfRecord } from "./swf-record.js";

/** Options of {@link createSwfJobStream}: the reader's and the conversion's, and a line limit. */
export interface SwfJobStreamOptions extends ReadSwfLinesOptions, SwfToJobsOptions {
  /**
   * The longest line read, in characters (without its line end): a longer one is a ParseError
   * naming it, so a text that is not a trace (a gzip bomb of one huge line) stops there instead
   * of growing one string until memory runs out. An SWF line is about 100 characters.
   * `Infinity` for no limit.
   * @defaultValue `1048576` (2^20)
   */
  readonly maxLineLength?: number;
}

/** The keys of {@link SwfJobStreamOptions}, all of them (checked by the compiler). */
const STREAM_KEYS = optionKeys<SwfJobStreamOptions>({
  maxLineLength: true,
  onHeader: true,
  source: true,
  clean: true,
  estimate: true,
});

/** The default of {@link SwfJobStreamOptions.maxLineLength}. */
const MAX_LINE_LENGTH = 1 << 20;

/**
 * An SWF text read piece by piece (as a file arrives in chunks), turned into jobs as it goes:
 * `push` returns the jobs of the lines its text completed, `end` those of the last line.
 */
export interface SwfJobStream {
  /** Reads the next piece of the text (split anywhere, even inside a line or a `\r\n`). */
  push(text: string): Job[];
  /**
   * Reads the next piece of the text as UTF-8 bytes (split anywhere, even inside a line, a
   * `\r\n` or a character): what `push` of the piece decoded would read. A piece of ASCII bytes
   * (the usual trace) is read as bytes, without a string per piece, line or field; any other is
   * decoded and read as text. A stream is fed either text or bytes, not both.
   */
  pushBytes(bytes: Uint8Array): Job[];
  /** Ends the text (a last line without a line end is read) and returns its jobs. */
  end(): Job[];
  /** The header, once the first data line was read (or after `end`); undefined before. */
  readonly header: SwfHeader | undefined;
  /** What the conversion did so far (see {@link swfToJobs}). */
  report(): SwfCleanupReport;
}

/**
 * Reads an SWF trace given as pieces of text and converts it to jobs on the fly: the streamed
 * form of `swfToJobs(parseSwf(text).records, options)`, for a file read in chunks (plain or
 * gunzipped) that must never be held whole, nor as records, nor as jobs. Lines end at `\n`,
 * `\r\n` or a lone `\r` (as Node's `readline` splits them), whatever the piece boundaries. The
 * per-line rules, the conversion, the report and the errors are those of {@link readSwfLines}
 * and {@link swfToJobs} (data lines of plain ASCII are scanned in place, without a string per
 * line or field; others are read by the reference `split`). The pieces are strings (`push`) or
 * the file's bytes as they come (`pushBytes`, UTF-8: the same jobs and errors as `push` of the
 * text a fatal `TextDecoder` makes of them, with no text made of ASCII pieces). The header goes
 * to `options.onHeader` when the first data line is met (or at the end).
 *
 * Complexity: O(length of the text); memory O(one line), plus the report's lists of job numbers
 * and a few runs of kept job numbers (for the duplicate check).
 *
 * @throws ParseError naming the source, the line and the field (where
 *   `@sched/workload/createSwfJobStream`): for a line that cannot be read, as
 *   {@link readSwfLines}, and for a record that fails the conversion, as {@link swfToJobs}
 *   (`kth.swf:1043: (job 1042) run time (field 4) is 0, expected > 0 (or set options.clean …)`);
 *   naming the source, for bytes that are not UTF-8 (`kth.swf: is not valid UTF-8 text`, at the
 *   piece that shows it, before any line of it is read, or at `end` for a character cut short);
 *   InvalidInputError for an invalid option.
 *
 * @example
 * ```ts
 * const swf = createSwfJobStream({ source: "kth.swf", clean: true });
 * for await (const chunk of createReadStream("kth.swf")) sim.push(swf.pushBytes(chunk));
 * sim.push(swf.end());
 * swf.report().droppedRuntime.length;
 * ```
 */
export function createSwfJobStream(options: SwfJobStreamOptions = {}): SwfJobStream {
  requireKnownKeys("@sched/workload/createSwfJobStream", "options", options, STREAM_KEYS);
  const where = "@sched/workload/createSwfJobStream";
  const source = options.source ?? "<swf>";
  // Each record is converted at once and dropped: one record object serves every line.
  const reader = new SwfLineReader(where, source, true);
  // A record that fails is named by the reader's line count (asked only then).
  const converter = new SwfJobConverter(where, resolveSwfToJobsOptions(where, options), {
    source,
    line: () => reader.line,
  });
  const onHeader = options.onHeader;
  const maxLineLength = options.maxLineLength ?? MAX_LINE_LENGTH;
  if (
    !(maxLineLength >= 1 && (Number.isSafeInteger(maxLineLength) || maxLineLength === Infinity))
  ) {
    throw new InvalidInputError(
      where,
      "options.maxLineLength",
      `is ${describeValue(maxLineLength)}, expected an integer >= 1 or Infinity`,
    );
  }
  /** Lines read so far (the reader's count: a line too long is the next one). */
  let lines = 0;
  const tooLong = (): never => {
    throw new ParseError(
      where,
      { source, line: lines + 1 },
      `is longer than ${maxLineLength} characters, the limit of a line (options.maxLineLength)`,
    );
  };
  let header: SwfHeader | undefined;
  /** The start of a line whose end has not come yet. */
  let carry = "";
  /** The previous piece ended with `\r`: a `\n` starting this one belongs to it. */
  let afterCR = false;
  let ended = false;

  /** What a stream is fed, fixed by its first piece: text (`push`) or bytes (`pushBytes`). */
  let fed: "text" | "bytes" | undefined;
  const feed = (kind: "text" | "bytes"): void => {
    if (fed === undefined) fed = kind;
    else if (fed !== kind) {
      throw new InvalidInputError(
        where,
        kind === "text" ? "push(text)" : "pushBytes(bytes)",
        `was called on a stream fed with ${fed === "text" ? "text (push)" : "bytes (pushBytes)"}: feed one or the other`,
      );
    }
  };
  /** Decodes the pieces of bytes that are not all ASCII (created at the first). */
  let decoder: InstanceType<typeof TextDecoder> | undefined;
  const decode = (bytes?: Uint8Array): string => {
    decoder ??= new TextDecoder("utf-8", { fatal: true });
    try {
      return bytes === undefined ? decoder.decode() : decoder.decode(bytes, { stream: true });
    } catch {
      throw new ParseError(where, { source }, "is not valid UTF-8 text");
    }
  };
  /**
   * The decoder holds no part of a character and has begun its output (so it has read or ruled
   * out a byte-order mark): a piece of ASCII bytes would decode to itself, and is read as bytes
   * without it. True after a piece decoded whole that ends with an ASCII byte.
   */
  let settled = false;

  /** The record of a line read: its job to `out`, the header to `onHeader` at the first. */
  const take = (r: SwfRecord | null, out: Job[]): void => {
    if (r === null) return;
    if (header === undefined) {
      header = reader.header();
      onHeader?.(header);
    }
    const job = converter.add(r);
    if (job !== null) out.push(job);
  };

  const line = (text: string, start: number, end: number, out: Job[]): void => {
    if (carry.length + (end - start) > maxLineLength) tooLong();
    lines++;
    const r =
      carry === ""
        ? reader.nextRange(text, start, end)
        : reader.next(carry + text.slice(start, end));
    carry = "";
    take(r, out);
  };

  /** {@link line} of the ASCII bytes `b[start..end)`. */
  const lineBytes = (b: Uint8Array, start: number, end: number, out: Job[]): void => {
    if (carry.length + (end - start) > maxLineLength) tooLong();
    lines++;
    const r =
      carry === ""
        ? reader.nextBytes(b, start, end)
        : reader.next(carry + asciiText(b, start, end));
    carry = "";
    take(r, out);
  };

  const pushText = (text: string): Job[] => {
    const out: Job[] = [];
    const n = text.length;
    let start = 0;
    if (afterCR && n > 0) {
      afterCR = false;
      if (text.charCodeAt(0) === 10) start = 1;
    }
    let lf = -1;
    let cr = -1;
    for (;;) {
      if (lf < start) {
        lf = text.indexOf("\n", start);
        if (lf < 0) lf = n;
      }
      if (cr < start) {
        cr = text.indexOf("\r", start);
        if (cr < 0) cr = n;
      }
      const j = Math.min(lf, cr);
      if (j >= n) break;
      line(text, start, j, out);
      start = j + 1;
      if (j === cr) {
        if (j + 1 < n) {
          if (text.charCodeAt(j + 1) === 10) start = j + 2;
        } else {
          afterCR = true;
        }
      }
    }
    if (start < n) {
      if (carry.length + (n - start) > maxLineLength) tooLong();
      carry += text.slice(start);
    }
    return out;
  };

  /** {@link pushText} of a piece of ASCII bytes: the same lines, split on bytes. */
  const pushAscii = (b: Uint8Array): Job[] => {
    const out: Job[] = [];
    const n = b.length;
    let start = 0;
    if (afterCR && n > 0) {
      afterCR = false;
      if (b[0] === 10) start = 1;
    }
    let lf = -1;
    let cr = -1;
    for (;;) {
      if (lf < start) {
        lf = b.indexOf(10, start);
        if (lf < 0) lf = n;
      }
      if (cr < start) {
        cr = b.indexOf(13, start);
        if (cr < 0) cr = n;
      }
      const j = Math.min(lf, cr);
      if (j >= n) break;
      lineBytes(b, start, j, out);
      start = j + 1;
      if (j === cr) {
        if (j + 1 < n) {
          if (b[j + 1] === 10) start = j + 2;
        } else {
          afterCR = true;
        }
      }
    }
    if (start < n) {
      if (carry.length + (n - start) > maxLineLength) tooLong();
      carry += asciiText(b, start, n);
    }
    return out;
  };

  return {
    push(text: string): Job[] {
      if (ended) throw new InvalidInputError(where, "push(text)", "was called after end()");
      feed("text");
      return pushText(text);
    },
    pushBytes(bytes: Uint8Array): Job[] {
      if (ended) throw new InvalidInputError(where, "pushBytes(bytes)", "was called after end()");
      if (!(bytes instanceof Uint8Array)) {
        throw new InvalidInputError(
          where,
          "pushBytes(bytes)",
          `was given ${describeValue(bytes)}, expected a Uint8Array`,
        );
      }
      feed("bytes");
      const n = bytes.length;
      if (n === 0) return [];
      if (settled && isAsciiBytes(bytes)) return pushAscii(bytes);
      const text = decode(bytes);
      settled = bytes[n - 1]! < 128;
      return pushText(text);
    },
    end(): Job[] {
      if (ended) throw new InvalidInputError(where, "end()", "was called twice");
      ended = true;
      const out: Job[] = [];
      // A character cut short at the end is an error (a fatal decoder gives no text here).
      if (decoder !== undefined) {
        const rest = decode();
        if (rest !== "") out.push(...pushText(rest));
      }
      if (carry !== "") {
        const last = carry;
        carry = "";
        line(last, 0, last.length, out);
      }
      if (header === undefined) {
        header = reader.header();
        onHeader?.(header);
      }
      return out;
    },
    get header() {
      return header;
    },
    report: () => converter.report(),
  };
}
