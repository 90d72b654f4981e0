import {
  describeValue,
  InvalidInputError,
  optionKeys,
  refuseMisspeltKeys,
  requireAnyInteger,
  requireArray,
  requireFinite,
  requireInteger,
  requireNonNegative,
  requireObject,
  requirePositive,
} from "@sched/errors";
import type { InputData, Job, LicenseRequest } from "./types.js";

/** What `createJob` needs: a {@link Job} whose `estimate` may be left out (it defaults to `runtime`). */
export type JobSpec = Omit<Job, "estimate"> & {
  /** Requested time at the reference speed. @defaultValue the job's `runtime` */
  readonly estimate?: number;
};

const OPTIONAL_INTEGERS = ["user", "group", "queue", "partition"] as const;

function isFiniteNumber(v: unknown): boolean {
  return typeof v === "number" && Number.isFinite(v);
}

function isPositiveNumber(v: unknown): boolean {
  return typeof v === "number" && Number.isFinite(v) && v > 0;
}

function isIntegerAtLeast(v: unknown, min: number): boolean {
  return typeof v === "number" && Number.isSafeInteger(v) && v >= min;
}

function isPlainObject(v: unknown): boolean {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/**
 * True when {@link checkJob} would accept `spec` (with the same `copy`): the same rules, as a
 * predicate that builds no message and allocates nothing (but an array of license names when
 * the job has licenses): the engine's per-job check, about 10-20 ns per job. Must accept exactly
 * what {@link checkJobFields} accepts (a property test compares them).
 */
export function isValidJobSpec(spec: unknown, copy: boolean): boolean {
  if (typeof spec !== "object" || spec === null) return false;
  const s = spec as JobSpec;
  if (!isIntegerAtLeast(s.id, 0)) return false;
  if (!isFiniteNumber(s.submit) || !isPositiveNumber(s.runtime)) return false;
  if ((s.estimate !== undefined || !copy) && !isPositiveNumber(s.estimate)) return false;
  if (!isIntegerAtLeast(s.cores, 1)) return false;
  if (s.deadline !== undefined && !isFiniteNumber(s.deadline)) return false;
  if (s.ready !== undefined && !isFiniteNumber(s.ready)) return false;
  if (s.benchmark !== undefined && !isPositiveNumber(s.benchmark)) return false;
  if (s.maxParallelism !== undefined && !isIntegerAtLeast(s.maxParallelism, 1)) return false;
  if (s.tasks !== undefined && !isIntegerAtLeast(s.tasks, 1)) return false;
  if (s.user !== undefined && !Number.isSafeInteger(s.user)) return false;
  if (s.group !== undefined && !Number.isSafeInteger(s.group)) return false;
  if (s.queue !== undefined && !Number.isSafeInteger(s.queue)) return false;
  if (s.partition !== undefined && !Number.isSafeInteger(s.partition)) return false;
  if (s.priority !== undefined && !isFiniteNumber(s.priority)) return false;
  const licenses = s.licenses;
  if (licenses !== undefined) {
    if (!isPlainObject(licenses)) return false;
    const names = Object.keys(licenses);
    for (let i = 0; i < names.length; i++) {
      if (!isIntegerAtLeast(licenses[names[i]!], 1)) return false;
    }
  }
  const input = s.input;
  if (input !== undefined) {
    if (!Array.isArray(input)) return false;
    for (let i = 0; i < input.length; i++) {
      const d = input[i] as InputData;
      if (!isPlainObject(d)) return false;
      if (!(typeof d.size === "number" && Number.isFinite(d.size) && d.size >= 0)) return false;
      if (!isIntegerAtLeast(d.machine, 0)) return false;
    }
  }
  return true;
}

/**
 * The full check behind {@link checkJob}, field by field, throwing InvalidInputError naming the
 * job and the field. Builds its labels as it goes, so it runs only when
 * {@link isValidJobSpec} rejected the spec.
 */
export function checkJobFields(where: string, spec: JobSpec, label: string, copy: boolean): void {
  if (typeof spec !== "object" || spec === null) {
    throw new InvalidInputError(where, label, `is ${describeValue(spec)}, expected a job object`);
  }
  const id = spec.id;
  if (typeof id !== "number" || !Number.isSafeInteger(id) || id < 0) {
    throw new InvalidInputError(
      where,
      `${label}.id`,
      `is ${describeValue(id)}, expected an integer >= 0`,
    );
  }
  const name = `job ${id}`;
  requireFinite(where, `${name}.submit`, spec.submit);
  requirePositive(where, `${name}.runtime`, spec.runtime);
  if (spec.estimate !== undefined || !copy) {
    requirePositive(where, `${name}.estimate`, spec.estimate);
  }
  requireInteger(where, `${name}.cores`, spec.cores, 1);
  if (spec.deadline !== undefined) requireFinite(where, `${name}.deadline`, spec.deadline);
  if (spec.ready !== undefined) requireFinite(where, `${name}.ready`, spec.ready);
  if (spec.benchmark !== undefined) requirePositive(where, `${name}.benchmark`, spec.benchmark);
  if (spec.maxParallelism !== undefined) {
    requireInteger(where, `${name}.maxParallelism`, spec.maxParallelism, 1);
  }
  if (spec.tasks !== undefined) requireInteger(where, `${name}.tasks`, spec.tasks, 1);
  for (const key of OPTIONAL_INTEGERS) {
    if (spec[key] !== undefined) requireAnyInteger(where, `${name}.${key}`, spec[key]);
  }
  if (spec.priority !== undefined) requireFinite(where, `${name}.priority`, spec.priority);
  if (spec.licenses !== undefined) {
    requireObject(where, `${name}.licenses`, spec.licenses);
    for (const [license, copies] of Object.entries(spec.licenses)) {
      requireInteger(where, `${name}.licenses[${JSON.stringify(license)}]`, copies, 1);
    }
  }
  if (spec.input !== undefined) {
    requireArray(where, `${name}.input`, spec.input).forEach((raw, i) => {
      const d = requireObject(where, `${name}.input[${i}]`, raw) as InputData;
      requireNonNegative(where, `${name}.input[${i}].size`, d.size);
      requireInteger(where, `${name}.input[${i}].machine`, d.machine, 0);
    });
  }
}

/**
 * `job` when it is a job `createJob` accepts (its `estimate` may be absent: nothing that checks
 * a given job reads it), else an InvalidInputError naming `label` and the field
 * (`trace.records[3].job.cores is 0, expected an integer >= 1`). The check is
 * {@link isValidJobSpec}'s, about 10-20 ns; the message is built only for an invalid job.
 * Internal.
 */
export function requireJob(where: string, label: string, job: unknown): Job {
  if (!isValidJobSpec(job, true)) jobFailure(where, label, job);
  return job as Job;
}

/**
 * `job` when the fields a resource question reads are valid: `cores` an integer >= 1,
 * `maxParallelism` and `benchmark` absent or valid (an integer >= 1, a finite number > 0),
 * `licenses` absent or an object of copies (integers >= 1) by name, and (with `withId`) `id` an
 * integer >= 0. Nothing else is looked at: policies ask about the jobs of their own pass states,
 * which carry only these. Messages name `label` and the field (`job.cores is 0, …`). Internal.
 */
export function requireResourceFields(
  where: string,
  label: string,
  job: Job,
  withId: boolean,
): Job {
  if (typeof job !== "object" || job === null) {
    throw new InvalidInputError(where, label, `is ${describeValue(job)}, expected a job object`);
  }
  if (withId && !isIntegerAtLeast(job.id, 0)) {
    requireInteger(where, `${label}.id`, job.id, 0);
  }
  if (!isIntegerAtLeast(job.cores, 1)) requireInteger(where, `${label}.cores`, job.cores, 1);
  const m = job.maxParallelism;
  if (m !== undefined && !isIntegerAtLeast(m, 1)) {
    requireInteger(where, `${label}.maxParallelism`, m, 1);
  }
  const b = job.benchmark;
  if (b !== undefined && !isPositiveNumber(b)) requirePositive(where, `${label}.benchmark`, b);
  const licenses = job.licenses;
  if (licenses !== undefined) {
    requireObject(where, `${label}.licenses`, licenses);
    for (const name in licenses) {
      const copies = licenses[name];
      if (!isIntegerAtLeast(copies, 1)) {
        requireInteger(where, `${label}.licenses[${JSON.stringify(name)}]`, copies, 1);
      }
    }
  }
  return job;
}

function jobFailure(where: string, label: string, job: unknown): never {
  try {
    checkJobFields(where, job as JobSpec, label, true);
  } catch (error) {
    if (!(error instanceof InvalidInputError)) throw error;
    // checkJobFields names a field of a job with an id `job <id>.<field>`, else `<label>…`.
    const field = error.field.replace(/^job \d+(?=\.)/, label);
    const detail = error.message.slice(`${where}: ${error.field} `.length);
    throw new InvalidInputError(where, field, detail, { cause: error });
  }
  // isValidJobSpec and checkJobFields accept the same specs (a property test compares them)
  throw new InvalidInputError(where, label, "is not a valid job");
}

/**
 * Validates one job spec; returns a fresh frozen Job when `copy`, else the input itself (which
 * must then already carry an `estimate`). `label` names the job in messages. Messages are built
 * only when the spec is invalid.
 *
 * The copy is built key by key on a fresh object (in the spec's key order, `estimate` last when
 * the spec has none, keys set to `undefined` left out), not by spreading the spec and deleting
 * keys: V8 gives a frozen spread copy a map on which every read of an absent optional field
 * (`job.benchmark`, `job.licenses`, `job.maxParallelism`) misses the inline cache, about
 * 0.4 us per read, which made `simulate` on `validateJobs` output about 40% slower than on the
 * plain objects it was meant to be faster than.
 */
export function checkJob(where: string, spec: JobSpec, label: string, copy: boolean): Job {
  if (!isValidJobSpec(spec, copy)) checkJobFields(where, spec, label, copy);
  if (!hasOnlyJobFields(spec)) refuseMisspeltKeys(where, label, spec, JOB_KEYS);
  if (!copy) return spec as Job;
  const source = spec as unknown as Record<string | symbol, unknown>;
  const job: Record<string | symbol, unknown> = {};
  const keys = Object.keys(source);
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!;
    let value = source[key];
    if (value === undefined && key === "estimate") value = spec.runtime;
    if (value !== undefined) job[key] = value;
  }
  for (const sym of Object.getOwnPropertySymbols(source)) {
    if (Object.prototype.propertyIsEnumerable.call(source, sym)) job[sym] = source[sym];
  }
  if (job.estimate === undefined) job.estimate = spec.runtime;
  if (spec.licenses !== undefined) {
    job.licenses = Object.freeze({ ...spec.licenses }) as LicenseRequest;
  }
  if (spec.input !== undefined) {
    job.input = Object.freeze(
      spec.input.map((d) => Object.freeze({ size: d.size, machine: d.machine })),
    );
  }
  Object.freeze(job);
  return job as unknown as Job;
}

/**
 * Builds a validated, frozen {@link Job}; `estimate` defaults to `runtime`. The spec is not
 * mutated. `simulate` checks every job it reads with an allocation-free predicate (about
 * 10-20 ns per job, whatever built it), so such jobs and plain job objects cost the same there.
 *
 * Complexity: O(licenses + input items).
 *
 * @throws InvalidInputError naming the job id and the field, e.g.
 * `@sched/core/createJob: job 7.cores is 0, expected an integer >= 1`.
 *
 * @example
 * ```ts
 * createJob({ id: 1, submit: 0, runtime: 60, cores: 4 });
 * // { id: 1, submit: 0, runtime: 60, cores: 4, estimate: 60 }
 * ```
 */
export function createJob(spec: JobSpec): Job {
  return checkJob("@sched/core/createJob", spec, "spec", true);
}

/**
 * Builds every job of `specs` with {@link createJob} and checks that ids are unique. Returns
 * new jobs in the input order (it does not sort; `simulate` needs them sorted by submit).
 *
 * Complexity: O(n).
 *
 * @throws InvalidInputError naming the job id and the field, or the duplicate id.
 *
 * @example
 * ```ts
 * validateJobs([{ id: 1, submit: 0, runtime: 5, cores: 1 }]).length; // 1
 * ```
 */
export function validateJobs(specs: Iterable<JobSpec>): Job[] {
  const where = "@sched/core/validateJobs";
  if (
    typeof specs !== "object" ||
    specs === null ||
    typeof (specs as Iterable<JobSpec>)[Symbol.iterator] !== "function"
  ) {
    throw new InvalidInputError(
      where,
      "jobs",
      `is ${describeValue(specs)}, expected an iterable of jobs (an array)`,
    );
  }
  const out: Job[] = [];
  const ids = new Set<number>();
  let i = 0;
  for (const spec of specs) {
    const job = checkJob(where, spec, `jobs[${i}]`, true);
    if (ids.has(job.id)) {
      throw new InvalidInputError(where, `jobs[${i}].id`, `is ${job.id}, a duplicate job id`);
    }
    ids.add(job.id);
    out.push(job);
    i++;
  }
  return out;
}

/**
 * Every field of a {@link Job}, in the order serialisers write them (the JSON trace, the native
 * JSON Lines workload format): required fields first, then the optional ones.
 */
export const JOB_FIELDS = [
  "id",
  "submit",
  "runtime",
  "estimate",
  "cores",
  "deadline",
  "ready",
  "licenses",
  "input",
  "benchmark",
  "maxParallelism",
  "tasks",
  "user",
  "group",
  "queue",
  "partition",
  "priority",
] as const satisfies readonly (keyof Job)[];

/** The fields of a {@link Job}, for `refuseMisspeltKeys`. */
const JOB_KEYS = optionKeys<Job>({
  id: true,
  submit: true,
  runtime: true,
  estimate: true,
  cores: true,
  deadline: true,
  ready: true,
  licenses: true,
  input: true,
  benchmark: true,
  maxParallelism: true,
  tasks: true,
  user: true,
  group: true,
  queue: true,
  partition: true,
  priority: true,
});

/**
 * The enumerable keys, in for-in order, of the last spec {@link hasOnlyJobFields} found to have
 * only job fields: the jobs of one source share them.
 */
let lastJobKeys: readonly string[] = [];

/**
 * Whether every enumerable key of `spec` is a job field (no allocation; the usual case). Internal.
 * Keys equal, in order, to those of the last spec that passed (or a prefix of them) pass at one
 * comparison each (a million jobs from one reader: about 20 ns a job instead of 80 for a look-up
 * by name per key).
 */
export function hasOnlyJobFields(spec: object): boolean {
  const known = lastJobKeys;
  let i = 0;
  for (const key in spec) {
    if (known[i] !== key) return checkJobKeys(spec);
    i++;
  }
  // (every key matched one of the remembered keys: all are job fields)
  return true;
}

/** {@link hasOnlyJobFields} key by key; remembers the keys when they pass. */
function checkJobKeys(spec: object): boolean {
  const isField: Readonly<Record<string, unknown>> = JOB_KEYS.record;
  const keys: string[] = [];
  for (const key in spec) {
    if (isField[key] !== true) return false;
    keys.push(key);
  }
  lastJobKeys = keys;
  return true;
}

/**
 * Throws when `spec` has a key that is a near miss of a job field it lacks (`dedline`, `redy`):
 * a job may carry fields of its own, but a misspelt field would be silently ignored. Internal
 * (the engine's per-job check calls it when {@link hasOnlyJobFields} is false).
 */
export function refuseMisspeltJobKeys(where: string, label: string, spec: object): void {
  refuseMisspeltKeys(where, label, spec, JOB_KEYS);
}

/**
 * The most cores an allocation of `job` may give: `job.maxParallelism` when it exceeds
 * `job.cores` (a moldable job: the policy picks any total from `job.cores` to
 * `job.maxParallelism` when it starts the job), else `job.cores` (a rigid job). The ledger,
 * `checkSchedule` and the metrics' core-seconds follow this rule.
 *
 * Complexity: O(1).
 *
 * @throws InvalidInputError naming the field when `job.cores` or `job.maxParallelism` is not
 * an integer >= 1 (the other fields are not read).
 *
 * @example
 * ```ts
 * maxCoresOf(createJob({ id: 1, submit: 0, runtime: 10, cores: 1, maxParallelism: 8 })); // 8
 * maxCoresOf(createJob({ id: 2, submit: 0, runtime: 10, cores: 4 })); // 4
 * ```
 */
export function maxCoresOf(job: Job): number {
  return mostCores(requireResourceFields("@sched/core/maxCoresOf", "job", job, false));
}

/** {@link maxCoresOf} of a job already checked (the ledger's and `checkSchedule`'s). Internal. */
export function mostCores(job: Job): number {
  const m = job.maxParallelism;
  return m !== undefined && m > job.cores ? m : job.cores;
}
