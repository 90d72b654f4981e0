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
  requireKnownKeys,
  requireNonNegative,
  requireObject,
  requirePositive,
} from "@sched/errors";
import { checkAllocation, computeOnlyProfile, linkDemand, type ProfileOf } from "./cost.js";

/** The OAS problem in flat arrays: resources are cores (one task per core). */
export interface OasInstance {
  readonly jobs: readonly Job[];
  readonly platform: Platform;
  /** Machine of each resource. */
  readonly resourceMachine: Int32Array;
  /** Cluster of each resource. */
  readonly resourceCluster: Int32Array;
  /** `slowdown[j * R + r]`: the processing slowdown of job j on resource r (`benchmark / speed`, the paper's `1 / Gamma_r`). */
  readonly slowdown: Float64Array;
  /** Tasks `tau_j` (= `job.cores`). */
  readonly tasks: Int32Array;
  /** Base time `Tb_j` (= `job.estimate`, what a scheduler may plan with). */
  readonly baseTime: Float64Array;
  readonly sigma: Float64Array;
  readonly ptbw: Float64Array;
  /** Link of each cluster, -1 when none. */
  readonly clusterLink: Int32Array;
  /** Resources per cluster. */
  readonly clusterSize: Int32Array;
}

/**
 * Flattens jobs and a platform for the OAS model (`Tb_j` = `job.estimate`).
 *
 * Complexity: O(jobs * resources).
 *
 * @throws InvalidInputError when a profile is out of range (`sigma` outside [0, 1], `ptbw` < 0)
 * or a job needs more cores than the platform has.
 */
export function oasInstance(
  jobs: readonly Job[],
  platform: Platform,
  profile: ProfileOf = computeOnlyProfile,
  where = "@sched/multicluster/oasInstance",
): OasInstance {
  if (!Array.isArray(jobs)) {
    throw new InvalidInputError(
      where,
      "jobs",
      `is ${jobs === null ? "null" : typeof jobs}, expected an array of jobs`,
    );
  }
  validatePlatform(platform, where);
  if (typeof profile !== "function") {
    throw new InvalidInputError(
      where,
      "options.profile",
      `is ${describeValue(profile)}, expected a function (job) => { sigma, ptbw }`,
    );
  }
  for (let j = 0; j < jobs.length; j++) checkOasJob(jobs[j]!, `jobs[${j}]`, where);
  return withOasJobs(platformLayout(platform), jobs, profile, where);
}

/**
 * What the OAS model reads of a job's own fields (`cores`, `estimate`), checked; `label` names
 * it in messages (`jobs[3]`). Internal: {@link oasInstance} and the heuristics, which check each
 * waiting job once.
 */
export function checkOasJob(job: Job, label: string, where: string): void {
  // What the model reads of a job: a NaN estimate used to reach the solver unchecked.
  if (typeof job !== "object" || job === null) {
    throw new InvalidInputError(where, label, `is ${describeValue(job)}, expected a job`);
  }
  if (!Number.isInteger(job.cores) || job.cores < 1) {
    throw new InvalidInputError(
      where,
      `${label}.cores`,
      `is ${describeValue(job.cores)}, expected an integer >= 1`,
    );
  }
  if (!(Number.isFinite(job.estimate) && job.estimate > 0)) {
    throw new InvalidInputError(
      where,
      `${label}.estimate`,
      `is ${describeValue(job.estimate)}, expected a finite number > 0`,
    );
  }
}

/**
 * `job`'s profile, checked, and its cores against the platform's `cores` (the second check of
 * {@link oasInstance}). Internal.
 */
export function checkedOasProfile(
  job: Job,
  profile: ProfileOf,
  cores: number,
  where: string,
): { sigma: number; ptbw: number } {
  const p = profile(job);
  if (!(p.sigma >= 0 && p.sigma <= 1)) {
    throw new InvalidInputError(
      where,
      `profile(job ${job.id}).sigma`,
      `is ${describeValue(p.sigma)}, expected a number in [0, 1]`,
    );
  }
  if (!(p.ptbw >= 0) || !Number.isFinite(p.ptbw)) {
    throw new InvalidInputError(
      where,
      `profile(job ${job.id}).ptbw`,
      `is ${describeValue(p.ptbw)}, expected a finite number >= 0`,
    );
  }
  if (job.cores > cores) {
    throw new InvalidInputError(
      where,
      `job ${job.id}.cores`,
      `is ${job.cores}, but the platform has ${cores} cores`,
    );
  }
  return p;
}

/**
 * The instance of a (validated) platform without jobs: its resources, clusters and links.
 * `oasInstance([], platform)` returns it checked, and {@link withOasJobs} adds jobs to it (a
 * heuristic builds it once per run, and one-job instances from it).
 *
 * Complexity: O(machines + resources + clusters).
 */
function platformLayout(platform: Platform): OasInstance {
  const resourceMachine: number[] = [];
  for (const m of platform.machines) for (let c = 0; c < m.cores; c++) resourceMachine.push(m.id);
  const R = resourceMachine.length;
  const nK = platform.clusters.length;
  const clusterLink = new Int32Array(nK);
  const clusterSize = new Int32Array(nK);
  for (let k = 0; k < nK; k++) clusterLink[k] = platform.clusters[k]!.link ?? -1;
  const resourceCluster = new Int32Array(R);
  for (let r = 0; r < R; r++) {
    const k = platform.machines[resourceMachine[r]!]!.cluster;
    resourceCluster[r] = k;
    clusterSize[k]! += 1;
  }
  return {
    jobs: [],
    platform,
    resourceMachine: Int32Array.from(resourceMachine),
    resourceCluster,
    slowdown: new Float64Array(0),
    tasks: new Int32Array(0),
    baseTime: new Float64Array(0),
    sigma: new Float64Array(0),
    ptbw: new Float64Array(0),
    clusterLink,
    clusterSize,
  };
}

/**
 * The instance of `jobs` (whose own fields were checked: {@link checkOasJob}) on the platform
 * of `layout` ({@link platformLayout}), sharing its per-resource arrays (which nothing writes).
 * Checks each job's profile and cores ({@link checkedOasProfile}). Internal.
 *
 * Complexity: O(jobs * resources).
 */
export function withOasJobs(
  layout: OasInstance,
  jobs: readonly Job[],
  profile: ProfileOf,
  where: string,
): OasInstance {
  const platform = layout.platform;
  const resourceMachine = layout.resourceMachine;
  const R = resourceMachine.length;
  const J = jobs.length;
  const slowdown = new Float64Array(J * R);
  const tasks = new Int32Array(J);
  const baseTime = new Float64Array(J);
  const sigma = new Float64Array(J);
  const ptbw = new Float64Array(J);
  jobs.forEach((job, j) => {
    const p = checkedOasProfile(job, profile, R, where);
    tasks[j] = job.cores;
    baseTime[j] = job.estimate;
    sigma[j] = p.sigma;
    ptbw[j] = p.ptbw;
    const bm = benchmarkOf(job, platform);
    for (let r = 0; r < R; r++)
      slowdown[j * R + r] = bm / platform.machines[resourceMachine[r]!]!.speed;
  });
  return { ...layout, jobs, slowdown, tasks, baseTime, sigma, ptbw };
}

/**
 * {@link withOasJobs} of one job, with the slowdown row of its benchmark taken from `rows` (made
 * once per benchmark and kept there by the caller, for this layout; nothing writes a row): the
 * same instance, without O(resources) work per job. Internal: the heuristics build one job's
 * instance for each job they try.
 *
 * Complexity: O(1) once its benchmark's row is made, O(resources) before.
 */
export function withOasJob(
  layout: OasInstance,
  job: Job,
  profile: ProfileOf,
  where: string,
  rows: Map<number, Float64Array>,
): OasInstance {
  const platform = layout.platform;
  const resourceMachine = layout.resourceMachine;
  const R = resourceMachine.length;
  // in the order of withOasJobs: the profile and cores, then the benchmark (its checks)
  const p = checkedOasProfile(job, profile, R, where);
  const bm = benchmarkOf(job, platform);
  let slowdown = bm > 0 && Number.isFinite(bm) ? rows.get(bm) : undefined;
  if (slowdown === undefined) {
    slowdown = new Float64Array(R);
    for (let r = 0; r < R; r++) slowdown[r] = bm / platform.machines[resourceMachine[r]!]!.speed;
    if (bm > 0 && Number.isFinite(bm)) {
      // many distinct benchmarks (one per job): keep the last few hundred rows, not all
      if (rows.size >= 256) rows.clear();
      rows.set(bm, slowdown);
    }
  }
  return {
    ...layout,
    jobs: [job],
    slowdown,
    tasks: Int32Array.of(job.cores),
    baseTime: Float64Array.of(job.estimate),
    sigma: Float64Array.of(p.sigma),
    ptbw: Float64Array.of(p.ptbw),
  };
}

/** Arguments of {@link slotsNeeded} (eq. 8 and 18). */
export interface SlotsNeededOptions {
  /** `Tb`, the job's base execution time. */
  readonly baseTime: number;
  /** `ct`, the job's time cost on its allocation. */
  readonly ct: number;
  /** `eta`, the slot length. */
  readonly eta: number;
}

/**
 * Slots a job needs: `ceil(Tb * ct / eta)` with `ct = sigma * SP + (1 - sigma)` (eq. 8 and 18:
 * no saturation inside the model), at least 1; a relative tolerance of 1e-9 absorbs rounding.
 *
 * Complexity: O(1).
 *
 * @example
 * ```ts
 * slotsNeeded({ baseTime: 100, ct: 1.5, eta: 50 }); // 3
 * ```
 */
const SLOTS_KEYS = optionKeys<SlotsNeededOptions>({ baseTime: true, ct: true, eta: true });

export function slotsNeeded(options: SlotsNeededOptions): number {
  const where = "@sched/multicluster/slotsNeeded";
  requireObject(where, "options", options);
  requireKnownKeys(where, "options", options, SLOTS_KEYS);
  const { baseTime, ct, eta } = options;
  requireNonNegative(where, "options.baseTime", baseTime);
  requireNonNegative(where, "options.ct", ct);
  requirePositive(where, "options.eta", eta);
  const exact = (baseTime * ct) / eta;
  return Math.max(1, Math.ceil(exact - 1e-9 * Math.max(1, exact)));
}

/** One job of an OAS schedule: `slots` slots from slot `startSlot` on `allocation`. */
export interface OasAssignment {
  readonly jobId: number;
  /** 0-based first slot (the model's `s_j`). */
  readonly startSlot: number;
  /** Slots it occupies (`f_j - s_j`). */
  readonly slots: number;
  readonly allocation: Allocation;
}

/** `instance` as {@link oasInstance} makes it, checked in what the helpers read. Internal. */
export function checkInstance(where: string, instance: OasInstance): void {
  requireObject(where, "instance", instance);
  if (!(instance.resourceMachine instanceof Int32Array) || !Array.isArray(instance.jobs)) {
    throw new InvalidInputError(
      where,
      "instance",
      "is not an OasInstance (make it with oasInstance)",
    );
  }
  validatePlatform(instance.platform, where);
}

/** A job index of `instance`, checked. Internal. */
export function checkJobIndex(where: string, instance: OasInstance, j: unknown): void {
  const n = instance.jobs.length;
  if (typeof j !== "number" || !Number.isInteger(j) || j < 0 || j >= n) {
    throw new InvalidInputError(
      where,
      "j",
      `is ${describeValue(j)}, expected a job index in [0, ${n - 1}]`,
    );
  }
}

/**
 * Groups a list of resources (cores) into an allocation by machine, machines ascending.
 *
 * @throws InvalidInputError when `resources` are not distinct resource indices of `instance`.
 */
export function allocationOf(instance: OasInstance, resources: readonly number[]): Allocation {
  const where = "@sched/multicluster/allocationOf";
  checkInstance(where, instance);
  const R = instance.resourceMachine.length;
  const list = requireArray(where, "resources", resources);
  const seen = new Set<number>();
  for (let i = 0; i < list.length; i++) {
    const r = list[i];
    if (typeof r !== "number" || !Number.isInteger(r) || r < 0 || r >= R || seen.has(r)) {
      throw new InvalidInputError(
        where,
        `resources[${i}]`,
        `is ${describeValue(r)}, expected a resource index in [0, ${R - 1}] not listed before`,
      );
    }
    seen.add(r);
  }
  return groupResources(instance, resources);
}

/** {@link allocationOf} without its checks. Internal: the schedulers' inner loops. */
export function groupResources(instance: OasInstance, resources: ArrayLike<number>): Allocation {
  // resources in increasing machine order (a candidate sorted by index): one pass
  const rm = instance.resourceMachine;
  const parts: { machine: number; cores: number }[] = [];
  let last = -1;
  for (let i = 0; i < resources.length; i++) {
    const m = rm[resources[i]!]!;
    if (m === last) parts[parts.length - 1]!.cores += 1;
    else if (m > last) {
      parts.push({ machine: m, cores: 1 });
      last = m;
    } else return groupAnyOrder(instance, resources);
  }
  return parts;
}

/** {@link groupResources} of resources in any order. */
function groupAnyOrder(instance: OasInstance, resources: ArrayLike<number>): Allocation {
  const count = new Map<number, number>();
  for (let i = 0; i < resources.length; i++) {
    const m = instance.resourceMachine[resources[i]!]!;
    count.set(m, (count.get(m) ?? 0) + 1);
  }
  return [...count.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([machine, cores]) => ({ machine, cores }));
}

/**
 * The job's slowdown `SP_j` and the demand on each link for an allocation.
 *
 * @throws InvalidInputError when `j` is not a job index of `instance` or `allocation` is not an
 *   allocation on its platform.
 */
export function allocationCost(
  instance: OasInstance,
  j: number,
  allocation: Allocation,
): { sp: number; ct: number; demand: Float64Array } {
  const where = "@sched/multicluster/allocationCost";
  checkInstance(where, instance);
  checkJobIndex(where, instance, j);
  checkAllocation(where, "allocation", allocation, instance.platform);
  return costOfAllocation(instance, j, allocation);
}

/** {@link allocationCost} without its checks. Internal: the schedulers' inner loops. */
export function costOfAllocation(
  instance: OasInstance,
  j: number,
  allocation: Allocation,
): { sp: number; ct: number; demand: Float64Array } {
  const p = instance.platform;
  const bm = benchmarkOf(instance.jobs[j]!, p);
  let sp = 0;
  const perCluster = new Int32Array(p.clusters.length);
  for (const part of allocation) {
    const m = p.machines[part.machine]!;
    sp = Math.max(sp, bm / m.speed);
    perCluster[m.cluster]! += part.cores;
  }
  const demand = new Float64Array(p.links.length);
  for (let k = 0; k < perCluster.length; k++) {
    const l = instance.clusterLink[k]!;
    if (l >= 0)
      demand[l]! += linkDemand({
        tasksInCluster: perCluster[k]!,
        tasks: instance.tasks[j]!,
        ptbw: instance.ptbw[j]!,
      });
  }
  return { sp, ct: instance.sigma[j]! * sp + (1 - instance.sigma[j]!), demand };
}
