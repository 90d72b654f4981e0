import { availableParallelism } from "node:os";
import { type CommandSpec, flag, integerValue, requirePositionals, stringOption } from "../args.js";
import type { Command } from "../command.js";
import { schedulersHelp } from "../schedulers.js";
import { driveSweep } from "../sweep/drive.js";
import { readExperimentFile } from "../sweep/experiment-file.js";
import { UsageError } from "../usage-error.js";

const spec: CommandSpec = {
  name: "sweep",
  summary: "Run an experiment file's grid (parameters x policies x seeds) in parallel, resumably.",
  description:
    "Reads the experiment file (JSON: name, workload, platform, schedulers, grid, seeds,\n" +
    "metrics; see the README), runs every (grid point, seed, policy) on --jobs worker threads\n" +
    "and writes each run's result atomically to DIR/runs/KEY.json as it finishes, so a sweep\n" +
    "killed at any moment and started again with the same command skips finished runs.\n" +
    "Failed runs go to DIR/failed/KEY.json and are tried again on restart. At the end it writes\n" +
    "DIR/results.csv (mean, 95% CI over seeds) and DIR/runs.csv, and prints the summary table.\n" +
    "A progress line (runs done, to go, time left) is shown on a terminal, unless --quiet.\n\n" +
    schedulersHelp(),
  options: [
    {
      name: "out",
      short: "o",
      type: "string",
      arg: "DIR",
      description: "Results directory (required; created if missing, resumed if it exists).",
    },
    {
      name: "jobs",
      short: "j",
      type: "string",
      arg: "N",
      description: "Worker threads (default: one per core).",
    },
    {
      name: "json",
      type: "boolean",
      description: "Print the summary (and failures) as JSON on stdout, for scripts.",
    },
    {
      name: "quiet",
      short: "q",
      type: "boolean",
      description: "No progress line, no summary line.",
    },
  ],
  positionals: [{ name: "file", description: "Experiment file (JSON).", required: true }],
  examples: [
    "sched-sim sweep experiments/load.json --out results/load",
    "sched-sim sweep experiments/load.json --out results/load --jobs 2 --quiet",
    "sched-sim compare results/load",
  ],
};

/** Default worker threads: one per core. */
export function defaultJobs(): number {
  return availableParallelism();
}

/** `sched-sim sweep`. */
export const sweepCommand: Command = {
  spec,
  async run(args, io) {
    requirePositionals(spec, args);
    const out = stringOption(args, "out");
    if (out === undefined) {
      throw new UsageError("sweep: option --out DIR is required (where results go)", "sweep");
    }
    const jobsText = stringOption(args, "jobs");
    const jobs =
      jobsText === undefined ? defaultJobs() : integerValue("sweep", "jobs", jobsText, 1, 256);
    const plan = await readExperimentFile(args.positionals[0] as string);
    const { code } = await driveSweep(plan, io, {
      out,
      jobs,
      quiet: flag(args, "quiet"),
      json: flag(args, "json"),
    });
    return code;
  },
};
