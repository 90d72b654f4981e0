import { join } from "node:path";
import { type CommandSpec, flag, requirePositionals, stringOption, suggest } from "../args.js";
import { writeFilesAtomic } from "../atomic.js";
import type { Command } from "../command.js";
import type { Experiment } from "../experiments/experiment.js";
import { EXPERIMENTS } from "../experiments/registry.js";
import { checkOutPath } from "../out-path.js";
import { printable } from "../printable.js";
import { type ReportRun, reportHtml } from "../report/html.js";
import { GANTT_MAX_JOBS } from "../report/limits.js";
import { comparisonRows } from "../sweep/compare.js";
import {
  createInstanceCache,
  executeTask,
  measureRun,
  simulateTaskPart,
} from "../sweep/execute.js";
import { planTasks, type SweepPlan } from "../sweep/plan.js";
import { asWritten, readSweepDir, type SweepDir, summarizeSweep } from "../sweep/results.js";
import { missingNote, missingRuns, readShardStatuses } from "../sweep/shard.js";
import { UsageError } from "../usage-error.js";
import { VERSION } from "../version.js";

const spec: CommandSpec = {
  name: "report",
  summary: "Write one self-contained HTML report of a sweep: plots, comparison, a Gantt chart.",
  description:
    "Reads a results directory written by 'sweep' or 'reproduce --out' and writes one HTML file\n" +
    "(no network: style, script and SVG inline). For a 'reproduce' experiment it first draws the\n" +
    "paper's figures (the paper's axes, series and captions) with each of the paper's claims and\n" +
    "whether it holds in these results. Then a plot per metric against the first swept parameter\n" +
    "(a line per scheduler with 95% CI error bars; colour, dash pattern and marker per line),\n" +
    "the comparison table, failed runs, and for one run (--run KEY, default the first finished\n" +
    "run) a zoomable Gantt chart of jobs on machines with a machine axis, a time axis and the\n" +
    "utilization strip; when the jobs are too many to draw one by one, it shows how busy each\n" +
    "machine is over time (and the jobs themselves once zoomed in). The run is simulated again\n" +
    "from the experiment (runs are deterministic) and checked against its stored metrics. A run\n" +
    `of more than ${count(GANTT_MAX_JOBS)} jobs is drawn in its first part (the jobs submitted before job ${count(GANTT_MAX_JOBS + 1)}\n` +
    "arrives, up to then), and its metrics are checked in a streamed pass over the whole run.",
  options: [
    {
      name: "out",
      short: "o",
      type: "string",
      arg: "FILE",
      description: "Report file (default DIR/report.html).",
    },
    {
      name: "run",
      short: "r",
      type: "string",
      arg: "KEY",
      description: "Run shown as a Gantt chart (a file name in DIR/runs without .json).",
    },
    { name: "no-gantt", type: "boolean", description: "Leave the Gantt chart out." },
  ],
  positionals: [{ name: "dir", description: "Results directory.", required: true }],
  examples: [
    "sched-sim report results/load",
    "sched-sim report results/load --run easy.load=0.7.s1-b960e76c --out load.html",
  ],
};

/**
 * What stderr says when the runs were read from `runs.csv` (a folder with no `runs/`): where from,
 * and the paper figures' metrics that `runs.csv` does not hold (it holds the sweep's metrics only),
 * which are drawn empty.
 */
function runsCsvNote(
  dir: string,
  plan: SweepPlan,
  experiment: Experiment | undefined,
  timingSource: SweepDir["timingSource"],
): string {
  const lacking = new Map<string, string[]>();
  for (const f of experiment?.figures ?? []) {
    if (f.timing === true || !plan.params.includes(f.x.param)) continue;
    for (const m of [f.metric, ...(f.series ?? []).flatMap((s) => s.metric ?? [])]) {
      if (plan.metrics.includes(m)) continue;
      lacking.set(m, [...(lacking.get(m) ?? []), f.id]);
    }
  }
  const lines = [
    `note: ${dir} has no runs/ folder; the runs were read from runs.csv${timingSource === undefined ? " (and no runs-timing.csv nor timing.csv: the timing figures have no data)" : ` and the timing from ${timingSource}`}`,
  ];
  if (lacking.size > 0) {
    lines.push(
      `note: runs.csv holds the sweep's metrics only (${plan.metrics.join(", ")}); no data for ${[...lacking].map(([m, ids]) => `${m} (${[...new Set(ids)].join(", ")})`).join(", ")}`,
    );
  }
  return `${lines.join("\n")}\n`;
}

/** `n` with a comma between thousands (`1,000,000`), the same on every machine. */
function count(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

/** `sched-sim report`. */
export const reportCommand: Command = {
  spec,
  async run(args, io) {
    requirePositionals(spec, args);
    const dir = args.positionals[0] as string;
    const out = stringOption(args, "out") ?? join(dir, "report.html");
    await checkOutPath("report", "out", out, "file");
    const { plan, records, failures, timings, timingRows, timingSource, ...read } =
      await readSweepDir(dir, "report");
    const tasks = planTasks(plan);
    const wanted = stringOption(args, "run");
    let run: ReportRun | undefined;
    if (!flag(args, "no-gantt")) {
      const done = new Set(records.map((r) => r.key));
      const task =
        wanted === undefined
          ? (tasks.find((t) => done.has(t.key)) ?? tasks[0])
          : tasks.find((t) => t.key === wanted);
      if (task === undefined) {
        const hint =
          wanted === undefined
            ? undefined
            : suggest(
                wanted,
                tasks.map((t) => t.key),
              );
        throw new UsageError(
          `report: option --run: no run '${wanted}' in ${dir}${hint ? ` (did you mean ${hint}?)` : ""}; the keys are the file names in ${join(dir, "runs")}`,
          "report",
        );
      }
      try {
        // Read errors of a trace file say `report:`, the command the user ran.
        const cache = createInstanceCache("report");
        const { trace, cut } = await simulateTaskPart(plan, task, cache, GANTT_MAX_JOBS);
        const notes: string[] = [];
        const stored = records.find((r) => r.key === task.key);
        // A cut run's metrics are those of the whole run, simulated again without its trace.
        const numbers =
          cut === null
            ? await measureRun(plan, task, trace, cache)
            : (await executeTask(plan, task, cache)).record.metrics;
        const again = asWritten({
          ...(stored ?? {
            key: task.key,
            scheduler: "",
            params: task.params,
            seed: task.seed,
            events: 0,
            decisions: 0,
          }),
          metrics: numbers,
        });
        const label = plan.schedulers[task.scheduler]?.label ?? "";
        const point = plan.params
          .map((p) => `${p} = ${task.params[p]}`)
          .concat(`seed ${task.seed}`)
          .join(", ");
        const machines = `${trace.platform.machines.length} machines (${trace.platform.totalCores} cores)`;
        if (cut === null) {
          notes.push(`${label}, ${point}: ${trace.records.length} jobs on ${machines}.`);
        } else {
          const total = numbers.jobs;
          notes.push(
            `${label}, ${point}: ${typeof total === "number" ? count(total) : "the"} jobs on ${machines}. The chart shows the run's first part: the first ${count(cut.jobs)}${typeof total === "number" ? ` of ${count(total)}` : ""} jobs (those submitted before t = ${cut.before}, when the next one arrives), simulated up to just before that time, which is exactly the whole run up to then; jobs still running or waiting then are drawn as unfinished. (The chart of a run of more than ${count(GANTT_MAX_JOBS)} jobs is cut so: the page holds every bar it draws, for zooming.)`,
          );
        }
        if (stored === undefined) {
          notes.push("This run has no stored result yet; it was simulated for this chart.");
        } else {
          const differ = Object.keys(stored.metrics).filter(
            (k) => !Object.is(stored.metrics[k], again.metrics[k]),
          );
          const whole = "the whole run simulated again in a streamed pass (its trace not kept)";
          if (cut === null) {
            notes.push(
              differ.length === 0
                ? "Simulated again for this chart: its metrics equal the stored result."
                : `WARNING: simulated again, ${differ.join(", ")} differ from the stored result (did the code or the trace change since the sweep?).`,
            );
          } else {
            notes.push(
              differ.length === 0
                ? `The metrics check covers ${whole}: its metrics equal the stored result.`
                : `WARNING: ${whole}: ${differ.join(", ")} differ from the stored result (did the code or the trace change since the sweep?).`,
            );
          }
        }
        run = { key: task.key, trace, notes };
      } catch (error) {
        const said = error instanceof Error ? error.message : String(error);
        // A trace's read error is worded as this command's (`report: FILE:3: …`, see the cache
        // above); the line below already says `report:`.
        const message = said.startsWith("report: ") ? said.slice("report: ".length) : said;
        run = {
          key: task.key,
          error: `the run could not be simulated again: ${message}`,
          notes: [],
        };
        io.stderr(`sched-sim: report: no Gantt chart for ${task.key}: ${message}\n`);
      }
    }
    const rows = summarizeSweep(plan, records);
    const source = plan.source;
    const experiment =
      source.kind === "registry"
        ? EXPERIMENTS.find((e) => e.name === source.experiment)
        : undefined;
    const html = reportHtml({
      plan,
      ...(experiment === undefined ? {} : { experiment }),
      records,
      timings,
      ...(timingRows === undefined ? {} : { timingRows }),
      rows,
      comparison: comparisonRows(plan, rows),
      finished: records.length,
      failures,
      run,
      version: VERSION,
    });
    await writeFilesAtomic(new Map([[out, html]]));
    if (read.source === "runs.csv") io.stderr(runsCsvNote(dir, plan, experiment, timingSource));
    io.stderr(
      missingNote(plan, dir, missingRuns(plan, records, failures), await readShardStatuses(dir)),
    );
    io.stderr(`wrote ${printable(out)}\n`);
    return 0;
  },
};
