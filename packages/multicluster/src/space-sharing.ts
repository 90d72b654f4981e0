import { benchmarkOf, InvalidInputError, type Job, type Platform } from "@sched/core";
import {
  describeValue,
  optionKeys,
  requireArray,
  requireFinite,
  requireInteger,
  requireKnownKeys,
  requireObject,
  requireOneOf,
  requirePositive,
} from "@sched/errors";
import { Random } from "@sched/random";
import {
  adaptivePartitionSize,
  bunchTasks,
  CLUSTER_PROXIMITIES,
  CLUSTER_SELECTIONS,
  type ClusterProximity,
  type ClusterSelection,
  chooseProcessors,
  fitnessFactors,
  mapPartitionSize,
  partitionSize,
  selectProcessors,
  taskBunches,
} from "./partition.js";
import type { ProcessorPool } from "./processor-pool.js";

/** The two space-sharing policies of the first paper: its dynamic policy and the baseline. */
export type SpaceSharingPolicy = "dynamic" | "adaptive";

/**
 * The baseline's partition size: `"map"`, from every job in the system (the paper's baseline
 * MAP/MPAP, {@link mapPartitionSize}); `"rosti"`, from the queued jobs only
 * ({@link adaptivePartitionSize}).
 */
export type BaselinePartition = "map" | "rosti";

/**
 * Which processors the baseline takes (it has no rule of its own: the paper calls the classical
 * policies "oblivious to processor selection"): `"random"` (uniform among the idle ones),
 * `"fastest"`, or `"lowest-index"`.
 */
export type BaselineSelection = "random" | "fastest" | "lowest-index";

/**
 * How many processors the dynamic policy gives the head job (the paper: "it assigns a set of
 * processors equal to the lesser of the partition size and the job's maximum parallelism", with
 * the scheduler also invoked "when there are alpha processors in the pool"): `"pool"`,
 * `min(target, pool)` once the pool holds `min(target, alpha)` (idle processors go to a job that
 * can use them, and alpha has a role); `"target"`, exactly `target`, waiting until the pool
 * holds that many (the sentence read literally; alpha then changes nothing).
 */
export const DYNAMIC_ALLOTMENTS = ["pool", "target"] as const;

/** One of {@link DYNAMIC_ALLOTMENTS}. */
export type DynamicAllotment = (typeof DYNAMIC_ALLOTMENTS)[number];

/** The pool size from which the dynamic policy starts a head job of partition `target`. Internal. */
export function dynamicGate(allotment: DynamicAllotment, target: number, alpha: number): number {
  return allotment === "target" ? target : Math.max(1, Math.min(target, alpha));
}

/**
 * How a processor is shared while a parallel task and a local (background) job both run on it:
 * `"conserving"`: the task gets `1 / MPL` of the CPU and the local job the rest, so the
 * processor delivers one CPU; `"legacy"`: the task gets `1 / MPL` and the local job runs as if
 * alone (1 + 1/MPL CPUs, this package's reading before 2026).
 */
export type BackgroundSharing = "conserving" | "legacy";

/** Options of {@link simulateSpaceSharing}. */
export interface SpaceSharingOptions {
  /** `"dynamic"` (the paper's policy) or `"adaptive"` (the baseline). @defaultValue `"dynamic"` */
  readonly policy?: SpaceSharingPolicy;
  /** Space-sharing threshold `alpha`: the dynamic policy also runs when this many processors are in the pool. @defaultValue `2` */
  readonly alpha?: number;
  /**
   * The dynamic policy: the cluster it takes when several have enough available processors
   * ({@link ClusterSelection}; the paper says only "within the same cluster if possible").
   * @defaultValue `"fastest"`
   */
  readonly clusterSelection?: ClusterSelection;
  /**
   * The dynamic policy: how a job no cluster can hold spreads over clusters
   * ({@link ClusterProximity}; the paper says only "taking cluster proximity into account").
   * @defaultValue `"line"`
   */
  readonly clusterProximity?: ClusterProximity;
  /**
   * The dynamic policy: how many processors the head job gets ({@link DynamicAllotment}).
   * @defaultValue `"pool"`
   */
  readonly dynamicAllotment?: DynamicAllotment;
  /**
   * Multiprogramming level: in the fitness factor (eq. 4), and a parallel task's share of a
   * processor it shares with a local job is `1 / MPL`. @defaultValue `2`
   */
  readonly mpl?: number;
  /** Background (local) load: the fraction of time each processor would run local jobs alone, in [0, 1). @defaultValue `0` */
  readonly backgroundLoad?: number;
  /** Mean service demand of a local job, seconds. @defaultValue `2` */
  readonly backgroundMeanDemand?: number;
  /** How a processor is shared between a parallel task and a local job. @defaultValue `"conserving"` */
  readonly backgroundSharing?: BackgroundSharing;
  /** Context switch cost, seconds, charged twice per local job that a parallel task meets. @defaultValue `200e-6` */
  readonly contextSwitch?: number;
  /** Message startup cost, seconds. @defaultValue `50e-6` */
  readonly startup?: number;
  /** Network bandwidth, bytes/s. @defaultValue `12.5e6` (100 Mbit/s) */
  readonly bandwidth?: number;
  /** Size of a job's data, bytes. @defaultValue the sum of `job.input` sizes, else 0 */
  readonly messageBytes?: (job: Job) => number;
  /** The baseline's partition size. @defaultValue `"map"` */
  readonly baselinePartition?: BaselinePartition;
  /** Weight of the executing jobs in the MAP partition size ({@link mapPartitionSize}). @defaultValue `1` */
  readonly executingWeight?: number;
  /** The baseline's processor selection. @defaultValue `"random"` */
  readonly baselineSelection?: BaselineSelection;
  /** Seed of the background load and of the baseline's random selection. @defaultValue `1` */
  readonly seed?: number;
}

/** The keys of {@link SpaceSharingOptions}, all of them (checked by the compiler). Internal. */
export const SPACE_SHARING_KEYS = optionKeys<SpaceSharingOptions>({
  policy: true,
  alpha: true,
  clusterSelection: true,
  clusterProximity: true,
  dynamicAllotment: true,
  mpl: true,
  backgroundLoad: true,
  backgroundMeanDemand: true,
  backgroundSharing: true,
  contextSwitch: true,
  startup: true,
  bandwidth: true,
  messageBytes: true,
  baselinePartition: true,
  executingWeight: true,
  baselineSelection: true,
  seed: true,
});

/** What happened to one job. */
export interface SpaceSharingRecord {
  readonly job: Job;
  readonly start: number;
  readonly end: number;
  /** Processor indices (see {@link SpaceSharingResult.processorMachine}). */
  readonly processors: readonly number[];
  /** Tasks folded onto each processor. */
  readonly bunches: readonly number[];
  /** When each processor was given back. */
  readonly release: readonly number[];
}

/** The outcome of {@link simulateSpaceSharing}. */
export interface SpaceSharingResult {
  readonly policy: SpaceSharingPolicy;
  /** In completion order (end, then id). */
  readonly records: readonly SpaceSharingRecord[];
  /** Machine of each processor (one processor per core, machines in order). */
  readonly processorMachine: readonly number[];
  /** Mean of end - submit. */
  readonly meanResponse: number;
  /** Processor-time held by parallel jobs / (processors * (last end - first submit)). */
  readonly utilization: number;
  readonly makespan: number;
  /** Number of times the policy ran. */
  readonly decisions: number;
}

/** Options with defaults filled (internal; shared with the core path). */
export interface ResolvedSpaceSharingOptions {
  policy: SpaceSharingPolicy;
  alpha: number;
  clusterSelection: ClusterSelection;
  clusterProximity: ClusterProximity;
  dynamicAllotment: DynamicAllotment;
  mpl: number;
  backgroundLoad: number;
  backgroundMeanDemand: number;
  backgroundSharing: BackgroundSharing;
  contextSwitch: number;
  startup: number;
  bandwidth: number;
  messageBytes: (job: Job) => number;
  baselinePartition: BaselinePartition;
  executingWeight: number;
  baselineSelection: BaselineSelection;
  seed: number;
}

/**
 * The defaults of {@link SpaceSharingOptions} (shared by `spaceSharingScheduler` and
 * `spaceSharingExecutionModel` where they have the option; `messageBytes` defaults to the sum
 * of the job's `input` sizes). Frozen.
 *
 * @example SPACE_SHARING_DEFAULTS.alpha // 2
 */
export const SPACE_SHARING_DEFAULTS: Readonly<Required<Omit<SpaceSharingOptions, "messageBytes">>> =
  Object.freeze({
    policy: "dynamic",
    alpha: 2,
    clusterSelection: "fastest",
    clusterProximity: "line",
    dynamicAllotment: "pool",
    mpl: 2,
    backgroundLoad: 0,
    backgroundMeanDemand: 2,
    backgroundSharing: "conserving",
    contextSwitch: 200e-6,
    startup: 50e-6,
    bandwidth: 12.5e6,
    baselinePartition: "map",
    executingWeight: 1,
    baselineSelection: "random",
    seed: 1,
  });

const WHERE = "@sched/multicluster/simulateSpaceSharing";

/** Fills defaults and validates (internal; errors name `where`). */
export function resolveSpaceSharingOptions(
  o: SpaceSharingOptions,
  where: string = WHERE,
): ResolvedSpaceSharingOptions {
  const d = SPACE_SHARING_DEFAULTS;
  const r: ResolvedSpaceSharingOptions = {
    policy: o.policy ?? d.policy,
    alpha: o.alpha ?? d.alpha,
    clusterSelection: o.clusterSelection ?? d.clusterSelection,
    clusterProximity: o.clusterProximity ?? d.clusterProximity,
    dynamicAllotment: o.dynamicAllotment ?? d.dynamicAllotment,
    mpl: o.mpl ?? d.mpl,
    backgroundLoad: o.backgroundLoad ?? d.backgroundLoad,
    backgroundMeanDemand: o.backgroundMeanDemand ?? d.backgroundMeanDemand,
    backgroundSharing: o.backgroundSharing ?? d.backgroundSharing,
    contextSwitch: o.contextSwitch ?? d.contextSwitch,
    startup: o.startup ?? d.startup,
    bandwidth: o.bandwidth ?? d.bandwidth,
    messageBytes: o.messageBytes ?? ((job) => (job.input ?? []).reduce((s, x) => s + x.size, 0)),
    baselinePartition: o.baselinePartition ?? d.baselinePartition,
    executingWeight: o.executingWeight ?? d.executingWeight,
    baselineSelection: o.baselineSelection ?? d.baselineSelection,
    seed: o.seed ?? d.seed,
  };
  const choice = <T extends string>(field: string, v: T, allowed: readonly T[]) =>
    requireOneOf(where, `options.${field}`, v, allowed);
  choice("policy", r.policy, ["dynamic", "adaptive"]);
  choice("clusterSelection", r.clusterSelection, CLUSTER_SELECTIONS);
  choice("clusterProximity", r.clusterProximity, CLUSTER_PROXIMITIES);
  choice("dynamicAllotment", r.dynamicAllotment, DYNAMIC_ALLOTMENTS);
  choice("backgroundSharing", r.backgroundSharing, ["conserving", "legacy"]);
  choice("baselinePartition", r.baselinePartition, ["map", "rosti"]);
  choice("baselineSelection", r.baselineSelection, ["random", "fastest", "lowest-index"]);
  // `ok` is a function: comparing a symbol (or a bigint) before the type check throws raw
  const check = (field: string, v: number, ok: () => boolean, expected: string) => {
    if (typeof v !== "number" || !Number.isFinite(v) || !ok()) {
      throw new InvalidInputError(
        where,
        `options.${field}`,
        `is ${describeValue(v)}, expected ${expected}`,
      );
    }
  };
  check("alpha", r.alpha, () => Number.isInteger(r.alpha) && r.alpha >= 0, "an integer >= 0");
  check(
    "mpl",
    r.mpl,
    () => (r.backgroundSharing === "conserving" ? r.mpl > 1 : r.mpl >= 1),
    r.backgroundSharing === "conserving"
      ? "a number > 1 (with conserving background sharing, MPL 1 would leave a local job no CPU)"
      : "a number >= 1",
  );
  check(
    "backgroundLoad",
    r.backgroundLoad,
    () => r.backgroundLoad >= 0 && r.backgroundLoad < 1,
    "a number in [0, 1)",
  );
  check(
    "backgroundMeanDemand",
    r.backgroundMeanDemand,
    () => r.backgroundMeanDemand > 0,
    "a number > 0",
  );
  check("contextSwitch", r.contextSwitch, () => r.contextSwitch >= 0, "a number >= 0");
  check("startup", r.startup, () => r.startup >= 0, "a number >= 0");
  check("bandwidth", r.bandwidth, () => r.bandwidth > 0, "a number > 0");
  check("executingWeight", r.executingWeight, () => r.executingWeight >= 0, "a number >= 0");
  check("seed", r.seed, () => Number.isSafeInteger(r.seed), "an integer");
  return r;
}

/** A parallel task's CPU share and a local job's, while both run on a processor. */
export function sharesOf(o: { mpl: number; backgroundSharing: BackgroundSharing }): {
  task: number;
  local: number;
} {
  const task = 1 / o.mpl;
  return { task, local: o.backgroundSharing === "conserving" ? 1 - task : 1 };
}

/**
 * The work of a job, seconds at the reference speed: `runtime * cores` (a moldable job's
 * `runtime` is its time on its minimum `cores`, usually one processor), split over its
 * `max(maxParallelism (else cores), k)` tasks on k processors.
 */
export function jobWork(job: Job, platform: Platform): number {
  return job.runtime * job.cores * benchmarkOf(job, platform);
}

const EPS = 1e-12;

/**
 * The local (background) jobs of one processor and how the processor is shared: arrivals
 * separated by `gap()`, demands `demand()` (drawn lazily, in the order gap, then per arrival
 * its demand and the next gap), served first come first served; only their total backlog
 * matters. Alone the backlog drains at rate 1; while a parallel task runs there it drains at the
 * local share and the task advances at the task share ({@link sharesOf}). The state only moves
 * forward in time. Internal (exported for the tests).
 */
export class LocalLoad {
  private readonly arrivals: number[] = [];
  private readonly demands: number[] = [];
  private next = 0;
  private t = 0;
  private backlog = 0;
  private draw: number;

  constructor(
    private readonly gap: () => number,
    private readonly demand: () => number,
  ) {
    this.draw = gap();
  }

  /** Poisson arrivals of rate `load / mean`, exponential demands of mean `mean`, from `rng`. */
  static poisson(rng: Random, load: number, mean: number): LocalLoad {
    return new LocalLoad(
      () => (load > 0 ? rng.exponential(mean / load) : Number.POSITIVE_INFINITY),
      () => rng.exponential(mean),
    );
  }

  /** The arrival at index `i` (drawn on demand), Infinity when there are none. */
  private arrival(i: number): number {
    while (this.arrivals.length <= i && Number.isFinite(this.draw)) {
      this.arrivals.push(this.draw);
      this.demands.push(this.demand());
      this.draw += this.gap();
    }
    return i < this.arrivals.length ? this.arrivals[i]! : Number.POSITIVE_INFINITY;
  }

  /** Moves the state to `to`, the processor running local jobs only. */
  private alone(to: number): void {
    if (to <= this.t) return;
    for (let a = this.arrival(this.next); a <= to; a = this.arrival(this.next)) {
      this.backlog = Math.max(0, this.backlog - (a - this.t));
      this.t = a;
      this.backlog += this.demands[this.next]!;
      this.next++;
    }
    this.backlog = Math.max(0, this.backlog - (to - this.t));
    this.t = to;
  }

  /** Whether a local job runs at `now`. */
  busy(now: number): boolean {
    this.alone(now);
    return this.backlog > EPS;
  }

  /** End of the local busy period in progress at `now`, else of the next one (Infinity if none). */
  nextEnd(now: number): number {
    this.alone(now);
    let i = this.next;
    let end: number;
    if (this.backlog > EPS) end = now + this.backlog;
    else {
      const a = this.arrival(i);
      if (!Number.isFinite(a)) return a;
      end = a + this.demands[i]!;
      i++;
    }
    for (let a = this.arrival(i); a <= end; a = this.arrival(i)) {
      end += this.demands[i]!;
      i++;
    }
    return end;
  }

  /**
   * Runs a parallel task of `work` CPU-seconds (at this processor's speed) from `t0` with the
   * given shares, charging `switchCost` more work per local job it meets; returns when it ends
   * and leaves the state there.
   */
  runTask(t0: number, work: number, shares: { task: number; local: number }, switchCost: number) {
    this.alone(t0);
    let left = work + (this.backlog > EPS ? switchCost : 0);
    let t = t0;
    for (;;) {
      const a = this.arrival(this.next);
      if (this.backlog > EPS) {
        const taskEnd = t + left / shares.task;
        const drained =
          shares.local > 0 ? t + this.backlog / shares.local : Number.POSITIVE_INFINITY;
        const until = Math.min(taskEnd, drained, a);
        left -= (until - t) * shares.task;
        this.backlog = Math.max(0, this.backlog - (until - t) * shares.local);
        t = until;
        if (until === taskEnd) break;
        if (until === a) {
          this.backlog += this.demands[this.next]!;
          this.next++;
          left += switchCost;
        }
      } else {
        if (t + left <= a) {
          t += left;
          break;
        }
        left -= a - t;
        t = a;
        this.backlog += this.demands[this.next]!;
        this.next++;
        left += switchCost;
      }
    }
    this.t = t;
    return t;
  }
}

/**
 * The jobs of a space-sharing simulation, checked: an array of job objects whose `id` is an
 * integer >= 0, `submit` finite, `runtime` (and `estimate`, `benchmark` when present) a finite
 * number > 0, `cores` (and `maxParallelism` when present) an integer >= 1. Internal: both
 * simulators, once per run.
 */
export function checkJobList(where: string, jobs: readonly Job[]): void {
  requireArray(where, "jobs", jobs);
  for (let i = 0; i < jobs.length; i++) {
    const at = `jobs[${i}]`;
    const j = requireObject(where, at, jobs[i]) as Job;
    requireInteger(where, `${at}.id`, j.id, 0);
    requireFinite(where, `${at}.submit`, j.submit);
    requirePositive(where, `${at}.runtime`, j.runtime);
    if (j.estimate !== undefined) requirePositive(where, `${at}.estimate`, j.estimate);
    if (j.benchmark !== undefined) requirePositive(where, `${at}.benchmark`, j.benchmark);
    requireInteger(where, `${at}.cores`, j.cores, 1);
    if (j.maxParallelism !== undefined)
      requireInteger(where, `${at}.maxParallelism`, j.maxParallelism, 1);
  }
}

/**
 * Simulates moldable jobs (`job.maxParallelism` tasks, default `job.cores`; the work,
 * `runtime * cores` at the reference speed, split evenly over the tasks) on a multi-cluster
 * platform under the dynamic space-sharing policy or the adaptive partitioning baseline (first
 * paper, section 2.2 and its baseline [2]; see the README's Interpretation for every rule). One
 * processor per core.
 *
 * Dynamic: runs on every arrival and departure and whenever the pool (processors running
 * neither a parallel task nor a local job) grows while jobs wait; head of the queue first,
 * target `min(maxParallelism, dynamicPartitionSize({ processors: P, queued, executing }))`, allots
 * `min(target, pool)` processors once the pool holds `min(target, alpha)` (with
 * `dynamicAllotment: "target"`: `target` processors once the pool holds them), selected with
 * {@link selectProcessors} (by `clusterSelection` and `clusterProximity`); tasks folded by fitness factor ({@link taskBunches}); each
 * processor returns to the pool as soon as its bunch is done.
 * Adaptive: runs on arrivals and departures (and, so that no job starves, at the end of a local
 * job while no parallel job runs); target `min(maxParallelism, size)`, the size by
 * `baselinePartition` from all `P` processors; the head waits until that many processors are
 * idle; processors by `baselineSelection`, equal bunches; all held until the job ends.
 *
 * A job's time on its partition: the scatter of its data from the first processor
 * (`(k - 1) * (startup + size / k / bandwidth)`, plus the link latency of both clusters for each
 * message that leaves the cluster), then each processor computes its bunch at its speed, shared
 * with the local jobs it meets as `backgroundSharing` says, paying two context switches per
 * local job met.
 *
 * Complexity: O(decisions * P log P + local jobs).
 *
 * @throws InvalidInputError for invalid options or jobs not sorted by submit.
 *
 * @example
 * ```ts
 * const r = simulateSpaceSharing(jobs, multiClusterPlatform(Array(8).fill({ nodes: 8 })), { policy: "adaptive" });
 * r.meanResponse;
 * ```
 */
export function simulateSpaceSharing(
  jobs: readonly Job[],
  platform: Platform,
  options: SpaceSharingOptions = {},
): SpaceSharingResult {
  requireKnownKeys(WHERE, "options", options, SPACE_SHARING_KEYS);
  const o = resolveSpaceSharingOptions(options);
  checkJobList(WHERE, jobs);
  for (let i = 1; i < jobs.length; i++) {
    if (jobs[i]!.submit < jobs[i - 1]!.submit) {
      throw new InvalidInputError(
        WHERE,
        `jobs[${i}].submit`,
        "is earlier than the previous job's, expected jobs sorted by submit",
      );
    }
  }
  const processorMachine: number[] = [];
  for (const m of platform.machines) for (let c = 0; c < m.cores; c++) processorMachine.push(m.id);
  const P = processorMachine.length;
  const speeds = processorMachine.map((m) => platform.machines[m]!.speed);
  const ff = fitnessFactors(speeds, o.mpl);
  const local = processorMachine.map((_, p) =>
    LocalLoad.poisson(
      new Random(o.seed, `background/p${p}`),
      o.backgroundLoad,
      o.backgroundMeanDemand,
    ),
  );
  const pick = new Random(o.seed, "baseline/selection");
  const busyUntil = new Float64Array(P); // parallel task on p until then (0 = free)
  const holding = new Uint8Array(P);
  const shares = sharesOf(o);
  const switchCost = 2 * o.contextSwitch;

  interface Running {
    job: Job;
    start: number;
    end: number;
    processors: number[];
    bunches: number[];
    release: number[];
  }
  const running: Running[] = [];
  const queue: Job[] = [];
  const records: SpaceSharingRecord[] = [];
  let next = 0;
  let decisions = 0;
  let heldTime = 0;

  const latencyOf = (p: number) => {
    const link = platform.clusters[platform.machines[processorMachine[p]!]!.cluster]!.link;
    return link === undefined ? 0 : platform.links[link]!.latency;
  };
  const clusterOf = (p: number) => platform.machines[processorMachine[p]!]!.cluster;

  const start = (job: Job, processors: number[], weights: ArrayLike<number>, now: number) => {
    const tasks = Math.max(job.maxParallelism ?? job.cores, processors.length);
    const bunches = bunchTasks(weights, tasks);
    const k = processors.length;
    const size = o.messageBytes(job);
    let comm = 0;
    for (let i = 1; i < k; i++) {
      comm += o.startup + size / k / o.bandwidth;
      if (clusterOf(processors[i]!) !== clusterOf(processors[0]!)) {
        comm += latencyOf(processors[i]!) + latencyOf(processors[0]!);
      }
    }
    const perTask = jobWork(job, platform) / tasks;
    const release: number[] = [];
    let end = now;
    for (let i = 0; i < k; i++) {
      const p = processors[i]!;
      const done = local[p]!.runTask(
        now + comm,
        (bunches[i]! * perTask) / speeds[p]!,
        shares,
        switchCost,
      );
      release.push(done);
      end = Math.max(end, done);
    }
    for (let i = 0; i < k; i++) {
      if (o.policy === "adaptive") release[i] = end;
      busyUntil[processors[i]!] = release[i]!;
      holding[processors[i]!] = 1;
    }
    running.push({ job, start: now, end, processors, bunches: [...bunches], release });
  };

  const pool = (now: number) => {
    const a = new Uint8Array(P);
    let n = 0;
    for (let p = 0; p < P; p++) {
      if (!holding[p] && !local[p]!.busy(now)) {
        a[p] = 1;
        n++;
      }
    }
    return { a, n };
  };

  // The partition sizes unchecked (partitionSize): P and the counts are valid by construction,
  // executingWeight checked with the options.
  const baselineSize = (queued: number) =>
    o.baselinePartition === "map"
      ? partitionSize(P, queued, o.executingWeight, running.length)
      : partitionSize(P, queued, 0, 0);

  const runPolicy = (now: number) => {
    decisions++;
    while (queue.length > 0) {
      const job = queue[0]!;
      const { a, n } = pool(now);
      const maxPar = job.maxParallelism ?? job.cores;
      if (o.policy === "dynamic") {
        const target = Math.min(maxPar, partitionSize(P, queue.length - 1, 0.5, running.length));
        if (n < dynamicGate(o.dynamicAllotment, target, o.alpha)) return;
        // (chooseProcessors unchecked: the pool and the rule are valid by construction)
        const chosen = chooseProcessors(
          platform,
          processorMachine,
          a,
          Math.min(target, n),
          o.clusterSelection,
          o.clusterProximity,
        )!;
        start(
          job,
          chosen,
          chosen.map((p) => ff[p]!),
          now,
        );
      } else {
        const target = Math.min(maxPar, baselineSize(queue.length - 1));
        if (n < target) return;
        const chosen = chooseBaseline(a, speeds, target, o.baselineSelection, pick);
        start(job, chosen, new Float64Array(chosen.length).fill(1), now);
      }
      queue.shift();
    }
  };

  let now = jobs.length > 0 ? jobs[0]!.submit : 0;
  while (next < jobs.length || running.length > 0 || queue.length > 0) {
    // next event: arrival, processor release, or (dynamic) end of a local job
    let t = next < jobs.length ? jobs[next]!.submit : Number.POSITIVE_INFINITY;
    for (const r of running) for (const e of r.release) if (e > now && e < t) t = e;
    const idle = running.length === 0;
    if ((o.policy === "dynamic" || idle) && o.backgroundLoad > 0 && queue.length > 0) {
      for (let p = 0; p < P; p++) {
        if (!holding[p]) t = Math.min(t, local[p]!.nextEnd(now));
      }
    }
    if (!Number.isFinite(t)) break; // unreachable: a waiting job always has a next event
    now = t;
    let departed = false;
    for (let i = 0; i < running.length; ) {
      const r = running[i]!;
      for (let j = 0; j < r.processors.length; j++) {
        const p = r.processors[j]!;
        if (holding[p] && r.release[j]! <= now && busyUntil[p] === r.release[j]) {
          holding[p] = 0;
          heldTime += r.release[j]! - r.start;
        }
      }
      if (r.end <= now) {
        records.push({
          job: r.job,
          start: r.start,
          end: r.end,
          processors: r.processors,
          bunches: r.bunches,
          release: r.release,
        });
        running.splice(i, 1);
        departed = true;
      } else i++;
    }
    let arrived = false;
    while (next < jobs.length && jobs[next]!.submit <= now) {
      queue.push(jobs[next++]!);
      arrived = true;
    }
    queue.sort((x, y) => x.submit - y.submit || x.id - y.id);
    if (arrived || departed) runPolicy(now);
    else if (
      queue.length > 0 &&
      (o.policy === "dynamic" ? pool(now).n >= 1 : running.length === 0)
    ) {
      runPolicy(now);
    }
  }
  records.sort((x, y) => x.end - y.end || x.job.id - y.job.id);
  const first = jobs.length > 0 ? jobs[0]!.submit : 0;
  const makespan = records.reduce((m, r) => Math.max(m, r.end), first);
  const meanResponse =
    records.length === 0
      ? 0
      : records.reduce((s, r) => s + (r.end - r.job.submit), 0) / records.length;
  const span = makespan - first;
  return {
    policy: o.policy,
    records,
    processorMachine,
    meanResponse,
    utilization: span > 0 ? heldTime / (P * span) : 0,
    makespan,
    decisions,
  };
}

/**
 * The baseline's `count` processors among the available ones (`available[p]` 1): uniformly at
 * random (a partial Fisher-Yates shuffle of the available ones, in index order, drawing from
 * `random`), the fastest (ties: lower index), or the lowest-index ones; returned in ascending
 * index order (the first is the job's root). Internal, shared with the core path.
 *
 * Complexity: O(P) for the available processors, O(count log count) to sort the chosen ones, and
 * O(P log P) for `"fastest"` on processors of several speeds.
 */
export function chooseBaseline(
  available: ArrayLike<number>,
  speeds: ArrayLike<number>,
  count: number,
  selection: BaselineSelection,
  random: Random,
): number[] {
  // The available processors in index order, in a buffer kept between calls (on a machine of
  // 131,072 processors, one array push per processor per start was most of a run).
  if (freeScratch.length < available.length) freeScratch = new Int32Array(available.length);
  const free = freeScratch;
  let n = 0;
  for (let p = 0; p < available.length; p++) if (available[p]) free[n++] = p;
  if (selection === "fastest" && !sameSpeed(free, n, speeds)) {
    // (on processors of one speed the order is the index order already)
    const sorted = Array.from(free.subarray(0, n)).sort((a, b) => speeds[b]! - speeds[a]! || a - b);
    free.set(sorted);
  } else if (selection === "random") {
    for (let i = 0; i < count && i < n - 1; i++) {
      const k = random.integer(i, n - 1);
      const x = free[i]!;
      free[i] = free[k]!;
      free[k] = x;
    }
  }
  const chosen = free.subarray(0, Math.min(count, n));
  sortIndices(chosen, available.length);
  const out = new Array<number>(chosen.length);
  for (let i = 0; i < chosen.length; i++) out[i] = chosen[i]!;
  return out;
}

/**
 * {@link chooseBaseline} on a {@link ProcessorPool}: the same processors, drawing the same
 * numbers from `random`, without reading every processor's flag. `"random"` is the same partial
 * Fisher-Yates shuffle run on the ranks of the available processors (rank r: the r-th available
 * one in index order, the processor at position r of chooseBaseline's list): positions the
 * shuffle has written are kept in a stamped array, any other position j holds rank j. The
 * chosen ranks, sorted, are then looked up in the pool at once (in increasing order, ranks and
 * processors have the same order). `"lowest-index"` and `"fastest"` on processors of one speed
 * take the first `count` available ones; `"fastest"` on several speeds is chooseBaseline's.
 * Does not change the pool (the caller clears the chosen ones). Internal, the core path's.
 *
 * Complexity: O(count) draws and writes, O(count) to sort the chosen ranks (radix), and the
 * pool's look-up (O(P / 1024) blocks plus the words of the blocks holding a chosen processor);
 * O(P log P) for `"fastest"` on processors of several speeds.
 */
export function choosePoolBaseline(
  pool: ProcessorPool,
  speeds: ArrayLike<number>,
  count: number,
  selection: BaselineSelection,
  random: Random,
): number[] {
  const n = pool.count;
  if (selection === "fastest" && !oneSpeed(speeds)) {
    return chooseBaseline(pool.flags, speeds, count, selection, random);
  }
  const c = Math.max(0, Math.min(count, n));
  if (selection !== "random") return pool.firstAvailable(c);
  if (c * DENSE_SHUFFLE > n) {
    // most of the pool: chooseBaseline's own shuffle of the list, the list read from the bits
    if (freeScratch.length < n) freeScratch = new Int32Array(n);
    const free = freeScratch;
    pool.listInto(free);
    for (let i = 0; i < count && i < n - 1; i++) {
      const k = random.integer(i, n - 1);
      const x = free[i]!;
      free[i] = free[k]!;
      free[k] = x;
    }
    const chosen = free.subarray(0, c);
    sortRanks(chosen, pool.size);
    const out = new Array<number>(c);
    for (let i = 0; i < c; i++) out[i] = chosen[i]!;
    return out;
  }
  if (chosenScratch.length < c) {
    chosenScratch = new Int32Array(Math.max(c, 2 * chosenScratch.length));
  }
  const chosen = chosenScratch.subarray(0, c);
  shuffledRanks(n, count, random, chosen);
  sortRanks(chosen, n);
  const out = new Array<number>(c);
  pool.select(chosen, c, out);
  return out;
}

/**
 * The sparse partial Fisher-Yates shuffle of the ranks `0..n-1`: the same swaps as shuffling
 * the array `[0, 1, …, n - 1]` in place for `i < count` (and `i < n - 1`), drawing
 * `random.integer(i, n - 1)` each, but only the positions written are kept (in a stamped
 * scratch array, so nothing is cleared or filled per call); any other position j holds j. Writes
 * the first `out.length` positions (at most `min(count, n)`) to `out`. Internal, exported for
 * its property test.
 *
 * Complexity: O(min(count, n)) time, O(n) scratch kept between calls.
 */
export function shuffledRanks(n: number, count: number, random: Random, out: Int32Array): void {
  if (shuffleScratch.length < 2 * n) {
    shuffleScratch = new Int32Array(2 * n);
    shuffleStamp = 0;
  }
  if (shuffleStamp === 0x7fffffff) {
    shuffleScratch.fill(0);
    shuffleStamp = 0;
  }
  const stamp = ++shuffleStamp;
  // position j: its rank at 2j, valid when 2j + 1 holds this call's stamp (one cache line)
  const slot = shuffleScratch;
  for (let i = 0; i < count && i < n - 1; i++) {
    const k = random.integer(i, n - 1);
    const ri = slot[2 * i + 1] === stamp ? slot[2 * i]! : i;
    const rk = slot[2 * k + 1] === stamp ? slot[2 * k]! : k;
    slot[2 * i] = rk;
    slot[2 * i + 1] = stamp;
    slot[2 * k] = ri;
    slot[2 * k + 1] = stamp;
  }
  // (the last position is unwritten when the shuffle stopped at n - 1)
  for (let i = 0; i < out.length; i++) out[i] = slot[2 * i + 1] === stamp ? slot[2 * i]! : i;
}

/**
 * {@link choosePoolBaseline} shuffles the list of available processors itself when it takes
 * more than one in this many of them (reading the list, about 1.3 ns a processor, then costs less than the stamped positions, about 45 ns more a chosen one, bench/space-sharing-big-machine.bench.ts).
 */
const DENSE_SHUFFLE = 32;

/** {@link choosePoolBaseline}'s shuffled positions with their stamps, and its chosen ranks (grown, never shrunk). */
let shuffleScratch = new Int32Array(0);
let shuffleStamp = 0;
let chosenScratch = new Int32Array(0);
let rankBits = new Int32Array(0);

/**
 * Sorts `a` (distinct integers in `[0, bound)`) ascending, in place: the typed array's sort for
 * few, else one bit per value in a bitmap of `bound` bits read back in order (the values are
 * distinct; O(length + bound / 32), no passes over scattered buckets).
 */
function sortRanks(a: Int32Array, bound: number): void {
  const n = a.length;
  if (n < RADIX_FROM) {
    a.sort();
    return;
  }
  const words = (bound + 31) >>> 5;
  if (rankBits.length < words) rankBits = new Int32Array(words);
  const bits = rankBits;
  for (let i = 0; i < n; i++) bits[a[i]! >>> 5]! |= 1 << (a[i]! & 31);
  let j = 0;
  for (let w = 0; w < words && j < n; w++) {
    let x = bits[w]!;
    if (x === 0) continue;
    bits[w] = 0;
    while (x !== 0) {
      const low = x & -x;
      a[j++] = (w << 5) + 31 - Math.clz32(low);
      x ^= low;
    }
  }
}

const oneSpeedCache = new WeakMap<object, boolean>();

/** Whether every processor has the same speed (cached per speeds array). */
function oneSpeed(speeds: ArrayLike<number>): boolean {
  let same = oneSpeedCache.get(speeds);
  if (same === undefined) {
    same = true;
    for (let p = 1; p < speeds.length && same; p++) if (speeds[p] !== speeds[0]) same = false;
    oneSpeedCache.set(speeds, same);
  }
  return same;
}

/** Below this many, {@link sortIndices} leaves the sort to the typed array. */
const RADIX_FROM = 256;
/** Bits per pass of {@link sortIndices}'s radix sort. */
const RADIX_BITS = 11;
let radixScratch = new Int32Array(0);
const radixCounts = new Int32Array(1 << RADIX_BITS);

/**
 * Sorts `a` (integers in `[0, bound)`) ascending, in place: a radix sort of RADIX_BITS bits a
 * pass for many (thousands of processors chosen on a big machine: a few passes over them instead
 * of a comparison sort), the typed array's own sort for few.
 */
function sortIndices(a: Int32Array, bound: number): void {
  const n = a.length;
  if (n < RADIX_FROM) {
    a.sort();
    return;
  }
  if (radixScratch.length < n) radixScratch = new Int32Array(n);
  let from: Int32Array = a;
  let to: Int32Array = radixScratch.subarray(0, n);
  const mask = (1 << RADIX_BITS) - 1;
  const counts = radixCounts;
  for (let shift = 0; shift < 31 && (bound - 1) >>> shift > 0; shift += RADIX_BITS) {
    counts.fill(0);
    for (let i = 0; i < n; i++) counts[(from[i]! >>> shift) & mask]!++;
    let sum = 0;
    for (let b = 0; b <= mask; b++) {
      const c = counts[b]!;
      counts[b] = sum;
      sum += c;
    }
    for (let i = 0; i < n; i++) {
      const v = from[i]!;
      to[counts[(v >>> shift) & mask]!++] = v;
    }
    const t = from;
    from = to;
    to = t;
  }
  if (from !== a) a.set(from);
}

/** {@link chooseBaseline}'s buffer of available processors (grown, never shrunk). */
let freeScratch = new Int32Array(0);

/** Whether the first `n` processors of `list` all have the same speed. */
function sameSpeed(list: Int32Array, n: number, speeds: ArrayLike<number>): boolean {
  for (let i = 1; i < n; i++) if (speeds[list[i]!] !== speeds[list[0]!]) return false;
  return true;
}
