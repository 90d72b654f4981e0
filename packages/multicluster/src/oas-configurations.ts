import { type Allocation, InvalidInputError, LimitExceededError } from "@sched/core";
import {
  describeValue,
  optionKeys,
  requireArray,
  requireBoolean,
  requireInteger,
  requireKnownKeys,
  requireObject,
  requirePositive,
} from "@sched/errors";
import { linkDemand } from "./cost.js";
import {
  checkInstance,
  checkJobIndex,
  groupResources,
  type OasAssignment,
  type OasInstance,
  slotsNeeded,
} from "./oas-instance.js";

/**
 * A class of interchangeable resources (cores): same cluster, hence same link, and same machine
 * speed, hence the same slowdown for every job. Constraints (10)-(22) see only how many of a
 * class a job holds, never which ones.
 */
export interface ResourceGroup {
  readonly cluster: number;
  readonly speed: number;
  /** Its resources (indices of `OasInstance.resourceMachine`), ascending. */
  readonly resources: readonly number[];
}

/** One way to place job `j`: how many of its tasks go to each group, and what that costs. */
export interface JobConfiguration {
  /** Tasks per group (`counts[g]`), summing to `tau_j`. */
  readonly counts: Int32Array;
  /** `SP_j` (eq. 3): the largest slowdown among the groups used. */
  readonly sp: number;
  /** `ct_j` (eq. 18). */
  readonly ct: number;
  /** Slots it holds: `ceil(Tb * ct / eta)` (eq. 8, 19-20). */
  readonly slots: number;
  /** Eq.-4 demand on each link, bytes/s. */
  readonly demand: Float64Array;
}

/**
 * The resource groups of an instance: resources of one cluster with one speed, in order of their
 * first resource.
 *
 * Complexity: O(R).
 */
export function resourceGroups(inst: OasInstance): ResourceGroup[] {
  checkInstance("@sched/multicluster/resourceGroups", inst);
  return groupsOf(inst);
}

/** {@link resourceGroups} without its check. Internal: the MIP builder. */
export function groupsOf(inst: OasInstance): ResourceGroup[] {
  const groups = new Map<string, { cluster: number; speed: number; resources: number[] }>();
  const machines = inst.platform.machines;
  for (let r = 0; r < inst.resourceMachine.length; r++) {
    const cluster = inst.resourceCluster[r]!;
    const speed = machines[inst.resourceMachine[r]!]!.speed;
    const key = `${cluster}:${speed}`;
    let g = groups.get(key);
    if (g === undefined) {
      g = { cluster, speed, resources: [] };
      groups.set(key, g);
    }
    g.resources.push(r);
  }
  return [...groups.values()];
}

/** Number of ways to put `tasks` tasks in groups of the given sizes (bounded compositions). */
export function countCompositions(sizes: readonly number[], tasks: number): number {
  let ways = new Float64Array(tasks + 1);
  ways[0] = 1;
  for (const n of sizes) {
    const next = new Float64Array(tasks + 1);
    for (let t = 0; t <= tasks; t++) {
      if (ways[t] === 0) continue;
      for (let c = 0; c <= n && t + c <= tasks; c++) next[t + c]! += ways[t]!;
    }
    ways = next;
  }
  return ways[tasks]!;
}

/**
 * Every configuration of job `j` (a count of tasks per group, summing to `tau_j`) that fits the
 * horizon and, with `links`, saturates no link by itself; in lexicographic order of the counts.
 *
 * Complexity: O(configurations * (groups + links)).
 *
 * @throws LimitExceededError (naming `where` and the job) when the job has more than
 * `maxConfigurations` configurations.
 */
export function jobConfigurations(
  inst: OasInstance,
  groups: readonly ResourceGroup[],
  j: number,
  options: ConfigurationOptions,
): JobConfiguration[] {
  const where = "@sched/multicluster/jobConfigurations";
  checkInstance(where, inst);
  const R = inst.resourceMachine.length;
  const K = inst.platform.clusters.length;
  const list = requireArray(where, "groups", groups);
  const seen = new Uint8Array(R);
  list.forEach((raw, g) => {
    const group = requireObject(where, `groups[${g}]`, raw) as ResourceGroup;
    requireIndex(where, `groups[${g}].cluster`, group.cluster, K);
    requirePositive(where, `groups[${g}].speed`, group.speed);
    const rs = requireArray(where, `groups[${g}].resources`, group.resources);
    if (rs.length === 0) {
      throw new InvalidInputError(where, `groups[${g}].resources`, "is empty, expected resources");
    }
    rs.forEach((r, k) => {
      requireIndex(where, `groups[${g}].resources[${k}]`, r, R);
      if (seen[r as number] === 1) {
        throw new InvalidInputError(
          where,
          `groups[${g}].resources[${k}]`,
          `is ${r}, a resource already in a group`,
        );
      }
      seen[r as number] = 1;
    });
  });
  checkJobIndex(where, inst, j);
  requireObject(where, "options", options);
  requireKnownKeys(where, "options", options, CONFIGURATION_KEYS);
  requirePositive(where, "options.eta", options.eta);
  requireInteger(where, "options.theta", options.theta, 1);
  requireBoolean(where, "options.links", options.links);
  const max = options.maxConfigurations;
  if (
    typeof max !== "number" ||
    !(Number.isInteger(max) || max === Number.POSITIVE_INFINITY) ||
    max < 1
  ) {
    throw new InvalidInputError(
      where,
      "options.maxConfigurations",
      `is ${describeValue(max)}, expected an integer >= 1 or Infinity`,
    );
  }
  if (typeof options.where !== "string") {
    throw new InvalidInputError(
      where,
      "options.where",
      `is ${describeValue(options.where)}, expected a string (the name errors start with)`,
    );
  }
  return configurationsOf(inst, groups, j, options);
}

/** Options of {@link jobConfigurations}. */
export interface ConfigurationOptions {
  /** Slot size, seconds. */
  readonly eta: number;
  /** Horizon, slots. */
  readonly theta: number;
  /** Whether a configuration that saturates a link by itself is left out. */
  readonly links: boolean;
  /** The most configurations before a `LimitExceededError`. */
  readonly maxConfigurations: number;
  /** What the `LimitExceededError` names as its origin. */
  readonly where: string;
}

const CONFIGURATION_KEYS = optionKeys<ConfigurationOptions>({
  eta: true,
  theta: true,
  links: true,
  maxConfigurations: true,
  where: true,
});

/** An index in [0, n), checked. */
function requireIndex(where: string, field: string, v: unknown, n: number): void {
  if (typeof v !== "number" || !Number.isInteger(v) || v < 0 || v >= n) {
    throw new InvalidInputError(
      where,
      field,
      `is ${describeValue(v)}, expected an index in [0, ${n - 1}]`,
    );
  }
}

/** {@link jobConfigurations} without its checks. Internal: the MIP builder, once per job. */
export function configurationsOf(
  inst: OasInstance,
  groups: readonly ResourceGroup[],
  j: number,
  options: ConfigurationOptions,
): JobConfiguration[] {
  const tau = inst.tasks[j]!;
  const G = groups.length;
  const sizes = groups.map((g) => g.resources.length);
  const total = countCompositions(sizes, tau);
  if (total > options.maxConfigurations) {
    throw new LimitExceededError(
      options.where,
      `job ${inst.jobs[j]!.id} has ${total} configurations (ways to spread its ${tau} tasks over ${G} resource groups), more than options.maxConfigurations = ${options.maxConfigurations}; raise it or use formulation "resources"`,
    );
  }
  const platform = inst.platform;
  const L = platform.links.length;
  const K = platform.clusters.length;
  const R = inst.resourceMachine.length;
  const slow = groups.map((g) => inst.slowdown[j * R + g.resources[0]!]!);
  const out: JobConfiguration[] = [];
  const counts = new Int32Array(G);
  const perCluster = new Int32Array(K);
  const visit = (g: number, left: number) => {
    if (g === G) {
      if (left !== 0) return;
      let sp = 0;
      perCluster.fill(0);
      for (let i = 0; i < G; i++) {
        if (counts[i]! > 0) {
          sp = Math.max(sp, slow[i]!);
          perCluster[groups[i]!.cluster]! += counts[i]!;
        }
      }
      const ct = inst.sigma[j]! * sp + 1 - inst.sigma[j]!;
      const slots = slotsNeeded({ baseTime: inst.baseTime[j]!, ct, eta: options.eta });
      if (slots > options.theta) return;
      const demand = new Float64Array(L);
      for (let k = 0; k < K; k++) {
        const l = inst.clusterLink[k]!;
        if (l >= 0)
          demand[l]! += linkDemand({
            tasksInCluster: perCluster[k]!,
            tasks: tau,
            ptbw: inst.ptbw[j]!,
          });
      }
      if (options.links) {
        for (let l = 0; l < L; l++) {
          if (demand[l]! > platform.links[l]!.bandwidth * (1 + 1e-9)) return;
        }
      }
      out.push({ counts: counts.slice(), sp, ct, slots, demand });
      return;
    }
    const most = Math.min(left, sizes[g]!);
    for (let c = 0; c <= most; c++) {
      counts[g] = c;
      visit(g + 1, left - c);
    }
    counts[g] = 0;
  };
  visit(0, tau);
  return out;
}

/** Tasks per group of an allocation (cores of a machine all belong to its group). */
export function countsOf(
  inst: OasInstance,
  groups: readonly ResourceGroup[],
  allocation: Allocation,
): Int32Array {
  const groupOf = new Int32Array(inst.resourceMachine.length);
  groups.forEach((g, i) => {
    for (const r of g.resources) groupOf[r] = i;
  });
  const firstResource = new Map<number, number>();
  for (let r = inst.resourceMachine.length - 1; r >= 0; r--) {
    firstResource.set(inst.resourceMachine[r]!, r);
  }
  const counts = new Int32Array(groups.length);
  for (const part of allocation) {
    const r = firstResource.get(part.machine);
    if (r !== undefined) counts[groupOf[r]!]! += part.cores;
  }
  return counts;
}

/** A job placed by group counts: its configuration and start slot. */
export interface GroupPlacement {
  readonly counts: Int32Array;
  readonly startSlot: number;
  readonly slots: number;
}

/**
 * Turns placements by group counts into a schedule on concrete resources: jobs by start slot
 * (then index), each taking, in every group, the lowest-index resources free from its start.
 * When no group is over its size in any slot (constraint 10 on counts), this never runs out: the
 * jobs holding a group at a job's start are intervals containing that start, so at least
 * `counts[g]` of the group's resources are free then (interval graphs are perfect).
 *
 * Complexity: O(J log J + J * R).
 *
 * @returns one assignment per placement (same order); `null` for a placement that found too few
 * free resources (only when the placements overload a group).
 */
export function assignResources(
  inst: OasInstance,
  groups: readonly ResourceGroup[],
  placements: readonly GroupPlacement[],
): (OasAssignment | null)[] {
  const freeFrom = new Float64Array(inst.resourceMachine.length);
  const out: (OasAssignment | null)[] = placements.map(() => null);
  const order = placements.map((_, j) => j);
  order.sort((a, b) => placements[a]!.startSlot - placements[b]!.startSlot || a - b);
  for (const j of order) {
    const p = placements[j]!;
    const taken: number[] = [];
    let ok = true;
    groups.forEach((g, gi) => {
      let left = p.counts[gi]!;
      for (const r of g.resources) {
        if (left === 0) break;
        if (freeFrom[r]! <= p.startSlot) {
          taken.push(r);
          left--;
        }
      }
      if (left > 0) ok = false;
    });
    if (!ok) continue;
    for (const r of taken) freeFrom[r] = p.startSlot + p.slots;
    out[j] = {
      jobId: inst.jobs[j]!.id,
      startSlot: p.startSlot,
      slots: p.slots,
      allocation: groupResources(
        inst,
        taken.sort((a, b) => a - b),
      ),
    };
  }
  return out;
}
