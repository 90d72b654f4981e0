import { closeSync, openSync, readSync } from "node:fs";
import type { Job } from "@sched/core";
import { jobTimeProblem, parseSwf, type SwfCleanupReport, type SwfHeader } from "@sched/workload";
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
}

/** Bytes read at a time; a line longer than this is left to the general reader. */
const CHUNK = 1 << 20;
/** Jobs per batch handed on. */
const BATCH = 4096;
/** Fields of an SWF data line. */
const FIELDS = 18;
/** 10^k for the k fraction digits of a plain decimal (exact doubles; see `swfToJobs`' reader). */
const POW10 = [1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15];

/**
 * The common case of `sched-sim run`'s reading, on bytes: an uncompressed SWF file of ASCII
 * lines whose fields are plain decimals (`-1`, `3600`, `552.21`), job numbers increasing, read
 * with a byte scanner straight into typed columns (no text decoding, no string, record or job
 * object per line). Returns the header and the clean-up report, or `null` as soon as the file
 * leaves that case: gzip, a byte above 127, a lone `\r`, a line longer than 1 MiB, a field that
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
export function scanSwfFile(path: string, options: ScanSwfOptions): ScanSwfResult | null {
  const fd = openSync(path, "r");
  try {
    return scan(fd, options);
  } finally {
    closeSync(fd);
  }
}

function scan(fd: number, options: ScanSwfOptions): ScanSwfResult | null {
  const clean = options.clean;
  const fromRequested = options.estimate === "requested";
  const buf = Buffer.allocUnsafe(CHUNK);
  const v = new Float64Array(FIELDS);
  const columns = {
    id: new Float64Array(BATCH),
    submit: new Float64Array(BATCH),
    runtime: new Float64Array(BATCH),
    estimate: new Float64Array(BATCH),
    cores: new Float64Array(BATCH),
    count: 0,
  };
  // One job object for `jobTimeProblem`, rewritten for every record.
  const probe = { id: 0, submit: 0, runtime: 0, estimate: 0, cores: 1 };
  const report = {
    records: 0,
    jobs: 0,
    droppedRuntime: [] as number[],
    droppedProcs: [] as number[],
    droppedRequestedTime: [] as number[],
    runtimeCapped: [] as number[],
    sizeFromAllocated: [] as number[],
    sizeFromRequested: [] as number[],
  };
  const headerLines: string[] = [];
  let header: SwfHeader | null = null;
  let lastId = Number.NEGATIVE_INFINITY;
  let len = 0;
  let eof = false;
  let first = true;
  while (!eof) {
    const n = readSync(fd, buf, len, CHUNK - len, null);
    if (n === 0) eof = true;
    len += n;
    if (first) {
      first = false;
      if (len >= 2 && buf[0] === 0x1f && buf[1] === 0x8b) return null;
    }
    let pos = 0;
    for (;;) {
      // The line [pos, e).
      let e = pos;
      while (e < len) {
        const c = buf[e]!;
        if (c === 10 || c === 13) break;
        if (c > 127) return null;
        e++;
      }
      if (e === len && !eof) break;
      if (e < len && buf[e] === 13) {
        if (e + 1 === len && !eof) break;
        // A lone `\r` ends a line for the general reader too, but is left to it.
        if (e + 1 === len || buf[e + 1] !== 10) return null;
      }
      let s = pos;
      let t = e;
      while (s < t && isBlank(buf[s]!)) s++;
      while (t > s && isBlank(buf[t - 1]!)) t--;
      pos = e === len ? len : buf[e] === 13 ? e + 2 : e + 1;
      if (s === t) {
        if (pos >= len) break;
        continue;
      }
      if (buf[s] === 59 /* ; */) {
        if (header === null) headerLines.push(buf.toString("latin1", s, t));
        if (pos >= len) break;
        continue;
      }
      // A data line: 18 plain decimals.
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
          } else if (isBlank(c)) {
            break;
          } else if (c === 46 /* . */ && dot < 0) {
            dot = i;
          } else {
            return null;
          }
        }
        if (digits === 0 || digits > 15 || field === FIELDS) return null;
        let x = dot < 0 || dot === i - 1 ? m : m / POW10[i - dot - 1]!;
        if (negative) x = -x;
        v[field++] = x;
        while (i < t && isBlank(buf[i]!)) i++;
      }
      if (field !== FIELDS) return null;
      if (header === null) {
        try {
          header = parseSwf(headerLines.join("\n")).header;
        } catch {
          return null;
        }
        options.onHeader(header);
      }
      // `swfToJobs`, record by record; what it would reject is left to it.
      const id = v[0]!;
      if (!(Number.isSafeInteger(id) && id >= 0 && id > lastId)) return null;
      lastId = id;
      const submit = v[1]!;
      if (!(submit >= 0)) return null;
      if (!(optionalId(v[11]!) && optionalId(v[12]!) && optionalId(v[14]!) && optionalId(v[15]!)))
        return null;
      report.records++;
      const allocated = v[4]!;
      const requested = v[7]!;
      const size = allocated > 0 ? allocated : requested;
      let runtime = v[3]!;
      if (!(runtime > 0)) {
        if (!clean) return null;
        report.droppedRuntime.push(id);
      } else if (!(size > 0)) {
        if (!clean) return null;
        report.droppedProcs.push(id);
      } else {
        let estimate = runtime;
        if (fromRequested) estimate = v[8]!;
        if (fromRequested && !(estimate > 0)) {
          if (!clean) return null;
          report.droppedRequestedTime.push(id);
        } else {
          if (fromRequested && clean && runtime > estimate) {
            runtime = estimate;
            report.runtimeCapped.push(id);
          }
          if (!Number.isSafeInteger(size)) return null;
          if (allocated > 0) {
            if (requested > 0 && requested !== allocated) report.sizeFromAllocated.push(id);
          } else {
            report.sizeFromRequested.push(id);
          }
          probe.submit = submit;
          probe.runtime = runtime;
          probe.estimate = estimate;
          if (jobTimeProblem(probe as Job) !== null) return null;
          report.jobs++;
          const k = columns.count++;
          columns.id[k] = id;
          columns.submit[k] = submit;
          columns.runtime[k] = runtime;
          columns.estimate[k] = estimate;
          columns.cores[k] = size;
          if (k + 1 === BATCH) {
            options.onJobs(columns);
            columns.count = 0;
          }
        }
      }
      if (pos >= len) break;
    }
    // Keep the partial line at the end for the next read.
    if (pos > 0) buf.copy(buf, 0, pos, len);
    len -= pos;
    if (len === CHUNK) return null;
  }
  if (header === null) return null;
  if (columns.count > 0) options.onJobs(columns);
  return { header, report };
}

/** An ASCII blank as the general reader trims and splits: space, or `\t` to `\r`. */
function isBlank(c: number): boolean {
  return c === 32 || (c >= 9 && c <= 13);
}

/** `-1` (unknown) or an integer >= 0: a user, group, queue or partition `swfToJobs` accepts. */
function optionalId(x: number): boolean {
  return x === -1 || (Number.isSafeInteger(x) && x >= 0);
}
