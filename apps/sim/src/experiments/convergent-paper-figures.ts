import { type Scheduler, type SchedulingContext, simulate } from "@sched/core";
import { CONVERGENT_INTER_ARRIVALS } from "@sched/workload";
import { createScheduler } from "../schedulers.js";
import { beats, orderedAcross, steady } from "./claims.js";
import { CONVERGENT_PARAMETERS, convergentModel, convergentReproduction } from "./convergent.js";
import { workloadSeries } from "./convergent-metrics.js";
import type {
  Experiment,
  ExperimentRunInput,
  ExperimentRunResult,
  FigureResults,
} from "./experiment.js";
import { numberParam, type ParameterSpec, type Params } from "./parameters.js";

/** A finished simulation of one policy on one workload, reduced to what a figure reads. */
interface Simulated {
  /** The figure's numbers (a step function, or per-call timings). */
  readonly data: Float64Array;
  readonly events: number;
  readonly decisions: number;
  readonly schedulerMs: number;
}

/**
 * Simulations of this thread, by (parameters but the figure's own axis, seed, policy): every
 * grid point of a figure reads the same simulation (a time, a queue length), so it runs once
 * per worker thread. Bounded by the points x seeds x policies of one figure.
 */
const simulations = new Map<string, Simulated>();

function memoized(key: string, run: () => Simulated): Simulated {
  let s = simulations.get(key);
  if (s === undefined) {
    s = run();
    simulations.set(key, s);
  }
  return s;
}

/** The memo key of a run: its parameters but `axis`, its seed and its policy. */
function runKey(input: ExperimentRunInput, axis: string): string {
  const rest = Object.entries(input.params)
    .filter(([k]) => k !== axis)
    .sort(([a], [b]) => (a < b ? -1 : 1));
  return JSON.stringify([rest, input.seed, input.scheduler.label]);
}

/** The run's policy, as a core scheduler. */
function policy(input: ExperimentRunInput): Scheduler {
  return createScheduler(input.scheduler, input.seed);
}

/** The convergent experiment's parameters with some defaults replaced. */
function withDefaults(
  changes: Readonly<Record<string, Partial<ParameterSpec>>>,
  extra: readonly ParameterSpec[],
): ParameterSpec[] {
  return [
    ...extra,
    ...CONVERGENT_PARAMETERS.map((p) => (changes[p.name] ? { ...p, ...changes[p.name] } : p)),
  ];
}

/** The convergent experiment's policies labelled `labels` (their options as it sets them). */
function policies(labels: readonly string[]) {
  return (params: Params) =>
    convergentReproduction.schedulers(params).filter((c) => labels.includes(c.label));
}

/** The convergent experiment's checks, workload and instance. */
const shared: Pick<Experiment, "check" | "workload" | "instance"> = {
  check: (params) => convergentReproduction.check?.(params) ?? [],
  workload: (params) => convergentModel(params),
  instance: convergentReproduction.instance,
};

/** Figure 3's times (s): every 1000 s up to 30000 (every 2000 with --quick). */
const TIMES = Array.from({ length: 31 }, (_, k) => 1000 * k);
const QUICK_TIMES = Array.from({ length: 16 }, (_, k) => 2000 * k);

/**
 * The end of a Figure 3 panel's arrivals (s): jobs x the mean gap (interArrival x
 * interArrivalScale), the expected time of the last submission. After it the queue can only
 * drain, so "through the simulation" is judged over [0, this].
 */
function arrivalsEnd(r: FigureResults): number | string {
  const [jobs, gap, scale] = ["jobs", "interArrival", "interArrivalScale"].map((p) => r.param(p));
  if (typeof jobs !== "number" || typeof gap !== "number" || typeof scale !== "number") {
    return "needs the runs' jobs, interArrival and interArrivalScale";
  }
  return jobs * gap * scale;
}

/**
 * "Almost constant" on Figure 3: the last quarter's mean within ±25% of the second quarter's. A
 * queue fed at exactly its capacity (load 1) grows like the square root of time, so its
 * last-quarter mean is 1.53 times its second-quarter mean (+53%; one that grows linearly, +133%);
 * a stable queue's stays at +0% up to noise. 25% is about the geometric middle of 1 and 1.53
 * (README, Interpretation: "Figure 3's claims").
 */
export const FIG3_FLAT_TOLERANCE = 0.25;

/** The paper's T_a from which on the contention stays almost constant (§6). */
const FIG3_FLAT_FROM = 12;

/**
 * `convergent-workload`: Figure 3 of the convergent-scheduling paper, the system workload
 * (jobs waiting or running) through a simulation, per inter-arrival time. A run is the value of
 * the step function at one `time`; the simulation is run once per thread for all times.
 */
export const convergentWorkloadFigure: Experiment = {
  name: "convergent-workload",
  title: "Figure 3: jobs in the system over time, per inter-arrival time (convergent scheduling)",
  description:
    "Figure 3 of the convergent-scheduling paper (Capannini et al., SC'07, section 6): the " +
    "system workload (jobs ready or running, the paper's definition) through a simulation, " +
    "at every 1000 s of simulated time (2000 with --quick) up to 30000 s, for each " +
    "inter-arrival time 4..20, on the convergent experiment's workload (the same parameters; " +
    "--quick its scaled-down farm), under CS_ip and BF-easy; 5 seeds (2 with --quick). Metric " +
    "jobsInSystem: jobs submitted and not finished at that time. 'report' plots it against the " +
    "time, a line per policy and inter-arrival time. Each (policy, interArrival, seed) is " +
    "simulated once per worker thread and read at every time; 'report' draws no Gantt chart.",
  parameters: withDefaults({}, [
    {
      name: "time",
      type: "number",
      default: 0,
      min: 0,
      meaning: "Simulated time (s) at which the jobs in the system are counted.",
      source: "paper §6, Figure 3",
    },
  ]),
  grid: (quick) => [
    { name: "time", values: quick ? QUICK_TIMES : TIMES },
    { name: "interArrival", values: CONVERGENT_INTER_ARRIVALS },
  ],
  defaultSeeds: (quick) => (quick ? 2 : 5),
  schedulers: policies(["cs-ip", "easy"]),
  figures: [
    {
      id: "Fig. 3",
      caption:
        "System workload through simulations (jobs ready or running at each time; here a panel per T_a)",
      metric: "jobsInSystem",
      x: { param: "time", label: "simulated time (s)", short: "t" },
      y: { label: "system workload (jobs ready or running)" },
      series: [
        { label: "cs-ip", name: "CS_i_p" },
        { label: "easy", name: "BF-easy" },
      ],
      claims: [
        {
          text: "each stream leads to a different system workload: the shorter the inter-arrival time, the higher the contention (read: the time average of the jobs in the system while jobs arrive, over [0, jobs x T_a], falls at each step to a longer T_a; all panels)",
          source: "§6",
          check: orderedAcross({
            axis: "interArrival",
            short: "T_a",
            end: arrivalsEnd,
            direction: "down",
          }),
        },
        {
          text: `from T_a = ${FIG3_FLAT_FROM} on the contention remains almost constant through the simulation, below it the queue grows (read: over the arrivals [0, jobs x T_a], the mean jobs in the system of the last quarter within ±${100 * FIG3_FLAT_TOLERANCE}% of the second quarter's; below ${FIG3_FLAT_FROM}, above it by more)`,
          source: "§6",
          check: steady({
            end: arrivalsEnd,
            grows: (r) => {
              const ta = r.param("interArrival");
              return typeof ta === "number" ? ta < FIG3_FLAT_FROM : "needs interArrival";
            },
            tolerance: FIG3_FLAT_TOLERANCE,
          }),
        },
      ],
    },
  ],
  metrics: [{ key: "jobsInSystem", title: "jobs in the system", digits: 1, better: "lower" }],
  ...shared,
  run: (input): ExperimentRunResult => {
    const s = memoized(runKey(input, "time"), () => {
      const { jobs, platform, executionModel } = input.instance;
      const trace = simulate(
        jobs,
        platform,
        policy(input),
        executionModel === undefined ? {} : { executionModel },
      );
      const series = workloadSeries(trace);
      const data = new Float64Array(2 * series.length);
      series.forEach((p, k) => {
        data[2 * k] = p.time;
        data[2 * k + 1] = p.jobs;
      });
      return {
        data,
        events: trace.stats.events,
        decisions: trace.stats.decisions,
        schedulerMs: trace.stats.schedulerMs,
      };
    });
    const t = numberParam(input.params, "time");
    let jobs = 0;
    for (let k = 0; k < s.data.length && (s.data[k] as number) <= t; k += 2) {
      jobs = s.data[k + 1] as number;
    }
    return {
      metrics: { jobsInSystem: jobs },
      events: s.events,
      decisions: s.decisions,
      schedulerMs: s.schedulerMs,
    };
  },
};

/** Figure 8's queue lengths: jobs in the system, bins of `binWidth` centred on these. */
const LENGTHS = Array.from({ length: 11 }, (_, k) => 100 * (k + 1));
const QUICK_LENGTHS = Array.from({ length: 10 }, (_, k) => 20 * (k + 1));

/**
 * `policy` with every scheduling call timed (wall clock) against the number of jobs in the
 * system (running plus waiting) when it was called: pairs (jobs, ms) appended to `out`.
 */
function timedCalls(inner: Scheduler, out: number[]): Scheduler {
  return {
    name: inner.name,
    reset: (p) => inner.reset?.(p),
    schedule(ctx: SchedulingContext) {
      const n = ctx.view.running.length + (ctx.view.waitingCount ?? ctx.view.waiting.length);
      const start = performance.now();
      inner.schedule(ctx);
      out.push(n, performance.now() - start);
    },
  };
}

/**
 * `convergent-scaling`: Figure 8 of the convergent-scheduling paper, the time to compute a
 * plan against the number of jobs in the system, for CS with and without the incremental
 * approach (both with preemption) and for EDF. A simulation under heavy load (interArrival 4)
 * times every scheduling call; a run is the mean time of the calls made with
 * `jobsInSystem ± binWidth / 2` jobs in the system.
 */
export const convergentScalingFigure: Experiment = {
  name: "convergent-scaling",
  title: "Figure 8: time per plan against the jobs in the system (CS_ip, CS_nip, EDF)",
  description:
    "Figure 8 of the convergent-scheduling paper (Capannini et al., SC'07, section 6): the " +
    "time to carry out a new scheduling plan as the number of jobs grows, for CS with the " +
    "incremental approach (CS_ip), without it (CS_nip), both with preemption, and for EDF. The " +
    "convergent experiment's workload at interArrival 4 (the queue grows to about 1100 jobs " +
    "on 150 machines; --quick: its scaled-down farm, about 220 on 30) is simulated once per " +
    "(policy, seed) and worker thread with every scheduling call timed; a run is the mean wall " +
    "time (ms) of the calls made with jobsInSystem +- binWidth/2 jobs waiting or running (100, " +
    "200, ..., 1100; --quick 20, ..., 200), and how many there were (calls). 3 seeds (2 with " +
    "--quick). planMs is wall clock: not deterministic, slower on a loaded machine and with " +
    "more worker threads (--jobs 1 for steadier figures); NaN where no call fell in the bin. " +
    "'report' plots it against jobsInSystem; it draws no Gantt chart.",
  parameters: withDefaults({ interArrival: { default: 4 } }, [
    {
      name: "jobsInSystem",
      type: "number",
      default: 100,
      min: 0,
      meaning: "Centre of the bin of jobs in the system (running + waiting) at a scheduling call.",
      source: "paper §6, Figure 8",
    },
    {
      name: "binWidth",
      type: "number",
      default: 100,
      quick: 20,
      min: 0,
      minExclusive: true,
      meaning: "Width of the bins of jobs in the system.",
      source: "paper §6, Figure 8",
    },
  ]),
  grid: (quick) => [{ name: "jobsInSystem", values: quick ? QUICK_LENGTHS : LENGTHS }],
  defaultSeeds: (quick) => (quick ? 2 : 3),
  schedulers: policies(["cs-ip", "cs-nip", "edf"]),
  figures: [
    {
      id: "Fig. 8",
      caption:
        "Algorithm scalability (here: wall-clock ms per scheduling plan, binned by the jobs in the system)",
      metric: "planMs",
      x: { param: "jobsInSystem", label: "jobs in the system", short: "jobs" },
      y: { label: "time per plan (ms)" },
      series: [
        { label: "cs-ip", name: "CS-incr" },
        { label: "cs-nip", name: "CS-noincr" },
        { label: "edf", name: "EDF" },
      ],
      claims: [
        {
          text: "the CS-incr version scales better than CS-noincr (read: less time per plan at every queue length; wall clock)",
          source: "§6",
          check: beats({ better: ["cs-ip"], than: ["cs-nip"], sense: "lower" }),
        },
      ],
    },
  ],
  metrics: [
    { key: "planMs", title: "time per plan (ms)", digits: 3, better: "lower" },
    { key: "calls", title: "scheduling calls", digits: 0, better: "none" },
  ],
  ...shared,
  run: (input): ExperimentRunResult => {
    const s = memoized(runKey(input, "jobsInSystem"), () => {
      const { jobs, platform, executionModel } = input.instance;
      const calls: number[] = [];
      const trace = simulate(
        jobs,
        platform,
        timedCalls(policy(input), calls),
        executionModel === undefined ? {} : { executionModel },
      );
      return {
        data: Float64Array.from(calls),
        events: trace.stats.events,
        decisions: trace.stats.decisions,
        schedulerMs: trace.stats.schedulerMs,
      };
    });
    const centre = numberParam(input.params, "jobsInSystem");
    const half = numberParam(input.params, "binWidth") / 2;
    let sum = 0;
    let calls = 0;
    for (let k = 0; k < s.data.length; k += 2) {
      const n = s.data[k] as number;
      if (n >= centre - half && n < centre + half) {
        sum += s.data[k + 1] as number;
        calls++;
      }
    }
    return {
      metrics: { planMs: calls === 0 ? Number.NaN : sum / calls, calls },
      events: s.events,
      decisions: s.decisions,
      schedulerMs: sum,
    };
  },
};
