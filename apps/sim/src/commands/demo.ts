import {
  createSimulation,
  identicalPool,
  type Job,
  type Metrics,
  type Platform,
  type Scheduler,
} from "@sched/core";
import { type CommandSpec, choiceValue, integerValue, realValue, stringOption } from "../args.js";
import type { Command } from "../command.js";
import { type JsonValue, stableJson } from "../format.js";
import { MAX_GENERATED_JOBS, MAX_PROCS } from "../limits.js";
import { checkSummaryNoLostJobs, LostJobsNote } from "../lost-jobs.js";
import { deterministicMetrics, type MetricsRow, metricsTable } from "../outputs.js";
import { PROGRESS_OPTIONS, type RunProgress, runProgress } from "../run-progress.js";
import { COMPARED_SCHEDULERS, comparedSchedulers } from "../schedulers.js";
import { SYNTHETIC_DESCRIPTION, syntheticWorkload } from "../synthetic.js";
import { UsageError } from "../usage-error.js";

const spec: CommandSpec = {
  name: "demo",
  summary: "Compare the policies on an embedded synthetic workload: a metrics table.",
  description:
    "Needs no files: the workload is generated from a seed (see 'Workload' below), so the same\n" +
    `options print the same table on every machine. The policies ${COMPARED_SCHEDULERS.join(", ")}\n` +
    "run on the same jobs on a pool of identical processors.\n\n" +
    `Workload: ${SYNTHETIC_DESCRIPTION}.`,
  options: [
    { name: "jobs", type: "string", arg: "N", description: "Number of jobs (default 2000)." },
    { name: "procs", type: "string", arg: "N", description: "Processors (default 128)." },
    {
      name: "load",
      type: "string",
      arg: "X",
      description: "Offered load, in (0, 10] (default 0.5).",
    },
    { name: "seed", type: "string", arg: "N", description: "Generator seed (default 1)." },
    {
      name: "format",
      type: "string",
      arg: "table|json",
      description: "Output format (default table).",
    },
    ...PROGRESS_OPTIONS,
  ],
  positionals: [],
  examples: ["sched-sim demo", "sched-sim demo --jobs 5000 --load 0.7 --seed 7 --format json"],
};

/** Jobs given to the engine at a time: a point between two for the progress line. */
const CHUNK = 1024;

/**
 * One policy's run of the demo, streamed (`createSimulation`: the same run and metrics, bit for
 * bit, as `computeMetrics(simulate(...))`): the jobs in chunks, so the progress line (when on)
 * sees them read and finish.
 *
 * @throws LostJobsError when the run ends with jobs neither completed nor rejected.
 */
function demoRun(
  jobs: readonly Job[],
  platform: Platform,
  scheduler: Scheduler,
  progress: RunProgress | null,
  label: string,
): Metrics {
  progress?.restart(`demo (${label})`);
  const lost = new LostJobsNote();
  const sim = createSimulation(platform, scheduler, {
    onRecord:
      progress === null
        ? (r) => lost.record(r)
        : (r) => {
            lost.record(r);
            progress.record(r);
          },
  });
  for (let i = 0; i < jobs.length; i += CHUNK) {
    const chunk = jobs.slice(i, i + CHUNK);
    progress?.read(chunk.length);
    sim.push(chunk);
  }
  const summary = sim.end();
  const metrics = summary.metrics!;
  checkSummaryNoLostJobs("demo", summary, lost.ids);
  return metrics;
}

/** `sched-sim demo`. */
export const demoCommand: Command = {
  spec,
  async run(args, io) {
    const jobsText = stringOption(args, "jobs");
    const procsText = stringOption(args, "procs");
    const seedText = stringOption(args, "seed");
    const loadText = stringOption(args, "load");
    const n =
      jobsText === undefined ? 2000 : integerValue("demo", "jobs", jobsText, 1, MAX_GENERATED_JOBS);
    const procs =
      procsText === undefined ? 128 : integerValue("demo", "procs", procsText, 1, MAX_PROCS);
    const seed = seedText === undefined ? 1 : integerValue("demo", "seed", seedText, 0);
    const load =
      loadText === undefined
        ? 0.5
        : realValue("demo", "load", loadText, { min: 0, minExclusive: true, max: 10 });
    const format = choiceValue("demo", "format", stringOption(args, "format") ?? "table", [
      "table",
      "json",
    ] as const);
    const progress = runProgress(args, io, "demo");

    let jobs: Job[];
    try {
      jobs = syntheticWorkload({ jobs: n, procs, load, seed });
    } catch (error) {
      if (!(error instanceof RangeError)) throw error;
      throw new UsageError(`demo: option --load: ${error.message}`, "demo");
    }
    const platform = identicalPool(procs);
    let rows: MetricsRow[];
    try {
      rows = comparedSchedulers().map((choice) => ({
        label: choice.label,
        metrics: demoRun(
          jobs,
          platform,
          choice.entry.create(choice.options),
          progress,
          choice.label,
        ),
      }));
    } finally {
      progress?.end();
    }
    const workload = { generator: SYNTHETIC_DESCRIPTION, jobs: n, procs, load, seed };
    if (format === "json") {
      const doc: JsonValue = {
        workload,
        results: rows.map((r) => ({ policy: r.label, ...deterministicMetrics(r.metrics) })),
      };
      io.stdout(stableJson(doc));
    } else {
      io.stdout(
        `Synthetic workload (seed ${seed}): ${n} jobs on ${procs} processors, offered load ${load}\n\n`,
      );
      io.stdout(metricsTable(rows));
    }
    return 0;
  },
};
