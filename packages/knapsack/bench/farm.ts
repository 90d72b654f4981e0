/**
 * The paper's workload generator for the MKP evaluation (convergent scheduling, section 6):
 * a computing farm of machines and licenses and a stream of jobs, every parameter uniform in the
 * paper's ranges, driven by a seeded PRNG. `simulateFarm` replays the stream on the farm with a
 * simple non-preemptive list scheduler that runs the greedy pre-matching at every event, and
 * returns the license knapsacks met along the way: the "job stream instances" of Table 1.
 */

import { Random } from "@sched/random";
import { type LicenseJob, type MkpInstance, preMatch } from "../src/index.js";

/** A seeded source (@sched/random, stream "knapsack/bench/farm"): floats in [0, 1). */
export function seeded(seed: number): () => number {
  const random = new Random(seed, "knapsack/bench/farm");
  return () => random.next();
}

export interface FarmSpec {
  readonly machines: number;
  readonly licenses: number;
  readonly jobs: number;
  /** License ratio range: copies of each license = round(ratio · machines), ratio uniform in [lo, hi]. */
  readonly ratio: readonly [number, number];
  /** Fixed job inter-arrival time. */
  readonly interArrival: number;
  readonly seed: number;
}

export interface Farm {
  readonly machineCpus: Int32Array;
  readonly machineBench: Float64Array;
  /** supports[m * L + l] = 1 when license l can be used on machine m. */
  readonly supports: Uint8Array;
  readonly copies: Record<string, number>;
  readonly licenseNames: readonly string[];
  readonly jobs: readonly FarmJob[];
}

export interface FarmJob extends LicenseJob {
  readonly id: number;
  readonly submit: number;
  readonly estimated: number;
  readonly cpus: number;
  readonly bench: number;
  readonly licenses: Readonly<Record<string, number>>;
  /** Eligible machines (enough CPUs, every license usable) and the job's priority on each. */
  readonly eligible: readonly number[];
  readonly priority: readonly number[];
}

const uniform = (rnd: () => number, lo: number, hi: number): number => lo + (hi - lo) * rnd();
const uniformInt = (rnd: () => number, lo: number, hi: number): number =>
  lo + Math.floor((hi - lo + 1) * rnd());

/**
 * The paper's ranges: Estimated [500, 3000], CPUs [1, 8], Benchmark [200, 600] (jobs and
 * machines), license suitability 90% (a license is usable on a machine), license needed by a job
 * 20%. The Job-Machine priorities, which the paper's heuristics would compute, are a stand-in:
 * uniform in [1, 10] on eligible machines, 0 elsewhere.
 */
export function generateFarm(spec: FarmSpec): Farm {
  const rnd = seeded(spec.seed);
  const M = spec.machines;
  const L = spec.licenses;
  const machineCpus = new Int32Array(M);
  const machineBench = new Float64Array(M);
  const supports = new Uint8Array(M * L);
  for (let m = 0; m < M; m++) {
    machineCpus[m] = uniformInt(rnd, 1, 8);
    machineBench[m] = uniform(rnd, 200, 600);
    for (let l = 0; l < L; l++) supports[m * L + l] = rnd() < 0.9 ? 1 : 0;
  }
  const licenseNames = Array.from({ length: L }, (_, l) => `lic${String(l).padStart(2, "0")}`);
  const copies: Record<string, number> = {};
  for (const name of licenseNames)
    copies[name] = Math.round(uniform(rnd, spec.ratio[0], spec.ratio[1]) * M);
  const jobs: FarmJob[] = [];
  for (let j = 0; j < spec.jobs; j++) {
    const cpus = uniformInt(rnd, 1, 8);
    const licenses: Record<string, number> = {};
    const needed: number[] = [];
    for (let l = 0; l < L; l++) {
      if (rnd() < 0.2) {
        licenses[licenseNames[l] as string] = 1;
        needed.push(l);
      }
    }
    const eligible: number[] = [];
    const priority: number[] = [];
    for (let m = 0; m < M; m++) {
      const p = uniform(rnd, 1, 10);
      if ((machineCpus[m] as number) < cpus) continue;
      if (!needed.every((l) => supports[m * L + l] === 1)) continue;
      eligible.push(m);
      priority.push(p);
    }
    jobs.push({
      id: j,
      submit: j * spec.interArrival,
      estimated: uniform(rnd, 500, 3000),
      cpus,
      bench: uniform(rnd, 200, 600),
      licenses,
      eligible,
      priority,
    });
  }
  return { machineCpus, machineBench, supports, copies, licenseNames, jobs };
}

/** One scheduling event's license knapsacks (one per cluster). */
export interface Snapshot {
  readonly time: number;
  readonly waiting: number;
  readonly instances: readonly MkpInstance[];
}

/**
 * Replays the farm's job stream: at every arrival or completion, the waiting jobs are
 * pre-matched against the free license copies (greedy, as convergent scheduling does), then the
 * kept jobs, by decreasing cost, start on the fastest free eligible machine. Jobs run
 * `estimated · jobBench / machineBench`. Returns the knapsacks of every event that had one.
 */
export function simulateFarm(farm: Farm): Snapshot[] {
  const M = farm.machineCpus.length;
  const busyUntil = new Float64Array(M).fill(-1);
  const runningOn = new Int32Array(M).fill(-1);
  const used: Record<string, number> = {};
  for (const name of farm.licenseNames) used[name] = 0;
  const waiting: FarmJob[] = [];
  const snapshots: Snapshot[] = [];
  let next = 0;
  let t = 0;
  const costOf = (job: FarmJob): number =>
    job.priority.length === 0 ? 0 : job.priority.reduce((a, b) => a + b, 0) / job.priority.length;
  while (next < farm.jobs.length || waiting.length > 0) {
    // Next event: an arrival or a completion.
    let tNext =
      next < farm.jobs.length ? (farm.jobs[next] as FarmJob).submit : Number.POSITIVE_INFINITY;
    for (let m = 0; m < M; m++)
      if (runningOn[m] !== -1) tNext = Math.min(tNext, busyUntil[m] as number);
    if (tNext === Number.POSITIVE_INFINITY) break; // only jobs that can run nowhere are left
    t = tNext;
    for (let m = 0; m < M; m++) {
      if (runningOn[m] !== -1 && (busyUntil[m] as number) <= t) {
        const job = farm.jobs[runningOn[m] as number] as FarmJob;
        for (const name of Object.keys(job.licenses)) used[name] = (used[name] as number) - 1;
        runningOn[m] = -1;
      }
    }
    while (next < farm.jobs.length && (farm.jobs[next] as FarmJob).submit <= t)
      waiting.push(farm.jobs[next++] as FarmJob);
    const free: Record<string, number> = {};
    for (const name of farm.licenseNames)
      free[name] = (farm.copies[name] as number) - (used[name] as number);
    const costs = waiting.map(costOf);
    const pm = preMatch({ jobs: waiting, copies: free, costs });
    if (pm.clusters.length > 0) {
      snapshots.push({
        time: t,
        waiting: waiting.length,
        instances: pm.clusters.map((c) => c.instance),
      });
    }
    const cleared = new Set(pm.clear);
    const order = waiting
      .map((job, i) => ({ job, cost: costs[i] as number }))
      .filter(({ job }) => !cleared.has(job.id))
      .sort((a, b) => b.cost - a.cost || a.job.id - b.job.id);
    const started = new Set<number>();
    for (const { job } of order) {
      let bestM = -1;
      for (const m of job.eligible) {
        if (runningOn[m] !== -1) continue;
        if (bestM === -1 || (farm.machineBench[m] as number) > (farm.machineBench[bestM] as number))
          bestM = m;
      }
      if (bestM === -1) continue;
      if (
        !Object.keys(job.licenses).every(
          (name) => (used[name] as number) < (farm.copies[name] as number),
        )
      )
        continue;
      for (const name of Object.keys(job.licenses)) used[name] = (used[name] as number) + 1;
      runningOn[bestM] = job.id;
      busyUntil[bestM] = t + (job.estimated * job.bench) / (farm.machineBench[bestM] as number);
      started.add(job.id);
    }
    if (started.size > 0) {
      const rest = waiting.filter((job) => !started.has(job.id));
      waiting.length = 0;
      waiting.push(...rest);
    }
  }
  return snapshots;
}
