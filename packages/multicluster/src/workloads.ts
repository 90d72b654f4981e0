import { createJob, InvalidInputError, type Job } from "@sched/core";
import { Random } from "@sched/random";
import type { OasProfile } from "./cost.js";

/** Options of {@link moldableWorkload}. */
export interface MoldableWorkloadOptions {
  /** Number of jobs. @defaultValue `1000` */
  readonly jobs?: number;
  /** Offered utilization `lambda * mean demand / P`, in (0, 1). @defaultValue `0.5` */
  readonly load?: number;
  /** Processors `P`. @defaultValue `64` */
  readonly processors?: number;
  /** Mean service demand, seconds. @defaultValue `14.06` */
  readonly meanDemand?: number;
  /** Coefficient of variation of the demand (hyper-exponential when > 1). @defaultValue `3.5` */
  readonly demandCv?: number;
  /** Maximum parallelism is uniform on 1..this. @defaultValue `64` */
  readonly maxParallelism?: number;
  /** A job's data size is uniform on [1, this] KB, stored as `input[0].size` bytes. @defaultValue `1000` */
  readonly maxKilobytes?: number;
  /** @defaultValue `1` */
  readonly seed?: number;
}

/**
 * The first paper's moldable workload: Poisson arrivals at the rate that gives the offered
 * `load`, service demands from a balanced two-phase hyper-exponential with mean `meanDemand`
 * and CV `demandCv` (exponential when CV <= 1), maximum parallelism uniform on
 * 1..`maxParallelism`, and a data size in KB. `runtime` is the total demand (`cores` 1,
 * `maxParallelism` set). Deterministic in `seed`.
 *
 * Complexity: O(jobs).
 *
 * @throws InvalidInputError for out-of-range options.
 */
export function moldableWorkload(options: MoldableWorkloadOptions = {}): Job[] {
  const n = options.jobs ?? 1000;
  const load = options.load ?? 0.5;
  const P = options.processors ?? 64;
  const mean = options.meanDemand ?? 14.06;
  const cv = options.demandCv ?? 3.5;
  const maxPar = options.maxParallelism ?? 64;
  const maxKb = options.maxKilobytes ?? 1000;
  const where = "@sched/multicluster/moldableWorkload";
  if (!(load > 0 && load < 1))
    throw new InvalidInputError(
      where,
      "options.load",
      `is ${String(load)}, expected a number in (0, 1)`,
    );
  if (!Number.isInteger(n) || n < 0)
    throw new InvalidInputError(where, "options.jobs", `is ${String(n)}, expected an integer >= 0`);
  const rng = new Random(options.seed ?? 1, "multicluster/moldableWorkload");
  const rate = (load * P) / mean;
  const p1 = cv > 1 ? 0.5 * (1 + Math.sqrt((cv * cv - 1) / (cv * cv + 1))) : 1;
  const out: Job[] = [];
  let t = 0;
  for (let i = 0; i < n; i++) {
    t += rng.exponential(1 / rate);
    const demand =
      rng.next() < p1 ? rng.exponential(mean / (2 * p1)) : rng.exponential(mean / (2 * (1 - p1)));
    out.push(
      createJob({
        id: i,
        submit: t,
        runtime: Math.max(demand, 1e-6),
        cores: 1,
        maxParallelism: rng.integer(1, maxPar),
        input: [{ size: rng.integer(1, maxKb) * 1024, machine: 0 }],
      }),
    );
  }
  return out;
}

/** An OAS workload: jobs (all submitted at 0) and each job's profile. */
export interface OasWorkload {
  readonly name: string;
  readonly jobs: readonly Job[];
  readonly profiles: ReadonlyMap<number, OasProfile>;
}

/**
 * The OAS paper's workloads of 8 jobs for 3 clusters x 2 nodes (the paper gives no numbers;
 * these are ours): WL-1 made to suit resource matching (sizes that pack 6 nodes: 4+2, 3+3, 5+1,
 * 2+2+2), WL-2 made to suit small-jobs-first (many short 1-2 task jobs and two long wide ones),
 * WL-3..WL-6 random (1-4 tasks, base time 60-600 s, `sigma` 0.5-1, per-task bandwidth
 * 5-60 MB/s), seeded by the workload number and `seed`.
 *
 * Complexity: O(1).
 *
 * @example
 * ```ts
 * oasWorkload(3).jobs.length; // 8
 * ```
 */
export function oasWorkload(which: 1 | 2 | 3 | 4 | 5 | 6, seed = 1): OasWorkload {
  const rng = new Random(seed, `oas/WL-${which}`);
  const spec: { tasks: number; base: number }[] =
    which === 1
      ? [
          { tasks: 4, base: 300 },
          { tasks: 2, base: 300 },
          { tasks: 3, base: 240 },
          { tasks: 3, base: 240 },
          { tasks: 5, base: 180 },
          { tasks: 1, base: 180 },
          { tasks: 2, base: 120 },
          { tasks: 2, base: 120 },
        ]
      : which === 2
        ? [
            { tasks: 6, base: 500 },
            { tasks: 1, base: 60 },
            { tasks: 2, base: 80 },
            { tasks: 5, base: 450 },
            { tasks: 1, base: 70 },
            { tasks: 2, base: 90 },
            { tasks: 1, base: 60 },
            { tasks: 2, base: 100 },
          ]
        : Array.from({ length: 8 }, () => ({
            tasks: rng.integer(1, 4),
            base: 60 + 30 * rng.integer(0, 18),
          }));
  const jobs: Job[] = [];
  const profiles = new Map<number, OasProfile>();
  spec.forEach((s, i) => {
    jobs.push(createJob({ id: i, submit: 0, runtime: s.base, cores: s.tasks }));
    profiles.set(i, { sigma: 0.5 + 0.1 * rng.integer(0, 5), ptbw: 5e6 * rng.integer(1, 12) });
  });
  return { name: `WL-${which}`, jobs, profiles };
}
