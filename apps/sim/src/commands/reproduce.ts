import { join } from "node:path";
import {
  type CommandSpec,
  flag,
  integerValue,
  requirePositionals,
  stringOption,
  suggest,
} from "../args.js";
import { writeFilesAtomic } from "../atomic.js";
import type { Command } from "../command.js";
import { EXPERIMENTS } from "../experiments/registry.js";
import { resultsCsv, resultsTable, runExperiment, runsCsv } from "../experiments/runner.js";
import { renderTable, wrap } from "../format.js";
import { UsageError } from "../usage-error.js";

const spec: CommandSpec = {
  name: "reproduce",
  summary: "Run a named experiment (a grid of parameter values x policies x seeds).",
  description:
    "Prints, per policy and parameter value, each metric's mean and Student-t 95% confidence\n" +
    "half-width over the seeds (seeds 1..N). With --out DIR it writes DIR/results.csv (tidy:\n" +
    "scheduler,param,paramValue,metric,mean,ci95,runs; ci95 empty with one seed) and\n" +
    "DIR/runs.csv (every run: scheduler,param,paramValue,seed,metric,value), atomically.\n" +
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
      description: "Write DIR/results.csv and DIR/runs.csv.",
    },
  ],
  positionals: [
    { name: "experiment", description: "Experiment name (see --list).", required: true },
  ],
  examples: [
    "sched-sim reproduce --list",
    "sched-sim reproduce fcfs-load --quick",
    "sched-sim reproduce fcfs-load --seeds 20 --out results/fcfs-load",
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
    const out = stringOption(args, "out");

    const started = Date.now();
    const progress = io.progress;
    const { runs, rows } = runExperiment(experiment, {
      quick,
      seeds,
      ...(progress
        ? {
            onRun: (done: number, total: number) =>
              progress(`${experiment.name}: ${done}/${total} runs`),
          }
        : {}),
    });
    progress?.("");
    io.stdout(`${experiment.name}: ${experiment.title}\n${wrap(experiment.description)}\n\n`);
    io.stdout(resultsTable(experiment, rows));
    if (out !== undefined) {
      await writeFilesAtomic(
        new Map([
          [join(out, "results.csv"), resultsCsv(rows)],
          [join(out, "runs.csv"), runsCsv(experiment, runs)],
        ]),
      );
      io.stderr(`wrote ${join(out, "results.csv")} and ${join(out, "runs.csv")}\n`);
    }
    io.stderr(`${runs.length} runs in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
    return 0;
  },
};
