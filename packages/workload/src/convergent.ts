import {
  createPlatform,
  type Job,
  type LicenseSpec,
  LimitExceededError,
  type MachineSpec,
} from "@sched/core";
import { optionKeys, requireKnownKeys, requireOneOf } from "@sched/errors";
import { Random } from "@sched/random";
import {
  checkInteger,
  checkJobCount,
  checkPositive,
  checkProbability,
  checkRange,
  type GeneratedWorkload,
  type Range,
} from "./generated.js";

/**
 * Options of {@link convergentWorkload}: the computing farm of the convergent-scheduling paper
 * (150 machines, 20 licenses, 1500 jobs). Every range is sampled uniformly.
 */
export interface ConvergentWorkloadOptions {
  /** Number of jobs. @defaultValue `1500` */
  readonly jobs?: number;
  /** Number of machines. @defaultValue `150` */
  readonly machines?: number;
  /** Number of (floating) licenses, named `l0`, `l1`, … @defaultValue `20` */
  readonly licenses?: number;
  /** Mean of the exponential inter-arrival times (the paper's T_a: 4 to 20). @defaultValue `10` */
  readonly meanInterArrival?: number;
  /** "Estimated": a job's run time and estimate at its own benchmark. @defaultValue `[500, 3000]` */
  readonly estimated?: Range;
  /**
   * "Deadline": the slack drawn for each deadline job, read as {@link ConvergentOptions.deadlineReading}
   * says (by default percent over the estimate: deadline = submit + estimated * (1 + slack / 100)).
   * @defaultValue `[25, 150]`
   */
  readonly deadlineSlack?: Range;
  /**
   * How the paper's "Deadline [25–150]" becomes a deadline (its text gives the range only):
   * - `"slack-percent"`: percent of slack over the estimate, deadline = submit + estimated ×
   *   (1 + slack / 100) (1.25 to 2.5 times the estimate after the submission);
   * - `"slack-seconds"`: seconds of slack over the estimate, deadline = submit + estimated + slack;
   * - `"percent-of-estimate"`: the time allowed is that percent of the estimate, deadline =
   *   submit + estimated × slack / 100 (a job then meets a deadline below 100 % only on a machine
   *   faster than its benchmark).
   * @defaultValue `"slack-percent"`
   */
  readonly deadlineReading?: ConvergentDeadlineReading;
  /** "Number of CPUs", for jobs and machines alike (integers). @defaultValue `[1, 8]` */
  readonly cpus?: Range;
  /** "Benchmark", for jobs (their `benchmark`) and machines (their `speed`). @defaultValue `[200, 600]` */
  readonly benchmark?: Range;
  /** "Input": the size of a job's input data, in MB (stored in bytes). @defaultValue `[100, 800]` */
  readonly inputMB?: Range;
  /** "License ratio": copies of a license as a fraction of the machines it is usable on. @defaultValue `[0.55, 0.65]` */
  readonly licenseRatio?: Range;
  /** "License suitability": probability that a license is usable on a machine. @defaultValue `0.9` */
  readonly licenseSuitability?: number;
  /** "License needed by a job": probability that a job needs a given license. @defaultValue `0.2` */
  readonly licenseNeed?: number;
  /** Fraction of jobs without a deadline. @defaultValue `0.3` */
  readonly noDeadline?: number;
  /** Seed. @defaultValue `0` */
  readonly seed?: number;
}

/** The keys of {@link ConvergentWorkloadOptions}, all of them (checked by the compiler). */
const CONVERGENT_KEYS = optionKeys<ConvergentWorkloadOptions>({
  jobs: true,
  machines: true,
  licenses: true,
  meanInterArrival: true,
  estimated: true,
  deadlineSlack: true,
  deadlineReading: true,
  cpus: true,
  benchmark: true,
  inputMB: true,
  licenseRatio: true,
  licenseSuitability: true,
  licenseNeed: true,
  noDeadline: true,
  seed: true,
});

/** The readings of the paper's "Deadline [25–150]": see {@link ConvergentOptions.deadlineReading}. */
export type ConvergentDeadlineReading = "slack-percent" | "slack-seconds" | "percent-of-estimate";

/** Every {@link ConvergentDeadlineReading}, the default first. */
export const CONVERGENT_DEADLINE_READINGS: readonly ConvergentDeadlineReading[] = Object.freeze([
  "slack-percent",
  "slack-seconds",
  "percent-of-estimate",
]);

/** The MKP study of the paper: 100 machines, 40 licenses, 1000 jobs, inter-arrival 10. */
export const CONVERGENT_MKP_STUDY: Readonly<ConvergentWorkloadOptions> = Object.freeze({
  jobs: 1000,
  machines: 100,
  licenses: 40,
  meanInterArrival: 10,
});

/** The license-ratio bins of the MKP study. */
export const CONVERGENT_MKP_LICENSE_RATIOS: readonly Range[] = Object.freeze([
  [0.4, 0.45],
  [0.45, 0.5],
  [0.5, 0.55],
  [0.55, 0.6],
] as const);

/** The inter-arrival means of the CS experiments. */
export const CONVERGENT_INTER_ARRIVALS: readonly number[] = Object.freeze([
  4, 6, 8, 10, 12, 16, 20,
]);

const WHERE = "@sched/workload/convergentWorkload";

interface ResolvedConvergentWorkload {
  jobs: number;
  machines: number;
  licenses: number;
  meanInterArrival: number;
  estimated: Range;
  deadlineSlack: Range;
  deadlineReading: ConvergentDeadlineReading;
  cpus: Range;
  benchmark: Range;
  inputMB: Range;
  licenseRatio: Range;
  licenseSuitability: number;
  licenseNeed: number;
  noDeadline: number;
  seed: number;
}

function resolveOptions(o: ConvergentWorkloadOptions): ResolvedConvergentWorkload {
  const r: ResolvedConvergentWorkload = {
    jobs: checkJobCount(WHERE, "options.jobs", o.jobs ?? 1500),
    machines: checkInteger(WHERE, "options.machines", o.machines ?? 150, 1),
    licenses: checkInteger(WHERE, "options.licenses", o.licenses ?? 20, 0),
    meanInterArrival: checkPositive(WHERE, "options.meanInterArrival", o.meanInterArrival ?? 10),
    estimated: checkRange(WHERE, "options.estimated", o.estimated ?? [500, 3000], Number.MIN_VALUE),
    deadlineSlack: checkRange(WHERE, "options.deadlineSlack", o.deadlineSlack ?? [25, 150], 0),
    deadlineReading: checkReading(o.deadlineReading),
    cpus: checkRange(WHERE, "options.cpus", o.cpus ?? [1, 8], 1),
    benchmark: checkRange(WHERE, "options.benchmark", o.benchmark ?? [200, 600], Number.MIN_VALUE),
    inputMB: checkRange(WHERE, "options.inputMB", o.inputMB ?? [100, 800], 0),
    licenseRatio: checkRange(WHERE, "options.licenseRatio", o.licenseRatio ?? [0.55, 0.65], 0),
    licenseSuitability: checkProbability(
      WHERE,
      "options.licenseSuitability",
      o.licenseSuitability ?? 0.9,
    ),
    licenseNeed: checkProbability(WHERE, "options.licenseNeed", o.licenseNeed ?? 0.2),
    noDeadline: checkProbability(WHERE, "options.noDeadline", o.noDeadline ?? 0.3),
    seed: checkInteger(WHERE, "options.seed", o.seed ?? 0, Number.MIN_SAFE_INTEGER),
  };
  checkInteger(WHERE, "options.cpus[0]", r.cpus[0], 1);
  checkInteger(WHERE, "options.cpus[1]", r.cpus[1], 1);
  if (r.licenseRatio[1] > 1) checkProbability(WHERE, "options.licenseRatio[1]", r.licenseRatio[1]);
  return r;
}

function checkReading(v: unknown): ConvergentDeadlineReading {
  if (v === undefined) return "slack-percent";
  return requireOneOf(WHERE, "options.deadlineReading", v, CONVERGENT_DEADLINE_READINGS);
}

/** The deadline of a job submitted at `t` with `estimate` and drawn `slack`, per `reading`. */
function deadlineOf(
  t: number,
  estimate: number,
  slack: number,
  reading: ConvergentDeadlineReading,
): number {
  switch (reading) {
    case "slack-percent":
      return t + estimate * (1 + slack / 100);
    case "slack-seconds":
      return t + estimate + slack;
    case "percent-of-estimate":
      return t + (estimate * slack) / 100;
  }
}

/** Attempts at drawing a job's license set before giving up. */
const MAX_DRAWS = 10_000;

/**
 * Generates the computing-farm workload of the convergent-scheduling paper: a platform of
 * `machines` SMP machines (cores and benchmark uniform) with `licenses` floating licenses, and
 * `jobs` jobs arriving as a Poisson process (exponential inter-arrival times of mean
 * `meanInterArrival`, the first after one gap). Each job has cores, an estimate (its run time
 * too: the paper's jobs run exactly as estimated), a benchmark, one input file on a random
 * machine, each license with probability `licenseNeed` (one copy), and, with probability
 * 1 - `noDeadline`, a deadline. A license is usable on each machine with probability
 * `licenseSuitability` (at least one); its copies are round(ratio * usable machines), at least
 * one.
 *
 * Every job can run somewhere: its cores are at most the largest machine's, and its license set
 * is redrawn until some machine with enough cores can use all of them.
 *
 * Random streams: `convergent/machines`, `convergent/licenses`, `convergent/jobs`,
 * `convergent/arrivals`. Same options, same workload.
 *
 * Complexity: O(jobs * licenses + machines * licenses) expected.
 *
 * @throws InvalidInputError naming the option that is out of range.
 * @throws LimitExceededError when no feasible license set is found in 10,000 draws (only
 *   with extreme options, e.g. licenseNeed 1 and licenseSuitability near 0).
 *
 * @example
 * ```ts
 * const { platform, jobs } = convergentWorkload({ meanInterArrival: 4, seed: 1 });
 * platform.machines.length; // 150
 * jobs.length; // 1500
 * ```
 */
export function convergentWorkload(options: ConvergentWorkloadOptions = {}): GeneratedWorkload {
  requireKnownKeys(WHERE, "options", options, CONVERGENT_KEYS);
  const o = resolveOptions(options);
  const mRng = new Random(o.seed, "convergent/machines");
  const lRng = new Random(o.seed, "convergent/licenses");
  const jRng = new Random(o.seed, "convergent/jobs");
  const aRng = new Random(o.seed, "convergent/arrivals");

  const machines: MachineSpec[] = [];
  for (let m = 0; m < o.machines; m++) {
    machines.push({
      cores: mRng.integer(o.cpus[0], o.cpus[1]),
      speed: mRng.uniform(o.benchmark[0], o.benchmark[1]),
    });
  }
  const licenses: LicenseSpec[] = [];
  const usable: Uint8Array[] = [];
  for (let l = 0; l < o.licenses; l++) {
    const ratio = lRng.uniform(o.licenseRatio[0], o.licenseRatio[1]);
    const on = new Uint8Array(o.machines);
    const list: number[] = [];
    for (let m = 0; m < o.machines; m++) {
      if (lRng.next() < o.licenseSuitability) {
        on[m] = 1;
        list.push(m);
      }
    }
    if (list.length === 0) {
      const m = lRng.integer(0, o.machines - 1);
      on[m] = 1;
      list.push(m);
    }
    usable.push(on);
    licenses.push({
      name: `l${l}`,
      kind: "floating",
      copies: Math.max(1, Math.round(ratio * list.length)),
      machines: list,
    });
  }
  const platform = createPlatform({
    machines,
    licenses,
    referenceSpeed: (o.benchmark[0] + o.benchmark[1]) / 2,
  });
  // A loop, not Math.max(...): a spread of a million machines overflows the call stack.
  let maxCores = 0;
  for (const m of platform.machines) if (m.cores > maxCores) maxCores = m.cores;

  const jobs: Job[] = [];
  let t = 0;
  for (let i = 0; i < o.jobs; i++) {
    t += aRng.exponential(o.meanInterArrival);
    const cores = jRng.integer(o.cpus[0], Math.min(o.cpus[1], maxCores));
    let need: number[] = [];
    for (let draw = 0; ; draw++) {
      if (draw === MAX_DRAWS) {
        throw new LimitExceededError(
          WHERE,
          `job ${i}: no machine with ${cores} cores can use a license set drawn in ${MAX_DRAWS} attempts`,
        );
      }
      need = [];
      for (let l = 0; l < o.licenses; l++) if (jRng.next() < o.licenseNeed) need.push(l);
      const ok = platform.machines.some(
        (m) => m.cores >= cores && need.every((l) => usable[l]![m.id] === 1),
      );
      if (ok) break;
    }
    const estimate = jRng.uniform(o.estimated[0], o.estimated[1]);
    const job: { -readonly [K in keyof Job]: Job[K] } = {
      id: i,
      submit: t,
      runtime: estimate,
      estimate,
      cores,
      benchmark: jRng.uniform(o.benchmark[0], o.benchmark[1]),
      input: [
        {
          size: Math.round(jRng.uniform(o.inputMB[0], o.inputMB[1]) * 1e6),
          machine: jRng.integer(0, o.machines - 1),
        },
      ],
    };
    const slack = jRng.uniform(o.deadlineSlack[0], o.deadlineSlack[1]);
    if (jRng.next() >= o.noDeadline)
      job.deadline = deadlineOf(t, estimate, slack, o.deadlineReading);
    if (need.length > 0) job.licenses = Object.fromEntries(need.map((l) => [`l${l}`, 1]));
    jobs.push(Object.freeze(job));
  }
  return { platform, jobs };
}
