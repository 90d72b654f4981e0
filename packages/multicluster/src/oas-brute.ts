import {
  type Allocation,
  InvalidInputError,
  type Job,
  LimitExceededError,
  type Platform,
} from "@sched/core";
import { describeValue, optionKeys, requireKnownKeys, requireObject } from "@sched/errors";
import { computeOnlyProfile, type ProfileOf } from "./cost.js";
import { costOfAllocation, type OasAssignment, oasInstance, slotsNeeded } from "./oas-instance.js";

/** Options of {@link bruteForceOas}. */
export interface BruteForceOasOptions {
  /** Slot size `eta`, seconds. */
  readonly eta: number;
  /** Horizon `theta`, slots. */
  readonly theta: number;
  /** @defaultValue {@link computeOnlyProfile} */
  readonly profile?: ProfileOf;
  /** Search nodes allowed before giving up. @defaultValue `5_000_000` */
  readonly maxNodes?: number;
}

/** The keys of {@link BruteForceOasOptions}, all of them (checked by the compiler). */
const BRUTE_KEYS = optionKeys<BruteForceOasOptions>({
  eta: true,
  theta: true,
  profile: true,
  maxNodes: true,
});

/** The optimum of {@link bruteForceOas}: `null` schedule when nothing fits in `theta`. */
export interface BruteForceOasResult {
  /** Optimal makespan in slots, `null` when infeasible. */
  readonly makespanSlots: number | null;
  readonly schedule: readonly OasAssignment[] | null;
}

function allocations(platform: Platform, cores: number): Allocation[] {
  const out: Allocation[] = [];
  const parts: { machine: number; cores: number }[] = [];
  const rec = (m: number, left: number) => {
    if (left === 0) {
      out.push(parts.slice());
      return;
    }
    if (m === platform.machines.length) return;
    rec(m + 1, left);
    for (let c = 1; c <= Math.min(left, platform.machines[m]!.cores); c++) {
      parts.push({ machine: m, cores: c });
      rec(m + 1, left - c);
      parts.pop();
    }
  };
  rec(0, cores);
  return out;
}

/**
 * The exact optimum of the slotted OAS model by exhaustive search, an oracle for tiny
 * instances: every job gets every allocation (multiset of cores) and every start slot, with
 * core capacity and link bandwidth checked slot by slot, and branch and bound on the makespan.
 *
 * Complexity: O((allocations * theta) ^ jobs) in the worst case.
 *
 * @throws LimitExceededError when the search passes `maxNodes`.
 */
export function bruteForceOas(
  jobs: readonly Job[],
  platform: Platform,
  options: BruteForceOasOptions,
): BruteForceOasResult {
  const where = "@sched/multicluster/bruteForceOas";
  requireObject(where, "options", options);
  requireKnownKeys(where, "options", options, BRUTE_KEYS);
  if (typeof options.eta !== "number" || !(options.eta > 0) || !Number.isFinite(options.eta))
    throw new InvalidInputError(
      where,
      "options.eta",
      `is ${describeValue(options.eta)}, expected a finite number > 0`,
    );
  // theta sizes two machines x theta tables: a whole number of slots, at most 2^24
  if (!Number.isInteger(options.theta) || options.theta < 1 || options.theta > 2 ** 24)
    throw new InvalidInputError(
      where,
      "options.theta",
      `is ${describeValue(options.theta)}, expected an integer in [1, 16777216]`,
    );
  if (
    options.maxNodes !== undefined &&
    !(
      options.maxNodes === Number.POSITIVE_INFINITY ||
      (Number.isSafeInteger(options.maxNodes) && options.maxNodes >= 1)
    )
  )
    throw new InvalidInputError(
      where,
      "options.maxNodes",
      `is ${describeValue(options.maxNodes)}, expected an integer >= 1 or Infinity`,
    );
  const inst = oasInstance(jobs, platform, options.profile ?? computeOnlyProfile, where);
  const T = options.theta;
  const M = platform.machines.length;
  const L = platform.links.length;
  const used = new Int32Array(M * T);
  const load = new Float64Array(L * T);
  const maxNodes = options.maxNodes ?? 5_000_000;
  const choices = jobs.map((_, j) =>
    allocations(platform, inst.tasks[j]!).map((allocation) => {
      const c = costOfAllocation(inst, j, allocation);
      return {
        allocation,
        slots: slotsNeeded({ baseTime: inst.baseTime[j]!, ct: c.ct, eta: options.eta }),
        demand: c.demand,
      };
    }),
  );
  let best = T + 1;
  let bestSchedule: OasAssignment[] | null = null;
  const current: OasAssignment[] = [];
  let nodes = 0;
  const rec = (j: number, makespan: number) => {
    if (++nodes > maxNodes)
      throw new LimitExceededError(where, `more than ${maxNodes} search nodes`);
    if (j === jobs.length) {
      if (makespan < best) {
        best = makespan;
        bestSchedule = current.slice();
      }
      return;
    }
    for (const ch of choices[j]!) {
      for (let s = 0; s + ch.slots <= T; s++) {
        const end = s + ch.slots;
        if (Math.max(makespan, end) >= best) break;
        let ok = true;
        for (let t = s; t < end && ok; t++) {
          for (const part of ch.allocation) {
            if (used[part.machine * T + t]! + part.cores > platform.machines[part.machine]!.cores)
              ok = false;
          }
          for (let l = 0; l < L && ok; l++) {
            if (
              ch.demand[l]! > 0 &&
              load[l * T + t]! + ch.demand[l]! > platform.links[l]!.bandwidth * (1 + 1e-9)
            )
              ok = false;
          }
        }
        if (!ok) continue;
        for (let t = s; t < end; t++) {
          for (const part of ch.allocation) used[part.machine * T + t]! += part.cores;
          for (let l = 0; l < L; l++) load[l * T + t]! += ch.demand[l]!;
        }
        current.push({
          jobId: jobs[j]!.id,
          startSlot: s,
          slots: ch.slots,
          allocation: ch.allocation,
        });
        rec(j + 1, Math.max(makespan, end));
        current.pop();
        for (let t = s; t < end; t++) {
          for (const part of ch.allocation) used[part.machine * T + t]! -= part.cores;
          for (let l = 0; l < L; l++) load[l * T + t]! -= ch.demand[l]!;
        }
      }
    }
  };
  rec(0, 0);
  return bestSchedule === null
    ? { makespanSlots: null, schedule: null }
    : { makespanSlots: best, schedule: bestSchedule };
}
