import type { Allocation, ExecutionModel, Job, Platform, RunningSetEntry } from "@sched/core";
import { computeOnlyProfile, evaluateCost, type ProfileOf } from "./cost.js";

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
  const profile = options.profile ?? computeOnlyProfile;
  const alone = (job: Job, allocation: Allocation, platform: Platform): number =>
    evaluateCost(platform, [{ job, allocation, profile: profile(job) }]).jobs[0]!.ct;
  const duration = (
    job: Job,
    allocation: Allocation,
    platform: Platform,
    seconds: number,
  ): number => seconds * alone(job, allocation, platform);
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
      const together = evaluateCost(platform, set);
      for (let i = 0; i < set.length; i++) {
        const mine = together.jobs[i]!;
        // A job that uses no link, or whose links are not saturated, runs as alone.
        if (mine.sc === 1) {
          out[i] = 1;
          continue;
        }
        const single = evaluateCost(platform, [set[i]!]).jobs[0]!.ct;
        out[i] = mine.ct / single;
      }
      return out;
    },
  });
}
