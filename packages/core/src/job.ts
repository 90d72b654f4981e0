import { InvalidInputError } from "@sched/errors";
import type { InputData, Job, LicenseRequest } from "./types.js";
import {
  describeValue,
  requireAnyInteger,
  requireArray,
  requireFinite,
  requireInteger,
  requireNonNegative,
  requireObject,
  requirePositive,
} from "./validate.js";

/** What `createJob` needs: a {@link Job} whose `estimate` may be left out (it defaults to `runtime`). */
export type JobSpec = Omit<Job, "estimate"> & {
  /** Requested time at the reference speed. @defaultValue the job's `runtime` */
  readonly estimate?: number;
};

const OPTIONAL_INTEGERS = ["user", "group", "queue", "partition"] as const;

/**
 * Jobs built by {@link checkJob} with `copy` (so by `createJob`, `validateJobs` and
 * `traceFromJSON`): deeply frozen and known valid, so `simulate` need not check them again.
 * A WeakSet, so it holds no job alive.
 */
const validated = new WeakSet<object>();

/** True when `value` is a job built (and validated) by `createJob`/`validateJobs`. O(1). */
export function isValidatedJob(value: unknown): value is Job {
  return typeof value === "object" && value !== null && validated.has(value);
}

/**
 * Validates one job spec; returns a fresh frozen Job when `copy`, else the input itself (which
 * must then already carry an `estimate`). `label` names the job in messages.
 */
export function checkJob(where: string, spec: JobSpec, label: string, copy: boolean): Job {
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
  if (!copy) return spec as Job;
  const job: Record<string, unknown> = { ...spec, estimate: spec.estimate ?? spec.runtime };
  if (spec.licenses !== undefined)
    job.licenses = Object.freeze({ ...spec.licenses }) as LicenseRequest;
  if (spec.input !== undefined) {
    job.input = Object.freeze(
      spec.input.map((d) => Object.freeze({ size: d.size, machine: d.machine })),
    );
  }
  for (const key of Object.keys(job)) if (job[key] === undefined) delete job[key];
  Object.freeze(job);
  validated.add(job);
  return job as unknown as Job;
}

/**
 * Builds a validated, frozen {@link Job}; `estimate` defaults to `runtime`. The spec is not
 * mutated. `simulate` does not validate such jobs again (O(1) per job instead of a full check),
 * so one job array can be run through many policies cheaply.
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

/**
 * The most cores an allocation of `job` may give: `job.maxParallelism` when it exceeds
 * `job.cores` (a moldable job: the policy picks any total from `job.cores` to
 * `job.maxParallelism` when it starts the job), else `job.cores` (a rigid job). The ledger,
 * `checkSchedule` and the metrics' core-seconds follow this rule.
 *
 * Complexity: O(1).
 *
 * @example
 * ```ts
 * maxCoresOf(createJob({ id: 1, submit: 0, runtime: 10, cores: 1, maxParallelism: 8 })); // 8
 * maxCoresOf(createJob({ id: 2, submit: 0, runtime: 10, cores: 4 })); // 4
 * ```
 */
export function maxCoresOf(job: Job): number {
  const m = job.maxParallelism;
  return m !== undefined && m > job.cores ? m : job.cores;
}
