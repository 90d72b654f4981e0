import {
  createJob,
  createPlatform,
  type ExecutionModel,
  InvalidInputError,
  type Job,
  type Platform,
} from "@sched/core";
import { Random } from "@sched/random";
import { hiddenSpeedModel } from "./hidden-speed-model.js";
import { requireFinite, requireInteger, requirePositive, requireSeed } from "./validate.js";

/** Options of {@link eloPlatform}. */
export interface EloPlatformOptions {
  /** Number of single-core machines (the paper: 30 and 60). */
  readonly machines: number;
  /** Slowest machine speed, Mflops. @defaultValue 5 */
  readonly minSpeed?: number;
  /** Fastest machine speed, Mflops (the paper's MAXSPEED). @defaultValue 9 */
  readonly maxSpeed?: number;
  /** Seed of the speeds. @defaultValue 1 */
  readonly seed?: number;
}

/**
 * The paper's platform: `machines` single-core machines whose speeds are drawn uniformly in
 * `[minSpeed, maxSpeed]` Mflops (the paper: "machine speeds fluctuate between 5 and 9 Mflops"),
 * reference speed `maxSpeed` (job runtimes are given at MAXSPEED). Machine 0 always gets
 * `maxSpeed` so that MAXSPEED is the platform's real maximum.
 *
 * Complexity: O(machines).
 *
 * @throws InvalidInputError when `machines` is not an integer >= 1 or the speeds are not
 *   `0 < minSpeed <= maxSpeed`.
 * @example
 * ```ts
 * eloPlatform({ machines: 30 }).machines[0].speed; // 9
 * ```
 */
export function eloPlatform(options: EloPlatformOptions): Platform {
  const where = "@sched/elo/eloPlatform";
  requireInteger(where, "options.machines", options.machines, 1);
  const minSpeed = options.minSpeed ?? 5;
  const maxSpeed = options.maxSpeed ?? 9;
  requirePositive(where, "options.minSpeed", minSpeed);
  requirePositive(where, "options.maxSpeed", maxSpeed);
  if (minSpeed > maxSpeed) {
    throw new InvalidInputError(
      where,
      "options.minSpeed",
      `is ${minSpeed}, expected <= maxSpeed (${maxSpeed})`,
    );
  }
  const seed = options.seed ?? 1;
  requireSeed(where, "options.seed", seed);
  const rng = new Random(seed, "elo/machines");
  const machines = Array.from({ length: options.machines }, (_, i) => ({
    speed: i === 0 ? maxSpeed : minSpeed + (maxSpeed - minSpeed) * rng.next(),
  }));
  return createPlatform({ machines, referenceSpeed: maxSpeed });
}

/** Options of {@link eloWorkload}. */
export interface EloWorkloadOptions {
  /** Number of jobs (the paper: 10, 15, 20, 40, 60). */
  readonly jobs: number;
  /** Smallest job size, Mflop (the paper: 1000 operations = 1e-3 Mflop). @defaultValue 1e-3 */
  readonly minSize?: number;
  /** Largest job size, Mflop (the paper: 9e9 operations = 9000 Mflop). @defaultValue 9000 */
  readonly maxSize?: number;
  /**
   * Mean time between submissions, seconds (exponential); 0 submits every job at time 0, as the
   * paper's batches.
   * @defaultValue 0
   */
  readonly meanInterarrival?: number;
  /** The speed runtimes refer to (the platform's `referenceSpeed`), Mflops. @defaultValue 9 */
  readonly referenceSpeed?: number;
  /** Seed. @defaultValue 1 */
  readonly seed?: number;
}

/**
 * The paper's jobs: independent single-core jobs whose sizes are log-uniform in
 * `[minSize, maxSize]` Mflop (the paper gives only the range, 1e3 to 9e9 operations; log-uniform
 * spreads them over its six orders of magnitude), runtime `size / referenceSpeed` seconds at the
 * reference speed, and an exact estimate (the paper assumes job sizes are known). Ids 0..n-1 in
 * submission order.
 *
 * Complexity: O(jobs).
 *
 * @throws InvalidInputError when an option is out of range.
 * @example
 * ```ts
 * eloWorkload({ jobs: 10, seed: 3 }).length; // 10, all submitted at 0
 * ```
 */
export function eloWorkload(options: EloWorkloadOptions): Job[] {
  const where = "@sched/elo/eloWorkload";
  requireInteger(where, "options.jobs", options.jobs, 0);
  const minSize = options.minSize ?? 1e-3;
  const maxSize = options.maxSize ?? 9000;
  requirePositive(where, "options.minSize", minSize);
  requirePositive(where, "options.maxSize", maxSize);
  if (minSize > maxSize) {
    throw new InvalidInputError(
      where,
      "options.minSize",
      `is ${minSize}, expected <= maxSize (${maxSize})`,
    );
  }
  const gap = options.meanInterarrival ?? 0;
  requireFinite(where, "options.meanInterarrival", gap);
  if (gap < 0) {
    throw new InvalidInputError(where, "options.meanInterarrival", `is ${gap}, expected >= 0`);
  }
  const ref = options.referenceSpeed ?? 9;
  requirePositive(where, "options.referenceSpeed", ref);
  const seed = options.seed ?? 1;
  requireSeed(where, "options.seed", seed);
  const rng = new Random(seed, "elo/jobs");
  const lo = Math.log(minSize);
  const hi = Math.log(maxSize);
  const out: Job[] = [];
  let t = 0;
  for (let id = 0; id < options.jobs; id++) {
    if (gap > 0 && id > 0) t += -gap * Math.log(1 - rng.next());
    const size = Math.exp(lo + (hi - lo) * rng.next());
    out.push(createJob({ id, submit: t, runtime: size / ref, cores: 1 }));
  }
  return out;
}

/** Mean of a log-uniform size on [minSize, maxSize] (for load computations). @internal */
export function meanLogUniform(minSize: number, maxSize: number): number {
  return maxSize === minSize ? minSize : (maxSize - minSize) / Math.log(maxSize / minSize);
}

/** Options of {@link eloInstance}. */
export interface EloInstanceOptions {
  /** Machines. */
  readonly machines: number;
  /** Jobs. */
  readonly jobs: number;
  /** Seed of speeds, sizes, arrivals and fluctuation. */
  readonly seed: number;
  /** Per-job fluctuation of the true speeds around the benchmarks. @defaultValue 0.1 */
  readonly fluctuation?: number;
  /** Mean interarrival time, seconds; 0 for one batch at time 0. @defaultValue 0 */
  readonly meanInterarrival?: number;
  /** @defaultValue 5 */
  readonly minSpeed?: number;
  /** @defaultValue 9 */
  readonly maxSpeed?: number;
}

/** A workload, its platform, and the execution model that holds the machines' true speeds. */
export interface EloInstance {
  readonly jobs: Job[];
  readonly platform: Platform;
  readonly executionModel: ExecutionModel;
}

/**
 * One instance of the paper's experiment: {@link eloPlatform} (the benchmarks every policy may
 * read), {@link eloWorkload}, and a {@link hiddenSpeedModel} in which each machine really runs at
 * its benchmark +- `fluctuation` per job. Pass `executionModel` to `simulate`.
 *
 * Complexity: O(machines + jobs).
 *
 * @throws InvalidInputError when an option is out of range.
 * @example
 * ```ts
 * const { jobs, platform, executionModel } = eloInstance({ machines: 30, jobs: 60, seed: 1 });
 * simulate(jobs, platform, competitiveScheduler(), { executionModel });
 * ```
 */
export function eloInstance(options: EloInstanceOptions): EloInstance {
  const { machines, seed } = options;
  const minSpeed = options.minSpeed ?? 5;
  const maxSpeed = options.maxSpeed ?? 9;
  const platform = eloPlatform({ machines, seed, minSpeed, maxSpeed });
  const jobs = eloWorkload({
    jobs: options.jobs,
    seed,
    referenceSpeed: maxSpeed,
    meanInterarrival: options.meanInterarrival ?? 0,
  });
  const executionModel = hiddenSpeedModel({
    speeds: platform.machines.map((m) => m.speed),
    fluctuation: options.fluctuation ?? 0.1,
    seed,
  });
  return { jobs, platform, executionModel };
}
