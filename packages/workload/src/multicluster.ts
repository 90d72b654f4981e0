import { createPlatform, InvalidInputError, type Job, type MachineSpec } from "@sched/core";
import { describeValue, optionKeys, requireKnownKeys, requireOneOf } from "@sched/errors";
import { Random } from "@sched/random";
import {
  checkInteger,
  checkJobCount,
  checkPositive,
  checkRange,
  type GeneratedWorkload,
  type Range,
} from "./generated.js";

/**
 * Named cluster speed sets of the dynamic space-sharing paper's platform, one speed per cluster
 * (cycled when there are more clusters). The paper takes its speeds from SPECfp2000 results of
 * Pentium 3 and 4 processors without listing them, so every heterogeneous set is an assumption:
 * - `homogeneous`: every processor at speed 1 (the paper's §4.1 comparison);
 * - `heterogeneous`: `1, 1, 1.3, 1.3, 1.7, 1.7, 2.2, 2.2` (ratios in the spirit of Pentium III
 *   1 GHz to Pentium 4 2 GHz SPECfp2000 results; the published tables of this package used it);
 * - `clock`: the clock rates (GHz) of a Pentium III / 4 family, `0.8` to `3.2` (a ratio of 4).
 */
export const MULTICLUSTER_SPEED_SETS: Readonly<Record<MulticlusterSpeedSet, readonly number[]>> =
  Object.freeze({
    homogeneous: Object.freeze([1]),
    heterogeneous: Object.freeze([1, 1, 1.3, 1.3, 1.7, 1.7, 2.2, 2.2]),
    clock: Object.freeze([0.8, 1.0, 1.4, 1.7, 2.0, 2.4, 2.8, 3.2]),
  });

/** A name of {@link MULTICLUSTER_SPEED_SETS}. */
export type MulticlusterSpeedSet = "homogeneous" | "heterogeneous" | "clock";

/** Options of {@link multiclusterWorkload} (the dynamic space-sharing paper). */
export interface MulticlusterOptions {
  /** Number of jobs. @defaultValue `1000` */
  readonly jobs?: number;
  /** Number of clusters. @defaultValue `8` (or the length of an explicit `speeds` list) */
  readonly clusters?: number;
  /** Processors per cluster (one single-core machine each). @defaultValue `8` */
  readonly processorsPerCluster?: number;
  /**
   * Relative speed of each cluster: a named set (cycled over the clusters) or one speed per
   * cluster. @defaultValue `"homogeneous"`
   */
  readonly speeds?: MulticlusterSpeedSet | readonly number[];
  /**
   * Offered load, the paper's "average utilization": arrival rate * mean service demand /
   * capacity, which sets the arrival rate. @defaultValue `0.5`
   */
  readonly load?: number;
  /**
   * What the load is a fraction of: `"capacity"`, the processors' total speed relative to the
   * reference (`sum speed / referenceSpeed`), so a load means the same work per unit of capacity
   * on any platform; or `"processors"`, their number (the paper's "divided by the number of
   * processors", read literally: on a faster heterogeneous platform the same load is lighter).
   * @defaultValue `"capacity"`
   */
  readonly loadBasis?: "capacity" | "processors";
  /** Mean service demand (total work, seconds on one processor of the reference speed). @defaultValue `14.06` */
  readonly meanServiceDemand?: number;
  /** Coefficient of variation of the service demand (hyper-exponential when > 1). @defaultValue `3.5` */
  readonly serviceCV?: number;
  /** Coefficient of variation of the inter-arrival times (1: Poisson). @defaultValue `1` */
  readonly arrivalCV?: number;
  /** Maximum parallelism, uniform integers. @defaultValue `[1, 64]` */
  readonly maxParallelism?: Range;
  /** Job size (its input data), uniform, in KB (stored in bytes, 1 KB = 1024 bytes). @defaultValue `[1, 1024]` */
  readonly jobSizeKB?: Range;
  /** Bandwidth of each cluster's link, bytes/s (fast Ethernet, 100 Mbit/s). @defaultValue `12_500_000` */
  readonly linkBandwidth?: number;
  /** Seed. @defaultValue `0` */
  readonly seed?: number;
}

/** The keys of {@link MulticlusterOptions}, all of them (checked by the compiler). */
const MULTICLUSTER_KEYS = optionKeys<MulticlusterOptions>({
  jobs: true,
  clusters: true,
  processorsPerCluster: true,
  speeds: true,
  load: true,
  loadBasis: true,
  meanServiceDemand: true,
  serviceCV: true,
  arrivalCV: true,
  maxParallelism: true,
  jobSizeKB: true,
  linkBandwidth: true,
  seed: true,
});

const WHERE = "@sched/workload/multiclusterWorkload";

/** The speed of every cluster for the options (checked). */
function clusterSpeeds(options: MulticlusterOptions): number[] {
  const given = options.speeds ?? "homogeneous";
  if (typeof given === "string") {
    const set = MULTICLUSTER_SPEED_SETS[given as MulticlusterSpeedSet];
    if (set === undefined) {
      throw new InvalidInputError(
        WHERE,
        "options.speeds",
        `is ${describeValue(given)}, expected one of ${Object.keys(MULTICLUSTER_SPEED_SETS).join(", ")} or a list of speeds`,
      );
    }
    const K = checkInteger(WHERE, "options.clusters", options.clusters ?? 8, 1);
    return Array.from({ length: K }, (_, k) => set[k % set.length]!);
  }
  if (!Array.isArray(given) || given.length === 0) {
    throw new InvalidInputError(
      WHERE,
      "options.speeds",
      "is empty, expected one speed per cluster",
    );
  }
  if (options.clusters !== undefined && options.clusters !== given.length) {
    throw new InvalidInputError(
      WHERE,
      "options.clusters",
      `is ${describeValue(options.clusters)}, but options.speeds lists ${given.length} clusters`,
    );
  }
  // an index loop: forEach skips the holes of a sparse array
  for (let k = 0; k < given.length; k++) checkPositive(WHERE, `options.speeds[${k}]`, given[k]);
  return [...given];
}

/**
 * Generates the dynamic space-sharing paper's workload: `clusters` clusters of
 * `processorsPerCluster` single-core machines (cluster k at its speed, each cluster on its own
 * fast-Ethernet link; the slowest speed is the reference), and moldable jobs arriving with
 * inter-arrival CV `arrivalCV` (Poisson by default) at the rate that gives the offered `load`
 * of the platform's capacity (or of its processors, `loadBasis`). Each job has a maximum
 * parallelism m (uniform), a service demand D (hyper-exponential, mean 14.06, CV 3.5: its total
 * work in seconds on one processor of the reference speed), and a size in KB held as its input
 * data on the first machine of a uniformly drawn cluster (its submission site). A moldable job
 * runs on 1 to m processors: `cores = 1`, `maxParallelism = tasks = m`, and `runtime = estimate
 * = D` (its run time on its minimum of one processor; policies that give it k processors split
 * D over its m tasks).
 *
 * Random streams: `multicluster/arrivals`, `multicluster/jobs`.
 *
 * Complexity: O(jobs + processors).
 *
 * @throws InvalidInputError naming the option that is out of range.
 *
 * @example
 * ```ts
 * const { platform, jobs } = multiclusterWorkload({ load: 0.8, speeds: "heterogeneous", seed: 1 });
 * platform.totalCores; // 64
 * ```
 */
export function multiclusterWorkload(options: MulticlusterOptions = {}): GeneratedWorkload {
  requireKnownKeys(WHERE, "options", options, MULTICLUSTER_KEYS);
  const jobs = checkJobCount(WHERE, "options.jobs", options.jobs ?? 1000);
  const per = checkInteger(
    WHERE,
    "options.processorsPerCluster",
    options.processorsPerCluster ?? 8,
    1,
  );
  const speeds = clusterSpeeds(options);
  const load = checkPositive(WHERE, "options.load", options.load ?? 0.5);
  const basis = options.loadBasis ?? "capacity";
  requireOneOf(WHERE, "options.loadBasis", basis, ["capacity", "processors"]);
  const demand = checkPositive(
    WHERE,
    "options.meanServiceDemand",
    options.meanServiceDemand ?? 14.06,
  );
  const serviceCV = options.serviceCV ?? 3.5;
  const arrivalCV = options.arrivalCV ?? 1;
  for (const [k, v] of [
    ["serviceCV", serviceCV],
    ["arrivalCV", arrivalCV],
  ] as const) {
    if (typeof v !== "number" || !(v >= 1) || !Number.isFinite(v)) {
      throw new InvalidInputError(
        WHERE,
        `options.${k}`,
        `is ${describeValue(v)}, expected a finite number >= 1`,
      );
    }
  }
  const par = checkRange(WHERE, "options.maxParallelism", options.maxParallelism ?? [1, 64], 1);
  checkInteger(WHERE, "options.maxParallelism[0]", par[0], 1);
  checkInteger(WHERE, "options.maxParallelism[1]", par[1], 1);
  const sizeKB = checkRange(WHERE, "options.jobSizeKB", options.jobSizeKB ?? [1, 1024], 0);
  const bandwidth = checkPositive(
    WHERE,
    "options.linkBandwidth",
    options.linkBandwidth ?? 12_500_000,
  );
  const seed = checkInteger(WHERE, "options.seed", options.seed ?? 0, Number.MIN_SAFE_INTEGER);

  const machines: MachineSpec[] = [];
  speeds.forEach((speed, cluster) => {
    for (let i = 0; i < per; i++)
      machines.push({ name: `c${cluster}p${i}`, cores: 1, speed, cluster });
  });
  // A loop, not Math.min(...): a spread of a million clusters overflows the call stack.
  let reference = Number.POSITIVE_INFINITY;
  for (const speed of speeds) if (speed < reference) reference = speed;
  const platform = createPlatform({
    machines,
    clusters: speeds.map((_, k) => ({ name: `c${k}`, link: k })),
    links: speeds.map(() => ({ bandwidth })),
    referenceSpeed: reference,
  });
  const capacity =
    basis === "capacity"
      ? platform.machines.reduce((s, m) => s + m.cores * (m.speed / reference), 0)
      : platform.totalCores;
  const meanGap = demand / (load * capacity);
  const aRng = new Random(seed, "multicluster/arrivals");
  const jRng = new Random(seed, "multicluster/jobs");
  const out: Job[] = [];
  let t = 0;
  for (let i = 0; i < jobs; i++) {
    t += aRng.hyperExponential(meanGap, arrivalCV);
    const m = jRng.integer(par[0], par[1]);
    const d = jRng.hyperExponential(demand, serviceCV);
    const size = Math.round(jRng.uniform(sizeKB[0], sizeKB[1]) * 1024);
    const site = jRng.integer(0, speeds.length - 1);
    const runtime = Math.max(d, Number.MIN_VALUE);
    out.push(
      Object.freeze({
        id: i,
        submit: t,
        runtime,
        estimate: runtime,
        cores: 1,
        tasks: m,
        maxParallelism: m,
        input: [{ size, machine: site * per }],
      }),
    );
  }
  return { platform, jobs: out };
}
