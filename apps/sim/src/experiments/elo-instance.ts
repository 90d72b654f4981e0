import type { ExecutionModel } from "@sched/core";
import { hiddenSpeedModel, type SpeedDrift } from "@sched/workload";
import type { ExperimentInstance, ExperimentWorkload } from "./experiment.js";
import { generateWorkload } from "./workload.js";

/** What one instance of the competitive-matchmaking paper's setting is made of. */
export interface EloInstanceOptions {
  readonly machines: number;
  readonly jobs: number;
  readonly seed: number;
  /** Machine benchmarks, uniform, Mflops. @defaultValue [5, 9] */
  readonly speedMflops?: readonly [number, number];
  /** Machine 0 at the top speed. @defaultValue false */
  readonly pinFastest?: boolean;
  /** Job sizes, operations. @defaultValue [1e3, 9e9] */
  readonly operations?: readonly [number, number];
  /** @defaultValue "uniform" */
  readonly sizes?: "uniform" | "log-uniform";
  /** Offered load; 0: every job at time 0. @defaultValue 0 */
  readonly load?: number;
  /** Hidden per-(machine, job) speed fluctuation, relative. @defaultValue 0.1 */
  readonly fluctuation?: number;
  /**
   * The fastest `slowFraction` of the machines (by benchmark) run `driftFactor` times their speed
   * for the jobs submitted from the middle of the stream on. @defaultValue 0
   */
  readonly slowFraction?: number;
  /** @defaultValue 0.25 */
  readonly driftFactor?: number;
}

/** The @sched/workload `elo` model and options of an instance (what `sched-sim gen elo` takes). */
export function eloWorkloadOf(o: EloInstanceOptions): ExperimentWorkload {
  return {
    model: "elo",
    options: {
      jobs: o.jobs,
      machines: o.machines,
      speedMflops: o.speedMflops ?? [5, 9],
      pinFastest: o.pinFastest ?? false,
      operations: o.operations ?? [1e3, 9e9],
      sizes: o.sizes ?? "uniform",
      load: o.load ?? 0,
    },
  };
}

/** An elo instance and what its drift did: the machines' true mean speeds before and after. */
export interface EloInstance extends ExperimentInstance {
  /** The machines' hidden true speeds. */
  readonly executionModel: ExecutionModel;
  /** True mean speed of each machine before the drift (its benchmark). */
  readonly speeds: readonly number[];
  /** After the drift (equal to `speeds` without one). */
  readonly drifted: readonly number[];
  /** Submit time from which the drift applies (Infinity without one). */
  readonly driftFrom: number;
}

/**
 * One instance of the competitive-matchmaking paper's setting: @sched/workload's `elo` jobs and
 * machines (as `sched-sim gen elo` writes them for this seed) and @sched/workload's
 * `hiddenSpeedModel`, in which each machine really runs at its benchmark +- `fluctuation` per job
 * (and, with `slowFraction`, the fastest machines slow down for the second half of the stream).
 * The policies see only the benchmarks.
 */
export function eloInstance(o: EloInstanceOptions): EloInstance {
  const { jobs, platform } = generateWorkload(eloWorkloadOf(o), o.seed);
  const speeds = platform.machines.map((m) => m.speed);
  const slowFraction = o.slowFraction ?? 0;
  const factor = o.driftFactor ?? 0.25;
  const driftFrom =
    slowFraction > 0 ? (jobs[Math.floor(jobs.length / 2)]?.submit ?? 0) : Number.POSITIVE_INFINITY;
  const drifts: SpeedDrift[] = speeds
    .map((s, i) => [s, i] as const)
    .sort((x, y) => y[0] - x[0] || x[1] - y[1])
    .slice(0, Math.ceil(speeds.length * slowFraction))
    .map(([, machine]) => ({ machine, from: driftFrom, factor }));
  const drifted = speeds.slice();
  for (const d of drifts) drifted[d.machine]! *= d.factor;
  const executionModel = hiddenSpeedModel({
    speeds,
    fluctuation: o.fluctuation ?? 0.1,
    seed: o.seed,
    drifts,
  });
  return { jobs, platform, executionModel, speeds, drifted, driftFrom };
}
