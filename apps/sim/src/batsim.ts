import { createJob, InvalidInputError, type Job, ParseError } from "@sched/core";
import { duplicateJsonKey, jobTimeProblem, jsonSyntaxError } from "@sched/workload";
import { formatNumber } from "./format.js";

/**
 * Batsim's JSON workload: `nb_res` (resources), `jobs` (`id`, `subtime`, `walltime`, `res`,
 * `profile`) and `profiles` (name -> `{type, ...}`). Only `delay` profiles (a fixed run time)
 * carry over to @sched jobs; other profile types model the application and have no run time of
 * their own.
 */
export interface BatsimWorkload {
  readonly nb_res: number;
  readonly jobs: readonly {
    readonly id: number;
    readonly subtime: number;
    readonly walltime: number;
    readonly res: number;
    readonly profile: string;
  }[];
  readonly profiles: Readonly<Record<string, { readonly type: "delay"; readonly delay: number }>>;
}

/** Job fields a Batsim workload holds (as `id`, `subtime`, `profile`, `walltime`, `res`). */
const BATSIM_KEPT: ReadonlySet<string> = new Set(["id", "submit", "runtime", "estimate", "cores"]);

/** Adds to `into` the fields of `job` that a Batsim workload drops (set ones only). */
export function addBatsimDroppedKeys(into: Set<string>, job: Job): void {
  const raw = job as unknown as Record<string, unknown>;
  for (const k in raw) if (raw[k] !== undefined && !BATSIM_KEPT.has(k)) into.add(k);
}

/** A number as `stableJson` (format.ts) writes it. */
function jsonNumber(x: number): string {
  return Number.isFinite(x) ? formatNumber(x) : "null";
}

/** Flush a writer's text to its sink from this many characters on. */
const FLUSH_AT = 1 << 16;

/**
 * Jobs written as a Batsim JSON workload as they come: each job's run time becomes a shared
 * `delay` profile named `delay<runtime>`, its estimate the `walltime`, its cores `res`. The bytes
 * of `stableJson` (format.ts) of the whole document (sorted keys: `jobs` comes before `nb_res` and
 * `profiles`, so the jobs go out first; `nb_res`, known at the end, and the profiles met on the
 * way follow in {@link end}). Memory holds the profiles, not the jobs.
 */
export class BatsimWriter {
  private readonly profiles = new Map<string, number>();
  private parts: string[] = [];
  private size = 0;
  private count = 0;

  /** `sink` takes the text a part at a time, in order. */
  constructor(private readonly sink: (text: string) => void) {}

  /** Appends `job`. */
  job(job: Job): void {
    const profile = `delay${job.runtime}`;
    if (!this.profiles.has(profile)) this.profiles.set(profile, job.runtime);
    const text = `${this.count === 0 ? '{\n  "jobs": [\n' : ",\n"}    {
      "id": ${jsonNumber(job.id)},
      "profile": ${JSON.stringify(profile)},
      "res": ${jsonNumber(job.cores)},
      "subtime": ${jsonNumber(job.submit)},
      "walltime": ${jsonNumber(job.estimate)}
    }`;
    this.count++;
    this.parts.push(text);
    this.size += text.length;
    if (this.size >= FLUSH_AT) this.flush();
  }

  /** Ends the document with `nb_res` and the profiles, and hands the rest to the sink. */
  end(nbRes: number): void {
    const names = [...this.profiles.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    const profiles = names.map(
      (name) => `    ${JSON.stringify(name)}: {
      "delay": ${jsonNumber(this.profiles.get(name) as number)},
      "type": "delay"
    }`,
    );
    this.parts.push(
      `${this.count === 0 ? '{\n  "jobs": []' : "\n  ]"},\n  "nb_res": ${jsonNumber(nbRes)},\n  "profiles": ${
        profiles.length === 0 ? "{}" : `{\n${profiles.join(",\n")}\n  }`
      }\n}\n`,
    );
    this.flush();
  }

  private flush(): void {
    if (this.parts.length === 0) return;
    this.sink(this.parts.join(""));
    this.parts = [];
    this.size = 0;
  }
}

/**
 * Jobs as a Batsim JSON workload ({@link BatsimWriter}), deterministic (sorted keys).
 * @returns the text and the Job fields that Batsim's format cannot hold (dropped), by name.
 */
export function jobsToBatsim(
  jobs: readonly Job[],
  nbRes: number,
): { text: string; dropped: readonly string[] } {
  const parts: string[] = [];
  const writer = new BatsimWriter((text) => parts.push(text));
  const dropped = new Set<string>();
  for (const j of jobs) {
    addBatsimDroppedKeys(dropped, j);
    writer.job(j);
  }
  writer.end(nbRes);
  return { text: parts.join(""), dropped: [...dropped].sort() };
}

/** A Batsim workload read as @sched jobs. */
export interface BatsimJobs {
  readonly jobs: readonly Job[];
  /** `nb_res`: the machine the workload was made for. */
  readonly nbRes: number;
  /** Jobs without a `walltime` (Batsim: no limit), whose estimate is their run time. */
  readonly withoutWalltime: number;
  /** Job fields that @sched jobs do not carry (`extra_data`, …), by name, sorted. */
  readonly ignoredFields: readonly string[];
}

/** The job fields read; Batsim allows any other (`extra_data`, dependencies, …). */
const JOB_FIELDS = new Set(["id", "subtime", "walltime", "res", "profile"]);
/** `delay` in Batsim up to 4, `DelayProfile` from Batsim 5. */
const DELAY_TYPES = new Set(["delay", "DelayProfile"]);
/** A job id as a string: the digits of a non-negative integer, no sign, no leading zero. */
const ID_DIGITS = /^(?:0|[1-9]\d*)$/;

function shown(value: unknown): string {
  if (value === undefined) return "missing";
  const text = JSON.stringify(value) ?? String(value);
  return `is ${text.length > 60 ? `${text.slice(0, 60)}…` : text}`;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Read a Batsim JSON workload as @sched jobs: id = `id` (an integer, or a string of its
 * digits), submit = `subtime`, runtime = the `delay` of its profile (type `delay`, or Batsim 5's
 * `DelayProfile`), estimate = `walltime` (without one, Batsim sets no limit and the estimate is
 * the run time), cores = `res`. Strict: `nb_res`, `jobs` and `profiles` are required; every value
 * must have its JSON type (no `"2"` for 2, no `null` for 0); no key appears twice in one object;
 * ids are unique; times follow
 * `jobTimeProblem` (submit >= 0, below 2^53, no run time absorbed). Job fields other than these
 * five are ignored and listed.
 *
 * @throws ParseError naming `where` (the command), `source` and the record and field, e.g.
 *   `convert: w.json jobs[3].subtime: is null, expected a number >= 0`.
 */
export function batsimToJobs(text: string, source: string, where = "convert"): BatsimJobs {
  const fail = (field: string | undefined, detail: string): never => {
    throw new ParseError(where, field === undefined ? { source } : { source, field }, detail);
  };
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (error) {
    const bad = jsonSyntaxError(text, error);
    throw new ParseError(
      where,
      bad.line === undefined ? { source } : { source, line: bad.line, column: bad.column },
      `is not valid JSON (${bad.message})`,
    );
  }
  if (!isObject(doc)) {
    return fail(
      undefined,
      `${shown(doc)}, expected a JSON object with nb_res, jobs and profiles (a Batsim workload)`,
    );
  }
  const twice = duplicateJsonKey(text);
  if (twice !== null) {
    fail(twice, "appears twice in one object (JSON would keep the last; give it once)");
  }
  const nbRes = doc.nb_res;
  if (typeof nbRes !== "number" || !Number.isSafeInteger(nbRes) || nbRes < 1) {
    fail("nb_res", `${shown(nbRes)}, expected an integer >= 1 (the resources of the machine)`);
  }
  const profiles = doc.profiles;
  if (!isObject(profiles)) fail("profiles", `${shown(profiles)}, expected an object of profiles`);
  const jobs = doc.jobs;
  if (!Array.isArray(jobs)) fail("jobs", `${shown(jobs)}, expected an array of jobs`);

  const runtimes = new Map<string, number>();
  const runtimeOf = (name: string, at: string): number => {
    const known = runtimes.get(name);
    if (known !== undefined) return known;
    if (!Object.hasOwn(profiles as object, name)) {
      return fail(`${at}.profile`, `is ${JSON.stringify(name)}, not a name in profiles`);
    }
    const p = (profiles as Record<string, unknown>)[name];
    const key = `profiles[${JSON.stringify(name)}]`;
    if (!isObject(p)) return fail(key, `${shown(p)}, expected a profile object`);
    if (typeof p.type !== "string" || !DELAY_TYPES.has(p.type)) {
      return fail(
        `${key}.type`,
        `${shown(p.type)}; only "delay" profiles have a run time of their own`,
      );
    }
    const delay = p.delay;
    if (typeof delay !== "number" || !Number.isFinite(delay) || delay <= 0) {
      return fail(`${key}.delay`, `${shown(delay)}, expected a number > 0 (the run time, s)`);
    }
    runtimes.set(name, delay);
    return delay;
  };

  const out: Job[] = [];
  const firstIndex = new Map<number, number>();
  const ignored = new Set<string>();
  let withoutWalltime = 0;
  (jobs as unknown[]).forEach((raw, i) => {
    const at = `jobs[${i}]`;
    if (!isObject(raw)) fail(at, `${shown(raw)}, expected a job object`);
    const job = raw as Record<string, unknown>;
    for (const k of Object.keys(job)) if (!JOB_FIELDS.has(k)) ignored.add(k);
    const rawId = job.id;
    const id =
      typeof rawId === "string" && ID_DIGITS.test(rawId)
        ? Number(rawId)
        : typeof rawId === "number"
          ? rawId
          : Number.NaN;
    if (!Number.isSafeInteger(id) || id < 0) {
      fail(
        `${at}.id`,
        `${shown(rawId)}, expected a job id: an integer >= 0 or a string of its digits (@sched job ids are numbers)`,
      );
    }
    const first = firstIndex.get(id);
    if (first !== undefined) fail(`${at}.id`, `${id} appears twice (first at jobs[${first}])`);
    firstIndex.set(id, i);
    const subtime = job.subtime;
    if (typeof subtime !== "number" || !Number.isFinite(subtime) || subtime < 0) {
      fail(`${at}.subtime`, `${shown(subtime)}, expected a number >= 0 (the submit time, s)`);
    }
    const res = job.res;
    if (typeof res !== "number" || !Number.isSafeInteger(res) || res < 1) {
      fail(`${at}.res`, `${shown(res)}, expected an integer >= 1 (the resources it needs)`);
    }
    if (typeof job.profile !== "string") {
      fail(`${at}.profile`, `${shown(job.profile)}, expected the name of a profile`);
    }
    const runtime = runtimeOf(job.profile as string, at);
    const walltime = job.walltime;
    if (walltime === undefined) withoutWalltime++;
    else if (typeof walltime !== "number" || !Number.isFinite(walltime) || walltime <= 0) {
      fail(
        `${at}.walltime`,
        `${shown(walltime)}, expected a number > 0 (leave it out for a job without a limit)`,
      );
    }
    let built: Job;
    try {
      built = createJob({
        id,
        submit: subtime as number,
        runtime,
        estimate: (walltime as number | undefined) ?? runtime,
        cores: res as number,
      });
    } catch (error) {
      if (error instanceof InvalidInputError) fail(at, error.message);
      throw error;
    }
    const problem = jobTimeProblem(built);
    if (problem !== null) {
      const field =
        problem.field === "runtime"
          ? `${at}.profile`
          : problem.field === "estimate"
            ? `${at}.walltime`
            : `${at}.subtime`;
      fail(field, problem.field === "runtime" ? `delay ${problem.detail}` : problem.detail);
    }
    out.push(built);
  });
  return {
    jobs: out,
    nbRes: nbRes as number,
    withoutWalltime,
    ignoredFields: [...ignored].sort(),
  };
}
