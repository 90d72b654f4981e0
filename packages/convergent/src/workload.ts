import {
  createJob,
  createPlatform,
  InvalidInputError,
  type Job,
  type JobSpec,
  type LicenseSpec,
  type MachineSpec,
  type Platform,
} from "@sched/core";
import { Random } from "@sched/random";

/** Options of {@link paperWorkload}: the paper's section 6 parameters. */
export interface PaperWorkloadOptions {
  /** PRNG seed. @defaultValue `1` */
  readonly seed?: number;
  /** Machines. @defaultValue `150` */
  readonly machines?: number;
  /** Floating licenses. @defaultValue `20` */
  readonly licenses?: number;
  /** Jobs. @defaultValue `1500` */
  readonly jobs?: number;
  /** Mean inter-arrival time `T_a` (negative exponential), seconds. @defaultValue `10` */
  readonly interArrival?: number;
  /** Estimated run time range at the job's benchmark, seconds. @defaultValue `[500, 3000]` */
  readonly estimate?: readonly [number, number];
  /** Deadline slack range, percent of the estimate: `deadline = submit + estimate * (1 + slack / 100)`. @defaultValue `[25, 150]` */
  readonly deadlineSlack?: readonly [number, number];
  /** CPUs of jobs and machines. @defaultValue `[1, 8]` */
  readonly cpus?: readonly [number, number];
  /** Benchmark of jobs and machines. @defaultValue `[200, 600]` */
  readonly benchmark?: readonly [number, number];
  /** Input data size, bytes (on one random machine). @defaultValue `[100, 800]` */
  readonly input?: readonly [number, number];
  /** License ratio: copies = ratio x machines. @defaultValue `[0.55, 0.65]` */
  readonly licenseRatio?: readonly [number, number];
  /** Probability that a license is usable on a machine. @defaultValue `0.9` */
  readonly licenseSuitability?: number;
  /** Probability that a job needs a license (each license independently, one copy). @defaultValue `0.2` */
  readonly licenseNeed?: number;
  /** Fraction of jobs without a deadline. @defaultValue `0.3` */
  readonly noDeadline?: number;
}

/** A generated farm and job stream. */
export interface PaperWorkload {
  readonly platform: Platform;
  /** Sorted by submit; ids 0..n-1 in submit order. */
  readonly jobs: readonly Job[];
}

const WHERE = "@sched/convergent/paperWorkload";

function range(field: string, r: readonly [number, number] | undefined, d: [number, number]) {
  const v = r ?? d;
  if (
    !Array.isArray(v) ||
    v.length !== 2 ||
    !Number.isFinite(v[0]) ||
    !Number.isFinite(v[1]) ||
    v[0] > v[1] ||
    v[0] < 0
  ) {
    throw new InvalidInputError(
      WHERE,
      field,
      `is ${JSON.stringify(v)}, expected [lo, hi] with 0 <= lo <= hi`,
    );
  }
  return v as readonly [number, number];
}

function probability(field: string, p: number | undefined, d: number): number {
  const v = p ?? d;
  if (typeof v !== "number" || !(v >= 0 && v <= 1))
    throw new InvalidInputError(WHERE, field, `is ${String(v)}, expected a number in [0, 1]`);
  return v;
}

function count(field: string, n: number | undefined, d: number, min: number): number {
  const v = n ?? d;
  if (!Number.isInteger(v) || v < min)
    throw new InvalidInputError(WHERE, field, `is ${String(v)}, expected an integer >= ${min}`);
  return v;
}

/**
 * The paper's synthetic farm and job stream (section 6): machines with uniform CPUs and
 * benchmark; floating licenses whose copies are `licenseRatio` x machines, usable on each
 * machine with probability `licenseSuitability`; jobs arriving with negative-exponential
 * inter-arrival times of mean `interArrival`, uniform estimate, CPUs, benchmark and input size,
 * each license needed with probability `licenseNeed`, and a deadline for `1 - noDeadline` of
 * them. A job's run time equals its estimate (the paper's simulator has no estimate error).
 * Integers are drawn for CPUs, benchmarks, estimates, input sizes and slacks.
 *
 * Deterministic: same options, same workload.
 *
 * Complexity: O(machines x licenses + jobs x licenses).
 *
 * @throws InvalidInputError on invalid options.
 * @example
 * ```ts
 * const { platform, jobs } = paperWorkload({ seed: 3, interArrival: 8 });
 * platform.machines.length; // 150
 * jobs.length; // 1500
 * ```
 */
export function paperWorkload(options: PaperWorkloadOptions = {}): PaperWorkload {
  const seed = options.seed ?? 1;
  if (!Number.isSafeInteger(seed))
    throw new InvalidInputError(WHERE, "seed", `is ${String(seed)}, expected a safe integer`);
  const nMachines = count("machines", options.machines, 150, 1);
  const nLicenses = count("licenses", options.licenses, 20, 0);
  const nJobs = count("jobs", options.jobs, 1500, 0);
  const ia = options.interArrival ?? 10;
  if (!(ia > 0) || !Number.isFinite(ia))
    throw new InvalidInputError(WHERE, "interArrival", `is ${String(ia)}, expected a number > 0`);
  const est = range("estimate", options.estimate, [500, 3000]);
  const slack = range("deadlineSlack", options.deadlineSlack, [25, 150]);
  const cpus = range("cpus", options.cpus, [1, 8]);
  const bench = range("benchmark", options.benchmark, [200, 600]);
  const input = range("input", options.input, [100, 800]);
  const ratio = range("licenseRatio", options.licenseRatio, [0.55, 0.65]);
  const suitability = probability("licenseSuitability", options.licenseSuitability, 0.9);
  const need = probability("licenseNeed", options.licenseNeed, 0.2);
  const noDeadline = probability("noDeadline", options.noDeadline, 0.3);
  if (!(cpus[0] >= 1)) throw new InvalidInputError(WHERE, "cpus", "must start at >= 1");
  if (!(bench[0] > 0)) throw new InvalidInputError(WHERE, "benchmark", "must start at > 0");
  if (!(est[0] > 0)) throw new InvalidInputError(WHERE, "estimate", "must start at > 0");

  const rng = new Random(seed, "convergent/paperWorkload");
  const machines: MachineSpec[] = [];
  for (let m = 0; m < nMachines; m++) {
    machines.push({ cores: rng.integer(cpus[0], cpus[1]), speed: rng.integer(bench[0], bench[1]) });
  }
  const licenses: LicenseSpec[] = [];
  for (let l = 0; l < nLicenses; l++) {
    const usable: number[] = [];
    for (let m = 0; m < nMachines; m++) if (rng.chance(suitability)) usable.push(m);
    if (usable.length === 0) usable.push(rng.integer(0, nMachines - 1));
    const copies = Math.max(1, Math.round(rng.uniform(ratio[0], ratio[1]) * nMachines));
    licenses.push({
      name: `lic${String(l).padStart(2, "0")}`,
      kind: "floating",
      copies,
      ...(usable.length === nMachines ? {} : { machines: usable }),
    });
  }
  const platform = createPlatform({
    machines,
    licenses,
    referenceSpeed: Math.round((bench[0] + bench[1]) / 2),
  });
  const jobs: Job[] = [];
  let t = 0;
  for (let i = 0; i < nJobs; i++) {
    if (i > 0) t += rng.exponential(ia);
    const estimate = rng.integer(est[0], est[1]);
    const spec: { -readonly [K in keyof JobSpec]: JobSpec[K] } = {
      id: i,
      submit: t,
      runtime: estimate,
      estimate,
      cores: rng.integer(cpus[0], cpus[1]),
      benchmark: rng.integer(bench[0], bench[1]),
      input: [{ size: rng.integer(input[0], input[1]), machine: rng.integer(0, nMachines - 1) }],
    };
    const req: Record<string, number> = {};
    let any = false;
    for (let l = 0; l < nLicenses; l++) {
      if (rng.chance(need)) {
        req[licenses[l].name] = 1;
        any = true;
      }
    }
    if (any) spec.licenses = req;
    const hasDeadline = !rng.chance(noDeadline);
    const s = rng.integer(slack[0], slack[1]);
    if (hasDeadline) spec.deadline = t + estimate * (1 + s / 100);
    jobs.push(createJob(spec));
  }
  return { platform, jobs };
}
