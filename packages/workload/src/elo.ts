import { createPlatform, type Job } from "@sched/core";
import { Random } from "@sched/random";
import { checkInteger, checkRange, type GeneratedWorkload, type Range } from "./generated.js";

/** The job-set sizes of the competitive-matchmaking paper's experiments. */
export const ELO_JOB_SETS: readonly number[] = Object.freeze([10, 15, 20, 40, 60]);
/** The machine counts of its experiments. */
export const ELO_MACHINES: readonly number[] = Object.freeze([30, 60]);

/** Options of {@link eloWorkload}. */
export interface EloOptions {
  /** Number of independent jobs (a set, all submitted at time 0). @defaultValue `10` */
  readonly jobs?: number;
  /** Number of machines (single-core). @defaultValue `30` */
  readonly machines?: number;
  /** Machine speeds, uniform, in Mflops. @defaultValue `[5, 9]` */
  readonly speedMflops?: Range;
  /** Job sizes in floating-point operations, log-uniform. @defaultValue `[1e3, 9e9]` */
  readonly operations?: Range;
  /** Number of job levels (and machine tiers). @defaultValue `5` */
  readonly levels?: number;
  /** Seed. @defaultValue `0` */
  readonly seed?: number;
}

/** An {@link eloWorkload}: the platform, the jobs, and each job's size and level. */
export interface EloWorkload extends GeneratedWorkload {
  /** Operations of each job (same order as `jobs`). */
  readonly operations: readonly number[];
  /** Level of each job: 1 for the largest (it needs the fastest tier), `levels` for the smallest. */
  readonly levels: readonly number[];
}

const WHERE = "@sched/workload/eloWorkload";

/**
 * Generates the competitive-matchmaking (Elo) paper's workload: `machines` single-core machines
 * with speeds uniform in [5, 9] Mflops (the platform's reference speed is 1 Mflops) and a set of
 * `jobs` independent jobs, all submitted at time 0, whose sizes are log-uniform in [1e3, 9e9]
 * operations; a job's run time at the reference speed is operations / 1e6 seconds (so on a
 * machine of speed s Mflops it lasts operations / (s * 1e6) s), its estimate exact. Job levels
 * split the log-size range into `levels` equal bins, the largest jobs at level 1.
 *
 * Random streams: `elo/machines`, `elo/jobs`.
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
  const n = checkInteger(WHERE, "options.jobs", options.jobs ?? 10, 0);
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
  const levelCount = checkInteger(WHERE, "options.levels", options.levels ?? 5, 1);
  const seed = checkInteger(WHERE, "options.seed", options.seed ?? 0, Number.MIN_SAFE_INTEGER);
  const mRng = new Random(seed, "elo/machines");
  const jRng = new Random(seed, "elo/jobs");
  const platform = createPlatform({
    machines: Array.from({ length: machines }, () => ({
      cores: 1,
      speed: mRng.uniform(speed[0], speed[1]),
    })),
    referenceSpeed: 1,
  });
  const lo = Math.log(ops[0]);
  const hi = Math.log(ops[1]);
  const jobs: Job[] = [];
  const operations: number[] = [];
  const levels: number[] = [];
  for (let i = 0; i < n; i++) {
    const x = jRng.uniform(lo, hi);
    const o = Math.exp(x);
    const bin =
      hi > lo ? Math.min(levelCount - 1, Math.floor((levelCount * (x - lo)) / (hi - lo))) : 0;
    const runtime = o / 1e6;
    jobs.push(Object.freeze({ id: i, submit: 0, runtime, estimate: runtime, cores: 1 }));
    operations.push(o);
    levels.push(levelCount - bin);
  }
  return { platform, jobs, operations, levels };
}
