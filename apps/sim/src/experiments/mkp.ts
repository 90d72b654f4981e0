import { type ConvergentVariant, convergentVariant } from "@sched/convergent";
import { simulate } from "@sched/core";
import type { MkpInstance } from "@sched/knapsack";
import { type Table1Event, table1Event } from "@sched/knapsack/reproduction";
import type {
  Experiment,
  ExperimentInstance,
  ExperimentRunResult,
  ExperimentWorkload,
} from "./experiment.js";
import { numberParam, type ParameterSpec, type Params, textParam } from "./parameters.js";
import { selfRunPolicy } from "./self-run-policy.js";
import { generateWorkload } from "./workload.js";

/** The lower ends of the paper's licence-ratio bins (Table 1): [40-45], [45-50], [50-55], [55-60]. */
export const MKP_LICENSE_RATIOS: readonly number[] = [0.4, 0.45, 0.5, 0.55];

const PAPER = "paper §6, Table 1";

/** The `mkp` experiment's parameters, in `--params` order. */
export const MKP_PARAMETERS: readonly ParameterSpec[] = [
  {
    name: "licenseRatioMin",
    type: "number",
    default: 0.4,
    min: 0,
    max: 1,
    meaning: "Lower end of the licence-ratio bin (copies / machines a licence is usable on).",
    source: PAPER,
  },
  {
    name: "licenseRatioWidth",
    type: "number",
    default: 0.05,
    min: 0,
    max: 1,
    meaning: "Width of the licence-ratio bin: ratios uniform in [min, min + width].",
    source: PAPER,
  },
  {
    name: "jobs",
    type: "integer",
    default: 1000,
    quick: 300,
    min: 1,
    meaning: "Jobs per stream.",
    source: "paper §6 ('100 machines, 40 licenses, and 1000 jobs')",
  },
  {
    name: "machines",
    type: "integer",
    default: 100,
    quick: 30,
    min: 1,
    meaning: "Machines of the farm.",
    source: "paper §6",
  },
  {
    name: "licenses",
    type: "integer",
    default: 40,
    min: 1,
    meaning: "Floating licences.",
    source: "paper §6",
  },
  {
    name: "interArrival",
    type: "number",
    default: 10,
    quick: 100 / 3,
    min: 0,
    minExclusive: true,
    meaning:
      "Mean inter-arrival time (s); --quick's farm has 30 machines, so its jobs arrive 100/30 times apart (the paper's load per machine).",
    source: "paper §6 ('fixing the job inter-arrival times at 10')",
  },
  {
    name: "variant",
    type: "choice",
    choices: ["CS_nip", "CS_ip", "CS_ninp", "CS_inp"],
    default: "CS_nip",
    meaning:
      "The CS variant whose Job-Machine matrix gives the knapsack costs c_i (CS_nip: the matrix of section 4 from scratch at every event).",
    source: "packages/convergent README, Reproduction (Table 1)",
  },
  {
    name: "events",
    type: "integer",
    default: 5,
    quick: 3,
    min: 1,
    meaning:
      "Events sampled per stream: the first pre-matching at or after each of these many times spread evenly over the arrivals (jobs x interArrival).",
    source: "packages/convergent README, Reproduction (Table 1)",
  },
  {
    name: "exactNodeLimit",
    type: "integer",
    default: 10_000_000,
    min: 1,
    meaning:
      "Search nodes the exact solver (@sched/knapsack's mkpExact) may visit per knapsack before it stops unproven.",
    source: "@sched/knapsack README (mkpExact)",
  },
];

/** One sampled event: its knapsacks (one per cluster of critical licences). */
interface KnapsackEvent {
  readonly now: number;
  readonly instances: readonly MkpInstance[];
}

/** Per run (stream and bin): each sampled event solved by both solvers (`table1Event`). */
interface Stream {
  readonly events: readonly KnapsackEvent[];
  readonly solved: readonly Table1Event[];
}

/**
 * Runs of the greedy timed per event (its time is their mean): one greedy takes about a
 * millisecond, near the clock's resolution. Wall clock only: the solution is the same at every run.
 */
const GREEDY_RUNS = 10;

/** The stream of the last (params, seed) asked for, in this thread: both policies' runs share it. */
let memo: { readonly key: string; readonly stream: Stream } | undefined;

function mkpModel(params: Params): ExperimentWorkload {
  const lo = numberParam(params, "licenseRatioMin");
  return {
    model: "convergent",
    options: {
      jobs: numberParam(params, "jobs"),
      machines: numberParam(params, "machines"),
      licenses: numberParam(params, "licenses"),
      meanInterArrival: numberParam(params, "interArrival"),
      licenseRatio: [lo, lo + numberParam(params, "licenseRatioWidth")],
    },
  };
}

/**
 * The knapsacks CS met on the stream of `instance`: CS (the `variant`) runs the stream with its
 * greedy pre-matching, and the first pre-matching at or after each of `events` times spread
 * evenly over the arrivals is kept (the simulation stops after the last one).
 */
function sampleEvents(instance: ExperimentInstance, params: Params): KnapsackEvent[] {
  const count = numberParam(params, "events");
  const span = numberParam(params, "jobs") * numberParam(params, "interArrival");
  const times = Array.from({ length: count }, (_, k) => ((k + 0.5) * span) / count);
  const out: KnapsackEvent[] = [];
  const scheduler = convergentVariant(textParam<ConvergentVariant>(params, "variant"), {
    onPreMatch: ({ now, result }) => {
      const next = times[out.length];
      if (next === undefined || now < next || result.clusters.length === 0) return;
      out.push({ now, instances: result.clusters.map((c) => c.instance) });
    },
  });
  // Stop half a sampling step after the arrivals end: past the last sample time by a whole step,
  // in which knapsack events come every few seconds while licences are critical.
  simulate(instance.jobs, instance.platform, scheduler, { until: span + (0.5 * span) / count });
  return out;
}

function streamOf(instance: ExperimentInstance, params: Params, seed: number): Stream {
  const key = JSON.stringify([params, seed]);
  if (memo?.key === key) return memo.stream;
  const events = sampleEvents(instance, params);
  const exact = { nodeLimit: numberParam(params, "exactNodeLimit") };
  const solved = events.map((e) => table1Event(e.instances, { exact, greedyRuns: GREEDY_RUNS }));
  const stream = { events, solved };
  memo = { key, stream };
  return stream;
}

const mean = (xs: readonly number[]): number =>
  xs.length === 0 ? Number.NaN : xs.reduce((a, b) => a + b, 0) / xs.length;

/**
 * `mkp`: Table 1 of the convergent-scheduling paper: the license knapsacks (MKP) that
 * convergent scheduling meets while it schedules a stream (100 machines, 40 licences, 1000
 * jobs, one arrival every 10 s on average, the licence ratio in each of the paper's four bins),
 * each solved by the paper's greedy (Eilon's surrogate with re-weighting, @sched/knapsack's
 * mkpGreedy) and by the exact LP-based branch and bound (mkpExact), both through
 * `@sched/knapsack/reproduction`'s `table1Event`. Metrics per stream: the greedy's gap below the
 * exact optimum, its time as a share of the exact solver's, the licence usage of each
 * solution (mean, smallest and largest over the sampled events) and whether the exact solver
 * proved every knapsack optimal.
 */
export const mkpReproduction: Experiment = {
  name: "mkp",
  title: "Table 1: the licence knapsack, the paper's greedy vs exact branch and bound",
  description:
    "Table 1 of the convergent-scheduling paper (Capannini et al., SC'07, section 6): " +
    "@sched/workload's convergent model with 100 machines, 40 floating licences and 1000 jobs " +
    "(--quick: 30, 40, 300, arrivals 100/30 times apart), mean inter-arrival 10 s, the licence " +
    "ratio uniform in [licenseRatioMin, +0.05] for the paper's four bins (0.40, 0.45, 0.50, " +
    "0.55), 20 streams per bin (--quick: 3). CS (parameter variant, default CS_nip) schedules " +
    "each stream with its greedy pre-matching; at `events` times spread over the arrivals " +
    "(5; --quick 3) the knapsacks of the next pre-matching (one per cluster of critical " +
    "licences, items the cluster's jobs valued by their Job-Machine row means c_i) are solved " +
    "by 'greedy' (mkpGreedy: Eilon's surrogate, unit-cost order, weights recomputed after each " +
    "drop) and 'exact' (mkpExact, LP-based branch and bound that proves optimality, at most " +
    "exactNodeLimit nodes per knapsack), through @sched/knapsack/reproduction's table1Event. " +
    "Metrics per stream (mean over its events): gapPct = 100 (1 - greedy value / exact value) " +
    "(0 for exact), timePct = the policy's time as % of exact's (100 for exact), timeMs = its " +
    "time per event, usagePct / usageMinPct / usageMaxPct = licence usage of its solution " +
    "(copies used / copies available over the critical licences: the paper's Avg, Sml, Bst), " +
    "optimal = fraction of the events whose knapsacks exact proved optimal (1: every one), " +
    "exactNodes = exact's search nodes per event, knapsacks = knapsacks solved. The paper's " +
    "Table 1 takes Sml and Bst over all the streams of a bin: the smallest usageMinPct and the " +
    "largest usageMaxPct in runs.csv (packages/convergent/reproduction/table1.mjs prints it). " +
    "timePct and timeMs are wall clock (not deterministic; exact is timed once per knapsack, " +
    "the greedy as the mean of 10 runs): runs on a loaded machine, and in two worker threads, are slower. " +
    "'report' draws no Gantt chart.",
  parameters: MKP_PARAMETERS,
  grid: () => [{ name: "licenseRatioMin", values: MKP_LICENSE_RATIOS }],
  check: (params) =>
    numberParam(params, "licenseRatioMin") + numberParam(params, "licenseRatioWidth") > 1
      ? ["licenseRatioMin + licenseRatioWidth must not exceed 1"]
      : [],
  defaultSeeds: (quick) => (quick ? 3 : 20),
  schedulers: () => [
    selfRunPolicy("greedy", "The paper's MKP greedy (@sched/knapsack's mkpGreedy)."),
    selfRunPolicy("exact", "Branch and bound (@sched/knapsack's mkpExact)."),
  ],
  metrics: [
    { key: "gapPct", title: "gap to exact (%)", digits: 3, better: "lower" },
    { key: "timePct", title: "time, % of exact's", digits: 2, better: "lower" },
    { key: "timeMs", title: "time per event (ms)", digits: 3, better: "lower" },
    { key: "usagePct", title: "licence usage, avg (%)", digits: 2, better: "higher" },
    { key: "usageMinPct", title: "licence usage, smallest (%)", digits: 2, better: "higher" },
    { key: "usageMaxPct", title: "licence usage, best (%)", digits: 2, better: "higher" },
    { key: "optimal", title: "proven optimal", digits: 3, better: "higher" },
    { key: "sampledEvents", title: "events sampled", digits: 0, better: "none" },
    { key: "knapsacks", title: "knapsacks solved", digits: 0, better: "none" },
    { key: "exactNodes", title: "exact's search nodes per event", digits: 0, better: "none" },
  ],
  workload: mkpModel,
  instance: (params, seed) => generateWorkload(mkpModel(params), seed),
  run: ({ instance, params, seed, scheduler }): ExperimentRunResult => {
    const { events, solved } = streamOf(instance, params, seed);
    const isExact = scheduler.entry.name === "exact";
    const mine = solved.map((e) => (isExact ? e.exact : e.greedy));
    const ms = mine.reduce((a, s) => a + s.timeMs, 0);
    const exactMs = solved.reduce((a, e) => a + e.exact.timeMs, 0);
    const usage = mine.map((s) => s.usagePct);
    return {
      metrics: {
        gapPct: isExact ? 0 : mean(solved.map((e) => e.gapPct)),
        timePct: exactMs > 0 ? (100 * ms) / exactMs : Number.NaN,
        timeMs: mean(mine.map((s) => s.timeMs)),
        usagePct: mean(usage),
        usageMinPct: usage.length === 0 ? Number.NaN : Math.min(...usage),
        usageMaxPct: usage.length === 0 ? Number.NaN : Math.max(...usage),
        optimal: mean(solved.map((e) => (e.optimal ? 1 : 0))),
        sampledEvents: events.length,
        knapsacks: events.reduce((a, e) => a + e.instances.length, 0),
        exactNodes: mean(solved.map((e) => e.exact.nodes)),
      },
      events: events.length,
      decisions: events.length,
      schedulerMs: ms,
    };
  },
};
