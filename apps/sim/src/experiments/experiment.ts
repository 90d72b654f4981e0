import type { ExecutionModel, Job, Platform, ScheduleTrace } from "@sched/core";
import type { SchedulerChoice } from "../schedulers.js";
import type { Summary } from "../stats.js";
import type { GridAxis, ParameterSpec, Params, ParamValue } from "./parameters.js";

/** A metric an experiment reports: its key in the tidy results and how to read it from a run. */
export interface ExperimentMetric {
  /** Column value in `results.csv`, e.g. `"meanWait"`. */
  readonly key: string;
  /** Title in the printed table, e.g. `"mean wait (s)"`. */
  readonly title: string;
  /** Decimals in the printed table. */
  readonly digits: number;
  /**
   * Which way is better, for the "best" marks of `compare` and the report: `"lower"`,
   * `"higher"`, or `"none"` for a property of the workload or the solver rather than a quality
   * of the policy (offered load, search nodes, variables).
   */
  readonly better: "lower" | "higher" | "none";
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

/** A @sched/workload model and its options (see {@link Experiment.workload}). */
export interface ExperimentWorkload {
  /** A name of `WORKLOAD_MODELS`, as `sched-sim gen` takes it. */
  readonly model: string;
  /** The model's options but `seed`, typed (numbers, booleans, choices, ranges as `[lo, hi]`). */
  readonly options: Readonly<Record<string, unknown>>;
}

/** One run of an experiment that runs its policies itself (see {@link Experiment.run}). */
export interface ExperimentRunInput {
  /** The point's workload and platform: `instance(params, seed)`, built once per point and seed. */
  readonly instance: ExperimentInstance;
  /** Every parameter's value at this point (defaults, `--set` values and the grid point's). */
  readonly params: Params;
  readonly seed: number;
  /** The policy: one of `schedulers(params)` (matched by label), its options overridden as set. */
  readonly scheduler: SchedulerChoice;
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
 * A named, reproducible experiment, declared as data: its parameters (every knob, each with a
 * default, a meaning and a source), the default grid over some of them, seeds, schedulers and
 * metrics. Each run is a pure function of (parameter values, seed, scheduler), so runs can be
 * spread over workers, cached and resumed; the runner summarizes every metric over seeds (mean,
 * Student-t 95% CI). `sched-sim reproduce NAME --params | --set k=v | --vary k=a,b` read these
 * declarations, as do experiment files (`sweep`) that name the experiment.
 */
export interface Experiment {
  /** Name used on the command line: `sched-sim reproduce NAME`. */
  readonly name: string;
  /** One line for `--list`. */
  readonly title: string;
  /** What it measures, on which workload (and where the workload comes from). */
  readonly description: string;
  /**
   * Every parameter, in `--params` order: heuristic constants, workload parameters the paper
   * fixes, solver budgets, interpretation switches. Each has a default. (The options of the
   * experiment's schedulers are parameters too, named `LABEL.key`; they need not be listed.)
   */
  readonly parameters: readonly ParameterSpec[];
  /**
   * Constraints between parameters that their specs cannot state (`estimateMin <= estimateMax`):
   * one message per violation, naming the parameters, checked at every grid point before any
   * run starts (`reproduce` and `sweep` then exit 2 with the messages).
   * @defaultValue none
   */
  check?(params: Params): readonly string[];
  /** The default grid: the swept parameters and their values, first axis outermost. */
  grid(quick: boolean): readonly GridAxis[];
  /** Seeds per point when `--seeds` is not given. */
  defaultSeeds(quick: boolean): number;
  /**
   * The schedulers compared, in order, with the options that `params` imply. Their labels must
   * not depend on `params`: they name the rows of the results at every grid point.
   */
  schedulers(params: Params): readonly SchedulerChoice[];
  /** The metrics reported, in order; keys of core's `Metrics` or of `measure`/`run`. */
  readonly metrics: readonly ExperimentMetric[];
  /**
   * The @sched/workload model and options that generate the jobs at `params`, when they come
   * from one: `sched-sim gen MODEL` with these options and the run's seed writes exactly the
   * jobs the run uses (a test checks it for every experiment that declares it). Options are
   * typed as the model takes them (ranges as `[lo, hi]`).
   * @defaultValue none: the jobs come from elsewhere (the CLI's synthetic generator, a trace)
   */
  workload?(params: Params): ExperimentWorkload;
  /** The workload and platform for `params` and `seed` (same arguments, same instance). */
  instance(params: Params, seed: number): ExperimentInstance;
  /**
   * Metrics the experiment measures itself from a run's trace and instance, for metrics core's
   * `computeMetrics` does not define (the advance-reservation paper's slowdown counts the wait
   * from the ready time; ratios to a baseline run on the same instance and seed). The runner
   * records them beside core's; a key here replaces core's metric of the same name in the run's
   * record.
   * @defaultValue none: core's metrics only
   */
  measure?(
    trace: ScheduleTrace,
    instance: ExperimentInstance,
    params: Params,
    seed: number,
  ): Readonly<Record<string, number>>;
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
  /**
   * The paper's figures this experiment reproduces, as data: `report` draws each with the
   * paper's axes and caption and checks each of its claims against the results.
   * @defaultValue none: `report` plots every metric against the first numeric grid axis only
   */
  readonly figures?: readonly ExperimentFigure[];
}

/** An axis of an {@link ExperimentFigure}. */
export interface FigureAxis {
  /** The axis title, in the paper's terms, e.g. `"late jobs (%)"`. */
  readonly label: string;
  /**
   * `"linear"` or `"log"`; y only. @defaultValue `"linear"` (from 0, or from `min`)
   */
  readonly scale?: "linear" | "log";
  /** y only: the axis starts at this value (or lower if the data goes lower). @defaultValue 0 */
  readonly min?: number;
  /** y only: the axis reaches at least this value. @defaultValue the data's maximum */
  readonly max?: number;
  /**
   * x only: tick labels of the grid values (keys `String(value)`), e.g. `{ "1": "WL-1" }`; the
   * values are then spaced evenly, as categories. @defaultValue the numbers, on a linear scale
   */
  readonly ticks?: Readonly<Record<string, string>>;
  /** x only: a short name for claims' details, e.g. `"T_a"` (`"T_a = 4"`). @defaultValue the parameter */
  readonly short?: string;
}

/** A series of an {@link ExperimentFigure}: a policy (and metric), under the paper's name. */
export interface FigureSeries {
  /** The scheduler's label in the experiment. */
  readonly label: string;
  /** The paper's name for it, shown in the legend. @defaultValue `label` */
  readonly name?: string;
  /** The metric this series plots. @defaultValue the figure's `metric` */
  readonly metric?: string;
}

/**
 * A figure of the paper: one metric against one grid parameter, a series per policy, the
 * paper's axis titles and caption, and the claims the paper makes about it. Drawn by `report`
 * from a results directory of the experiment; with other grid axes (`--vary`), a panel per
 * combination of their values.
 */
export interface ExperimentFigure {
  /** The paper's name for the figure, e.g. `"Fig. 4"` or `"§4.1"`; unique in the experiment. */
  readonly id: string;
  /** The paper's caption (verbatim where it has one), and what this figure shows differently. */
  readonly caption: string;
  /** The metric on y: a key of the runs' records, or of the wall-clock timing with `timing`. */
  readonly metric: string;
  /**
   * The metric is a wall-clock figure of `timing.csv` (`schedTimeMs`, `schedulerMs`, `wallMs`),
   * not of the records: it differs between executions. @defaultValue false
   */
  readonly timing?: boolean;
  /** The grid parameter on x, and its axis. */
  readonly x: FigureAxis & { readonly param: string };
  readonly y: FigureAxis;
  /** `"line"`, or `"bar"` (a group of bars per x value). @defaultValue "line" */
  readonly kind?: "line" | "bar";
  /** The series, in legend order. @defaultValue every scheduler of the experiment, under its label */
  readonly series?: readonly FigureSeries[];
  /** What the paper says the figure shows, each checked against the results. @defaultValue none */
  readonly claims?: readonly FigureClaim[];
}

/**
 * One claim of the paper about a figure, in one line, and a function of the results that says
 * at how many points (or steps, or pairs) it holds.
 */
export interface FigureClaim {
  /** The claim in the figure's terms, e.g. "every CS variant has fewer late jobs than every baseline". */
  readonly text: string;
  /** Where the paper makes it, e.g. `"§6"`. */
  readonly source: string;
  /** Checks the claim on the results of one panel. */
  check(results: FigureResults): ClaimCheck;
}

/** At how many of the checked units a claim holds (see {@link FigureClaim.check}). */
export interface ClaimCheck {
  readonly held: number;
  /** Units checked (0: the claim cannot be checked on these results; say why in `detail`). */
  readonly of: number;
  /** What a unit is, plural: `"points"`, `"steps"`. */
  readonly unit: string;
  /** Where it fails, or the numbers behind it, in a few words. @defaultValue none */
  readonly detail?: string;
}

/** The results of one panel of a figure, as a claim sees them. */
export interface FigureResults {
  /** The x values (grid values of the figure's parameter), in grid order. */
  readonly xs: readonly ParamValue[];
  /** The labels of the experiment's schedulers that have results, in the plan's order. */
  readonly schedulers: readonly string[];
  /**
   * Mean, 95% CI half-width and runs of `metric` (default: the figure's) for the scheduler
   * labelled `scheduler` at `x`; undefined when it has no finished run there.
   */
  value(scheduler: string, x: ParamValue, metric?: string): Summary | undefined;
  /** The paper's name of a scheduler (its series name), else its label. */
  name(scheduler: string): string;
  /** An x value as the figure writes it, e.g. `"T_a = 4"`. */
  at(x: ParamValue): string;
  /**
   * The value of parameter `name` in this panel: its grid value when it is a grid axis other
   * than x, else the value every run had (a default or a `--set` value); undefined for x itself
   * and for a parameter the results do not record (a sweep file's workload).
   */
  param(name: string): ParamValue | undefined;
  /**
   * The panels along another grid axis `axis` (this one among them), the other axes as in this
   * one, in the axis's order (numbers ascending): for claims that compare panels (Figure 3's
   * streams, one panel per T_a). Empty when `axis` is not another grid axis.
   */
  across(axis: string): readonly FigureResults[];
}
