import { InvalidInputError, type Scheduler, simulate } from "@sched/core";
import { deriveSeed } from "@sched/random";
import { paperMetrics } from "./paperMetrics.js";
import { CONVERGENT_VARIANTS, convergentVariant } from "./variants.js";
import { type PaperWorkloadOptions, paperWorkload } from "./workload.js";

/** Metric names of the experiment's tidy rows. */
export type ExperimentMetric =
  | "latePct"
  | "slowdownNoDeadline"
  | "machineUsage"
  | "licenseUsage"
  | "meanWorkload"
  | "schedTimeMs";

/** One measurement: a tidy row of `results.csv`. */
export interface ExperimentRow {
  readonly scheduler: string;
  readonly interArrival: number;
  readonly run: number;
  readonly metric: ExperimentMetric;
  readonly value: number;
}

/** The mean of a metric over the runs of one scheduler at one inter-arrival time. */
export interface ExperimentSummaryRow {
  readonly scheduler: string;
  readonly interArrival: number;
  readonly metric: ExperimentMetric;
  readonly mean: number;
  readonly runs: number;
}

/** What {@link convergentExperiment} returns. */
export interface ConvergentExperimentResult {
  /** Every measurement, ordered by inter-arrival, run, scheduler (given order), metric. */
  readonly rows: readonly ExperimentRow[];
  /** Means over runs, ordered by scheduler (given order), inter-arrival, metric. */
  readonly summary: readonly ExperimentSummaryRow[];
}

/** Options of {@link convergentExperiment}. */
export interface ConvergentExperimentOptions {
  /** Mean inter-arrival times to test. @defaultValue `[4, 6, 8, 10, 12, 16, 20]` */
  readonly interArrivals?: readonly number[];
  /** Runs (workloads) per inter-arrival time. @defaultValue `20` */
  readonly runs?: number;
  /** Master seed: run `r` at inter-arrival `ta` uses a workload seed derived from it. @defaultValue `1` */
  readonly seed?: number;
  /** Workload parameters other than seed and inter-arrival. @defaultValue the paper's (150 machines, 20 licenses, 1500 jobs) */
  readonly workload?: Omit<PaperWorkloadOptions, "seed" | "interArrival">;
  /**
   * The schedulers compared, by name (a fresh instance per run). The CLI adds BF-easy, BF-rm,
   * BF-unrm (with {@link convergentPriority}) and EDF from `@sched/backfill`, machine-exclusive
   * (`exclusive: true`): the paper's model runs one job per machine at a time (section 3, "each
   * machine m in M is executing only a single job at a time"), which CS, a matching, does by
   * construction; a baseline that packs several jobs on one machine's CPUs gets more capacity
   * than the model gives it (`machineUsage` above 100 %). Pass them the same way here to get
   * the CLI's rows.
   * @defaultValue the four CS variants
   */
  readonly schedulers?: Readonly<Record<string, () => Scheduler>>;
  /** Include `schedTimeMs` rows (wall-clock: the only non-deterministic values). @defaultValue `true` */
  readonly timings?: boolean;
  /** Called after each simulation. @defaultValue none */
  readonly onProgress?: (done: number, total: number, label: string) => void;
}

const WHERE = "@sched/convergent/convergentExperiment";

/** The workload seed of run `run` at inter-arrival `ta`: @sched/random's `deriveSeed` of the three. */
export function experimentSeed(seed: number, ta: number, run: number): number {
  return deriveSeed(seed, `convergent/interArrival=${ta}/run=${run}`);
}

/**
 * The paper's experiment (section 6): for each inter-arrival time and run, one generated farm
 * and job stream ({@link paperWorkload}), simulated with every scheduler; the paper's metrics
 * per run ({@link paperMetrics}; `schedTimeMs` = the engine's scheduler wall time divided by the
 * number of scheduling calls, i.e. the mean time per plan), and their means.
 *
 * Pure and deterministic apart from `schedTimeMs` (leave it out with `timings: false`).
 *
 * Complexity: runs x inter-arrivals x schedulers simulations.
 *
 * @throws InvalidInputError on invalid options.
 * @example
 * ```ts
 * const { summary } = convergentExperiment({ interArrivals: [10], runs: 2, workload: { jobs: 200 } });
 * experimentTable(summary);
 * ```
 */
export function convergentExperiment(
  options: ConvergentExperimentOptions = {},
): ConvergentExperimentResult {
  const interArrivals = options.interArrivals ?? [4, 6, 8, 10, 12, 16, 20];
  if (!Array.isArray(interArrivals) || interArrivals.some((x) => !(x > 0 && Number.isFinite(x))))
    throw new InvalidInputError(WHERE, "interArrivals", "expected an array of numbers > 0");
  const runs = options.runs ?? 20;
  if (!Number.isInteger(runs) || runs < 1)
    throw new InvalidInputError(WHERE, "runs", `is ${String(runs)}, expected an integer >= 1`);
  const seed = options.seed ?? 1;
  if (!Number.isFinite(seed))
    throw new InvalidInputError(WHERE, "seed", `is ${String(seed)}, expected a finite number`);
  const schedulers =
    options.schedulers ??
    Object.fromEntries(CONVERGENT_VARIANTS.map((v) => [v, () => convergentVariant(v)]));
  const names = Object.keys(schedulers);
  if (names.length === 0)
    throw new InvalidInputError(WHERE, "schedulers", "is empty, expected at least one");
  for (const n of names)
    if (typeof schedulers[n] !== "function")
      throw new InvalidInputError(WHERE, `schedulers.${n}`, "is not a function () => Scheduler");
  const timings = options.timings ?? true;
  const rows: ExperimentRow[] = [];
  const total = interArrivals.length * runs * names.length;
  let done = 0;
  for (const ta of interArrivals) {
    for (let run = 0; run < runs; run++) {
      const { platform, jobs } = paperWorkload({
        ...options.workload,
        seed: experimentSeed(seed, ta, run),
        interArrival: ta,
      });
      for (const name of names) {
        const trace = simulate(jobs, platform, (schedulers[name] as () => Scheduler)());
        const m = paperMetrics(trace);
        const push = (metric: ExperimentMetric, value: number) =>
          rows.push({ scheduler: name, interArrival: ta, run, metric, value });
        push("latePct", m.latePct);
        push("slowdownNoDeadline", m.slowdownNoDeadline);
        push("machineUsage", m.machineUsage);
        push("licenseUsage", m.licenseUsage);
        push("meanWorkload", m.meanWorkload);
        if (timings)
          push(
            "schedTimeMs",
            trace.stats.decisions === 0 ? 0 : trace.stats.schedulerMs / trace.stats.decisions,
          );
        done++;
        options.onProgress?.(done, total, `${name} Ta=${ta} run=${run}`);
      }
    }
  }
  return { rows, summary: summarize(rows, names, interArrivals) };
}

function summarize(
  rows: readonly ExperimentRow[],
  names: readonly string[],
  interArrivals: readonly number[],
): ExperimentSummaryRow[] {
  const acc = new Map<string, { sum: number; n: number }>();
  const metrics: ExperimentMetric[] = [];
  for (const r of rows) {
    if (!metrics.includes(r.metric)) metrics.push(r.metric);
    const key = `${r.scheduler}\u0000${r.interArrival}\u0000${r.metric}`;
    const a = acc.get(key) ?? { sum: 0, n: 0 };
    a.sum += r.value;
    a.n++;
    acc.set(key, a);
  }
  const out: ExperimentSummaryRow[] = [];
  for (const scheduler of names)
    for (const interArrival of interArrivals)
      for (const metric of metrics) {
        const a = acc.get(`${scheduler}\u0000${interArrival}\u0000${metric}`);
        if (a !== undefined)
          out.push({ scheduler, interArrival, metric, mean: a.sum / a.n, runs: a.n });
      }
  return out;
}

/** An RFC 4180 field: quoted (inner quotes doubled) when it holds a comma, quote or line break. */
function csvField(text: string): string {
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/**
 * The tidy CSV of the rows (RFC 4180): header `scheduler,interArrival,run,metric,value`, one
 * line each; a scheduler or metric name holding a comma, a double quote or a line break is
 * quoted, its quotes doubled, so every line reads back as five fields.
 *
 * @example
 * ```ts
 * experimentCsv(rows).split("\n")[0]; // "scheduler,interArrival,run,metric,value"
 * ```
 */
export function experimentCsv(rows: readonly ExperimentRow[]): string {
  const lines = ["scheduler,interArrival,run,metric,value"];
  for (const r of rows)
    lines.push(
      `${csvField(r.scheduler)},${r.interArrival},${r.run},${csvField(r.metric)},${r.value}`,
    );
  return `${lines.join("\n")}\n`;
}

/**
 * A printed table: one line per scheduler and metric, one column per inter-arrival time (means,
 * 2 decimals).
 *
 * @example
 * ```ts
 * console.log(experimentTable(summary));
 * ```
 */
export function experimentTable(summary: readonly ExperimentSummaryRow[]): string {
  const tas = [...new Set(summary.map((s) => s.interArrival))].sort((a, b) => a - b);
  const keys: string[] = [];
  const cell = new Map<string, string>();
  for (const s of summary) {
    const k = `${s.metric} ${s.scheduler}`;
    if (!keys.includes(k)) keys.push(k);
    cell.set(`${k}@${s.interArrival}`, s.mean.toFixed(2));
  }
  keys.sort();
  const width = Math.max(10, ...keys.map((k) => k.length));
  const head = `${"metric scheduler".padEnd(width)} | ${tas.map((t) => `Ta=${t}`.padStart(9)).join(" ")}`;
  const lines = [head, "-".repeat(head.length)];
  for (const k of keys)
    lines.push(
      `${k.padEnd(width)} | ${tas.map((t) => (cell.get(`${k}@${t}`) ?? "").padStart(9)).join(" ")}`,
    );
  return lines.join("\n");
}
