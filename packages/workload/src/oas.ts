import { createPlatform, InvalidInputError, type Job, type MachineSpec } from "@sched/core";
import { optionKeys, requireKnownKeys, requireOneOf } from "@sched/errors";
import { Random } from "@sched/random";
import {
  checkInteger,
  checkJobCount,
  checkPositive,
  checkRange,
  type GeneratedWorkload,
  type Range,
} from "./generated.js";

/** Effective power of the OAS paper's three clusters, fastest first. */
export const OAS_POWERS: readonly number[] = Object.freeze([1.0, 0.75, 0.5]);

/**
 * Per-task bandwidth (bytes/s) of the moderate family: links rarely bind (two co-allocated jobs
 * together reach a Gigabit link's 125 MB/s only at the top of the range).
 */
export const OAS_MODERATE_BANDWIDTH: Range = Object.freeze([1e6, 40e6] as const);

/**
 * Per-task bandwidth (bytes/s) of the link-heavy family: above 62.5 MB/s, any two co-allocated
 * jobs with tasks in a common cluster saturate its Gigabit link (each puts at least its per-task
 * bandwidth on every link it uses, eq. 4); at most 78 MB/s, every job of up to 6 tasks on the
 * 3 x 2 platform still fits alone (its worst link demand, 2 x 2 x 4 / 5 = 1.6 times the per-task
 * bandwidth, stays under 125 MB/s).
 */
export const OAS_HEAVY_BANDWIDTH: Range = Object.freeze([65e6, 78e6] as const);

/** The communication side of a Bulk-Synchronous Parallel job, which `Job` has no field for. */
export interface BspParameters {
  /** Bandwidth each task needs, bytes/s (the paper's PTBW). */
  readonly perTaskBandwidth: number;
  /** Weight of processing against communication in the job's slowdown, in [0, 1] (σ). */
  readonly sigma: number;
}

/** An OAS workload: the platform, the jobs, and each job's BSP parameters (same order). */
export interface OasWorkload extends GeneratedWorkload {
  readonly bsp: readonly BspParameters[];
}

/** The workloads of the OAS paper's comparison, and `random` (any seed). */
export type OasWorkloadName = "WL-1" | "WL-2" | "WL-3" | "WL-4" | "WL-5" | "WL-6" | "random";

/** Every {@link OasWorkloadName}, in order. */
export const OAS_WORKLOAD_NAMES: readonly OasWorkloadName[] = Object.freeze([
  "WL-1",
  "WL-2",
  "WL-3",
  "WL-4",
  "WL-5",
  "WL-6",
  "random",
]);

/** Options of {@link oasWorkload}. */
export interface OasOptions {
  /**
   * `"WL-1"` and `"WL-2"`: the two hand-made batches (see {@link oasWorkload}); `"WL-3"` to
   * `"WL-6"`: random batches, each from its own stream (`oas/WL-3`, …) of `seed`; `"random"`: a
   * random batch from the stream `oas/jobs`.
   * @defaultValue `"random"`
   */
  readonly workload?: OasWorkloadName;
  /** Jobs: of a random batch, or the first ones of a hand-made one (at most its 8). @defaultValue `8` */
  readonly jobs?: number;
  /** Nodes per cluster (single-core). @defaultValue `2` */
  readonly nodesPerCluster?: number;
  /** Effective power of each cluster; its length is the number of clusters. @defaultValue {@link OAS_POWERS} */
  readonly powers?: readonly number[];
  /** Bandwidth of each inter-cluster link, bytes/s (Gigabit). @defaultValue `125_000_000` */
  readonly linkBandwidth?: number;
  /** Random batches: tasks per job, uniform integers (at most the nodes). @defaultValue `[1, nodes]` */
  readonly tasks?: Range;
  /** Random batches: base time on dedicated full-power nodes, seconds, uniform. @defaultValue `[100, 1000]` */
  readonly baseTime?: Range;
  /** Random batches: σ, uniform. @defaultValue `[0.5, 1]` */
  readonly sigma?: Range;
  /**
   * The bandwidth family: `"moderate"` (links rarely bind) or `"heavy"` (co-allocated jobs
   * that share a cluster saturate its link: the family where link contention decides).
   * @defaultValue `"moderate"`
   */
  readonly bandwidth?: "moderate" | "heavy";
  /**
   * Per-task bandwidth, bytes/s. Random batches draw it per job, uniformly; every job of a
   * hand-made batch has the range's midpoint (20.5 MB/s moderate, 71.5 MB/s heavy).
   * @defaultValue {@link OAS_MODERATE_BANDWIDTH}, or {@link OAS_HEAVY_BANDWIDTH} for `bandwidth: "heavy"`
   */
  readonly perTaskBandwidth?: Range;
  /** Seed of the random batches (the hand-made ones ignore it). @defaultValue `0` */
  readonly seed?: number;
}

/** The keys of {@link OasOptions}, all of them (checked by the compiler). */
const OAS_KEYS = optionKeys<OasOptions>({
  workload: true,
  jobs: true,
  nodesPerCluster: true,
  powers: true,
  linkBandwidth: true,
  tasks: true,
  baseTime: true,
  sigma: true,
  bandwidth: true,
  perTaskBandwidth: true,
  seed: true,
});

const WHERE = "@sched/workload/oasWorkload";

/**
 * WL-1 (tasks, base time s): sizes that pair up to fill the 6 nodes (4 + 2, 3 + 3, 5 + 1,
 * 2 + 2 + 2) queued so that strict arrival order leaves nodes idle: fitting jobs to the free
 * nodes (FPFS) wins.
 */
const WL1 = [
  [4, 300],
  [2, 300],
  [3, 240],
  [3, 240],
  [5, 180],
  [1, 180],
  [2, 120],
  [2, 120],
] as const;

/**
 * WL-2 (tasks, base time s): long narrow jobs behind wide ones; small-jobs-first (fewest tasks,
 * SJF; shortest base time, SPT) starts the long narrow jobs early on the fast nodes and keeps the
 * wide ones for the end, where they take the whole platform anyway.
 */
const WL2 = [
  [3, 420],
  [3, 180],
  [2, 480],
  [1, 60],
  [6, 60],
  [1, 480],
  [6, 480],
  [1, 60],
] as const;

/**
 * Generates a workload of the OAS paper (rigid Bulk-Synchronous Parallel jobs on a small
 * heterogeneous multi-cluster): 3 clusters of 2 single-core nodes with effective power 1.0,
 * 0.75 and 0.5, each on its own Gigabit link, and a batch of jobs submitted at time 0. A job
 * has `tasks = cores` tasks (possibly co-allocated across clusters), a base time (its `runtime`
 * and `estimate` at power 1.0, the platform's reference speed), and BSP parameters (per-task
 * bandwidth, σ) in `bsp`.
 *
 * The paper gives no job figures, so the batches are ours (README, Interpretation): WL-1 is made
 * for resource matching (FPFS), WL-2 for small-jobs-first (SJF, SPT), both with σ 0.8 and the
 * per-task bandwidth range's midpoint; WL-3 to
 * WL-6 are random ("designed without taking any particular criteria into account"): tasks,
 * base time, σ and per-task bandwidth uniform on the options' ranges.
 *
 * Random streams: `oas/WL-3` … `oas/WL-6`, `oas/jobs` (random).
 *
 * Complexity: O(jobs + nodes).
 *
 * @throws InvalidInputError naming the option that is out of range; a hand-made workload on a
 *   platform with fewer than 6 nodes, or asked for more than its 8 jobs.
 *
 * @example
 * ```ts
 * const { platform, jobs, bsp } = oasWorkload({ workload: "WL-1" });
 * jobs.length; // 8
 * ```
 */
export function oasWorkload(options: OasOptions = {}): OasWorkload {
  requireKnownKeys(WHERE, "options", options, OAS_KEYS);
  const kind = requireOneOf(
    WHERE,
    "options.workload",
    options.workload ?? "random",
    OAS_WORKLOAD_NAMES,
  );
  const per = checkInteger(WHERE, "options.nodesPerCluster", options.nodesPerCluster ?? 2, 1);
  const powers = options.powers ?? OAS_POWERS;
  if (!Array.isArray(powers) || powers.length === 0) {
    throw new InvalidInputError(
      WHERE,
      "options.powers",
      "is empty, expected one power per cluster",
    );
  }
  // an index loop: forEach skips the holes of a sparse array
  Array.from(powers).forEach((p, k) => {
    checkPositive(WHERE, `options.powers[${k}]`, p);
  });
  const bandwidth = checkPositive(
    WHERE,
    "options.linkBandwidth",
    options.linkBandwidth ?? 125_000_000,
  );
  const family = options.bandwidth ?? "moderate";
  requireOneOf(WHERE, "options.bandwidth", family, ["moderate", "heavy"]);
  const ptbw = checkRange(
    WHERE,
    "options.perTaskBandwidth",
    options.perTaskBandwidth ?? (family === "heavy" ? OAS_HEAVY_BANDWIDTH : OAS_MODERATE_BANDWIDTH),
    0,
  );
  const nodes = per * powers.length;
  const machines: MachineSpec[] = [];
  powers.forEach((speed, cluster) => {
    for (let i = 0; i < per; i++)
      machines.push({ name: `c${cluster}n${i}`, cores: 1, speed, cluster });
  });
  const platform = createPlatform({
    machines,
    clusters: powers.map((_, k) => ({ name: `c${k}`, link: k })),
    links: powers.map(() => ({ bandwidth })),
    referenceSpeed: 1,
  });

  const jobs: Job[] = [];
  const bsp: BspParameters[] = [];
  const n = checkJobCount(WHERE, "options.jobs", options.jobs ?? 8);
  if (kind === "WL-1" || kind === "WL-2") {
    if (nodes < 6) {
      throw new InvalidInputError(
        WHERE,
        "options.nodesPerCluster",
        `gives ${nodes} nodes; ${kind} needs at least 6`,
      );
    }
    const table = kind === "WL-1" ? WL1 : WL2;
    if (n > table.length) {
      throw new InvalidInputError(
        WHERE,
        "options.jobs",
        `is ${n}, but ${kind} has ${table.length} jobs`,
      );
    }
    const perTask = (ptbw[0] + ptbw[1]) / 2;
    table.slice(0, n).forEach(([tasks, base], id) => {
      jobs.push(
        Object.freeze({ id, submit: 0, runtime: base, estimate: base, cores: tasks, tasks }),
      );
      bsp.push(Object.freeze({ perTaskBandwidth: perTask, sigma: 0.8 }));
    });
    return { platform, jobs, bsp };
  }
  const tasks = checkRange(WHERE, "options.tasks", options.tasks ?? [1, nodes], 1);
  checkInteger(WHERE, "options.tasks[0]", tasks[0], 1);
  checkInteger(WHERE, "options.tasks[1]", tasks[1], 1);
  if (tasks[1] > nodes) {
    throw new InvalidInputError(
      WHERE,
      "options.tasks",
      `is [${tasks[0]},${tasks[1]}], but the platform has ${nodes} nodes`,
    );
  }
  const base = checkRange(
    WHERE,
    "options.baseTime",
    options.baseTime ?? [100, 1000],
    Number.MIN_VALUE,
  );
  const sigma = checkRange(WHERE, "options.sigma", options.sigma ?? [0.5, 1], 0);
  if (sigma[1] > 1)
    throw new InvalidInputError(
      WHERE,
      "options.sigma",
      `is [${sigma[0]},${sigma[1]}], expected a range within [0, 1]`,
    );
  const seed = checkInteger(WHERE, "options.seed", options.seed ?? 0, Number.MIN_SAFE_INTEGER);
  const rng = new Random(seed, kind === "random" ? "oas/jobs" : `oas/${kind}`);
  for (let id = 0; id < n; id++) {
    const t = rng.integer(tasks[0], tasks[1]);
    const b = rng.uniform(base[0], base[1]);
    jobs.push(Object.freeze({ id, submit: 0, runtime: b, estimate: b, cores: t, tasks: t }));
    bsp.push(
      Object.freeze({
        perTaskBandwidth: rng.uniform(ptbw[0], ptbw[1]),
        sigma: rng.uniform(sigma[0], sigma[1]),
      }),
    );
  }
  return { platform, jobs, bsp };
}
