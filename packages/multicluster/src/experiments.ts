import { computeMetrics, type Job, type Platform, type ScheduleTrace } from "@sched/core";
import type { ProfileOf } from "./cost.js";
import type { OasStatus } from "./mip.js";
import { OAS_RULES, type OasRule } from "./oas-heuristics.js";
import { runOas } from "./oas-run.js";
import { multiClusterPlatform } from "./platform.js";
import { type SpaceSharingPolicy, simulateSpaceSharing } from "./space-sharing.js";
import { simulateSpaceSharingOnCore } from "./space-sharing-core.js";
import { moldableWorkload, type OasWorkload, oasWorkload } from "./workloads.js";

/** Options of {@link spaceSharingExperiment}. */
export interface SpaceSharingExperimentOptions {
  /** Clusters. @defaultValue `8` */
  readonly clusters?: number;
  /** Processors per cluster. @defaultValue `8` */
  readonly nodes?: number;
  /** Offered loads. @defaultValue `[0.2, 0.4, 0.6, 0.8]` */
  readonly loads?: readonly number[];
  /** Jobs per run. @defaultValue `2000` */
  readonly jobs?: number;
  /** Background loads compared (0 = none). @defaultValue `[0, 0.3]` */
  readonly backgroundLoads?: readonly number[];
  /**
   * Speeds of the heterogeneous platform's clusters (cycled). @defaultValue
   * `[1, 1, 1.3, 1.3, 1.7, 1.7, 2.2, 2.2]` (assumed ratios in the spirit of the paper's Pentium
   * 3/4 SPECfp2000 figures, which it does not list)
   */
  readonly heterogeneousSpeeds?: readonly number[];
  /** @defaultValue `1` */
  readonly seed?: number;
  /**
   * `"own"`: the package's own simulator (`simulateSpaceSharing`, processors released one by
   * one); `"core"`: core's engine (`simulateSpaceSharingOnCore`, see its differences).
   * @defaultValue `"own"`
   */
  readonly engine?: "own" | "core";
}

/** One row of {@link spaceSharingExperiment}. */
export interface SpaceSharingRow {
  readonly policy: SpaceSharingPolicy;
  readonly heterogeneous: boolean;
  readonly backgroundLoad: number;
  readonly load: number;
  readonly meanResponse: number;
  readonly utilization: number;
  readonly makespan: number;
  readonly jobs: number;
}

/**
 * The first paper's experiment: mean response time and utilization against offered load for
 * the dynamic policy and adaptive partitioning, on a homogeneous and a heterogeneous
 * `clusters x nodes` platform, with and without background load. Same workload (seeded) for
 * both policies at each load. Pure and deterministic.
 *
 * Complexity: O(settings * jobs * P log P).
 *
 * @example
 * ```ts
 * spaceSharingExperiment({ loads: [0.5], jobs: 500 }).length; // 2 policies x 2 platforms x 2 background loads
 * ```
 */
export function spaceSharingExperiment(
  options: SpaceSharingExperimentOptions = {},
): SpaceSharingRow[] {
  const K = options.clusters ?? 8;
  const N = options.nodes ?? 8;
  const speeds = options.heterogeneousSpeeds ?? [1, 1, 1.3, 1.3, 1.7, 1.7, 2.2, 2.2];
  const rows: SpaceSharingRow[] = [];
  for (const heterogeneous of [false, true]) {
    const platform = multiClusterPlatform(
      Array.from({ length: K }, (_, k) => ({
        nodes: N,
        speed: heterogeneous ? speeds[k % speeds.length]! : 1,
        bandwidth: 12.5e6,
      })),
    );
    for (const backgroundLoad of options.backgroundLoads ?? [0, 0.3]) {
      for (const load of options.loads ?? [0.2, 0.4, 0.6, 0.8]) {
        const jobs = moldableWorkload({
          jobs: options.jobs ?? 2000,
          load,
          processors: K * N,
          maxParallelism: K * N,
          seed: options.seed ?? 1,
        });
        for (const policy of ["dynamic", "adaptive"] as const) {
          const opts = { policy, backgroundLoad, seed: options.seed ?? 1 };
          const r =
            options.engine === "core"
              ? simulateSpaceSharingOnCore(jobs, platform, opts)
              : simulateSpaceSharing(jobs, platform, opts);
          const completed = "records" in r ? r.records.length : r.completed;
          rows.push({
            policy,
            heterogeneous,
            backgroundLoad,
            load,
            meanResponse: r.meanResponse,
            utilization: r.utilization,
            makespan: r.makespan,
            jobs: completed,
          });
        }
      }
    }
  }
  return rows;
}

/** Options of {@link oasExperiment}. */
export interface OasExperimentOptions {
  /** Slot sizes for part (a), as fractions of the mean base time. @defaultValue `[0.15, 0.25, 0.5, 1, 1.5, 2, 2.5]` */
  readonly slotFractions?: readonly number[];
  /** Slot size for part (b), as a fraction of the mean base time. @defaultValue `0.5` */
  readonly comparisonFraction?: number;
  /** Workloads for part (b). @defaultValue `[1, 2, 3, 4, 5, 6]` */
  readonly workloads?: readonly (1 | 2 | 3 | 4 | 5 | 6)[];
  /** Workload of part (a). @defaultValue `3` */
  readonly slotWorkload?: 1 | 2 | 3 | 4 | 5 | 6;
  /** Jobs of each workload used (the first ones). @defaultValue `8` */
  readonly jobs?: number;
  /** HiGHS time limit per solve, seconds. @defaultValue `20` */
  readonly timeLimit?: number;
  /** @defaultValue `1` */
  readonly seed?: number;
}

/** A row of part (a): one slot size. */
export interface OasSlotRow {
  readonly fraction: number;
  readonly eta: number;
  readonly status: OasStatus;
  /** Slotted makespan of the MIP, seconds. */
  readonly mipMakespan: number | null;
  /** Makespan of the MIP's plan run by the core engine with the OAS cost model, each job at its slot. */
  readonly makespan: number | null;
  /** The same plan run compacted (`oasPlanScheduler` with `compact`). */
  readonly compactMakespan: number | null;
  /** The reported OAS makespan: the better compacted run of the solver's schedule and its warm start (`runOas`'s `best`). */
  readonly bestMakespan: number | null;
  /** Slotted makespan of the warm start the solver was given, seconds. */
  readonly warmStartMakespan: number | null;
  /** Where the warm start came from (`runOas`'s `warmStartOrigin`: `list <rule>` or `<rule> run`). */
  readonly warmStartSource: string | null;
  readonly gap: number | null;
  readonly solveTimeMs: number;
  /** Model size: variables, and the horizon after tightening. */
  readonly variables: number;
  readonly theta: number;
}

/** A row of part (b): one method on one workload. */
export interface OasComparisonRow {
  readonly workload: string;
  readonly method: "OAS" | OasRule;
  readonly makespan: number | null;
  readonly meanResponse: number | null;
  readonly utilization: number | null;
  /** OAS only: solver time and status. */
  readonly solveTimeMs?: number;
  readonly status?: OasStatus;
  /** OAS only: HiGHS' relative gap (0 when proven optimal). */
  readonly gap?: number | null;
  /** OAS only: makespan of the solver's own schedule run compacted. */
  readonly solverMakespan?: number | null;
  /** OAS only: which schedule `makespan` is (`runOas`'s `bestSource`). */
  readonly source?: "solver" | "warm start" | null;
  /** OAS only: where the warm start came from (`runOas`'s `warmStartOrigin`). */
  readonly warmStartSource?: string | null;
}

/** What {@link oasExperiment} returns. */
export interface OasExperimentResult {
  readonly slots: readonly OasSlotRow[];
  readonly comparison: readonly OasComparisonRow[];
}

/** The paper's platform: 3 clusters x 2 nodes, Gamma 1 / 0.75 / 0.5, Gigabit links. */
export function oasPlatform(): Platform {
  return multiClusterPlatform([
    { nodes: 2, speed: 1, bandwidth: 125e6 },
    { nodes: 2, speed: 0.75, bandwidth: 125e6 },
    { nodes: 2, speed: 0.5, bandwidth: 125e6 },
  ]);
}

async function runPoint(w: OasWorkload, platform: Platform, fraction: number, timeLimit: number) {
  const profile: ProfileOf = (job: Job) => w.profiles.get(job.id)!;
  const mean = w.jobs.reduce((s, j) => s + j.estimate, 0) / Math.max(1, w.jobs.length);
  const eta = fraction * mean;
  const run = await runOas(w.jobs, platform, { eta, profile, timeLimit });
  const metrics = (t: ScheduleTrace | null) => (t === null ? null : computeMetrics(t));
  return {
    run,
    eta,
    metrics: metrics(run.atSlots),
    compacted: metrics(run.compacted),
    best: metrics(run.best),
  };
}

/**
 * The OAS paper's experiments on {@link oasPlatform}: (a) the slot size from 15% to 250% of
 * the mean base time on one workload: the MIP's slotted makespan, the makespan of its plan run
 * by the core engine, the gap and the solve time; (b) OAS against the six heuristics on
 * WL-1..WL-6 ({@link oasWorkload}), every method run by the core engine with the OAS cost
 * model (makespan, mean response, utilization; OAS's plan run compacted, so that it is not
 * charged the idle time of slot rounding that the heuristics, which run in continuous time, do
 * not pay). Deterministic but for `solveTimeMs` and for
 * time-limited solves, whose incumbents depend on the machine's speed.
 *
 * Complexity: up to `(fractions + workloads) * timeLimit` seconds of solving.
 *
 * @example
 * ```ts
 * const { slots, comparison } = await oasExperiment({ timeLimit: 5 });
 * ```
 */
export async function oasExperiment(
  options: OasExperimentOptions = {},
): Promise<OasExperimentResult> {
  const platform = oasPlatform();
  const seed = options.seed ?? 1;
  const timeLimit = options.timeLimit ?? 20;
  const cut = (w: OasWorkload): OasWorkload => ({ ...w, jobs: w.jobs.slice(0, options.jobs ?? 8) });
  const slots: OasSlotRow[] = [];
  const wa = cut(oasWorkload(options.slotWorkload ?? 3, seed));
  for (const fraction of options.slotFractions ?? [0.15, 0.25, 0.5, 1, 1.5, 2, 2.5]) {
    const { run, eta, metrics, compacted, best } = await runPoint(
      wa,
      platform,
      fraction,
      timeLimit,
    );
    const r = run.result;
    slots.push({
      fraction,
      eta,
      status: r.status,
      mipMakespan: r.makespan,
      makespan: metrics?.makespan ?? null,
      compactMakespan: compacted?.makespan ?? null,
      bestMakespan: best?.makespan ?? null,
      warmStartMakespan: r.warmStartSlots === null ? null : r.warmStartSlots * r.eta,
      warmStartSource: run.warmStartOrigin,
      gap: r.gap,
      solveTimeMs: r.solveTimeMs,
      variables: r.variables,
      theta: r.theta,
    });
  }
  const comparison: OasComparisonRow[] = [];
  for (const which of options.workloads ?? [1, 2, 3, 4, 5, 6]) {
    const w = cut(oasWorkload(which, seed));
    const { run, compacted, best } = await runPoint(
      w,
      platform,
      options.comparisonFraction ?? 0.5,
      timeLimit,
    );
    const r = run.result;
    comparison.push({
      workload: w.name,
      method: "OAS",
      makespan: best?.makespan ?? null,
      meanResponse: best?.meanResponse ?? null,
      utilization: best?.utilization ?? null,
      solveTimeMs: r.solveTimeMs,
      status: r.status,
      gap: r.gap,
      solverMakespan: compacted?.makespan ?? null,
      source: run.bestSource,
      warmStartSource: run.warmStartOrigin,
    });
    for (const rule of OAS_RULES) {
      const m = computeMetrics(run.heuristics.get(rule)!);
      comparison.push({
        workload: w.name,
        method: rule,
        makespan: m.makespan,
        meanResponse: m.meanResponse,
        utilization: m.utilization,
      });
    }
  }
  return { slots, comparison };
}
