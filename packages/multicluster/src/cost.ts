import {
  type Allocation,
  benchmarkOf,
  InvalidInputError,
  type Job,
  type Platform,
  validatePlatform,
} from "@sched/core";
import {
  describeValue,
  optionKeys,
  requireArray,
  requireInteger,
  requireKnownKeys,
  requireNonNegative,
  requireObject,
  requirePositive,
} from "@sched/errors";

/**
 * What the OAS cost model needs to know about a job besides its base time and size: the
 * weight `sigma` of processing against communication (eq. 2) and the bandwidth each task
 * needs, `PTBW` (eq. 4).
 */
export interface OasProfile {
  /** Relevance of processing time, in [0, 1]; 1 = pure computation. */
  readonly sigma: number;
  /** Required bandwidth per task, bytes/s, >= 0. */
  readonly ptbw: number;
}

/** A function giving a job's {@link OasProfile}. */
export type ProfileOf = (job: Job) => OasProfile;

/** The profile used when none is given: pure computation (`sigma` 1), no communication. */
export const computeOnlyProfile: ProfileOf = () => ({ sigma: 1, ptbw: 0 });

/**
 * Processing slowdown `SP_j` (eq. 3): the largest slowdown over the allocated machines, where a
 * machine's slowdown is `benchmark(job) / speed` (the OAS paper's `1 / Gamma_r` when the
 * reference speed is 1).
 *
 * Complexity: O(allocation parts).
 *
 * @example
 * ```ts
 * processingSlowdown(job, [{ machine: 0, cores: 1 }, { machine: 4, cores: 1 }], p); // 2 (Gamma 0.5)
 * ```
 */
export function processingSlowdown(job: Job, allocation: Allocation, platform: Platform): number {
  const where = "@sched/multicluster/processingSlowdown";
  validatePlatform(platform, where);
  checkJobSize(where, "job", job);
  checkAllocation(where, "allocation", allocation, platform);
  return slowdownOf(job, allocation, platform);
}

/**
 * The job fields the cost model reads, checked: `cores` an integer >= 1, `benchmark` absent or
 * a finite number > 0. Internal.
 */
function checkJobSize(where: string, field: string, job: unknown): void {
  requireObject(where, field, job);
  const j = job as Job;
  requireInteger(where, `${field}.cores`, j.cores, 1);
  if (j.benchmark !== undefined) requirePositive(where, `${field}.benchmark`, j.benchmark);
}

/**
 * An allocation on `platform`, checked: an array of `{ machine, cores }`, machine indices of
 * the platform, cores integers >= 1. Internal: the checked doors of the cost functions.
 */
export function checkAllocation(
  where: string,
  field: string,
  allocation: unknown,
  platform: Platform,
): void {
  const parts = requireArray(where, field, allocation);
  const machines = platform.machines.length;
  for (let i = 0; i < parts.length; i++) {
    const part = requireObject(where, `${field}[${i}]`, parts[i]) as Record<string, unknown>;
    const m = part.machine;
    if (typeof m !== "number" || !Number.isInteger(m) || m < 0 || m >= machines) {
      throw new InvalidInputError(
        where,
        `${field}[${i}].machine`,
        `is ${describeValue(m)}, expected a machine index in [0, ${machines - 1}]`,
      );
    }
    requireInteger(where, `${field}[${i}].cores`, part.cores, 1);
  }
}

/** {@link processingSlowdown} without its checks. Internal: {@link evaluateCost}'s per-job step. */
function slowdownOf(job: Job, allocation: Allocation, platform: Platform): number {
  const bm = benchmarkOf(job, platform);
  let sp = 0;
  for (let i = 0; i < allocation.length; i++) {
    const s = bm / platform.machines[allocation[i]!.machine]!.speed;
    if (s > sp) sp = s;
  }
  return sp;
}

/**
 * Tasks per cluster `t_j^k`: one task per allocated core.
 *
 * Complexity: O(allocation parts + clusters).
 */
export function tasksPerCluster(allocation: Allocation, platform: Platform): Int32Array {
  const where = "@sched/multicluster/tasksPerCluster";
  validatePlatform(platform, where);
  checkAllocation(where, "allocation", allocation, platform);
  return tasksOf(allocation, platform);
}

/** {@link tasksPerCluster} without its checks. Internal. */
function tasksOf(allocation: Allocation, platform: Platform): Int32Array {
  const out = new Int32Array(platform.clusters.length);
  for (let i = 0; i < allocation.length; i++) {
    const part = allocation[i]!;
    out[platform.machines[part.machine]!.cluster]! += part.cores;
  }
  return out;
}

/** Arguments of {@link linkDemand} (eq. 4). */
export interface LinkDemandOptions {
  /** `t`, the job's tasks in the cluster. */
  readonly tasksInCluster: number;
  /** `tau`, the job's tasks in all. */
  readonly tasks: number;
  /** `PTBW`, the job's per-task bandwidth. */
  readonly ptbw: number;
}

/**
 * Bandwidth a co-allocated job uses on one cluster's link (eq. 4):
 * `BW = (t * PTBW) * (tau - t) / (tau - 1)`, `t` its tasks in the cluster, `tau` its tasks in
 * all. 0 when `t` is 0 or `tau` (no co-allocation) and for a one-task job (`tau` 1, where the
 * paper's formula reads 0/0).
 *
 * Complexity: O(1).
 *
 * @example
 * ```ts
 * linkDemand({ tasksInCluster: 1, tasks: 2, ptbw: 100 }); // 100
 * linkDemand({ tasksInCluster: 2, tasks: 4, ptbw: 100 }); // 200 * 2 / 3
 * ```
 */
export function linkDemand(options: LinkDemandOptions): number {
  const where = "@sched/multicluster/linkDemand";
  requireObject(where, "options", options);
  requireKnownKeys(where, "options", options, LINK_DEMAND_KEYS);
  const { tasksInCluster, tasks, ptbw } = options;
  requireInteger(where, "options.tasksInCluster", tasksInCluster, 0);
  requireInteger(where, "options.tasks", tasks, 0);
  requireNonNegative(where, "options.ptbw", ptbw);
  return demandOnLink(tasksInCluster, tasks, ptbw);
}

/**
 * {@link linkDemand} without its checks. Internal: {@link costOf}'s per-item step (`t` from the
 * allocation, `tau` the engine's or the checked job's cores, `ptbw` checked there).
 */
function demandOnLink(tasksInCluster: number, tasks: number, ptbw: number): number {
  if (tasks <= 1 || tasksInCluster <= 0 || tasksInCluster >= tasks) return 0;
  return (tasksInCluster * ptbw * (tasks - tasksInCluster)) / (tasks - 1);
}

/**
 * Degree of saturation of a link (eq. 5): `SAT = MBW / total demand`; `Infinity` when nothing
 * uses the link. `SAT >= 1` means not saturated.
 *
 * Complexity: O(1).
 */
export function linkSaturation(maxBandwidth: number, demand: number): number {
  const where = "@sched/multicluster/linkSaturation";
  if (typeof maxBandwidth !== "number" || !(maxBandwidth > 0)) {
    throw new InvalidInputError(
      where,
      "maxBandwidth",
      `is ${describeValue(maxBandwidth)}, expected a number > 0`,
    );
  }
  requireNonNegative(where, "demand", demand);
  return saturationOfLink(maxBandwidth, demand);
}

/**
 * {@link linkSaturation} without its checks. Internal: {@link costOf}'s per-link step (a
 * validated platform's bandwidth, a sum of checked demands).
 */
function saturationOfLink(maxBandwidth: number, demand: number): number {
  return demand <= 0 ? Number.POSITIVE_INFINITY : maxBandwidth / demand;
}

/**
 * Communication slowdown caused by one link (eq. 6): `1 / SAT` when `SAT < 1`, else 1.
 *
 * Complexity: O(1).
 */
export function linkSlowdown(saturation: number): number {
  if (typeof saturation !== "number" || !(saturation > 0)) {
    throw new InvalidInputError(
      "@sched/multicluster/linkSlowdown",
      "saturation",
      `is ${describeValue(saturation)}, expected a number > 0 (MBW / demand; Infinity: no demand)`,
    );
  }
  return slowdownOfLink(saturation);
}

/** {@link linkSlowdown} without its check. Internal: {@link costOf}'s per-link step. */
function slowdownOfLink(saturation: number): number {
  return saturation < 1 ? 1 / saturation : 1;
}

/** Arguments of {@link timeCost} (eq. 2). */
export interface TimeCostOptions {
  /** `sigma`, the job's computation fraction. */
  readonly sigma: number;
  /** `SP`, the processing slowdown. */
  readonly sp: number;
  /** `SC`, the communication slowdown. */
  readonly sc: number;
}

/**
 * Time cost `ct = sigma * SP + (1 - sigma) * SC` (eq. 2).
 *
 * Complexity: O(1).
 *
 * @example
 * ```ts
 * timeCost({ sigma: 0.5, sp: 2, sc: 1 }); // 1.5
 * ```
 */
export function timeCost(options: TimeCostOptions): number {
  const where = "@sched/multicluster/timeCost";
  requireObject(where, "options", options);
  requireKnownKeys(where, "options", options, TIME_COST_KEYS);
  const { sigma, sp, sc } = options;
  if (typeof sigma !== "number" || !(sigma >= 0 && sigma <= 1)) {
    throw new InvalidInputError(
      where,
      "options.sigma",
      `is ${describeValue(sigma)}, expected a number in [0, 1]`,
    );
  }
  requireNonNegative(where, "options.sp", sp);
  requireNonNegative(where, "options.sc", sc);
  return timeCostUnchecked(sigma, sp, sc);
}

const LINK_DEMAND_KEYS = optionKeys<LinkDemandOptions>({
  tasksInCluster: true,
  tasks: true,
  ptbw: true,
});

const TIME_COST_KEYS = optionKeys<TimeCostOptions>({ sigma: true, sp: true, sc: true });

/** {@link timeCost} without validation, for evaluateCost's loop (its inputs are checked). */
function timeCostUnchecked(sigma: number, sp: number, sc: number): number {
  return sigma * sp + (1 - sigma) * sc;
}

/** One job of a set running together, for {@link evaluateCost}. */
export interface CostInput {
  readonly job: Job;
  readonly allocation: Allocation;
  readonly profile: OasProfile;
}

/** The cost model's figures for one job of the set. */
export interface JobCost {
  /** Processing slowdown `SP_j` (eq. 3). */
  readonly sp: number;
  /** Communication slowdown `SC_j` (eq. 7). */
  readonly sc: number;
  /** Time cost `ct_j` (eq. 2). */
  readonly ct: number;
  /** Bandwidth the job uses on each link `BW_j^k` (eq. 4), indexed by link. */
  readonly demand: Float64Array;
}

/** The cost model's figures for a set of jobs running together. */
export interface CostEvaluation {
  readonly jobs: readonly JobCost[];
  /** Total demand on each link, bytes/s. */
  readonly linkDemand: Float64Array;
  /** `SAT^k` of each link (eq. 5); `Infinity` for an unused link. */
  readonly saturation: Float64Array;
}

/**
 * Evaluates equations 2-7 for a set of jobs that run at the same time: each job's `SP`, its
 * demand on every link (eq. 4, summed per link when several clusters share a link), each link's
 * saturation (eq. 5), and each job's `SC` (eq. 7: the largest eq.-6 slowdown over the links the
 * job uses, 1 when it uses none) and `ct` (eq. 2). Multiply `ct` by the base time for the
 * execution time `Te = Tb * ct` (eq. 1). Clusters without a link add no demand.
 *
 * Complexity: O(sum of allocation parts + jobs * clusters).
 *
 * @example
 * ```ts
 * const e = evaluateCost(p, [{ job, allocation: [{ machine: 0, cores: 1 }, { machine: 2, cores: 1 }], profile: { sigma: 0.5, ptbw: 200e6 } }]);
 * e.saturation[0]; // 0.625 (125e6 / 200e6), e.jobs[0].sc 1.6
 * ```
 */
export function evaluateCost(platform: Platform, set: readonly CostInput[]): CostEvaluation {
  const where = "@sched/multicluster/evaluateCost";
  validatePlatform(platform, where);
  const items = requireArray(where, "set", set);
  for (let i = 0; i < items.length; i++) {
    const item = requireObject(where, `set[${i}]`, items[i]) as CostInput;
    checkJobSize(where, `set[${i}].job`, item.job);
    checkAllocation(where, `set[${i}].allocation`, item.allocation, platform);
  }
  return costOf(platform, set);
}

/**
 * {@link evaluateCost} without the checks of the platform, jobs and allocations (the profiles
 * are still checked: they come from the caller's function). Internal: the OAS execution model
 * calls it at every change of the running set, with the engine's jobs and allocations.
 */
export function costOf(platform: Platform, set: readonly CostInput[]): CostEvaluation {
  const nLinks = platform.links.length;
  const totals = new Float64Array(nLinks);
  const partial: { sp: number; demand: Float64Array }[] = [];
  for (let i = 0; i < set.length; i++) {
    const item = set[i]!;
    // a profile function's result, read as given: named here rather than by linkDemand's options
    const { sigma, ptbw } = item.profile ?? {};
    if (typeof sigma !== "number" || !(sigma >= 0 && sigma <= 1)) {
      throw new InvalidInputError(
        "@sched/multicluster/evaluateCost",
        `set[${i}].profile.sigma`,
        `is ${describeValue(sigma)}, expected a number in [0, 1]`,
      );
    }
    requireNonNegative("@sched/multicluster/evaluateCost", `set[${i}].profile.ptbw`, ptbw);
    const sp = slowdownOf(item.job, item.allocation, platform);
    const perCluster = tasksOf(item.allocation, platform);
    const demand = new Float64Array(nLinks);
    for (let k = 0; k < perCluster.length; k++) {
      const link = platform.clusters[k]!.link;
      if (link === undefined) continue;
      demand[link]! += demandOnLink(perCluster[k]!, item.job.cores, ptbw);
    }
    for (let l = 0; l < nLinks; l++) totals[l]! += demand[l]!;
    partial.push({ sp, demand });
  }
  const saturation = new Float64Array(nLinks);
  for (let l = 0; l < nLinks; l++) {
    saturation[l] = saturationOfLink(platform.links[l]!.bandwidth, totals[l]!);
  }
  const jobs: JobCost[] = partial.map((p, i) => {
    let sc = 1;
    for (let l = 0; l < nLinks; l++) {
      if (p.demand[l]! > 0) sc = Math.max(sc, slowdownOfLink(saturation[l]!));
    }
    return {
      sp: p.sp,
      sc,
      ct: timeCostUnchecked(set[i]!.profile.sigma, p.sp, sc),
      demand: p.demand,
    };
  });
  return { jobs, linkDemand: totals, saturation };
}
