import {
  type CommandSpec,
  flag,
  integerValue,
  requirePositionals,
  stringOption,
  suggest,
} from "../args.js";
import type { Command } from "../command.js";
import { EXPERIMENTS } from "../experiments/registry.js";
import { renderTable, wrap } from "../format.js";
import { driveSweep, planFromExperiment } from "../sweep/drive.js";
import { UsageError } from "../usage-error.js";
import { defaultJobs } from "./sweep.js";

const spec: CommandSpec = {
  name: "reproduce",
  summary: "Run a named experiment (a grid of parameter values x policies x seeds).",
  description:
    "Runs through the same machinery as 'sweep' (worker threads, resumable results directory)\n" +
    "and prints, per policy and parameter value, each metric's mean and Student-t 95%\n" +
    "confidence half-width over the seeds (seeds 1..N). With --out DIR it writes DIR/runs/,\n" +
    "DIR/results.csv (tidy: scheduler,<param>,metric,mean,ci95,runs; ci95 empty with one seed)\n" +
    "and DIR/runs.csv (every run: key,scheduler,<param>,seed,metric,value), so 'compare' and\n" +
    "'report' read it; a killed reproduction started again resumes. Wall-clock timing\n" +
    "(schedTimeMs = scheduler ms per scheduling call, i.e. per plan; schedulerMs; wallMs) is\n" +
    "not deterministic, so it is printed in a second table marked [wall] and written apart,\n" +
    "to DIR/timing.csv (same columns and rows as results.csv; 'compare DIR --timing').\n" +
    "'sched-sim reproduce --list' lists the experiments.",
  options: [
    { name: "list", short: "l", type: "boolean", description: "List the experiments and exit." },
    {
      name: "quick",
      short: "q",
      type: "boolean",
      description: "Smaller grid and workloads (a smoke test, seconds).",
    },
    {
      name: "seeds",
      type: "string",
      arg: "N",
      description: "Seeds per point (default: the experiment's, e.g. 10, or 3 with --quick).",
    },
    {
      name: "out",
      short: "o",
      type: "string",
      arg: "DIR",
      description:
        "Results directory (runs/, results.csv, runs.csv, timing.csv); resumed if it exists.",
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
    { name: "quiet", type: "boolean", description: "No progress line, no summary line." },
  ],
  positionals: [
    { name: "experiment", description: "Experiment name (see --list).", required: true },
  ],
  examples: [
    "sched-sim reproduce --list",
    "sched-sim reproduce fcfs-load --quick",
    "sched-sim reproduce fcfs-load --seeds 20 --out results/fcfs-load",
    "sched-sim report results/fcfs-load",
  ],
};

/** `sched-sim reproduce`. */
export const reproduceCommand: Command = {
  spec,
  async run(args, io) {
    if (flag(args, "list")) {
      if (args.positionals.length > 0) {
        throw new UsageError("reproduce: --list takes no experiment name", "reproduce");
      }
      io.stdout(
        renderTable(
          [
            { title: "experiment", align: "left" },
            { title: "what it shows", align: "left" },
          ],
          EXPERIMENTS.map((e) => [e.name, e.title]),
        ),
      );
      return 0;
    }
    requirePositionals(spec, args);
    const name = args.positionals[0] as string;
    const experiment = EXPERIMENTS.find((e) => e.name === name);
    if (experiment === undefined) {
      const hint = suggest(
        name,
        EXPERIMENTS.map((e) => e.name),
      );
      throw new UsageError(
        `reproduce: unknown experiment '${name}'${hint ? ` (did you mean ${hint}?)` : ""}; see 'sched-sim reproduce --list'`,
        "reproduce",
      );
    }
    const quick = flag(args, "quick");
    const seedsText = stringOption(args, "seeds");
    const seeds =
      seedsText === undefined
        ? experiment.defaultSeeds(quick)
        : integerValue("reproduce", "seeds", seedsText, 1, 10_000);
    const jobsText = stringOption(args, "jobs");
    const jobs =
      jobsText === undefined ? defaultJobs() : integerValue("reproduce", "jobs", jobsText, 1, 256);
    const out = stringOption(args, "out");
    if (!flag(args, "json")) {
      io.stdout(`${experiment.name}: ${experiment.title}\n${wrap(experiment.description)}\n\n`);
    }
    const { code } = await driveSweep(planFromExperiment(experiment, quick, seeds), io, {
      ...(out === undefined ? {} : { out }),
      jobs,
      quiet: flag(args, "quiet"),
      json: flag(args, "json"),
    });
    return code;
  },
};
