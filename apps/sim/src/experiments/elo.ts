import { type Scheduler, type ScheduleTrace, simulate } from "@sched/core";
import { type CompetitiveScheduler, TIER_SEARCHES } from "@sched/elo";
import type { OptionValue } from "../scheduler-options.js";
import { chooseScheduler, createScheduler, type SchedulerChoice } from "../schedulers.js";
import { ELO_BATCH_FIGURES, ELO_STREAM_FIGURES } from "./elo-figures.js";
import {
  type EloInstance,
  type EloInstanceOptions,
  eloInstance,
  eloWorkloadOf,
} from "./elo-instance.js";
import { spearman, windowOf, windowTotals } from "./elo-measures.js";
import type { Experiment, ExperimentInstance, ExperimentRunResult } from "./experiment.js";
import {
  booleanParam,
  numberParam,
  numberSpec,
  type ParameterSpec,
  type Params,
  textParam,
} from "./parameters.js";
import { experimentScheduler } from "./resolve.js";

/** The policies the competitive-matchmaking paper compares, in its order, then two more. */
export const ELO_SCHEDULERS: readonly string[] = [
  "competitive",
  "min-min",
  "random",
  "max-min",
  "mct",
];

const PAPER = "Mendez Lopez and Garcia Nocetti, §4";
const INTERPRETATION = (n: number) => `packages/elo README, Interpretation ${n}`;

const num = numberSpec;

/** The paper's platform and jobs, and the readings it leaves open (shared by both settings). */
const WORLD: readonly ParameterSpec[] = [
  num(
    "minSpeed",
    5,
    "Slowest machine benchmark (Mflops; benchmarks uniform in the range).",
    PAPER,
    {
      min: 0,
      minExclusive: true,
    },
  ),
  num("maxSpeed", 9, "Fastest machine benchmark (Mflops).", PAPER, { min: 0, minExclusive: true }),
  {
    name: "pinFastest",
    type: "boolean",
    default: false,
    meaning: "Machine 0 gets maxSpeed instead of a draw (so MAXSPEED is a real machine).",
    source: INTERPRETATION(10),
  },
  num("minOps", 1e3, "Smallest job size (operations).", PAPER, { min: 0, minExclusive: true }),
  num("maxOps", 9e9, "Largest job size (operations).", PAPER, { min: 0, minExclusive: true }),
  {
    name: "sizes",
    type: "choice",
    choices: ["uniform", "log-uniform"],
    default: "uniform",
    meaning: "How job sizes are drawn between minOps and maxOps.",
    source: INTERPRETATION(10),
  },
  num(
    "fluctuation",
    0.1,
    "Hidden per-job speed fluctuation: a machine runs a job at its benchmark x (1 + U[-f, f]).",
    INTERPRETATION(10),
    { min: 0, max: 0.99 },
  ),
];

/** The competitive scheduler's constants: the paper's, and the readings it leaves open. */
const RATING: readonly ParameterSpec[] = [
  num("winMaxSpeed", 9, "MAXSPEED of the winning condition (Mflops).", PAPER, {
    min: 0,
    minExclusive: true,
  }),
  num(
    "overhead",
    0,
    "Overhead of the winning condition (Mflops; MAXSPEED - overhead > 0).",
    INTERPRETATION(1),
  ),
  num("growth", 20, "Growth constant C of equation (1).", PAPER, { min: 0, minExclusive: true }),
  {
    name: "tiers",
    type: "integer",
    default: 5,
    min: 1,
    meaning: "Number of tiers.",
    source: PAPER,
  },
  num("tierWidth", 500, "Rating range of a tier.", PAPER, { min: 0, minExclusive: true }),
  num(
    "baseRating",
    1250,
    "Every machine's starting rating (1250: the middle of tier 3 of 5).",
    INTERPRETATION(5),
    { min: 0, minExclusive: true },
  ),
  {
    name: "stickyTopTier",
    type: "boolean",
    default: false,
    meaning: "A machine that reaches tier 1 never leaves it.",
    source: INTERPRETATION(4),
  },
  {
    name: "levelScale",
    type: "choice",
    choices: ["log", "linear"],
    default: "log",
    meaning: "Job levels from the sizes seen so far: equal bins of log size, or of size.",
    source: INTERPRETATION(6),
  },
  {
    name: "tierSearch",
    type: "choice",
    choices: TIER_SEARCHES,
    default: "faster-first",
    meaning:
      "The 'next best tier' when a job's own tier has no free machine: the faster tiers from the nearest, then the slower (faster-first); the slower first (slower-first); or by distance, faster first at a tie (nearest).",
    source: INTERPRETATION(7),
  },
];

/** The options of one of the elo policies at `params`. */
function policyOptions(name: string, params: Params): Record<string, OptionValue> {
  if (name !== "competitive") return {};
  return {
    maxSpeed: numberParam(params, "winMaxSpeed"),
    overhead: numberParam(params, "overhead"),
    growth: numberParam(params, "growth"),
    tiers: numberParam(params, "tiers"),
    tierWidth: numberParam(params, "tierWidth"),
    baseRating: numberParam(params, "baseRating"),
    stickyTopTier: booleanParam(params, "stickyTopTier"),
    levelScale: textParam(params, "levelScale"),
    tierSearch: textParam(params, "tierSearch"),
  };
}

function schedulers(params: Params): SchedulerChoice[] {
  return ELO_SCHEDULERS.map((name) => {
    const options = policyOptions(name, params);
    const choice = chooseScheduler(
      name,
      Object.keys(options).map((k) => `${k}=${String(options[k])}`),
      "reproduce",
    );
    return { ...choice, label: name };
  });
}

function check(params: Params): string[] {
  const out: string[] = [];
  const pairs = [
    ["minSpeed", "maxSpeed"],
    ["minOps", "maxOps"],
  ] as const;
  for (const [lo, hi] of pairs) {
    if (numberParam(params, lo) > numberParam(params, hi)) {
      out.push(`${lo} (${params[lo]}) must not exceed ${hi} (${params[hi]})`);
    }
  }
  if (numberParam(params, "overhead") >= numberParam(params, "winMaxSpeed")) {
    out.push(`overhead (${params.overhead}) must be below winMaxSpeed (${params.winMaxSpeed})`);
  }
  return out;
}

/** The instance options at `params` (both settings). */
function instanceOptions(params: Params, seed: number, stream: boolean): EloInstanceOptions {
  const n = (name: string) => numberParam(params, name);
  return {
    machines: n("machines"),
    jobs: n("jobs"),
    seed,
    speedMflops: [n("minSpeed"), n("maxSpeed")],
    pinFastest: booleanParam(params, "pinFastest"),
    operations: [n("minOps"), n("maxOps")],
    sizes: textParam<"uniform" | "log-uniform">(params, "sizes"),
    load: stream ? n("load") : 0,
    fluctuation: n("fluctuation"),
    ...(stream ? { slowFraction: n("slowFraction"), driftFactor: n("driftFactor") } : {}),
  };
}

/** A fresh policy labelled `label` of `experiment` at `params`, for the run of seed `seed`. */
function policy(experiment: Experiment, params: Params, label: string, seed: number): Scheduler {
  return createScheduler(experimentScheduler(experiment, params, label), seed);
}

function run(instance: ExperimentInstance, scheduler: Scheduler): ScheduleTrace {
  const { jobs, platform, executionModel } = instance;
  return simulate(
    jobs,
    platform,
    scheduler,
    executionModel === undefined ? {} : { executionModel },
  );
}

/** Makespan and total execution time of a baseline on `instance`, memoized per instance. */
const baselineMemo = new WeakMap<
  ExperimentInstance,
  Map<string, { makespan: number; total: number }>
>();

function baseline(
  experiment: Experiment,
  instance: ExperimentInstance,
  params: Params,
  label: string,
  seed: number,
): { makespan: number; total: number } {
  let byLabel = baselineMemo.get(instance);
  if (byLabel === undefined) {
    byLabel = new Map();
    baselineMemo.set(instance, byLabel);
  }
  // The baseline's options may be set (random.seed): they are part of the key.
  const key = JSON.stringify([label, experimentScheduler(experiment, params, label).options, seed]);
  const known = byLabel.get(key);
  if (known !== undefined) return known;
  const trace = run(instance, policy(experiment, params, label, seed));
  const value = { makespan: makespanOf(trace), total: windowTotals(trace, 1).totalExecution[0]! };
  byLabel.set(key, value);
  return value;
}

function makespanOf(trace: ScheduleTrace): number {
  let end = 0;
  for (const r of trace.records) if (r.end !== null && r.end > end) end = r.end;
  return end;
}

const BATCH_DESCRIPTION =
  "The competitive-matchmaking paper's experiment (its Fig. 3): sets of independent single-core " +
  "jobs (sizes between minOps and maxOps operations, uniform by default), all submitted at time " +
  "0, on machines whose benchmarks are uniform in minSpeed..maxSpeed Mflops; each machine really " +
  "runs at its benchmark x (1 + U[-fluctuation, fluctuation]) per job, hidden from the policies " +
  "(@sched/workload's elo model and hiddenSpeedModel; `sched-sim gen elo` writes the jobs). " +
  "Policies: competitive (the paper's constants: winMaxSpeed, growth, tiers, tierWidth; its open " +
  "readings: baseRating, overhead, stickyTopTier), min-min and random (the paper's baselines; " +
  "random seeded with the run's seed), max-min and mct. Metrics: totalExecution, the paper's " +
  "'total job execution time' read as the sum of the jobs' execution times (s); makespan (s); " +
  "meanResponse (s); ratioToMinMin and ratioToRandom, this run's totalExecution over Min-Min's " +
  "and random's on the same instance (per seed, so their intervals are paired); " +
  "makespanRatioToMinMin and makespanRatioToRandom, the same for the makespan. Mean and " +
  "Student-t 95% CI over seeds.";

function eloBatch(machines: number): Experiment {
  const experiment: Experiment = {
    name: machines === 30 ? "elo" : `elo-${machines}`,
    title: `Competitive matchmaking vs Min-Min and random (and Max-Min, MCT): ${machines} machines, sets of jobs`,
    description: BATCH_DESCRIPTION,
    parameters: [
      {
        name: "jobs",
        type: "integer",
        default: 20,
        min: 1,
        meaning: "Jobs per set, all submitted at time 0.",
        source: PAPER,
      },
      {
        name: "machines",
        type: "integer",
        default: machines,
        min: 1,
        meaning: "Machines of the system (30 and 60 in the paper).",
        source: PAPER,
      },
      ...WORLD,
      ...RATING,
    ],
    grid: (quick) => [{ name: "jobs", values: quick ? [10, 60] : [10, 15, 20, 40, 60] }],
    defaultSeeds: (quick) => (quick ? 3 : 20),
    check,
    schedulers,
    metrics: [
      { key: "totalExecution", title: "total execution (s)", digits: 0, better: "lower" },
      { key: "ratioToMinMin", title: "/ min-min", digits: 3, better: "lower" },
      { key: "ratioToRandom", title: "/ random", digits: 3, better: "lower" },
      { key: "makespan", title: "makespan (s)", digits: 0, better: "lower" },
      { key: "makespanRatioToMinMin", title: "makespan / min-min", digits: 3, better: "lower" },
      { key: "makespanRatioToRandom", title: "makespan / random", digits: 3, better: "lower" },
      { key: "meanResponse", title: "mean response (s)", digits: 0, better: "lower" },
    ],
    figures: ELO_BATCH_FIGURES,
    workload: (params) => eloWorkloadOf(instanceOptions(params, 0, false)),
    instance: (params, seed) => eloInstance(instanceOptions(params, seed, false)),
    measure(trace, instance, params, seed) {
      const total = windowTotals(trace, 1).totalExecution[0]!;
      const makespan = makespanOf(trace);
      const minMin = baseline(experiment, instance, params, "min-min", seed);
      const random = baseline(experiment, instance, params, "random", seed);
      return {
        totalExecution: total,
        ratioToMinMin: total / minMin.total,
        ratioToRandom: total / random.total,
        makespanRatioToMinMin: makespan / minMin.makespan,
        makespanRatioToRandom: makespan / random.makespan,
      };
    },
  };
  return experiment;
}

/** What a stream run gives per window (memoized: every window of a run is one simulation). */
interface StreamSeries {
  readonly totalExecution: Float64Array;
  readonly totalResponse: Float64Array;
  readonly completed: Float64Array;
  /** Competitive only (NaN otherwise), at the submission of each window's last job. */
  readonly rankCorrelation: Float64Array;
  readonly ratingFastest: Float64Array;
  readonly ratingSlowest: Float64Array;
  readonly tierFastest: Float64Array;
  readonly tierSlowest: Float64Array;
  readonly events: number;
  readonly decisions: number;
  readonly schedulerMs: number;
}

/** Recent stream simulations by (parameters but the window, seed, policy and its options). */
const streamMemo = new Map<string, StreamSeries>();
const STREAM_MEMO_SIZE = 256;

function streamSeries(
  experiment: Experiment,
  instance: EloInstance,
  params: Params,
  label: string,
  seed: number,
): StreamSeries {
  const { window: _, ...rest } = params;
  const choice = experimentScheduler(experiment, params, label);
  const key = JSON.stringify([rest, seed, label, choice.options]);
  const known = streamMemo.get(key);
  if (known !== undefined) return known;
  const windows = numberParam(params, "windows");
  const jobs = instance.jobs;
  // The submission time of each window's last job: the ratings are read then.
  const ends = new Array<number>(windows).fill(Number.POSITIVE_INFINITY);
  jobs.forEach((j, i) => {
    ends[windowOf(i, jobs.length, windows)] = j.submit;
  });
  const nan = () => new Float64Array(windows).fill(Number.NaN);
  const corr = nan();
  const ratingFastest = nan();
  const ratingSlowest = nan();
  const tierFastest = nan();
  const tierSlowest = nan();
  let scheduler = createScheduler(choice, seed);
  if (choice.entry.name === "competitive") {
    const rated = scheduler as CompetitiveScheduler;
    let next = 0;
    scheduler = {
      name: rated.name,
      reset: (p) => rated.reset?.(p),
      schedule(ctx) {
        while (next < windows && ctx.view.now >= ends[next]!) {
          const truth = ends[next]! >= instance.driftFrom ? instance.drifted : instance.speeds;
          const { ratings, tiers } = rated.snapshot();
          corr[next] = spearman(ratings, truth);
          const fastest = argExtreme(truth, 1);
          const slowest = argExtreme(truth, -1);
          ratingFastest[next] = ratings[fastest]!;
          ratingSlowest[next] = ratings[slowest]!;
          tierFastest[next] = tiers[fastest]!;
          tierSlowest[next] = tiers[slowest]!;
          next++;
        }
        rated.schedule(ctx);
      },
    };
  }
  const trace = run(instance, scheduler);
  const totals = windowTotals(trace, windows);
  const series: StreamSeries = {
    totalExecution: totals.totalExecution,
    totalResponse: totals.totalResponse,
    completed: totals.completed,
    rankCorrelation: corr,
    ratingFastest,
    ratingSlowest,
    tierFastest,
    tierSlowest,
    events: trace.stats.events,
    decisions: trace.stats.decisions,
    schedulerMs: trace.stats.schedulerMs,
  };
  streamMemo.set(key, series);
  if (streamMemo.size > STREAM_MEMO_SIZE) {
    streamMemo.delete(streamMemo.keys().next().value as string);
  }
  return series;
}

/** Index of the largest (`sign` 1) or smallest (-1) value, lowest index on ties. */
function argExtreme(values: readonly number[], sign: 1 | -1): number {
  let best = 0;
  for (let i = 1; i < values.length; i++) if (sign * values[i]! > sign * values[best]!) best = i;
  return best;
}

const STREAM_DESCRIPTION =
  "The long-running setting the competitive-matchmaking paper expects to favour its algorithm " +
  "('works better the longer it is running', §5), which it did not run: one stream of `jobs` " +
  "jobs (Poisson arrivals at offered load `load`) on `machines` machines of the paper's setting " +
  "(see `elo`), cut by submission order into `windows` windows; the grid axis `window` (1.." +
  "windows) picks the window whose jobs a run reports. Each (seed, policy) stream is simulated " +
  "once and every window read from it (run files repeat the stream's events, decisions and " +
  "scheduler time). Metrics per window: totalExecution (sum of the window's jobs' execution " +
  "times, s), meanResponse (s), ratioToMinMin and ratioToRandom (totalExecution over Min-Min's " +
  "and random's for the same jobs and seed: paired), responseRatioToMinMin; for competitive only " +
  "(NaN for the others), at the submission of the window's last job: rankCorrelation (Spearman, " +
  "ratings vs the machines' true mean speeds), ratingFastest / ratingSlowest and tierFastest / " +
  "tierSlowest (rating and tier of the truly fastest and slowest machine): the trajectories " +
  "`report` plots against `window`. With slowFraction > 0 the fastest machines slow down by " +
  "driftFactor for the jobs submitted from the middle of the stream on (the baselines keep " +
  "planning with the benchmarks).";

/** `elo-stream`: the long-run and drifting-speed settings, windowed. */
const eloStream: Experiment = {
  name: "elo-stream",
  title:
    "Competitive matchmaking over a long stream: windowed ratios to Min-Min and random, ratings over time",
  description: STREAM_DESCRIPTION,
  parameters: [
    {
      name: "window",
      type: "integer",
      default: 1,
      min: 1,
      meaning: "The window (1..windows, by submission order) whose jobs a run reports.",
      source: "this experiment",
    },
    {
      name: "windows",
      type: "integer",
      default: 8,
      quick: 4,
      min: 1,
      meaning: "Windows the stream is cut into.",
      source: "this experiment",
    },
    {
      name: "jobs",
      type: "integer",
      default: 4000,
      quick: 800,
      min: 1,
      meaning: "Jobs in the stream.",
      source: INTERPRETATION(12),
    },
    {
      name: "machines",
      type: "integer",
      default: 30,
      min: 1,
      meaning: "Machines of the system.",
      source: PAPER,
    },
    num(
      "load",
      0.7,
      "Offered load: mean work / (machines x mean benchmark) per unit of time.",
      INTERPRETATION(12),
      {
        min: 0,
        minExclusive: true,
      },
    ),
    ...WORLD,
    ...RATING,
    num(
      "slowFraction",
      0,
      "Drift: the fastest fraction of the machines slow down from the middle of the stream on.",
      INTERPRETATION(11),
      { min: 0, max: 1 },
    ),
    num("driftFactor", 0.25, "Drift: their true speed is multiplied by this.", INTERPRETATION(11), {
      min: 0,
      minExclusive: true,
    }),
  ],
  grid: (quick) => [{ name: "window", values: quick ? [1, 2, 3, 4] : [1, 2, 3, 4, 5, 6, 7, 8] }],
  defaultSeeds: (quick) => (quick ? 2 : 10),
  check(params) {
    const out = check(params);
    if (numberParam(params, "window") > numberParam(params, "windows")) {
      out.push(`window (${params.window}) must not exceed windows (${params.windows})`);
    }
    if (numberParam(params, "windows") > numberParam(params, "jobs")) {
      out.push(`windows (${params.windows}) must not exceed jobs (${params.jobs})`);
    }
    return out;
  },
  schedulers,
  metrics: [
    { key: "ratioToMinMin", title: "total exec / min-min", digits: 3, better: "lower" },
    { key: "ratioToRandom", title: "total exec / random", digits: 3, better: "lower" },
    { key: "responseRatioToMinMin", title: "response / min-min", digits: 3, better: "lower" },
    { key: "meanResponse", title: "mean response (s)", digits: 0, better: "lower" },
    { key: "totalExecution", title: "total execution (s)", digits: 0, better: "lower" },
    { key: "rankCorrelation", title: "rank corr.", digits: 2, better: "none" },
    { key: "ratingFastest", title: "rating, fastest", digits: 0, better: "none" },
    { key: "ratingSlowest", title: "rating, slowest", digits: 0, better: "none" },
    { key: "tierFastest", title: "tier, fastest", digits: 2, better: "none" },
    { key: "tierSlowest", title: "tier, slowest", digits: 2, better: "none" },
  ],
  figures: ELO_STREAM_FIGURES,
  workload: (params) => eloWorkloadOf(instanceOptions(params, 0, true)),
  instance: (params, seed) => eloInstance(instanceOptions(params, seed, true)),
  run({ instance, params, seed, scheduler }): ExperimentRunResult {
    const w = numberParam(params, "window") - 1;
    const self = instance as EloInstance;
    const own = streamSeries(eloStream, self, params, scheduler.label, seed);
    const minMin = streamSeries(eloStream, self, params, "min-min", seed);
    const random = streamSeries(eloStream, self, params, "random", seed);
    const mean = (s: StreamSeries) => s.totalResponse[w]! / s.completed[w]!;
    return {
      metrics: {
        totalExecution: own.totalExecution[w]!,
        meanResponse: mean(own),
        ratioToMinMin: own.totalExecution[w]! / minMin.totalExecution[w]!,
        ratioToRandom: own.totalExecution[w]! / random.totalExecution[w]!,
        responseRatioToMinMin: mean(own) / mean(minMin),
        completed: own.completed[w]!,
        rankCorrelation: own.rankCorrelation[w]!,
        ratingFastest: own.ratingFastest[w]!,
        ratingSlowest: own.ratingSlowest[w]!,
        tierFastest: own.tierFastest[w]!,
        tierSlowest: own.tierSlowest[w]!,
      },
      events: own.events,
      decisions: own.decisions,
      schedulerMs: own.schedulerMs,
    };
  },
};

/** `elo` (30 machines), `elo-60` (60 machines) and `elo-stream`. */
export const eloExperiments: readonly Experiment[] = [eloBatch(30), eloBatch(60), eloStream];
