import type { Job, Platform } from "@sched/core";
import { optionKeys, requireKnownKeys, requireObject } from "@sched/errors";
import { computeOnlyProfile, type ProfileOf } from "./cost.js";
import { allocationCost, type OasAssignment, oasInstance, slotsNeeded } from "./oas-instance.js";

/** Options of {@link checkOasSchedule}. */
export interface CheckOasOptions {
  /** Slot size `eta`, seconds. */
  readonly eta: number;
  /** Horizon `theta`, slots. @defaultValue unbounded */
  readonly theta?: number;
  /** Each job's `sigma` and per-task bandwidth. @defaultValue {@link computeOnlyProfile} */
  readonly profile?: ProfileOf;
}

/** The keys of {@link CheckOasOptions}, all of them (checked by the compiler). */
const CHECK_KEYS = optionKeys<CheckOasOptions>({
  eta: true,
  theta: true,
  profile: true,
});

/**
 * Checks an OAS schedule against the model's constraints, independently of the solver:
 * every job placed once (15-16); its allocation valid, with exactly `tau_j` cores (11-12) all
 * running in the same contiguous slots (13-14, 17); for exactly `ceil(Tb * ct / eta)` slots
 * (18-20); inside the horizon; no core used by two jobs in a slot (10); and no link over its
 * bandwidth in any slot (21-22). Returns one message per violation, `[]` when valid.
 *
 * Complexity: O(jobs * (allocation + slots * links) + machines * slots).
 *
 * @example
 * ```ts
 * checkOasSchedule(jobs, platform, result.schedule, { eta: 50 }); // []
 * ```
 */
export function checkOasSchedule(
  jobs: readonly Job[],
  platform: Platform,
  schedule: readonly OasAssignment[],
  options: CheckOasOptions,
): string[] {
  requireObject("@sched/multicluster/checkOasSchedule", "options", options);
  requireKnownKeys("@sched/multicluster/checkOasSchedule", "options", options, CHECK_KEYS);
  const out: string[] = [];
  const inst = oasInstance(
    jobs,
    platform,
    options.profile ?? computeOnlyProfile,
    "@sched/multicluster/checkOasSchedule",
  );
  const index = new Map(jobs.map((j, i) => [j.id, i]));
  const seen = new Set<number>();
  let horizon = 0;
  for (const a of schedule) horizon = Math.max(horizon, a.startSlot + a.slots);
  const T = Math.max(horizon, options.theta ?? 0);
  const used = new Int32Array(platform.machines.length * T);
  const load = new Float64Array(platform.links.length * T);
  for (const a of schedule) {
    const j = index.get(a.jobId);
    if (j === undefined) {
      out.push(`job ${a.jobId}: not in the job list`);
      continue;
    }
    if (seen.has(a.jobId)) out.push(`job ${a.jobId}: placed twice (15)`);
    seen.add(a.jobId);
    if (!Number.isInteger(a.startSlot) || a.startSlot < 0)
      out.push(`job ${a.jobId}: start slot ${a.startSlot} (16)`);
    if (options.theta !== undefined && a.startSlot + a.slots > options.theta) {
      out.push(`job ${a.jobId}: ends in slot ${a.startSlot + a.slots} > theta ${options.theta}`);
    }
    let cores = 0;
    const machines = new Set<number>();
    let bad = false;
    for (const part of a.allocation) {
      const m = platform.machines[part.machine];
      if (
        m === undefined ||
        !Number.isInteger(part.cores) ||
        part.cores < 1 ||
        part.cores > m.cores ||
        machines.has(part.machine)
      ) {
        out.push(`job ${a.jobId}: bad allocation part ${JSON.stringify(part)} (11)`);
        bad = true;
        continue;
      }
      machines.add(part.machine);
      cores += part.cores;
    }
    if (cores !== inst.tasks[j])
      out.push(`job ${a.jobId}: ${cores} cores, needs ${inst.tasks[j]} (12)`);
    if (bad) continue;
    const cost = allocationCost(inst, j, a.allocation);
    const need = slotsNeeded({ baseTime: inst.baseTime[j]!, ct: cost.ct, eta: options.eta });
    if (a.slots !== need) out.push(`job ${a.jobId}: ${a.slots} slots, needs ${need} (19-20)`);
    if (a.startSlot < 0 || !Number.isInteger(a.startSlot)) continue;
    for (let t = a.startSlot; t < a.startSlot + a.slots; t++) {
      for (const part of a.allocation) used[part.machine * T + t]! += part.cores;
      for (let l = 0; l < platform.links.length; l++) load[l * T + t]! += cost.demand[l]!;
    }
  }
  for (const job of jobs) if (!seen.has(job.id)) out.push(`job ${job.id}: not placed (15)`);
  for (let m = 0; m < platform.machines.length; m++) {
    for (let t = 0; t < T; t++) {
      if (used[m * T + t]! > platform.machines[m]!.cores) {
        out.push(
          `machine ${m} slot ${t}: ${used[m * T + t]} cores used of ${platform.machines[m]!.cores} (10)`,
        );
      }
    }
  }
  for (let l = 0; l < platform.links.length; l++) {
    const mbw = platform.links[l]!.bandwidth;
    for (let t = 0; t < T; t++) {
      if (load[l * T + t]! > mbw * (1 + 1e-9))
        out.push(`link ${l} slot ${t}: ${load[l * T + t]} B/s > ${mbw} (22)`);
    }
  }
  return out;
}
