import { existsSync } from "node:fs";
import { join } from "node:path";
import type { Io } from "../command.js";
import type { Experiment } from "../experiments/experiment.js";
import { type Params, type ParamValue, paramText } from "../experiments/parameters.js";
import { type ParameterRequest, resolveParameters } from "../experiments/resolve.js";
import { shortDuration, stableJson } from "../format.js";
import { MAX_RUNS } from "../limits.js";
import { printable } from "../printable.js";
import { optionText } from "../scheduler-options.js";
import { UsageError } from "../usage-error.js";
import { gridPoints, type SweepPlan } from "./plan.js";
import { inlineExecutor, workerExecutor } from "./pool.js";
import {
  resultsTable,
  summarizeSweep,
  summarizeTiming,
  TIMING_HEADING,
  TIMING_METRICS,
  timingTable,
} from "./results.js";
import { type Shard, shardTasks } from "./shard.js";
import { runSweep, type SweepOutcome, type SweepProgress } from "./sweep.js";

/** How a registry experiment is to be run: `reproduce`'s options, or an experiment file's. */
export interface ExperimentRunOptions {
  readonly quick: boolean;
  /** Seeds per point: seeds 1..`seeds`. @defaultValue the experiment's `defaultSeeds(quick)` */
  readonly seeds?: number;
  /** An explicit list of seeds (an experiment file's `seeds: [...]`), instead of 1..N. */
  readonly seedList?: readonly number[];
  /** `--set` and `--vary`, already typed. @defaultValue none */
  readonly request?: ParameterRequest;
  /** Labels of the schedulers to keep, in this order. @defaultValue all, in the experiment's order */
  readonly schedulers?: readonly string[];
  /** Metric keys reported. @defaultValue the experiment's */
  readonly metrics?: readonly string[];
  /** The plan's name, title and description. @defaultValue the experiment's */
  readonly name?: string;
  readonly title?: string;
  readonly description?: string;
  /** The command, for messages. @defaultValue `"reproduce"` */
  readonly command?: string;
}

/**
 * The sweep plan of a registry experiment: its grid (the default one, changed by `--set` and
 * extended by `--vary`), its seeds, its schedulers; every non-swept parameter's value is
 * recorded in `source.parameters`, so the results directory says which readings produced it
 * and a resumed run with other parameters is refused.
 */
export function planFromExperiment(
  experiment: Experiment,
  options: ExperimentRunOptions,
): SweepPlan {
  const { quick } = options;
  const command = options.command ?? "reproduce";
  const request = options.request ?? { set: new Map(), vary: new Map() };
  const { axes, fixed } = resolveParameters(experiment, quick, request, command);
  // never empty: `--vary` refuses an empty list, an experiment file's `grid` too, and
  // checkExperiment (run on every registry experiment by a test) an empty registry axis
  const params = { ...fixed, ...Object.fromEntries(axes.map((a) => [a.name, a.values[0]!])) };
  let choices = experiment.schedulers(params);
  if (options.schedulers !== undefined) {
    choices = options.schedulers.map((label) => {
      const c = choices.find((x) => x.label === label);
      if (c === undefined) {
        throw new UsageError(
          `${command}: experiment '${experiment.name}' has no scheduler '${label}'; it has ${choices.map((x) => x.label).join(", ")}`,
          command,
        );
      }
      return c;
    });
  }
  // checked before the grid is listed: a few long --vary lists would otherwise be billions of points
  const seedCount = options.seedList?.length ?? options.seeds ?? experiment.defaultSeeds(quick);
  const runs = axes.reduce((n, a) => n * a.values.length, 1) * seedCount * choices.length;
  if (runs > MAX_RUNS) {
    throw new UsageError(
      `${command}: ${experiment.name}: the grid (${axes.map((a) => a.values.length).join(" x ") || "1"} points) x ${seedCount} seeds x ${choices.length} schedulers make ${runs} runs, more than the ${MAX_RUNS} a sweep may have`,
      command,
    );
  }
  if (experiment.check !== undefined) {
    for (const point of gridPoints(axes.map((a) => a.values))) {
      const at = { ...fixed, ...Object.fromEntries(axes.map((a, i) => [a.name, point[i]])) };
      const problems = experiment.check(at as Params);
      if (problems.length > 0) {
        const where = axes.map((a, i) => `${a.name}=${paramText(point[i] as ParamValue)}`);
        throw new UsageError(
          `${command}: ${experiment.name}: ${problems.join("; ")}${where.length > 0 ? ` (at ${where.join(", ")})` : ""}`,
          command,
        );
      }
    }
  }
  const seeds =
    options.seedList ??
    Array.from({ length: options.seeds ?? experiment.defaultSeeds(quick) }, (_, i) => i + 1);
  return {
    name: options.name ?? experiment.name,
    title: options.title ?? experiment.title,
    description: options.description ?? experiment.description,
    source: { kind: "registry", experiment: experiment.name, quick, parameters: fixed },
    params: axes.map((a) => a.name),
    points: gridPoints(axes.map((a) => a.values)),
    seeds,
    schedulers: choices.map((c) => ({
      name: c.entry.name,
      opts: Object.entries(c.options)
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([k, v]) => `${k}=${optionText(v)}`),
      label: c.label,
    })),
    metrics: options.metrics ?? experiment.metrics.map((m) => m.key),
  };
}

/** The progress line: `NAME: 37/200 runs, 163 left, ~1m12s left, 2 failed`. */
export function progressLine(name: string, p: SweepProgress): string {
  const left = p.total - p.done;
  const eta =
    p.remainingMs === undefined || left === 0 ? "" : `, ~${shortDuration(p.remainingMs)} left`;
  return `${name}: ${p.done}/${p.total} runs, ${left} to go${eta}${p.failed > 0 ? `, ${p.failed} failed` : ""}`;
}

/** How a command runs a sweep. */
export interface DriveOptions {
  readonly out?: string;
  /** Worker threads (ignored without `io.worker`: runs are then done on this thread). */
  readonly jobs: number;
  readonly quiet: boolean;
  /** Print the summary as JSON (for scripts) instead of the table. @defaultValue false */
  readonly json?: boolean;
  /** Test hook: called after each run's file is written. */
  readonly onRunWritten?: (key: string) => void;
  readonly signal?: AbortSignal;
  /** Run only this shard of the sweep (into a folder shared with the other shards). */
  readonly shard?: Shard;
  /** The command whose words the results directory's usage errors take. @defaultValue `"sweep"` */
  readonly command?: string;
}

/**
 * Run `plan` for a command: worker threads when `io.worker` is known, progress on `io.progress`
 * (unless quiet), the results table on stdout, a failures summary on stderr. Returns the exit
 * code: 0, or 1 when a run failed.
 */
export async function driveSweep(
  plan: SweepPlan,
  io: Io,
  options: DriveOptions,
): Promise<{ code: number; outcome: SweepOutcome }> {
  const started = Date.now();
  const progress = options.quiet ? undefined : io.progress;
  const worker = io.worker;
  const { shard } = options;
  const name =
    shard === undefined ? plan.name : `${plan.name} [shard ${shard.index}/${shard.count}]`;
  let last: SweepProgress | undefined;
  const stopOnSignal = exitOnInterrupt(io, name, options.out, () => {
    // With --out, what is on disk when the signal comes: a run's file is renamed into place
    // before its progress is reported, so the last progress may lag a run or two behind.
    const out = options.out;
    if (out === undefined || last === undefined) return last;
    const tasks = shardTasks(plan, shard);
    const kept = tasks.filter((t) => existsSync(join(out, "runs", `${t.key}.json`))).length;
    return { ...last, done: kept, failed: 0, total: tasks.length };
  });
  let outcome: SweepOutcome;
  try {
    outcome = await runSweep(
      plan,
      (pending) =>
        worker === undefined || options.jobs < 1
          ? inlineExecutor(plan)
          : workerExecutor(plan, worker, Math.min(options.jobs, pending)),
      {
        ...(options.out === undefined ? {} : { out: options.out }),
        onProgress: (p: SweepProgress) => {
          last = p;
          progress?.(progressLine(name, p));
        },
        ...(options.onRunWritten === undefined ? {} : { onRunWritten: options.onRunWritten }),
        onNote: (line: string) => {
          progress?.("");
          io.stderr(`${line}\n`);
        },
        ...(shard === undefined ? {} : { shard }),
        ...(options.signal === undefined ? {} : { signal: options.signal }),
        ...(options.command === undefined ? {} : { command: options.command }),
      },
    );
  } finally {
    stopOnSignal();
  }
  progress?.("");
  const code = printOutcome(plan, io, options, outcome, started);
  return { code, outcome };
}

/**
 * While a sweep runs, Ctrl-C (SIGINT) or SIGTERM ends the process at once, as it did before, but
 * first says what is kept and how to go on: every finished run's file is already written
 * atomically, so running the same command again resumes (the runs in hand are done again).
 * Exit code 128 + the signal's number (130, 143), as for `run`. Returns the remover of the
 * handlers.
 */
function exitOnInterrupt(
  io: Io,
  name: string,
  out: string | undefined,
  progress: () => SweepProgress | undefined,
): () => void {
  const stop = (signal: NodeJS.Signals): void => {
    io.progress?.("");
    const p = progress();
    const counted = p === undefined ? "" : `${p.done - p.failed} of ${p.total} runs have a result`;
    const kept =
      out === undefined
        ? `${counted === "" ? "no result is kept" : `${counted}, not kept`} (no --out DIR)`
        : `${counted === "" ? "the finished runs are kept" : counted} in ${out}: run the same command again to resume`;
    io.stderr(`\nsched-sim: ${name} interrupted (${signal}); ${kept}\n`);
    process.exit(signal === "SIGINT" ? 130 : 143);
  };
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
  return () => {
    process.off("SIGINT", stop);
    process.off("SIGTERM", stop);
  };
}

/**
 * Print a sweep's outcome: the results table, then the wall-clock timing table (or the JSON
 * summary, the timing under its own key `timing`) on stdout, failures and a closing line on
 * stderr. `prefix` starts the closing line (e.g. `queue: `). Returns the exit code: 1 when a run
 * failed or the sweep was interrupted, else 0.
 */
export function printOutcome(
  plan: SweepPlan,
  io: Io,
  options: Pick<DriveOptions, "out" | "quiet" | "json" | "shard">,
  outcome: SweepOutcome,
  started: number,
  prefix = "",
): number {
  const { shard } = options;
  const shown = outcome.merged ?? outcome.records;
  const rows = summarizeSweep(plan, shown);
  const timingRows = summarizeTiming(plan, shown, outcome.timings);
  const tidy = (r: (typeof rows)[number]) => ({
    scheduler: r.scheduler,
    params: Object.fromEntries(plan.params.map((p, i) => [p, r.point[i] as number])),
    metric: r.metric,
    mean: r.mean,
    ci95: r.ci95,
    runs: r.runs,
  });
  let table = false;
  if (options.json === true) {
    io.stdout(
      stableJson({
        experiment: plan.name,
        ...(shard === undefined
          ? {}
          : {
              shard: `${shard.index}/${shard.count}`,
              sweepTotal: plan.points.length * plan.seeds.length * plan.schedulers.length,
              sweepFinished: shown.length,
              summarized: outcome.summarized,
            }),
        params: [...plan.params],
        metrics: [...plan.metrics],
        total: outcome.total,
        finished: outcome.records.length,
        skipped: outcome.skipped,
        interrupted: outcome.interrupted,
        failures: outcome.failures.map((f) => ({ ...f, params: { ...f.params } })),
        results: rows.map(tidy),
        timing: {
          note: "wall clock (ms), not deterministic: differs between executions (timing.csv)",
          metrics: TIMING_METRICS.map((m) => m.key),
          results: timingRows.map(tidy),
        },
      }),
    );
  } else if (shard === undefined || outcome.summarized) {
    io.stdout(`${resultsTable(plan, rows)}
${TIMING_HEADING}:
${timingTable(plan, timingRows)}`);
    table = true;
  }
  // The lines below go to stderr; when both streams land in one file or pipe, a blank line keeps
  // them off the table.
  let separated = !table;
  const separate = (): void => {
    if (!separated) io.stderr("\n");
    separated = true;
  };
  const { failures } = outcome;
  if (failures.length > 0) {
    separate();
    io.stderr(`${failures.length} of ${outcome.total} runs failed:\n`);
    for (const f of failures) io.stderr(`  ${f.key}: ${f.error}\n`);
  }
  if (!options.quiet) {
    const ran = outcome.records.length - outcome.skipped;
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    const summaries = (out: string): string =>
      printable(
        `${join(out, "results.csv")}, ${join(out, "runs.csv")}, ${join(out, "timing.csv")} and ${join(out, "runs-timing.csv")}`,
      );
    const where =
      options.out === undefined || !outcome.summarized ? "" : `; wrote ${summaries(options.out)}`;
    const whereShard =
      shard === undefined || outcome.interrupted
        ? where
        : outcome.summarized
          ? `; every shard is done: wrote ${summaries(options.out as string)}`
          : `; the sweep has ${shown.length} of ${plan.points.length * plan.seeds.length * plan.schedulers.length} results so far (results.csv is written by the last shard to finish; 'sched-sim compare ${options.out}' lists what is missing)`;
    separate();
    io.stderr(
      `${prefix}${shard === undefined ? "" : `shard ${shard.index}/${shard.count}: `}${ran} runs in ${seconds} s${copiedNote(outcome)}${outcome.skipped > 0 ? ` (${outcome.skipped} already done)` : ""}${whereShard}\n`,
    );
  }
  return failures.length > 0 || outcome.interrupted ? 1 : 0;
}

/** `(N of them copied from another seed's run)` after a sweep's count of runs, when some were. */
function copiedNote(outcome: SweepOutcome): string {
  const copied = outcome.copied ?? 0;
  if (copied === 0) return "";
  return ` (${copied} of them copied from another seed's run: their result cannot depend on the seed)`;
}
