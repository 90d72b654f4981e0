import { createPlatform, InvalidInputError, type Job } from "@sched/core";
import {
  describeValue,
  optionKeys,
  requireBoolean,
  requireKnownKeys,
  requireOneOf,
} from "@sched/errors";
import { Random } from "@sched/random";
import {
  checkInteger,
  checkJobCount,
  checkRange,
  type GeneratedWorkload,
  type Range,
} from "./generated.js";

/** The job-set sizes of the competitive-matchmaking paper's experiments. */
export const ELO_JOB_SETS: readonly number[] = Object.freeze([10, 15, 20, 40, 60]);
/** The machine counts of its experiments. */
export const ELO_MACHINES: readonly number[] = Object.freeze([30, 60]);

/** How {@link eloWorkload} draws job sizes inside `operations`. */
export type EloSizeDistribution = "uniform" | "log-uniform";

/** Options of {@link eloWorkload}. */
export interface EloOptions {
  /** Number of independent jobs. @defaultValue `10` */
  readonly jobs?: number;
  /** Number of machines (single-core). @defaultValue `30` */
  readonly machines?: number;
  /** Machine speeds (benchmarks), uniform, in Mflops: the paper's "5 and 9 Mflops". @defaultValue `[5, 9]` */
  readonly speedMflops?: Range;
  /**
   * Machine 0 gets the top of `speedMflops` instead of a draw, so that the paper's MAXSPEED is
   * the platform's real maximum (an invented detail; its draw is still consumed, so the other
   * machines do not change).
   * @defaultValue `false`
   */
  readonly pinFastest?: boolean;
  /** Job sizes in floating-point operations: the paper's "1000 and 9,000,000,000". @defaultValue `[1e3, 9e9]` */
  readonly operations?: Range;
  /**
   * How sizes are drawn in `operations`: `"uniform"` (the plain reading of "varying between",
   * as for the speeds) or `"log-uniform"` (spread over the six orders of magnitude).
   * @defaultValue `"uniform"`
   */
  readonly sizes?: EloSizeDistribution;
  /**
   * Offered load: `0` submits every job at time 0 (the paper's sets); `> 0` gives Poisson
   * arrivals at the rate where mean work / (machines x mean speed) = `load` (a long-running
   * stream).
   * @defaultValue `0`
   */
  readonly load?: number;
  /** Number of job levels (and machine tiers) for `levels`. @defaultValue `5` */
  readonly levels?: number;
  /** Seed. @defaultValue `0` */
  readonly seed?: number;
}

/** The keys of {@link EloOptions}, all of them (checked by the compiler). */
const ELO_KEYS = optionKeys<EloOptions>({
  jobs: true,
  machines: true,
  speedMflops: true,
  pinFastest: true,
  operations: true,
  sizes: true,
  load: true,
  levels: true,
  seed: true,
});

/** An {@link eloWorkload}: the platform, the jobs, and each job's size and level. */
export interface EloWorkload extends GeneratedWorkload {
  /** Operations of each job (same order as `jobs`). */
  readonly operations: readonly number[];
  /**
   * Level of each job on the log-size range of `operations` cut into `levels` equal bins: 1 for
   * the largest (it needs the fastest tier), `levels` for the smallest.
   */
  readonly levels: readonly number[];
}

const WHERE = "@sched/workload/eloWorkload";

/** Mean of a size drawn by `sizes` in `[lo, hi]`. */
function meanSize(lo: number, hi: number, sizes: EloSizeDistribution): number {
  if (hi === lo) return lo;
  return sizes === "uniform" ? (lo + hi) / 2 : (hi - lo) / Math.log(hi / lo);
}

/**
 * Generates the competitive-matchmaking (Elo) paper's workload: `machines` single-core machines
 * with speeds uniform in `speedMflops` (the platform's reference speed is 1 Mflops) and `jobs`
 * independent single-core jobs whose sizes are drawn in `operations` (uniform by default); a
 * job's run time at the reference speed is operations / 1e6 seconds (so on a machine of speed
 * s Mflops it lasts operations / (s * 1e6) s), its estimate exact (the paper assumes job sizes
 * are known). With `load` 0 every job is submitted at time 0 (the paper's sets of 10 to 60);
 * otherwise inter-arrival times are exponential with mean
 * `mean size / (1e6 x machines x mean speed x load)`.
 *
 * Random streams: `elo/machines` (one draw per machine), `elo/jobs` (one per job),
 * `elo/arrivals` (one per gap): changing the load or the size distribution leaves the machines
 * alone, changing the load leaves the sizes alone.
 *
 * Complexity: O(jobs + machines).
 *
 * @throws InvalidInputError naming the option that is out of range.
 *
 * @example
 * ```ts
 * const { platform, jobs, levels } = eloWorkload({ jobs: 40, machines: 60, seed: 1 });
 * ```
 */
export function eloWorkload(options: EloOptions = {}): EloWorkload {
  requireKnownKeys(WHERE, "options", options, ELO_KEYS);
  const n = checkJobCount(WHERE, "options.jobs", options.jobs ?? 10);
  const machines = checkInteger(WHERE, "options.machines", options.machines ?? 30, 1);
  const speed = checkRange(
    WHERE,
    "options.speedMflops",
    options.speedMflops ?? [5, 9],
    Number.MIN_VALUE,
  );
  const ops = checkRange(
    WHERE,
    "options.operations",
    options.operations ?? [1e3, 9e9],
    Number.MIN_VALUE,
  );
  const sizes = options.sizes ?? "uniform";
  requireOneOf(WHERE, "options.sizes", sizes, ["uniform", "log-uniform"]);
  const pinFastest = requireBoolean(WHERE, "options.pinFastest", options.pinFastest ?? false);
  const load = options.load ?? 0;
  if (typeof load !== "number" || !Number.isFinite(load) || load < 0) {
    throw new InvalidInputError(
      WHERE,
      "options.load",
      `is ${describeValue(load)}, expected a finite number >= 0`,
    );
  }
  const levelCount = checkInteger(WHERE, "options.levels", options.levels ?? 5, 1);
  const seed = checkInteger(WHERE, "options.seed", options.seed ?? 0, Number.MIN_SAFE_INTEGER);
  const mRng = new Random(seed, "elo/machines");
  const jRng = new Random(seed, "elo/jobs");
  const aRng = new Random(seed, "elo/arrivals");
  const platform = createPlatform({
    machines: Array.from({ length: machines }, (_, i) => {
      const drawn = mRng.uniform(speed[0], speed[1]);
      return { cores: 1, speed: pinFastest && i === 0 ? speed[1] : drawn };
    }),
    referenceSpeed: 1,
  });
  const meanGap =
    load > 0
      ? meanSize(ops[0], ops[1], sizes) / 1e6 / (machines * ((speed[0] + speed[1]) / 2) * load)
      : 0;
  const lo = Math.log(ops[0]);
  const hi = Math.log(ops[1]);
  const jobs: Job[] = [];
  const operations: number[] = [];
  const levels: number[] = [];
  let t = 0;
  for (let i = 0; i < n; i++) {
    if (meanGap > 0 && i > 0) t += aRng.exponential(meanGap);
    // exp(log(x)) may miss x by an ulp either way (exp(log(1e3)) is 999.9999999999998): kept in range.
    const o =
      sizes === "uniform"
        ? jRng.uniform(ops[0], ops[1])
        : Math.min(ops[1], Math.max(ops[0], Math.exp(jRng.uniform(lo, hi))));
    const x = Math.log(o);
    const bin =
      hi > lo ? Math.min(levelCount - 1, Math.floor((levelCount * (x - lo)) / (hi - lo))) : 0;
    const runtime = o / 1e6;
    jobs.push(Object.freeze({ id: i, submit: t, runtime, estimate: runtime, cores: 1 }));
    operations.push(o);
    levels.push(levelCount - Math.max(0, bin));
  }
  return { platform, jobs, operations, levels };
}
