import { isAscii } from "node:buffer";
import { closeSync, openSync, readSync } from "node:fs";
import type { Job } from "@sched/core";
import {
  jobTimeProblem,
  MAX_WORKLOAD_TIME,
  parseSwf,
  type SwfCleanupReport,
  type SwfHeader,
} from "@sched/workload";
import { openBytes } from "../swf-input.js";
import type { JobColumns } from "./pooled-simulation.js";

/** Options of {@link scanSwfFile}. */
export interface ScanSwfOptions {
  /** `swfToJobs`'s clean-up. */
  readonly clean: boolean;
  /** Where estimates come from, as `swfToJobs`'s `estimate`. */
  readonly estimate: "requested" | "runtime";
  /** Called once with the header, at the first data line. */
  readonly onHeader: (header: SwfHeader) => void;
  /**
   * Called with each batch of jobs, in input order. The columns are reused from batch to batch:
   * read them during the call.
   */
  readonly onJobs: (jobs: JobColumns) => void;
}

/** What {@link scanSwfFile} read besides the jobs. */
export interface ScanSwfResult {
  readonly header: SwfHeader;
  readonly report: SwfCleanupReport;
  /**
   * Whether some record has a requested time (field 9 > 0), whatever the estimate read: what
   * `inspect`'s estimate "auto" asks (see `estimateOf`), learnt in the same read.
   */
  readonly requested: boolean;
  /** Whether the file was gzip-compressed (read by {@link scanSwfGzip}). */
  readonly gzip: boolean;
}

/** Bytes read at a time; a line longer than this is left to the general reader. */
const CHUNK = 1 << 20;
/**
 * Bytes of the first read: few, so that `SwfScanner.lines` meets the end of a read within a line
 * (the partial line kept for the next read) while V8 still interprets it and collects feedback
 * for that branch; met first after V8 has compiled `lines` (1 MB in), the branch deoptimizes it
 * (measured on KTH-SP2: `lines` compiled four times, not two).
 */
const FIRST_READ = 1 << 16;
/**
 * Jobs per batch handed on. Small: the scanner's and the kernel's loops then run a few dozen
 * times per call, so V8 optimizes each method once, on its calls, rather than also on-stack in a
 * long loop (OSR) and again; measured on KTH-SP2 (20 interleaved rounds, load 4.3-4.6): CPU
 * median 0.305 s against 0.330 s with batches of 4096, V8's other threads 0.07 s against 0.09 s
 * (24 optimized compiles, none on-stack, against 26 with 4). 16 to 256 measure alike.
 */
const BATCH = 64;
/** Report entries kept between batches (at most two per record). */
const NOTES = 2 * BATCH;
/** The report's lists, as codes of its entries (0: none). */
const DROPPED_RUNTIME = 1;
const DROPPED_PROCS = 2;
const DROPPED_REQUESTED_TIME = 3;
const RUNTIME_CAPPED = 4;
const SIZE_FROM_ALLOCATED = 5;
const SIZE_FROM_REQUESTED = 6;
/** Fields of an SWF data line. */
const FIELDS = 18;
/** 10^k for the k fraction digits of a plain decimal (exact doubles; see `swfToJobs`' reader). */
const POW10 = [1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15];

/**
 * The common case of `sched-sim run`'s reading, on bytes: an uncompressed SWF file of ASCII
 * lines whose fields are plain decimals (`-1`, `3600`, `552.21`), job numbers increasing, read
 * with a byte scanner straight into typed columns (no text decoding, no string, record or job
 * object per line). Returns the header and the clean-up report, {@link GZIP} for a gzip file
 * (read by {@link scanSwfGzip}; {@link scanSwf} takes either), or `null` as soon as the file
 * leaves that case: a byte above 127, a lone `\r`, a line longer than 1 MiB, a field that
 * is not a plain decimal of at most 15 digits, a line of other than 18 fields, a job number not
 * above the one before, or anything `swfToJobs` would reject or report as an error. The caller
 * then reads the file again with the general reader (`createSwfJobStream`), which gives the
 * error, or the jobs, in its own words: on every file this function reads to the end, the two
 * give the same header, the same jobs in the same order and the same report (a test compares
 * them on every fixture).
 *
 * Numbers are read as the general reader's line scanner reads them: a plain decimal of at most
 * 15 digits forms an integer m < 2^53 and its value is m / 10^k, one correctly rounded division,
 * equal to `Number(text)` bit for bit.
 *
 * @throws an Error of the file system when the file cannot be opened or read; whatever
 *   `onHeader` or `onJobs` throws.
 */
export function scanSwfFile(
  path: string,
  options: ScanSwfOptions,
): ScanSwfResult | null | typeof GZIP {
  const fd = openSync(path, "r");
  try {
    const buf = Buffer.allocUnsafe(CHUNK);
    const scanner = new SwfScanner(options);
    let len = 0;
    let eof = false;
    let first = true;
    while (!eof) {
      const n = readSync(fd, buf, len, first ? FIRST_READ : CHUNK - len, null);
      if (n === 0) eof = true;
      len += n;
      if (first) {
        first = false;
        if (len >= 2 && buf[0] === 0x1f && buf[1] === 0x8b) return GZIP;
      }
      len = scanned(scanner, buf, len, eof);
      if (len < 0) return null;
    }
    scanner.flush();
    return scanner.result();
  } finally {
    closeSync(fd);
  }
}

/**
 * Scans the complete lines of `buf[0..len)` (the last one too at `eof`), then moves the partial
 * line left at the end to the start of `buf`; returns its length, or -1 when the bytes leave the
 * plain case (see {@link scanSwfFile}), a line longer than {@link CHUNK} included.
 */
function scanned(scanner: SwfScanner, buf: Buffer, len: number, eof: boolean): number {
  // Bytes above 127 and `\r` are rare: checked once per read (natively), so that the line loop
  // finds line ends with `indexOf` when there are none.
  const view = buf.subarray(0, len);
  if (!isAscii(view)) return -1;
  // (An explicit offset: `lines` calls `indexOf` with one, and a call without it would
  // deoptimize Node's compiled `indexOf`.)
  scanner.plain = view.indexOf(13, 0) < 0;
  let pos = 0;
  for (;;) {
    const next = scanner.lines(buf, pos, len, eof);
    if (next < 0) return -1;
    pos = next;
    if (scanner.full()) scanner.flush();
    else if (pos === len || scanner.stopped) break;
  }
  // Keep the partial line at the end for the next read.
  if (pos > 0) buf.copy(buf, 0, pos, len);
  len -= pos;
  return len === CHUNK ? -1 : len;
}

/** What {@link scanSwfFile} returns for a gzip file: {@link scanSwfGzip} reads those. */
export const GZIP = "gzip";

/**
 * {@link scanSwfFile} on a gzip file (the form the Parallel Workloads Archive ships its traces
 * in), gunzipped as it is read: the same jobs, header and report as the general reader gives for
 * it (and as {@link scanSwfFile} gives for the same file uncompressed), or `null` where
 * {@link scanSwfFile} would leave the text, and when the gzip data is corrupt or cannot be read
 * (the general reader then reads it again and names the error).
 *
 * @throws whatever `onHeader` or `onJobs` throws.
 */
export async function scanSwfGzip(
  path: string,
  options: ScanSwfOptions,
): Promise<ScanSwfResult | null> {
  // zlib inflates on the thread pool, one output chunk per round trip to this thread: in chunks
  // of 1 MiB it inflates the next while this thread scans the last (10M Lublin jobs, gzip level
  // 1, `run -s easy`: 6.9-7.9 s wall with 1 MiB chunks, 10.5-11.9 s with 64 KiB).
  let opened: Awaited<ReturnType<typeof openBytes>>;
  try {
    opened = await openBytes(path, CHUNK);
  } catch {
    return null;
  }
  const chunks = (opened.input as AsyncIterable<Buffer>)[Symbol.asyncIterator]();
  const buf = Buffer.allocUnsafe(CHUNK);
  const scanner = new SwfScanner(options);
  let len = 0;
  // The first scan after FIRST_READ bytes, as the file's first read (see there); then whenever
  // the buffer is full, as its reads of CHUNK bytes.
  let want = FIRST_READ;
  try {
    for (;;) {
      let next: IteratorResult<Buffer>;
      try {
        next = await chunks.next();
      } catch {
        return null;
      }
      if (next.done) break;
      const chunk = next.value;
      let at = 0;
      while (at < chunk.length) {
        const n = Math.min(chunk.length - at, want - len);
        chunk.copy(buf, len, at, at + n);
        len += n;
        at += n;
        if (len < want) continue;
        len = scanned(scanner, buf, len, false);
        if (len < 0) return null;
        want = CHUNK;
      }
    }
    if (scanned(scanner, buf, len, true) < 0) return null;
    scanner.flush();
    const result = scanner.result();
    return result === null ? null : { ...result, gzip: true };
  } finally {
    opened.close();
  }
}

/**
 * {@link scanSwfFile}, and {@link scanSwfGzip} for a gzip file: the jobs of a plain or gzipped
 * SWF file through the byte scanner, or `null` when the general reader must read it.
 *
 * @throws an Error of the file system when the file cannot be opened or read; whatever
 *   `onHeader` or `onJobs` throws.
 */
export async function scanSwf(
  path: string,
  options: ScanSwfOptions,
): Promise<ScanSwfResult | null> {
  const read = scanSwfFile(path, options);
  return read === GZIP ? scanSwfGzip(path, options) : read;
}

/**
 * The state of one {@link scanSwfFile}: the conversion's report, the header, the batch of jobs.
 * Small methods, each compiled on its own: the byte loop (`lines`), the fields of a data line
 * (`fields`) and the conversion of a record (`record`).
 */
class SwfScanner {
  private readonly clean: boolean;
  private readonly fromRequested: boolean;
  private readonly onHeader: (header: SwfHeader) => void;
  private readonly onJobs: (jobs: JobColumns) => void;
  private readonly v = new Float64Array(FIELDS);
  private readonly columns = {
    id: new Float64Array(BATCH),
    submit: new Float64Array(BATCH),
    runtime: new Float64Array(BATCH),
    estimate: new Float64Array(BATCH),
    cores: new Float64Array(BATCH),
    count: 0,
  };
  /** One job for `jobTimeProblem`, rewritten for every record (fields hold fractions from the start). */
  private readonly probe = { id: 0.5, submit: 0.5, runtime: 0.5, estimate: 0.5, cores: 1 };
  // The report's entries since the last batch: a code (which list) and a job number each,
  // written without a branch per list, so that a list's first entry (often thousands of lines
  // in) does not meet code compiled without it.
  private readonly noteCode = new Uint8Array(NOTES);
  private readonly noteId = new Float64Array(NOTES);
  private notes = 0;
  private readonly report = {
    records: 0,
    jobs: 0,
    droppedRuntime: [] as number[],
    droppedProcs: [] as number[],
    droppedRequestedTime: [] as number[],
    runtimeCapped: [] as number[],
    sizeFromAllocated: [] as number[],
    sizeFromRequested: [] as number[],
  };
  private readonly headerLines: string[] = [];
  private header: SwfHeader | null = null;
  private lastId = Number.NEGATIVE_INFINITY;
  /** Some record has a requested time (field 9 > 0). */
  private requested = false;
  /** `lines` stopped before the end of a complete line (a partial line, or a `\r` at the end). */
  stopped = false;
  /** The bytes given to `lines` hold no `\r` (and, as always, none above 127). */
  plain = false;

  constructor(options: ScanSwfOptions) {
    this.clean = options.clean;
    this.fromRequested = options.estimate === "requested";
    this.onHeader = options.onHeader;
    this.onJobs = options.onJobs;
    // The fields that change, changed once before any method runs: V8 takes a field never
    // stored again for a constant, and its first change would deoptimize the compiled methods
    // (see `PooledKernel`'s constructor).
    this.stopped = true;
    this.stopped = false;
    this.plain = true;
    this.plain = false;
    this.notes = 1;
    this.notes = 0;
    this.lastId = 0.5;
    this.lastId = Number.NEGATIVE_INFINITY;
    this.requested = true;
    this.requested = false;
  }

  full(): boolean {
    return this.columns.count === BATCH || this.notes > NOTES - 2;
  }

  /** Hands on the batch of jobs, and files the report's entries. */
  flush(): void {
    const report = this.report;
    const lists = [
      null,
      report.droppedRuntime,
      report.droppedProcs,
      report.droppedRequestedTime,
      report.runtimeCapped,
      report.sizeFromAllocated,
      report.sizeFromRequested,
    ];
    for (let i = 0; i < this.notes; i++) lists[this.noteCode[i]!]!.push(this.noteId[i]!);
    this.notes = 0;
    if (this.columns.count === 0) return;
    this.onJobs(this.columns);
    this.columns.count = 0;
  }

  result(): ScanSwfResult | null {
    return this.header === null
      ? null
      : { header: this.header, report: this.report, requested: this.requested, gzip: false };
  }

  /**
   * Reads the complete lines of `buf[pos..len)` (the last one too at `eof`) until the columns
   * are full; returns where it stopped, or -1 when the file leaves the plain case.
   */
  lines(buf: Buffer, pos: number, len: number, eof: boolean): number {
    this.stopped = false;
    while (pos < len && !this.full()) {
      // The line [pos, e).
      let e: number;
      if (this.plain) {
        e = buf.indexOf(10, pos);
        if (e < 0 || e > len) e = len;
      } else {
        e = pos;
        while (e < len) {
          const c = buf[e]!;
          if (c === 10 || c === 13) break;
          e++;
        }
      }
      if (e === len && !eof) {
        this.stopped = true;
        return pos;
      }
      if (e < len && buf[e] === 13) {
        if (e + 1 === len && !eof) {
          this.stopped = true;
          return pos;
        }
        // A lone `\r` ends a line for the general reader too, but is left to it.
        if (e + 1 === len || buf[e + 1] !== 10) return -1;
      }
      let s = pos;
      let t = e;
      // Trim ASCII blanks (space, `\t` to `\r`), written out: this runs for every line, before
      // the JIT has compiled anything, where a call per byte costs.
      let c = 0;
      while (s < t && ((c = buf[s]!) === 32 || (c >= 9 && c <= 13))) s++;
      while (t > s && ((c = buf[t - 1]!) === 32 || (c >= 9 && c <= 13))) t--;
      pos = e === len ? len : buf[e] === 13 ? e + 2 : e + 1;
      if (s === t) continue;
      if (buf[s] === 59 /* ; */) {
        if (this.header === null) this.headerLines.push(buf.toString("latin1", s, t));
        continue;
      }
      if (!this.fields(buf, s, t)) return -1;
      if (this.header === null && !this.readHeader()) return -1;
      if (!this.record()) return -1;
    }
    return pos;
  }

  /** The 18 plain decimals of the data line `buf[s..t)` into `v`; false when it is not that. */
  private fields(buf: Buffer, s: number, t: number): boolean {
    const v = this.v;
    let field = 0;
    let i = s;
    while (i < t) {
      let c = buf[i]!;
      const negative = c === 45; /* - */
      if (negative || c === 43 /* + */) i++;
      let m = 0;
      let digits = 0;
      let dot = -1;
      for (; i < t; i++) {
        c = buf[i]!;
        if (c >= 48 && c <= 57) {
          m = m * 10 + (c - 48);
          digits++;
        } else if (c === 32 || (c >= 9 && c <= 13)) {
          break;
        } else if (c === 46 /* . */ && dot < 0) {
          dot = i;
        } else {
          return false;
        }
      }
      if (digits === 0 || digits > 15 || field === FIELDS) return false;
      let x = dot < 0 || dot === i - 1 ? m : m / POW10[i - dot - 1]!;
      if (negative) x = -x;
      v[field++] = x;
      while (i < t && ((c = buf[i]!) === 32 || (c >= 9 && c <= 13))) i++;
    }
    return field === FIELDS;
  }

  /** The header (the comment lines before the first data line), as `parseSwf` reads it. */
  private readHeader(): boolean {
    try {
      this.header = parseSwf(this.headerLines.join("\n")).header;
    } catch {
      return false;
    }
    this.onHeader(this.header);
    return true;
  }

  /** `swfToJobs` of the record in `v`; false for what it would reject (left to it). */
  private record(): boolean {
    const v = this.v;
    const report = this.report;
    const id = v[0]!;
    if (!(Number.isSafeInteger(id) && id >= 0 && id > this.lastId)) return false;
    this.lastId = id;
    const submit = v[1]!;
    if (!(submit >= 0)) return false;
    if (!(optionalId(v[11]!) && optionalId(v[12]!) && optionalId(v[14]!) && optionalId(v[15]!)))
      return false;
    report.records++;
    this.requested ||= v[8]! > 0;
    // Read for every record (a read first met at the first dropped one would deoptimize).
    const clean = this.clean;
    const allocated = v[4]!;
    const requested = v[7]!;
    const size = allocated > 0 ? allocated : requested;
    let runtime = v[3]!;
    let estimate = runtime;
    // Which list the record goes to, if any: one dropped, or capped and where its size is from.
    let dropped = 0;
    let capped = 0;
    if (!(runtime > 0)) dropped = DROPPED_RUNTIME;
    else if (!(size > 0)) dropped = DROPPED_PROCS;
    else if (this.fromRequested) {
      estimate = v[8]!;
      if (!(estimate > 0)) dropped = DROPPED_REQUESTED_TIME;
      else if (clean && runtime > estimate) {
        runtime = estimate;
        capped = RUNTIME_CAPPED;
      }
    }
    if (dropped !== 0 && !clean) return false;
    let from = 0;
    if (dropped === 0) {
      if (!Number.isSafeInteger(size)) return false;
      from =
        allocated > 0
          ? requested > 0 && requested !== allocated
            ? SIZE_FROM_ALLOCATED
            : 0
          : SIZE_FROM_REQUESTED;
    }
    const first = dropped !== 0 ? dropped : capped;
    const second = dropped !== 0 ? 0 : from;
    const codes = this.noteCode;
    const ids = this.noteId;
    let n = this.notes;
    codes[n] = first;
    ids[n] = id;
    n += first === 0 ? 0 : 1;
    codes[n] = second;
    ids[n] = id;
    n += second === 0 ? 0 : 1;
    this.notes = n;
    if (dropped !== 0) return true;
    if (!exactTimes(submit, runtime, estimate)) {
      const probe = this.probe;
      probe.submit = submit;
      probe.runtime = runtime;
      probe.estimate = estimate;
      if (jobTimeProblem(probe as Job) !== null) return false;
    }
    report.jobs++;
    const columns = this.columns;
    const k = columns.count++;
    columns.id[k] = id;
    columns.submit[k] = submit;
    columns.runtime[k] = runtime;
    columns.estimate[k] = estimate;
    columns.cores[k] = size;
    return true;
  }
}

/** `-1` (unknown) or an integer >= 0: a user, group, queue or partition `swfToJobs` accepts. */
function optionalId(x: number): boolean {
  return x === -1 || (Number.isSafeInteger(x) && x >= 0);
}

/**
 * Whether `jobTimeProblem` surely finds nothing wrong with a job of these times (`submit >= 0`,
 * `runtime > 0` and `estimate > 0`, no ready time nor deadline), without calling it: integers
 * whose sums `submit + runtime` and `submit + estimate` are at most `MAX_WORKLOAD_TIME` (2^53 - 1)
 * are added exactly, so each span is at most that, ends there at the latest and is held exactly.
 * False leaves the answer to `jobTimeProblem` (fractional times, very large ones): the same
 * result either way, at a fraction of the cost for the usual record (whole seconds).
 */
function exactTimes(submit: number, runtime: number, estimate: number): boolean {
  return (
    Number.isInteger(submit) &&
    Number.isInteger(runtime) &&
    Number.isInteger(estimate) &&
    submit + runtime <= MAX_WORKLOAD_TIME &&
    submit + estimate <= MAX_WORKLOAD_TIME
  );
}
