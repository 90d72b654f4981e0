import type { Job, Platform } from "@sched/core";
import { computeOnlyProfile, type ProfileOf } from "./cost.js";
import {
  allocationCost,
  allocationOf,
  type OasAssignment,
  type OasInstance,
  oasInstance,
  slotsNeeded,
} from "./oas-instance.js";

/**
 * The allocations this package's heuristics consider for job `j` among the free resources
 * (`free[r]` 1): the `tau_j` fastest free resources overall, then, for each cluster in index
 * order, that cluster's fastest `tau_j` free resources, or all of them topped up with the fastest
 * free resources elsewhere (ties: lower resource index). Deduplicated, in that order. Empty when fewer than `tau_j` are free.
 *
 * Complexity: O(R log R * clusters).
 */
export function candidateResources(
  instance: OasInstance,
  j: number,
  free: ArrayLike<number>,
): number[][] {
  const R = instance.resourceMachine.length;
  const tau = instance.tasks[j]!;
  const order: number[] = [];
  for (let r = 0; r < R; r++) if (free[r]) order.push(r);
  if (order.length < tau) return [];
  const slow = (r: number) => instance.slowdown[j * R + r]!;
  order.sort((a, b) => slow(a) - slow(b) || a - b);
  const out: number[][] = [order.slice(0, tau)];
  const seen = new Set([out[0]!.join(",")]);
  const add = (pick: number[]) => {
    const key = pick
      .slice()
      .sort((a, b) => a - b)
      .join(",");
    if (!seen.has(key)) {
      seen.add(key);
      out.push(pick);
    }
  };
  for (let k = 0; k < instance.clusterSize.length; k++) {
    const inK = order.filter((r) => instance.resourceCluster[r] === k);
    if (inK.length === 0) continue;
    if (inK.length >= tau) add(inK.slice(0, tau));
    else
      add([
        ...inK,
        ...order.filter((r) => instance.resourceCluster[r] !== k).slice(0, tau - inK.length),
      ]);
  }
  return out.map((c) => c.slice().sort((a, b) => a - b));
}

/** Options of {@link slottedListSchedule}. */
export interface SlottedListOptions {
  /** Slot size, seconds. */
  readonly eta: number;
  /** Horizon, slots. */
  readonly theta: number;
  /** @defaultValue {@link computeOnlyProfile} */
  readonly profile?: ProfileOf;
}

/**
 * A list schedule in the MIP's slotted model: jobs in `order` (indices into `jobs`), each at
 * the earliest slot where one of its {@link candidateResources} (fewest slots first, then least
 * link demand) is free for all its slots without saturating a link. A feasible point of the
 * OAS MIP (the solver's warm start); `null` when a job does not fit in `theta`.
 *
 * Complexity: O(jobs * theta * candidates * (R + slots * links)).
 */
export function slottedListSchedule(
  jobs: readonly Job[],
  platform: Platform,
  order: readonly number[],
  options: SlottedListOptions,
): OasAssignment[] | null {
  const inst = oasInstance(jobs, platform, options.profile ?? computeOnlyProfile);
  const R = inst.resourceMachine.length;
  const T = options.theta;
  const L = platform.links.length;
  const busy = new Uint8Array(R * T);
  const load = new Float64Array(L * T);
  const out: OasAssignment[] = new Array(jobs.length);
  for (const j of order) {
    let placed = false;
    for (let s = 0; s < T && !placed; s++) {
      const free = new Uint8Array(R);
      for (let r = 0; r < R; r++) free[r] = busy[r * T + s] ? 0 : 1;
      let best: { res: number[]; n: number; demand: Float64Array; total: number } | null = null;
      for (const res of candidateResources(inst, j, free)) {
        const cost = allocationCost(inst, j, allocationOf(inst, res));
        const n = slotsNeeded(inst.baseTime[j]!, cost.ct, options.eta);
        if (s + n > T) continue;
        let ok = true;
        for (let t = s; t < s + n && ok; t++) {
          for (const r of res) if (busy[r * T + t]) ok = false;
          for (let l = 0; l < L && ok; l++) {
            if (
              cost.demand[l]! > 0 &&
              load[l * T + t]! + cost.demand[l]! > platform.links[l]!.bandwidth * (1 + 1e-9)
            )
              ok = false;
          }
        }
        if (!ok) continue;
        const total = cost.demand.reduce((a, b) => a + b, 0);
        if (best === null || n < best.n || (n === best.n && total < best.total)) {
          best = { res, n, demand: cost.demand, total };
        }
      }
      if (best === null) continue;
      for (let t = s; t < s + best.n; t++) {
        for (const r of best.res) busy[r * T + t] = 1;
        for (let l = 0; l < L; l++) load[l * T + t]! += best.demand[l]!;
      }
      out[j] = {
        jobId: jobs[j]!.id,
        startSlot: s,
        slots: best.n,
        allocation: allocationOf(inst, best.res),
      };
      placed = true;
    }
    if (!placed) return null;
  }
  return out;
}
