import { computeMetrics, simulate } from "@sched/core";
import { fixed, renderTable, toCsv } from "../format.js";
import { type Summary, summarize } from "../stats.js";
import type { Experiment } from "./experiment.js";

/** One run's measurements. */
export interface RunResult {
  readonly scheduler: string;
  readonly paramValue: number;
  readonly seed: number;
  /** Metric key -> value, for the experiment's metrics. */
  readonly values: Readonly<Record<string, number>>;
}

/** One row of the tidy results: a metric of a scheduler at a parameter value, over seeds. */
export interface ResultRow extends Summary {
  readonly scheduler: string;
  readonly param: string;
  readonly paramValue: number;
  readonly metric: string;
}

/** Options of {@link runExperiment}. */
export interface RunExperimentOptions {
  /** Smaller grid and workloads. @defaultValue false */
  readonly quick?: boolean;
  /** Seeds 1..seeds per point. @defaultValue the experiment's `defaultSeeds(quick)` */
  readonly seeds?: number;
  /** Called after each run (for progress). @defaultValue none */
  readonly onRun?: (done: number, total: number) => void;
}

/** Everything a reproduction produced. */
export interface ExperimentResults {
  readonly runs: readonly RunResult[];
  readonly rows: readonly ResultRow[];
}

/**
 * Run every point of `experiment`'s grid (values x seeds x schedulers, in that loop order; one
 * workload instance per value and seed, shared by the schedulers) and summarize each metric over
 * seeds. Deterministic: same experiment, options and code, same results.
 */
export function runExperiment(
  experiment: Experiment,
  options: RunExperimentOptions = {},
): ExperimentResults {
  const quick = options.quick ?? false;
  const seeds = options.seeds ?? experiment.defaultSeeds(quick);
  const values = experiment.values(quick);
  const schedulers = experiment.schedulers();
  const total = values.length * seeds * schedulers.length;
  const runs: RunResult[] = [];
  for (const value of values) {
    for (let seed = 1; seed <= seeds; seed++) {
      const { jobs, platform, executionModel } = experiment.instance(value, seed, quick);
      for (const choice of schedulers) {
        const trace = simulate(
          jobs,
          platform,
          choice.entry.create(choice.options),
          executionModel === undefined ? {} : { executionModel },
        );
        const metrics = computeMetrics(trace) as unknown as Record<string, unknown>;
        const measured: Record<string, number> = {};
        for (const m of experiment.metrics) {
          const v = metrics[m.key];
          measured[m.key] = typeof v === "number" ? v : Number.NaN;
        }
        runs.push({ scheduler: choice.label, paramValue: value, seed, values: measured });
        options.onRun?.(runs.length, total);
      }
    }
  }
  const rows: ResultRow[] = [];
  for (const choice of schedulers) {
    for (const value of values) {
      const mine = runs.filter((r) => r.scheduler === choice.label && r.paramValue === value);
      for (const m of experiment.metrics) {
        rows.push({
          scheduler: choice.label,
          param: experiment.param,
          paramValue: value,
          metric: m.key,
          ...summarize(mine.map((r) => r.values[m.key] as number)),
        });
      }
    }
  }
  return { runs, rows };
}

/** Columns of `results.csv`. */
export const RESULTS_COLUMNS = [
  "scheduler",
  "param",
  "paramValue",
  "metric",
  "mean",
  "ci95",
  "runs",
] as const;

/** `results.csv`: the tidy summary, one row per scheduler x value x metric; `ci95` empty with one run. */
export function resultsCsv(rows: readonly ResultRow[]): string {
  return toCsv(
    RESULTS_COLUMNS,
    rows.map((r) => [r.scheduler, r.param, r.paramValue, r.metric, r.mean, r.ci95, r.runs]),
  );
}

/** `runs.csv`: every run's raw value, one row per scheduler x value x seed x metric. */
export function runsCsv(experiment: Experiment, runs: readonly RunResult[]): string {
  const rows: (string | number)[][] = [];
  for (const r of runs) {
    for (const m of experiment.metrics) {
      rows.push([
        r.scheduler,
        experiment.param,
        r.paramValue,
        r.seed,
        m.key,
        r.values[m.key] as number,
      ]);
    }
  }
  return toCsv(["scheduler", "param", "paramValue", "seed", "metric", "value"], rows);
}

/** The printed table: one row per scheduler x value, a `mean ± ci95` column per metric. */
export function resultsTable(experiment: Experiment, rows: readonly ResultRow[]): string {
  const points: { scheduler: string; value: number }[] = [];
  for (const r of rows) {
    const last = points[points.length - 1];
    if (last === undefined || last.scheduler !== r.scheduler || last.value !== r.paramValue) {
      points.push({ scheduler: r.scheduler, value: r.paramValue });
    }
  }
  const cell = (r: ResultRow | undefined, digits: number): string => {
    if (r === undefined) return "-";
    return Number.isFinite(r.ci95)
      ? `${fixed(r.mean, digits)} ± ${fixed(r.ci95, digits)}`
      : fixed(r.mean, digits);
  };
  return renderTable(
    [
      { title: "scheduler", align: "left" },
      { title: experiment.param, align: "right" },
      ...experiment.metrics.map((m) => ({ title: m.title, align: "right" as const })),
      { title: "runs", align: "right" },
    ],
    points.map((p) => {
      const mine = rows.filter((r) => r.scheduler === p.scheduler && r.paramValue === p.value);
      return [
        p.scheduler,
        String(p.value),
        ...experiment.metrics.map((m) =>
          cell(
            mine.find((r) => r.metric === m.key),
            m.digits,
          ),
        ),
        String(mine[0]?.runs ?? 0),
      ];
    }),
  );
}
