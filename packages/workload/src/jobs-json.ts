import {
  createJob,
  createPlatform,
  InvalidInputError,
  JOB_FIELDS,
  type Job,
  type JobSpec,
  ParseError,
  type Platform,
  type PlatformSpec,
} from "@sched/core";
import { describeValue, optionKeys, requireKnownKeys } from "@sched/errors";
import { scanJobLine } from "./job-line-scan.js";
import { jobTimeProblem, MAX_WORKLOAD_TIME, timesFit } from "./job-times.js";
import { duplicateJsonKey, mayRepeatJsonKey } from "./json-duplicate-key.js";
import { jsonSyntaxError } from "./json-syntax.js";
import { KeptIds } from "./kept-ids.js";
import { requireIterable } from "./require-iterable.js";

/** What a key given twice in one object is told (JSON.parse would keep the last one silently). */
const DUPLICATE_KEY = "appears twice in one object (JSON would keep the last; give it once)";

/** The `format` tag of a native jobs file's header line. */
export const JOBS_FORMAT = "@sched/jobs";
/** The `format` tag of a platform file. */
export const PLATFORM_FORMAT = "@sched/platform";
/** The version this package writes and reads. */
export const NATIVE_VERSION = 1;

const JOB_FIELD_SET = new Set<string>(JOB_FIELDS);

/**
 * JSON Schema (2020-12) of one job line of the native format: a @sched/core `Job`. The reader
 * checks exactly this (plus unique ids), with @sched/core's own job validation.
 */
export const JOB_JSON_SCHEMA = Object.freeze({
  $schema: "https://json-schema.org/draft/2020-12/schema",
  $id: "https://sched.dev/schema/job-v1.json",
  title: "@sched job (one line of a .jsonl jobs file)",
  type: "object",
  additionalProperties: false,
  required: ["id", "submit", "runtime", "cores"],
  properties: {
    id: { type: "integer", minimum: 0, maximum: MAX_WORKLOAD_TIME, description: "unique job id" },
    submit: {
      type: "number",
      minimum: 0,
      maximum: MAX_WORKLOAD_TIME,
      description: "submission time, seconds from the trace's start",
    },
    runtime: {
      type: "number",
      exclusiveMinimum: 0,
      maximum: MAX_WORKLOAD_TIME,
      description:
        "actual run time at the reference speed, seconds; must survive being added to the earliest start (ready, else submit) to one part in a million",
    },
    estimate: {
      type: "number",
      exclusiveMinimum: 0,
      maximum: MAX_WORKLOAD_TIME,
      description:
        "requested time at the reference speed, seconds; defaults to runtime; same precision rule as runtime",
    },
    cores: { type: "integer", minimum: 1, description: "cores needed (rigid)" },
    deadline: {
      type: "number",
      minimum: 0,
      maximum: MAX_WORKLOAD_TIME,
      description: "absolute deadline, seconds; not before submit",
    },
    ready: {
      type: "number",
      minimum: 0,
      maximum: MAX_WORKLOAD_TIME,
      description: "earliest start (advance reservation), seconds; not before submit",
    },
    licenses: {
      type: "object",
      additionalProperties: { type: "integer", minimum: 1 },
      description: "license name -> copies held while running",
    },
    input: {
      type: "array",
      items: {
        type: "object",
        additionalProperties: false,
        required: ["size", "machine"],
        properties: {
          size: { type: "number", minimum: 0, description: "bytes" },
          machine: { type: "integer", minimum: 0, description: "index of the machine holding it" },
        },
      },
    },
    benchmark: {
      type: "number",
      exclusiveMinimum: 0,
      description: "benchmark of the machine the times refer to",
    },
    maxParallelism: { type: "integer", minimum: 1 },
    tasks: { type: "integer", minimum: 1 },
    user: { type: "integer" },
    group: { type: "integer" },
    queue: { type: "integer" },
    partition: { type: "integer" },
    priority: { type: "number" },
  },
});

/** The optional first line of a native jobs file. */
export interface JobsFileHeader {
  readonly format: typeof JOBS_FORMAT;
  readonly version: typeof NATIVE_VERSION;
  /** Free metadata (the generator, its parameters, the source trace, …). */
  readonly meta?: Readonly<Record<string, unknown>>;
}

/** A whole native jobs file in memory. */
export interface JobsFile {
  readonly header: JobsFileHeader;
  readonly jobs: readonly Job[];
}

/** Options of the native-format readers. */
export interface ReadJobsOptions {
  /**
   * Name of the input in error messages.
   * @defaultValue `"<jobs>"`
   */
  readonly source?: string;
}

/** The keys of {@link ReadJobsOptions}, all of them (checked by the compiler). */
const READ_JOBS_KEYS = optionKeys<ReadJobsOptions>({
  source: true,
});
/** Options of {@link readJobsLines} and {@link createJobsLineReader}. */
export interface ReadJobsLinesOptions extends ReadJobsOptions {
  /** Called with the header when the header line is read (not at all without one). */
  readonly onHeader?: (header: JobsFileHeader) => void;
}

/** The keys of {@link ReadJobsLinesOptions}. */
const READ_JOBS_LINES_KEYS = optionKeys<ReadJobsLinesOptions>({ source: true, onHeader: true });

/**
 * `o`'s own names sorted, on an object without a prototype: a license named `__proto__` (an own
 * key, as `JSON.parse` makes it) stays a key instead of setting the copy's prototype, which left it
 * out of the line.
 */
function sortedObject(o: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const out: Record<string, unknown> = Object.create(null);
  for (const k of Object.keys(o).sort()) out[k] = o[k];
  return out;
}

/** Where the errors of {@link formatJobJson} come from (each other writer names itself). */
const FORMAT_JOB_WHERE = "@sched/workload/formatJobJson";

/**
 * What field `k` of `job` (`v`, not undefined) is written as: licenses with their names sorted,
 * input data as `{size, machine}`, the rest as it is. Internal (shared with `JobsJsonlWriter`).
 * @throws InvalidInputError for a number JSON cannot hold (see {@link nonFiniteJobNumber}) or a
 * value that cannot be shaped (input data that is not an array of objects).
 */
export function jobJsonValue(where: string, job: Job, k: string, v: unknown): unknown {
  let t: unknown;
  try {
    if (k === "licenses") t = sortedObject(v as Record<string, unknown>);
    else if (k === "input")
      t = (v as Job["input"])!.map((d) => ({ size: d.size, machine: d.machine }));
    else t = v;
  } catch (error) {
    throw unwritableJob(where, job, error);
  }
  if (typeof t === "number") {
    if (!Number.isFinite(t)) throw nonFiniteJobNumber(where, job, k, t);
  } else if (k === "licenses" && typeof t === "object" && t !== null) {
    const licenses = t as Record<string, unknown>;
    for (const name of Object.keys(licenses)) {
      const n = licenses[name];
      if (typeof n === "number" && !Number.isFinite(n))
        throw nonFiniteJobNumber(where, job, `licenses.${name}`, n);
    }
  } else if (k === "input" && Array.isArray(t)) {
    t.forEach((d: { size: unknown; machine: unknown }, i) => {
      if (typeof d.size === "number" && !Number.isFinite(d.size))
        throw nonFiniteJobNumber(where, job, `input[${i}].size`, d.size);
      if (typeof d.machine === "number" && !Number.isFinite(d.machine))
        throw nonFiniteJobNumber(where, job, `input[${i}].machine`, d.machine);
    });
  }
  return t;
}

/**
 * The error for a number JSON cannot hold (`JSON.stringify` would write `null`, which no reader
 * takes for a number). Internal.
 */
export function nonFiniteJobNumber(
  where: string,
  job: Job,
  field: string,
  v: number,
): InvalidInputError {
  return new InvalidInputError(
    where,
    `${jobLabel(job?.id)} ${field}`,
    `is ${describeValue(v)}, expected a finite number (JSON has no NaN or Infinity)`,
  );
}

/** The error for a value that cannot be written (a BigInt, a cycle, input data of null). Internal. */
export function unwritableJob(where: string, job: Job, error: unknown): InvalidInputError {
  return new InvalidInputError(
    where,
    jobLabel(job?.id),
    `cannot be written as JSON (${error instanceof Error ? error.message : String(error)})`,
  );
}

/** How a job is named in a writer's messages: `job 7`, or `job` when its id is no id. */
function jobLabel(id: unknown): string {
  return typeof id === "number" && Number.isSafeInteger(id) && id >= 0 ? `job ${id}` : "job";
}

/**
 * Checks that `job` reads back from a native jobs file as itself (as `createJob(job)` builds
 * it; `-0` reads back as `0`, a field set to `undefined` as absent), as the readers check a job
 * line: no field but those of {@link JOB_JSON_SCHEMA} (nor in an input item but `size` and
 * `machine`), every value as @sched/core's `createJob` accepts it, times as
 * {@link jobTimeProblem} requires. Numbers JSON cannot hold are named first, as before. Internal
 * (shared with `JobsJsonlWriter` and `jobsToSwf`).
 * @returns the job as `createJob` builds it.
 * @throws InvalidInputError from `where`, naming `job <id>` and the field.
 */
export function requireWritableJob(job: Job, where: string): Job {
  if (readUsualJob(job, CHECKED)) return job;
  if (typeof job !== "object" || job === null || Array.isArray(job)) {
    throw new InvalidInputError(where, "job", `is ${describeValue(job)}, expected a job object`);
  }
  const raw = job as unknown as Record<string, unknown>;
  // NaN and infinities first, named as JSON cannot hold them; the shapes are createJob's to check
  for (const k of JOB_FIELDS) {
    const v = raw[k];
    if (typeof v === "number" && !Number.isFinite(v)) throw nonFiniteJobNumber(where, job, k, v);
  }
  const licenses = raw.licenses;
  if (typeof licenses === "object" && licenses !== null) {
    for (const n of Object.keys(licenses)) {
      const c = (licenses as Record<string, unknown>)[n];
      if (typeof c === "number" && !Number.isFinite(c)) {
        throw nonFiniteJobNumber(where, job, `licenses.${n}`, c);
      }
    }
  }
  if (Array.isArray(raw.input)) {
    raw.input.forEach((d: unknown, i) => {
      if (typeof d !== "object" || d === null) return;
      const { size, machine } = d as { size?: unknown; machine?: unknown };
      if (typeof size === "number" && !Number.isFinite(size)) {
        throw nonFiniteJobNumber(where, job, `input[${i}].size`, size);
      }
      if (typeof machine === "number" && !Number.isFinite(machine)) {
        throw nonFiniteJobNumber(where, job, `input[${i}].machine`, machine);
      }
    });
  }
  const label = jobLabel(raw.id);
  for (const k of Object.keys(raw)) {
    if (raw[k] !== undefined && !JOB_FIELD_SET.has(k)) {
      throw new InvalidInputError(
        where,
        `${label} ${k}`,
        `is not a job field (expected one of ${JOB_FIELDS.join(", ")}): no reader would take it back`,
      );
    }
  }
  const input = raw.input;
  if (Array.isArray(input)) {
    input.forEach((d: unknown, i) => {
      if (typeof d !== "object" || d === null) return; // createJob names it
      for (const k of Object.keys(d)) {
        if (k !== "size" && k !== "machine" && (d as Record<string, unknown>)[k] !== undefined) {
          throw new InvalidInputError(
            where,
            `${label} input[${i}].${k}`,
            "is not an input field (size, machine): no reader would take it back",
          );
        }
      }
    });
  }
  let built: Job;
  try {
    built = createJob(raw as unknown as JobSpec);
  } catch (error) {
    if (!(error instanceof InvalidInputError)) throw error;
    const detail = error.message.slice(`${error.where}: ${error.field} `.length);
    const field = error.field.replace(/^(job \d+|spec)\./, "");
    throw new InvalidInputError(where, `${label} ${field}`, detail, { cause: error });
  }
  // The times of the copy (what jobsToSwf writes) and as read by name (what the JSON writers
  // write: a class's getter is no own key, so not in the copy, but it is written).
  const problem =
    jobTimeProblem(built) ??
    jobTimeProblem({
      ...built,
      submit: raw.submit,
      runtime: raw.runtime,
      estimate: raw.estimate ?? raw.runtime,
      deadline: raw.deadline,
      ready: raw.ready,
    } as Job);
  if (problem !== null) {
    throw new InvalidInputError(where, `${label} ${problem.field}`, problem.detail);
  }
  return built;
}

function isSafeIntegerAtLeast(v: unknown, min: number): boolean {
  return typeof v === "number" && Number.isSafeInteger(v) && v >= min;
}

function isFiniteNumber(v: unknown): boolean {
  return typeof v === "number" && Number.isFinite(v);
}

function isPositive(v: unknown): boolean {
  return typeof v === "number" && Number.isFinite(v) && v > 0;
}

/** Whether `v` is absent or a safe integer (user, group, queue, partition). */
function isOptionalInteger(v: unknown): boolean {
  return v === undefined || (typeof v === "number" && Number.isSafeInteger(v));
}

/**
 * The fields of a usual job, as {@link readUsualJob} finds them (undefined: absent); when it
 * returns true, `id`, `submit`, `runtime`, `estimate` and `cores` are set. Internal.
 */
export interface UsualJob {
  id: number | undefined;
  submit: number | undefined;
  runtime: number | undefined;
  estimate: number | undefined;
  cores: number | undefined;
  deadline: number | undefined;
  ready: number | undefined;
  licenses: Readonly<Record<string, number>> | undefined;
  input: readonly { readonly size: number; readonly machine: number }[] | undefined;
  benchmark: number | undefined;
  maxParallelism: number | undefined;
  tasks: number | undefined;
  user: number | undefined;
  group: number | undefined;
  queue: number | undefined;
  partition: number | undefined;
  priority: number | undefined;
}

/** A {@link UsualJob} to fill, every field present (one shape for all). Internal. */
export function usualJobRecord(): UsualJob {
  return {
    id: undefined,
    submit: undefined,
    runtime: undefined,
    estimate: undefined,
    cores: undefined,
    deadline: undefined,
    ready: undefined,
    licenses: undefined,
    input: undefined,
    benchmark: undefined,
    maxParallelism: undefined,
    tasks: undefined,
    user: undefined,
    group: undefined,
    queue: undefined,
    partition: undefined,
    priority: undefined,
  };
}

/**
 * True for the usual job, which {@link requireWritableJob} accepts as it is, its fields then in
 * `out`: a plain object whose enumerable keys (those `createJob` copies and `JSON.stringify`
 * writes) are job fields (one set to undefined is absent), with an estimate, every value as `createJob` and
 * {@link jobTimeProblem} accept it, licenses and input items plain objects with their own fields
 * only. False sends the job to the full check, which names the field or builds the copy; it must
 * accept no job that the full check refuses (the write-back property checks both).
 *
 * Builds nothing, and reads each field once, in one for-in over the job's keys: reading the 17
 * fields by name (most of them absent) cost about 80 ns a job once the caller had seen jobs of a
 * few shapes (V8's property caches go megamorphic), the for-in about 25 ns whatever the shapes.
 * Internal (the jobs writers' per-job check, and where formatJobJson and JobsJsonlWriter read a
 * usual job's fields).
 */
export function readUsualJob(job: Job, out: UsualJob): boolean {
  if (typeof job !== "object" || job === null) return false;
  const j = job as unknown as Record<string, unknown>;
  // Not a class instance: its getters (non-enumerable, on the prototype) are fields the for-in
  // would not see; the full check and the writers read them by name.
  if (!isPlain(j)) return false;
  clearUsualJob(out);
  for (const k in j) {
    const v = j[k];
    // Each value as given (undefined: absent), checked below (the casts only name its type).
    switch (k) {
      case "id":
        out.id = v as number;
        break;
      case "submit":
        out.submit = v as number;
        break;
      case "runtime":
        out.runtime = v as number;
        break;
      case "estimate":
        out.estimate = v as number;
        break;
      case "cores":
        out.cores = v as number;
        break;
      case "deadline":
        out.deadline = v as number;
        break;
      case "ready":
        out.ready = v as number;
        break;
      case "licenses":
        out.licenses = v as UsualJob["licenses"];
        break;
      case "input":
        out.input = v as UsualJob["input"];
        break;
      case "benchmark":
        out.benchmark = v as number;
        break;
      case "maxParallelism":
        out.maxParallelism = v as number;
        break;
      case "tasks":
        out.tasks = v as number;
        break;
      case "user":
        out.user = v as number;
        break;
      case "group":
        out.group = v as number;
        break;
      case "queue":
        out.queue = v as number;
        break;
      case "partition":
        out.partition = v as number;
        break;
      case "priority":
        out.priority = v as number;
        break;
      default:
        return false; // not a job field (a test checks this list against JOB_FIELDS)
    }
  }
  const { id, submit, runtime, estimate, cores, deadline, ready } = out;
  if (!isSafeIntegerAtLeast(id, 0) || !isFiniteNumber(submit)) return false;
  if (!isPositive(runtime) || !isPositive(estimate)) return false;
  if (!isSafeIntegerAtLeast(cores, 1)) return false;
  if (deadline !== undefined && !isFiniteNumber(deadline)) return false;
  if (ready !== undefined && !isFiniteNumber(ready)) return false;
  if (out.benchmark !== undefined && !isPositive(out.benchmark)) return false;
  const { maxParallelism, tasks } = out;
  if (maxParallelism !== undefined && !isSafeIntegerAtLeast(maxParallelism, 1)) return false;
  if (tasks !== undefined && !isSafeIntegerAtLeast(tasks, 1)) return false;
  if (!isOptionalInteger(out.user) || !isOptionalInteger(out.group)) return false;
  if (!isOptionalInteger(out.queue) || !isOptionalInteger(out.partition)) return false;
  if (out.priority !== undefined && !isFiniteNumber(out.priority)) return false;
  const licenses: unknown = out.licenses;
  if (licenses !== undefined) {
    if (typeof licenses !== "object" || licenses === null || !isPlain(licenses)) return false;
    const l = licenses as Record<string, unknown>;
    for (const name in l) if (!isSafeIntegerAtLeast(l[name], 1)) return false;
  }
  const input: unknown = out.input;
  if (input !== undefined) {
    if (!Array.isArray(input)) return false;
    for (let i = 0; i < input.length; i++) {
      const d: unknown = input[i];
      if (typeof d !== "object" || d === null || !isPlain(d)) return false;
      const item = d as Record<string, unknown>;
      for (const k in item) if (k !== "size" && k !== "machine") return false;
      if (!(isFiniteNumber(item.size) && (item.size as number) >= 0)) return false;
      if (!isSafeIntegerAtLeast(item.machine, 0)) return false;
    }
  }
  return timesFit(submit as number, ready, deadline, runtime as number, estimate as number);
}

/** Every field of `out` absent. */
function clearUsualJob(out: UsualJob): void {
  out.id = undefined;
  out.submit = undefined;
  out.runtime = undefined;
  out.estimate = undefined;
  out.cores = undefined;
  out.deadline = undefined;
  out.ready = undefined;
  out.licenses = undefined;
  out.input = undefined;
  out.benchmark = undefined;
  out.maxParallelism = undefined;
  out.tasks = undefined;
  out.user = undefined;
  out.group = undefined;
  out.queue = undefined;
  out.partition = undefined;
  out.priority = undefined;
}

/** Where {@link requireWritableJob}'s usual jobs are read to (their fields are not used). */
const CHECKED = usualJobRecord();

/**
 * Whether `o`'s prototype is `Object.prototype` or null: not an array, not a class instance, no
 * inherited key but Object.prototype's own.
 */
function isPlain(o: object): boolean {
  const proto = Object.getPrototypeOf(o);
  return proto === Object.prototype || proto === null;
}

/**
 * The error for a job id given twice: every reader refuses a file that repeats one. Internal.
 */
export function repeatedJobId(where: string, id: number): InvalidInputError {
  return new InvalidInputError(
    where,
    `job ${id} id`,
    `${id} appears twice (every reader refuses a file with a repeated job id)`,
  );
}

/**
 * Checks that `value` is JSON data that `JSON.parse(JSON.stringify(value))` gives back as it
 * is: null, a boolean, a string, a finite number (`-0` reads back as `0`), an array without holes
 * or other properties, or an object with `Object.prototype` (or none) and no `toJSON`, its
 * members data too (a member set to `undefined` is left out, as absent). Refuses the rest
 * (`NaN` would be written `null`, a `Date` a string, a `Map` `{}`, a function left out),
 * naming `field`. Internal.
 */
function requireJsonData(
  where: string,
  field: string,
  value: unknown,
  open: Set<object> = new Set(),
): void {
  if (value === null || typeof value === "string" || typeof value === "boolean") return;
  if (typeof value === "number") {
    if (Number.isFinite(value)) return;
    throw new InvalidInputError(
      where,
      field,
      `is ${describeValue(value)}, expected a finite number (JSON has no NaN or Infinity)`,
    );
  }
  const data =
    "expected JSON data (an object, an array, a string, a finite number, a boolean or null)";
  if (typeof value !== "object") {
    throw new InvalidInputError(where, field, `is ${describeValue(value)}, ${data}`);
  }
  if (open.has(value)) {
    throw new InvalidInputError(where, field, "contains itself (JSON cannot write a cycle)");
  }
  if (Array.isArray(value)) {
    if (Object.keys(value).length !== value.length) {
      throw new InvalidInputError(
        where,
        field,
        "is an array with holes or other properties (JSON would write null or leave them out)",
      );
    }
    open.add(value);
    for (let i = 0; i < value.length; i++) {
      if (value[i] === undefined) {
        throw new InvalidInputError(where, `${field}[${i}]`, `is undefined, ${data}`);
      }
      requireJsonData(where, `${field}[${i}]`, value[i], open);
    }
    open.delete(value);
    return;
  }
  const proto = Object.getPrototypeOf(value);
  if ((proto !== Object.prototype && proto !== null) || "toJSON" in value) {
    throw new InvalidInputError(
      where,
      field,
      `is ${describeValue(value)}, ${data}: JSON would write it as something else`,
    );
  }
  open.add(value);
  const o = value as Record<string, unknown>;
  for (const k of Object.keys(o)) {
    if (o[k] !== undefined) requireJsonData(where, `${field}.${k}`, o[k], open);
  }
  open.delete(value);
}

/**
 * Checks a header's `meta` as the readers check it, and that it reads back as itself: absent, or
 * an object of JSON data whose `procs`, when set, is an integer >= 1. Internal.
 * @throws InvalidInputError from `where` naming `meta` or the field in it.
 */
export function requireWritableMeta(where: string, meta: unknown): void {
  if (meta === undefined) return;
  if (typeof meta !== "object" || meta === null || Array.isArray(meta)) {
    throw new InvalidInputError(
      where,
      "meta",
      `is ${describeValue(meta)}, expected an object (or none)`,
    );
  }
  requireJsonData(where, "meta", meta);
  const procs = (meta as Record<string, unknown>).procs;
  if (procs !== undefined && !(Number.isSafeInteger(procs) && (procs as number) >= 1)) {
    throw new InvalidInputError(
      where,
      "meta.procs",
      `is ${describeValue(procs)}, expected an integer >= 1 (the machine's processors: the readers refuse anything else)`,
    );
  }
}

/** The header line of a native jobs file (no `\n`), `meta` checked. Internal. */
export function jobsHeaderLine(
  where: string,
  meta: Readonly<Record<string, unknown>> | undefined,
): string {
  requireWritableMeta(where, meta);
  const header: Record<string, unknown> = { format: JOBS_FORMAT, version: NATIVE_VERSION };
  if (meta !== undefined) header.meta = meta;
  return JSON.stringify(header);
}

/**
 * One job as a JSON line: the fields of {@link JOB_JSON_SCHEMA} in a fixed order (licenses by
 * name), absent fields left out, numbers in their shortest exact form.
 *
 * Complexity: O(size of the job).
 *
 * @throws InvalidInputError naming the job and the field when the readers would not give the job
 * back as itself (see {@link requireWritableJob}): a number NaN or infinite (JSON would write
 * `null`), a value `createJob` or {@link jobTimeProblem} refuses, a field that is not a job's.
 *
 * @example
 * ```ts
 * formatJobJson({ id: 1, submit: 0, runtime: 60, estimate: 90, cores: 4 });
 * // '{"id":1,"submit":0,"runtime":60,"estimate":90,"cores":4}'
 * ```
 */
export function formatJobJson(job: Job): string {
  return jobLine(FORMAT_JOB_WHERE, job);
}

/** Where {@link jobLine} reads a usual job's fields. */
const LINE_FIELDS = usualJobRecord();

/**
 * {@link formatJobJson} with errors from `where`: a usual job's fields as {@link readUsualJob}
 * reads them (its own enumerable ones, as JobsJsonlWriter writes them), any other job's read by
 * name once the full check has passed.
 */
function jobLine(where: string, job: Job): string {
  let raw = job as unknown as Record<string, unknown>;
  if (readUsualJob(job, LINE_FIELDS)) raw = LINE_FIELDS as unknown as Record<string, unknown>;
  else requireWritableJob(job, where);
  const out: Record<string, unknown> = {};
  for (const k of JOB_FIELDS) {
    const v = raw[k];
    if (v !== undefined) out[k] = jobJsonValue(where, job, k, v);
  }
  try {
    return JSON.stringify(out);
  } catch (error) {
    throw unwritableJob(where, job, error);
  }
}

/**
 * The lines of a native jobs file, lazily: the header line, then one line per job.
 *
 * @throws InvalidInputError (from `@sched/workload/writeJobsLines`) for a job as
 * {@link formatJobJson} refuses it, an id given twice, or header `meta` that would not read back
 * (not an object of JSON data, or `procs` not an integer >= 1).
 *
 * Complexity: O(1) per line.
 *
 * @example
 * ```ts
 * for (const line of writeJobsLines(jobs, { generator: "lublin" })) out.write(`${line}\n`);
 * ```
 */
export function* writeJobsLines(
  jobs: Iterable<Job>,
  meta?: Readonly<Record<string, unknown>>,
): Generator<string, void, undefined> {
  yield* jobsLines("@sched/workload/writeJobsLines", jobs, meta);
}

/** The lines of {@link writeJobsLines}, errors from `where`. */
function* jobsLines(
  where: string,
  jobs: Iterable<Job>,
  meta: Readonly<Record<string, unknown>> | undefined,
): Generator<string, void, undefined> {
  requireIterable(where, "jobs", jobs, "jobs");
  yield jobsHeaderLine(where, meta);
  const ids = new KeptIds();
  for (const j of jobs) {
    const line = jobLine(where, j);
    if (!ids.add(j.id)) throw repeatedJobId(where, j.id);
    yield line;
  }
}

/**
 * A native jobs file (JSON Lines): a header line `{"format":"@sched/jobs","version":1,"meta":…}`
 * then one job per line, each ending in `"\n"`. Carries every `Job` field (deadlines, ready
 * times, licenses, input data, tasks, …) that SWF cannot. Same jobs, same bytes.
 *
 * @throws InvalidInputError as {@link writeJobsLines} (from `@sched/workload/formatJobsJsonl`).
 *
 * Complexity: O(total size).
 *
 * @example
 * ```ts
 * const text = formatJobsJsonl(convergentWorkload().jobs, { generator: "convergent", seed: 0 });
 * parseJobsJsonl(text).jobs.length; // 1500
 * ```
 */
export function formatJobsJsonl(
  jobs: Iterable<Job>,
  meta?: Readonly<Record<string, unknown>>,
): string {
  const parts: string[] = [];
  for (const line of jobsLines("@sched/workload/formatJobsJsonl", jobs, meta)) parts.push(line);
  parts.push("");
  return parts.join("\n");
}

/**
 * Calls `each` with the lines of `text` that `text.split(/\r\n?|\n/)` gives (a line end is `\n`,
 * `\r\n` or a lone `\r`, as Node's `readline` splits a stream; an empty last line after a final
 * line end), in order, without the array: found by `indexOf`, about 15 ns a line where the
 * regular expression's split took about 170 (a million Lublin lines). Internal.
 */
export function forEachLine(text: string, each: (line: string) => void): void {
  let start = 0;
  let lf = text.indexOf("\n");
  let cr = text.indexOf("\r");
  for (;;) {
    if (lf !== -1 && lf < start) lf = text.indexOf("\n", start);
    if (cr !== -1 && cr < start) cr = text.indexOf("\r", start);
    const end = lf === -1 ? cr : cr === -1 ? lf : Math.min(lf, cr);
    if (end === -1) {
      each(start === 0 ? text : text.slice(start));
      return;
    }
    each(text.slice(start, end));
    start = end === cr && text.charCodeAt(end + 1) === 0x0a ? end + 2 : end + 1;
  }
}

/**
 * Reads native lines one at a time. A job line in the usual shape (see {@link scanJobLine}) is
 * read by the scanner, straight into its job; any other line (the header, a job with licenses or
 * input data, white space, a line the scanner finds anything wrong with) by `JSON.parse` and the
 * checks, which name what is wrong. `scan: false` reads every line the second way (the tests
 * compare both). Internal.
 */
export class NativeLineReader {
  private lineNo = 0;
  private sawData = false;
  /** The ids read so far (a few runs when they increase, as `gen` writes them). */
  private readonly ids = new KeptIds();
  header: JobsFileHeader = { format: JOBS_FORMAT, version: NATIVE_VERSION };
  /** Whether a header line was read. */
  sawHeader = false;

  constructor(
    private readonly where: string,
    private readonly source: string,
    private readonly scan = true,
  ) {
    // every message starts with the source: a number or an object read as its text
    if (typeof source !== "string") {
      throw new InvalidInputError(
        where,
        "options.source",
        `is ${describeValue(source)}, expected a string (the file's name in messages)`,
      );
    }
  }

  private fail(detail: string, field?: string, column?: number): never {
    const loc: { source: string; line: number; column?: number; field?: string } = {
      source: this.source,
      line: this.lineNo,
    };
    if (column !== undefined) loc.column = column;
    if (field !== undefined) loc.field = field;
    throw new ParseError(this.where, loc, detail);
  }

  next(line: string): Job | null {
    this.lineNo++;
    if (typeof line !== "string") {
      // lines of the caller's (a stream of Buffers, say): said, not a TypeError from inside
      throw new InvalidInputError(
        this.where,
        `line ${this.lineNo}`,
        `is ${describeValue(line)}, expected a string (a line of the file without its line end: decode a stream's bytes first)`,
      );
    }
    if (this.scan) {
      const job = scanJobLine(line);
      if (job !== null) {
        this.sawData = true;
        if (!this.ids.add(job.id)) this.fail(`${job.id} appears twice`, "id");
        return job;
      }
    }
    const text = line.trim();
    if (text === "") return null;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (e) {
      // The column on the line as it is in the file (before trimming).
      const bad = jsonSyntaxError(line, e);
      this.fail(`is not valid JSON (${bad.message})`, undefined, bad.column);
    }
    if (typeof value !== "object" || value === null || Array.isArray(value)) {
      this.fail("expected a JSON object (one job per line)");
    }
    if (mayRepeatJsonKey(text, value)) {
      const twice = duplicateJsonKey(text);
      if (twice !== null) this.fail(DUPLICATE_KEY, twice);
    }
    const obj = value as Record<string, unknown>;
    if (!this.sawData && "format" in obj) {
      this.sawData = true;
      this.sawHeader = true;
      if (obj.format !== JOBS_FORMAT) {
        this.fail(`is ${JSON.stringify(obj.format)}, expected "${JOBS_FORMAT}"`, "format");
      }
      if (obj.version !== NATIVE_VERSION) {
        this.fail(
          `is ${JSON.stringify(obj.version)}, this reader knows version ${NATIVE_VERSION}`,
          "version",
        );
      }
      for (const k of Object.keys(obj)) {
        if (k !== "format" && k !== "version" && k !== "meta")
          this.fail("is not a header field (format, version, meta)", k);
      }
      if (
        obj.meta !== undefined &&
        (typeof obj.meta !== "object" || obj.meta === null || Array.isArray(obj.meta))
      ) {
        this.fail("expected an object", "meta");
      }
      const procs = (obj.meta as Record<string, unknown> | undefined)?.procs;
      if (procs !== undefined && !(Number.isSafeInteger(procs) && (procs as number) >= 1)) {
        this.fail(
          `is ${JSON.stringify(procs)}, expected an integer >= 1 (the machine's processors)`,
          "meta.procs",
        );
      }
      this.header =
        obj.meta === undefined
          ? { format: JOBS_FORMAT, version: NATIVE_VERSION }
          : {
              format: JOBS_FORMAT,
              version: NATIVE_VERSION,
              meta: obj.meta as Record<string, unknown>,
            };
      return null;
    }
    this.sawData = true;
    for (const k of Object.keys(obj)) {
      if (!JOB_FIELD_SET.has(k))
        this.fail(`is not a job field (expected one of ${JOB_FIELDS.join(", ")})`, k);
    }
    for (const k of ["id", "submit", "runtime", "cores"] as const) {
      if (!(k in obj)) this.fail("is missing", k);
    }
    if (obj.input !== undefined && Array.isArray(obj.input)) {
      obj.input.forEach((d, i) => {
        if (typeof d === "object" && d !== null) {
          for (const k of Object.keys(d))
            if (k !== "size" && k !== "machine")
              this.fail("is not an input field (size, machine)", `input[${i}].${k}`);
        }
      });
    }
    let job: Job;
    try {
      job = createJob(obj as unknown as JobSpec);
    } catch (e) {
      if (e instanceof InvalidInputError) {
        const detail = e.message.slice(`${e.where}: ${e.field} `.length);
        const field = e.field.replace(/^(job \d+|spec)\./, "");
        this.fail(detail, field);
      }
      throw e;
    }
    const problem = jobTimeProblem(job);
    if (problem !== null) this.fail(problem.detail, problem.field);
    if (!this.ids.add(job.id)) this.fail(`${job.id} appears twice`, "id");
    return job;
  }
}

/**
 * Parses a native jobs file (JSON Lines). The header line is optional; blank lines are skipped;
 * lines end in `\n`, `\r\n` or a lone `\r`. Each job line must be a JSON object with only the
 * fields of {@link JOB_JSON_SCHEMA}, valid as @sched/core's `createJob` checks it (estimate
 * defaults to runtime), no key given twice in one object, with a unique id and times as {@link jobTimeProblem} requires (submit in
 * [0, 2^53 − 1], ready and deadline not before submit, no run time or estimate absorbed by the
 * size of the clock). A header's `meta.procs`, when present, must be an integer >= 1.
 *
 * Complexity: O(total size).
 *
 * @throws ParseError naming the source, the line and the field, e.g.
 *   `@sched/workload/parseJobsJsonl: jobs.jsonl:3 cores: is 1.5, expected an integer >= 1`.
 *
 * @example
 * ```ts
 * parseJobsJsonl('{"id":1,"submit":0,"runtime":60,"cores":4}').jobs[0].estimate; // 60
 * ```
 */
export function parseJobsJsonl(text: string, options: ReadJobsOptions = {}): JobsFile {
  requireKnownKeys("@sched/workload/parseJobsJsonl", "options", options, READ_JOBS_KEYS);
  const reader = new NativeLineReader("@sched/workload/parseJobsJsonl", options.source ?? "<jobs>");
  const jobs: Job[] = [];
  forEachLine(text, (line) => {
    const j = reader.next(line);
    if (j !== null) jobs.push(j);
  });
  return { header: reader.header, jobs };
}

/**
 * Streams a native jobs file line by line (a `readline` interface, say), yielding one job at a
 * time. Same rules and errors as {@link parseJobsJsonl}; `onHeader` gets the header line when
 * there is one.
 *
 * Complexity: O(1) memory beyond the current line.
 *
 * @throws ParseError as {@link parseJobsJsonl} (where `@sched/workload/readJobsLines`).
 *
 * @example
 * ```ts
 * const rl = createInterface({ input: createReadStream("jobs.jsonl"), crlfDelay: Infinity });
 * for await (const job of readJobsLines(rl, { source: "jobs.jsonl" })) { ... }
 * ```
 */
export async function* readJobsLines(
  lines: Iterable<string> | AsyncIterable<string>,
  options: ReadJobsLinesOptions = {},
): AsyncGenerator<Job, void, undefined> {
  requireKnownKeys("@sched/workload/readJobsLines", "options", options, READ_JOBS_LINES_KEYS);
  const reader = new NativeLineReader("@sched/workload/readJobsLines", options.source ?? "<jobs>");
  let reported = false;
  for await (const line of lines) {
    const j = reader.next(line);
    if (!reported && reader.sawHeader) {
      reported = true;
      options.onHeader?.(reader.header);
    }
    if (j !== null) yield j;
  }
}

/** A native jobs file read one line at a time by the caller: see {@link createJobsLineReader}. */
export interface JobsLineReader {
  /**
   * Reads the file's next line (without its line end): its job, or null for the header line or
   * a blank line.
   * @throws ParseError as {@link parseJobsJsonl} (where `@sched/workload/createJobsLineReader`).
   */
  next(line: string): Job | null;
  /** The header, once its line was read; undefined before (and in a file without one). */
  readonly header: JobsFileHeader | undefined;
}

/**
 * A reader of a native jobs file that the caller hands line by line, in order: the synchronous
 * form of {@link readJobsLines} (same rules, jobs and errors), for lines that arrive in batches
 * (the lines of a chunk of a file) or one by one from the caller's own loop. One step of an async
 * generator per job cost about 0.3 us, as much as reading the job (`sched-sim run` on a million
 * native jobs: see the README's "Native format").
 *
 * Complexity: O(length of the line) per line; memory a few runs of ids (for the duplicate check).
 *
 * @throws InvalidInputError for an unknown option or a `source` that is not a string.
 *
 * @example
 * ```ts
 * const reader = createJobsLineReader({ source: "jobs.jsonl" });
 * for (const line of chunkLines) {
 *   const job = reader.next(line);
 *   if (job !== null) sim.push(job);
 * }
 * ```
 */
export function createJobsLineReader(options: ReadJobsLinesOptions = {}): JobsLineReader {
  const where = "@sched/workload/createJobsLineReader";
  requireKnownKeys(where, "options", options, READ_JOBS_LINES_KEYS);
  const reader = new NativeLineReader(where, options.source ?? "<jobs>");
  const onHeader = options.onHeader;
  let header: JobsFileHeader | undefined;
  return {
    next(line: string): Job | null {
      const job = reader.next(line);
      if (header === undefined && reader.sawHeader) {
        header = reader.header;
        onHeader?.(header);
      }
      return job;
    },
    get header() {
      return header;
    },
  };
}

/**
 * A platform as JSON: `{"format":"@sched/platform","version":1,"machines":[…],"licenses":[…],
 * "clusters":[…],"links":[…],"referenceSpeed":…}`, the fields of @sched/core's `PlatformSpec`
 * (machine ids and total cores are implied). `parsePlatformJson(formatPlatformJson(p))` equals p.
 *
 * Complexity: O(size of the platform).
 *
 * @example
 * ```ts
 * writeFileSync("farm.json", formatPlatformJson(convergentWorkload().platform));
 * ```
 */
export function formatPlatformJson(platform: Platform): string {
  const spec = {
    format: PLATFORM_FORMAT,
    version: NATIVE_VERSION,
    machines: platform.machines.map((m) => ({
      name: m.name,
      cores: m.cores,
      speed: m.speed,
      cluster: m.cluster,
    })),
    licenses: platform.licenses.map((l) => {
      const o: Record<string, unknown> = { name: l.name, kind: l.kind, copies: l.copies };
      if (l.machines !== undefined) o.machines = [...l.machines];
      return o;
    }),
    clusters: platform.clusters.map((c) =>
      c.link === undefined ? { name: c.name } : { name: c.name, link: c.link },
    ),
    links: platform.links.map((l) => ({ bandwidth: l.bandwidth, latency: l.latency })),
    referenceSpeed: platform.referenceSpeed,
  };
  return `${JSON.stringify(spec, null, 2)}\n`;
}

/**
 * Reads a platform JSON file (see {@link formatPlatformJson}; `format`/`version` may be left out,
 * so a bare `PlatformSpec` is accepted) and builds it with @sched/core's `createPlatform`.
 *
 * @throws ParseError naming the source and the field, e.g.
 *   `@sched/workload/parsePlatformJson: farm.json spec.machines[3].cores: is 0, expected an integer >= 1`.
 *
 * Complexity: O(size of the text).
 *
 * @example
 * ```ts
 * parsePlatformJson('{"machines":[{"cores":4},{"cores":2}]}').totalCores; // 6
 * ```
 */
export function parsePlatformJson(text: string, options: ReadJobsOptions = {}): Platform {
  const where = "@sched/workload/parsePlatformJson";
  requireKnownKeys(where, "options", options, READ_JOBS_KEYS);
  const source = options.source ?? "<platform>";
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    const bad = jsonSyntaxError(text, e);
    throw new ParseError(
      where,
      bad.line === undefined ? { source } : { source, line: bad.line, column: bad.column },
      `is not valid JSON (${bad.message})`,
    );
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new ParseError(where, { source }, "expected a JSON object");
  }
  const twice = duplicateJsonKey(text);
  if (twice !== null) throw new ParseError(where, { source, field: twice }, DUPLICATE_KEY);
  const { format, version, ...spec } = value as Record<string, unknown>;
  if (format !== undefined && format !== PLATFORM_FORMAT) {
    throw new ParseError(
      where,
      { source, field: "format" },
      `is ${JSON.stringify(format)}, expected "${PLATFORM_FORMAT}"`,
    );
  }
  if (version !== undefined && version !== NATIVE_VERSION) {
    throw new ParseError(
      where,
      { source, field: "version" },
      `is ${JSON.stringify(version)}, this reader knows version ${NATIVE_VERSION}`,
    );
  }
  try {
    return createPlatform(spec as unknown as PlatformSpec);
  } catch (e) {
    if (e instanceof InvalidInputError) {
      throw new ParseError(
        where,
        { source, field: e.field },
        e.message.slice(`${e.where}: ${e.field} `.length),
      );
    }
    throw e;
  }
}
