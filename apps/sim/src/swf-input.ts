import { createReadStream } from "node:fs";
import { open } from "node:fs/promises";
import type { Interface } from "node:readline";
import type { Readable } from "node:stream";
import { createGunzip } from "node:zlib";
import { type Job, SchedError } from "@sched/core";
import { createSwfJobStream, type SwfCleanupReport, type SwfHeader } from "@sched/workload";
import { describeFsError } from "./atomic.js";

/** Options of {@link streamSwfWorkload}. */
export interface StreamSwfWorkloadOptions extends ReadSwfWorkloadOptions {
  /** Called once with the header, before the first jobs (or at the end when there are none). */
  readonly onHeader?: (header: SwfHeader) => void;
}

/** What {@link streamSwfWorkload} read besides the jobs. */
export interface SwfStreamResult {
  readonly header: SwfHeader | undefined;
  readonly report: SwfCleanupReport;
}

/** Characters read from the file at a time (the stream's chunks). */
const CHUNK = 1 << 20;

/**
 * Read the SWF file at `path` as jobs, handing them to `onJobs` a chunk at a time (a gzip file,
 * recognised by its magic bytes, is gunzipped on the fly), so memory never holds the text, the
 * records or the jobs: only the current chunk's. Same rules, jobs, report and errors as
 * {@link readSwfWorkload} (lines end at `\n`, `\r\n` or `\r`, as `readline` splits them).
 * An error thrown by `onJobs` or `options.onHeader` stops the reading and is passed on as it is.
 *
 * @throws ParseError naming `path`, the line and the field when a line is malformed;
 *   InvalidInputError naming the record when a job is invalid; an Error naming the file when it
 *   cannot be read or gunzipped.
 */
export async function streamSwfWorkload(
  path: string,
  options: StreamSwfWorkloadOptions,
  onJobs: (jobs: Job[]) => void,
): Promise<SwfStreamResult> {
  const gz = await isGzip(path).catch((error: unknown) => {
    throw readError(path, false, error);
  });
  const file = createReadStream(path, { highWaterMark: CHUNK });
  let input: Readable = file;
  if (gz) {
    const gunzip = createGunzip({ chunkSize: CHUNK });
    file.on("error", (e) => gunzip.destroy(e));
    input = file.pipe(gunzip);
  }
  input.setEncoding("utf8");
  const stream = createSwfJobStream({
    source: path,
    clean: options.clean ?? false,
    estimate: options.estimate ?? "requested",
    ...(options.onHeader === undefined ? {} : { onHeader: options.onHeader }),
  });
  const chunks = input[Symbol.asyncIterator]();
  try {
    for (;;) {
      let next: IteratorResult<string>;
      try {
        next = await chunks.next();
      } catch (error) {
        throw readError(path, gz, error);
      }
      if (next.done) break;
      const jobs = stream.push(next.value);
      if (jobs.length > 0) onJobs(jobs);
    }
    const last = stream.end();
    if (last.length > 0) onJobs(last);
    return { header: stream.header, report: stream.report() };
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
}

/**
 * Read the SWF file at `path` as jobs, streaming it (a gzip file, recognised by its magic bytes,
 * is gunzipped on the fly), so memory holds the jobs, never the text.
 *
 * @throws ParseError naming `path`, the line and the field when a line is malformed;
 *   InvalidInputError naming the record when a job is invalid; a file-system error when the
 *   file cannot be read.
 */
export async function readSwfWorkload(
  path: string,
  options: ReadSwfWorkloadOptions = {},
): Promise<SwfWorkload> {
  const jobs: Job[] = [];
  const { header, report } = await streamSwfWorkload(path, options, (chunk) => {
    for (let i = 0; i < chunk.length; i++) jobs.push(chunk[i]!);
  });
  return { header, jobs, report };
}

/** The lines of a text file, gunzipped when gzip (recognised by its magic bytes, not its name). */
export interface FileLines {
  readonly lines: Interface;
  /** Whether the file was gzip-compressed. */
  readonly gzip: boolean;
  /** Close the reader and the underlying streams (idempotent). */
  close(): void;
}

/** Open `path` for streaming line by line, gunzipping it when its first bytes say gzip. */
export async function openLines(path: string): Promise<FileLines> {
  const gzip = await isGzip(path);
  const file = createReadStream(path);
  let input: Readable = file;
  if (gzip) {
    const gunzip = createGunzip();
    file.on("error", (e) => gunzip.destroy(e));
    input = file.pipe(gunzip);
  }
  const { createInterface } = await import("node:readline");
  const lines = createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY });
  return {
    lines,
    gzip,
    close() {
      lines.close();
      input.destroy();
      file.destroy();
    },
  };
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
