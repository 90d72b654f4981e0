import { gzipSync } from "node:zlib";
import fc from "fast-check";
import { fixture } from "../helpers.js";

/** The formats the fuzzer writes: SWF (plain or gzipped), native JSON Lines, Batsim, experiments. */
export type FuzzFormat = "swf" | "jsonl" | "batsim" | "experiment";

/** How a command reads an SWF file: `inspect`'s `--clean` and `--estimate`. */
export interface SwfReadOptions {
  readonly clean: boolean;
  readonly estimate: "auto" | "requested" | "runtime";
}

/** One fuzzed input: a file's name and bytes, what was done to it, and how it is read. */
export interface FuzzCase {
  readonly format: FuzzFormat;
  /** A file name with the extension the CLI reads it by (`t.swf`, `t.swf.gz`, `t.jsonl`, …). */
  readonly name: string;
  readonly bytes: Uint8Array;
  /** The mutations applied, for reports: `"set jobs[2].res = \"2\"; text: cr"`. */
  readonly mutations: readonly string[];
  /** SWF only. */
  readonly swf: SwfReadOptions;
}

/**
 * Values that broke a reader before issue 23, and their neighbours. A string `raw:X` is written
 * into JSON as the bare text X (a number JavaScript cannot hold exactly, `-0`, `1e400`).
 */
export const HOSTILE_JSON: readonly unknown[] = [
  null,
  true,
  false,
  "",
  "2",
  [3],
  "0x4",
  {},
  -5,
  -50,
  -1,
  0,
  0.5,
  1,
  2,
  -1e308,
  1e308,
  1e20,
  1e15,
  1e12,
  1e9,
  4294967296,
  3000000,
  1000001,
  10001,
  "__proto__",
  "constructor",
  "inf",
  "NaN",
  "raw:9007199254740993",
  "raw:1e400",
  "raw:-0",
  "raw:1.0",
];

/** The same for an SWF field or header value (text). */
export const HOSTILE_SWF: readonly string[] = [
  "-1",
  "0",
  "-2",
  "1.5",
  "0.5",
  "1e20",
  "1e15",
  "1e308",
  "1e400",
  "9007199254740993",
  "9007199254740991",
  "4294967296",
  "3000000",
  "0x10",
  "NaN",
  "Infinity",
  "",
  "+.5",
  "1e-300",
  "abc",
];

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Every path in `value`: `[]` is the whole, `["jobs", 2, "res"]` one field. */
function paths(value: Json, prefix: (string | number)[] = []): (string | number)[][] {
  const out: (string | number)[][] = [prefix];
  if (Array.isArray(value)) {
    for (const [i, v] of value.entries()) out.push(...paths(v, [...prefix, i]));
  } else if (value !== null && typeof value === "object") {
    for (const [k, v] of Object.entries(value)) out.push(...paths(v, [...prefix, k]));
  }
  return out;
}

function show(path: readonly (string | number)[]): string {
  return path.map((p) => (typeof p === "number" ? `[${p}]` : `.${p}`)).join("") || "(root)";
}

/** The hostile values of the JSON type of `value` (a number for a number, …). */
function hostileLike(value: unknown): readonly unknown[] {
  const numbers = HOSTILE_JSON.filter(
    (v) => typeof v === "number" || (typeof v === "string" && v.startsWith("raw:")),
  );
  const strings = HOSTILE_JSON.filter((v) => typeof v === "string" && !v.startsWith("raw:"));
  if (typeof value === "number") return numbers;
  if (typeof value === "string") return [...strings, "toString", "hasOwnProperty", "p0 "];
  return HOSTILE_JSON;
}

/** A structural change to a JSON document. */
interface JsonMutation {
  readonly op: "set" | "set-like" | "delete" | "add-key" | "duplicate";
  readonly at: number;
  /** For `set`: the value. For `set-like`: an index into the hostile values of the target's type. */
  readonly value: unknown;
  readonly pick: number;
  readonly key: string;
}

const jsonMutation: fc.Arbitrary<JsonMutation> = fc.record({
  op: fc.constantFrom("set", "set-like", "set-like", "delete", "add-key", "duplicate"),
  at: fc.nat(),
  value: fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...HOSTILE_JSON) },
    { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 1 }) },
  ),
  pick: fc.nat(),
  key: fc.constantFrom("colour", "__proto__", "constructor", "id", "extra_data", "meta"),
});

function applyJson(doc: Json, m: JsonMutation): { doc: Json; what: string } {
  const all = paths(doc);
  const path = all[m.at % all.length] as (string | number)[];
  if (path.length === 0) {
    return m.op === "set" || m.op === "set-like"
      ? { doc: m.value as Json, what: `set (root) = ${JSON.stringify(m.value)}` }
      : { doc, what: "none" };
  }
  const copy = structuredClone(doc);
  let parent = copy as unknown as Record<string | number, Json>;
  for (const p of path.slice(0, -1)) parent = parent[p] as unknown as Record<string | number, Json>;
  const last = path.at(-1) as string | number;
  const target = parent[last] as Json;
  switch (m.op) {
    case "set":
    case "set-like": {
      const like = hostileLike(target);
      const value = m.op === "set" ? m.value : like[m.pick % like.length];
      parent[last] = value as Json;
      return { doc: copy, what: `set ${show(path)} = ${JSON.stringify(value)}` };
    }
    case "delete":
      if (Array.isArray(parent)) parent.splice(last as number, 1);
      else delete parent[last];
      return { doc: copy, what: `delete ${show(path)}` };
    case "add-key":
      if (target === null || typeof target !== "object" || Array.isArray(target)) {
        return { doc, what: "none" };
      }
      // an own property even for "__proto__" (as JSON.parse makes it)
      Object.defineProperty(target, m.key, {
        value: m.value,
        enumerable: true,
        writable: true,
        configurable: true,
      });
      return { doc: copy, what: `add ${show(path)}.${m.key} = ${JSON.stringify(m.value)}` };
    case "duplicate":
      if (!Array.isArray(parent)) return { doc, what: "none" };
      parent.splice(last as number, 0, structuredClone(target));
      return { doc: copy, what: `duplicate ${show(path)}` };
  }
}

/** JSON text of `doc`, with `"raw:X"` strings written as the bare text X. */
function jsonText(doc: Json, indent?: number): string {
  return JSON.stringify(doc, null, indent).replace(/"raw:([^"]*)"/g, "$1");
}

/** A change to the bytes of a file. */
interface TextMutation {
  readonly op:
    | "delete"
    | "insert"
    | "bytes"
    | "cr"
    | "crlf"
    | "truncate"
    | "dup-line"
    | "drop-line"
    | "swap-lines"
    | "bom"
    | "long-line"
    | "empty";
  readonly at: number;
  readonly length: number;
  readonly text: string;
  readonly bytes: readonly number[];
}

const textMutation: fc.Arbitrary<TextMutation> = fc.record({
  op: fc.oneof(
    {
      weight: 30,
      arbitrary: fc.constantFrom(
        "delete",
        "insert",
        "bytes",
        "cr",
        "crlf",
        "truncate",
        "dup-line",
        "drop-line",
        "swap-lines",
        "bom",
      ),
    },
    { weight: 1, arbitrary: fc.constantFrom("long-line", "empty") },
  ),
  at: fc.nat(),
  length: fc.integer({ min: 1, max: 8 }),
  text: fc.oneof(
    fc.constantFrom(
      " ",
      "\t",
      "\n",
      "\r",
      ";",
      "-",
      "1",
      "9",
      ".",
      "e",
      ",",
      "{",
      "}",
      '"',
      "\u00a0",
    ),
    fc.string({ maxLength: 6 }),
  ),
  bytes: fc.array(fc.integer({ min: 0x80, max: 0xff }), { minLength: 1, maxLength: 3 }),
});

function applyText(bytes: Buffer, m: TextMutation): { bytes: Buffer; what: string } {
  const n = bytes.length;
  const at = n === 0 ? 0 : m.at % (n + 1);
  const text = bytes.toString("latin1");
  const lines = bytes.toString("utf8").split("\n");
  const line = (i: number) => i % Math.max(1, lines.length);
  switch (m.op) {
    case "delete":
      return {
        bytes: Buffer.concat([bytes.subarray(0, at), bytes.subarray(at + m.length)]),
        what: `delete ${m.length} bytes at ${at}`,
      };
    case "insert":
      return {
        bytes: Buffer.concat([bytes.subarray(0, at), Buffer.from(m.text), bytes.subarray(at)]),
        what: `insert ${JSON.stringify(m.text)} at ${at}`,
      };
    case "bytes":
      return {
        bytes: Buffer.concat([bytes.subarray(0, at), Buffer.from(m.bytes), bytes.subarray(at)]),
        what: `insert bytes ${m.bytes.join(",")} at ${at}`,
      };
    case "cr":
      return { bytes: Buffer.from(text.replace(/\n/g, "\r"), "latin1"), what: "line ends \\r" };
    case "crlf":
      return {
        bytes: Buffer.from(text.replace(/\n/g, "\r\n"), "latin1"),
        what: "line ends \\r\\n",
      };
    case "truncate":
      return { bytes: bytes.subarray(0, at), what: `truncate at ${at}` };
    case "dup-line": {
      const i = line(m.at);
      lines.splice(i, 0, lines[i] as string);
      return { bytes: Buffer.from(lines.join("\n")), what: `duplicate line ${i + 1}` };
    }
    case "drop-line": {
      const i = line(m.at);
      lines.splice(i, 1);
      return { bytes: Buffer.from(lines.join("\n")), what: `drop line ${i + 1}` };
    }
    case "swap-lines": {
      const i = line(m.at);
      const j = line(m.at + m.length);
      [lines[i], lines[j]] = [lines[j] as string, lines[i] as string];
      return { bytes: Buffer.from(lines.join("\n")), what: `swap lines ${i + 1} and ${j + 1}` };
    }
    case "bom":
      return { bytes: Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), bytes]), what: "BOM" };
    case "long-line":
      // just over the CLI's limit of 1 MiB characters on a line
      return {
        bytes: Buffer.concat([
          bytes.subarray(0, at),
          Buffer.alloc(1024 * 1024 + 10, 0x37),
          bytes.subarray(at),
        ]),
        what: `a 1 MiB line at ${at}`,
      };
    case "empty":
      return { bytes: Buffer.alloc(0), what: "empty file" };
  }
}

/** Up to `structural` JSON changes and `text` byte changes to a document. */
function mutated(
  base: fc.Arbitrary<Json>,
  options: { indent?: number } = {},
): fc.Arbitrary<{ bytes: Buffer; mutations: string[] }> {
  return fc
    .tuple(
      base,
      fc.oneof(
        { weight: 1, arbitrary: fc.constant<JsonMutation[]>([]) },
        { weight: 4, arbitrary: fc.array(jsonMutation, { minLength: 1, maxLength: 3 }) },
      ),
      fc.oneof(
        { weight: 3, arbitrary: fc.constant<TextMutation[]>([]) },
        { weight: 1, arbitrary: fc.array(textMutation, { minLength: 1, maxLength: 2 }) },
      ),
    )
    .map(([doc, jsonMutations, textMutations]) => {
      const mutations: string[] = [];
      let d = doc;
      for (const m of jsonMutations) {
        const r = applyJson(d, m);
        d = r.doc;
        mutations.push(r.what);
      }
      let bytes: Buffer = Buffer.from(jsonText(d, options.indent));
      for (const m of textMutations) {
        const r = applyText(bytes, m);
        bytes = r.bytes;
        mutations.push(`text: ${r.what}`);
      }
      return { bytes, mutations };
    });
}

const NO_SWF: SwfReadOptions = { clean: false, estimate: "auto" };

// ---------------------------------------------------------------- SWF

/** A valid-looking SWF trace: a header and a few records, written with varied spacing. */
const swfBase: fc.Arbitrary<string> = fc
  .record({
    maxProcs: fc.option(fc.integer({ min: 1, max: 512 }), { nil: undefined }),
    maxNodes: fc.option(fc.integer({ min: 1, max: 512 }), { nil: undefined }),
    note: fc.boolean(),
    records: fc.array(
      fc.record({
        submitGap: fc.integer({ min: 0, max: 5000 }),
        runtime: fc.oneof(fc.constantFrom(-1, 0, 0.5), fc.integer({ min: 1, max: 100000 })),
        alloc: fc.oneof(fc.constant(-1), fc.integer({ min: 1, max: 64 })),
        req: fc.oneof(fc.constant(-1), fc.integer({ min: 1, max: 64 })),
        reqTime: fc.oneof(fc.constant(-1), fc.integer({ min: 1, max: 200000 })),
        user: fc.integer({ min: -1, max: 40 }),
        sep: fc.constantFrom(" ", "  ", "\t", "   "),
      }),
      { maxLength: 8 },
    ),
  })
  .map((t) => {
    const lines = ["; Version: 2.2"];
    if (t.maxProcs !== undefined) lines.push(`; MaxProcs: ${t.maxProcs}`);
    if (t.maxNodes !== undefined) lines.push(`; MaxNodes: ${t.maxNodes}`);
    if (t.note) lines.push("; Note: fuzzed", ";        continued");
    let submit = 0;
    t.records.forEach((r, i) => {
      submit += r.submitGap;
      const f = [
        i + 1,
        submit,
        -1,
        r.runtime,
        r.alloc,
        -1,
        -1,
        r.req,
        r.reqTime,
        -1,
        1,
        r.user,
        1,
        -1,
        -1,
        -1,
        -1,
        -1,
      ];
      lines.push(f.join(r.sep));
    });
    return `${lines.join("\n")}\n`;
  });

/** A change to one SWF field or header value, by line and column. */
const swfEdit = fc.record({
  line: fc.nat(),
  column: fc.nat(),
  value: fc.constantFrom(...HOSTILE_SWF),
});

function applySwfEdit(
  text: string,
  e: { line: number; column: number; value: string },
): { text: string; what: string } {
  const lines = text.split("\n");
  const i = e.line % lines.length;
  const l = lines[i] as string;
  if (l.startsWith(";")) {
    const m = /^(; *[A-Za-z]+:)/.exec(l);
    if (m === null) return { text, what: "none" };
    lines[i] = `${m[1]} ${e.value}`;
    return { text: lines.join("\n"), what: `line ${i + 1}: ${m[1]} ${e.value}` };
  }
  const tokens = l.trim().split(/\s+/);
  if (tokens.length < 2) return { text, what: "none" };
  const c = e.column % tokens.length;
  tokens[c] = e.value;
  lines[i] = tokens.join(" ");
  return {
    text: lines.join("\n"),
    what: `line ${i + 1} field ${c + 1} = ${JSON.stringify(e.value)}`,
  };
}

const swfCase: fc.Arbitrary<FuzzCase> = fc
  .record({
    base: swfBase,
    edits: fc.oneof(
      { weight: 1, arbitrary: fc.constant([]) },
      { weight: 3, arbitrary: fc.array(swfEdit, { minLength: 1, maxLength: 3 }) },
    ),
    texts: fc.oneof(
      { weight: 3, arbitrary: fc.constant<TextMutation[]>([]) },
      { weight: 1, arbitrary: fc.array(textMutation, { minLength: 1, maxLength: 2 }) },
    ),
    gzip: fc.boolean(),
    clean: fc.boolean(),
    estimate: fc.constantFrom("auto", "requested", "runtime"),
  })
  .map((c) => {
    const mutations: string[] = [];
    let text = c.base;
    for (const e of c.edits) {
      const r = applySwfEdit(text, e);
      text = r.text;
      mutations.push(r.what);
    }
    let bytes: Buffer = Buffer.from(text);
    for (const m of c.texts) {
      const r = applyText(bytes, m);
      bytes = r.bytes;
      mutations.push(`text: ${r.what}`);
    }
    return {
      format: "swf",
      name: c.gzip ? "t.swf.gz" : "t.swf",
      bytes: c.gzip ? gzipSync(bytes) : bytes,
      mutations,
      swf: { clean: c.clean, estimate: c.estimate },
    };
  });

// ---------------------------------------------------------------- native JSON Lines

const jsonlJob = fc
  .record(
    {
      submit: fc.oneof(
        fc.integer({ min: 0, max: 100000 }),
        fc.double({ min: 0, max: 1e6, noNaN: true }),
      ),
      runtime: fc.oneof(
        fc.integer({ min: 1, max: 100000 }),
        fc.double({ min: 1, max: 1e5, noNaN: true }),
      ),
      estimate: fc.integer({ min: 1, max: 200000 }),
      cores: fc.integer({ min: 1, max: 64 }),
      slack: fc.integer({ min: 0, max: 10000 }),
      deadline: fc.boolean(),
      ready: fc.boolean(),
      licenses: fc.dictionary(fc.constantFrom("a", "b", "matlab"), fc.integer({ min: 1, max: 4 }), {
        maxKeys: 2,
      }),
      input: fc.array(fc.record({ size: fc.nat(1e6), machine: fc.nat(8) }), { maxLength: 2 }),
      user: fc.integer({ min: -1, max: 40 }),
      priority: fc.double({ min: -10, max: 10, noNaN: true }),
      tasks: fc.integer({ min: 1, max: 8 }),
    },
    { requiredKeys: ["submit", "runtime", "cores", "slack", "deadline", "ready"] },
  )
  .map((j) => {
    const out: Record<string, Json> = { submit: j.submit + 0, runtime: j.runtime, cores: j.cores };
    if (j.estimate !== undefined) out.estimate = j.estimate;
    if (j.ready) out.ready = j.submit + j.slack;
    if (j.deadline) out.deadline = j.submit + 2 * j.slack + j.runtime;
    for (const k of ["licenses", "input", "user", "priority", "tasks"] as const) {
      if (j[k] !== undefined) out[k] = j[k] as Json;
    }
    return out;
  });

const jsonlCase: fc.Arbitrary<FuzzCase> = fc
  .record({
    header: fc.option(
      fc.record({ procs: fc.option(fc.integer({ min: 1, max: 512 }), { nil: undefined }) }),
      { nil: undefined },
    ),
    jobs: fc.array(jsonlJob, { maxLength: 6 }),
    jsonMutations: fc.oneof(
      { weight: 1, arbitrary: fc.constant<JsonMutation[]>([]) },
      { weight: 4, arbitrary: fc.array(jsonMutation, { minLength: 1, maxLength: 3 }) },
    ),
    texts: fc.oneof(
      { weight: 3, arbitrary: fc.constant<TextMutation[]>([]) },
      { weight: 1, arbitrary: fc.array(textMutation, { minLength: 1, maxLength: 2 }) },
    ),
    gzip: fc.integer({ min: 0, max: 4 }),
  })
  .map((c) => {
    // the file as one array of lines, so one mutation can reach any line's values
    let doc: Json = [
      ...(c.header === undefined
        ? []
        : [
            {
              format: "@sched/jobs",
              version: 1,
              meta: c.header.procs === undefined ? {} : { procs: c.header.procs },
            },
          ]),
      ...c.jobs.map((j, i) => ({ id: i + 1, ...j })),
    ];
    const mutations: string[] = [];
    for (const m of c.jsonMutations) {
      const r = applyJson(doc, m);
      doc = r.doc;
      mutations.push(r.what);
    }
    const lines = Array.isArray(doc) ? doc.map((l) => jsonText(l)) : [jsonText(doc)];
    let bytes: Buffer = Buffer.from(`${lines.join("\n")}\n`);
    for (const m of c.texts) {
      const r = applyText(bytes, m);
      bytes = r.bytes;
      mutations.push(`text: ${r.what}`);
    }
    const gzip = c.gzip === 0;
    return {
      format: "jsonl",
      name: gzip ? "t.jsonl.gz" : "t.jsonl",
      bytes: gzip ? gzipSync(bytes) : bytes,
      mutations,
      swf: NO_SWF,
    };
  });

// ---------------------------------------------------------------- Batsim

const batsimBase: fc.Arbitrary<Json> = fc
  .record({
    nbRes: fc.integer({ min: 1, max: 1024 }),
    delays: fc.array(
      fc.oneof(fc.integer({ min: 1, max: 10000 }), fc.double({ min: 0.5, max: 1e4, noNaN: true })),
      {
        minLength: 1,
        maxLength: 3,
      },
    ),
    jobs: fc.array(
      fc.record({
        stringId: fc.boolean(),
        gap: fc.integer({ min: 0, max: 1000 }),
        walltime: fc.option(fc.integer({ min: 1, max: 20000 }), { nil: undefined }),
        res: fc.integer({ min: 1, max: 64 }),
        profile: fc.nat(),
        extra: fc.boolean(),
      }),
      { maxLength: 6 },
    ),
  })
  .map((b) => {
    const profiles: Record<string, Json> = {};
    b.delays.forEach((d, i) => {
      profiles[`p${i}`] = { type: i % 2 === 0 ? "delay" : "DelayProfile", delay: d };
    });
    let submit = 0;
    const jobs = b.jobs.map((j, i) => {
      submit += j.gap;
      const job: Record<string, Json> = {
        id: j.stringId ? String(i) : i,
        subtime: submit,
        res: j.res,
        profile: `p${j.profile % b.delays.length}`,
      };
      if (j.walltime !== undefined) job.walltime = j.walltime;
      if (j.extra) job.extra_data = "{}";
      return job;
    });
    return { nb_res: b.nbRes, jobs, profiles };
  });

const batsimCase: fc.Arbitrary<FuzzCase> = fc
  // one key a line, so that a duplicated line is a key given twice
  .tuple(mutated(batsimBase, { indent: 1 }), fc.integer({ min: 0, max: 9 }))
  .map(([{ bytes, mutations }, gz]) => ({
    format: "batsim",
    name: "t.json",
    bytes: gz === 0 ? gzipSync(bytes) : bytes,
    mutations: gz === 0 ? [...mutations, "gzip"] : mutations,
    swf: NO_SWF,
  }));

// ---------------------------------------------------------------- experiment files

const schedulerEntry: fc.Arbitrary<Json> = fc.constantFrom<Json>(
  "fcfs",
  "easy",
  { name: "easy", options: { order: "sjf" } },
  { name: "backfill", options: { reservations: 2 } },
  { name: "backfill", options: { reservations: "inf" }, label: "cons" },
  { name: "conservative" },
);

/**
 * An experiment file that names an experiment of the registry (its parameters, a grid of them,
 * a subset of its schedulers), as `experiments/no-aging.json`.
 */
const registryBase: fc.Arbitrary<Json> = fc.constantFrom<Json>(
  {
    $schema: "./experiment.schema.json",
    name: "no-aging",
    experiment: "convergent",
    quick: true,
    set: { antiAging: 0 },
    grid: { interArrival: [4, 8] },
    seeds: 3,
    schedulers: ["cs-ip", "cs-ninp", "easy", "edf"],
  },
  {
    name: "elo-small",
    experiment: "elo",
    quick: true,
    set: { machines: 12 },
    grid: { jobs: [10, 20] },
    seeds: [1, 5],
    metrics: ["meanResponse"],
  },
  { name: "fcfs", experiment: "fcfs-load", quick: true, seeds: 2 },
);

const workloadBase: fc.Arbitrary<Json> = fc
  .record({
    type: fc.constantFrom("synthetic", "swf", "native", "model", "elo"),
    model: fc.constantFrom("lublin", "convergent", "advance-reservation"),
    jobs: fc.integer({ min: 10, max: 200 }),
    load: fc.double({ min: 0.1, max: 2, noNaN: true }),
    procs: fc.integer({ min: 1, max: 256 }),
    grid: fc.boolean(),
    seeds: fc.oneof(
      fc.integer({ min: 1, max: 5 }),
      fc.uniqueArray(fc.nat(100), { minLength: 1, maxLength: 4 }),
    ),
    schedulers: fc.uniqueArray(schedulerEntry, {
      minLength: 1,
      maxLength: 3,
      selector: (s) => JSON.stringify(s),
    }),
    metrics: fc.option(
      fc.subarray(["meanWait", "utilization", "makespan", "jobs"], { minLength: 1 }),
      { nil: undefined },
    ),
  })
  .map((e) => {
    const doc: Record<string, Json> = { name: "fuzz", title: "Fuzzed experiment" };
    switch (e.type) {
      case "synthetic":
        doc.workload = { type: "synthetic", jobs: e.jobs, load: e.load };
        doc.platform = { procs: e.procs };
        if (e.grid) doc.grid = { load: [0.3, 0.6], procs: [e.procs, e.procs + 1] };
        break;
      case "swf":
        doc.workload = {
          type: "swf",
          path: fixture("small.swf"),
          clean: true,
          estimate: "requested",
        };
        if (e.grid) doc.grid = { procs: [8, 16] };
        break;
      case "native":
        doc.workload = { type: "native", path: fixture("small.jsonl") };
        if (e.grid) doc.grid = { procs: [8, 16] };
        else doc.platform = { procs: e.procs };
        break;
      case "model":
        doc.workload = { type: "model", model: e.model, options: { jobs: e.jobs } };
        if (e.grid) doc.grid = { jobs: [e.jobs, e.jobs + 5] };
        break;
      default:
        doc.workload = { type: "elo", machines: 10, jobs: 5, fluctuation: 0.1 };
        if (e.grid) doc.grid = { machines: [5, 10] };
    }
    doc.schedulers = e.type === "elo" ? ["mct", "random"] : e.schedulers;
    doc.seeds = e.seeds;
    if (e.metrics !== undefined) doc.metrics = e.metrics;
    return doc;
  });

const experimentBase: fc.Arbitrary<Json> = fc.oneof(
  { weight: 4, arbitrary: workloadBase },
  { weight: 1, arbitrary: registryBase },
);

const experimentCase: fc.Arbitrary<FuzzCase> = mutated(experimentBase, { indent: 2 }).map(
  ({ bytes, mutations }) => ({
    format: "experiment",
    name: "exp.json",
    bytes,
    mutations,
    swf: NO_SWF,
  }),
);

/** The fuzzed inputs of one format. */
export function fuzzCases(format: FuzzFormat): fc.Arbitrary<FuzzCase> {
  switch (format) {
    case "swf":
      return swfCase;
    case "jsonl":
      return jsonlCase;
    case "batsim":
      return batsimCase;
    case "experiment":
      return experimentCase;
  }
}

export const FUZZ_FORMATS: readonly FuzzFormat[] = ["swf", "jsonl", "batsim", "experiment"];
