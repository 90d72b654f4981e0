import { stat } from "node:fs/promises";
import { type Job, ParseError } from "@sched/core";
import {
  type JobsFileHeader,
  JobsJsonlWriter,
  JobsToSwfTally,
  jobToSwfRecord,
  type SwfCleanupReport,
  type SwfHeader,
  SwfWriter,
} from "@sched/workload";
import { StreamedFile, writeFilesAtomic } from "../atomic.js";
import { addBatsimDroppedKeys, BatsimWriter } from "../batsim.js";
import type { Io } from "../command.js";
import { STREAMED_TRACE_LIMITS } from "../limits.js";
import { printable } from "../printable.js";
import {
  cleanupReportText,
  openJobBatches,
  openLineBatches,
  streamSwfWorkload,
} from "../swf-input.js";
import { headerProcs, requireJobs } from "./trace-files.js";

/** Job fields the SWF output keeps (the others are named on stderr as dropped). */
const SWF_KEPT: ReadonlySet<string> = new Set([
  "id",
  "submit",
  "runtime",
  "estimate",
  "cores",
  "user",
  "group",
  "queue",
  "partition",
]);

/** Adds to `into` the fields of `job` that the SWF output drops (set ones only). */
export function addSwfDroppedKeys(into: Set<string>, job: Job): void {
  const raw = job as unknown as Record<string, unknown>;
  for (const k in raw) if (raw[k] !== undefined && !SWF_KEPT.has(k)) into.add(k);
}

/** The formats `convert` reads and writes. */
export type ConvertFormat = "swf" | "native" | "batsim";

/** One `convert`, its options resolved. */
export interface Conversion {
  readonly input: string;
  readonly from: ConvertFormat;
  readonly to: ConvertFormat;
  /** `--out`; undefined: standard output. */
  readonly out: string | undefined;
  /** `--procs`, when given. */
  readonly procs: number | undefined;
  readonly clean: boolean;
  readonly estimate: "requested" | "runtime";
  /** The command's options (for the hint of an empty trace). */
  readonly commandOptions: readonly string[];
  /** The native output's header `meta`. */
  readonly meta: Readonly<Record<string, unknown>>;
}

/** A conversion {@link streamConvert} can do: SWF or native in (a file), any format out. */
export interface StreamConversion extends Conversion {
  readonly from: "swf" | "native";
}

/** What the first pass learnt about the whole trace. */
interface Tally {
  readonly swfHeader: SwfHeader | undefined;
  readonly report: SwfCleanupReport | undefined;
  readonly jsonlHeader: JobsFileHeader | undefined;
}

/**
 * Streams the jobs of `c.input` to `onJobs` a chunk at a time, read and checked exactly as
 * `readTraceFile` reads them.
 */
async function eachJobs(
  c: StreamConversion,
  onJobs: (jobs: readonly Job[]) => void,
): Promise<Tally> {
  if (c.from === "swf") {
    let swfHeader: SwfHeader | undefined;
    const { header, report } = await streamSwfWorkload(
      c.input,
      {
        clean: c.clean,
        estimate: c.estimate,
        where: "convert",
        onHeader: (h) => {
          swfHeader = h;
        },
      },
      onJobs,
    );
    return { swfHeader: header ?? swfHeader, report, jsonlHeader: undefined };
  }
  let jsonlHeader: JobsFileHeader | undefined;
  const { batches, close } = await openJobBatches(
    c.input,
    "convert",
    STREAMED_TRACE_LIMITS,
    (h) => {
      jsonlHeader = h;
    },
  );
  try {
    for await (const jobs of batches) onJobs(jobs);
  } finally {
    close();
  }
  return { swfHeader: undefined, report: undefined, jsonlHeader };
}

/** The error of a second pass that does not find what the first found. */
function changedError(c: StreamConversion, detail: string): ParseError {
  return new ParseError(
    "convert",
    { source: c.input },
    `changed while it was converted (read twice: ${detail}); convert it again`,
  );
}

/**
 * The second pass over a file the first pass read whole and found valid: each job handed to
 * `onJob` as it is read; returns how many. SWF input is read as the first pass read it (its
 * clean-up decides which records are jobs); a native file's lines are only parsed (`JSON.parse`,
 * the estimate defaulting to the run time as `createJob` does): the first pass checked each of
 * them, so the checks (a third of the time of a pass, and the duplicate-key scan) are not done
 * twice. A line that no longer parses is the error of a file changed between the passes.
 */
async function eachJobAgain(c: StreamConversion, onJob: (job: Job) => void): Promise<number> {
  let n = 0;
  if (c.from === "swf") {
    await eachJobs(c, (jobs) => {
      for (const j of jobs) onJob(j);
      n += jobs.length;
    });
    return n;
  }
  const { batches, close } = await openLineBatches(c.input, "convert", STREAMED_TRACE_LIMITS);
  try {
    let data = false;
    for await (const lines of batches)
      for (const line of lines) {
        // The reader's rules: trimmed, blank lines skipped, a header only as the first line.
        const text = line.trim();
        if (text === "") continue;
        let value: unknown;
        try {
          value = JSON.parse(text);
        } catch {
          throw changedError(c, `a line after job ${n} is no longer JSON`);
        }
        if (typeof value !== "object" || value === null) {
          throw changedError(c, `a line after job ${n} is no longer a JSON object`);
        }
        const obj = value as Record<string, unknown>;
        if (!data) {
          data = true;
          if ("format" in obj) continue;
        }
        if (obj.estimate === undefined) obj.estimate = obj.runtime;
        onJob(obj as unknown as Job);
        n++;
      }
  } finally {
    close();
  }
  return n;
}

/** What identifies a file's content between the two passes: its inode, size and modification time. */
async function fileStamp(path: string): Promise<string | null> {
  try {
    const s = await stat(path, { bigint: true });
    return `${s.dev}:${s.ino}:${s.size}:${s.mtimeNs}`;
  } catch {
    return null;
  }
}

/**
 * Throws {@link changedError} when the file is no longer the one `before` stamped: rewritten in
 * place (same number of jobs, each line still JSON: the counts alone do not see it), replaced,
 * or removed.
 */
async function requireUnchanged(c: StreamConversion, before: string | null): Promise<void> {
  const after = await fileStamp(c.input);
  if (before === null || after !== before) {
    throw changedError(
      c,
      after === null ? "it is gone" : "its size, modification time or inode changed",
    );
  }
}

/** A writer's sink to standard output (each chunk holds whole lines of UTF-8). */
function stdoutSink(io: Io): (bytes: Uint8Array) => void {
  const decoder = new TextDecoder();
  return (bytes) => io.stdout(decoder.decode(bytes, { stream: true }));
}

/**
 * `convert` of a trace too long to hold. To SWF, in two passes over the file: the first reads
 * and checks every job and gathers what the header and the notes need from the whole trace (job
 * count, the widest job, the fields SWF cannot hold, the clean-up report), the second writes each
 * job as it is read through an `SwfWriter`. To the native format, whose header needs nothing of
 * the trace, and to Batsim's JSON, whose jobs come before what needs the whole trace (`nb_res`,
 * the profiles: {@link BatsimWriter}), in one pass into a file (discarded on an error), and in
 * two to standard output (the first checks, so a bad line leaves stdout empty, as before). Into a {@link StreamedFile}
 * renamed over `c.out` when complete, or to `io.stdout` a chunk at a time. Output and stderr are
 * byte for byte those of the whole-trace path of `convert` (`convertWhole`).
 *
 * The input must be a regular file (read twice); the caller checks.
 *
 * Returns false, having written nothing, when the (first) pass cannot read the input: the caller
 * then reads the file whole, which stops with the error in its own words (the same file:line).
 *
 * @throws ParseError when the second pass does not read what the first did (the file changed).
 */
export async function streamConvert(c: StreamConversion, io: Io): Promise<boolean> {
  let count = 0;
  let widest = 0;
  const swf = c.to === "swf" ? new JobsToSwfTally() : null;
  const batsim = c.to === "batsim";
  const dropped = new Set<string>();
  const file = c.out === undefined ? null : await StreamedFile.create(c.out);
  // Native or Batsim into a file: written as it is read in the one pass.
  const onePass =
    file !== null && c.to === "native" ? new JobsJsonlWriter((b) => file.writeBytes(b)) : null;
  const batsimPass = file !== null && batsim ? new BatsimWriter((text) => file.write(text)) : null;
  let tally: Tally;
  // Stamped before the first pass; a second pass must read the same file.
  const stamp = onePass === null && batsimPass === null ? await fileStamp(c.input) : null;
  try {
    onePass?.header(c.meta);
    tally = await eachJobs(c, (jobs) => {
      count += jobs.length;
      for (const j of jobs) {
        if (onePass !== null) onePass.job(j);
        else if (swf !== null) {
          if (j.cores > widest) widest = j.cores;
          swf.add(j);
          addSwfDroppedKeys(dropped, j);
        } else if (batsim) {
          if (j.cores > widest) widest = j.cores;
          addBatsimDroppedKeys(dropped, j);
          batsimPass?.job(j);
        }
      }
    });
    onePass?.flush();
  } catch {
    file?.discard();
    return false;
  }
  const size = (): number => c.procs ?? headerProcs(tally.swfHeader, tally.jsonlHeader) ?? widest;
  const sorted = [...dropped].sort();
  const droppedNote =
    sorted.length > 0
      ? `note: the ${c.to} format cannot hold these job fields, dropped: ${sorted.join(", ")}\n`
      : "";
  try {
    if (c.clean && tally.report !== undefined) io.stderr(cleanupReportText(tally.report, c.clean));
    requireJobs("convert", c.input, count, tally.report, {
      estimate: c.estimate,
      commandOptions: c.commandOptions,
    });
    if (batsimPass !== null) batsimPass.end(size());
    else if (onePass === null) {
      // Standard output: the notes before the output, as the whole-trace path writes them.
      if (file === null && droppedNote !== "") io.stderr(droppedNote);
      const sink = file === null ? stdoutSink(io) : (b: Uint8Array) => file.writeBytes(b);
      if (batsim) {
        const writer = new BatsimWriter((text) => io.stdout(text));
        const again = await eachJobAgain(c, (j) => writer.job(j));
        // Checked before the last part goes out (a short trace then writes nothing).
        if (again !== count) throw changedError(c, `${count} jobs, then ${again}`);
        await requireUnchanged(c, stamp);
        writer.end(size());
      } else if (swf !== null) {
        const writer = new SwfWriter(sink);
        writer.header(swf.header({ maxProcs: size() }));
        const again = await eachJobAgain(c, (j) => writer.record(jobToSwfRecord(j)));
        // Checked before the last chunk goes out (a short trace then writes nothing).
        if (again !== count) throw changedError(c, `${count} jobs, then ${again}`);
        await requireUnchanged(c, stamp);
        writer.flush();
      } else {
        const writer = new JobsJsonlWriter(sink);
        writer.header(c.meta);
        const again = await eachJobAgain(c, (j) => writer.job(j));
        // Checked before the last chunk goes out (a short trace then writes nothing).
        if (again !== count) throw changedError(c, `${count} jobs, then ${again}`);
        await requireUnchanged(c, stamp);
        writer.flush();
      }
    }
  } catch (error) {
    file?.discard();
    throw error;
  }
  if (file !== null) {
    if (droppedNote !== "") io.stderr(droppedNote);
    await writeFilesAtomic(new Map([[file.path, file]]));
    io.stderr(`wrote ${count} jobs to ${printable(file.path)} (${c.to})\n`);
  }
  return true;
}
