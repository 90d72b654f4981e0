import { stat } from "node:fs/promises";
import { basename } from "node:path";
import { InvalidInputError, type Job, ParseError, SchedError } from "@sched/core";
import { formatJobsJsonl, formatSwf, jobsToSwf } from "@sched/workload";
import {
  type CommandSpec,
  choiceValue,
  flag,
  integerValue,
  requirePositionals,
  stringOption,
} from "../args.js";
import { describeFsError, writeFilesAtomic } from "../atomic.js";
import { batsimToJobs, jobsToBatsim } from "../batsim.js";
import type { Command, Io } from "../command.js";
import { MAX_JSON_BYTES, MAX_PROCS } from "../limits.js";
import { checkOutPath } from "../out-path.js";
import { printable } from "../printable.js";
import { cleanupReportText, readTextFile } from "../swf-input.js";
import { UsageError } from "../usage-error.js";
import { inCommand } from "../user-message.js";
import { VERSION } from "../version.js";
import {
  addSwfDroppedKeys,
  type Conversion,
  type StreamConversion,
  streamConvert,
} from "./convert-stream.js";
import { declaredProcs, readTraceFile, requireJobs } from "./trace-files.js";

const FORMATS = ["swf", "native", "batsim"] as const;
type Format = (typeof FORMATS)[number];

const spec: CommandSpec = {
  name: "convert",
  summary: "Convert a workload between SWF, the native jobs format and Batsim's JSON.",
  description:
    "Formats: swf (the Standard Workload Format; gzip read by content), native (@sched/workload's\n" +
    "JSON lines: a header line, then one job per line) and batsim (Batsim's JSON workload: nb_res,\n" +
    "jobs, delay profiles). --from is guessed from the name (.swf, .swf.gz -> swf; .jsonl ->\n" +
    "native; .json -> batsim) when not given, and so is --to from --out's name. The output goes to --out (atomically) or stdout.\n" +
    "SWF and native input is streamed, to any format, to --out or stdout: memory does not grow\n" +
    "with the trace (the input file is read once into a file, twice to stdout: first checked,\n" +
    "then written; twice to SWF). Batsim input, and input that is not a regular file (a pipe),\n" +
    "are read whole.\n" +
    "What the target format cannot hold (deadlines, licenses, users, ... in Batsim's format;\n" +
    "Batsim profiles other than 'delay' have no run time) is named on stderr.",
  options: [
    {
      name: "to",
      short: "t",
      type: "string",
      arg: "swf|native|batsim",
      description: "Output format (default: from the --out name, like --from).",
    },
    {
      name: "from",
      short: "f",
      type: "string",
      arg: "swf|native|batsim",
      description: "Input format (default: from the file name).",
    },
    {
      name: "out",
      short: "o",
      type: "string",
      arg: "FILE",
      description: "Output file (default stdout).",
    },
    {
      name: "procs",
      short: "p",
      type: "string",
      arg: "N",
      description:
        "Machine size for the output header / nb_res (default: the input's, else the widest job).",
    },
    {
      name: "clean",
      type: "boolean",
      description: "SWF input: the conventional clean-up (see 'run --help').",
    },
    {
      name: "estimate",
      type: "string",
      arg: "requested|runtime",
      description:
        "SWF input: job estimates from the requested time (default) or the run time (for logs without requested times).",
    },
  ],
  positionals: [{ name: "input", description: "Workload file.", required: true }],
  examples: [
    "sched-sim convert trace.swf.gz --to batsim --out workload.json",
    "sched-sim convert workload.json --out trace.swf",
    "sched-sim convert trace.swf --to native --clean > jobs.jsonl",
    "sched-sim convert NASA-iPSC-1993-3.1-cln.swf.gz --clean --estimate runtime --to native",
  ],
};

function guessFormat(path: string): Format | undefined {
  if (/\.swf(\.gz)?$/i.test(path)) return "swf";
  if (/\.jsonl$/i.test(path)) return "native";
  if (/\.json$/i.test(path)) return "batsim";
  return undefined;
}

/** `sched-sim convert`. */
export const convertCommand: Command = {
  spec,
  async run(args, io) {
    requirePositionals(spec, args);
    const input = args.positionals[0] as string;
    const toText = stringOption(args, "to");
    const outName = stringOption(args, "out");
    if (outName !== undefined) await checkOutPath("convert", "out", outName, "file");
    const to =
      toText === undefined
        ? outName === undefined
          ? undefined
          : guessFormat(outName)
        : choiceValue("convert", "to", toText, FORMATS);
    if (to === undefined) {
      throw new UsageError(
        outName === undefined
          ? "convert: give --to swf|native|batsim (or an --out FILE whose name tells the format)"
          : `convert: cannot tell the output format from the name ${outName}; give --to swf|native|batsim`,
        "convert",
      );
    }
    const fromText = stringOption(args, "from");
    const from =
      fromText === undefined
        ? guessFormat(input)
        : choiceValue("convert", "from", fromText, FORMATS);
    if (from === undefined) {
      throw new UsageError(
        `convert: cannot tell the format of ${input} from its name; give --from swf|native|batsim`,
        "convert",
      );
    }
    const procsText = stringOption(args, "procs");
    const procsOption =
      procsText === undefined
        ? undefined
        : integerValue("convert", "procs", procsText, 1, MAX_PROCS);
    const clean = flag(args, "clean");
    if (clean && from !== "swf")
      throw new UsageError("convert: --clean applies to SWF input only", "convert");
    const estimateText = stringOption(args, "estimate");
    if (estimateText !== undefined && from !== "swf")
      throw new UsageError("convert: --estimate applies to SWF input only", "convert");
    const estimate = choiceValue("convert", "estimate", estimateText ?? "requested", [
      "requested",
      "runtime",
    ] as const);

    const conversion: Conversion = {
      input,
      from,
      to,
      out: outName,
      procs: procsOption,
      clean,
      estimate,
      commandOptions: spec.options.map((o) => o.name),
      meta: { source: basename(input), sourceFormat: from, convertedBy: `sched-sim ${VERSION}` },
    };
    if (from !== "batsim" && (await isRegularFile(input))) {
      // Streamed in two passes over the file (memory does not grow with the trace); the
      // whole-trace path below when the first pass fails, to say what is wrong in its words.
      try {
        if (await streamConvert(conversion as StreamConversion, io)) return 0;
      } catch (error) {
        throw inCommand(error, "convert");
      }
    }
    await convertWhole(conversion, io);
    return 0;
  },
};

/**
 * A job of `input` that SWF cannot hold (`jobsToSwf` refused it: a negative user, say), in
 * convert's words: the file, the job and its field, and that `--to swf` is what cannot write it.
 * Any other error as it is.
 */
export function jobSwfCannotHold(input: string, error: unknown): unknown {
  if (!(error instanceof InvalidInputError) || error.where !== "@sched/workload/jobsToSwf") {
    return error;
  }
  if (!error.field.startsWith("job ")) return error;
  const prefix = `${error.where}: ${error.field} `;
  const detail = error.message.startsWith(prefix)
    ? error.message.slice(prefix.length)
    : error.message;
  return new ParseError(
    "convert",
    { source: input, field: error.field },
    `${detail} (--to swf cannot write this job)`,
  );
}

/** Whether `path` is a regular file (read twice by a streamed conversion; not a pipe). */
async function isRegularFile(path: string): Promise<boolean> {
  return stat(path).then(
    (s) => s.isFile(),
    () => false,
  );
}

/**
 * `convert` with the whole trace in memory: every job read, then the output built as one string.
 * For Batsim's JSON input (read whole), input that is not a regular file,
 * and the words of an error the streamed path's first pass met (the same file:line).
 */
export async function convertWhole(c: Conversion, io: Io): Promise<void> {
  let jobs: readonly Job[];
  let procs: number | undefined;
  if (c.from === "batsim") {
    let text: string;
    try {
      text = await readTextFile(c.input, { where: "convert", maxBytes: MAX_JSON_BYTES });
    } catch (error) {
      if (error instanceof SchedError) throw error;
      throw new UsageError(`convert: cannot read ${c.input}: ${describeFsError(error)}`, "convert");
    }
    const b = batsimToJobs(text, c.input, "convert");
    jobs = b.jobs;
    procs = b.nbRes;
    if (b.withoutWalltime > 0) {
      io.stderr(
        `note: ${b.withoutWalltime} of ${jobs.length} jobs have no walltime (no limit in Batsim); their estimate is their run time\n`,
      );
    }
    if (b.ignoredFields.length > 0) {
      io.stderr(`note: job fields not carried over: ${b.ignoredFields.join(", ")}\n`);
    }
    requireJobs("convert", c.input, jobs.length);
  } else {
    // SWF and the native format are read as every command reads them (gzip by content, the
    // same line ends and limits): what inspect reads, convert reads.
    const trace = await readTraceFile("convert", c.input, {
      format: c.from === "swf" ? "swf" : "jsonl",
      clean: c.clean,
      estimate: c.estimate,
      commandOptions: c.commandOptions,
    });
    if (c.clean && trace.swf !== undefined) io.stderr(cleanupReportText(trace.swf.report, c.clean));
    requireJobs("convert", c.input, trace.jobs.length, trace.swf?.report, {
      estimate: c.estimate,
      commandOptions: c.commandOptions,
    });
    jobs = trace.jobs;
    procs = declaredProcs(trace);
  }
  const size = c.procs ?? procs ?? jobs.reduce((m, j) => Math.max(m, j.cores), 0);
  let output: string;
  let dropped: readonly string[] = [];
  if (c.to === "swf") {
    let trace: ReturnType<typeof jobsToSwf>;
    try {
      trace = jobsToSwf(jobs, { maxProcs: size });
    } catch (error) {
      throw jobSwfCannotHold(c.input, error);
    }
    output = formatSwf(trace.header, trace.records);
    const keys = new Set<string>();
    for (const j of jobs) addSwfDroppedKeys(keys, j);
    dropped = [...keys].sort();
  } else if (c.to === "native") {
    output = formatJobsJsonl(jobs, c.meta);
  } else {
    const b = jobsToBatsim(jobs, size);
    output = b.text;
    dropped = b.dropped;
  }
  if (dropped.length > 0) {
    io.stderr(
      `note: the ${c.to} format cannot hold these job fields, dropped: ${dropped.join(", ")}\n`,
    );
  }
  if (c.out === undefined) io.stdout(output);
  else {
    await writeFilesAtomic(new Map([[c.out, output]]));
    io.stderr(`wrote ${jobs.length} jobs to ${printable(c.out)} (${c.to})\n`);
  }
}
