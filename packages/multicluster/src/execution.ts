import type {
  Allocation,
  ExecutionModel,
  Job,
  Platform,
  RunningSetEntry,
  ScheduleTrace,
} from "@sched/core";
import { InvalidInputError } from "@sched/core";
import {
  describeValue,
  optionKeys,
  requireBoolean,
  requireKnownKeys,
  requireObject,
} from "@sched/errors";
import { computeOnlyProfile, costOf, evaluateCost, type ProfileOf } from "./cost.js";

/** Options of {@link oasExecutionModel}. */
export interface OasExecutionModelOptions {
  /** Each job's `sigma` and per-task bandwidth. @defaultValue {@link computeOnlyProfile} (`sigma` 1, no communication) */
  readonly profile?: ProfileOf;
  /**
   * Charge link contention between jobs running together (eq. 5-7 over the whole running set,
   * through core's rate-based `slowdowns` hook). `false` gives the stateless model that charges
   * only the saturation a job causes alone.
   * @defaultValue `true`
   */
  readonly contention?: boolean;
}

/** The keys of {@link OasExecutionModelOptions}, all of them (checked by the compiler). */
const EXECUTION_KEYS = optionKeys<OasExecutionModelOptions>({
  profile: true,
  contention: true,
});

/**
 * The OAS cost model (eq. 1-7) as a core `ExecutionModel`.
 *
 * `duration = seconds * ct_alone`, with `ct = sigma * SP + (1 - sigma) * SC` computed for the
 * job alone on its allocation (the saturation it causes by itself is charged). With
 * `contention` (the default) the model also has core's `slowdowns` hook: whenever the set of
 * running jobs changes, eq. 4-7 are evaluated over the whole set (demands of every running
 * job add up per link, `SAT = MBW / total`, `SC_j` = the worst `1 / SAT` over the links `j`
 * uses) and each job's slowdown is `ct_j(set) / ct_j(alone)`, so the job progresses at
 * `1 / (Tb * ct_j(set))` of its work per second while that set runs: eq. 1 with the set's
 * `ct`, piecewise. When no link is saturated every slowdown is 1 and the run equals the
 * stateless one exactly. With `sigma` 1 it equals core's default model.
 *
 * Complexity: `duration` O(allocation parts + clusters); `slowdowns` O(R * (parts + clusters
 * + links)) for R running jobs.
 *
 * @example
 * ```ts
 * const model = oasExecutionModel({ profile: () => ({ sigma: 0.5, ptbw: 100e6 }) });
 * simulate(jobs, platform, scheduler, { executionModel: model });
 * ```
 */
export function oasExecutionModel(options: OasExecutionModelOptions = {}): ExecutionModel {
  requireKnownKeys("@sched/multicluster/oasExecutionModel", "options", options, EXECUTION_KEYS);
  const profile = options.profile ?? computeOnlyProfile;
  checkProfileAndFlag(
    "@sched/multicluster/oasExecutionModel",
    profile,
    "contention",
    options.contention,
  );
  const alone = (job: Job, allocation: Allocation, platform: Platform): number =>
    costOf(platform, [{ job, allocation, profile: profile(job) }]).jobs[0]!.ct;
  const duration = (
    job: Job,
    allocation: Allocation,
    platform: Platform,
    seconds: number,
  ): number => {
    const ct = alone(job, allocation, platform);
    const d = seconds * ct;
    if (!(d > 0) || !Number.isFinite(d)) throw badDuration(job, platform, seconds, ct, d);
    return d;
  };
  if (options.contention === false) return Object.freeze({ name: "oas-cost", duration });
  return Object.freeze({
    name: "oas-cost-contention",
    duration,
    slowdowns(running: readonly RunningSetEntry[], platform: Platform): Float64Array {
      const out = new Float64Array(running.length);
      const set = running.map((r) => ({
        job: r.job,
        allocation: r.allocation,
        profile: profile(r.job),
      }));
      const together = costOf(platform, set);
      for (let i = 0; i < set.length; i++) {
        const mine = together.jobs[i]!;
        // A job that uses no link, or whose links are not saturated, runs as alone.
        if (mine.sc === 1) {
          out[i] = 1;
          continue;
        }
        const single = costOf(platform, [set[i]!]).jobs[0]!.ct;
        out[i] = mine.ct / single;
      }
      return out;
    },
  });
}

/**
 * The error of a duration that is 0 or not finite: `seconds x ct` under- or overflowed a double,
 * through the slowdown `SP = benchmark / speed` of a `referenceSpeed` (or job `benchmark`) far
 * from the machines' speeds. Names what the caller set, not the model.
 */
function badDuration(
  job: Job,
  platform: Platform,
  seconds: number,
  ct: number,
  d: number,
): InvalidInputError {
  const own = job.benchmark !== undefined;
  const bm = own ? job.benchmark : platform.referenceSpeed;
  return new InvalidInputError(
    "@sched/multicluster/oasExecutionModel",
    own ? `job ${job.id}.benchmark` : "platform.referenceSpeed",
    `is ${bm}: job ${job.id}'s duration seconds x ct = ${seconds} x ${ct} is ${d} in double precision (ct = sigma x SP + (1 - sigma) x SC, SP = ${own ? "benchmark" : "referenceSpeed"} / speed), expected a finite number > 0 (scale ${own ? "the benchmarks" : "referenceSpeed"} and the machines' speeds together)`,
  );
}

const DELAY_KEYS = optionKeys<{ readonly profile?: ProfileOf }>({ profile: true });

/** How much link contention stretched one job of a trace. */
export interface ContentionDelay {
  readonly jobId: number;
  /** Its run time over its run time alone on the same allocation (1: not slowed). */
  readonly stretch: number;
}

/**
 * Every completed job of a trace (run with {@link oasExecutionModel}) that ran longer than it
 * would alone on the same allocation, i.e. was slowed by link contention (eq. 5-7 over the jobs
 * running with it): its `stretch = (end - start) / (runtime * ct alone)`, above 1 + 1e-9.
 * Jobs run in several intervals (preempted) are left out. `[]` when no link was ever saturated.
 *
 * Complexity: O(jobs * (allocation + clusters)).
 *
 * @example
 * ```ts
 * contentionDelays(simulate(jobs, platform, blindFcfs, { executionModel }), { profile }).length;
 * ```
 */
export function contentionDelays(
  trace: ScheduleTrace,
  options: { readonly profile?: ProfileOf } = {},
): ContentionDelay[] {
  const where = "@sched/multicluster/contentionDelays";
  requireObject(where, "options", options);
  requireKnownKeys(where, "options", options, DELAY_KEYS);
  const profile = options.profile ?? computeOnlyProfile;
  checkProfileAndFlag(where, profile, "profile", undefined);
  const out: ContentionDelay[] = [];
  for (const rec of trace.records) {
    if (rec.outcome !== "completed" || rec.intervals.length !== 1) continue;
    const iv = rec.intervals[0]!;
    const alone =
      rec.job.runtime *
      evaluateCost(trace.platform, [
        { job: rec.job, allocation: iv.allocation, profile: profile(rec.job) },
      ]).jobs[0]!.ct;
    const stretch = (iv.end - iv.start) / alone;
    if (stretch > 1 + 1e-9) out.push({ jobId: rec.job.id, stretch });
  }
  return out;
}

/**
 * `profile` is a function and `options[flag]`, when given, a boolean (a number used to be read
 * for its truthiness). Shared by the OAS factories. Internal.
 */
export function checkProfileAndFlag(
  where: string,
  profile: unknown,
  flag: string,
  value: unknown,
): void {
  if (typeof profile !== "function") {
    throw new InvalidInputError(
      where,
      "options.profile",
      `is ${describeValue(profile)}, expected a function (job) => { sigma, ptbw }`,
    );
  }
  if (value !== undefined) requireBoolean(where, `options.${flag}`, value);
}
