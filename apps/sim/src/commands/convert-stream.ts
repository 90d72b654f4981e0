import type { Job } from "@sched/core";
import {
  formatJobJson,
  type JobsFileHeader,
  JobsToSwfTally,
  jobToSwfRecord,
  readJobsLines,
  type SwfCleanupReport,
  type SwfHeader,
  SwfWriter,
  writeJobsLines,
} from "@sched/workload";
import { StreamedFile, writeFilesAtomic } from "../atomic.js";
import type { Io } from "../command.js";
import { cleanupReportText, openLines, streamSwfWorkload } from "../swf-input.js";
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

/** A conversion {@link streamConvert} can do: SWF or native in, SWF or native to a file. */
export interface StreamConversion {
  readonly input: string;
  readonly from: "swf" | "native";
  readonly to: "swf" | "native";
  readonly out: string;
  /** `--procs`, when given. */
  readonly procs: number | undefined;
  readonly clean: boolean;
  readonly estimate: "requested" | "runtime";
  /** The command's options (for the hint of an empty trace). */
  readonly commandOptions: readonly string[];
  /** The native output's header `meta`. */
  readonly meta: Readonly<Record<string, unknown>>;
}

/** What the first pass learnt about the whole trace. */
interface Tally {
  readonly swfHeader: SwfHeader | undefined;
  readonly report: SwfCleanupReport | undefined;
  readonly jsonlHeader: JobsFileHeader | undefined;
}

/**
 * Streams the jobs of `c.input` to `onJobs` (SWF: a chunk at a time; native: one at a time, in
 * an array of one), read exactly as `readTraceFile` reads them.
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
  const { lines, close } = await openLines(c.input, "convert");
  let jsonlHeader: JobsFileHeader | undefined;
  try {
    const one: Job[] = [];
    for await (const j of readJobsLines(lines, {
      source: c.input,
      onHeader: (h) => {
        jsonlHeader = h;
      },
    })) {
      one[0] = j;
      onJobs(one);
    }
  } finally {
    close();
  }
  return { swfHeader: undefined, report: undefined, jsonlHeader };
}

/**
 * `convert` of a trace too long to hold. To SWF, in two passes over the file: the first gathers
 * what the header and the notes need from the whole trace (job count, the widest job, the fields
 * SWF cannot hold, the clean-up report), the second writes each job as it is read through an
 * `SwfWriter`. To the native format, whose header needs nothing of the trace, in one pass. Either
 * way into a {@link StreamedFile} renamed over `c.out` when complete. Output and stderr are byte
 * for byte those of the whole-trace path of `convert`.
 *
 * Returns false, having written nothing, when the (first) pass cannot read the input: the caller
 * then reads the file whole, which stops with the error in its own words (the same file:line).
 */
export async function streamConvert(c: StreamConversion, io: Io): Promise<boolean> {
  let count = 0;
  let widest = 0;
  const swf = c.to === "swf" ? new JobsToSwfTally() : null;
  const dropped = new Set<string>();
  const file = await StreamedFile.create(c.out);
  let tally: Tally;
  try {
    if (swf === null) {
      for (const line of writeJobsLines([], c.meta)) file.write(`${line}\n`);
    }
    tally = await eachJobs(c, (jobs) => {
      count += jobs.length;
      for (const j of jobs) {
        if (swf === null) file.write(`${formatJobJson(j)}\n`);
        else {
          if (j.cores > widest) widest = j.cores;
          swf.add(j);
          addSwfDroppedKeys(dropped, j);
        }
      }
    });
  } catch {
    file.discard();
    return false;
  }
  try {
    if (c.clean && tally.report !== undefined) io.stderr(cleanupReportText(tally.report, c.clean));
    requireJobs("convert", c.input, count, tally.report, {
      estimate: c.estimate,
      commandOptions: c.commandOptions,
    });
    if (swf !== null) {
      const size = c.procs ?? headerProcs(tally.swfHeader, tally.jsonlHeader) ?? widest;
      const writer = new SwfWriter((bytes) => file.writeBytes(bytes));
      writer.header(swf.header({ maxProcs: size }));
      await eachJobs(c, (jobs) => {
        for (const j of jobs) writer.record(jobToSwfRecord(j));
      });
      writer.flush();
    }
  } catch (error) {
    file.discard();
    throw error;
  }
  const sorted = [...dropped].sort();
  if (sorted.length > 0) {
    io.stderr(
      `note: the ${c.to} format cannot hold these job fields, dropped: ${sorted.join(", ")}\n`,
    );
  }
  await writeFilesAtomic(new Map([[c.out, file]]));
  io.stderr(`wrote ${count} jobs to ${c.out} (${c.to})\n`);
  return true;
}
