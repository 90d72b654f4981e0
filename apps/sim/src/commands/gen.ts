import type { Platform } from "@sched/core";
import { SchedError } from "@sched/core";
import {
  formatPlatformJson,
  JobsJsonlWriter,
  jobsToSwf,
  type ModelOption,
  type ModelStream,
  parseModelOption,
  type SwfRecord,
  SwfWriter,
  swfRecord,
  WORKLOAD_MODELS,
  type WorkloadModel,
} from "@sched/workload";
import {
  type CommandSpec,
  flag,
  integerText,
  integerValue,
  type OptionSpec,
  realText,
  realValue,
  stringOption,
  suggest,
} from "../args.js";
import { StreamedFile, writeFilesAtomic } from "../atomic.js";
import type { Command } from "../command.js";
import { renderTable } from "../format.js";
import { inCallersWords } from "../hints.js";
import { MAX_PROCS } from "../limits.js";
import { PLATFORM_SIZE_BOUNDS, platformSizeExcess } from "../model-limits.js";
import { checkOutPath } from "../out-path.js";
import { printable } from "../printable.js";
import { UsageError } from "../usage-error.js";
import { VERSION } from "../version.js";
import { type TraceFormat, traceFormat } from "./trace-files.js";

/** Options of `gen` itself (the rest are the models' options). */
const OWN_OPTIONS: readonly OptionSpec[] = [
  {
    name: "list",
    short: "l",
    type: "boolean",
    description: "List the models and their options (with a model name: only that model).",
  },
  {
    name: "out",
    short: "o",
    type: "string",
    arg: "FILE",
    description: "Output file: FILE.swf (Standard Workload Format) or FILE.jsonl (native).",
  },
  {
    name: "platform",
    type: "string",
    arg: "FILE",
    description: "Also write the generated platform as JSON (@sched/platform) to FILE.",
  },
];

/** Every option name of every model, with the models that have it, in first-seen order. */
function modelOptionNames(): Map<string, string[]> {
  const names = new Map<string, string[]>();
  for (const m of WORKLOAD_MODELS) {
    for (const o of m.options) {
      const list = names.get(o.name) ?? [];
      list.push(m.name);
      names.set(o.name, list);
    }
  }
  return names;
}

const MODEL_OPTIONS: readonly OptionSpec[] = [...modelOptionNames()].map(([name, models]) => ({
  name,
  type: "string",
  arg: "V",
  description: `model option of ${models.join(", ")} (see 'gen --list')`,
}));

const spec: CommandSpec = {
  name: "gen",
  summary: "Generate a synthetic workload from a model (SWF or native JSON Lines).",
  description:
    "Runs one of @sched/workload's generators (WORKLOAD_MODELS) and writes its jobs to --out,\n" +
    "as SWF when the name ends in .swf and as native JSON Lines (every job field, deadlines\n" +
    "and licenses included) when it ends in .jsonl. The header records sched-sim's version,\n" +
    "the model and every parameter (given or default), so the file says how to make it\n" +
    "again; the same options and seed give the same bytes. The file is written as the jobs\n" +
    "are generated (a million Lublin jobs never sit in memory), atomically.\n" +
    "Model options are given as --NAME VALUE (dotted for nested ones: --typeless.uMed 5);\n" +
    "'sched-sim gen --list' lists each model's options, kinds and defaults. An unknown model,\n" +
    "an option the model does not have, or a value out of range exits 2 naming the option.",
  options: [...OWN_OPTIONS, ...MODEL_OPTIONS],
  positionals: [{ name: "model", description: "Model name (see --list).", required: false }],
  examples: [
    "sched-sim gen --list",
    "sched-sim gen lublin --jobs 10000 --procs 256 --seed 1 --out l.swf",
    "sched-sim gen advance-reservation --jobs 1000 --uMed 5 --seed 2 --out ar.jsonl",
    "sched-sim gen convergent --seed 3 --out farm.jsonl --platform farm.json",
  ],
  messagePrefix: (positionals) => commandOf(positionals[0]),
};

/**
 * The command as the user typed it, for the messages: `gen lublin` once a known model is named
 * (every error about its options or files then says so), else `gen`.
 */
function commandOf(name: string | undefined): string {
  return name !== undefined && WORKLOAD_MODELS.some((m) => m.name === name) ? `gen ${name}` : "gen";
}

function findModel(name: string): WorkloadModel {
  const m = WORKLOAD_MODELS.find((x) => x.name === name);
  if (m === undefined) {
    const names = WORKLOAD_MODELS.map((x) => x.name);
    const hint = suggest(name, names);
    throw new UsageError(
      `gen: unknown model '${name}'${hint ? ` (did you mean ${hint}?)` : ""}; known: ${names.join(", ")}`,
      "gen",
    );
  }
  return m;
}

/** An option's kind as `gen --list` shows it: `int lo,hi` and `lo,hi`, `int a,b,…` and `a,b,…`. */
function kindText(o: ModelOption): string {
  if (o.kind === "choice") return (o.choices ?? []).join("|");
  if (o.kind !== "range" && o.kind !== "list") return o.kind;
  return `${o.element === "integer" ? "int " : ""}${o.kind === "range" ? "lo,hi" : "a,b,…"}`;
}

/** `gen --list`: each model, then its options as a table. */
function listText(models: readonly WorkloadModel[]): string {
  const parts: string[] = [];
  for (const m of models) {
    parts.push(`${m.name}: ${m.description}\n`);
    parts.push(
      renderTable(
        [
          { title: "option", align: "left" },
          { title: "kind", align: "left" },
          { title: "default", align: "left" },
          { title: "meaning", align: "left" },
        ],
        m.options.map((o) => [`--${o.name}`, kindText(o), o.default, o.description]),
      ),
    );
    parts.push("\n");
  }
  return parts.join("");
}

/** An option value as the command line writes it. */
function valueText(value: unknown): string {
  return Array.isArray(value) ? value.join(",") : String(value);
}

/**
 * Rethrow a model's error as a usage error in the command line's words (`inCallersWords`): one
 * about `options.X` (or one number of it, `options.X[0]`) names `--X` (and the low or high end,
 * or the list item); anything else keeps the library's message after `gen MODEL: `.
 */
function asUsageError(model: WorkloadModel, error: unknown): never {
  if (error instanceof SchedError) {
    const flagFields = new Map(
      model.options.map(
        (o) => [o.name, o.kind === "range" || o.kind === "list" ? o.kind : "value"] as const,
      ),
    );
    const said = inCallersWords(error, {
      command: `gen ${model.name}`,
      options: [...flagFields.keys()],
      flagFields,
    });
    if (said !== error && said instanceof SchedError) throw new UsageError(said.message, "gen");
    throw new UsageError(`gen ${model.name}: ${error.message}`, "gen");
  }
  throw error;
}

/** The parameters of a run: every option of the model, given (typed, as text) or its default. */
export interface GenParameters {
  /** Option name -> value as text, in the model's option order. */
  readonly all: ReadonlyArray<readonly [name: string, value: string, given: boolean]>;
  /** Typed values of the given options, for `model.generate`. */
  readonly typed: Readonly<Record<string, unknown>>;
}

/**
 * The bounds the command line gives a model's integer option of this name, where another command
 * has the same flag (`--procs` as `run` and `demo`, `--seed` as `demo`); the model checks the rest.
 */
const SHARED_INTEGER_BOUNDS: ReadonlyMap<string, readonly [min: number, max: number]> = new Map([
  ["procs", [1, MAX_PROCS]],
  ["seed", [0, Number.MAX_SAFE_INTEGER]],
]);

/** Refuses options that together make a platform larger than {@link MAX_PROCS} processors. */
function checkPlatformSize(model: WorkloadModel, typed: Readonly<Record<string, unknown>>): void {
  const excess = platformSizeExcess(model, typed, (o, size, items) =>
    items ? `--${o.name} (${size} items)` : `--${o.name} ${size}`,
  );
  if (excess !== undefined) throw new UsageError(`gen ${model.name}: ${excess}`, "gen");
}

/** What the command line calls the numbers of a range or list: their word and form. */
const ELEMENT_RULES = {
  integer: {
    read: integerText,
    says: "a whole number (digits only)",
    two: "two whole numbers lo,hi (digits only)",
  },
  number: {
    read: realText,
    says: "a decimal number (e.g. 0.5 or 5e-1)",
    two: "two decimal numbers lo,hi (e.g. 0.5,1e3)",
  },
} as const;

/**
 * Check the form of a numeric model option's value as every numeric flag is checked
 * (`integerValue`, `realValue`), and the bounds of the flags other commands share; a range
 * (`lo,hi`) or list (`a,b,…`) number by number, by the option's element kind, naming the end or
 * item that is not one.
 */
function checkNumberText(model: WorkloadModel, name: string, text: string): void {
  const option = model.options.find((o) => o.name === name);
  const command = `gen ${model.name}`;
  if (option?.kind === "integer") {
    const [min, max] = SHARED_INTEGER_BOUNDS.get(name) ?? PLATFORM_SIZE_BOUNDS.get(name) ?? [];
    integerValue(command, name, text, min, max);
  } else if (option?.kind === "number") {
    realValue(command, name, text);
  } else if (option?.kind === "range" || option?.kind === "list") {
    const rule = ELEMENT_RULES[option.element ?? "number"];
    const parts = text.split(",");
    if (option.kind === "range" && parts.length !== 2) {
      throw new UsageError(
        `${command}: option --${name} must be ${rule.two}, got '${text}'`,
        "gen",
      );
    }
    parts.forEach((part, i) => {
      if (!Number.isNaN(rule.read(part))) return;
      const element =
        option.kind === "list" ? `item ${i + 1}` : i === 0 ? "the low end" : "the high end";
      throw new UsageError(
        part === ""
          ? `${command}: option --${name}: ${element} is missing, expected ${rule.says}; got '${text}'`
          : `${command}: option --${name}: ${element} must be ${rule.says}, got '${part}' (in '${text}')`,
        "gen",
      );
    });
  }
}

function parameters(model: WorkloadModel, given: ReadonlyMap<string, string>): GenParameters {
  const typed: Record<string, unknown> = {};
  for (const [name, text] of given) {
    checkNumberText(model, name, text);
    try {
      typed[name] = parseModelOption(model.name, name, text);
    } catch (error) {
      asUsageError(model, error);
    }
  }
  checkPlatformSize(model, typed);
  const all = model.options.map(
    (o: ModelOption) =>
      [
        o.name,
        typed[o.name] === undefined ? o.default : valueText(typed[o.name]),
        typed[o.name] !== undefined,
      ] as const,
  );
  return { all, typed };
}

function platformText(platform: Platform): string {
  const cores = new Set(platform.machines.map((m) => m.cores));
  const speeds = new Set(platform.machines.map((m) => m.speed));
  const shape =
    cores.size === 1 && speeds.size === 1
      ? `${platform.machines.length} identical machines of ${[...cores][0]} core(s)`
      : `${platform.machines.length} machines (heterogeneous)`;
  return `${shape}, ${platform.totalCores} cores, ${platform.licenses.length} license type(s)`;
}

/**
 * Writes the file to `file` as it is generated: SWF (formatted as bytes by `SwfWriter`) or JSON
 * Lines (by `JobsJsonlWriter`), with the model and every parameter in the header. A model that streams (Lublin) is never
 * held whole.
 */
function writeGenFile(
  model: WorkloadModel,
  params: GenParameters,
  out: ModelStream,
  format: TraceFormat,
  file: StreamedFile,
): void {
  const generator = `sched-sim ${VERSION} gen ${model.name} (@sched/workload)`;
  if (format === "jsonl") {
    const parameters: Record<string, string> = {};
    for (const [name, value] of params.all) parameters[name] = value;
    const meta: Record<string, unknown> = {
      generator,
      model: model.name,
      description: model.description,
      parameters,
      defaults: params.all.filter(([, , given]) => !given).map(([name]) => name),
      procs: out.platform.totalCores,
      platform: platformText(out.platform),
    };
    if (out.swf !== undefined) meta.modelNotes = out.swf.header.notes;
    // Formatted as bytes, a chunk at a time (no string per job).
    const writer = new JobsJsonlWriter((bytes) => file.writeBytes(bytes));
    writer.header(meta);
    for (const job of out.jobs) writer.job(job);
    writer.flush();
    return;
  }
  // SWF: one Note for the generator, one per group of parameters (top level, then each dotted
  // prefix), defaults marked with '*'.
  const groups = new Map<string, string[]>();
  for (const [name, value, given] of params.all) {
    const dot = name.indexOf(".");
    const group = dot < 0 ? "" : name.slice(0, dot);
    const list = groups.get(group) ?? [];
    list.push(`${name}=${value.replace(/\s+/g, "")}${given ? "" : "*"}`);
    groups.set(group, list);
  }
  const notes = [
    `generated by ${generator}: ${model.description}`,
    ...[...groups.values()].map((list) => `parameters (* = default): ${list.join(" ")}`),
    `platform: ${platformText(out.platform)}`,
  ];
  const writer = new SwfWriter((bytes) => file.writeBytes(bytes));
  if (out.swf !== undefined) {
    // A model without estimates (Lublin-Feitelson) leaves field 9 unknown, which `run` rejects
    // (a job without a requested time has no estimate). Its jobs' estimate is the run time
    // (swfToJobs' `estimate: "runtime"`), so the file says so: `run` reads back exactly the
    // model's jobs, with no option.
    const header = out.swf.header;
    const filledNote =
      "requested time (field 9) = run time for every job without one: the model gives no estimates, so its jobs' estimate is their run time";
    writer.header({ ...header, notes: [...notes, filledNote, ...header.notes] });
    // One record rewritten for every filled job (no object per job: a million jobs, a million
    // objects for the collector); the writer reads it before the next.
    const filled = emptyRecord();
    for (const r of out.swf.records) {
      if (r.requestedTime > 0 || !(r.runTime > 0)) writer.record(r);
      else writer.record(copyRecord(filled, r, r.runTime));
    }
  } else {
    // Jobs of other models (small workloads): the conversion counts what SWF cannot hold first.
    const trace = jobsToSwf(out.jobs, { maxProcs: out.platform.totalCores, notes });
    writer.header(trace.header);
    for (const r of trace.records) writer.record(r);
  }
  writer.flush();
}

/** An SWF record whose fields can be set (the one record `copyRecord` rewrites). */
type FilledRecord = { -readonly [K in keyof SwfRecord]: SwfRecord[K] };

function emptyRecord(): FilledRecord {
  return { ...swfRecord({}) };
}

/**
 * `into` set to `{ ...r, requestedTime }`, field by field (profiled on gen lublin of 1M jobs:
 * `Object.assign(into, r)` cost about 0.5 s of CPU, this too little to show).
 */
function copyRecord(into: FilledRecord, r: SwfRecord, requestedTime: number): FilledRecord {
  into.jobNumber = r.jobNumber;
  into.submitTime = r.submitTime;
  into.waitTime = r.waitTime;
  into.runTime = r.runTime;
  into.allocatedProcs = r.allocatedProcs;
  into.avgCpuTime = r.avgCpuTime;
  into.usedMemory = r.usedMemory;
  into.requestedProcs = r.requestedProcs;
  into.requestedTime = requestedTime;
  into.requestedMemory = r.requestedMemory;
  into.status = r.status;
  into.userId = r.userId;
  into.groupId = r.groupId;
  into.executable = r.executable;
  into.queue = r.queue;
  into.partition = r.partition;
  into.precedingJob = r.precedingJob;
  into.thinkTime = r.thinkTime;
  return into;
}

/** `sched-sim gen`. */
export const genCommand: Command = {
  spec,
  async run(args, io) {
    const name = args.positionals[0];
    if (flag(args, "list")) {
      io.stdout(listText(name === undefined ? WORKLOAD_MODELS : [findModel(name)]));
      return 0;
    }
    if (name === undefined) {
      throw new UsageError("gen: missing argument <model>; see 'sched-sim gen --list'", "gen");
    }
    const model = findModel(name);
    const given = new Map<string, string>();
    const own = new Set([...OWN_OPTIONS.map((o) => o.name), "help", "debug"]);
    for (const [key, value] of Object.entries(args.values)) {
      if (own.has(key) || typeof value !== "string") continue;
      if (!model.options.some((o) => o.name === key)) {
        throw new UsageError(
          `gen ${model.name}: option --${key} is not an option of ${model.name} (options: ${model.options.map((o) => o.name).join(", ")})`,
          "gen",
        );
      }
      given.set(key, value);
    }
    const command = commandOf(model.name);
    const out = stringOption(args, "out");
    if (out === undefined) {
      throw new UsageError(
        `${command}: option --out FILE is required (FILE.swf or FILE.jsonl)`,
        "gen",
      );
    }
    const format = traceFormat(command, "out", out, false);
    await checkOutPath(command, "out", out, "file");
    const platformOut = stringOption(args, "platform");
    if (platformOut !== undefined) await checkOutPath(command, "platform", platformOut, "file");
    const params = parameters(model, given);
    let output: ModelStream;
    try {
      output = model.stream(params.typed);
    } catch (error) {
      asUsageError(model, error);
    }
    // Written as generated: a temporary file beside `out`, renamed over it when complete.
    const file = await StreamedFile.create(out);
    try {
      writeGenFile(model, params, output, format, file);
    } catch (error) {
      file.discard();
      asUsageError(model, error);
    }
    if (output.jobCount === 0) {
      // run, inspect and convert refuse a trace with no job ("holds no jobs"): not written
      file.discard();
      throw new UsageError(
        `gen ${model.name}: the options give no job${given.has("jobs") ? ` (--jobs ${given.get("jobs")})` : ""}; run, inspect and convert refuse a trace with no job, so none is written`,
        "gen",
      );
    }
    const files = new Map<string, string | StreamedFile>([[out, file]]);
    const platformPath = stringOption(args, "platform");
    if (platformPath !== undefined) files.set(platformPath, formatPlatformJson(output.platform));
    await writeFilesAtomic(files);
    io.stdout(
      `gen: ${output.jobCount} jobs (${model.name}, ${platformText(output.platform)}) -> ${printable(out)}` +
        `${platformPath === undefined ? "" : `, platform -> ${printable(platformPath)}`}\n`,
    );
    return 0;
  },
};
