import type { ExecutionModel, Job, Platform, ScheduleTrace } from "@sched/core";
import type { SchedulerChoice } from "../schedulers.js";

/** A metric an experiment reports: its key in the tidy results and how to read it from a run. */
export interface ExperimentMetric {
  /** Column value in `results.csv`, e.g. `"meanWait"`. */
  readonly key: string;
  /** Title in the printed table, e.g. `"mean wait (s)"`. */
  readonly title: string;
  /** Decimals in the printed table. */
  readonly digits: number;
}

/** The workload and platform of one grid point, and how its jobs really run. */
export interface ExperimentInstance {
  readonly jobs: readonly Job[];
  readonly platform: Platform;
  /**
   * How long jobs really run (hidden from the policies), passed to `simulate`.
   * @defaultValue core's `defaultExecutionModel`
   */
  readonly executionModel?: ExecutionModel;
}

/**
 * A named, reproducible experiment: a grid of one swept parameter x schedulers x seeds. Each
 * run is a pure function of (parameter value, seed, scheduler), so runs can be spread over
 * workers, cached and resumed; the runner summarizes every metric over seeds (mean, Student-t
 * 95% CI).
 */
export interface Experiment {
  /** Name used on the command line: `sched-sim reproduce NAME`. */
  readonly name: string;
  /** One line for `--list`. */
  readonly title: string;
  /** What it measures, on which workload (and where the workload comes from). */
  readonly description: string;
  /** The swept parameter's name (the `param` column of `results.csv`). */
  readonly param: string;
  /** Its values, in order; `quick` gives a smaller grid for smoke tests. */
  values(quick: boolean): readonly number[];
  /** Seeds per point when `--seeds` is not given. */
  defaultSeeds(quick: boolean): number;
  /** The schedulers compared, in order (those of the registry that apply). */
  schedulers(): readonly SchedulerChoice[];
  /** The metrics reported, in order; keys of core's `Metrics`. */
  readonly metrics: readonly ExperimentMetric[];
  /** The workload and platform at `value` for `seed` (same arguments, same instance). */
  instance(value: number, seed: number, quick: boolean): ExperimentInstance;
  /**
   * Metrics the experiment measures itself from a run's trace and instance, for metrics core's
   * `computeMetrics` does not define (the advance-reservation paper's slowdown counts the wait
   * from the ready time). The runner records them beside core's; a key here replaces core's
   * metric of the same name in the run's record.
   * @defaultValue none: core's metrics only
   */
  measure?(trace: ScheduleTrace, instance: ExperimentInstance): Readonly<Record<string, number>>;
}
