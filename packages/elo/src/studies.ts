import {
  computeMetrics,
  type Job,
  type Scheduler,
  type ScheduleTrace,
  simulate,
} from "@sched/core";
import { maxMinScheduler, minMinScheduler } from "./batch-scheduler.js";
import { competitiveScheduler } from "./competitive-scheduler.js";
import { hiddenSpeedModel, type SpeedDrift } from "./hidden-speed-model.js";
import { mctScheduler } from "./mct-scheduler.js";
import { eloInstance, eloPlatform, eloWorkload, meanLogUniform } from "./paper-setup.js";
import { randomScheduler } from "./random-scheduler.js";

/** A mean over seeds with its Student-t 95% confidence half-width. */
export interface StudySummary {
  readonly mean: number;
  /** Half-width of the 95% confidence interval (NaN for one run). */
  readonly ci95: number;
  readonly runs: number;
}

// Two-sided 95% Student-t quantiles for 1..30 degrees of freedom.
const T95 = [
  12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.16, 2.145,
  2.131, 2.12, 2.11, 2.101, 2.093, 2.086, 2.08, 2.074, 2.069, 2.064, 2.06, 2.056, 2.052, 2.048,
  2.045, 2.042,
];

/**
 * Mean and Student-t 95% confidence half-width of `values`.
 *
 * Complexity: O(n).
 *
 * @example
 * ```ts
 * summarizeRuns([1, 2, 3]); // { mean: 2, ci95: 2.484…, runs: 3 }
 * ```
 */
export function summarizeRuns(values: readonly number[]): StudySummary {
  const n = values.length;
  if (n === 0) return { mean: Number.NaN, ci95: Number.NaN, runs: 0 };
  const mean = values.reduce((s, v) => s + v, 0) / n;
  if (n === 1) return { mean, ci95: Number.NaN, runs: 1 };
  const variance = values.reduce((s, v) => s + (v - mean) ** 2, 0) / (n - 1);
  const t = n - 1 <= T95.length ? T95[n - 2]! : 1.96;
  return { mean, ci95: t * Math.sqrt(variance / n), runs: n };
}

/**
 * The five policies the studies compare, in report order: competitive, min-min, random (seeded
 * with `seed`), max-min, mct; `create` gives a fresh instance per run.
 *
 * Complexity: O(1).
 *
 * @example
 * ```ts
 * studyPolicies(1).map((p) => p.name); // ["competitive", "min-min", "random", "max-min", "mct"]
 * ```
 */
export function studyPolicies(seed: number): { name: string; create: () => Scheduler }[] {
  return [
    { name: "competitive", create: () => competitiveScheduler() },
    { name: "min-min", create: () => minMinScheduler() },
    { name: "random", create: () => randomScheduler({ seed }) },
    { name: "max-min", create: () => maxMinScheduler() },
    { name: "mct", create: () => mctScheduler() },
  ];
}

/** Options of {@link batchStudy}. */
export interface BatchStudyOptions {
  /** Machine counts. @defaultValue [30, 60] */
  readonly machines?: readonly number[];
  /** Job-set sizes. @defaultValue [10, 15, 20, 40, 60] */
  readonly jobSets?: readonly number[];
  /** Seeds 1..seeds per point. @defaultValue 10 */
  readonly seeds?: number;
  /** Per-job fluctuation of the true speeds around the benchmarks (see {@link hiddenSpeedModel}). @defaultValue 0.1 */
  readonly fluctuation?: number;
}

/** One point of {@link batchStudy}. */
export interface BatchStudyRow {
  readonly machines: number;
  readonly jobs: number;
  readonly scheduler: string;
  /** Total execution time of the set (all jobs submitted at 0), seconds. */
  readonly makespan: StudySummary;
  readonly meanResponse: StudySummary;
  /** Makespan divided by Min-Min's on the same instance (paired over seeds; < 1 is better). */
  readonly makespanVsMinMin: StudySummary;
}

/**
 * The paper's experiment (Fig. 3): sets of independent jobs (sizes 1e3..9e9 operations) submitted
 * together to 30 and 60 machines of 5..9 Mflops, each policy's total execution time (makespan)
 * and mean response time, mean and 95% CI over seeds. The baselines plan with the machines'
 * benchmarks; the machines really run at the benchmark +- `fluctuation` per job.
 *
 * Complexity: O(points x seeds x policies x simulation).
 *
 * @example
 * ```ts
 * batchStudy({ machines: [30], jobSets: [10], seeds: 3 }); // 5 rows, one per policy
 * ```
 */
export function batchStudy(options: BatchStudyOptions = {}): BatchStudyRow[] {
  const machineCounts = options.machines ?? [30, 60];
  const jobSets = options.jobSets ?? [10, 15, 20, 40, 60];
  const seeds = options.seeds ?? 10;
  const fluctuation = options.fluctuation ?? 0.1;
  const rows: BatchStudyRow[] = [];
  for (const machines of machineCounts) {
    for (const n of jobSets) {
      const acc = new Map<string, { makespan: number[]; response: number[]; ratio: number[] }>();
      for (let seed = 1; seed <= seeds; seed++) {
        const { jobs, platform, executionModel } = eloInstance({
          machines,
          jobs: n,
          seed,
          fluctuation,
        });
        const results = studyPolicies(seed).map((p) => ({
          name: p.name,
          metrics: computeMetrics(simulate(jobs, platform, p.create(), { executionModel })),
        }));
        const reference = results.find((r) => r.name === "min-min")!.metrics.makespan;
        for (const { name, metrics } of results) {
          const a = acc.get(name) ?? { makespan: [], response: [], ratio: [] };
          a.makespan.push(metrics.makespan);
          a.response.push(metrics.meanResponse);
          a.ratio.push(metrics.makespan / reference);
          acc.set(name, a);
        }
      }
      for (const [scheduler, a] of acc) {
        rows.push({
          machines,
          jobs: n,
          scheduler,
          makespan: summarizeRuns(a.makespan),
          meanResponse: summarizeRuns(a.response),
          makespanVsMinMin: summarizeRuns(a.ratio),
        });
      }
    }
  }
  return rows;
}

/** Options of {@link streamStudy}. */
export interface StreamStudyOptions {
  /** Machines. @defaultValue 30 */
  readonly machines?: number;
  /** Jobs per run. @defaultValue 4000 */
  readonly jobs?: number;
  /** The run is cut into this many windows of jobs, by submission order. @defaultValue 8 */
  readonly windows?: number;
  /** Offered load (mean work / capacity), sets the mean interarrival time. @defaultValue 0.7 */
  readonly load?: number;
  /** Seeds 1..seeds. @defaultValue 5 */
  readonly seeds?: number;
  /** Per-job speed fluctuation. @defaultValue 0.1 */
  readonly fluctuation?: number;
  /** Machine speed range, Mflops. @defaultValue 5 */
  readonly minSpeed?: number;
  /** @defaultValue 9 */
  readonly maxSpeed?: number;
  /**
   * Drift: the fastest `slowFraction` of the machines run `factor` times their speed for jobs
   * submitted after the middle of the run. 0 for no drift.
   * @defaultValue 0
   */
  readonly slowFraction?: number;
  /** @defaultValue 0.25 */
  readonly factor?: number;
}

/** Per-window results of {@link streamStudy}. */
export interface StreamStudyResult {
  /** Mean response time of the jobs of each window, per policy. */
  readonly response: readonly { scheduler: string; window: number; meanResponse: StudySummary }[];
  /**
   * Spearman rank correlation between the competitive ratings and the machines' true mean speeds
   * (after drift, once it applies) when the window's last job is submitted.
   */
  readonly convergence: readonly { window: number; rankCorrelation: StudySummary }[];
}

/** Spearman rank correlation (ties get their mean rank). @internal */
export function spearman(a: ArrayLike<number>, b: ArrayLike<number>): number {
  const ranks = (x: ArrayLike<number>): Float64Array => {
    const idx = Array.from({ length: x.length }, (_, i) => i).sort((i, j) => x[i]! - x[j]!);
    const r = new Float64Array(x.length);
    for (let i = 0; i < idx.length; ) {
      let j = i;
      while (j + 1 < idx.length && x[idx[j + 1]!] === x[idx[i]!]) j++;
      for (let k = i; k <= j; k++) r[idx[k]!] = (i + j) / 2;
      i = j + 1;
    }
    return r;
  };
  const ra = ranks(a);
  const rb = ranks(b);
  const n = ra.length;
  const mean = (n - 1) / 2;
  let num = 0;
  let da = 0;
  let db = 0;
  for (let i = 0; i < n; i++) {
    num += (ra[i]! - mean) * (rb[i]! - mean);
    da += (ra[i]! - mean) ** 2;
    db += (rb[i]! - mean) ** 2;
  }
  return da === 0 || db === 0 ? 0 : num / Math.sqrt(da * db);
}

/**
 * The long-run study (and, with `slowFraction > 0`, the drifting-speed study): a stream of jobs
 * at a given load on machines of `minSpeed..maxSpeed` Mflops; the mean response time of each
 * window of jobs shows whether a policy's schedule improves with time (the competitive ratings
 * converging) or degrades (the baselines' benchmarks going stale after a drift); the rank
 * correlation between ratings and true speeds shows whether the ratings learn the machines.
 *
 * Complexity: O(seeds x policies x simulation of `jobs` jobs).
 *
 * @example
 * ```ts
 * streamStudy({ jobs: 400, seeds: 2, windows: 4 }).response.length; // 5 policies x 4 windows
 * ```
 */
export function streamStudy(options: StreamStudyOptions = {}): StreamStudyResult {
  const machines = options.machines ?? 30;
  const n = options.jobs ?? 4000;
  const windows = options.windows ?? 8;
  const load = options.load ?? 0.7;
  const seeds = options.seeds ?? 5;
  const fluctuation = options.fluctuation ?? 0.1;
  const minSpeed = options.minSpeed ?? 5;
  const maxSpeed = options.maxSpeed ?? 9;
  const slowFraction = options.slowFraction ?? 0;
  const factor = options.factor ?? 0.25;
  const meanSize = meanLogUniform(1e-3, 9000);
  const meanRuntime = meanSize / ((minSpeed + maxSpeed) / 2);
  const meanInterarrival = meanRuntime / (machines * load);
  const windowOf = (id: number) => Math.floor((id * windows) / n);
  const response = new Map<string, number[][]>();
  const corr: number[][] = Array.from({ length: windows }, () => []);
  for (let seed = 1; seed <= seeds; seed++) {
    const platform = eloPlatform({ machines, minSpeed, maxSpeed, seed });
    const jobs = eloWorkload({ jobs: n, meanInterarrival, referenceSpeed: maxSpeed, seed });
    const speeds = platform.machines.map((m) => m.speed);
    const middle = jobs[Math.floor(n / 2)]?.submit ?? 0;
    const drifts: SpeedDrift[] = [];
    const fastest = speeds
      .map((s, i) => [s, i] as const)
      .sort((x, y) => y[0] - x[0] || x[1] - y[1])
      .slice(0, Math.ceil(machines * slowFraction));
    for (const [, machine] of fastest) drifts.push({ machine, from: middle, factor });
    const drifted = speeds.slice();
    for (const d of drifts) drifted[d.machine]! *= d.factor;
    const model = hiddenSpeedModel({ speeds, fluctuation, seed, drifts });
    const lastSubmit = windowEnds(jobs, windows, windowOf);
    for (const p of studyPolicies(seed)) {
      let scheduler = p.create();
      if (p.name === "competitive") {
        // snapshot the ratings when each window's last job is submitted
        const policy = competitiveScheduler();
        let next = 0;
        const inner = policy.schedule.bind(policy);
        scheduler = {
          name: policy.name,
          reset: (pl) => policy.reset!(pl),
          schedule(ctx) {
            while (next < windows && ctx.view.now >= lastSubmit[next]!) {
              const truth = lastSubmit[next]! >= middle && drifts.length > 0 ? drifted : speeds;
              corr[next]!.push(spearman(policy.snapshot().ratings, truth));
              next++;
            }
            inner(ctx);
          },
        };
      }
      const trace = simulate(jobs, platform, scheduler, { executionModel: model });
      const perWindow = windowMeans(trace, windows, windowOf);
      const list = response.get(p.name) ?? Array.from({ length: windows }, () => []);
      perWindow.forEach((v, w) => {
        list[w]!.push(v);
      });
      response.set(p.name, list);
    }
  }
  const rows: { scheduler: string; window: number; meanResponse: StudySummary }[] = [];
  for (const [scheduler, list] of response) {
    list.forEach((values, window) => {
      rows.push({ scheduler, window, meanResponse: summarizeRuns(values) });
    });
  }
  return {
    response: rows,
    convergence: corr.map((values, window) => ({ window, rankCorrelation: summarizeRuns(values) })),
  };
}

function windowEnds(
  jobs: readonly Job[],
  windows: number,
  windowOf: (id: number) => number,
): number[] {
  const ends = new Array<number>(windows).fill(Number.POSITIVE_INFINITY);
  for (const j of jobs) ends[windowOf(j.id)] = j.submit;
  return ends;
}

function windowMeans(
  trace: ScheduleTrace,
  windows: number,
  windowOf: (id: number) => number,
): number[] {
  const sum = new Float64Array(windows);
  const count = new Float64Array(windows);
  for (const r of trace.records) {
    if (r.end === null) continue;
    const w = windowOf(r.job.id);
    sum[w]! += r.end - r.job.submit;
    count[w]! += 1;
  }
  return Array.from(sum, (s, w) => s / count[w]!);
}
