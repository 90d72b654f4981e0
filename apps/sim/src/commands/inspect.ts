import { stat } from "node:fs/promises";
import {
  type Distribution,
  emptySwfHeader,
  type JobsFileHeader,
  readSwfLines,
  type SwfCleanupReport,
  type SwfHeader,
  WorkloadSummarizer,
  type WorkloadSummary,
} from "@sched/workload";
import {
  type CommandSpec,
  choiceValue,
  flag,
  integerValue,
  requirePositionals,
  stringOption,
} from "../args.js";
import type { Command } from "../command.js";
import { scanSwf } from "../fast/swf-scan.js";
import { fixed, type JsonValue, renderTable, stableJson } from "../format.js";
import { MAX_PROCS, STREAMED_TRACE_LIMITS } from "../limits.js";
import { openJobBatches, openLines, streamSwfWorkload } from "../swf-input.js";
import {
  declaredProcs,
  headerProcs,
  readTraceFile,
  requireJobs,
  type TraceFile,
  type TraceFormat,
  traceFormat,
} from "./trace-files.js";

const spec: CommandSpec = {
  name: "inspect",
  summary: "Summarize a workload file: jobs, span, size and runtime distributions, offered load.",
  description:
    "Reads an SWF trace (.swf, gzip recognised by content) or a native JSON Lines file (.jsonl)\n" +
    "and prints: the number of jobs; the first and last submit times and their span; the\n" +
    "distributions (min, quartiles, 90th percentile, max, mean; nearest-rank) of job size,\n" +
    "run time, requested time and inter-arrival time; the serial and power-of-two fractions;\n" +
    "jobs over their estimate, with deadlines, with licenses; the total work and the offered\n" +
    "load work / (procs x span). procs is --procs, else the file's (SWF MaxProcs, else MaxNodes;\n" +
    "JSON Lines meta.procs, as 'gen' writes it); without one the load is not computed.",
  options: [
    {
      name: "procs",
      short: "p",
      type: "string",
      arg: "N",
      description: "Processors to compute the offered load against (default: the file's).",
    },
    { name: "json", type: "boolean", description: "Print the summary as JSON (sorted keys)." },
    {
      name: "clean",
      type: "boolean",
      description: "SWF: the conventional clean-up first (see 'run --help').",
    },
    {
      name: "estimate",
      type: "string",
      arg: "requested|runtime",
      description:
        "SWF: estimates from the requested time or the run time (default: the run time when no record has a requested time, as in the Lublin model's output).",
    },
  ],
  positionals: [
    { name: "file", description: "Workload file (.swf[.gz] or .jsonl[.gz]).", required: true },
  ],
  examples: [
    "sched-sim inspect trace.swf.gz --clean",
    "sched-sim inspect ar.jsonl --json",
    "sched-sim inspect l.swf --procs 512",
  ],
};

function distributionJson(d: Distribution | null): JsonValue {
  if (d === null) return null;
  return {
    min: d.min,
    q25: d.q25,
    median: d.median,
    q75: d.q75,
    q90: d.q90,
    max: d.max,
    mean: d.mean,
  };
}

/** The `--json` document: the file, where procs came from, and the summary. */
export function inspectJson(
  path: string,
  trace: TraceInfo,
  procs: number | undefined,
  procsFrom: string,
  s: WorkloadSummary,
): JsonValue {
  return {
    file: path,
    format: trace.format,
    gzip: trace.gzip,
    procs: procs ?? null,
    procsFrom,
    estimatesFrom: trace.estimate ?? "file",
    jobs: s.jobs,
    firstSubmit: s.firstSubmit,
    lastSubmit: s.lastSubmit,
    span: s.span,
    cores: distributionJson(s.cores),
    runtime: distributionJson(s.runtime),
    estimate: distributionJson(s.estimate),
    interArrival: distributionJson(s.interArrival),
    serialFraction: s.serialFraction,
    powerOfTwoFraction: s.powerOfTwoFraction,
    overEstimate: s.overEstimate,
    withDeadline: s.withDeadline,
    withLicenses: s.withLicenses,
    work: s.work,
    offeredLoad: s.offeredLoad,
  };
}

function num(x: number): string {
  return Number.isInteger(x) ? String(x) : fixed(x, Math.abs(x) >= 100 ? 1 : 3);
}

function duration(seconds: number): string {
  if (seconds >= 2 * 86400) return `${fixed(seconds / 86400, 1)} days`;
  if (seconds >= 2 * 3600) return `${fixed(seconds / 3600, 1)} h`;
  return `${num(seconds)} s`;
}

function percent(x: number): string {
  return `${fixed(100 * x, 1)}%`;
}

/** The plain-text summary. */
export function inspectText(
  path: string,
  trace: TraceInfo,
  procs: number | undefined,
  procsFrom: string,
  s: WorkloadSummary,
): string {
  const kind = trace.format === "swf" ? "SWF" : "native JSON Lines";
  const lines = [
    `${path}: ${kind}${trace.gzip ? " (gzip)" : ""}, ${s.jobs} jobs`,
    `submit:        first ${num(s.firstSubmit)} s, last ${num(s.lastSubmit)} s, span ${num(s.span)} s (${duration(s.span)})`,
    `machine:       ${procs === undefined ? "unknown (give --procs N for the offered load)" : `${procs} processors (${procsFrom})`}`,
    `work:          ${num(s.work)} core-seconds`,
    `offered load:  ${s.offeredLoad === null ? "-" : `${fixed(s.offeredLoad, 3)} (work / (procs x span))`}`,
    `sizes:         serial ${percent(s.serialFraction)}, power of two > 1 ${percent(s.powerOfTwoFraction)}`,
    `jobs:          ${s.overEstimate} over their estimate, ${s.withDeadline} with a deadline, ${s.withLicenses} with licenses`,
    "",
  ];
  const rows = (
    [
      ["size (cores)", s.cores],
      ["run time (s)", s.runtime],
      [trace.estimate === "runtime" ? "estimate (s) = run time" : "estimate (s)", s.estimate],
      ["inter-arrival (s)", s.interArrival],
    ] as const
  ).map(([name, d]) =>
    d === null
      ? [name, "-", "-", "-", "-", "-", "-", "-"]
      : [
          name,
          num(d.min),
          num(d.q25),
          num(d.median),
          num(d.q75),
          num(d.q90),
          num(d.max),
          num(d.mean),
        ],
  );
  const table = renderTable(
    [
      { title: "distribution", align: "left" },
      ...["min", "q25", "median", "q75", "q90", "max", "mean"].map((title) => ({
        title,
        align: "right" as const,
      })),
    ],
    rows,
  );
  return `${lines.join("\n")}\n${table}`;
}

/** `sched-sim inspect`. */
export const inspectCommand: Command = {
  spec,
  async run(args, io) {
    requirePositionals(spec, args);
    const path = args.positionals[0] as string;
    const procsText = stringOption(args, "procs");
    const procsOption =
      procsText === undefined
        ? undefined
        : integerValue("inspect", "procs", procsText, 1, MAX_PROCS);
    const estimateText = stringOption(args, "estimate");
    const estimate: ReadOptions["estimate"] =
      estimateText === undefined
        ? "auto"
        : choiceValue("inspect", "estimate", estimateText, ["requested", "runtime"] as const);
    const commandOptions = spec.options.map((o) => o.name);
    const read: ReadOptions = { clean: flag(args, "clean"), estimate, commandOptions };
    // Streamed, the jobs never held; on any error the whole-trace read says what is wrong, in
    // the command's words (the same file and line).
    const streamed = await streamedSummary(path, read);
    const {
      trace,
      summarizer,
      declared,
      procsFrom: declaredFrom,
    } = streamed ?? (await wholeSummary(path, read));
    const procs = procsOption ?? declared;
    const procsFrom = procsOption !== undefined ? "--procs" : declaredFrom;
    const summary = summarizer.summary(procs === undefined ? {} : { procs });
    io.stdout(
      flag(args, "json")
        ? stableJson(inspectJson(path, trace, procs, procsFrom, summary))
        : inspectText(path, trace, procs, procsFrom, summary),
    );
    return 0;
  },
};

/** What `inspect` prints of how the file was read. */
interface TraceInfo {
  readonly format: TraceFormat;
  readonly gzip: boolean;
  /** SWF: where the estimates came from. */
  readonly estimate?: "requested" | "runtime";
}

/** A trace file read into a summary, and the machine size its header declares. */
interface Summarized {
  readonly trace: TraceInfo;
  readonly summarizer: WorkloadSummarizer;
  readonly declared: number | undefined;
  /** Where `declared` came from, for the output: a header field, or "none". */
  readonly procsFrom: string;
}

interface ReadOptions {
  readonly clean: boolean;
  readonly estimate: "requested" | "runtime" | "auto";
  readonly commandOptions: readonly string[];
}

/** Where a declared machine size came from. */
function declaredFrom(
  declared: number | undefined,
  format: TraceFormat,
  swf: SwfHeader | undefined,
): string {
  if (declared === undefined) return "none";
  if (format === "jsonl") return "header meta.procs";
  return swf?.maxProcs === declared ? "header MaxProcs" : "header MaxNodes";
}

/**
 * The file's summary read as a stream: SWF by `run`'s byte scanner ({@link scannedSwf}), else
 * through the streamed reader (no line or byte limit, as `run`: nothing of the trace is kept),
 * JSON Lines line by line (its limits kept); memory is four numbers per job (4 bytes each while
 * they are 32-bit integers). With the estimate `"auto"`, a plain ASCII SWF file is read once
 * (twice when its first requested time comes after its first 1,024 records), and so is a gzip
 * file (gunzipped as it is read); a file the scanner leaves is read first up to its first record
 * with a requested time (the whole file when it has none), then by the streamed reader. Returns
 * `undefined` when the file cannot be read so (an error of any kind: the caller reads it whole
 * to name it), after the checks of {@link requireJobs} (which throw).
 */
async function streamedSummary(path: string, o: ReadOptions): Promise<Summarized | undefined> {
  let format: TraceFormat;
  try {
    format = traceFormat("inspect", "", path, true);
    // A regular file only: a pipe would be read (and its first bytes lost) by the gzip check,
    // or wait for a writer; the whole read refuses what is not a file, in its words.
    if (!(await stat(path)).isFile()) return undefined;
  } catch {
    return undefined;
  }
  let gzip = false;
  let summarizer = new WorkloadSummarizer();
  let report: SwfCleanupReport | undefined;
  let swfHeader: SwfHeader | undefined;
  let jsonlHeader: JobsFileHeader | undefined;
  let estimate: "requested" | "runtime" | undefined;
  try {
    if (format === "swf") {
      const scanned = await scannedSwf(path, o);
      if (scanned !== null && scanned !== "requested") {
        ({ summarizer, estimate, header: swfHeader, report, gzip } = scanned);
      } else {
        estimate = o.estimate !== "auto" ? o.estimate : (scanned ?? (await estimateOf(path)));
        const result = await streamSwfWorkload(
          path,
          { clean: o.clean, estimate, where: "inspect" },
          (jobs) => {
            for (const j of jobs) summarizer.add(j);
          },
        );
        swfHeader = result.header;
        report = result.report;
        gzip = result.gzip;
      }
    } else {
      // Streamed, nothing of the trace is kept but the summary's columns: past the limits of a
      // trace read whole.
      const opened = await openJobBatches(path, "inspect", STREAMED_TRACE_LIMITS, (h) => {
        jsonlHeader = h;
      });
      gzip = opened.gzip;
      try {
        for await (const jobs of opened.batches) for (const j of jobs) summarizer.add(j);
      } finally {
        opened.close();
      }
    }
  } catch {
    return undefined;
  }
  requireJobs("inspect", path, summarizer.jobs, report, {
    estimate: estimate ?? "requested",
    commandOptions: o.commandOptions,
  });
  const declared = headerProcs(
    format === "swf" ? (swfHeader ?? emptySwfHeader()) : undefined,
    jsonlHeader,
  );
  return {
    trace: { format, gzip, ...(estimate === undefined ? {} : { estimate }) },
    summarizer,
    declared,
    procsFrom: declaredFrom(declared, format, swfHeader),
  };
}

/** An SWF file summarized by {@link scannedSwf}. */
interface ScannedSwf {
  readonly summarizer: WorkloadSummarizer;
  readonly estimate: "requested" | "runtime";
  readonly header: SwfHeader;
  readonly report: SwfCleanupReport;
  /** Whether the file was gzip-compressed. */
  readonly gzip: boolean;
}

/**
 * The SWF file's summary read by `run`'s byte scanner (`scanSwf`, plain or gzipped: no string,
 * record or job per line, so the process stays near `run`'s memory; the same jobs and report as
 * the streamed reader), or null when the scanner leaves the file (bytes above 127, anything
 * unusual or wrong: the streamed reader then reads it, and names any error).
 *
 * The estimate `"auto"` ({@link estimateOf}) in one read where it can: when one of the first
 * records has a requested time ({@link firstRecordsEstimate}) the answer is `"requested"`;
 * otherwise the file is read as `"runtime"` while the scanner notes whether any record has one.
 * None (the Lublin model's output): that read is the answer. Some (the first one far in): read
 * again as `"requested"` (and when the scanner then leaves the file, the answer is
 * `"requested"`: the estimate `"auto"` resolves to, for the streamed reader).
 */
async function scannedSwf(path: string, o: ReadOptions): Promise<ScannedSwf | "requested" | null> {
  /** The summary, null when the scanner leaves the file, "requested" when it must be read so. */
  const scan = async (
    estimate: "requested" | "runtime",
  ): Promise<ScannedSwf | null | "requested"> => {
    const summarizer = new WorkloadSummarizer();
    // The scanner's columns, one job at a time (read during the call: the summarizer copies).
    const job = { id: 0, submit: 0, runtime: 0, estimate: 0, cores: 0 };
    let read: Awaited<ReturnType<typeof scanSwf>>;
    try {
      read = await scanSwf(path, {
        clean: o.clean,
        estimate,
        onHeader: () => {},
        onJobs: (c) => {
          for (let i = 0; i < c.count; i++) {
            job.id = c.id[i]!;
            job.submit = c.submit[i]!;
            job.runtime = c.runtime[i]!;
            job.estimate = c.estimate[i]!;
            job.cores = c.cores[i]!;
            summarizer.add(job);
          }
        },
      });
    } catch {
      return null;
    }
    if (read === null) return null;
    if (o.estimate === "auto" && estimate === "runtime" && read.requested) return "requested";
    return { summarizer, estimate, header: read.header, report: read.report, gzip: read.gzip };
  };
  const first = o.estimate === "auto" ? await firstRecordsEstimate(path) : o.estimate;
  const read = await scan(first);
  return read === "requested" ? ((await scan("requested")) ?? "requested") : read;
}

/** Records {@link firstRecordsEstimate} looks at. */
const FIRST_RECORDS = 1024;

/**
 * `"requested"` when one of the SWF file's first {@link FIRST_RECORDS} records has a requested
 * time (field 9 > 0), else `"runtime"` (no record, or none in the first ones): the start of
 * {@link estimateOf}, so that a file with requested times is read once as `"requested"`.
 */
async function firstRecordsEstimate(path: string): Promise<"requested" | "runtime"> {
  const { lines, close } = await openLines(path, "inspect", STREAMED_TRACE_LIMITS);
  try {
    let records = 0;
    for await (const r of readSwfLines(lines, { source: path })) {
      if (r.requestedTime > 0) return "requested";
      if (++records === FIRST_RECORDS) break;
    }
    return "runtime";
  } finally {
    close();
  }
}

/**
 * The estimate `"auto"` resolves to for an SWF file: `"requested"` when some record has a
 * requested time (field 9 > 0), else `"runtime"` (the Lublin model's output, NASA iPSC). Reads
 * up to the first such record.
 */
async function estimateOf(path: string): Promise<"requested" | "runtime"> {
  const { lines, close } = await openLines(path, "inspect", STREAMED_TRACE_LIMITS);
  try {
    for await (const r of readSwfLines(lines, { source: path })) {
      if (r.requestedTime > 0) return "requested";
    }
    return "runtime";
  } finally {
    close();
  }
}

/** The summary of the file read whole (every job in memory): the errors in the command's words. */
async function wholeSummary(path: string, o: ReadOptions): Promise<Summarized> {
  const trace: TraceFile = await readTraceFile("inspect", path, o);
  requireJobs("inspect", path, trace.jobs.length, trace.swf?.report, {
    estimate: trace.estimate ?? "requested",
    commandOptions: o.commandOptions,
  });
  const summarizer = new WorkloadSummarizer();
  for (const j of trace.jobs) summarizer.add(j);
  const declared = declaredProcs(trace);
  return {
    trace,
    summarizer,
    declared,
    procsFrom: declaredFrom(declared, trace.format, trace.swf?.header),
  };
}
