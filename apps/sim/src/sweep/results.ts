import { readdirSync, readFileSync } from "node:fs";
import { readdir, readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { integerText, realText } from "../args.js";
import { type CsvRecord, readCsvRecords } from "../csv-read.js";
import type { ParamValue } from "../experiments/parameters.js";
import { formatNumber, type JsonValue, renderTable, stableJson, toCsv } from "../format.js";
import { type Summary, summarize } from "../stats.js";
import { UsageError } from "../usage-error.js";
import type { RunRecord, RunTiming } from "./execute.js";
import { formatValue, type MetricInfo } from "./metrics.js";
import { planTasks, type RunTask, type SweepPlan } from "./plan.js";
import { planMetricInfos } from "./plan-metrics.js";

/** Format tag of `experiment.json`. */
export const SWEEP_FORMAT = "sched-sim-sweep/1";

/**
 * `experiment.json`: the plan of the sweep whose results a directory holds. Its numbers are
 * written exactly: `compare`, `report` and a resumed sweep rebuild the runs' keys and workloads
 * from it, so a grid value of `0.12345678` must not read back as `0.123457`.
 */
export function experimentJson(plan: SweepPlan): string {
  return stableJson({ format: SWEEP_FORMAT, plan: plan as unknown as JsonValue }, { exact: true });
}

/**
 * `experiment.json` as sched-sim wrote it before it wrote numbers exactly (rounded to 6 decimals):
 * a directory written so is still the same experiment when its plan rounds to it, so it resumes.
 */
export function legacyExperimentJson(plan: SweepPlan): string {
  return stableJson({ format: SWEEP_FORMAT, plan: plan as unknown as JsonValue });
}

/** `runs/KEY.json`: the record (deterministic) and the timing block (wall clock, apart). */
export function runJson(record: RunRecord, timing: RunTiming): string {
  return stableJson({ ...(record as unknown as Record<string, JsonValue>), timing: { ...timing } });
}

/**
 * `runs/KEY.json` of a seed-free run whose result was copied from the run of key `of`, of another
 * seed (see seed-free.ts): the record, and `copyOf` instead of a timing block (it was not timed).
 */
export function copiedRunJson(record: RunRecord, of: string): string {
  return stableJson({ ...(record as unknown as Record<string, JsonValue>), copyOf: of });
}

/** A run file read back: its record and its timing block (absent or malformed: undefined). */
export interface RunFile {
  readonly record: RunRecord;
  readonly timing: RunTiming | undefined;
}

/**
 * A run file read back from `runs/KEY.json` (metrics written as `null`, i.e. undefined, become
 * NaN). Summaries are always computed from records in this written form, so a resumed sweep and
 * an uninterrupted one give the same bytes. The timing block is returned apart; a file without a
 * usable one (written by hand, say) still gives its record.
 *
 * @throws Error when the text is not a run record.
 */
export function parseRunFile(text: string): RunFile {
  const doc = JSON.parse(text) as Record<string, unknown>;
  const metrics = doc.metrics as Record<string, number | null> | undefined;
  if (typeof doc.key !== "string" || typeof metrics !== "object" || metrics === null) {
    throw new Error("not a run record");
  }
  const numbers: Record<string, number> = {};
  for (const [k, v] of Object.entries(metrics)) numbers[k] = v === null ? Number.NaN : v;
  const t = doc.timing as Record<string, unknown> | undefined | null;
  const timing =
    typeof t === "object" &&
    t !== null &&
    typeof t.wallMs === "number" &&
    typeof t.schedulerMs === "number"
      ? { wallMs: t.wallMs, schedulerMs: t.schedulerMs }
      : undefined;
  return {
    record: {
      key: doc.key,
      scheduler: String(doc.scheduler),
      params: doc.params as Record<string, ParamValue>,
      seed: Number(doc.seed),
      metrics: numbers,
      events: Number(doc.events),
      decisions: Number(doc.decisions),
    },
    timing,
  };
}

/** The record of a run file ({@link parseRunFile} without the timing). */
export function parseRunJson(text: string): RunRecord {
  return parseRunFile(text).record;
}

/** A finished run as its file reads back (numbers rounded as the files round them). */
export function runAsWritten(record: RunRecord, timing: RunTiming): RunFile {
  return parseRunFile(runJson(record, timing));
}

/** A record as it reads back after being written (numbers rounded as the files round them). */
export function asWritten(record: RunRecord): RunRecord {
  return runAsWritten(record, { wallMs: 0, schedulerMs: 0 }).record;
}

/** A failed run, as `failed/KEY.json` holds it. */
export interface RunFailure {
  readonly key: string;
  readonly scheduler: string;
  readonly params: Readonly<Record<string, ParamValue>>;
  readonly seed: number;
  readonly error: string;
}

/** What a sweep directory holds. */
export interface SweepDir {
  readonly plan: SweepPlan;
  /** Finished runs, in plan order (points, seeds, schedulers). */
  readonly records: readonly RunRecord[];
  /** Runs whose last attempt failed (and have no result). */
  readonly failures: readonly RunFailure[];
  /** The timing block of each finished run that has one, by key (wall clock, not deterministic). */
  readonly timings: ReadonlyMap<string, RunTiming>;
  /**
   * Where the finished runs were read from: the run files (`runs/`), or `runs.csv` in a folder
   * without `runs/` (a committed reproduction keeps the CSVs only). From `runs.csv` a record has
   * the plan's metrics only, and `events` and `decisions` are NaN when it was written before it
   * held them.
   */
  readonly source: "runs" | "runs.csv";
  /**
   * Where the runs' timing was read from: each run's block, from its run file (`"runs"`) or, in
   * a folder read from `runs.csv`, from `runs-timing.csv` (in {@link SweepDir.timings}, as from
   * the run files); else the summaries of `timing.csv` ({@link SweepDir.timingRows}), for a
   * folder written before `runs-timing.csv` existed; undefined when the folder has neither.
   */
  readonly timingSource: "runs" | "runs-timing.csv" | "timing.csv" | undefined;
  /**
   * `timing.csv`'s rows ({@link summarizeTiming}'s, as the sweep wrote them), when the runs come
   * from `runs.csv` and the folder has no usable `runs-timing.csv` but a `timing.csv`.
   */
  readonly timingRows?: readonly ResultRow[];
}

/** Why `dir`, which has no readable `experiment.json`, is not a sweep's results directory. */
async function notASweep(dir: string): Promise<string> {
  const fix = `run 'sched-sim sweep FILE --out ${dir}' (or 'sched-sim reproduce NAME --out ${dir}') first`;
  const isDir = await stat(dir).then(
    (s) => s.isDirectory(),
    () => undefined,
  );
  if (isDir === undefined) return `${dir} does not exist; ${fix}`;
  if (!isDir) return `${dir} is not a directory; give the results directory of a sweep`;
  const isRunOut = await stat(join(dir, "metrics.json")).then(
    () => true,
    () => false,
  );
  if (isRunOut) {
    return `${dir} is not a sweep directory (no experiment.json): its metrics.json is one 'run --out', which has no seeds or grid to compare; ${fix}`;
  }
  return `${dir} is not a sweep directory (no experiment.json); ${fix}`;
}

/** The plan in `DIR/experiment.json`, or a {@link UsageError} saying what is wrong. */
export async function readPlan(dir: string, command: string): Promise<SweepPlan> {
  let text: string;
  try {
    text = await readFile(join(dir, "experiment.json"), "utf8");
  } catch {
    throw new UsageError(`${command}: ${await notASweep(dir)}`, command);
  }
  let doc: { format?: unknown; plan?: SweepPlan };
  try {
    doc = JSON.parse(text) as { format?: unknown; plan?: SweepPlan };
  } catch {
    doc = {};
  }
  if (doc.format !== SWEEP_FORMAT || doc.plan === undefined) {
    throw new UsageError(
      `${command}: ${join(dir, "experiment.json")}: expected format "${SWEEP_FORMAT}"`,
      command,
    );
  }
  return doc.plan;
}

/** The `*.json` files of `dir` (not the dot-prefixed temporaries), sorted; none if it is absent. */
export async function jsonFiles(dir: string): Promise<string[]> {
  try {
    return (await readdir(dir)).filter((f) => f.endsWith(".json") && !f.startsWith(".")).sort();
  } catch {
    return [];
  }
}

/**
 * The run files of `dir` (a sweep's `runs/`) read back ({@link parseRunFile}), by name; a file
 * that is not a record (a stray file) is skipped, its run counting as not done. Read one after
 * the other, synchronously: a sweep has up to a million of them, small, and a promise per file
 * cost more than the read (64,000 runs: `compare` 18.8 s, most of it waiting on the file
 * system's promises).
 */
export function readRunFiles(dir: string): RunFile[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  const files: RunFile[] = [];
  for (const f of names.filter((n) => n.endsWith(".json") && !n.startsWith(".")).sort()) {
    try {
      files.push(parseRunFile(readFileSync(join(dir, f), "utf8")));
    } catch {
      // not a record (a stray file, unreadable): ignored, the run counts as not done
    }
  }
  return files;
}

/**
 * Read a sweep directory: its plan, its finished runs (plan order) and its failures. The runs are
 * the files in `DIR/runs/`; a folder without `runs/` but with `runs.csv` (every run's value of
 * each reported metric) is read from `runs.csv` instead, which gives the same metrics, hence the
 * same comparison (see {@link SweepDir.source}), and the runs' timing blocks from
 * `runs-timing.csv` (or, without it, `timing.csv`'s summaries: see {@link SweepDir.timingSource}).
 *
 * `options.runsCsv: false` reads `runs/` only (a folder without it then has no finished run).
 *
 * @throws UsageError naming the file (and line) when `experiment.json`, or `runs.csv`,
 *   `runs-timing.csv` or `timing.csv` read in place of `runs/`, is not what a sweep writes.
 */
export async function readSweepDir(
  dir: string,
  command: string,
  options: { readonly runsCsv?: boolean } = {},
): Promise<SweepDir> {
  const plan = await readPlan(dir, command);
  const failures = async (done: ReadonlySet<string>): Promise<RunFailure[]> => {
    const list: RunFailure[] = [];
    for (const f of await jsonFiles(join(dir, "failed"))) {
      try {
        const failure = JSON.parse(await readFile(join(dir, "failed", f), "utf8")) as RunFailure;
        if (!done.has(failure.key)) list.push(failure);
      } catch {
        // ignored: a stray file
      }
    }
    return list;
  };
  if (options.runsCsv !== false && !(await isDirectory(join(dir, "runs")))) {
    const fromCsv = await readRunsCsv(dir, plan, command);
    if (fromCsv !== undefined) {
      // runs-timing.csv's schedulerMs gives a run's schedTimeMs only with its `decisions`, which a
      // runs.csv written before runs-timing.csv existed lacks: then timing.csv's summaries.
      const timings = fromCsv.counts
        ? await readRunsTimingCsv(dir, plan, command, fromCsv.records)
        : undefined;
      const timingRows =
        timings === undefined ? await readTimingCsv(dir, plan, command) : undefined;
      return {
        plan,
        records: orderRecords(plan, fromCsv.records),
        failures: await failures(new Set(fromCsv.records.map((r) => r.key))),
        timings: timings ?? new Map(),
        source: "runs.csv",
        timingSource:
          timings !== undefined
            ? "runs-timing.csv"
            : timingRows !== undefined
              ? "timing.csv"
              : undefined,
        ...(timingRows === undefined ? {} : { timingRows }),
      };
    }
  }
  const byKey = new Map<string, RunRecord>();
  const timings = new Map<string, RunTiming>();
  for (const { record: r, timing } of readRunFiles(join(dir, "runs"))) {
    byKey.set(r.key, r);
    if (timing === undefined) timings.delete(r.key);
    else timings.set(r.key, timing);
  }
  return {
    plan,
    records: orderRecords(plan, [...byKey.values()]),
    failures: await failures(new Set(byKey.keys())),
    timings,
    source: "runs",
    timingSource: "runs",
  };
}

async function isDirectory(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory();
  } catch {
    return false;
  }
}

/** A text file of `dir`, or undefined when it does not exist. */
async function optionalText(path: string, command: string): Promise<string | undefined> {
  try {
    return await readFile(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw new UsageError(`${command}: cannot read ${path}: ${(error as Error).message}`, command);
  }
}

/** A grid value or seed as the CSVs write it. */
function cellText(value: ParamValue): string {
  return typeof value === "number" ? formatNumber(value) : String(value);
}

/**
 * The records of CSV file `DIR/name` whose header must be `header` (undefined when there is no
 * such file), or a UsageError naming the file, and a `fail(record, detail)` that names its line.
 */
async function readResultsCsv(
  dir: string,
  name: string,
  header: readonly string[],
  command: string,
  optionalTail = 0,
): Promise<
  | { rows: CsvRecord[]; fail: (row: CsvRecord, detail: string) => never; counts: boolean }
  | undefined
> {
  const path = join(dir, name);
  const text = await optionalText(path, command);
  if (text === undefined) return undefined;
  const fail = (row: CsvRecord | undefined, detail: string): never => {
    throw new UsageError(
      `${command}: ${path}${row === undefined ? "" : `:${row.line}`}: ${detail}`,
      command,
    );
  };
  const records = readCsvRecords(text);
  if (records === null) return fail(undefined, "a quoted field is never closed (a cut file?)");
  const first = records[0];
  const older = header.slice(0, header.length - optionalTail);
  const got = first?.fields.join(",");
  const full = got === header.join(",");
  if (first === undefined || (!full && got !== older.join(","))) {
    return fail(
      first,
      `expected the header ${header.join(",")} (as the sweep writes it${optionalTail > 0 ? `; or without ${header.slice(older.length).join(",")}, as it wrote before` : ""})`,
    );
  }
  const columns = full ? header : older;
  const rows = records.slice(1);
  for (const row of rows) {
    if (row.fields.length !== columns.length) {
      fail(
        row,
        `expected ${columns.length} fields (${columns.join(",")}), got ${row.fields.length}`,
      );
    }
  }
  return { rows, fail, counts: full && optionalTail > 0 };
}

/**
 * The plan's run a row of `runs.csv` or `runs-timing.csv` names (`key,scheduler,<param>...,seed`,
 * the first columns of both, as {@link runCells} writes them): its key must be the plan's, and its
 * scheduler, grid values and seed those of that run in `experiment.json`; else `fail` names the line.
 */
function rowTask(
  row: CsvRecord,
  header: readonly string[],
  plan: SweepPlan,
  tasks: ReadonlyMap<string, RunTask>,
  dir: string,
  fail: (row: CsvRecord, detail: string) => never,
): RunTask {
  const [key, scheduler, ...rest] = row.fields as string[];
  const task = tasks.get(key as string);
  if (task === undefined) {
    return fail(row, `run '${key}' is not a run of ${join(dir, "experiment.json")}`);
  }
  const expected = [
    plan.schedulers[task.scheduler]?.label ?? "",
    ...plan.params.map((p) => cellText(task.params[p] as ParamValue)),
    cellText(task.seed),
  ];
  const got = [scheduler as string, ...rest.slice(0, plan.params.length + 1)];
  expected.forEach((want, i) => {
    if (got[i] !== want) {
      fail(row, `${header[i + 1]} is '${got[i]}', but run ${key} has ${want} in experiment.json`);
    }
  });
  return task;
}

/**
 * The finished runs in `DIR/runs.csv` (`key,scheduler,<param>...,seed,metric,value,events,decisions`,
 * as {@link runsCsv} writes it), or undefined when there is none: each run of the plan, found by its
 * key (its scheduler, grid values and seed must be the plan's), with the value of every reported
 * metric (empty: NaN), and its `events` and `decisions` (the same on each of its rows). A file
 * written before those two columns existed (`...,metric,value`) is read too: `events` and
 * `decisions` are then NaN, and `counts` false.
 */
async function readRunsCsv(
  dir: string,
  plan: SweepPlan,
  command: string,
): Promise<{ records: RunRecord[]; counts: boolean } | undefined> {
  const header = [...runsCsvHeader(plan), ...RUN_COUNT_COLUMNS];
  const csv = await readResultsCsv(dir, "runs.csv", header, command, RUN_COUNT_COLUMNS.length);
  if (csv === undefined) return undefined;
  const { rows, fail, counts } = csv;
  const runCounts = new Map<string, { events: number; decisions: number; line: number }>();
  const tasks = new Map<string, RunTask>(planTasks(plan).map((t) => [t.key, t]));
  const metrics = new Map<string, Record<string, number>>();
  for (const row of rows) {
    const t = rowTask(row, header, plan, tasks, dir, fail);
    const key = t.key;
    const rest = row.fields.slice(2) as string[];
    const metric = rest[plan.params.length + 1] as string;
    const valueText = rest[plan.params.length + 2] as string;
    if (!plan.metrics.includes(metric)) {
      fail(row, `metric '${metric}' is not one of the sweep's (${plan.metrics.join(", ")})`);
    }
    const value = valueText === "" ? Number.NaN : realText(valueText);
    if (valueText !== "" && Number.isNaN(value)) {
      fail(row, `value '${valueText}' is not a number`);
    }
    if (counts) {
      const [events, decisions] = RUN_COUNT_COLUMNS.map((c, i) => {
        const cell = row.fields[plan.params.length + 5 + i] as string;
        const n = cell === "" ? Number.NaN : integerText(cell);
        if (cell !== "" && Number.isNaN(n)) fail(row, `${c} '${cell}' is not a whole number`);
        return n;
      }) as [number, number];
      const first = runCounts.get(t.key);
      if (first === undefined) runCounts.set(t.key, { events, decisions, line: row.line });
      else if (!Object.is(first.events, events) || !Object.is(first.decisions, decisions)) {
        fail(
          row,
          `run ${key} has events,decisions ${events},${decisions} here but ${first.events},${first.decisions} on line ${first.line}`,
        );
      }
    }
    const values = metrics.get(t.key) ?? {};
    if (metric in values) fail(row, `run ${key} has a second row for ${metric}`);
    values[metric] = value;
    metrics.set(t.key, values);
  }
  const records: RunRecord[] = [];
  for (const [key, values] of metrics) {
    const t = tasks.get(key) as RunTask;
    const lacking = plan.metrics.filter((m) => !(m in values));
    if (lacking.length > 0) {
      throw new UsageError(
        `${command}: ${join(dir, "runs.csv")}: run ${key} has no row for ${lacking.join(", ")}`,
        command,
      );
    }
    records.push({
      key,
      scheduler: plan.schedulers[t.scheduler]?.label ?? "",
      params: t.params,
      seed: t.seed,
      metrics: values,
      events: runCounts.get(key)?.events ?? Number.NaN,
      decisions: runCounts.get(key)?.decisions ?? Number.NaN,
    });
  }
  return { records, counts };
}

/**
 * The timing block of each run in `DIR/runs-timing.csv` (`key,scheduler,<param>...,seed,
 * schedulerMs,wallMs`, as {@link runsTimingCsv} writes it), by key, or undefined when there is
 * none. Each row is checked as a row of `runs.csv` (the plan's run, its scheduler, grid values
 * and seed), and must be a run of `records` (those `runs.csv` holds: the sweep writes both from
 * the same runs), once; both cells empty is a run without a timing block.
 */
async function readRunsTimingCsv(
  dir: string,
  plan: SweepPlan,
  command: string,
  records: readonly RunRecord[],
): Promise<Map<string, RunTiming> | undefined> {
  const header = ["key", "scheduler", ...plan.params, "seed", "schedulerMs", "wallMs"];
  const csv = await readResultsCsv(dir, "runs-timing.csv", header, command);
  if (csv === undefined) return undefined;
  const { rows, fail } = csv;
  const tasks = new Map<string, RunTask>(planTasks(plan).map((t) => [t.key, t]));
  const finished = new Set(records.map((r) => r.key));
  const lines = new Map<string, number>();
  const timings = new Map<string, RunTiming>();
  const n = plan.params.length + 3;
  for (const row of rows) {
    const { key } = rowTask(row, header, plan, tasks, dir, fail);
    if (!finished.has(key)) fail(row, `run ${key} has no rows in ${join(dir, "runs.csv")}`);
    const first = lines.get(key);
    if (first !== undefined) fail(row, `run ${key} has a second row (the first on line ${first})`);
    lines.set(key, row.line);
    const cells = [row.fields[n], row.fields[n + 1]] as [string, string];
    if (cells[0] === "" && cells[1] === "") continue;
    const [schedulerMs, wallMs] = cells.map((cell, i) => {
      const value = realText(cell);
      if (Number.isNaN(value)) {
        fail(
          row,
          cell === ""
            ? `${header[n + i]} is empty but ${header[n + 1 - i]} is not (both empty: a run without timing)`
            : `${header[n + i]} '${cell}' is not a number`,
        );
      }
      return value;
    }) as [number, number];
    timings.set(key, { schedulerMs, wallMs });
  }
  return timings;
}

/**
 * `DIR/timing.csv` read back as {@link summarizeTiming}'s rows (the same schedulers x points x
 * {@link TIMING_METRICS}, in that order), or undefined when there is none. A row of the plan the
 * file lacks is NaN with 0 runs.
 */
async function readTimingCsv(
  dir: string,
  plan: SweepPlan,
  command: string,
): Promise<ResultRow[] | undefined> {
  const header = ["scheduler", ...plan.params, "metric", "mean", "ci95", "runs"];
  const csv = await readResultsCsv(dir, "timing.csv", header, command);
  if (csv === undefined) return undefined;
  const { rows, fail } = csv;
  const found = new Map<string, CsvRecord>();
  for (const row of rows)
    found.set(row.fields.slice(0, plan.params.length + 2).join("\u0000"), row);
  const number = (row: CsvRecord, i: number): number => {
    const cell = row.fields[i] as string;
    const value = cell === "" ? Number.NaN : realText(cell);
    if (cell !== "" && Number.isNaN(value)) fail(row, `${header[i]} '${cell}' is not a number`);
    return value;
  };
  const out: ResultRow[] = [];
  for (const s of plan.schedulers) {
    for (const point of plan.points) {
      for (const m of TIMING_METRICS) {
        const row = found.get([s.label, ...point.map(cellText), m.key].join("\u0000"));
        const n = plan.params.length + 2;
        out.push({
          scheduler: s.label,
          point,
          metric: m.key,
          ...(row === undefined
            ? { mean: Number.NaN, ci95: Number.NaN, runs: 0 }
            : { mean: number(row, n), ci95: number(row, n + 1), runs: number(row, n + 2) }),
        });
      }
    }
  }
  return out;
}

/** `records` in plan order: points, then seeds, then schedulers; records of other plans dropped. */
export function orderRecords(plan: SweepPlan, records: readonly RunRecord[]): RunRecord[] {
  const labels = new Map(plan.schedulers.map((s, i) => [s.label, i]));
  const seeds = new Map(plan.seeds.map((s, i) => [s, i]));
  const pointIndex = new Map(plan.points.map((p, i) => [JSON.stringify(p), i]));
  const rank = (r: RunRecord): number[] => [
    pointIndex.get(JSON.stringify(plan.params.map((p) => r.params[p]))) ?? -1,
    seeds.get(r.seed) ?? -1,
    labels.get(r.scheduler) ?? -1,
  ];
  return records
    .map((r) => ({ r, k: rank(r) }))
    .filter(({ k }) => k.every((x) => x >= 0))
    .sort((a, b) => {
      for (let i = 0; i < 3; i++) {
        const d = (a.k[i] as number) - (b.k[i] as number);
        if (d !== 0) return d;
      }
      return 0;
    })
    .map(({ r }) => r);
}

/** A metric of a scheduler at a grid point, over its seeds. */
export interface ResultRow extends Summary {
  readonly scheduler: string;
  /** The point's value of each of `plan.params`. */
  readonly point: readonly ParamValue[];
  readonly metric: string;
}

/**
 * Summarize `records` (plan order) per scheduler x point x metric: mean and Student-t 95% CI over
 * seeds. Rows: schedulers outermost (plan order), then points, then `plan.metrics`; a point with no
 * finished run gives `runs` 0 and NaN.
 */
export function summarizeSweep(plan: SweepPlan, records: readonly RunRecord[]): ResultRow[] {
  return summarizeBy(plan, records, plan.metrics, (r, metric) => r.metrics[metric] ?? Number.NaN);
}

/**
 * The rows of `metrics` over `records` (plan order), `value` giving a run's value of a metric:
 * schedulers outermost (plan order), then points, then `metrics`.
 */
function summarizeBy(
  plan: SweepPlan,
  records: readonly RunRecord[],
  metrics: readonly string[],
  value: (record: RunRecord, metric: string) => number,
): ResultRow[] {
  const rows: ResultRow[] = [];
  // the records of each scheduler and grid point, in their order (one pass, not one per group)
  const group = (label: string, values: readonly unknown[]): string =>
    JSON.stringify([label, ...values]);
  const groups = new Map<string, RunRecord[]>();
  for (const r of records) {
    const k = group(
      r.scheduler,
      plan.params.map((p) => r.params[p]),
    );
    const list = groups.get(k);
    if (list === undefined) groups.set(k, [r]);
    else list.push(r);
  }
  for (const s of plan.schedulers) {
    for (const point of plan.points) {
      const mine = groups.get(group(s.label, point)) ?? [];
      for (const metric of metrics) {
        rows.push({
          scheduler: s.label,
          point,
          metric,
          ...summarize(mine.map((r) => value(r, metric))),
        });
      }
    }
  }
  return rows;
}

/**
 * The wall-clock metrics of `timing.csv`, in its order: `schedTimeMs`, the scheduling time per
 * plan (`schedulerMs / decisions`: the policy's wall time over its scheduling calls, each of which
 * produces a plan; NaN for a run with no call); `schedulerMs`, the policy's wall time over the
 * whole run; `wallMs`, the whole run's (workload, simulation, metrics).
 */
export const TIMING_METRICS: readonly MetricInfo[] = [
  { key: "schedTimeMs", title: "sched ms/plan [wall]", digits: 3, better: "lower" },
  { key: "schedulerMs", title: "scheduler ms [wall]", digits: 1, better: "lower" },
  { key: "wallMs", title: "run ms [wall]", digits: 1, better: "lower" },
];

/** A run's value of a {@link TIMING_METRICS} key (NaN without a timing block). */
export function timingValue(
  record: RunRecord,
  timing: RunTiming | undefined,
  metric: string,
): number {
  if (timing === undefined) return Number.NaN;
  switch (metric) {
    case "schedTimeMs":
      return record.decisions > 0 ? timing.schedulerMs / record.decisions : Number.NaN;
    case "schedulerMs":
      return timing.schedulerMs;
    case "wallMs":
      return timing.wallMs;
    default:
      throw new Error(`unknown timing metric '${metric}'`);
  }
}

/**
 * Summarize the timing blocks of `records` like {@link summarizeSweep} does their metrics, for
 * {@link TIMING_METRICS}: the same schedulers x points, so the rows depend only on the plan; only
 * the numbers vary between executions. A record without a timing in `timings` was not timed (a
 * seed-free run copied from another seed's, or a run file written by hand) and is left out:
 * `runs` counts the timed runs.
 */
export function summarizeTiming(
  plan: SweepPlan,
  records: readonly RunRecord[],
  timings: ReadonlyMap<string, RunTiming>,
): ResultRow[] {
  return summarizeBy(
    plan,
    // a run without a timing block (a copied seed-free run, a file written by hand) was not timed
    records.filter((r) => timings.has(r.key)),
    TIMING_METRICS.map((m) => m.key),
    (r, metric) => timingValue(r, timings.get(r.key), metric),
  );
}

/**
 * `results.csv`: `scheduler,<param>...,metric,mean,ci95,runs`; ci95 empty with fewer than 2 runs.
 * `timing.csv` is the same shape, with the rows of {@link summarizeTiming}.
 */
export function resultsCsv(plan: SweepPlan, rows: readonly ResultRow[]): string {
  return toCsv(
    ["scheduler", ...plan.params, "metric", "mean", "ci95", "runs"],
    rows.map((r) => [r.scheduler, ...r.point, r.metric, r.mean, r.ci95, r.runs]),
  );
}

/** The columns of `runs.csv` up to `value` (what it held before the run's counts were added). */
function runsCsvHeader(plan: SweepPlan): string[] {
  return ["key", "scheduler", ...plan.params, "seed", "metric", "value"];
}

/**
 * The run's counts `runs.csv` ends each row with (its run file's `events` and `decisions`:
 * deterministic, unlike its timing block, which `runs-timing.csv` holds).
 */
const RUN_COUNT_COLUMNS = ["events", "decisions"] as const;

/** A run's first columns in `runs.csv` and `runs-timing.csv`: `key,scheduler,<param>...,seed`. */
function runCells(plan: SweepPlan, r: RunRecord): (string | number | boolean)[] {
  return [r.key, r.scheduler, ...plan.params.map((p) => r.params[p] as ParamValue), r.seed];
}

/**
 * `runs.csv`: every run's value of each reported metric, and the run's counts on each of its
 * rows: `key,scheduler,<param>...,seed,metric,value,events,decisions` (the simulation's events
 * and the policy's scheduling calls, as in its run file). Deterministic, like `results.csv`.
 */
export function runsCsv(plan: SweepPlan, records: readonly RunRecord[]): string {
  // rows made one at a time (a sweep has up to a million runs: no array of every row's cells)
  function* rows(): Generator<(string | number | boolean)[]> {
    for (const r of records) {
      for (const m of plan.metrics) {
        yield [...runCells(plan, r), m, r.metrics[m] ?? Number.NaN, r.events, r.decisions];
      }
    }
  }
  return toCsv([...runsCsvHeader(plan), ...RUN_COUNT_COLUMNS], rows());
}

/**
 * `runs-timing.csv`: every run's timing block, one row per run in the order of `runs.csv`:
 * `key,scheduler,<param>...,seed,schedulerMs,wallMs` (ms; empty for a run file without one).
 * NOT deterministic (wall clock), hence apart from `runs.csv`, as `timing.csv` is from
 * `results.csv`.
 */
export function runsTimingCsv(
  plan: SweepPlan,
  records: readonly RunRecord[],
  timings: ReadonlyMap<string, RunTiming>,
): string {
  function* rows(): Generator<(string | number | boolean)[]> {
    for (const r of records) {
      const t = timings.get(r.key);
      yield [...runCells(plan, r), t?.schedulerMs ?? Number.NaN, t?.wallMs ?? Number.NaN];
    }
  }
  return toCsv(["key", "scheduler", ...plan.params, "seed", "schedulerMs", "wallMs"], rows());
}

/** The printed table: one row per scheduler x point, a `mean ± ci95` column per metric, `runs`. */
export function resultsTable(plan: SweepPlan, rows: readonly ResultRow[]): string {
  const infos = planMetricInfos(plan);
  const perRow = Math.max(1, plan.metrics.length);
  const lines: string[][] = [];
  for (let i = 0; i < rows.length; i += perRow) {
    const group = rows.slice(i, i + perRow);
    const first = group[0] as ResultRow;
    lines.push([
      first.scheduler,
      ...first.point.map(String),
      ...infos.map((m, j) => formatValue(m, group[j])),
      String(first.runs),
    ]);
  }
  return renderTable(
    [
      { title: "scheduler", align: "left" },
      ...plan.params.map((p) => ({ title: p, align: "right" as const })),
      ...infos.map((m) => ({ title: m.title, align: "right" as const })),
      { title: "runs", align: "right" },
    ],
    lines,
  );
}

/** The heading printed above {@link timingTable}. */
export const TIMING_HEADING =
  "Wall clock [wall] (ms; NOT deterministic: differs between executions, so in timing.csv, apart from results.csv)";

/**
 * The printed timing table: one row per scheduler x point (as {@link resultsTable}), a
 * `mean ± ci95` column per {@link TIMING_METRICS} metric (titles marked `[wall]`).
 */
export function timingTable(plan: SweepPlan, rows: readonly ResultRow[]): string {
  const perRow = TIMING_METRICS.length;
  const lines: string[][] = [];
  for (let i = 0; i < rows.length; i += perRow) {
    const group = rows.slice(i, i + perRow);
    const first = group[0] as ResultRow;
    lines.push([
      first.scheduler,
      ...first.point.map(String),
      ...TIMING_METRICS.map((m, j) => formatValue(m, group[j])),
    ]);
  }
  return renderTable(
    [
      { title: "scheduler", align: "left" },
      ...plan.params.map((p) => ({ title: p, align: "right" as const })),
      ...TIMING_METRICS.map((m) => ({ title: m.title, align: "right" as const })),
    ],
    lines,
  );
}
