import { stat } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import { SchedError } from "@sched/core";
import {
  duplicateJsonKey,
  jsonSyntaxError,
  type ModelOption,
  parseModelOption,
  WORKLOAD_MODELS,
} from "@sched/workload";
import { suggest } from "../args.js";
import { describeFsError } from "../atomic.js";
import { headerProcs, requireJobs } from "../commands/trace-files.js";
import { GRID_DIGITS, keepsItsDigits } from "../format.js";
import {
  MAX_EXPERIMENT_BYTES,
  MAX_GENERATED_JOBS,
  MAX_PROCS,
  MAX_RUNS,
  MAX_SEEDS,
} from "../limits.js";
import { fractionalElement, PLATFORM_SIZE_BOUNDS, platformSizeExcess } from "../model-limits.js";
import { expectedOptionValue, jsonOptionValue, optionText } from "../scheduler-options.js";
import { chooseScheduler, findScheduler } from "../schedulers.js";
import { readTextFile } from "../swf-input.js";
import { UsageError } from "../usage-error.js";
import { DEFAULT_METRICS, METRICS } from "./metrics.js";
import { gridPoints, type PlannedScheduler, type SweepPlan, type WorkloadSpec } from "./plan.js";
import { readPlatformFile } from "./platform-file.js";
import { registryPlanFromDocument } from "./registry-file.js";
import { readNativeHead } from "./stream-task.js";

/** Where validation is: the file, for messages `sweep: FILE: key: expected …`. */
interface Ctx {
  readonly file: string;
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

function fail(ctx: Ctx, key: string, expected: string, got?: Json | undefined): never {
  const shown =
    got === undefined ? "" : `, got ${(JSON.stringify(got) ?? "undefined").slice(0, 60)}`;
  throw new UsageError(`sweep: ${ctx.file}: ${key}: expected ${expected}${shown}`, "sweep");
}

function isObject(v: Json | undefined): v is { [key: string]: Json } {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function checkKeys(
  ctx: Ctx,
  where: string,
  value: { [key: string]: Json },
  known: readonly string[],
): void {
  for (const k of Object.keys(value)) {
    if (!known.includes(k)) {
      const hint = suggest(k, known);
      throw new UsageError(
        `sweep: ${ctx.file}: ${where ? `${where}.` : ""}${k}: unknown key${hint ? ` (did you mean ${hint}?)` : ""}; expected one of ${known.join(", ")}`,
        "sweep",
      );
    }
  }
}

function integer(
  ctx: Ctx,
  key: string,
  v: Json | undefined,
  min: number,
  fallback?: number,
  max?: number,
): number {
  if (v === undefined && fallback !== undefined) return fallback;
  if (
    typeof v !== "number" ||
    !Number.isSafeInteger(v) ||
    v < min ||
    (max !== undefined && v > max)
  ) {
    fail(
      ctx,
      key,
      max === undefined ? `an integer >= ${min}` : `an integer in [${min}, ${max}]`,
      v,
    );
  }
  return v;
}

/** A number in (0, max]. */
function positiveAtMost(
  ctx: Ctx,
  key: string,
  v: Json | undefined,
  max: number,
  fallback: number,
): number {
  if (v === undefined) return fallback;
  if (typeof v !== "number" || !Number.isFinite(v) || v <= 0 || v > max) {
    fail(ctx, key, `a number in (0, ${max}]`, v);
  }
  return v;
}

function nonNegative(ctx: Ctx, key: string, v: Json | undefined, fallback: number): number {
  if (v === undefined) return fallback;
  if (typeof v !== "number" || !Number.isFinite(v) || v < 0) fail(ctx, key, "a number >= 0", v);
  return v;
}

/** A control character (C0 or DEL): a line break, a tab, a carriage return... */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching them is the point
const CONTROL = /[\u0000-\u001f\u007f]/;

function text(ctx: Ctx, key: string, v: Json | undefined, fallback?: string): string {
  if (v === undefined && fallback !== undefined) return fallback;
  if (typeof v !== "string" || v.length === 0) fail(ctx, key, "a non-empty string", v);
  return v;
}

/** What each workload type accepts in `workload` (besides `type`) and which keys a grid may sweep. */
const WORKLOAD_KEYS: Readonly<
  Record<WorkloadSpec["type"], { keys: readonly string[]; grid: readonly string[] }>
> = {
  synthetic: { keys: ["jobs", "load"], grid: ["jobs", "load", "procs"] },
  swf: { keys: ["path", "clean", "estimate"], grid: ["procs"] },
  native: { keys: ["path"], grid: ["procs"] },
  model: { keys: ["model", "options"], grid: [] },
  elo: {
    keys: ["machines", "jobs", "fluctuation", "load"],
    grid: ["machines", "jobs", "fluctuation", "load"],
  },
};

/** The largest offered load of a synthetic workload (as `demo --load`). */
const MAX_LOAD = 10;

/**
 * A model option's JSON value as the text `parseModelOption` reads, checked first for its JSON
 * type (a number for an integer or a number, never the string `"5"`; `true`/`false`; `[lo, hi]`
 * for a range; an array of numbers for a list; a string for a choice) and, for integer options (counts: jobs, machines, …),
 * against {@link MAX_GENERATED_JOBS}.
 */
function modelOptionText(
  ctx: Ctx,
  key: string,
  model: string,
  option: ModelOption,
  v: Json,
): string {
  let text: string | undefined;
  let expected: string;
  switch (option.kind) {
    case "integer": {
      const [min, max] = PLATFORM_SIZE_BOUNDS.get(option.name) ?? [
        Number.MIN_SAFE_INTEGER,
        MAX_GENERATED_JOBS,
      ];
      expected =
        min === Number.MIN_SAFE_INTEGER ? `an integer <= ${max}` : `an integer in [${min}, ${max}]`;
      if (typeof v === "number" && Number.isSafeInteger(v) && v >= min && v <= max) {
        text = String(v);
      }
      break;
    }
    case "number":
      expected = "a number";
      if (typeof v === "number") text = String(v);
      break;
    case "boolean":
      expected = "true or false";
      if (typeof v === "boolean") text = String(v);
      break;
    case "range":
      expected = "[low, high], two numbers";
      if (Array.isArray(v) && v.length === 2 && v.every((x) => typeof x === "number")) {
        text = v.join(",");
      }
      break;
    case "list":
      expected = "an array of numbers";
      if (Array.isArray(v) && v.length > 0 && v.every((x) => typeof x === "number")) {
        text = v.join(",");
      }
      break;
    case "choice":
      expected = `one of ${(option.choices ?? []).map((c) => JSON.stringify(c)).join(", ")}`;
      if (typeof v === "string") text = v;
      break;
  }
  if (text === undefined) fail(ctx, key, expected, v);
  if (Array.isArray(v)) {
    const i = fractionalElement(option, v as number[]);
    if (i >= 0) fail(ctx, `${key}[${i}]`, "a whole number (each number of this option is)", v[i]);
  }
  try {
    parseModelOption(model, option.name, text);
  } catch (error) {
    if (!(error instanceof SchedError)) throw error;
    // the library names its API option (options.jobs): keep only what is wrong
    const detail = error.message.replace(/^[^:]*: options\.\S+ /, "");
    throw new UsageError(`sweep: ${ctx.file}: ${key}: ${detail}`, "sweep");
  }
  return text;
}

async function workloadSpec(
  ctx: Ctx,
  w: Json | undefined,
  platform: Json | undefined,
  baseDir: string,
): Promise<WorkloadSpec> {
  if (!isObject(w))
    fail(ctx, "workload", `an object with a "type" (${Object.keys(WORKLOAD_KEYS).join(", ")})`, w);
  const type = w.type;
  // an own key only: "__proto__" or "constructor" is not a workload type
  if (typeof type !== "string" || !Object.hasOwn(WORKLOAD_KEYS, type)) {
    const hint = typeof type === "string" ? suggest(type, Object.keys(WORKLOAD_KEYS)) : undefined;
    fail(
      ctx,
      "workload.type",
      `one of ${Object.keys(WORKLOAD_KEYS).join(", ")}${hint ? ` (did you mean ${hint}?)` : ""}`,
      type,
    );
  }
  checkKeys(ctx, "workload", w, ["type", ...WORKLOAD_KEYS[type as WorkloadSpec["type"]].keys]);
  const takesPlatform = type === "synthetic" || type === "swf" || type === "native";
  let procs: number | undefined;
  let platformFile: string | undefined;
  if (platform !== undefined) {
    if (!takesPlatform) {
      throw new UsageError(
        `sweep: ${ctx.file}: platform: not allowed with workload type ${type}, which builds its own platform`,
        "sweep",
      );
    }
    const takesFile = type === "swf" || type === "native";
    if (takesFile && typeof platform === "string") {
      platformFile = await platformFilePath(ctx, platform, baseDir);
    } else if (!isObject(platform)) {
      fail(
        ctx,
        "platform",
        takesFile
          ? 'a platform file (what gen --platform writes) or an object like {"procs": 128}'
          : `an object like {"procs": 128}${typeof platform === "string" ? " (a platform file is for workload types swf and native)" : ""}`,
        platform,
      );
    }
  }
  if (isObject(platform)) {
    checkKeys(ctx, "platform", platform, ["procs"]);
    procs =
      platform.procs === undefined
        ? undefined
        : integer(ctx, "platform.procs", platform.procs, 1, undefined, MAX_PROCS);
  }
  switch (type) {
    case "synthetic": {
      const load = positiveAtMost(ctx, "workload.load", w.load, MAX_LOAD, 0.5);
      return {
        type,
        jobs: integer(ctx, "workload.jobs", w.jobs, 1, 1000, MAX_GENERATED_JOBS),
        load,
        procs: procs ?? 128,
      };
    }
    case "swf": {
      const path = await traceFilePath(ctx, w.path, baseDir, "swf");
      if (w.clean !== undefined && typeof w.clean !== "boolean")
        fail(ctx, "workload.clean", "true or false", w.clean);
      const estimate = w.estimate ?? "requested";
      if (estimate !== "requested" && estimate !== "runtime") {
        fail(ctx, "workload.estimate", '"requested" or "runtime"', estimate);
      }
      return {
        type,
        path,
        clean: w.clean === true,
        estimate,
        ...(platformFile === undefined ? {} : { platform: platformFile }),
        ...(procs === undefined ? {} : { procs }),
      };
    }
    case "native": {
      const path = await traceFilePath(ctx, w.path, baseDir, "native");
      return {
        type,
        path,
        ...(platformFile === undefined ? {} : { platform: platformFile }),
        ...(procs === undefined ? {} : { procs }),
      };
    }
    case "model": {
      const names = WORKLOAD_MODELS.map((m) => m.name);
      const name = text(ctx, "workload.model", w.model);
      const model = WORKLOAD_MODELS.find((m) => m.name === name);
      if (model === undefined) {
        const hint = suggest(name, names);
        fail(
          ctx,
          "workload.model",
          `one of ${names.join(", ")}${hint ? ` (did you mean ${hint}?)` : ""}`,
          name,
        );
      }
      const given = w.options ?? {};
      if (!isObject(given))
        fail(ctx, "workload.options", "an object of the model's options", given);
      const known = model.options.map((o) => o.name).filter((n) => n !== "seed");
      if (given.seed !== undefined) {
        throw new UsageError(
          `sweep: ${ctx.file}: workload.options.seed: not allowed; each run's seed comes from "seeds"`,
          "sweep",
        );
      }
      checkKeys(ctx, "workload.options", given, known);
      const options: Record<string, string> = {};
      for (const [k, v] of Object.entries(given)) {
        const option = model.options.find((o) => o.name === k) as ModelOption;
        options[k] = modelOptionText(ctx, `workload.options.${k}`, name, option, v);
      }
      return { type, model: name, options };
    }
    default:
      return {
        type: "elo",
        machines: integer(ctx, "workload.machines", w.machines, 1, 30, MAX_PROCS),
        jobs: integer(ctx, "workload.jobs", w.jobs, 1, 10, MAX_GENERATED_JOBS),
        fluctuation: nonNegative(ctx, "workload.fluctuation", w.fluctuation, 0.1),
        load: nonNegative(ctx, "workload.load", w.load, 0),
      };
  }
}

/** What a trace's name says it is, as `run` tells them apart: `.jsonl` (gzipped or not) is native. */
const NATIVE_NAME = /\.jsonl(\.gz)?$/i;
const SWF_NAME = /\.swf(\.gz)?$/i;

/**
 * `workload.path`, resolved against the experiment file's directory: a file that exists, whose
 * name does not say it is the other format (`run` reads `.jsonl` as native, anything else as
 * SWF; read as the wrong one, the first line would fail with a message about its fields).
 */
async function traceFilePath(
  ctx: Ctx,
  v: Json | undefined,
  baseDir: string,
  type: "swf" | "native",
): Promise<string> {
  const rel = text(ctx, "workload.path", v);
  const other = type === "swf" ? NATIVE_NAME.test(rel) : SWF_NAME.test(rel);
  if (other) {
    fail(
      ctx,
      "workload.path",
      type === "swf"
        ? 'an SWF trace; this name is a native JSON Lines workload\'s: give "type": "native"'
        : 'a native JSON Lines workload; this name is an SWF trace\'s: give "type": "swf"',
      rel,
    );
  }
  const path = resolve(baseDir, rel);
  try {
    if (!(await stat(path)).isFile()) fail(ctx, "workload.path", "a file", rel);
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(
      `sweep: ${ctx.file}: workload.path: cannot read ${path}: ${describeFsError(error)}`,
      "sweep",
    );
  }
  return path;
}

/**
 * An SWF or native workload's `platform` file, resolved against the experiment file's directory, read
 * and checked as its runs will read it (`readPlatformFile`): what is wrong with it is said here,
 * once, as a mistake in the experiment file (`sweep: exp.json: platform: p.json:3:5: is not
 * valid JSON (…)`), not by every run.
 */
async function platformFilePath(ctx: Ctx, rel: string, baseDir: string): Promise<string> {
  if (rel.length === 0) fail(ctx, "platform", "a non-empty file name", rel);
  const path = resolve(baseDir, rel);
  try {
    if (!(await stat(path)).isFile()) fail(ctx, "platform", "a platform file", rel);
    await readPlatformFile(path, "sweep");
  } catch (error) {
    if (error instanceof UsageError) throw error;
    const detail = error instanceof Error ? error.message.replace(/^sweep: /, "") : String(error);
    throw new UsageError(
      `sweep: ${ctx.file}: platform: ${error instanceof SchedError ? detail : `cannot read ${path}: ${describeFsError(error)}`}`,
      "sweep",
    );
  }
  return path;
}

function gridKeys(workload: WorkloadSpec): readonly string[] {
  if (workload.type === "model") {
    const model = WORKLOAD_MODELS.find((m) => m.name === workload.model);
    return (model?.options ?? [])
      .filter((o) => (o.kind === "integer" || o.kind === "number") && o.name !== "seed")
      .map((o) => o.name);
  }
  return WORKLOAD_KEYS[workload.type].grid;
}

/**
 * Check one value of a grid list as the workload's own key is checked (`procs` as
 * `platform.procs`, `jobs` as `workload.jobs`, a model's option as in `workload.options`: its
 * type, and the limits on sizes). A model's generator may still refuse a value when it runs
 * (`arrivalFactor: -1`): that run fails with the generator's error.
 */
function gridValue(ctx: Ctx, key: string, workload: WorkloadSpec, param: string, x: Json): number {
  if (typeof x !== "number" || !Number.isFinite(x)) fail(ctx, key, "a finite number", x);
  if (!keepsItsDigits(x)) fail(ctx, key, GRID_DIGITS, x);
  switch (workload.type) {
    case "model": {
      const model = WORKLOAD_MODELS.find((m) => m.name === workload.model);
      const option = model?.options.find((o) => o.name === param) as ModelOption;
      modelOptionText(ctx, key, workload.model, option, x);
      return x;
    }
    case "elo":
      if (param === "machines") return integer(ctx, key, x, 1, undefined, MAX_PROCS);
      if (param === "jobs") return integer(ctx, key, x, 1, undefined, MAX_GENERATED_JOBS);
      return nonNegative(ctx, key, x, 0);
    default:
      if (param === "procs") return integer(ctx, key, x, 1, undefined, MAX_PROCS);
      if (param === "jobs") return integer(ctx, key, x, 1, undefined, MAX_GENERATED_JOBS);
      return positiveAtMost(ctx, key, x, MAX_LOAD, 0);
  }
}

/**
 * Refuses a model workload whose platform would exceed {@link MAX_PROCS} processors at some grid
 * point, as `gen` refuses its flags (the product of the options that size it, given in
 * `workload.options`, swept in `grid`, or their defaults): each factor is named by its field path,
 * a grid one by the largest value of its list (the product grows with each factor).
 */
function checkModelPlatform(
  ctx: Ctx,
  workload: Extract<WorkloadSpec, { type: "model" }>,
  params: readonly string[],
  values: readonly (readonly number[])[],
): void {
  const model = WORKLOAD_MODELS.find((m) => m.name === workload.model);
  if (model === undefined) return;
  const typed: Record<string, unknown> = {};
  const path = new Map<string, string>();
  for (const [k, text] of Object.entries(workload.options)) {
    typed[k] = parseModelOption(model.name, k, text);
    path.set(k, `workload.options.${k}`);
  }
  params.forEach((p, i) => {
    const list = values[i] as readonly number[];
    const largest = list.indexOf(Math.max(...list));
    typed[p] = list[largest];
    path.set(p, `grid.${p}[${largest}]`);
  });
  const excess = platformSizeExcess(model, typed, (o, size, items) => {
    const where = path.get(o.name) ?? `workload.options.${o.name} (default)`;
    return items ? `${where} (${size} items)` : `${where} ${size}`;
  });
  if (excess !== undefined) throw new UsageError(`sweep: ${ctx.file}: ${excess}`, "sweep");
}

/**
 * Checks that every run of a native workload has machines, before any run: a platform file,
 * else a `procs` (the file's or the grid's), else the header's `meta.procs`, read from the
 * file's first lines, which must hold a job (`run` refuses a file without one).
 *
 * @throws UsageError naming `platform`; the reader's ParseError (`sweep: FILE:1: …`) for a bad
 *   first line.
 */
async function checkNativeMachines(
  ctx: Ctx,
  workload: Extract<WorkloadSpec, { type: "native" }>,
  params: readonly string[],
): Promise<void> {
  const head = await readNativeHead(workload.path, "sweep");
  requireJobs("sweep", workload.path, head.job ? 1 : 0);
  if (workload.platform !== undefined || workload.procs !== undefined) return;
  if (params.includes("procs")) return;
  const procs = headerProcs(undefined, head.header);
  if (procs === undefined) {
    throw new UsageError(
      `sweep: ${ctx.file}: platform: ${workload.path} has no header line with meta.procs; give "platform": "FILE" (the machines, as gen --platform writes them) or {"procs": N}`,
      "sweep",
    );
  }
  if (procs > MAX_PROCS) {
    throw new UsageError(
      `sweep: ${ctx.file}: platform: the header of ${workload.path} gives meta.procs ${procs}, above the ${MAX_PROCS} processors a simulated machine may have; give "platform": {"procs": N}`,
      "sweep",
    );
  }
}

function schedulers(ctx: Ctx, v: Json | undefined): PlannedScheduler[] {
  if (!Array.isArray(v) || v.length === 0) {
    fail(
      ctx,
      "schedulers",
      'a non-empty array of names or {"name", "options", "label"} objects',
      v,
    );
  }
  const out = v.map((s, i): PlannedScheduler => {
    const key = `schedulers[${i}]`;
    const entry = typeof s === "string" ? { name: s } : s;
    if (!isObject(entry)) fail(ctx, key, 'a scheduler name or {"name": ..., "options": {...}}', s);
    checkKeys(ctx, key, entry, ["name", "options", "label"]);
    const name = text(ctx, `${key}.name`, entry.name);
    const options = entry.options ?? {};
    if (!isObject(options))
      fail(ctx, `${key}.options`, "an object of the scheduler's options", options);
    let entryOptions: ReturnType<typeof findScheduler>["options"];
    try {
      entryOptions = findScheduler(name, "sweep").options;
    } catch (error) {
      const message =
        error instanceof Error ? error.message.replace(/^sweep: option --scheduler: /, "") : "";
      throw new UsageError(`sweep: ${ctx.file}: ${key}.name: ${message}`, "sweep");
    }
    const opts = Object.entries(options).map(([k, value]) => {
      const option = entryOptions.find((o) => o.key === k);
      if (option === undefined) {
        const known = entryOptions.map((o) => o.key);
        const hint = suggest(k, known);
        throw new UsageError(
          `sweep: ${ctx.file}: ${key}.options.${k}: scheduler '${name}' has no option '${k}'${hint ? ` (did you mean ${hint}?)` : ""}${known.length > 0 ? `; it has ${known.join(", ")}` : "; it takes no options"}`,
          "sweep",
        );
      }
      const typed = jsonOptionValue(option, value);
      if (typed === undefined) fail(ctx, `${key}.options.${k}`, expectedOptionValue(option), value);
      return `${k}=${optionText(typed)}`;
    });
    let choice: ReturnType<typeof chooseScheduler>;
    try {
      choice = chooseScheduler(name, opts, "sweep");
    } catch (error) {
      const message =
        error instanceof Error ? error.message.replace(/^sweep: /, "") : String(error);
      throw new UsageError(`sweep: ${ctx.file}: ${key}: ${message}`, "sweep");
    }
    const label = entry.label === undefined ? choice.label : text(ctx, `${key}.label`, entry.label);
    // Labels head the rows of the printed tables (sweep, compare, report): a line break or a
    // tab in one would split or shift its row.
    if (CONTROL.test(label)) {
      fail(
        ctx,
        entry.label === undefined ? `${key}.options` : `${key}.label`,
        `a label without control characters (a line break, a tab): it heads a row of the printed tables${entry.label === undefined ? '; give "label"' : ""}`,
        label,
      );
    }
    return { name, opts, label };
  });
  const seen = new Set<string>();
  out.forEach((s, i) => {
    if (seen.has(s.label)) {
      fail(
        ctx,
        `schedulers[${i}]`,
        `a label not used twice (give "label"); '${s.label}' is repeated`,
      );
    }
    seen.add(s.label);
  });
  return out;
}

function seeds(ctx: Ctx, v: Json | undefined): number[] {
  if (v === undefined) return [1];
  if (typeof v === "number") {
    // checked before the list is built: "seeds": 1e9 is an error, not a billion-entry array
    const n = integer(ctx, "seeds", v, 1, undefined, MAX_SEEDS);
    return Array.from({ length: n }, (_, i) => i + 1);
  }
  if (!Array.isArray(v) || v.length === 0 || v.length > MAX_SEEDS)
    fail(
      ctx,
      "seeds",
      `a count N (seeds 1..N, N <= ${MAX_SEEDS}) or an array of 1 to ${MAX_SEEDS} integers`,
      v,
    );
  const list = v.map((s, i) => integer(ctx, `seeds[${i}]`, s, 0));
  const seen = new Map<number, number>();
  list.forEach((s, i) => {
    const first = seen.get(s);
    if (first !== undefined) {
      fail(ctx, `seeds[${i}]`, `a seed not given before; ${s} is seeds[${first}] too`);
    }
    seen.set(s, i);
  });
  return list;
}

function metrics(ctx: Ctx, v: Json | undefined): string[] {
  if (v === undefined) return [...DEFAULT_METRICS];
  const known = METRICS.map((m) => m.key);
  if (!Array.isArray(v) || v.length === 0)
    fail(ctx, "metrics", `a non-empty array of ${known.join(", ")}`, v);
  return v.map((m, i) => {
    if (typeof m === "string" && v.indexOf(m) < i) {
      fail(ctx, `metrics[${i}]`, `a metric not given before; ${m} is metrics[${v.indexOf(m)}] too`);
    }
    if (typeof m !== "string" || !known.includes(m)) {
      const hint = typeof m === "string" ? suggest(m, known) : undefined;
      fail(
        ctx,
        `metrics[${i}]`,
        `one of ${known.join(", ")}${hint ? ` (did you mean ${hint}?)` : ""}`,
        m,
      );
    }
    return m;
  });
}

const TOP_KEYS = [
  "$schema",
  "name",
  "title",
  "description",
  "workload",
  "platform",
  "schedulers",
  "grid",
  "seeds",
  "metrics",
];

/**
 * Read and validate the experiment file at `path` (JSON, at most {@link MAX_EXPERIMENT_BYTES}
 * bytes) into a {@link SweepPlan}. Every problem is a {@link UsageError} naming the file, the key
 * (`schedulers[1].options.order`) and what was expected. Relative trace paths are resolved
 * against the file's directory.
 *
 * @throws UsageError as described.
 */
export async function readExperimentFile(path: string): Promise<SweepPlan> {
  let raw: string;
  try {
    raw = await readTextFile(path, { where: "sweep", maxBytes: MAX_EXPERIMENT_BYTES });
  } catch (error) {
    if (error instanceof SchedError) {
      // too large, not UTF-8: the experiment file is the command's input, so bad usage
      throw new UsageError(
        `sweep: experiment file ${error.message.replace(/^sweep: /, "")}`,
        "sweep",
      );
    }
    throw new UsageError(
      `sweep: cannot read experiment file ${path}: ${describeFsError(error)}`,
      "sweep",
    );
  }
  let doc: Json;
  try {
    doc = JSON.parse(raw) as Json;
  } catch (error) {
    const bad = jsonSyntaxError(raw, error);
    throw new UsageError(
      `sweep: ${path}${bad.line === undefined ? "" : `:${bad.line}:${bad.column}`}: not valid JSON (${bad.message})`,
      "sweep",
    );
  }
  const twice = duplicateJsonKey(raw);
  if (twice !== null) {
    throw new UsageError(
      `sweep: ${path}: ${twice}: appears twice in one object (JSON would keep the last; give it once)`,
      "sweep",
    );
  }
  return planFromDocument(doc, path, dirname(resolve(path)));
}

/**
 * Validate a parsed experiment document (see {@link readExperimentFile}). Sizes are checked
 * before anything of that size is built: `seeds` (at most {@link MAX_SEEDS}), processors and
 * jobs (the limits of `limits.ts`), and the runs, grid points x seeds x schedulers (at most
 * {@link MAX_RUNS}), before the grid's points are listed.
 */
export async function planFromDocument(
  doc: unknown,
  file: string,
  baseDir: string,
): Promise<SweepPlan> {
  const ctx: Ctx = { file };
  const d = doc as Json;
  if (!isObject(d)) {
    fail(ctx, "(top level)", 'an object with name, and workload and schedulers or "experiment"', d);
  }
  const name = text(ctx, "name", d.name);
  if (!/^[A-Za-z0-9._-]+$/.test(name)) fail(ctx, "name", "letters, digits, '.', '_' or '-'", name);
  if (d.experiment !== undefined) return registryPlanFromDocument(d, file, name);
  checkKeys(ctx, "", d, TOP_KEYS);
  const workload = await workloadSpec(ctx, d.workload, d.platform, baseDir);
  const grid = d.grid ?? {};
  if (!isObject(grid))
    fail(ctx, "grid", 'an object of parameter -> values, e.g. {"load": [0.3, 0.5]}', grid);
  const allowed = gridKeys(workload);
  const params = Object.keys(grid);
  const values = params.map((p) => {
    if (!allowed.includes(p)) {
      const hint = suggest(p, allowed);
      throw new UsageError(
        `sweep: ${file}: grid.${p}: not a parameter of workload type ${workload.type}${hint ? ` (did you mean ${hint}?)` : ""}; it can sweep ${allowed.length > 0 ? allowed.join(", ") : "nothing"}`,
        "sweep",
      );
    }
    const list = grid[p];
    if (!Array.isArray(list) || list.length === 0)
      fail(ctx, `grid.${p}`, "a non-empty array of numbers", list);
    const numbers = list.map((x, i) => gridValue(ctx, `grid.${p}[${i}]`, workload, p, x));
    const seen = new Map<number, number>();
    numbers.forEach((x, i) => {
      const first = seen.get(x);
      if (first !== undefined) {
        fail(ctx, `grid.${p}[${i}]`, `a value not given before; ${x} is grid.${p}[${first}] too`);
      }
      seen.set(x, i);
    });
    return numbers;
  });
  if (workload.type === "model") checkModelPlatform(ctx, workload, params, values);
  if ((workload.type === "swf" || workload.type === "native") && workload.platform !== undefined) {
    if (params.includes("procs")) {
      throw new UsageError(
        `sweep: ${file}: grid.procs: not a parameter when "platform" is a platform file (its machines are fixed); to sweep procs, give "platform": {"procs": N} instead`,
        "sweep",
      );
    }
  }
  if (workload.type === "native") await checkNativeMachines(ctx, workload, params);
  const seedList = seeds(ctx, d.seeds);
  const planned = schedulers(ctx, d.schedulers);
  const runs = values.reduce((n, list) => n * list.length, 1) * seedList.length * planned.length;
  if (runs > MAX_RUNS) {
    throw new UsageError(
      `sweep: ${file}: the grid (${values.map((l) => l.length).join(" x ") || "1"} points) x ${seedList.length} seeds x ${planned.length} schedulers make ${runs} runs, more than the ${MAX_RUNS} a sweep may have`,
      "sweep",
    );
  }
  return {
    name,
    title: d.title === undefined ? name : text(ctx, "title", d.title),
    description: d.description === undefined ? "" : text(ctx, "description", d.description),
    source: { kind: "file", workload },
    params,
    points: gridPoints(values),
    seeds: seedList,
    schedulers: planned,
    metrics: metrics(ctx, d.metrics),
  };
}
