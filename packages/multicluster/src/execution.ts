import type { Allocation, ExecutionModel, Job, Platform } from "@sched/core";
import { computeOnlyProfile, evaluateCost, type ProfileOf } from "./cost.js";

/** Options of {@link oasExecutionModel}. */
export interface OasExecutionModelOptions {
  /** Each job's `sigma` and per-task bandwidth. @defaultValue {@link computeOnlyProfile} (`sigma` 1, no communication) */
  readonly profile?: ProfileOf;
}

/**
 * The OAS cost model (eq. 1-7) as a core `ExecutionModel`: `duration = seconds * ct`, with
 * `ct = sigma * SP + (1 - sigma) * SC` computed for the job ALONE on its allocation. Core's
 * execution model is stateless (it does not see the other running jobs), so it charges the
 * saturation a job causes by itself (its own eq.-4 demand above a link's bandwidth) but not
 * contention between jobs; the OAS policies of this package never start a job whose demand
 * would saturate a link together with the running ones (see `linkLoadViolations`), and under
 * that rule this model is exact. With `sigma` 1 it equals core's default model.
 *
 * Complexity: O(allocation parts + clusters) per call.
 *
 * @example
 * ```ts
 * const model = oasExecutionModel({ profile: () => ({ sigma: 0.5, ptbw: 0 }) });
 * simulate(jobs, platform, scheduler, { executionModel: model });
 * ```
 */
export function oasExecutionModel(options: OasExecutionModelOptions = {}): ExecutionModel {
  const profile = options.profile ?? computeOnlyProfile;
  return Object.freeze({
    name: "oas-cost",
    duration(job: Job, allocation: Allocation, platform: Platform, seconds: number): number {
      const e = evaluateCost(platform, [{ job, allocation, profile: profile(job) }]);
      return seconds * e.jobs[0]!.ct;
    },
  });
}
