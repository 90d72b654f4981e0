import { createPlatform, InvalidInputError, type Job, type MachineSpec } from "@sched/core";
import { Random } from "@sched/random";
import {
  checkInteger,
  checkPositive,
  checkRange,
  type GeneratedWorkload,
  type Range,
} from "./generated.js";

/**
 * Default relative speeds of the 8 clusters: the clock rates (GHz) of a Pentium III / Pentium 4
 * family (the paper uses those processors' SPECfp2000 figures without listing them).
 */
export const MULTICLUSTER_SPEEDS: readonly number[] = Object.freeze([
  0.8, 1.0, 1.4, 1.7, 2.0, 2.4, 2.8, 3.2,
]);

/** Options of {@link multiclusterWorkload} (the dynamic space-sharing paper). */
export interface MulticlusterOptions {
  /** Number of jobs. @defaultValue `1000` */
  readonly jobs?: number;
  /** Processors per cluster (one single-core machine each). @defaultValue `8` */
  readonly processorsPerCluster?: number;
  /** Relative speed of each cluster; its length is the number of clusters. @defaultValue {@link MULTICLUSTER_SPEEDS} */
  readonly speeds?: readonly number[];
  /**
   * Offered load: arrival rate * mean service demand / processors (the paper's "average
   * utilization"), which sets the arrival rate. @defaultValue `0.5`
   */
  readonly load?: number;
  /** Mean service demand (total work, seconds at the slowest speed). @defaultValue `14.06` */
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

const WHERE = "@sched/workload/multiclusterWorkload";

/**
 * Generates the dynamic space-sharing paper's workload: `speeds.length` clusters of
 * `processorsPerCluster` single-core machines (cluster k at speed `speeds[k]`, each cluster on
 * its own fast-Ethernet link), and moldable jobs arriving with inter-arrival CV `arrivalCV`
 * (Poisson by default) at the rate that gives the offered `load`. Each job has a maximum
 * parallelism m (uniform), a service demand D (hyper-exponential, mean 14.06, CV 3.5) that is
 * its total work at the slowest speed (the platform's reference speed), and a size in KB held as
 * its input data on the first machine of a uniformly drawn cluster (its submission site). As
 * submitted it asks for m processors: `cores = tasks = maxParallelism = m` and
 * `runtime = estimate = D / m` (perfect speed-up; a policy that gives it fewer processors runs
 * D / (processors) instead).
 *
 * Random streams: `multicluster/arrivals`, `multicluster/jobs`.
 *
 * Complexity: O(jobs + processors).
 *
 * @throws InvalidInputError naming the option that is out of range.
 *
 * @example
 * ```ts
 * const { platform, jobs } = multiclusterWorkload({ load: 0.8, seed: 1 });
 * platform.totalCores; // 64
 * ```
 */
export function multiclusterWorkload(options: MulticlusterOptions = {}): GeneratedWorkload {
  const jobs = checkInteger(WHERE, "options.jobs", options.jobs ?? 1000, 0);
  const per = checkInteger(
    WHERE,
    "options.processorsPerCluster",
    options.processorsPerCluster ?? 8,
    1,
  );
  const speeds = options.speeds ?? MULTICLUSTER_SPEEDS;
  if (!Array.isArray(speeds) || speeds.length === 0) {
    throw new InvalidInputError(
      WHERE,
      "options.speeds",
      "is empty, expected one speed per cluster",
    );
  }
  speeds.forEach((s, k) => {
    checkPositive(WHERE, `options.speeds[${k}]`, s);
  });
  const load = checkPositive(WHERE, "options.load", options.load ?? 0.5);
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
    if (!(v >= 1) || !Number.isFinite(v)) {
      throw new InvalidInputError(WHERE, `options.${k}`, `is ${v}, expected a finite number >= 1`);
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
  const platform = createPlatform({
    machines,
    clusters: speeds.map((_, k) => ({ name: `c${k}`, link: k })),
    links: speeds.map(() => ({ bandwidth })),
    referenceSpeed: Math.min(...speeds),
  });
  const processors = platform.totalCores;
  const meanGap = demand / (load * processors);
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
    const runtime = Math.max(d / m, Number.MIN_VALUE);
    out.push(
      Object.freeze({
        id: i,
        submit: t,
        runtime,
        estimate: runtime,
        cores: m,
        tasks: m,
        maxParallelism: m,
        input: [{ size, machine: site * per }],
      }),
    );
  }
  return { platform, jobs: out };
}
