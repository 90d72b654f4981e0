import { type CommandSpec, choiceValue, requirePositionals, stringOption } from "../args.js";
import type { Command } from "../command.js";
import { COMPARE_FORMATS, comparisonRows, renderComparison } from "../sweep/compare.js";
import { readSweepDir, summarizeSweep } from "../sweep/results.js";

const spec: CommandSpec = {
  name: "compare",
  summary: "Compare the schedulers of a sweep: mean and 95% CI per point, the best marked.",
  description:
    "Reads a results directory written by 'sweep' or 'reproduce --out' (finished runs only; a\n" +
    "sweep still running or interrupted is compared on what it has) and prints one row per\n" +
    "grid point x scheduler: each metric's mean ± the half-width of its Student-t 95%\n" +
    "confidence interval over seeds, the best scheduler at each point marked per metric (*, or\n" +
    "bold in markdown, best=true in csv/json). Missing and failed runs are reported on stderr.",
  options: [
    {
      name: "format",
      short: "f",
      type: "string",
      arg: "table|csv|json|markdown",
      description: "Output format (default table).",
    },
  ],
  positionals: [{ name: "dir", description: "Results directory.", required: true }],
  examples: [
    "sched-sim compare results/load",
    "sched-sim compare results/load --format markdown > comparison.md",
    "sched-sim compare results/load --format csv | column -s, -t",
  ],
};

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
    const { plan, records, failures } = await readSweepDir(dir, "compare");
    const rows = comparisonRows(plan, summarizeSweep(plan, records));
    io.stdout(renderComparison(plan, rows, format));
    const total = plan.points.length * plan.seeds.length * plan.schedulers.length;
    if (records.length < total) {
      io.stderr(
        `note: ${total - records.length} of ${total} runs have no result${failures.length > 0 ? ` (${failures.length} failed)` : ""}; run the sweep again to finish them\n`,
      );
    }
    return 0;
  },
};
