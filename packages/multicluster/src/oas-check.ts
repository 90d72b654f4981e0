import { InvalidInputError, type Job, type Platform } from "@sched/core";
import {
  optionKeys,
  requireArray,
  requireFinite,
  requireInteger,
  requireKnownKeys,
  requireObject,
  requirePositive,
} from "@sched/errors";
import { computeOnlyProfile, type ProfileOf } from "./cost.js";
import { costOfAllocation, type OasAssignment, oasInstance, slotsNeeded } from "./oas-instance.js";
import { MAX_SLOTS } from "./oas-slotted.js";

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

const WHERE = "@sched/multicluster/checkOasSchedule";

/** The most machine-slots (or link-slots) {@link checkOasSchedule} tables. */
const MAX_CELLS = 2 ** 27;

function isCount(v: number): boolean {
  return Number.isSafeInteger(v) && v >= 0;
}

/**
 * The schedule's shape, checked: an array of `{ jobId, startSlot, slots, allocation }` with
 * numbers and an array of `{ machine, cores }` numbers (a wrong type is an input error; a
 * number that breaks the model, a negative start or a machine out of range, stays a reported
 * violation; NaN and ±Infinity are input errors). Returns the last slot of the well-formed
 * entries.
 */
function checkShape(schedule: readonly OasAssignment[], where: string, field: string): number {
  requireArray(where, field, schedule);
  let horizon = 0;
  for (let i = 0; i < schedule.length; i++) {
    const at = `${field}[${i}]`;
    const a = requireObject(where, at, schedule[i]) as OasAssignment;
    for (const key of ["jobId", "startSlot", "slots"] as const)
      requireFinite(where, `${at}.${key}`, a[key]);
    requireArray(where, `${at}.allocation`, a.allocation).forEach((part, k) => {
      const p = requireObject(where, `${at}.allocation[${k}]`, part) as Record<string, unknown>;
      for (const key of ["machine", "cores"])
        requireFinite(where, `${at}.allocation[${k}].${key}`, p[key]);
    });
    if (isCount(a.startSlot) && isCount(a.slots)) {
      if (a.startSlot + a.slots > MAX_SLOTS) {
        throw new InvalidInputError(
          where,
          `${at}.startSlot`,
          `is ${a.startSlot} with ${a.slots} slots, which ends after slot ${MAX_SLOTS}, the most a slotted schedule spans`,
        );
      }
      horizon = Math.max(horizon, a.startSlot + a.slots);
    }
  }
  return horizon;
}

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
  requireObject(WHERE, "options", options);
  requireKnownKeys(WHERE, "options", options, CHECK_KEYS);
  requirePositive(WHERE, "options.eta", options.eta);
  if (options.theta !== undefined) requireInteger(WHERE, "options.theta", options.theta, 1);
  return oasScheduleViolations(jobs, platform, schedule, options, WHERE, "schedule");
}

/**
 * {@link checkOasSchedule} with its options already checked; errors in the schedule's shape
 * name `where` and `field` (`solveOas` checks its `options.incumbents[i]` here). Internal.
 */
export function oasScheduleViolations(
  jobs: readonly Job[],
  platform: Platform,
  schedule: readonly OasAssignment[],
  options: CheckOasOptions,
  where: string,
  field: string,
): string[] {
  const out: string[] = [];
  const inst = oasInstance(jobs, platform, options.profile ?? computeOnlyProfile, where);
  const horizon = checkShape(schedule, where, field);
  const index = new Map(jobs.map((j, i) => [j.id, i]));
  const seen = new Set<number>();
  const T = Math.max(horizon, options.theta ?? 0);
  if (T * Math.max(platform.machines.length, platform.links.length) > MAX_CELLS) {
    throw new InvalidInputError(
      where,
      options.theta !== undefined && options.theta >= horizon ? "options.theta" : field,
      `spans ${T} slots, which makes ${T * Math.max(platform.machines.length, platform.links.length)} machine- or link-slots to check, expected at most ${MAX_CELLS}`,
    );
  }
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
    const cost = costOfAllocation(inst, j, a.allocation);
    const need = slotsNeeded({ baseTime: inst.baseTime[j]!, ct: cost.ct, eta: options.eta });
    if (a.slots !== need) out.push(`job ${a.jobId}: ${a.slots} slots, needs ${need} (19-20)`);
    if (!isCount(a.startSlot) || !isCount(a.slots)) continue;
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
