import { createPlatform, InvalidInputError, type Job, type MachineSpec } from "@sched/core";
import { Random } from "@sched/random";
import {
  checkInteger,
  checkPositive,
  checkRange,
  type GeneratedWorkload,
  type Range,
} from "./generated.js";

/** Effective power of the OAS paper's three clusters, fastest first. */
export const OAS_POWERS: readonly number[] = Object.freeze([1.0, 0.75, 0.5]);

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

/** Options of {@link oasWorkload}. */
export interface OasOptions {
  /**
   * `"WL-1"` and `"WL-2"`: the two hand-made workloads (see {@link oasWorkload}); `"random"`:
   * drawn from the ranges below (the paper's WL-3 to WL-6 are `random` with seeds 3 to 6).
   * @defaultValue `"random"`
   */
  readonly workload?: "WL-1" | "WL-2" | "random";
  /** Jobs of a random workload. @defaultValue `8` */
  readonly jobs?: number;
  /** Nodes per cluster (single-core). @defaultValue `2` */
  readonly nodesPerCluster?: number;
  /** Effective power of each cluster; its length is the number of clusters. @defaultValue {@link OAS_POWERS} */
  readonly powers?: readonly number[];
  /** Bandwidth of each inter-cluster link, bytes/s (Gigabit). @defaultValue `125_000_000` */
  readonly linkBandwidth?: number;
  /** Random workloads: tasks per job, uniform integers (at most the nodes). @defaultValue `[1, nodes]` */
  readonly tasks?: Range;
  /** Random workloads: base time on dedicated full-power nodes, seconds, uniform. @defaultValue `[100, 1000]` */
  readonly baseTime?: Range;
  /** Random workloads: per-task bandwidth, bytes/s, uniform. @defaultValue `[1e6, 40e6]` */
  readonly perTaskBandwidth?: Range;
  /** Random workloads: σ, uniform. @defaultValue `[0.5, 1]` */
  readonly sigma?: Range;
  /** Seed of random workloads. @defaultValue `0` */
  readonly seed?: number;
}

const WHERE = "@sched/workload/oasWorkload";

/** WL-1: tasks that pair up to fill the 6 nodes, queued so that strict arrival order leaves holes. */
const WL1 = [
  [4, 600],
  [4, 600],
  [2, 600],
  [2, 600],
  [5, 600],
  [1, 600],
  [3, 600],
  [3, 600],
] as const;

/** WL-2: two big long jobs queued ahead of six small short ones. */
const WL2 = [
  [6, 1200],
  [5, 1000],
  [1, 100],
  [1, 150],
  [2, 100],
  [1, 120],
  [2, 200],
  [1, 80],
] as const;

/**
 * Generates a workload of the OAS paper (rigid Bulk-Synchronous Parallel jobs on a small
 * heterogeneous multi-cluster): 3 clusters of 2 single-core nodes with effective power 1.0,
 * 0.75 and 0.5, each on its own Gigabit link, and a batch of 8 jobs submitted at time 0. A job
 * has `tasks = cores` tasks (possibly co-allocated across clusters), a base time (its `runtime`
 * and `estimate` at power 1.0, the platform's reference speed), and BSP parameters (per-task
 * bandwidth, σ) in `bsp`.
 *
 * The paper gives no job figures, so the workloads are ours: WL-1 (tasks 4, 4, 2, 2, 5, 1, 3, 3,
 * equal base times) fills the 6 nodes only when jobs are matched to the free nodes, so a
 * fit-first policy beats strict arrival order on makespan; WL-2 (a 6-task and a 5-task long job
 * queued ahead of six short 1- and 2-task jobs) rewards running small jobs first (lower mean
 * completion time). Both have σ 0.8 and 10 MB/s per task. Random workloads draw every figure
 * uniformly from the options' ranges.
 *
 * Random stream: `oas/jobs`.
 *
 * Complexity: O(jobs + nodes).
 *
 * @throws InvalidInputError naming the option that is out of range; a hand-made workload on a
 *   platform with fewer than 6 nodes.
 *
 * @example
 * ```ts
 * const { platform, jobs, bsp } = oasWorkload({ workload: "WL-1" });
 * ```
 */
export function oasWorkload(options: OasOptions = {}): OasWorkload {
  const kind = options.workload ?? "random";
  if (kind !== "WL-1" && kind !== "WL-2" && kind !== "random") {
    throw new InvalidInputError(
      WHERE,
      "options.workload",
      `is ${JSON.stringify(kind)}, expected "WL-1", "WL-2" or "random"`,
    );
  }
  const per = checkInteger(WHERE, "options.nodesPerCluster", options.nodesPerCluster ?? 2, 1);
  const powers = options.powers ?? OAS_POWERS;
  if (!Array.isArray(powers) || powers.length === 0) {
    throw new InvalidInputError(
      WHERE,
      "options.powers",
      "is empty, expected one power per cluster",
    );
  }
  powers.forEach((p, k) => {
    checkPositive(WHERE, `options.powers[${k}]`, p);
  });
  const bandwidth = checkPositive(
    WHERE,
    "options.linkBandwidth",
    options.linkBandwidth ?? 125_000_000,
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
  if (kind !== "random") {
    if (nodes < 6) {
      throw new InvalidInputError(
        WHERE,
        "options.nodesPerCluster",
        `gives ${nodes} nodes; ${kind} needs at least 6`,
      );
    }
    (kind === "WL-1" ? WL1 : WL2).forEach(([tasks, base], id) => {
      jobs.push(
        Object.freeze({ id, submit: 0, runtime: base, estimate: base, cores: tasks, tasks }),
      );
      bsp.push(Object.freeze({ perTaskBandwidth: 10e6, sigma: 0.8 }));
    });
    return { platform, jobs, bsp };
  }
  const n = checkInteger(WHERE, "options.jobs", options.jobs ?? 8, 0);
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
  const ptbw = checkRange(
    WHERE,
    "options.perTaskBandwidth",
    options.perTaskBandwidth ?? [1e6, 40e6],
    0,
  );
  const sigma = checkRange(WHERE, "options.sigma", options.sigma ?? [0.5, 1], 0);
  if (sigma[1] > 1)
    throw new InvalidInputError(
      WHERE,
      "options.sigma",
      `is [${sigma[0]},${sigma[1]}], expected a range within [0, 1]`,
    );
  const seed = checkInteger(WHERE, "options.seed", options.seed ?? 0, Number.MIN_SAFE_INTEGER);
  const rng = new Random(seed, "oas/jobs");
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
