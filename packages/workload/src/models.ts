import { InvalidInputError, identicalPool, type Job, type Platform } from "@sched/core";
import { describeChoices, describeValue } from "@sched/errors";
import {
  AR_ARRIVAL_READINGS,
  AR_RUNTIME_MAPPINGS,
  advanceReservationWorkload,
} from "./advance-reservation.js";
import { CONVERGENT_DEADLINE_READINGS, convergentWorkload } from "./convergent.js";
import { eloWorkload } from "./elo.js";
import type { Range } from "./generated.js";
import {
  generateLublin,
  LUBLIN_BATCH,
  LUBLIN_INTERACTIVE,
  LUBLIN_TYPELESS,
  type LublinParameters,
  lublinHeader,
  lublinRecords,
} from "./lublin.js";
import { multiclusterWorkload } from "./multicluster.js";
import { OAS_WORKLOAD_NAMES, oasWorkload } from "./oas.js";
import type { SwfHeader } from "./swf-header.js";
import { resolveSwfToJobsOptions, SwfJobConverter, swfToJobs } from "./swf-jobs.js";
import type { SwfTrace } from "./swf-read.js";
import type { SwfRecord } from "./swf-record.js";

/** One option of a {@link WorkloadModel}, as a command line shows and reads it. */
export interface ModelOption {
  /** The option's key (dotted for nested ones: `typeless.uMed`). */
  readonly name: string;
  /** How its text is read by {@link parseModelOption}: `range` is `lo,hi`, `list` is `a,b,…` (numbers). */
  readonly kind: "integer" | "number" | "boolean" | "range" | "list" | "choice";
  /**
   * What each number of a `range` or `list` is: `integer` (the generator refuses a fraction:
   * cores, tasks, parallelism) or `number` (any finite number). Absent on the other kinds.
   */
  readonly element?: "integer" | "number";
  /** The default, as text (`"log2(procs)"` when it depends on another option). */
  readonly default: string;
  /** Allowed values of a `choice`. */
  readonly choices?: readonly string[];
  readonly description: string;
}

/** What a model generates: jobs and their platform; the Lublin model also gives its own SWF. */
export interface ModelOutput {
  readonly jobs: readonly Job[];
  readonly platform: Platform;
  /** The model's native SWF trace with its header (Lublin only). */
  readonly swf?: SwfTrace;
}

/**
 * What a model generates, as it is generated: the platform up front, then the jobs (and the
 * Lublin model's SWF records) one at a time, so a file of millions of jobs is written without
 * holding them. Iterate `jobs` (or `swf.records`) once.
 */
export interface ModelStream {
  readonly platform: Platform;
  /** How many jobs `jobs` gives. */
  readonly jobCount: number;
  /** The jobs, in submit order, generated as they are read. */
  readonly jobs: Iterable<Job>;
  /** The model's native SWF trace (Lublin only): its header, and its records as they are generated. */
  readonly swf?: { readonly header: SwfHeader; readonly records: Iterable<SwfRecord> };
}

/** A workload generator as the `sched-sim gen` command lists and runs it. */
export interface WorkloadModel {
  readonly name: string;
  readonly description: string;
  readonly options: readonly ModelOption[];
  /**
   * Generates with `options` (keys from `options[].name`, values already typed; dotted keys are
   * nested). Unknown keys are an error.
   */
  generate(options: Readonly<Record<string, unknown>>): ModelOutput;
  /**
   * The same workload as `generate(options)`, generated as it is read (see {@link ModelStream});
   * models whose workloads are small give their arrays. Options are checked at once.
   */
  stream(options: Readonly<Record<string, unknown>>): ModelStream;
}

const LUBLIN_DESCRIPTIONS: Record<keyof LublinParameters, string> = {
  serialProb: "fraction of all jobs that are serial",
  pow2Prob: "fraction of all jobs that are parallel with a power-of-two size",
  uLow: "log2 size, lower bound of the first uniform stage",
  uMed: "log2 size, boundary of the two stages",
  uHi: "log2 size, upper bound of the second stage",
  uProb: "probability of the first stage",
  a1: "ln run time, first gamma shape",
  b1: "ln run time, first gamma scale",
  a2: "ln run time, second gamma shape",
  b2: "ln run time, second gamma scale",
  pa: "first gamma's probability = pa * size + pb",
  pb: "first gamma's probability = pa * size + pb",
  aarr: "ln inter-arrival gamma shape",
  barr: "ln inter-arrival gamma scale",
  anum: "daily cycle gamma shape (half-hours)",
  bnum: "daily cycle gamma scale (half-hours)",
  arar: "inter-arrival multiplier",
};

function lublinTypeOptions(
  type: "batch" | "interactive" | "typeless",
  p: LublinParameters,
): ModelOption[] {
  return (Object.keys(LUBLIN_DESCRIPTIONS) as (keyof LublinParameters)[]).map((k) => ({
    name: `${type}.${k}`,
    kind: "number",
    default:
      k === "uHi" || k === "uMed"
        ? `${p[k]} + log2(procs) - 7`
        : k === "uLow"
          ? `min(${p[k]}, uMed)`
          : String(p[k]),
    description: `${type}: ${LUBLIN_DESCRIPTIONS[k]}`,
  }));
}

const opt = (
  name: string,
  kind: ModelOption["kind"],
  def: string,
  description: string,
): ModelOption => ({ name, kind, default: def, description });

/** A `range` (`lo,hi`) or `list` (`a,b,…`) option whose numbers are `element`s. */
const numbers = (
  name: string,
  kind: "range" | "list",
  element: "integer" | "number",
  def: string,
  description: string,
): ModelOption => ({ name, kind, element, default: def, description });

const SEED = opt("seed", "integer", "0", "seed of the random streams");

/** Nests dotted keys: `{ "typeless.uMed": 5 }` -> `{ typeless: { uMed: 5 } }`, checking names. */
function nest(
  model: WorkloadModel,
  options: Readonly<Record<string, unknown>>,
): Record<string, unknown> {
  const known = new Set(model.options.map((o) => o.name));
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(options)) {
    if (!known.has(key)) {
      throw new InvalidInputError(
        `@sched/workload/${model.name}`,
        `options.${key}`,
        `is not an option of ${model.name} (options: ${[...known].join(", ")})`,
      );
    }
    if (value === undefined) continue;
    const dot = key.indexOf(".");
    if (dot < 0) out[key] = value;
    else {
      const head = key.slice(0, dot);
      const inner = (out[head] ?? {}) as Record<string, unknown>;
      inner[key.slice(dot + 1)] = value;
      out[head] = inner;
    }
  }
  return out;
}

function model(
  name: string,
  description: string,
  options: ModelOption[],
  run: (o: Record<string, unknown>) => ModelOutput,
  stream?: (o: Record<string, unknown>) => ModelStream,
): WorkloadModel {
  const m: WorkloadModel = {
    name,
    description,
    options: Object.freeze(options),
    generate: (o) => run(nest(m, o)),
    stream: (o) => {
      const nested = nest(m, o);
      if (stream !== undefined) return stream(nested);
      const out = run(nested);
      return { platform: out.platform, jobCount: out.jobs.length, jobs: out.jobs };
    },
  };
  return Object.freeze(m);
}

/** The Lublin model's jobs (exact estimates), converted from its records as they are generated. */
function* lublinJobs(records: Iterable<SwfRecord>): Generator<Job, void, undefined> {
  const converter = new SwfJobConverter(
    "@sched/workload/lublin",
    resolveSwfToJobsOptions("@sched/workload/lublin", { estimate: "runtime" }),
  );
  for (const r of records) {
    const job = converter.add(r);
    if (job !== null) yield job;
  }
}

/**
 * Every workload generator of the package, for `sched-sim gen` (`--list` prints each one's
 * options and defaults): `lublin`, `convergent`, `advance-reservation`, `multicluster`, `elo`,
 * `oas`.
 *
 * @example
 * ```ts
 * const m = WORKLOAD_MODELS.find((x) => x.name === "lublin")!;
 * const { jobs, platform, swf } = m.generate({ jobs: 10000, procs: 256, seed: 1 });
 * ```
 */
export const WORKLOAD_MODELS: readonly WorkloadModel[] = Object.freeze([
  model(
    "lublin",
    "Lublin-Feitelson model of rigid parallel jobs (JPDC 2003), on an identical pool",
    [
      opt("jobs", "integer", "1000", "number of jobs"),
      opt("procs", "integer", "128", "processors of the machine"),
      SEED,
      opt(
        "jobTypes",
        "boolean",
        "true",
        "batch and interactive streams (false: one typeless stream)",
      ),
      opt("arrivalFactor", "number", "1", "arrival times are divided by it"),
      opt("maxLogRuntime", "number", "12", "run times are at most e^this seconds"),
      opt("maxLogInterArrival", "number", "13", "inter-arrival gammas are clamped at this"),
      ...lublinTypeOptions("batch", LUBLIN_BATCH),
      ...lublinTypeOptions("interactive", LUBLIN_INTERACTIVE),
      ...lublinTypeOptions("typeless", LUBLIN_TYPELESS),
    ],
    (o) => {
      const swf = generateLublin(o);
      const procs = swf.header.maxProcs!;
      return {
        jobs: swfToJobs(swf.records, { estimate: "runtime" }).jobs,
        platform: identicalPool(procs),
        swf,
      };
    },
    (o) => {
      const header = lublinHeader(o);
      return {
        platform: identicalPool(header.maxProcs!),
        jobCount: header.maxJobs!,
        jobs: { [Symbol.iterator]: () => lublinJobs(lublinRecords(o)) },
        swf: { header, records: { [Symbol.iterator]: () => lublinRecords(o) } },
      };
    },
  ),
  model(
    "convergent",
    "computing farm with licenses and deadlines (convergent scheduling paper)",
    [
      opt("jobs", "integer", "1500", "number of jobs"),
      opt("machines", "integer", "150", "number of machines"),
      opt("licenses", "integer", "20", "number of floating licenses"),
      opt(
        "meanInterArrival",
        "number",
        "10",
        "mean exponential inter-arrival (4 to 20 in the paper)",
      ),
      numbers("estimated", "range", "number", "500,3000", "estimate (and run time), uniform"),
      numbers(
        "deadlineSlack",
        "range",
        "number",
        "25,150",
        "deadline slack, read as deadlineReading says",
      ),
      {
        ...opt(
          "deadlineReading",
          "choice",
          "slack-percent",
          "deadline = submit + estimated x (1 + slack/100), + slack s, or x slack/100",
        ),
        choices: CONVERGENT_DEADLINE_READINGS,
      },
      numbers("cpus", "range", "integer", "1,8", "cores of jobs and machines"),
      numbers("benchmark", "range", "number", "200,600", "benchmark of jobs and machines"),
      numbers("inputMB", "range", "number", "100,800", "input data per job, MB"),
      numbers(
        "licenseRatio",
        "range",
        "number",
        "0.55,0.65",
        "license copies / machines it is usable on",
      ),
      opt("licenseSuitability", "number", "0.9", "probability a license is usable on a machine"),
      opt("licenseNeed", "number", "0.2", "probability a job needs a license"),
      opt("noDeadline", "number", "0.3", "fraction of jobs without a deadline"),
      SEED,
    ],
    (o) => convergentWorkload(o),
  ),
  model(
    "advance-reservation",
    "Lublin workload with the LANL-CM5 settings, ready times and deadlines (advance-reservation paper)",
    [
      opt("jobs", "integer", "10000", "number of jobs"),
      opt("procs", "integer", "1024", "processors"),
      opt("uMed", "number", "7", "Lublin UMed (5 to 9 in the paper)"),
      opt("artimeFactor", "number", "3", "ready = submit + artimeFactor * U * duration"),
      opt(
        "deadlineFactor",
        "number",
        "3",
        "deadline = ready + (1 + deadlineFactor * U) * duration",
      ),
      opt("arrivalFactor", "number", "1", "arrival times are divided by it"),
      {
        ...opt(
          "arrivals",
          "choice",
          "lanl-cm5-rate",
          "Lublin arrival process at LANL-CM5's mean gap (~510 s), or with the generic parameters (~923 s)",
        ),
        choices: AR_ARRIVAL_READINGS,
      },
      {
        ...opt(
          "runtimeMapping",
          "choice",
          "up",
          "model run time to {60,300,900,1800,3600,10800} s: rounded up, nearest in log scale, or nearest",
        ),
        choices: AR_RUNTIME_MAPPINGS,
      },
      SEED,
    ],
    (o) => advanceReservationWorkload(o),
  ),
  model(
    "multicluster",
    "moldable jobs on 8 clusters x 8 processors (dynamic space-sharing paper)",
    [
      opt("jobs", "integer", "1000", "number of jobs"),
      opt("clusters", "integer", "8", "number of clusters"),
      opt("processorsPerCluster", "integer", "8", "processors per cluster"),
      {
        ...opt(
          "speeds",
          "choice",
          "homogeneous",
          "cluster speeds: homogeneous (1), heterogeneous (1..2.2), clock (0.8..3.2)",
        ),
        choices: ["homogeneous", "heterogeneous", "clock"],
      },
      opt("load", "number", "0.5", "offered load: arrival rate * mean demand / capacity"),
      {
        ...opt(
          "loadBasis",
          "choice",
          "capacity",
          "the load is a fraction of the total speed (capacity) or of the processors",
        ),
        choices: ["capacity", "processors"],
      },
      opt("meanServiceDemand", "number", "14.06", "mean service demand"),
      opt("serviceCV", "number", "3.5", "service demand coefficient of variation"),
      opt("arrivalCV", "number", "1", "inter-arrival coefficient of variation (1: Poisson)"),
      numbers("maxParallelism", "range", "integer", "1,64", "maximum parallelism"),
      numbers("jobSizeKB", "range", "number", "1,1024", "job size, KB"),
      opt("linkBandwidth", "number", "12500000", "cluster link bandwidth, bytes/s"),
      SEED,
    ],
    (o) => multiclusterWorkload(o),
  ),
  model(
    "elo",
    "independent jobs on machines of 5-9 Mflops (competitive matchmaking paper)",
    [
      opt("jobs", "integer", "10", "jobs (sets of 10, 15, 20, 40, 60 in the paper)"),
      opt("machines", "integer", "30", "machines (30 or 60 in the paper)"),
      numbers("speedMflops", "range", "number", "5,9", "machine speeds, Mflops, uniform"),
      opt("pinFastest", "boolean", "false", "machine 0 at the top speed (invented detail)"),
      numbers("operations", "range", "number", "1000,9000000000", "job sizes, operations"),
      {
        ...opt("sizes", "choice", "uniform", "size distribution in operations"),
        choices: ["uniform", "log-uniform"],
      },
      opt("load", "number", "0", "offered load; 0: every job at time 0 (a set)"),
      opt("levels", "integer", "5", "job levels"),
      SEED,
    ],
    (o) => eloWorkload(o),
  ),
  model(
    "oas",
    "rigid BSP jobs on 3 clusters x 2 nodes (OAS paper)",
    [
      {
        ...opt(
          "workload",
          "choice",
          "random",
          "WL-1 (made for FPFS), WL-2 (for small jobs first), WL-3..WL-6 or random",
        ),
        choices: [...OAS_WORKLOAD_NAMES],
      },
      opt("jobs", "integer", "8", "jobs (random), or the first ones of WL-1 / WL-2"),
      opt("nodesPerCluster", "integer", "2", "nodes per cluster"),
      numbers("powers", "list", "number", "1,0.75,0.5", "effective power of each cluster"),
      opt("linkBandwidth", "number", "125000000", "inter-cluster link bandwidth, bytes/s"),
      numbers("tasks", "range", "integer", "1,nodes", "tasks per job (random)"),
      numbers("baseTime", "range", "number", "100,1000", "base time, seconds (random)"),
      numbers("sigma", "range", "number", "0.5,1", "processing weight sigma (random)"),
      {
        ...opt("bandwidth", "choice", "moderate", "bandwidth family: moderate or heavy"),
        choices: ["moderate", "heavy"],
      },
      numbers(
        "perTaskBandwidth",
        "range",
        "number",
        "1000000,40000000 (heavy: 65000000,78000000)",
        "per-task bandwidth, bytes/s",
      ),
      SEED,
    ],
    (o) => oasWorkload(o),
  ),
]);

/**
 * Reads one option's command-line text by its kind: integers and numbers as decimals, booleans
 * as `true`/`false`, ranges as `lo,hi`, lists as `a,b,…`, choices as one of `choices`.
 *
 * Complexity: O(length of the text).
 *
 * @throws InvalidInputError naming the model and the option, e.g.
 *   `@sched/workload/lublin: options.jobs is "ten", expected an integer`.
 *
 * @example
 * ```ts
 * parseModelOption("convergent", "estimated", "500,3000"); // [500, 3000]
 * ```
 */
export function parseModelOption(modelName: string, name: string, text: string): unknown {
  const m = WORKLOAD_MODELS.find((x) => x.name === modelName);
  if (m === undefined) {
    throw new InvalidInputError(
      "@sched/workload/parseModelOption",
      "model",
      `is ${describeValue(modelName)}, expected ${describeChoices(WORKLOAD_MODELS.map((x) => x.name))}`,
    );
  }
  const where = `@sched/workload/${m.name}`;
  if (typeof name !== "string") {
    throw new InvalidInputError(
      "@sched/workload/parseModelOption",
      "name",
      `is ${describeValue(name)}, expected an option name (a string)`,
    );
  }
  if (typeof text !== "string") {
    throw new InvalidInputError(
      "@sched/workload/parseModelOption",
      "text",
      `is ${describeValue(text)}, expected the option's value as written (a string)`,
    );
  }
  const o = m.options.find((x) => x.name === name);
  if (o === undefined) {
    throw new InvalidInputError(where, `options.${name}`, `is not an option of ${modelName}`);
  }
  const num = (s: string): number | null =>
    /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(s.trim()) ? Number(s) : null;
  const bad = (expected: string): never => {
    throw new InvalidInputError(
      where,
      `options.${name}`,
      `is ${describeValue(text)}, expected ${expected}`,
    );
  };
  switch (o.kind) {
    case "integer": {
      const v = num(text);
      return v !== null && Number.isSafeInteger(v) ? v : bad("an integer");
    }
    case "number": {
      const v = num(text);
      return v !== null && Number.isFinite(v) ? v : bad("a number");
    }
    case "boolean":
      return text === "true" ? true : text === "false" ? false : bad("true or false");
    case "range": {
      const parts = text.split(",");
      const lo = parts.length === 2 ? num(parts[0]!) : null;
      const hi = parts.length === 2 ? num(parts[1]!) : null;
      return lo !== null && hi !== null ? ([lo, hi] as Range) : bad("lo,hi");
    }
    case "list": {
      const values = text.split(",").map(num);
      return values.every((v) => v !== null && Number.isFinite(v))
        ? (values as number[])
        : bad("numbers separated by commas");
    }
    case "choice":
      return o.choices!.includes(text) ? text : bad(describeChoices(o.choices!));
  }
}
