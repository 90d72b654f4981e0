import { stat } from "node:fs/promises";
import { join } from "node:path";
import { computeMetrics, identicalPool, type Job, ParseError, simulate } from "@sched/core";
import {
  type CommandSpec,
  choiceValue,
  flag,
  integerValue,
  listOption,
  stringOption,
} from "../args.js";
import { describeFsError, writeFilesAtomic } from "../atomic.js";
import type { Command } from "../command.js";
import { inCallersWords } from "../hints.js";
import { MAX_PROCS } from "../limits.js";
import { jobsCsv, metricsJson, metricsTable, timingJson } from "../outputs.js";
import { chooseScheduler, optionsForReport, schedulersHelp } from "../schedulers.js";
import { cleanupReportText, readSwfWorkload } from "../swf-input.js";
import { UsageError } from "../usage-error.js";
import { VERSION } from "../version.js";
import { requireJobs } from "./trace-files.js";

const spec: CommandSpec = {
  name: "run",
  summary: "Run one policy on an SWF trace and print (and optionally write) its metrics.",
  description:
    "Reads the trace as a stream (gzip recognised by its content), converts it to jobs (size =\n" +
    "allocated processors, or requested when unknown; estimate = requested time), simulates it\n" +
    "on N identical single-processor machines and prints the metrics. N is --procs, else the\n" +
    "header's MaxProcs, else its MaxNodes.\n\n" +
    "With --out DIR it writes DIR/jobs.csv, DIR/metrics.json (deterministic: the same run gives\n" +
    "the same bytes) and DIR/timing.json (wall clock), atomically (all or nothing; a failed run\n" +
    "leaves files already there untouched).\n\n" +
    schedulersHelp(),
  options: [
    {
      name: "scheduler",
      short: "s",
      type: "string",
      arg: "NAME",
      description: "Policy to run (default fcfs).",
    },
    {
      name: "opt",
      type: "string",
      arg: "KEY=VALUE",
      multiple: true,
      description: "An option of the policy.",
    },
    {
      name: "workload",
      short: "w",
      type: "string",
      arg: "FILE",
      description: "SWF trace, plain or gzipped (required).",
    },
    {
      name: "procs",
      short: "p",
      type: "string",
      arg: "N",
      description: "Processors (default: header MaxProcs, else MaxNodes).",
    },
    {
      name: "clean",
      type: "boolean",
      description:
        "Conventional clean-up: drop jobs with run time, size or requested time <= 0, cap run time at requested time; report to stderr.",
    },
    {
      name: "estimate",
      type: "string",
      arg: "requested|runtime",
      description: "Job estimates: requested time (default) or exact run time.",
    },
    {
      name: "out",
      short: "o",
      type: "string",
      arg: "DIR",
      description: "Write DIR/jobs.csv, DIR/metrics.json and DIR/timing.json.",
    },
    {
      name: "format",
      type: "string",
      arg: "table|json",
      description: "Stdout format (default table; json prints metrics.json).",
    },
  ],
  positionals: [],
  examples: [
    "sched-sim run --scheduler fcfs --workload KTH-SP2-1996-2.1-cln.swf --clean --out out/kth",
    "sched-sim run -w NASA-iPSC-1993-3.1-cln.swf.gz --estimate runtime --format json",
  ],
};

/** `sched-sim run`. */
export const runCommand: Command = {
  spec,
  async run(args, io) {
    const started = performance.now();
    const workload = stringOption(args, "workload");
    if (workload === undefined) {
      throw new UsageError("run: option --workload FILE is required", "run");
    }
    const choice = chooseScheduler(
      stringOption(args, "scheduler") ?? "fcfs",
      listOption(args, "opt"),
      "run",
    );
    const procsText = stringOption(args, "procs");
    const procsOption =
      procsText === undefined ? undefined : integerValue("run", "procs", procsText, 1, MAX_PROCS);
    const clean = flag(args, "clean");
    const estimate = choiceValue("run", "estimate", stringOption(args, "estimate") ?? "requested", [
      "requested",
      "runtime",
    ] as const);
    const format = choiceValue("run", "format", stringOption(args, "format") ?? "table", [
      "table",
      "json",
    ] as const);
    const out = stringOption(args, "out");
    await checkFile(workload);
    if (out !== undefined) await checkOutDir(out);

    const commandOptions = spec.options.map((o) => o.name);
    const read = await readSwfWorkload(workload, { clean, estimate, where: "run" }).catch(
      (error: unknown) => {
        // The library's hint speaks of its API; on the command line the same switch is --clean.
        throw inCallersWords(error, { command: "run", options: commandOptions });
      },
    );
    const { header, report } = read;
    let jobs = read.jobs;
    if (!isSortedBySubmit(jobs)) {
      io.stderr(
        `sched-sim: note: ${workload} is not sorted by submit time; sorting it (by submit, then id)\n`,
      );
      jobs = [...jobs].sort((a, b) => a.submit - b.submit || a.id - b.id);
    }
    if (clean) io.stderr(cleanupReportText(report, clean));
    // Nothing to simulate: a table of zero jobs would look like a result (inspect says the same).
    requireJobs("run", workload, jobs.length, report, { estimate, commandOptions });
    const declared = header?.maxProcs ?? header?.maxNodes;
    if (procsOption === undefined && declared !== undefined && declared > MAX_PROCS) {
      throw new ParseError(
        "run",
        {
          source: workload,
          field: `header ${header?.maxProcs === undefined ? "MaxNodes" : "MaxProcs"}`,
        },
        `is ${declared}, above the ${MAX_PROCS} processors a simulated machine may have; give a smaller one with --procs N`,
      );
    }
    const procs = procsOption ?? declared;
    if (procs === undefined) {
      throw new UsageError(
        `run: ${workload} has no MaxProcs or MaxNodes header line; give the machine size with --procs N`,
        "run",
      );
    }
    const tooWide = jobs.filter((j) => j.cores > procs);
    if (tooWide.length > 0) {
      io.stderr(
        `sched-sim: warning: ${tooWide.length} job(s) need more than the ${procs} processors (the first is job ${tooWide[0]?.id} with ${tooWide[0]?.cores}); the @sched/backfill policies reject them\n`,
      );
    }

    const trace = simulate(jobs, identicalPool(procs), choice.entry.create(choice.options));
    const metrics = computeMetrics(trace);
    const json = metricsJson(trace, metrics, {
      scheduler: choice.entry.name,
      schedulerOptions: optionsForReport(choice.options),
      workload,
      procs,
      clean,
      version: VERSION,
    });
    if (out !== undefined) {
      await writeFilesAtomic(
        new Map([
          [join(out, "jobs.csv"), jobsCsv(trace)],
          [join(out, "metrics.json"), json],
          [join(out, "timing.json"), timingJson(trace, performance.now() - started)],
        ]),
      );
    }
    if (format === "json") io.stdout(json);
    else {
      io.stdout(`${workload}: ${jobs.length} jobs on ${procs} processors\n\n`);
      io.stdout(metricsTable([{ label: choice.label, metrics }]));
    }
    if (out !== undefined)
      io.stderr(
        `wrote ${join(out, "jobs.csv")}, ${join(out, "metrics.json")} and ${join(out, "timing.json")}\n`,
      );
    return 0;
  },
};

function isSortedBySubmit(jobs: readonly Job[]): boolean {
  for (let i = 1; i < jobs.length; i++) {
    if ((jobs[i] as Job).submit < (jobs[i - 1] as Job).submit) return false;
  }
  return true;
}

async function checkFile(path: string): Promise<void> {
  let isFile: boolean;
  try {
    isFile = (await stat(path)).isFile();
  } catch (error) {
    throw new UsageError(`run: option --workload ${path}: ${describeFsError(error)}`, "run");
  }
  if (!isFile) throw new UsageError(`run: option --workload ${path}: not a file`, "run");
}

async function checkOutDir(path: string): Promise<void> {
  try {
    if (!(await stat(path)).isDirectory()) {
      throw new UsageError(`run: option --out ${path}: exists and is not a directory`, "run");
    }
  } catch (error) {
    if (error instanceof UsageError) throw error;
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") {
      throw new UsageError(`run: option --out ${path}: ${describeFsError(error)}`, "run");
    }
  }
}
