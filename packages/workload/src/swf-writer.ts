import { InvalidInputError } from "@sched/core";
import { describeValue, optionKeys, requireKnownKeys } from "@sched/errors";
import { type formatSwfHeader, type SwfHeader, swfHeaderLines } from "./swf-header.js";
import { SWF_FIELDS, type SwfRecord } from "./swf-record.js";
import { SWF_WIDTHS } from "./swf-write.js";

/** Options of {@link SwfWriter}. */
export interface SwfWriterOptions {
  /**
   * Bytes formatted before the writer hands them to its sink (the last chunk may be shorter).
   * From 4096 to 2^30 (1 GiB).
   * @defaultValue 1048576 (1 MiB)
   */
  readonly chunkBytes?: number;
}

/**
 * Room kept for a data line: 18 fields of at most 25 characters (`-0.0000012345678901234567`, the
 * longest text of a double), 17 spaces, `\n`; one spare per field.
 */
const MAX_LINE = 18 * 26 + 18;
const SPACE = 0x20;
const MINUS = 0x2d;
const ZERO = 0x30;
const NEWLINE = 0x0a;
const WHERE = "@sched/workload/SwfWriter";

const SWF_WRITER_KEYS = optionKeys<SwfWriterOptions>({ chunkBytes: true });

/**
 * An SWF file written as bytes, for traces of millions of jobs: header and data lines are
 * formatted straight into one reusable chunk of ASCII (integers digit by digit, other numbers
 * through the same shortest round-trip text as {@link formatSwfRecord}), which goes to `sink`
 * whenever it is nearly full and on {@link SwfWriter.flush}. The bytes are exactly those of
 * `formatSwf(header, records)` (a test checks it on generated records and on every model), with no
 * string per line or per integer field.
 *
 * Gotcha: `sink` gets a view of the writer's own chunk, overwritten after the call returns: write
 * it out (or copy it) before returning.
 *
 * Complexity: O(1) per record; memory: one chunk.
 *
 * @throws InvalidInputError (from the constructor) when `sink` is not a function or
 * `options.chunkBytes` is not an integer from 4096 to 2^30 (1 GiB).
 *
 * @example
 * ```ts
 * const writer = new SwfWriter((bytes) => writeSync(fd, bytes));
 * writer.header(header);
 * for (const r of records) writer.record(r);
 * writer.flush();
 * ```
 */
export class SwfWriter {
  private readonly chunk: Uint8Array;
  private used = 0;
  /** Where the line being written starts (a bad field drops what was written of it). */
  private lineStart = 0;
  private readonly encoder = new TextEncoder();

  constructor(
    private readonly sink: (bytes: Uint8Array) => void,
    options: SwfWriterOptions = {},
  ) {
    requireKnownKeys(WHERE, "options", options, SWF_WRITER_KEYS);
    this.chunk = writerChunk(WHERE, sink, options.chunkBytes);
  }

  /**
   * Writes the header's comment lines, as {@link formatSwfHeader} gives them, each with `\n`.
   * @throws InvalidInputError naming the field when the header would not read back as itself
   * (see {@link formatSwfHeader}); nothing of it is written.
   */
  header(header: SwfHeader): void {
    for (const line of swfHeaderLines(WHERE, header)) this.text(`${line}\n`);
  }

  /**
   * Writes one data line (with its `\n`): the bytes of `formatSwfRecord(record) + "\n"`.
   * @throws InvalidInputError naming the record and field when a field is not a finite number
   * (as `formatSwfRecord` does); nothing of that line is written.
   */
  record(record: SwfRecord): void {
    if (this.chunk.length - this.used < MAX_LINE) this.flush();
    this.lineStart = this.used;
    // Each field read by name (a keyed loop over SWF_FIELDS costs a third of the time).
    this.field(0, record.jobNumber, record);
    this.field(1, record.submitTime, record);
    this.field(2, record.waitTime, record);
    this.field(3, record.runTime, record);
    this.field(4, record.allocatedProcs, record);
    this.field(5, record.avgCpuTime, record);
    this.field(6, record.usedMemory, record);
    this.field(7, record.requestedProcs, record);
    this.field(8, record.requestedTime, record);
    this.field(9, record.requestedMemory, record);
    this.field(10, record.status, record);
    this.field(11, record.userId, record);
    this.field(12, record.groupId, record);
    this.field(13, record.executable, record);
    this.field(14, record.queue, record);
    this.field(15, record.partition, record);
    this.field(16, record.precedingJob, record);
    this.field(17, record.thinkTime, record);
    this.chunk[this.used++] = NEWLINE;
  }

  /** Field `i` of the line (`v`, of `record`), after a space unless it is the first. */
  private field(i: number, v: number, record: SwfRecord): void {
    if (typeof v !== "number" || !Number.isFinite(v)) {
      this.used = this.lineStart;
      throw new InvalidInputError(
        "@sched/workload/formatSwfRecord",
        `record ${String(record.jobNumber)} ${SWF_FIELDS[i]!.key}`,
        `is ${describeValue(v)}, expected a finite number (-1 for unknown)`,
      );
    }
    const chunk = this.chunk;
    let at = this.used;
    if (i > 0) chunk[at++] = SPACE;
    const width = SWF_WIDTHS[i]!;
    if (v === -1) {
      // "unknown", most fields of most traces
      for (let p = width - 2; p > 0; p--) chunk[at++] = SPACE;
      chunk[at++] = MINUS;
      chunk[at++] = ZERO + 1;
    } else if (
      Number.isInteger(v) &&
      v <= Number.MAX_SAFE_INTEGER &&
      v >= -Number.MAX_SAFE_INTEGER
    ) {
      at = writeInteger(chunk, at, v, width);
    } else {
      // The shortest round-trip form, as `${v}` in formatSwfRecord: always ASCII.
      const text = `${v}`;
      for (let p = width - text.length; p > 0; p--) chunk[at++] = SPACE;
      for (let k = 0; k < text.length; k++) chunk[at++] = text.charCodeAt(k);
    }
    this.used = at;
  }

  /** Hands what is formatted to the sink (nothing when the chunk is empty). */
  flush(): void {
    if (this.used === 0) return;
    const used = this.used;
    this.used = 0;
    this.sink(this.chunk.subarray(0, used));
  }

  /** Appends `text` as UTF-8 (a header line may hold any character). */
  private text(text: string): void {
    let rest = text;
    for (;;) {
      const { read, written } = this.encoder.encodeInto(rest, this.chunk.subarray(this.used));
      this.used += written;
      if (read === rest.length) return;
      rest = rest.slice(read);
      this.flush();
    }
  }
}

/**
 * Writes the integer `v` (|v| <= 2^53 - 1) right-aligned in `width` columns at `at`, as `${v}`
 * would (`-0` as `0`); returns the position after it. The digit writer of `SwfWriter` and
 * `JobsJsonlWriter`, for other byte writers (sched-sim's `jobs.csv`). Unchecked: the caller
 * leaves room for `max(width, 17)` bytes and passes a safe integer.
 */
export function writeInteger(chunk: Uint8Array, at: number, v: number, width: number): number {
  const negative = v < 0;
  let n = negative ? -v : v;
  const small = n < 2147483648;
  let digits = 1;
  if (small) digits = digitCount(n);
  else for (let t = n; t >= 10; t = Math.floor(t / 10)) digits++;
  let pos = at;
  for (let p = width - digits - (negative ? 1 : 0); p > 0; p--) chunk[pos++] = SPACE;
  if (negative) chunk[pos++] = MINUS;
  let k = pos + digits;
  const end = k;
  if (small) {
    // int32 arithmetic: the common case (times, sizes and ids below 2^31). `m` is `n` said to be
    // an int32 (`| 0`, exact below 2^31), so that the compiler divides by 10 as integers (a
    // multiply and a shift) instead of in doubles: 9M numbers of a 1M-job `jobs.csv`, 236 ms ->
    // 145-156 ms in a micro-benchmark.
    let m = n | 0;
    do {
      const q = (m / 10) | 0;
      chunk[--k] = ZERO + m - q * 10;
      m = q;
    } while (m > 0);
    return end;
  }
  do {
    const q = Math.floor(n / 10);
    chunk[--k] = ZERO + (n - q * 10);
    n = q;
  } while (n > 0);
  return end;
}

/**
 * A byte writer's chunk of `chunkBytes` (1 MiB when undefined), once `sink` is checked to be a
 * function and `chunkBytes` an integer from 4096 to 2^30. Internal (shared with `JobsJsonlWriter`).
 * @throws InvalidInputError naming `sink` or `options.chunkBytes` (from `where`).
 */
export function writerChunk(where: string, sink: unknown, chunkBytes: unknown): Uint8Array {
  if (typeof sink !== "function") {
    throw new InvalidInputError(where, "sink", `is ${describeValue(sink)}, expected a function`);
  }
  const size = chunkBytes ?? 1 << 20;
  // at most 1 GiB: 1e308 threw a raw RangeError from the buffer's allocation
  if (typeof size !== "number" || !Number.isInteger(size) || size < 4096 || size > 2 ** 30) {
    throw new InvalidInputError(
      where,
      "options.chunkBytes",
      `is ${describeValue(size)}, expected an integer from 4096 to 1073741824 (1 GiB)`,
    );
  }
  return new Uint8Array(size);
}

/** Number of decimal digits of `n`, 0 <= n < 2^31. */
function digitCount(n: number): number {
  if (n < 100000) return n < 100 ? (n < 10 ? 1 : 2) : n < 1000 ? 3 : n < 10000 ? 4 : 5;
  if (n < 10000000) return n < 1000000 ? 6 : 7;
  return n < 100000000 ? 8 : n < 1000000000 ? 9 : 10;
}
