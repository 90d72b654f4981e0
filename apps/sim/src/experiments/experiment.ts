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

/** One run of an experiment that runs its policies itself (see {@link Experiment.run}). */
export interface ExperimentRunInput {
  /** The point's workload and platform: `instance(value, seed, quick)`, built once per point and seed. */
  readonly instance: ExperimentInstance;
  /** The swept parameter's value. */
  readonly value: number;
  readonly seed: number;
  /** The policy: one of `schedulers()` (matched by label). */
  readonly scheduler: SchedulerChoice;
  readonly quick: boolean;
}

/** What {@link Experiment.run} returns for one run. */
export interface ExperimentRunResult {
  /**
   * The run's numbers, recorded like core's metrics (every key of `metrics` should be here;
   * NaN where undefined). Wall-clock figures reported as metrics (a solver's time) make the
   * records differ from one execution to the next: say so in the experiment's description.
   */
  readonly metrics: Readonly<Record<string, number>>;
  /** Events processed by the run's simulator (0 when it does not count them). */
  readonly events: number;
  /** Times the policy ran. */
  readonly decisions: number;
  /**
   * Wall-clock ms spent inside the policy, or in the whole run when the two cannot be told
   * apart (the run file's `timing.schedulerMs`, kept apart from the record).
   */
  readonly schedulerMs: number;
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
  /**
   * Runs one run itself instead of the runner simulating `instance` with a core scheduler, for
   * policies that are not core schedulers (a package's own simulator, a MIP solver). The
   * runner records what it returns as the run's record (results.csv, runs.csv, resume and
   * `compare` work as for other experiments); `measure` is not called, and `report` draws no
   * Gantt chart (there is no core trace to redraw). The `schedulers()` of such an experiment
   * are only names, labels and options: the runner never calls their `create`.
   * @defaultValue none: the runner simulates `instance` with the scheduler
   */
  run?(input: ExperimentRunInput): ExperimentRunResult | Promise<ExperimentRunResult>;
}
