import { createReadStream } from "node:fs";
import { open } from "node:fs/promises";
import type { Readable } from "node:stream";
import { type Job, ParseError, SchedError } from "@sched/core";
import {
  createJobsLineReader,
  createSwfJobStream,
  type JobsFileHeader,
  readSwfLines,
  type SwfCleanupReport,
  type SwfHeader,
  swfToJobsAsync,
} from "@sched/workload";
import { describeFsError } from "./atomic.js";
import { MAX_LINE_LENGTH } from "./limits.js";
import { textLineBatches, textLines } from "./text-lines.js";
import { inCommand } from "./user-message.js";

/** Options of {@link streamSwfWorkload}. */
export interface StreamSwfWorkloadOptions extends ReadSwfWorkloadOptions {
  /** Called once with the header, before the first jobs (or at the end when there are none). */
  readonly onHeader?: (header: SwfHeader) => void;
}

/** What {@link streamSwfWorkload} read besides the jobs. */
export interface SwfStreamResult {
  readonly header: SwfHeader | undefined;
  readonly report: SwfCleanupReport;
  /** Whether the file was gzip-compressed. */
  readonly gzip: boolean;
}

/** Bytes read from the file at a time (the stream's chunks). */
const CHUNK = 1 << 20;

/**
 * Read the SWF file at `path` as jobs, handing them to `onJobs` a chunk at a time (a gzip file,
 * recognised by its magic bytes, is gunzipped on the fly), so memory never holds the text, the
 * records or the jobs: only the current chunk's. Same rules, jobs, report and errors as
 * {@link readSwfWorkload} (lines end at `\n`, `\r\n` or `\r`; a line longer than
 * {@link MAX_LINE_LENGTH} is an error), except that the number of lines and bytes is not limited:
 * nothing of the trace is kept, so its length costs time, not memory.
 * An error thrown by `onJobs` or `options.onHeader` stops the reading and is passed on as it is.
 *
 * @throws ParseError naming `path`, the line and the field when a line is malformed or too
 *   long or its record is not a valid job, and naming `path` when the text is not UTF-8 or the
 *   gzip data is corrupt; an Error naming the file when it cannot be read.
 */
export async function streamSwfWorkload(
  path: string,
  options: StreamSwfWorkloadOptions,
  onJobs: (jobs: Job[]) => void,
): Promise<SwfStreamResult> {
  const where = options.where ?? "read";
  const gz = await isGzip(path).catch((error: unknown) => {
    throw readError(path, false, error);
  });
  const file = createReadStream(path, { highWaterMark: CHUNK });
  let input: Readable = file;
  if (gz) {
    const gunzip = (await gunzipModule()).createGunzip({ chunkSize: CHUNK });
    file.on("error", (e) => gunzip.destroy(e));
    input = file.pipe(gunzip);
  }
  const stream = createSwfJobStream({
    source: path,
    clean: options.clean ?? false,
    estimate: options.estimate ?? "requested",
    maxLineLength: MAX_LINE_LENGTH,
    ...(options.onHeader === undefined ? {} : { onHeader: options.onHeader }),
  });
  const chunks = (input as AsyncIterable<Uint8Array>)[Symbol.asyncIterator]();
  try {
    for (;;) {
      let next: IteratorResult<Uint8Array>;
      try {
        next = await chunks.next();
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (gz && typeof code === "string" && code.startsWith("Z_")) {
          throw new ParseError(
            where,
            { source: path },
            `is not valid gzip data (${(error as Error).message})`,
          );
        }
        throw readError(path, gz, error);
      }
      if (next.done) break;
      // The bytes as they come: an ASCII chunk is read without decoding it to text (the stream
      // decodes any other, and says so when it is not UTF-8).
      const jobs = stream.pushBytes(next.value);
      if (jobs.length > 0) onJobs(jobs);
    }
    const last = stream.end();
    if (last.length > 0) onJobs(last);
    return { header: stream.header, report: stream.report(), gzip: gz };
  } catch (error) {
    throw inCommand(error, where);
  } finally {
    input.destroy();
    file.destroy();
  }
}

/** A file-system or gunzip error: which file, and what happened in plain words. */
function readError(path: string, gz: boolean, error: unknown): unknown {
  if (error instanceof SchedError) return error;
  return new Error(`cannot read ${path}${gz ? " (gzip)" : ""}: ${describeFsError(error)}`, {
    cause: error,
  });
}

/** A workload read from an SWF file. */
export interface SwfWorkload {
  readonly header: SwfHeader | undefined;
  readonly jobs: readonly Job[];
  readonly report: SwfCleanupReport;
}

/** Options of {@link readSwfWorkload}. */
export interface ReadSwfWorkloadOptions {
  /** Apply the conventional clean-up (see `swfToJobs`). @defaultValue false */
  readonly clean?: boolean;
  /** Where estimates come from. @defaultValue "requested" */
  readonly estimate?: "requested" | "runtime";
  /** The command, naming where read errors come from (see {@link openLines}). @defaultValue "read" */
  readonly where?: string;
}

/**
 * Read the SWF file at `path` as jobs, streaming it line by line (a gzip file, recognised by its
 * magic bytes, is gunzipped on the fly), so memory holds the jobs, never the text.
 *
 * @throws ParseError naming `path`, the line and the field when a line is malformed or its
 *   record is not a valid job; a file-system error when the file cannot be read.
 */
export async function readSwfWorkload(
  path: string,
  options: ReadSwfWorkloadOptions = {},
): Promise<SwfWorkload> {
  const { lines, gzip: gz, close } = await openLines(path, options.where);
  let header: SwfHeader | undefined;
  try {
    const { jobs, report } = await swfToJobsAsync(
      readSwfLines(lines, {
        source: path,
        onHeader: (h) => {
          header = h;
        },
      }),
      { clean: options.clean ?? false, estimate: options.estimate ?? "requested" },
    );
    return { header, jobs, report };
  } catch (error) {
    if (error instanceof SchedError) throw inCommand(error, options.where ?? "read");
    // A file-system or gunzip error: say which file, and what happened in plain words.
    throw new Error(`cannot read ${path}${gz ? " (gzip)" : ""}: ${describeFsError(error)}`, {
      cause: error,
    });
  } finally {
    close();
  }
}

/** The lines of a text file, gunzipped when gzip (recognised by its magic bytes, not its name). */
export interface FileLines {
  /** The lines, without line ends (see {@link textLines} for the limits they are read under). */
  readonly lines: AsyncIterable<string>;
  /** Whether the file was gzip-compressed. */
  readonly gzip: boolean;
  /** Close the reader and the underlying streams (idempotent). */
  close(): void;
}

/**
 * Open `path` for streaming line by line, gunzipping it when its first bytes say gzip. `where`
 * names the command in the errors of {@link textLines} (a line too long, too many bytes, not
 * UTF-8, corrupt gzip); `limits` replaces its line and byte limits (`Infinity`: none, for a
 * reader that keeps nothing of the trace).
 */
export async function openLines(
  path: string,
  where = "read",
  limits: { readonly maxLines?: number; readonly maxBytes?: number } = {},
): Promise<FileLines> {
  const { input, gzip, close } = await openBytes(path);
  return { lines: textLines(input, { where, source: path, gzip, ...limits }), gzip, close };
}

/** The lines of {@link openLines}, the lines of each chunk of the file in one array. */
export interface FileLineBatches {
  /** The lines, a chunk's at a time (see {@link textLineBatches}). */
  readonly batches: AsyncIterable<string[]>;
  /** Whether the file was gzip-compressed. */
  readonly gzip: boolean;
  /** Close the reader and the underlying streams (idempotent). */
  close(): void;
}

/**
 * {@link openLines} for a reader that takes a chunk's lines at once: the same lines, limits and
 * errors, one step of the async iteration per chunk instead of per line.
 */
export async function openLineBatches(
  path: string,
  where = "read",
  limits: { readonly maxLines?: number; readonly maxBytes?: number } = {},
): Promise<FileLineBatches> {
  const { input, gzip, close } = await openBytes(path);
  const batches = textLineBatches(input, { where, source: path, gzip, ...limits });
  return { batches, gzip, close };
}

/** The jobs of a native (JSON Lines) file, a chunk of the file at a time. */
export interface FileJobBatches {
  /** The jobs of each chunk's lines (chunks with none are skipped). */
  readonly batches: AsyncIterable<Job[]>;
  /** Whether the file was gzip-compressed. */
  readonly gzip: boolean;
  /** Close the reader and the underlying streams (idempotent). */
  close(): void;
}

/**
 * The jobs of the native workload at `path`, read as `readJobsLines` reads them (its rules and
 * errors, `onHeader` called with the header line) by @sched/workload's synchronous
 * `createJobsLineReader`, a chunk's lines at a time ({@link openLineBatches}): no async step per
 * line or job, which cost about as much as reading the jobs.
 */
export async function openJobBatches(
  path: string,
  where: string,
  limits: { readonly maxLines?: number; readonly maxBytes?: number },
  onHeader: (header: JobsFileHeader) => void,
): Promise<FileJobBatches> {
  const { batches, gzip, close } = await openLineBatches(path, where, limits);
  const reader = createJobsLineReader({ source: path, onHeader });
  async function* jobs(): AsyncGenerator<Job[]> {
    for await (const lines of batches) {
      const out: Job[] = [];
      for (let i = 0; i < lines.length; i++) {
        const job = reader.next(lines[i] as string);
        if (job !== null) out.push(job);
      }
      if (out.length > 0) yield out;
    }
  }
  return { batches: jobs(), gzip, close };
}

/** The order a trace not sorted by submit time is simulated in: by submit time, then id. */
export function bySubmitThenId(a: Job, b: Job): number {
  return a.submit - b.submit || a.id - b.id;
}

/**
 * The bytes of `path` as a stream, gunzipped when its first bytes say gzip; with `chunk`, read
 * and gunzipped in chunks of that many bytes (the streams' defaults otherwise).
 */
export async function openBytes(
  path: string,
  chunk?: number,
): Promise<{ readonly input: Readable; readonly gzip: boolean; close(): void }> {
  const gzip = await isGzip(path);
  const file = createReadStream(path, chunk === undefined ? {} : { highWaterMark: chunk });
  let input: Readable = file;
  if (gzip) {
    const zlib = await gunzipModule();
    const gunzip =
      chunk === undefined ? zlib.createGunzip() : zlib.createGunzip({ chunkSize: chunk });
    file.on("error", (e) => gunzip.destroy(e));
    input = file.pipe(gunzip);
  }
  return {
    input,
    gzip,
    close() {
      input.destroy();
      file.destroy();
    },
  };
}

/** Options of {@link readTextFile}. */
export interface ReadTextFileOptions {
  /** Where errors come from (the command). */
  readonly where: string;
  /** The most bytes the text may have (after gunzipping). */
  readonly maxBytes: number;
}

/**
 * The whole text of `path` (gunzipped when its first bytes say gzip), for formats read whole
 * (Batsim's JSON). Reads at most `maxBytes` bytes before it gives up, so a gzip bomb or a huge
 * file ends in an error, not in `Invalid string length`.
 *
 * @throws ParseError naming `path` when the text is larger than `maxBytes`, not UTF-8, or not
 *   valid gzip; file-system errors as they are.
 */
export async function readTextFile(path: string, options: ReadTextFileOptions): Promise<string> {
  const { input, gzip, close } = await openBytes(path);
  const fail = (detail: string): never => {
    throw new ParseError(options.where, { source: path }, detail);
  };
  const chunks: Buffer[] = [];
  let bytes = 0;
  try {
    for await (const chunk of input as AsyncIterable<Buffer>) {
      bytes += chunk.length;
      if (bytes > options.maxBytes) {
        fail(
          `holds more than ${options.maxBytes} bytes${gzip ? " once gunzipped" : ""}, the limit of a file read whole`,
        );
      }
      chunks.push(chunk);
    }
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (gzip && typeof code === "string" && code.startsWith("Z_")) {
      fail(`is not valid gzip data (${(error as Error).message})`);
    }
    throw error;
  } finally {
    close();
  }
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(Buffer.concat(chunks));
  } catch {
    return fail("is not valid UTF-8 text");
  }
}

/** `node:zlib`, loaded for gzip files only (a plain file's run does not compile it). */
function gunzipModule(): Promise<typeof import("node:zlib")> {
  return import("node:zlib");
}

async function isGzip(path: string): Promise<boolean> {
  const handle = await open(path, "r");
  try {
    const buffer = Buffer.alloc(2);
    const { bytesRead } = await handle.read(buffer, 0, 2, 0);
    return bytesRead === 2 && buffer[0] === 0x1f && buffer[1] === 0x8b;
  } finally {
    await handle.close();
  }
}

/** The clean-up report as lines for stderr. */
export function cleanupReportText(report: SwfCleanupReport, clean: boolean): string {
  const ids = (list: readonly number[]): string =>
    list.length === 0
      ? ""
      : ` (job${list.length === 1 ? "" : "s"} ${list.slice(0, 5).join(", ")}${list.length > 5 ? ", ..." : ""})`;
  const lines = [
    `${clean ? "clean-up" : "conversion"}: ${report.records} records read, ${report.jobs} jobs kept`,
  ];
  if (clean) {
    lines.push(
      `  dropped, run time <= 0:       ${report.droppedRuntime.length}${ids(report.droppedRuntime)}`,
    );
    lines.push(
      `  dropped, processors <= 0:     ${report.droppedProcs.length}${ids(report.droppedProcs)}`,
    );
    lines.push(
      `  dropped, requested time <= 0: ${report.droppedRequestedTime.length}${ids(report.droppedRequestedTime)}`,
    );
    lines.push(
      `  run time capped at requested: ${report.runtimeCapped.length}${ids(report.runtimeCapped)}`,
    );
  }
  lines.push(
    `  size from allocated procs:    ${report.sizeFromAllocated.length} differ from requested`,
  );
  lines.push(
    `  size from requested procs:    ${report.sizeFromRequested.length} (allocated unknown)`,
  );
  return `${lines.join("\n")}\n`;
}
