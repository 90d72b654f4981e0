import {
  createPlatform,
  InvalidInputError,
  type Job,
  type ScheduleTrace,
  simulate,
} from "@sched/core";
import { type AllocationPolicy, paperPolicies } from "./policies.js";
import { advanceReservation } from "./scheduler.js";

const WHERE = "@sched/advance-reservation/runArExperiment";

/** The workload parameters of one point of a study (section 6.1). */
export interface ArStudyPoint {
  /** The point's label on the x axis, e.g. `"7"`, `"1.25"` or `"{3,3}"`. */
  readonly label: string;
  /** `UMed` of the two-stage uniform size distribution (log2 of the size), 5..9. */
  readonly umed: number;
  /** Arrival times are divided by it: higher is more load. */
  readonly arrivalFactor: number;
  /** ready = arrival + artimeFactor * U[0,1] * duration. */
  readonly artimeFactor: number;
  /** deadline = ready + (1 + deadlineFactor * U[0,1]) * duration. */
  readonly deadlineFactor: number;
}

/** One of the paper's three studies: its x axis and its points. */
export interface ArStudy {
  /** `"umed"` (Figures 2-3), `"arrival"` (Figures 4-5) or `"flexibility"` (Figures 6-7). */
  readonly id: string;
  /** What varies along the x axis. */
  readonly x: string;
  readonly points: readonly ArStudyPoint[];
}

const point = (
  label: string,
  umed: number,
  arrivalFactor: number,
  artimeFactor: number,
  deadlineFactor: number,
): ArStudyPoint => ({ label, umed, arrivalFactor, artimeFactor, deadlineFactor });

/**
 * The paper's three studies (section 6.2): UMed 5..9 with arrival factor 1 and factors {3,3};
 * arrival factor 0.5..1.5 step 0.25 with UMed 7 and {3,3}; {artime, deadline} factors
 * {1,1}..{5,5} with UMed 7 and arrival factor 1.
 */
export const arStudies: readonly ArStudy[] = [
  { id: "umed", x: "UMed", points: [5, 6, 7, 8, 9].map((u) => point(`${u}`, u, 1, 3, 3)) },
  {
    id: "arrival",
    x: "arrival factor",
    points: [0.5, 0.75, 1, 1.25, 1.5].map((af) => point(`${af}`, 7, af, 3, 3)),
  },
  {
    id: "flexibility",
    x: "{artime factor, deadline factor}",
    points: [1, 2, 3, 4, 5].map((f) => point(`{${f},${f}}`, 7, 1, f, f)),
  },
];

/** What the workload generator receives: a study point plus the run's size and seed. */
export interface ArWorkloadParams extends ArStudyPoint {
  /** Jobs to generate. */
  readonly jobs: number;
  /** PEs of the machine (the LANL-CM5 has 1024). */
  readonly pes: number;
  /** Seed of this run's workload. */
  readonly seed: number;
}

/** Options of {@link runArExperiment}. */
export interface ArExperimentOptions {
  /** The studies to run. @defaultValue {@link arStudies} (all three) */
  readonly studies?: readonly ArStudy[];
  /** The policies compared. @defaultValue {@link paperPolicies} (all seven) */
  readonly policies?: readonly AllocationPolicy[];
  /** Independent runs (workload seeds) per point, for the confidence intervals (>= 1). @defaultValue 5 */
  readonly runs?: number;
  /** Jobs per run (the paper: 10^4). @defaultValue 10000 */
  readonly jobs?: number;
  /** PEs of the machine. @defaultValue 1024 */
  readonly pes?: number;
  /** Run `r` (0-based) of every point uses workload seed `seed + r`. @defaultValue 1 */
  readonly seed?: number;
  /** Called after each simulation with (simulations done, simulations in total). */
  readonly onProgress?: (done: number, total: number) => void;
}

/** A mean over runs with its 95% confidence interval (Student's t). */
export interface Estimate {
  readonly mean: number;
  /** Half width of the 95% interval; NaN with a single run. */
  readonly halfWidth: number;
  /** The per-run values, in run order. */
  readonly values: readonly number[];
}

/** One (study, point, policy) cell of the results. */
export interface ArExperimentRow {
  readonly study: string;
  readonly point: ArStudyPoint;
  readonly policy: string;
  /** Fraction of requests accepted, in [0, 1]. */
  readonly acceptanceRate: Estimate;
  /** Mean over accepted jobs of (end - ready) / (end - start): the paper's slowdown, waiting counted from the ready time. */
  readonly meanSlowdown: Estimate;
}

/** The paper's two metrics of one run (section 6.1). */
export interface ArMetrics {
  /** Jobs not rejected / all jobs; NaN for an empty trace. */
  readonly acceptanceRate: number;
  /** Mean over completed jobs of `(start - ready + runtime) / runtime` with runtime = end - start; NaN when none completed. */
  readonly meanSlowdown: number;
}

/**
 * The paper's metrics of a trace: acceptance rate, and slowdown with the waiting time counted
 * from the ready time (not from submission, unlike `computeMetrics` of `@sched/core`).
 *
 * Complexity: O(records).
 *
 * @example
 * ```ts
 * // One PE; job 0 runs [0, 10) (deadline 10), job 1 (ready 5) runs [10, 20), job 2 (2 PEs) is rejected.
 * arMetrics(simulate(jobs, identicalPool(1), advanceReservation()));
 * // { acceptanceRate: 2 / 3, meanSlowdown: (1 + 1.5) / 2 }
 * ```
 */
export function arMetrics(trace: ScheduleTrace): ArMetrics {
  let accepted = 0;
  let completed = 0;
  let sum = 0;
  for (const r of trace.records) {
    if (r.outcome === "rejected") continue;
    accepted++;
    if (r.outcome !== "completed" || r.intervals.length === 0) continue;
    const start = r.intervals[0]!.start;
    const end = r.end as number;
    const ready = r.job.ready ?? r.job.submit;
    completed++;
    sum += (end - ready) / (end - start);
  }
  const n = trace.records.length;
  return {
    acceptanceRate: n > 0 ? accepted / n : Number.NaN,
    meanSlowdown: completed > 0 ? sum / completed : Number.NaN,
  };
}

/** Two-sided 95% Student t quantiles for 1..30 degrees of freedom. */
const T95 = [
  12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.16, 2.145,
  2.131, 2.12, 2.11, 2.101, 2.093, 2.086, 2.08, 2.074, 2.069, 2.064, 2.06, 2.056, 2.052, 2.048,
  2.045, 2.042,
];

/** 97.5% quantile of Student's t with `df` degrees of freedom (table, then a Cornish-Fisher expansion). */
function t975(df: number): number {
  if (df <= 30) return T95[df - 1]!;
  const z = 1.959964;
  return z + (z ** 3 + z) / (4 * df) + (5 * z ** 5 + 16 * z ** 3 + 3 * z) / (96 * df * df);
}

/**
 * Mean and 95% confidence half width of `values` (Student's t, sample standard deviation).
 *
 * @example
 * ```ts
 * estimate([1, 2, 3]); // { mean: 2, halfWidth: 2.484, values: [1, 2, 3] }
 * ```
 */
export function estimate(values: readonly number[]): Estimate {
  const n = values.length;
  const mean = values.reduce((s, v) => s + v, 0) / n;
  if (n < 2) return { mean, halfWidth: Number.NaN, values: [...values] };
  const variance = values.reduce((s, v) => s + (v - mean) ** 2, 0) / (n - 1);
  return {
    mean,
    halfWidth: (t975(n - 1) * Math.sqrt(variance)) / Math.sqrt(n),
    values: [...values],
  };
}

function positiveInteger(field: string, value: unknown): number {
  if (typeof value !== "number" || !Number.isInteger(value) || value < 1) {
    throw new InvalidInputError(WHERE, field, `is ${String(value)}, expected an integer >= 1`);
  }
  return value;
}

/**
 * The paper's experiments (section 6.2): for every study point and every run, generates one
 * workload with `generate` and simulates every policy on it (the policies see identical
 * workloads), then reports each policy's acceptance rate and mean slowdown as a mean over runs
 * with a 95% confidence interval. The workload generator is passed in (the CLI passes the
 * Lublin-Feitelson LANL-CM5 generator of `@sched/workload`), so this package does not depend on
 * a particular one.
 *
 * Complexity: (points x runs) generations plus (points x runs x policies) simulations of
 * `jobs` jobs on a `pes`-PE {@link advanceReservation} scheduler.
 *
 * @throws InvalidInputError when `generate` is not a function or `runs`, `jobs`, `pes` are not
 * positive integers, `seed` is not an integer, or `policies` is empty.
 *
 * @example
 * ```ts
 * // `lanlArWorkload(params)`: your generator of the paper's LANL-CM5 AR workload.
 * const rows = runArExperiment(lanlArWorkload, { studies: [arStudies[0]], runs: 3 });
 * rows[0]; // { study: "umed", point: { label: "5", … }, policy: "FF", acceptanceRate: { mean, halfWidth, values }, meanSlowdown: … }
 * ```
 */
export function runArExperiment(
  generate: (params: ArWorkloadParams) => Iterable<Job>,
  options: ArExperimentOptions = {},
): ArExperimentRow[] {
  if (typeof generate !== "function") {
    throw new InvalidInputError(WHERE, "generate", "is not a function");
  }
  const studies = options.studies ?? arStudies;
  const policies = options.policies ?? paperPolicies;
  if (policies.length === 0) throw new InvalidInputError(WHERE, "options.policies", "is empty");
  const runs = positiveInteger("options.runs", options.runs ?? 5);
  const jobs = positiveInteger("options.jobs", options.jobs ?? 10_000);
  const pes = positiveInteger("options.pes", options.pes ?? 1024);
  const seed = options.seed ?? 1;
  if (!Number.isInteger(seed)) {
    throw new InvalidInputError(WHERE, "options.seed", `is ${seed}, expected an integer`);
  }
  // One machine of `pes` cores: the structure picks the PEs exactly as on identicalPool(pes)
  // (same decisions, same metrics), and the engine books one allocation part instead of `n`.
  const platform = createPlatform({ machines: [{ cores: pes }] });
  const total = studies.reduce((s, st) => s + st.points.length, 0) * runs * policies.length;
  let done = 0;
  const rows: ArExperimentRow[] = [];
  for (const study of studies) {
    for (const p of study.points) {
      const acceptance: number[][] = policies.map(() => []);
      const slowdown: number[][] = policies.map(() => []);
      for (let r = 0; r < runs; r++) {
        const workload = [...generate({ ...p, jobs, pes, seed: seed + r })];
        policies.forEach((policy, i) => {
          const m = arMetrics(simulate(workload, platform, advanceReservation({ policy })));
          acceptance[i]!.push(m.acceptanceRate);
          slowdown[i]!.push(m.meanSlowdown);
          done++;
          options.onProgress?.(done, total);
        });
      }
      policies.forEach((policy, i) => {
        rows.push({
          study: study.id,
          point: p,
          policy: policy.name,
          acceptanceRate: estimate(acceptance[i]!),
          meanSlowdown: estimate(slowdown[i]!),
        });
      });
    }
  }
  return rows;
}
