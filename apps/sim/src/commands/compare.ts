import { type CommandSpec, choiceValue, flag, requirePositionals, stringOption } from "../args.js";
import type { Command } from "../command.js";
import type { ParamValue } from "../experiments/parameters.js";
import { toCsv } from "../format.js";
import { COMPARE_FORMATS, comparisonRows, renderComparison } from "../sweep/compare.js";
import { parameterNote } from "../sweep/parameter-notes.js";
import {
  readSweepDir,
  type SweepDir,
  summarizeSweep,
  summarizeTiming,
  TIMING_HEADING,
  TIMING_METRICS,
} from "../sweep/results.js";
import {
  missingNote,
  missingRuns,
  readShardStatuses,
  shardCountOf,
  shardOf,
} from "../sweep/shard.js";
import { UsageError } from "../usage-error.js";

const spec: CommandSpec = {
  name: "compare",
  summary: "Compare the schedulers of a sweep: mean and 95% CI per point, the best marked.",
  description:
    "Reads a results directory written by 'sweep' or 'reproduce --out' (finished runs only; a\n" +
    "sweep still running or interrupted is compared on what it has) and prints one row per\n" +
    "grid point x scheduler: each metric's mean ± the half-width of its Student-t 95%\n" +
    "confidence interval over seeds, the best scheduler at each point marked per metric (*, or\n" +
    "bold in markdown, best=true in csv/json). Missing and failed runs are reported on stderr\n" +
    "(how many, the shard they belong to, the first ten by key and parameters). Shards and queue\n" +
    "workers all write into one folder: a run is counted once, by its key.\n\n" +
    "--timing compares the wall-clock measurements instead (timing.csv's metrics: schedTimeMs =\n" +
    "scheduler ms per scheduling call (plan), schedulerMs, wallMs), from the run files' timing\n" +
    "blocks (runs-timing.csv in a folder without runs/), so the same numbers as timing.csv once\n" +
    "the sweep is done. They are NOT deterministic: another execution of the same sweep gives\n" +
    "other numbers.",
  options: [
    {
      name: "format",
      short: "f",
      type: "string",
      arg: "table|csv|json|markdown",
      description: "Output format (default table).",
    },
    {
      name: "timing",
      short: "t",
      type: "boolean",
      description:
        "Compare the wall-clock timing (schedTimeMs, schedulerMs, wallMs; timing.csv) instead of the metrics.",
    },
    {
      name: "missing",
      type: "boolean",
      description:
        "Print the runs with no result instead, as CSV: key,scheduler,<param>...,seed,shard,status,error.",
    },
  ],
  positionals: [{ name: "dir", description: "Results directory.", required: true }],
  examples: [
    "sched-sim compare results/load",
    "sched-sim compare results/load --format markdown > comparison.md",
    "sched-sim compare results/load --format csv > comparison.csv",
    "sched-sim compare results/load --timing",
    "sched-sim compare results/load --missing",
  ],
};

/** What stderr says when the runs were read from `runs.csv` (a folder with no `runs/`). */
function runsCsvNote(dir: string, timing: boolean, timingSource: SweepDir["timingSource"]): string {
  if (!timing) return `note: ${dir} has no runs/ folder; the runs were read from runs.csv\n`;
  switch (timingSource) {
    case "runs-timing.csv":
      return `note: ${dir} has no runs/ folder; the runs were read from runs.csv, their timing from runs-timing.csv\n`;
    case "timing.csv":
      return `note: ${dir} has no runs/ folder; the timing is timing.csv's, as the sweep wrote it\n`;
    default:
      return `note: ${dir} has no runs/ folder, runs-timing.csv nor timing.csv; runs.csv holds no timing, so none is shown\n`;
  }
}

/** `sched-sim compare`. */
export const compareCommand: Command = {
  spec,
  async run(args, io) {
    requirePositionals(spec, args);
    const formatText = stringOption(args, "format");
    const format =
      formatText === undefined
        ? "table"
        : choiceValue("compare", "format", formatText, COMPARE_FORMATS);
    const dir = args.positionals[0] as string;
    const { plan, records, failures, timings, source, timingSource, timingRows } =
      await readSweepDir(dir, "compare");
    const missing = missingRuns(plan, records, failures);
    const statuses = await readShardStatuses(dir);
    if (flag(args, "missing")) {
      for (const other of ["format", "timing"]) {
        if (args.values[other] !== undefined) {
          throw new UsageError(
            `compare: options --missing and --${other} exclude each other`,
            "compare",
          );
        }
      }
      const n = shardCountOf(statuses);
      io.stdout(
        toCsv(
          ["key", "scheduler", ...plan.params, "seed", "shard", "status", "error"],
          missing.map((m) => [
            m.task.key,
            m.scheduler,
            ...plan.params.map((p) => m.task.params[p] as ParamValue),
            m.task.seed,
            n === undefined ? "" : `${shardOf(m.position, n)}/${n}`,
            m.error === undefined ? "missing" : "failed",
            m.error ?? "",
          ]),
        ),
      );
      return 0;
    }
    if (flag(args, "timing")) {
      // timingRows: timing.csv's summaries, for a folder read from runs.csv without runs-timing.csv
      const summary = timingRows ?? summarizeTiming(plan, records, timings);
      const rows = comparisonRows(plan, summary, TIMING_METRICS);
      io.stdout(renderComparison(plan, rows, format, TIMING_METRICS, TIMING_HEADING));
    } else {
      const rows = comparisonRows(plan, summarizeSweep(plan, records));
      io.stdout(renderComparison(plan, rows, format));
    }
    if (source === "runs.csv") io.stderr(runsCsvNote(dir, flag(args, "timing"), timingSource));
    io.stderr(parameterNote(plan));
    io.stderr(missingNote(plan, dir, missing, statuses));
    return 0;
  },
};
