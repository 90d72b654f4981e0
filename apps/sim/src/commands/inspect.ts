import { type Distribution, summarizeJobs, type WorkloadSummary } from "@sched/workload";
import {
  type CommandSpec,
  choiceValue,
  flag,
  integerValue,
  requirePositionals,
  stringOption,
} from "../args.js";
import type { Command } from "../command.js";
import { fixed, type JsonValue, renderTable, stableJson } from "../format.js";
import { MAX_PROCS } from "../limits.js";
import { declaredProcs, readTraceFile, requireJobs, type TraceFile } from "./trace-files.js";

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
  trace: TraceFile,
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
  trace: TraceFile,
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
    const estimate =
      estimateText === undefined
        ? "auto"
        : choiceValue("inspect", "estimate", estimateText, ["requested", "runtime"] as const);
    const commandOptions = spec.options.map((o) => o.name);
    const trace = await readTraceFile("inspect", path, {
      clean: flag(args, "clean"),
      estimate,
      commandOptions,
    });
    requireJobs("inspect", path, trace.jobs.length, trace.swf?.report, {
      estimate: trace.estimate ?? "requested",
      commandOptions,
    });
    const declared = declaredProcs(trace);
    const procs = procsOption ?? declared;
    const procsFrom =
      procsOption !== undefined
        ? "--procs"
        : declared === undefined
          ? "none"
          : trace.format === "jsonl"
            ? "header meta.procs"
            : trace.swf?.header.maxProcs === declared
              ? "header MaxProcs"
              : "header MaxNodes";
    const summary = summarizeJobs(trace.jobs, procs === undefined ? {} : { procs });
    io.stdout(
      flag(args, "json")
        ? stableJson(inspectJson(path, trace, procs, procsFrom, summary))
        : inspectText(path, trace, procs, procsFrom, summary),
    );
    return 0;
  },
};
