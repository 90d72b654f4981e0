import { stat } from "node:fs/promises";
import { type Job, ParseError, SchedError } from "@sched/core";
import {
  createJobsLineReader,
  type JobsFileHeader,
  readSwfTrace,
  type SwfCleanupReport,
  type SwfHeader,
  type SwfRecord,
  swfToJobs,
} from "@sched/workload";
import { describeFsError } from "../atomic.js";
import { inCallersWords } from "../hints.js";
import { openLines } from "../swf-input.js";
import { UsageError } from "../usage-error.js";
import { inCommand } from "../user-message.js";

/** The two workload file formats: the Standard Workload Format and native JSON Lines. */
export type TraceFormat = "swf" | "jsonl";

/**
 * The format of `path` by its extension: `.swf` or `.jsonl`, optionally followed by `.gz` when
 * `allowGz` (input files; gzip itself is recognised by content). Anything else is a usage error
 * naming `--option`.
 */
export function traceFormat(
  command: string,
  option: string,
  path: string,
  allowGz: boolean,
): TraceFormat {
  const lower = path.toLowerCase();
  const base = allowGz && lower.endsWith(".gz") ? lower.slice(0, -3) : lower;
  if (base.endsWith(".swf")) return "swf";
  if (base.endsWith(".jsonl")) return "jsonl";
  const what = option === "" ? `'${path}'` : `option --${option} '${path}'`;
  throw new UsageError(
    `${command}: ${what}: the format is chosen by the extension: .swf or .jsonl${allowGz ? " (optionally .gz)" : ""}`,
    command,
  );
}

/** A workload file read into memory. */
export interface TraceFile {
  readonly format: TraceFormat;
  readonly gzip: boolean;
  readonly jobs: readonly Job[];
  /** SWF: where the estimates came from (after resolving `"auto"`). */
  readonly estimate?: "requested" | "runtime";
  /** SWF: the header; the records as read (before conversion to jobs); the conversion report. */
  readonly swf?: {
    readonly header: SwfHeader;
    readonly records: readonly SwfRecord[];
    readonly report: SwfCleanupReport;
  };
  /** JSON Lines: the header line, when the file has one. */
  readonly jsonl?: { readonly header: JobsFileHeader | undefined };
}

/** Options of {@link readTraceFile}. */
export interface ReadTraceOptions {
  /** SWF: the conventional clean-up (see `swfToJobs`). @defaultValue false */
  readonly clean?: boolean;
  /**
   * SWF: where estimates come from; `"auto"`: the run time when no record has a requested time
   * (the Lublin model's output, NASA iPSC), else the requested time.
   * @defaultValue "requested"
   */
  readonly estimate?: "requested" | "runtime" | "auto";
  /**
   * The options the command has (`clean`, `estimate`), so an error's hint names only those.
   * @defaultValue none
   */
  readonly commandOptions?: readonly string[];
  /** The format, when the command was told it (`convert --from`). @defaultValue by extension */
  readonly format?: TraceFormat;
}

/**
 * Read the workload file at `path` (SWF or native JSON Lines by extension; gzip recognised by
 * its magic bytes), streaming it line by line.
 *
 * @throws UsageError when the file does not exist or its extension is neither; ParseError
 *   (file:line and field) for a malformed line or (SWF) a record the conversion refuses;
 *   InvalidInputError for an invalid job (JSON Lines); an Error naming the file for other read
 *   failures.
 */
export async function readTraceFile(
  command: string,
  path: string,
  options: ReadTraceOptions = {},
): Promise<TraceFile> {
  const format = options.format ?? traceFormat(command, "", path, true);
  try {
    const s = await stat(path);
    if (!s.isFile()) throw new UsageError(`${command}: '${path}' is not a file`, command);
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(`${command}: cannot read '${path}': ${describeFsError(error)}`, command);
  }
  const { lines, gzip, close } = await openLines(path, command);
  try {
    if (format === "swf") {
      // Read whole (the estimate may depend on every record), as the array `swfToJobs` knows
      // the lines of: a record it refuses is named by the file and line.
      const { header, records } = await readSwfTrace(lines, { source: path });
      let estimate = options.estimate ?? "requested";
      if (estimate === "auto") {
        estimate = records.some((r) => r.requestedTime > 0) ? "requested" : "runtime";
      }
      let converted: ReturnType<typeof swfToJobs>;
      try {
        converted = swfToJobs(records, { clean: options.clean ?? false, estimate });
      } catch (error) {
        throw inCallersWords(error, { command, options: options.commandOptions ?? [] });
      }
      const { jobs, report } = converted;
      return {
        format,
        gzip,
        jobs,
        estimate,
        swf: { header, records, report },
      };
    }
    let header: JobsFileHeader | undefined;
    const jobs: Job[] = [];
    const reader = createJobsLineReader({
      source: path,
      onHeader: (h) => {
        header = h;
      },
    });
    for await (const line of lines) {
      const job = reader.next(line);
      if (job !== null) jobs.push(job);
    }
    return { format, gzip, jobs, jsonl: { header } };
  } catch (error) {
    if (error instanceof SchedError || !isFsError(error)) throw inCommand(error, command);
    throw new Error(`cannot read ${path}${gzip ? " (gzip)" : ""}: ${describeFsError(error)}`, {
      cause: error,
    });
  } finally {
    close();
  }
}

function isFsError(error: unknown): boolean {
  return error instanceof Error && typeof (error as NodeJS.ErrnoException).code === "string";
}

/**
 * The machine size a file declares: SWF `MaxProcs` (else `MaxNodes`); JSON Lines `meta.procs`
 * (what `gen` and `convert` write). `undefined` when it has none.
 */
export function declaredProcs(trace: TraceFile): number | undefined {
  return headerProcs(trace.swf?.header, trace.jsonl?.header);
}

/**
 * {@link declaredProcs} from the headers themselves (a trace streamed, not held): the SWF header
 * when `swf` is given, else the JSON Lines header.
 */
export function headerProcs(
  swf: SwfHeader | undefined,
  jsonl: JobsFileHeader | undefined,
): number | undefined {
  if (swf !== undefined) {
    const p = swf.maxProcs ?? swf.maxNodes;
    return p !== undefined && p > 0 ? p : undefined;
  }
  const procs = jsonl?.meta?.procs;
  return typeof procs === "number" && Number.isSafeInteger(procs) && procs > 0 ? procs : undefined;
}

/**
 * Stop when a workload holds no job: there is nothing to simulate, summarize or convert, and a
 * table of zero jobs (NaN means, a machine of 0 processors) would look like a result. `run`,
 * `inspect` and `convert` say the same. After a clean-up that dropped every record it says how
 * many for each reason, and when they lacked requested times, how to use the run times instead
 * (when `options` has `estimate`).
 *
 * @throws ParseError naming `command` and `path`.
 */
export function requireJobs(
  command: string,
  path: string,
  jobs: number,
  report?: SwfCleanupReport,
  options: { readonly estimate?: string; readonly commandOptions?: readonly string[] } = {},
): void {
  if (jobs > 0) return;
  if (report === undefined || report.records === 0) {
    throw new ParseError(command, { source: path }, "holds no jobs (no job line)");
  }
  const { droppedRuntime, droppedProcs, droppedRequestedTime } = report;
  let detail = `holds no jobs after the clean-up: all ${report.records} records were dropped (run time <= 0: ${droppedRuntime.length}, processors <= 0: ${droppedProcs.length}, requested time <= 0: ${droppedRequestedTime.length})`;
  if (
    droppedRequestedTime.length > 0 &&
    options.estimate === "requested" &&
    options.commandOptions?.includes("estimate") === true
  ) {
    detail += "; for a trace without requested times (field 9) give --estimate runtime";
  }
  throw new ParseError(command, { source: path }, detail);
}
