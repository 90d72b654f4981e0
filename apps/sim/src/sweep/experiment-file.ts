import { readFile, stat } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import { parseModelOption, WORKLOAD_MODELS } from "@sched/workload";
import { suggest } from "../args.js";
import { describeFsError } from "../atomic.js";
import { chooseScheduler } from "../schedulers.js";
import { UsageError } from "../usage-error.js";
import { DEFAULT_METRICS, METRICS } from "./metrics.js";
import { gridPoints, type PlannedScheduler, type SweepPlan, type WorkloadSpec } from "./plan.js";
import { registryPlanFromDocument } from "./registry-file.js";

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
): number {
  if (v === undefined && fallback !== undefined) return fallback;
  if (typeof v !== "number" || !Number.isSafeInteger(v) || v < min) {
    fail(ctx, key, `an integer >= ${min}`, v);
  }
  return v;
}

function positive(ctx: Ctx, key: string, v: Json | undefined, fallback?: number): number {
  if (v === undefined && fallback !== undefined) return fallback;
  if (typeof v !== "number" || !Number.isFinite(v) || v <= 0) fail(ctx, key, "a number > 0", v);
  return v;
}

function nonNegative(ctx: Ctx, key: string, v: Json | undefined, fallback: number): number {
  if (v === undefined) return fallback;
  if (typeof v !== "number" || !Number.isFinite(v) || v < 0) fail(ctx, key, "a number >= 0", v);
  return v;
}

function text(ctx: Ctx, key: string, v: Json | undefined, fallback?: string): string {
  if (v === undefined && fallback !== undefined) return fallback;
  if (typeof v !== "string" || v.length === 0) fail(ctx, key, "a non-empty string", v);
  return v;
}

/** What each workload type accepts in `workload` (besides `type`) and which keys a grid may sweep. */
const WORKLOAD_KEYS: Record<string, { keys: readonly string[]; grid: readonly string[] }> = {
  synthetic: { keys: ["jobs", "load"], grid: ["jobs", "load", "procs"] },
  swf: { keys: ["path", "clean", "estimate"], grid: ["procs"] },
  model: { keys: ["model", "options"], grid: [] },
  elo: {
    keys: ["machines", "jobs", "fluctuation", "load"],
    grid: ["machines", "jobs", "fluctuation", "load"],
  },
};

async function workloadSpec(
  ctx: Ctx,
  w: Json | undefined,
  platform: Json | undefined,
  baseDir: string,
): Promise<WorkloadSpec> {
  if (!isObject(w))
    fail(ctx, "workload", `an object with a "type" (${Object.keys(WORKLOAD_KEYS).join(", ")})`, w);
  const type = w.type;
  if (typeof type !== "string" || WORKLOAD_KEYS[type] === undefined) {
    const hint = typeof type === "string" ? suggest(type, Object.keys(WORKLOAD_KEYS)) : undefined;
    fail(
      ctx,
      "workload.type",
      `one of ${Object.keys(WORKLOAD_KEYS).join(", ")}${hint ? ` (did you mean ${hint}?)` : ""}`,
      type,
    );
  }
  checkKeys(ctx, "workload", w, [
    "type",
    ...(WORKLOAD_KEYS[type] as { keys: readonly string[] }).keys,
  ]);
  const takesPlatform = type === "synthetic" || type === "swf";
  let procs: number | undefined;
  if (platform !== undefined) {
    if (!takesPlatform) {
      throw new UsageError(
        `sweep: ${ctx.file}: platform: not allowed with workload type ${type}, which builds its own platform`,
        "sweep",
      );
    }
    if (!isObject(platform)) fail(ctx, "platform", 'an object like {"procs": 128}', platform);
    checkKeys(ctx, "platform", platform, ["procs"]);
    procs =
      platform.procs === undefined ? undefined : integer(ctx, "platform.procs", platform.procs, 1);
  }
  switch (type) {
    case "synthetic": {
      const load = positive(ctx, "workload.load", w.load, 0.5);
      return {
        type,
        jobs: integer(ctx, "workload.jobs", w.jobs, 1, 1000),
        load,
        procs: procs ?? 128,
      };
    }
    case "swf": {
      const rel = text(ctx, "workload.path", w.path);
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
        const asText = Array.isArray(v) ? v.map(String).join(",") : String(v);
        try {
          parseModelOption(name, k, asText);
        } catch (error) {
          throw new UsageError(
            `sweep: ${ctx.file}: workload.options.${k}: ${error instanceof Error ? error.message : String(error)}`,
            "sweep",
          );
        }
        options[k] = asText;
      }
      return { type, model: name, options };
    }
    default:
      return {
        type: "elo",
        machines: integer(ctx, "workload.machines", w.machines, 1, 30),
        jobs: integer(ctx, "workload.jobs", w.jobs, 1, 10),
        fluctuation: nonNegative(ctx, "workload.fluctuation", w.fluctuation, 0.1),
        load: nonNegative(ctx, "workload.load", w.load, 0),
      };
  }
}

function gridKeys(workload: WorkloadSpec): readonly string[] {
  if (workload.type === "model") {
    const model = WORKLOAD_MODELS.find((m) => m.name === workload.model);
    return (model?.options ?? [])
      .filter((o) => (o.kind === "integer" || o.kind === "number") && o.name !== "seed")
      .map((o) => o.name);
  }
  return (WORKLOAD_KEYS[workload.type] as { grid: readonly string[] }).grid;
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
    const opts = Object.entries(options).map(([k, value]) => {
      if (typeof value !== "string" && typeof value !== "number" && typeof value !== "boolean") {
        fail(ctx, `${key}.options.${k}`, "a number, boolean or string", value);
      }
      return `${k}=${value}`;
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
    const n = integer(ctx, "seeds", v, 1);
    return Array.from({ length: n }, (_, i) => i + 1);
  }
  if (!Array.isArray(v) || v.length === 0)
    fail(ctx, "seeds", "a count N (seeds 1..N) or a non-empty array of integers", v);
  const list = v.map((s, i) => integer(ctx, `seeds[${i}]`, s, 0));
  if (new Set(list).size !== list.length) fail(ctx, "seeds", "distinct seeds", v);
  return list;
}

function metrics(ctx: Ctx, v: Json | undefined): string[] {
  if (v === undefined) return [...DEFAULT_METRICS];
  const known = METRICS.map((m) => m.key);
  if (!Array.isArray(v) || v.length === 0)
    fail(ctx, "metrics", `a non-empty array of ${known.join(", ")}`, v);
  return v.map((m, i) => {
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
 * Read and validate the experiment file at `path` (JSON) into a {@link SweepPlan}. Every problem
 * is a {@link UsageError} naming the file, the key (`schedulers[1].options.order`) and what was
 * expected. Relative trace paths are resolved against the file's directory.
 *
 * @throws UsageError as described.
 */
export async function readExperimentFile(path: string): Promise<SweepPlan> {
  let raw: string;
  try {
    raw = await readFile(path, "utf8");
  } catch (error) {
    throw new UsageError(
      `sweep: cannot read experiment file ${path}: ${describeFsError(error)}`,
      "sweep",
    );
  }
  let doc: Json;
  try {
    doc = JSON.parse(raw) as Json;
  } catch (error) {
    throw new UsageError(
      `sweep: ${path}: not valid JSON: ${error instanceof Error ? error.message : String(error)}`,
      "sweep",
    );
  }
  return planFromDocument(doc, path, dirname(resolve(path)));
}

/** Validate a parsed experiment document (see {@link readExperimentFile}). */
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
    const numbers = list.map((x, i) => {
      if (typeof x !== "number" || !Number.isFinite(x))
        fail(ctx, `grid.${p}[${i}]`, "a finite number", x);
      return x;
    });
    if (new Set(numbers).size !== numbers.length) fail(ctx, `grid.${p}`, "distinct values", list);
    return numbers;
  });
  return {
    name,
    title: d.title === undefined ? name : text(ctx, "title", d.title),
    description: d.description === undefined ? "" : text(ctx, "description", d.description),
    source: { kind: "file", workload },
    params,
    points: gridPoints(values),
    seeds: seeds(ctx, d.seeds),
    schedulers: schedulers(ctx, d.schedulers),
    metrics: metrics(ctx, d.metrics),
  };
}
