import { readFileSync, statSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import type { Job } from "@sched/core";
import { parsePlatformJson, WORKLOAD_MODELS } from "@sched/workload";
import { SCHEDULERS } from "../../src/schedulers.js";
import { DEFAULT_METRICS, METRICS } from "../../src/sweep/metrics.js";
import type { SweepPlan } from "../../src/sweep/plan.js";
import type { FuzzCase } from "./inputs.js";

// Reference readers, written apart from the real ones from the formats' rules as the READMEs
// state them, to tell a correct answer from a wrong one: what a reader must return for a valid
// input, and where it must stop for an invalid one. They are simple and slow on purpose.

/** The largest exact integer; times, ids and SWF fields may not exceed it. */
const MAX = 2 ** 53 - 1;
/** The CLI's limit on a line (characters). */
const MAX_LINE = 1024 * 1024;
/** The CLI's limit on a machine, on generated jobs, seeds and runs of an experiment. */
const MAX_PROCS = 1_000_000;
const MAX_JOBS = 1_000_000;
const MAX_SEEDS = 10_000;
const MAX_RUNS = 1_000_000;
/** Six and four SWF fields, read by column. */
type Six = [number, number, number, number, number, number];
type Four = [number, number, number, number];

/** What a reader must do with an input. */
export type Verdict =
  | {
      readonly ok: true;
      readonly jobs: readonly Job[];
      /** The machine size the file declares (SWF header, native meta.procs, Batsim nb_res). */
      readonly procs: number | undefined;
    }
  | {
      readonly ok: false;
      readonly reason: string;
      /** The 1-based line the error must name, when the rules say (not for decoding errors). */
      readonly line?: number;
      /** The job index (Batsim) the error must name. */
      readonly record?: number;
    };

const bad = (reason: string, at: { line?: number; record?: number } = {}): Verdict => ({
  ok: false,
  reason,
  ...at,
});

const isInt = (v: unknown, min = -MAX): v is number =>
  typeof v === "number" && Number.isInteger(v) && v >= min && v <= MAX;
const isNum = (v: unknown): v is number => typeof v === "number" && Number.isFinite(v);
const isPlain = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** Whether `base + span` holds `span` to one part in a million and stays below 2^53. */
function spanHolds(base: number, span: number): boolean {
  const end = base + span;
  return span <= MAX && end <= MAX && Math.abs(end - base - span) <= span * 1e-6;
}

/**
 * The text of a file's bytes as the CLI must read them (gunzipped when its magic bytes say
 * gzip, whatever its name), split into lines, or why it cannot be read. Traces have a limit on
 * a line; files read whole (Batsim, experiments) do not.
 */
export function textOf(
  c: FuzzCase,
  lineLimit = true,
): { text: string; lines: string[]; longLine?: number } | { error: Verdict } {
  let bytes: Uint8Array = c.bytes;
  if (bytes[0] === 0x1f && bytes[1] === 0x8b) {
    try {
      bytes = gunzipSync(bytes);
    } catch {
      return { error: bad("corrupt gzip") };
    }
  }
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return { error: bad("not UTF-8") };
  }
  const lines = text.split(/\r\n|\r|\n/);
  if (lines.at(-1) === "") lines.pop();
  if (lineLimit) {
    // a line past the limit stops the reading there, after the lines before it were read
    const long = lines.findIndex((l) => l.length > MAX_LINE);
    if (long !== -1) return { text, lines: lines.slice(0, long), longLine: long + 1 };
  }
  return { text, lines };
}

/** The verdict at the end of the lines: the line limit when reading stopped there. */
function endOfLines(t: { longLine?: number }): Verdict | null {
  return t.longLine === undefined ? null : bad("line too long", { line: t.longLine });
}

/**
 * Whether a valid JSON text has a key twice in one object (JSON.parse keeps the last one): a
 * small recursive-descent reader, apart from the readers' own scanner.
 */
export function hasDuplicateKey(text: string): boolean {
  let i = 0;
  const space = () => {
    while (i < text.length && " \t\n\r".includes(text[i] as string)) i++;
  };
  const string = (): string => {
    const start = i;
    i++;
    while (text[i] !== '"') i += text[i] === "\\" ? 2 : 1;
    i++;
    return JSON.parse(text.slice(start, i)) as string;
  };
  const value = (): boolean => {
    space();
    const c = text[i];
    if (c === "{") {
      i++;
      const keys: string[] = [];
      space();
      if (text[i] === "}") {
        i++;
        return false;
      }
      for (;;) {
        space();
        const k = string();
        if (keys.includes(k)) return true;
        keys.push(k);
        space();
        i++; // :
        if (value()) return true;
        space();
        if (text[i++] === "}") return false;
      }
    }
    if (c === "[") {
      i++;
      space();
      if (text[i] === "]") {
        i++;
        return false;
      }
      for (;;) {
        if (value()) return true;
        space();
        if (text[i++] === "]") return false;
      }
    }
    if (c === '"') {
      string();
      return false;
    }
    while (i < text.length && !",]} \t\n\r".includes(text[i] as string)) i++;
    return false;
  };
  return value();
}

// ---------------------------------------------------------------- SWF

const SWF_NUMBER = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;
const swfNumber = (t: string): number | null => {
  if (!SWF_NUMBER.test(t)) return null;
  const n = Number(t);
  return Math.abs(n) <= MAX ? n : null;
};

/** Typed header directives: integer or number, and the least value. */
const HEADER: Record<string, { integer: boolean; min: number }> = {
  maxjobs: { integer: true, min: 0 },
  maxrecords: { integer: true, min: 0 },
  unixstarttime: { integer: true, min: -MAX },
  timezone: { integer: true, min: -MAX },
  maxnodes: { integer: true, min: 1 },
  maxprocs: { integer: true, min: 1 },
  maxruntime: { integer: false, min: 0 },
  maxmemory: { integer: false, min: 0 },
  maxqueues: { integer: true, min: 0 },
  maxpartitions: { integer: true, min: 0 },
};
const SINGLE_TEXT = new Set(
  "version computer installation acknowledge information conversion preemption timezonestring starttime endtime".split(
    " ",
  ),
);

/** What `inspect` (with the case's --clean and --estimate) must read from an SWF file. */
export function swfVerdict(c: FuzzCase): Verdict {
  const t = textOf(c);
  if ("error" in t) return t.error;
  const seen = new Set<string>();
  const header: Record<string, number> = {};
  const records: { fields: number[]; line: number }[] = [];
  let data = false;
  for (const [i, raw] of t.lines.entries()) {
    const line = i + 1;
    const text = raw.trim();
    if (text === "") continue;
    if (text.startsWith(";")) {
      if (data) continue;
      const m = /^;[ \t]?([A-Za-z][A-Za-z0-9_-]*)[ \t]*:(.*)$/.exec(text);
      if (m === null) continue;
      const key = (m[1] as string).toLowerCase();
      const value = (m[2] as string).trim();
      if (seen.has(key)) continue; // a second one is kept as text
      if (key in HEADER) {
        const rule = HEADER[key] as { integer: boolean; min: number };
        const n = swfNumber(value);
        if (n === null || (rule.integer && !Number.isInteger(n)) || n < rule.min) {
          return bad(`header ${key}`, { line });
        }
        header[key] = n;
        seen.add(key);
      } else if (key === "allowoveruse") {
        if (!["yes", "no", "true", "false"].includes(value.toLowerCase())) {
          return bad("header AllowOveruse", { line });
        }
        seen.add(key);
      } else if (SINGLE_TEXT.has(key)) {
        seen.add(key);
      }
      continue;
    }
    data = true;
    const tokens = text.split(/\s+/);
    if (tokens.length !== 18) return bad("not 18 fields", { line });
    const fields = tokens.map(swfNumber);
    if (fields.some((f) => f === null)) return bad("a field is not a number", { line });
    records.push({ fields: fields as number[], line });
  }
  const stopped = endOfLines(t);
  if (stopped !== null) return stopped;
  const { clean } = c.swf;
  const estimateFrom =
    c.swf.estimate === "auto"
      ? records.some((r) => (r.fields[8] as number) > 0)
        ? "requested"
        : "runtime"
      : c.swf.estimate;
  const jobs: Job[] = [];
  const ids = new Set<number>();
  for (const { fields: f, line } of records) {
    // a record the conversion refuses is named by its file and line, as a line it cannot read
    const at = { line };
    // the fields by their 1-based SWF column
    const field = (column: number) => f[column - 1] as number;
    const [id, submit, run, alloc, req, reqTime] = [1, 2, 4, 5, 8, 9].map(field) as Six;
    const [user, group, queue, partition] = [12, 13, 15, 16].map(field) as Four;
    if (!isInt(id, 0)) return bad("job number", at);
    if (ids.has(id)) return bad("job number twice", at);
    ids.add(id);
    if (!(submit >= 0)) return bad("submit", at);
    for (const v of [user, group, queue, partition]) {
      if (v !== -1 && !isInt(v, 0)) return bad("user/group/queue/partition", at);
    }
    const size = alloc > 0 ? alloc : req;
    let runtime = run;
    if (!(runtime > 0)) {
      if (clean) continue;
      return bad("run time", at);
    }
    if (!(size > 0)) {
      if (clean) continue;
      return bad("processors", at);
    }
    let estimate = runtime;
    if (estimateFrom === "requested") {
      estimate = reqTime;
      if (!(estimate > 0)) {
        if (clean) continue;
        return bad("requested time", at);
      }
      if (clean && runtime > estimate) runtime = estimate;
    }
    if (!Number.isInteger(size)) return bad("fractional size", at);
    if (!spanHolds(submit, runtime) || !spanHolds(submit, estimate)) return bad("times", at);
    const job: Record<string, number> = { id, submit, runtime, estimate, cores: size };
    if (user >= 0) job.user = user;
    if (group >= 0) job.group = group;
    if (queue >= 0) job.queue = queue;
    if (partition >= 0) job.partition = partition;
    jobs.push(job as unknown as Job);
  }
  if (jobs.length === 0) return bad("no jobs");
  return { ok: true, jobs, procs: header.maxprocs ?? header.maxnodes };
}

// ---------------------------------------------------------------- native JSON Lines

const JOB_KEYS = new Set(
  "id submit runtime estimate cores deadline ready licenses input benchmark maxParallelism tasks user group queue partition priority".split(
    " ",
  ),
);

/** The first problem of one native job object, or the job it is. */
function nativeJob(o: Record<string, unknown>): Job | string {
  for (const k of Object.keys(o)) if (!JOB_KEYS.has(k)) return `unknown field ${k}`;
  for (const k of ["id", "submit", "runtime", "cores"]) if (!Object.hasOwn(o, k)) return `no ${k}`;
  const has = (k: string) => Object.hasOwn(o, k);
  if (!isInt(o.id, 0)) return "id";
  if (!isNum(o.submit)) return "submit";
  if (!isNum(o.runtime) || o.runtime <= 0) return "runtime";
  if (has("estimate") && (!isNum(o.estimate) || o.estimate <= 0)) return "estimate";
  if (!isInt(o.cores, 1)) return "cores";
  if (has("deadline") && !isNum(o.deadline)) return "deadline";
  if (has("ready") && !isNum(o.ready)) return "ready";
  if (has("benchmark") && (!isNum(o.benchmark) || o.benchmark <= 0)) return "benchmark";
  for (const k of ["maxParallelism", "tasks"]) if (has(k) && !isInt(o[k], 1)) return k;
  for (const k of ["user", "group", "queue", "partition"]) if (has(k) && !isInt(o[k])) return k;
  if (has("priority") && !isNum(o.priority)) return "priority";
  if (has("licenses")) {
    if (!isPlain(o.licenses)) return "licenses";
    for (const v of Object.values(o.licenses)) if (!isInt(v, 1)) return "licenses";
  }
  if (has("input")) {
    if (!Array.isArray(o.input)) return "input";
    for (const d of o.input) {
      if (!isPlain(d)) return "input";
      for (const k of Object.keys(d)) if (k !== "size" && k !== "machine") return "input key";
      if (!isNum(d.size) || d.size < 0 || !isInt(d.machine, 0)) return "input";
    }
  }
  const submit = o.submit;
  const runtime = o.runtime;
  const estimate = (has("estimate") ? o.estimate : runtime) as number;
  if (submit < 0 || submit > MAX) return "submit range";
  const ready = o.ready as number | undefined;
  const deadline = o.deadline as number | undefined;
  if (ready !== undefined && (ready < submit || ready > MAX)) return "ready range";
  if (deadline !== undefined && (deadline < submit || deadline > MAX)) return "deadline range";
  const start = ready ?? submit;
  if (!spanHolds(start, runtime) || !spanHolds(start, estimate)) return "times";
  const job: Record<string, unknown> = { ...o, estimate };
  if (has("licenses")) job.licenses = { ...(o.licenses as object) };
  if (has("input")) {
    job.input = (o.input as { size: number; machine: number }[]).map((d) => ({
      size: d.size,
      machine: d.machine,
    }));
  }
  return job as unknown as Job;
}

/** What `inspect` must read from a native JSON Lines file. */
export function jsonlVerdict(c: FuzzCase): Verdict {
  const t = textOf(c);
  if ("error" in t) return t.error;
  const jobs: Job[] = [];
  const ids = new Set<number>();
  let data = false;
  let procs: number | undefined;
  for (const [i, raw] of t.lines.entries()) {
    const line = i + 1;
    const text = raw.trim();
    if (text === "") continue;
    let o: unknown;
    try {
      o = JSON.parse(text);
    } catch {
      return bad("not JSON", { line });
    }
    if (!isPlain(o)) return bad("not an object", { line });
    if (hasDuplicateKey(text)) return bad("a key twice", { line });
    if (!data && Object.hasOwn(o, "format")) {
      data = true;
      if (o.format !== "@sched/jobs" || o.version !== 1) return bad("header", { line });
      for (const k of Object.keys(o)) {
        if (!["format", "version", "meta"].includes(k)) return bad("header key", { line });
      }
      if (Object.hasOwn(o, "meta")) {
        if (!isPlain(o.meta)) return bad("meta", { line });
        if (Object.hasOwn(o.meta, "procs")) {
          if (!isInt(o.meta.procs, 1)) return bad("meta.procs", { line });
          procs = o.meta.procs;
        }
      }
      continue;
    }
    data = true;
    const job = nativeJob(o);
    if (typeof job === "string") return bad(job, { line });
    if (ids.has(job.id)) return bad("id twice", { line });
    ids.add(job.id);
    jobs.push(job);
  }
  const stopped = endOfLines(t);
  if (stopped !== null) return stopped;
  if (jobs.length === 0) return bad("no jobs");
  return { ok: true, jobs, procs };
}

// ---------------------------------------------------------------- Batsim

/** What `convert` must read from a Batsim workload. */
export function batsimVerdict(c: FuzzCase): Verdict {
  const t = textOf(c, false);
  if ("error" in t) return t.error;
  let doc: unknown;
  try {
    doc = JSON.parse(t.text);
  } catch {
    return bad("not JSON");
  }
  if (!isPlain(doc)) return bad("not an object");
  if (hasDuplicateKey(t.text)) return bad("a key twice");
  if (!isInt(doc.nb_res, 1)) return bad("nb_res");
  if (!isPlain(doc.profiles)) return bad("profiles");
  if (!Array.isArray(doc.jobs)) return bad("jobs");
  const profiles = doc.profiles;
  const jobs: Job[] = [];
  const ids = new Set<number>();
  for (const [record, j] of doc.jobs.entries()) {
    const at = { record };
    if (!isPlain(j)) return bad("job", at);
    const id = typeof j.id === "string" && /^(0|[1-9][0-9]*)$/.test(j.id) ? Number(j.id) : j.id;
    if (!isInt(id, 0)) return bad("id", at);
    if (ids.has(id)) return bad("id twice", at);
    ids.add(id);
    if (!isNum(j.subtime) || j.subtime < 0) return bad("subtime", at);
    if (!isInt(j.res, 1)) return bad("res", at);
    if (typeof j.profile !== "string" || !Object.hasOwn(profiles, j.profile)) {
      return bad("profile", at);
    }
    // a profile's own error names the profile (profiles["p"].delay), not the job
    const p = profiles[j.profile];
    if (!isPlain(p) || (p.type !== "delay" && p.type !== "DelayProfile")) return bad("type");
    if (!isNum(p.delay) || p.delay <= 0) return bad("delay");
    const hasWalltime = Object.hasOwn(j, "walltime");
    if (hasWalltime && (!isNum(j.walltime) || j.walltime <= 0)) return bad("walltime", at);
    const estimate = (hasWalltime ? j.walltime : p.delay) as number;
    if (j.subtime > MAX || !spanHolds(j.subtime, p.delay) || !spanHolds(j.subtime, estimate)) {
      return bad("times", at);
    }
    jobs.push({ id, submit: j.subtime, runtime: p.delay, estimate, cores: j.res } as Job);
  }
  if (jobs.length === 0) return bad("no jobs");
  return { ok: true, jobs, procs: doc.nb_res };
}

// ---------------------------------------------------------------- experiment files

const TOP = [
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
const WORKLOAD_KEYS: Record<string, string[]> = {
  synthetic: ["type", "jobs", "load"],
  swf: ["type", "path", "clean", "estimate"],
  native: ["type", "path"],
  model: ["type", "model", "options"],
  elo: ["type", "machines", "jobs", "fluctuation", "load"],
};
const GRID: Record<string, string[]> = {
  synthetic: ["jobs", "load", "procs"],
  swf: ["procs"],
  native: ["procs"],
  elo: ["machines", "jobs", "fluctuation", "load"],
};

const intIn = (v: unknown, lo: number, hi: number) => isInt(v, lo) && v <= hi;

/** Whether `path` names a file (not a directory, not missing). */
function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}
const loadOk = (v: unknown) => isNum(v) && v > 0 && v <= 10;

/** A model option value of the file (its JSON type for the option's kind). */
function modelValueOk(kind: string, choices: readonly string[] | undefined, v: unknown): boolean {
  switch (kind) {
    case "integer":
      return isInt(v) && v <= MAX_JOBS;
    case "number":
      return isNum(v);
    case "boolean":
      return typeof v === "boolean";
    case "range":
      return Array.isArray(v) && v.length === 2 && v.every(isNum);
    default:
      return typeof v === "string" && (choices ?? []).includes(v);
  }
}

/** A grid value for `param` of a workload of `type`. */
function gridValueOk(type: string, model: string | undefined, param: string, v: unknown): boolean {
  if (!isNum(v)) return false;
  if (type === "model") {
    const o = WORKLOAD_MODELS.find((m) => m.name === model)?.options.find((x) => x.name === param);
    return o !== undefined && modelValueOk(o.kind, o.choices, v);
  }
  if (param === "procs" || param === "machines") return intIn(v, 1, MAX_PROCS);
  if (param === "jobs") return intIn(v, 1, MAX_JOBS);
  // a synthetic workload's offered load; the elo workload's load and fluctuation are >= 0
  if (type === "elo") return v >= 0;
  return loadOk(v);
}

/** A scheduler option value: the JSON type of the option, in range. */
function optionOk(
  spec: { type: string; min?: number; allowInfinity?: boolean; choices?: readonly string[] },
  v: unknown,
): boolean {
  switch (spec.type) {
    case "integer":
      return (spec.allowInfinity === true && v === "inf") || isInt(v, spec.min ?? -MAX);
    case "number":
      return isNum(v);
    case "boolean":
      return typeof v === "boolean";
    default:
      return typeof v === "string" && (spec.choices === undefined || spec.choices.includes(v));
  }
}

/** The option words and label a file's scheduler entry must become, or why it is invalid. */
function schedulerOf(s: unknown): { name: string; opts: string[]; label: string } | string {
  const entry = typeof s === "string" ? { name: s } : s;
  if (!isPlain(entry)) return "scheduler entry";
  for (const k of Object.keys(entry)) if (!["name", "options", "label"].includes(k)) return "key";
  if (typeof entry.name !== "string" || entry.name === "") return "name";
  const spec = SCHEDULERS.find((x) => x.name === entry.name);
  if (spec === undefined) return "unknown scheduler";
  // the file format's rule: a policy that runs only inside its experiments is not a workload's
  if (spec.experimentOnly !== undefined) return "experiment-only scheduler";
  const options = entry.options ?? {};
  if (!isPlain(options)) return "options";
  const opts: string[] = [];
  const typed: Record<string, string> = {};
  for (const [k, v] of Object.entries(options)) {
    const o = spec.options.find((x) => x.key === k);
    if (o === undefined || !optionOk(o, v)) return `option ${k}`;
    opts.push(`${k}=${String(v)}`);
    // the label shows the value as read: "inf" is Infinity
    typed[k] = v === "inf" ? "Infinity" : String(v);
  }
  if (entry.label !== undefined && (typeof entry.label !== "string" || entry.label === "")) {
    return "label";
  }
  const keys = Object.keys(typed).sort();
  const label =
    (entry.label as string | undefined) ??
    (keys.length === 0
      ? entry.name
      : `${entry.name}(${keys.map((k) => `${k}=${typed[k]}`).join(",")})`);
  return { name: entry.name, opts, label };
}

/**
 * Check an experiment document against the file format's rules: the problems it has (empty
 * when valid), and the plan a valid one must give (its values exactly as written).
 */
export function experimentVerdict(doc: unknown): {
  problems: string[];
  expect?: Partial<SweepPlan>;
  /** A file naming a registry experiment: its rules are the experiment's, not judged here. */
  registry?: true;
} {
  const p: string[] = [];
  if (!isPlain(doc)) return { problems: ["not an object"] };
  if (Object.hasOwn(doc, "experiment")) return { problems: [], registry: true };
  for (const k of Object.keys(doc)) if (!TOP.includes(k)) p.push(`top key ${k}`);
  if (typeof doc.name !== "string" || !/^[A-Za-z0-9._-]+$/.test(doc.name)) p.push("name");
  for (const k of ["title", "description"]) {
    if (Object.hasOwn(doc, k) && (typeof doc[k] !== "string" || doc[k] === "")) p.push(k);
  }
  const w = doc.workload;
  let type: string | undefined;
  let model: string | undefined;
  if (!isPlain(w) || typeof w.type !== "string" || !Object.hasOwn(WORKLOAD_KEYS, w.type)) {
    p.push("workload");
  } else {
    type = w.type;
    for (const k of Object.keys(w))
      if (!(WORKLOAD_KEYS[type] as string[]).includes(k)) p.push(`workload.${k}`);
    const platform = doc.platform;
    if (platform !== undefined) {
      if (type !== "synthetic" && type !== "swf" && type !== "native") {
        p.push("platform with " + type);
      } else if ((type === "swf" || type === "native") && typeof platform === "string") {
        // a platform file: one that exists and parses (a fuzzed name is neither, but say it)
        if (!isFile(platform)) p.push("platform file");
        else {
          try {
            parsePlatformJson(readFileSync(platform, "utf8"));
          } catch {
            p.push("platform file");
          }
        }
        if (isPlain(doc.grid) && Object.hasOwn(doc.grid, "procs")) p.push("grid.procs with a file");
      } else if (!isPlain(platform)) p.push("platform");
      else {
        for (const k of Object.keys(platform)) if (k !== "procs") p.push(`platform.${k}`);
        if (platform.procs !== undefined && !intIn(platform.procs, 1, MAX_PROCS))
          p.push("platform.procs");
      }
    }
    const opt = (k: string, ok: (v: unknown) => boolean) => {
      if (w[k] !== undefined && !ok(w[k])) p.push(`workload.${k}`);
    };
    if (type === "synthetic") {
      opt("jobs", (v) => intIn(v, 1, MAX_JOBS));
      opt("load", loadOk);
    } else if (type === "swf" || type === "native") {
      // run tells the formats apart by name: a .jsonl file is native, anything else SWF
      const other = type === "swf" ? /\.jsonl(\.gz)?$/i : /\.swf(\.gz)?$/i;
      if (typeof w.path !== "string" || w.path === "" || other.test(w.path)) {
        p.push("workload.path");
      } else if (!isFile(w.path)) p.push("workload.path");
      opt("clean", (v) => typeof v === "boolean");
      opt("estimate", (v) => v === "requested" || v === "runtime");
    } else if (type === "model") {
      const m = WORKLOAD_MODELS.find((x) => x.name === w.model);
      if (typeof w.model !== "string" || m === undefined) p.push("workload.model");
      else {
        model = m.name;
        const options = w.options ?? {};
        if (!isPlain(options)) p.push("workload.options");
        else {
          for (const [k, v] of Object.entries(options)) {
            const o = m.options.find((x) => x.name === k);
            if (o === undefined || k === "seed" || !modelValueOk(o.kind, o.choices, v)) {
              p.push(`workload.options.${k}`);
            }
          }
        }
      }
    } else {
      opt("machines", (v) => intIn(v, 1, MAX_PROCS));
      opt("jobs", (v) => intIn(v, 1, MAX_JOBS));
      opt("fluctuation", (v) => isNum(v) && v >= 0);
      opt("load", (v) => isNum(v) && v >= 0);
    }
  }
  const grid = doc.grid ?? {};
  let points = 1;
  const values: number[][] = [];
  if (!isPlain(grid)) p.push("grid");
  else if (type !== undefined) {
    const allowed =
      type === "model"
        ? (WORKLOAD_MODELS.find((m) => m.name === model)?.options ?? [])
            .filter((o) => (o.kind === "integer" || o.kind === "number") && o.name !== "seed")
            .map((o) => o.name)
        : (GRID[type] as string[]);
    for (const [k, list] of Object.entries(grid)) {
      if (!allowed.includes(k) || !Array.isArray(list) || list.length === 0) {
        p.push(`grid.${k}`);
        continue;
      }
      if (!list.every((v) => gridValueOk(type as string, model, k, v))) p.push(`grid.${k} value`);
      if (new Set(list).size !== list.length) p.push(`grid.${k} twice`);
      points *= list.length;
      values.push(list as number[]);
    }
  }
  let seeds: number[] = [1];
  if (doc.seeds !== undefined) {
    if (typeof doc.seeds === "number") {
      if (!intIn(doc.seeds, 1, MAX_SEEDS)) p.push("seeds");
      else seeds = Array.from({ length: doc.seeds }, (_, i) => i + 1);
    } else if (
      !Array.isArray(doc.seeds) ||
      doc.seeds.length === 0 ||
      doc.seeds.length > MAX_SEEDS
    ) {
      p.push("seeds");
    } else {
      if (!doc.seeds.every((s) => isInt(s, 0))) p.push("seeds[]");
      if (new Set(doc.seeds).size !== doc.seeds.length) p.push("seeds twice");
      seeds = doc.seeds as number[];
    }
  }
  const planned: { name: string; opts: string[]; label: string }[] = [];
  if (!Array.isArray(doc.schedulers) || doc.schedulers.length === 0) p.push("schedulers");
  else {
    for (const s of doc.schedulers) {
      const r = schedulerOf(s);
      if (typeof r === "string") p.push(`scheduler: ${r}`);
      else planned.push(r);
    }
    const labels = planned.map((s) => s.label);
    if (new Set(labels).size !== labels.length) p.push("labels twice");
  }
  const known = METRICS.map((m) => m.key);
  if (doc.metrics !== undefined) {
    if (
      !Array.isArray(doc.metrics) ||
      doc.metrics.length === 0 ||
      !doc.metrics.every((m) => typeof m === "string" && known.includes(m)) ||
      new Set(doc.metrics).size !== doc.metrics.length
    ) {
      p.push("metrics");
    }
  }
  if (p.length === 0 && points * seeds.length * planned.length > MAX_RUNS) p.push("runs");
  if (p.length > 0) return { problems: p };
  let product: number[][] = [[]];
  for (const list of values) product = product.flatMap((pt) => list.map((v) => [...pt, v]));
  return {
    problems: [],
    expect: {
      name: doc.name as string,
      params: Object.keys(grid as object),
      points: product,
      seeds,
      schedulers: planned,
      metrics: (doc.metrics as string[] | undefined) ?? [...DEFAULT_METRICS],
    },
  };
}
