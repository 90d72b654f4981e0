import type { Job } from "@sched/core";
import { Random } from "@sched/random";
import { jobTimeProblem, MAX_WORKLOAD_TIME } from "@sched/workload";

/** Parameters of {@link syntheticWorkload}. */
export interface SyntheticOptions {
  /**
   * Number of jobs.
   * @defaultValue 2000
   */
  readonly jobs?: number;
  /**
   * Processors of the machine the workload is meant for (job sizes are at most this).
   * @defaultValue 128
   */
  readonly procs?: number;
  /**
   * Offered load: total work (runtime x processors) divided by `procs` x the span of the
   * arrivals. Arrival times are scaled to hit it exactly (up to rounding to whole seconds).
   * @defaultValue 0.8
   */
  readonly load?: number;
  /**
   * Seed of the generator.
   * @defaultValue 1
   */
  readonly seed?: number;
}

const SERIAL = 0.24;
const U_LOW = 0.8;
const U_PROB = 0.86;
const POW2 = 0.58;
const LOG_MEDIAN = 6.5;
const LOG_SIGMA = 1.2;
const MAX_RUNTIME = 86400;

/** Where the generated workload comes from, for reports. */
export const SYNTHETIC_DESCRIPTION =
  "sched-sim synthetic workload v1 (seeded; Poisson arrivals scaled to the offered load, " +
  "log-normal runtimes, two-stage log-uniform sizes, over-estimated requested times)";

/**
 * A deterministic synthetic rigid-job workload for a pool of identical processors, shaped like
 * the archive logs without claiming to be any published model:
 * - size: 1 with probability 0.24; otherwise two-stage log-uniform like Lublin-Feitelson's
 *   (log2 size uniform on [0.8, log2(procs) - 2.5] with probability 0.86, else on
 *   [log2(procs) - 2.5, log2(procs)]), rounded to a power of two with probability 0.58, else to
 *   the nearest integer, clamped to [1, procs];
 * - runtime: log-normal, median e^6.5 ~ 11 min, sigma 1.2, clamped to [1 s, 24 h], whole seconds;
 * - requested time: exact with probability 0.15, else runtime x U(1, 5), rounded up to whole
 *   minutes, so `estimate >= runtime`;
 * - arrivals: exponential gaps (a Poisson process), the first job at 0, then all arrival times
 *   multiplied by one factor so the offered load equals `load`, floored to whole seconds.
 *
 * Same options, same jobs. Ids are 1..jobs in submit order.
 *
 * Complexity: O(jobs).
 * @throws RangeError when an option is out of range (the CLI validates before calling), or when
 * the load is so small that the arrivals, and the jobs run one after the other from there, reach
 * past 2^53 − 1 s, where times are no longer exact.
 * @example
 * syntheticWorkload({ jobs: 3, procs: 8, load: 0.5, seed: 7 }).length // 3
 */
export function syntheticWorkload(options: SyntheticOptions = {}): Job[] {
  const n = options.jobs ?? 2000;
  const procs = options.procs ?? 128;
  const load = options.load ?? 0.8;
  const seed = options.seed ?? 1;
  if (!Number.isSafeInteger(n) || n < 1)
    throw new RangeError(`jobs must be an integer >= 1, got ${n}`);
  if (!Number.isSafeInteger(procs) || procs < 1) {
    throw new RangeError(`procs must be an integer >= 1, got ${procs}`);
  }
  if (!(load > 0 && Number.isFinite(load))) throw new RangeError(`load must be > 0, got ${load}`);
  const rng = new Random(seed, "sim/synthetic");
  const sizes = new Int32Array(n);
  const runtimes = new Float64Array(n);
  const estimates = new Float64Array(n);
  const arrivals = new Float64Array(n);
  const maxLog = Math.log2(procs);
  const uMed = Math.max(0, maxLog - 2.5);
  let work = 0;
  let clock = 0;
  for (let i = 0; i < n; i++) {
    let size = 1;
    if (rng.next() >= SERIAL) {
      // Two-stage log-uniform (Lublin-Feitelson's shape): mostly small, sometimes up to procs.
      const low = rng.next() < U_PROB;
      const a = low ? Math.min(U_LOW, uMed) : uMed;
      const b = low ? uMed : maxLog;
      const x = a + rng.next() * (b - a);
      size = rng.next() < POW2 ? 2 ** Math.round(x) : Math.round(2 ** x);
      size = Math.min(procs, Math.max(1, size));
    }
    const runtime = Math.min(
      MAX_RUNTIME,
      Math.max(1, Math.round(Math.exp(LOG_MEDIAN + LOG_SIGMA * rng.normal()))),
    );
    const estimate =
      rng.next() < 0.15 ? runtime : Math.ceil((runtime * (1 + 4 * rng.next())) / 60) * 60;
    sizes[i] = size;
    runtimes[i] = runtime;
    estimates[i] = Math.max(runtime, estimate);
    work += size * runtime;
    if (i > 0) clock += rng.exponential(1);
    arrivals[i] = clock;
  }
  // Span of the arrivals, extended by one mean gap so that a single job has a span too.
  const span = clock + clock / Math.max(1, n - 1) + (n === 1 ? 1 : 0);
  const scale = work / (procs * load * span);
  const jobs: Job[] = [];
  let serial = 0;
  for (let i = 0; i < n; i++) {
    const job: Job = {
      id: i + 1,
      submit: Math.floor((arrivals[i] as number) * scale),
      runtime: runtimes[i] as number,
      estimate: estimates[i] as number,
      cores: sizes[i] as number,
    };
    // A tiny load spreads the arrivals past the times a double holds exactly (load 1e-15:
    // submits of 6e18 s, where a 600 s job ends at its start).
    const problem = jobTimeProblem(job);
    serial += job.estimate;
    if (problem !== null || !(job.submit + serial <= MAX_WORKLOAD_TIME)) {
      throw new RangeError(
        `the offered load ${load} is too small for these ${n} jobs: it spreads their arrivals over ${Math.floor(span * scale)} s, ` +
          `and job ${job.id} (submit ${job.submit} s) could end beyond 2^53 − 1 s, where times are no longer exact; give a larger load`,
      );
    }
    jobs.push(job);
  }
  return jobs;
}
