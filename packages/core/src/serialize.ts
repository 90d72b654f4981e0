import {
  describeValue,
  InvalidInputError,
  optionKeys,
  ParseError,
  requireBoolean,
  requireKnownKeys,
  SchedError,
} from "@sched/errors";
import { checkJob, JOB_FIELDS } from "./job.js";
import { createPlatform } from "./platform.js";
import type { Interval, JobRecord, Outcome, RunStats, ScheduleTrace } from "./trace.js";
import { checkRecord, checkTrace } from "./trace-check.js";
import type { Job, Platform } from "./types.js";

/** The `format` tag of a serialised trace. */
export const TRACE_FORMAT = "@sched/trace";
/** The version written by {@link traceToJSON}. */
export const TRACE_VERSION = 1;

/**
 * `o`'s own names sorted, on an object without a prototype: a license named `__proto__` (an own
 * key, as `JSON.parse` makes it) stays a key instead of setting the copy's prototype, which left it
 * out of the trace.
 */
function sortedObject(o: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const out: Record<string, unknown> = Object.create(null);
  for (const k of Object.keys(o).sort()) out[k] = o[k];
  return out;
}

const JOB_FIELD_SET = new Set<string>(JOB_FIELDS);

/**
 * Checks that `value` is JSON data that `JSON.parse(JSON.stringify(value))` gives back as it is:
 * null, a boolean, a string, a finite number (`-0` reads back as `0`), an array without holes or
 * other properties, an object with `Object.prototype` (or none) and no `toJSON`, its members
 * data too (a member set to `undefined` is left out, as absent), nothing named `__proto__`
 * (which a reader's copy would take for its prototype). Names `field` when not.
 */
function requireJsonData(where: string, field: string, value: unknown, open: Set<object>): void {
  if (value === null || typeof value === "string" || typeof value === "boolean") return;
  if (typeof value === "number" && Number.isFinite(value)) return;
  const data =
    "expected JSON data (an object, an array, a string, a finite number, a boolean or null) that reads back as itself";
  const bad = () => new InvalidInputError(where, field, `is ${describeValue(value)}, ${data}`);
  if (typeof value !== "object" || open.has(value)) throw bad();
  open.add(value);
  if (Array.isArray(value)) {
    if (Object.keys(value).length !== value.length) throw bad();
    for (let i = 0; i < value.length; i++) {
      if (value[i] === undefined) throw bad();
      requireJsonData(where, `${field}[${i}]`, value[i], open);
    }
  } else {
    const proto = Object.getPrototypeOf(value);
    if ((proto !== Object.prototype && proto !== null) || "toJSON" in value) throw bad();
    const o = value as Record<string, unknown>;
    for (const k of Object.keys(o)) {
      if (o[k] !== undefined) requireJsonData(where, `${field}.${k}`, o[k], open);
    }
  }
  open.delete(value);
}

/**
 * The job as written: its fields in {@link JOB_FIELDS}' order (licenses by name, input items as
 * `{ size, machine }`), then any other field it carries (a tag of the caller's, which
 * `traceFromJSON` keeps as `createJob` does), in the job's own order. Such a field must be JSON
 * data that reads back as itself, and not be named `__proto__`.
 */
function jobToPlain(where: string, label: string, job: Job): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const raw = job as unknown as Record<string, unknown>;
  for (const k of JOB_FIELDS) {
    const v = raw[k];
    if (v === undefined) continue;
    if (k === "licenses") out[k] = sortedObject(v as Record<string, unknown>);
    else if (k === "input") {
      out[k] = (v as Job["input"])!.map((d) => ({ size: d.size, machine: d.machine }));
    } else out[k] = v;
  }
  for (const k of Object.keys(raw)) {
    const v = raw[k];
    if (v === undefined || JOB_FIELD_SET.has(k)) continue;
    if (k === "__proto__") {
      throw new InvalidInputError(
        where,
        `${label}.__proto__`,
        "is a field traceFromJSON cannot give back (its copy would take it for its prototype)",
      );
    }
    requireJsonData(where, `${label}.${k}`, v, new Set());
    out[k] = v;
  }
  return out;
}

function platformToPlain(p: Platform): Record<string, unknown> {
  return {
    machines: p.machines.map((m) => ({
      id: m.id,
      name: m.name,
      cores: m.cores,
      speed: m.speed,
      cluster: m.cluster,
    })),
    licenses: p.licenses.map((l) => {
      const o: Record<string, unknown> = { name: l.name, kind: l.kind, copies: l.copies };
      if (l.machines !== undefined) o.machines = [...l.machines];
      return o;
    }),
    clusters: p.clusters.map((c) => {
      const o: Record<string, unknown> = { id: c.id, name: c.name };
      if (c.link !== undefined) o.link = c.link;
      return o;
    }),
    links: p.links.map((l) => ({ id: l.id, bandwidth: l.bandwidth, latency: l.latency })),
    referenceSpeed: p.referenceSpeed,
    totalCores: p.totalCores,
  };
}

/** Options of {@link traceToJSON}. */
export interface TraceToJSONOptions {
  /**
   * Write `stats.schedulerMs`, the wall-clock time spent in the policy. It differs between two
   * runs of one policy; leave it out (`false`) to get the same bytes from the same run inputs.
   * @defaultValue `true`
   */
  readonly timings?: boolean;
}

/** The keys of {@link TraceToJSONOptions}, all of them (checked by the compiler). */
const TO_JSON_KEYS = optionKeys<TraceToJSONOptions>({
  timings: true,
});

/**
 * Serialises a trace to JSON text with a fixed key order (same trace, same bytes): a
 * `{ format, version, scheduler, platform, records, stats, horizon? }` object. Note that
 * `stats.schedulerMs` is wall-clock time, so two runs of one policy differ there unless
 * `options.timings` is `false`.
 *
 * Complexity: O(size of the trace).
 *
 * @throws InvalidInputError when an option is invalid, or when the trace is malformed (a field
 * missing or of the wrong type, a time that is not a finite number), naming the record and the
 * field: what {@link traceFromJSON} would refuse to read back; or when a job carries a field of
 * the caller's that would not read back as itself (not JSON data, or named `__proto__`).
 *
 * @example
 * ```ts
 * traceFromJSON(traceToJSON(trace)); // deep-equal to trace
 * ```
 */
export function traceToJSON(trace: ScheduleTrace, options: TraceToJSONOptions = {}): string {
  requireKnownKeys("@sched/core/traceToJSON", "options", options, TO_JSON_KEYS);
  const timings = requireBoolean(
    "@sched/core/traceToJSON",
    "options.timings",
    options.timings ?? true,
  );
  checkTrace("@sched/core/traceToJSON", "trace", trace);
  const out: Record<string, unknown> = {
    format: TRACE_FORMAT,
    version: TRACE_VERSION,
    scheduler: trace.scheduler,
    platform: platformToPlain(trace.platform),
    records: trace.records.map((r, i) => {
      checkRecord("@sched/core/traceToJSON", "trace.records", i, r, -1);
      const o: Record<string, unknown> = {
        job: jobToPlain("@sched/core/traceToJSON", `trace.records[${i}].job`, r.job),
        intervals: r.intervals.map((iv) => ({
          start: iv.start,
          end: iv.end,
          allocation: iv.allocation.map((p) => ({ machine: p.machine, cores: p.cores })),
        })),
        end: r.end,
        outcome: r.outcome,
      };
      if (r.reason !== undefined) o.reason = r.reason;
      return o;
    }),
    // NaN (unknown: a trace read back from one written without timings) is left out, as
    // `timings: false` does: JSON would write it as null, which traceFromJSON refuses.
    stats:
      timings && !Number.isNaN(trace.stats.schedulerMs)
        ? {
            events: trace.stats.events,
            decisions: trace.stats.decisions,
            schedulerMs: trace.stats.schedulerMs,
          }
        : { events: trace.stats.events, decisions: trace.stats.decisions },
  };
  if (trace.horizon !== undefined) out.horizon = trace.horizon;
  return JSON.stringify(out);
}

/** Options of {@link traceFromJSON}. */
export interface TraceFromJSONOptions {
  /** Name of the text's source, used in error messages. @defaultValue `"trace JSON"` */
  readonly source?: string;
}

/** The keys of {@link TraceFromJSONOptions}, all of them (checked by the compiler). */
const FROM_JSON_KEYS = optionKeys<TraceFromJSONOptions>({
  source: true,
});

const WHERE = "@sched/core/traceFromJSON";

/**
 * Reads a trace written by {@link traceToJSON}, validating the platform (rebuilt with
 * `createPlatform`), every job and every record's shape. It does not check the schedule itself:
 * run `checkSchedule` for that.
 *
 * Complexity: O(size of the text).
 *
 * @throws ParseError naming the source and the field (e.g. `records[3].intervals[0].end`) when
 * the text is not JSON, not a version-1 trace, or a value is invalid.
 *
 * @example
 * ```ts
 * const trace = traceFromJSON(text, { source: "run-42.json" });
 * ```
 */
export function traceFromJSON(text: string, options: TraceFromJSONOptions = {}): ScheduleTrace {
  requireKnownKeys(WHERE, "options", options, FROM_JSON_KEYS);
  const source = options.source ?? "trace JSON";
  const fail = (field: string, detail: string, cause?: unknown): never => {
    throw new ParseError(WHERE, { source, field }, detail, cause === undefined ? {} : { cause });
  };
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    return fail("(text)", `is not JSON: ${(e as Error).message}`, e);
  }
  const obj = asObject(raw, "(top level)", fail);
  onlyKeys(obj, "", TOP_KEYS, fail);
  if (obj.format !== TRACE_FORMAT)
    fail("format", `is ${JSON.stringify(obj.format)}, expected "${TRACE_FORMAT}"`);
  if (obj.version !== TRACE_VERSION)
    fail("version", `is ${JSON.stringify(obj.version)}, expected ${TRACE_VERSION}`);
  if (typeof obj.scheduler !== "string") fail("scheduler", "is not a string");
  let platform: Platform;
  try {
    const p = asObject(obj.platform, "platform", fail);
    onlyKeys(p, "platform", PLATFORM_KEYS, fail);
    for (const [list, keys] of [
      ["machines", MACHINE_KEYS],
      ["clusters", CLUSTER_KEYS],
      ["links", LINK_KEYS],
    ] as const) {
      if (!Array.isArray(p[list])) fail(`platform.${list}`, "is not an array");
      (p[list] as unknown[]).forEach((item, k) => {
        const o = asObject(item, `platform.${list}[${k}]`, fail);
        onlyKeys(o, `platform.${list}[${k}]`, keys, fail);
        // `id` is written as the index (derived); another is a hand edit, not read silently
        if (o.id !== undefined && o.id !== k) {
          fail(
            `platform.${list}[${k}].id`,
            `is ${JSON.stringify(o.id)}, expected ${k} (its index)`,
          );
        }
      });
    }
    const spec: Record<string, unknown> = {
      machines: (
        p.machines as { name: string; cores: number; speed: number; cluster: number }[]
      ).map((m) => ({ name: m.name, cores: m.cores, speed: m.speed, cluster: m.cluster })),
      licenses: p.licenses,
      clusters: (p.clusters as { name: string; link?: number }[]).map((c) =>
        c.link === undefined ? { name: c.name } : { name: c.name, link: c.link },
      ),
      links: (p.links as { bandwidth: number; latency: number }[]).map((l) => ({
        bandwidth: l.bandwidth,
        latency: l.latency,
      })),
      referenceSpeed: p.referenceSpeed,
    };
    platform = createPlatform(spec as never);
    if (p.totalCores !== undefined && p.totalCores !== platform.totalCores) {
      fail(
        "platform.totalCores",
        `is ${JSON.stringify(p.totalCores)}, but its machines have ${platform.totalCores} cores`,
      );
    }
  } catch (e) {
    if (e instanceof ParseError) throw e;
    return fail("platform", e instanceof SchedError ? e.message : "is malformed", e);
  }
  if (!Array.isArray(obj.records)) fail("records", "is not an array");
  const records: JobRecord[] = (obj.records as unknown[]).map((rawRecord, i) => {
    const field = `records[${i}]`;
    const r = asObject(rawRecord, field, fail);
    onlyKeys(r, field, RECORD_KEYS, fail);
    let job: Job;
    try {
      job = checkJob(WHERE, r.job as Job, `${field}.job`, true);
    } catch (e) {
      return fail(`${field}.job`, e instanceof SchedError ? e.message : "is malformed", e);
    }
    if (!Array.isArray(r.intervals)) fail(`${field}.intervals`, "is not an array");
    const intervals: Interval[] = (r.intervals as unknown[]).map((rawIv, k) => {
      const f = `${field}.intervals[${k}]`;
      const iv = asObject(rawIv, f, fail);
      onlyKeys(iv, f, INTERVAL_KEYS, fail);
      const start = asNumber(iv.start, `${f}.start`, fail);
      const end = asNumber(iv.end, `${f}.end`, fail);
      if (!Array.isArray(iv.allocation)) fail(`${f}.allocation`, "is not an array");
      const allocation = (iv.allocation as unknown[]).map((rawPart, j) => {
        const part = asObject(rawPart, `${f}.allocation[${j}]`, fail);
        onlyKeys(part, `${f}.allocation[${j}]`, PART_KEYS, fail);
        return Object.freeze({
          machine: asNumber(part.machine, `${f}.allocation[${j}].machine`, fail),
          cores: asNumber(part.cores, `${f}.allocation[${j}].cores`, fail),
        });
      });
      return { start, end, allocation: Object.freeze(allocation) };
    });
    const end = r.end === null ? null : asNumber(r.end, `${field}.end`, fail);
    const outcome = r.outcome as Outcome;
    if (outcome !== "completed" && outcome !== "rejected" && outcome !== "unfinished") {
      fail(
        `${field}.outcome`,
        `is ${JSON.stringify(r.outcome)}, expected completed, rejected or unfinished`,
      );
    }
    const rec: {
      job: Job;
      intervals: Interval[];
      end: number | null;
      outcome: Outcome;
      reason?: string;
    } = {
      job,
      intervals,
      end,
      outcome,
    };
    if (r.reason !== undefined) {
      if (typeof r.reason !== "string") fail(`${field}.reason`, "is not a string");
      rec.reason = r.reason as string;
    }
    return rec;
  });
  const s = asObject(obj.stats, "stats", fail);
  onlyKeys(s, "stats", STATS_KEYS, fail);
  const stats: RunStats = {
    events: asNumber(s.events, "stats.events", fail),
    decisions: asNumber(s.decisions, "stats.decisions", fail),
    // Absent when written with `timings: false`: unknown, so NaN.
    schedulerMs:
      s.schedulerMs === undefined ? Number.NaN : asNumber(s.schedulerMs, "stats.schedulerMs", fail),
  };
  const trace: {
    scheduler: string;
    platform: Platform;
    records: JobRecord[];
    stats: RunStats;
    horizon?: number;
  } = { scheduler: obj.scheduler as string, platform, records, stats };
  if (obj.horizon !== undefined) trace.horizon = asNumber(obj.horizon, "horizon", fail);
  return trace;
}

type Fail = (field: string, detail: string, cause?: unknown) => never;

// The keys traceToJSON writes at each level: any other is refused (a hand edit or a misspelt
// key would otherwise be dropped without a word). The job's own keys are checkJob's to judge.
const TOP_KEYS = ["format", "version", "scheduler", "platform", "records", "stats", "horizon"];
const PLATFORM_KEYS = ["machines", "licenses", "clusters", "links", "referenceSpeed", "totalCores"];
const MACHINE_KEYS = ["id", "name", "cores", "speed", "cluster"];
const CLUSTER_KEYS = ["id", "name", "link"];
const LINK_KEYS = ["id", "bandwidth", "latency"];
const RECORD_KEYS = ["job", "intervals", "end", "outcome", "reason"];
const INTERVAL_KEYS = ["start", "end", "allocation"];
const PART_KEYS = ["machine", "cores"];
const STATS_KEYS = ["events", "decisions", "schedulerMs"];

/** Fails on a key of `o` that the trace format does not have at `field`. */
function onlyKeys(
  o: Record<string, unknown>,
  field: string,
  keys: readonly string[],
  fail: Fail,
): void {
  for (const key of Object.keys(o)) {
    if (keys.includes(key)) continue;
    fail(
      field === "" ? key : `${field}.${key}`,
      `is not a key of the trace format here; expected one of ${keys.join(", ")}`,
    );
  }
}

function asObject(v: unknown, field: string, fail: Fail): Record<string, unknown> {
  if (typeof v !== "object" || v === null || Array.isArray(v)) fail(field, "is not an object");
  return v as Record<string, unknown>;
}

function asNumber(v: unknown, field: string, fail: Fail): number {
  if (typeof v !== "number" || !Number.isFinite(v))
    fail(field, `is ${JSON.stringify(v)}, expected a finite number`);
  return v as number;
}
