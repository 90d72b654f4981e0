import { benchmarkOf, InvalidInputError, type Job, type Platform } from "@sched/core";
import { Random } from "@sched/random";
import {
  adaptivePartitionSize,
  dynamicPartitionSize,
  fitnessFactors,
  selectProcessors,
  taskBunches,
} from "./partition.js";

/** The two space-sharing policies of the first paper. */
export type SpaceSharingPolicy = "dynamic" | "adaptive";

/** Options of {@link simulateSpaceSharing}. */
export interface SpaceSharingOptions {
  /** `"dynamic"` (the paper's policy) or `"adaptive"` (the baseline). @defaultValue `"dynamic"` */
  readonly policy?: SpaceSharingPolicy;
  /** Space-sharing threshold `alpha`: the dynamic policy also runs when this many processors are in the pool. @defaultValue `2` */
  readonly alpha?: number;
  /** Multiprogramming level (in the fitness factor, and the CPU share of a parallel task under background load is `1 / MPL`). @defaultValue `2` */
  readonly mpl?: number;
  /** Background (local) load: the fraction of time each processor runs local jobs, in [0, 1). @defaultValue `0` */
  readonly backgroundLoad?: number;
  /** Mean service demand of a local job, seconds. @defaultValue `2` */
  readonly backgroundMeanDemand?: number;
  /** Context switch cost, seconds, charged twice per local job that interrupts a parallel task. @defaultValue `200e-6` */
  readonly contextSwitch?: number;
  /** Message startup cost, seconds. @defaultValue `50e-6` */
  readonly startup?: number;
  /** Network bandwidth, bytes/s. @defaultValue `12.5e6` (100 Mbit/s) */
  readonly bandwidth?: number;
  /** Size of a job's data, bytes. @defaultValue the sum of `job.input` sizes, else 0 */
  readonly messageBytes?: (job: Job) => number;
  /** Seed of the background load. @defaultValue `1` */
  readonly seed?: number;
  /**
   * Dynamic policy only: hold every processor of a job until the whole job ends instead of
   * returning each one to the pool when its bunch is done (what the core-engine path,
   * `simulateSpaceSharingOnCore`, does; used to cross-check it). The adaptive policy always
   * holds. @defaultValue `false`
   */
  readonly holdUntilEnd?: boolean;
}

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
  mpl: number;
  backgroundLoad: number;
  backgroundMeanDemand: number;
  contextSwitch: number;
  startup: number;
  bandwidth: number;
  messageBytes: (job: Job) => number;
  seed: number;
  holdUntilEnd: boolean;
}

const WHERE = "@sched/multicluster/simulateSpaceSharing";

/** Fills defaults and validates (internal; errors name `where`). */
export function resolveSpaceSharingOptions(
  o: SpaceSharingOptions,
  where: string = WHERE,
): ResolvedSpaceSharingOptions {
  const r: ResolvedSpaceSharingOptions = {
    policy: o.policy ?? "dynamic",
    alpha: o.alpha ?? 2,
    mpl: o.mpl ?? 2,
    backgroundLoad: o.backgroundLoad ?? 0,
    backgroundMeanDemand: o.backgroundMeanDemand ?? 2,
    contextSwitch: o.contextSwitch ?? 200e-6,
    startup: o.startup ?? 50e-6,
    bandwidth: o.bandwidth ?? 12.5e6,
    messageBytes: o.messageBytes ?? ((job) => (job.input ?? []).reduce((s, d) => s + d.size, 0)),
    seed: o.seed ?? 1,
    holdUntilEnd: o.holdUntilEnd ?? false,
  };
  if (r.policy !== "dynamic" && r.policy !== "adaptive") {
    throw new InvalidInputError(
      where,
      "options.policy",
      `is ${String(r.policy)}, expected "dynamic" or "adaptive"`,
    );
  }
  const check = (field: string, v: number, ok: boolean, expected: string) => {
    if (!Number.isFinite(v) || !ok) {
      throw new InvalidInputError(
        where,
        `options.${field}`,
        `is ${String(v)}, expected ${expected}`,
      );
    }
  };
  check("alpha", r.alpha, Number.isInteger(r.alpha) && r.alpha >= 0, "an integer >= 0");
  check("mpl", r.mpl, r.mpl >= 1, "a number >= 1");
  check(
    "backgroundLoad",
    r.backgroundLoad,
    r.backgroundLoad >= 0 && r.backgroundLoad < 1,
    "a number in [0, 1)",
  );
  check("backgroundMeanDemand", r.backgroundMeanDemand, r.backgroundMeanDemand > 0, "a number > 0");
  check("contextSwitch", r.contextSwitch, r.contextSwitch >= 0, "a number >= 0");
  check("startup", r.startup, r.startup >= 0, "a number >= 0");
  check("bandwidth", r.bandwidth, r.bandwidth > 0, "a number > 0");
  return r;
}

/**
 * The local (background) jobs of one processor: Poisson arrivals of rate `load / mean`,
 * exponential demands of mean `mean`, served first come first served; busy intervals are
 * generated lazily from a per-processor random stream (`background/p<index>` of the seed).
 */
class LocalLoad {
  readonly starts: number[] = [];
  readonly ends: number[] = [];
  private nextArrival: number;
  private readonly rng: Random;

  constructor(
    rng: Random,
    private readonly load: number,
    private readonly mean: number,
  ) {
    this.rng = rng;
    this.nextArrival = load > 0 ? this.rng.exponential(mean / load) : Number.POSITIVE_INFINITY;
  }

  /** Generates intervals until one ends after `t` (or none will). */
  cover(t: number): void {
    while (
      this.nextArrival <= t ||
      (this.ends.length > 0 &&
        this.ends[this.ends.length - 1]! <= t &&
        this.nextArrival < Number.POSITIVE_INFINITY)
    ) {
      const a = this.nextArrival;
      const d = this.rng.exponential(this.mean);
      const last = this.ends.length - 1;
      if (last >= 0 && this.ends[last]! >= a) this.ends[last] = this.ends[last]! + d;
      else {
        this.starts.push(a);
        this.ends.push(a + d);
      }
      this.nextArrival = a + this.rng.exponential(this.mean / this.load);
    }
  }

  /** Index of the first interval ending after `t`. */
  private after(t: number): number {
    this.cover(t);
    let lo = 0;
    let hi = this.ends.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.ends[mid]! <= t) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  busy(t: number): boolean {
    const i = this.after(t);
    return i < this.starts.length && this.starts[i]! <= t;
  }

  /** End of the busy interval in progress at `t` or the next one, Infinity if none. */
  nextEnd(t: number): number {
    const i = this.after(t);
    return i < this.ends.length ? this.ends[i]! : Number.POSITIVE_INFINITY;
  }

  /**
   * When `work` CPU-seconds started at `t0` are done: full speed outside local jobs, `share`
   * inside them, plus `switchCost` of extra work per local job met.
   */
  finish(t0: number, work: number, share: number, switchCost: number): number {
    let t = t0;
    let left = work;
    let i = this.after(t);
    for (;;) {
      this.cover(t);
      const s = i < this.starts.length ? this.starts[i]! : Number.POSITIVE_INFINITY;
      if (t < s) {
        if (t + left <= s) return t + left;
        left -= s - t;
        t = s;
      }
      left += switchCost;
      const e = this.ends[i]!;
      if (t + left / share <= e) return t + left / share;
      left -= (e - t) * share;
      t = e;
      i++;
    }
  }
}

/**
 * Simulates moldable jobs (`job.maxParallelism` tasks, default `job.cores`; `job.runtime` is the
 * total service demand at the reference speed, split evenly over the tasks) on a multi-cluster
 * platform under the dynamic space-sharing policy or the adaptive partitioning baseline (first
 * paper, section 2.2; see the README's Interpretation for every rule). One processor per core.
 *
 * Dynamic: runs on every arrival and departure and whenever the pool (processors running
 * neither a parallel task nor a local job) grows while jobs wait; head of the queue first,
 * target `min(maxParallelism, dynamicPartitionSize(P, queued, executing))`, allots
 * `min(target, pool)` processors once the pool holds `min(target, alpha)`, selected with
 * {@link selectProcessors}; tasks folded by fitness factor ({@link taskBunches}); each
 * processor returns to the pool as soon as its bunch is done.
 * Adaptive: runs on arrivals and departures (and, so that no job starves, at the end of a local
 * job while no parallel job runs); target `min(maxParallelism,
 * adaptivePartitionSize(P, queued))`; the head waits until that many processors are idle;
 * lowest-index processors, equal bunches; all are held until the job ends.
 *
 * A job's time on its partition: the scatter of its data from the first processor
 * (`(k - 1) * (startup + size / k / bandwidth)`, plus the link latency of both clusters for each
 * message that leaves the cluster), then each processor computes its bunch at its speed, at
 * `1 / MPL` of the CPU while a local job runs, paying two context switches per local job met.
 *
 * Complexity: O(decisions * P log P + background intervals).
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
  const o = resolveSpaceSharingOptions(options);
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
  const local = processorMachine.map(
    (_, p) =>
      new LocalLoad(
        new Random(o.seed, `background/p${p}`),
        o.backgroundLoad,
        o.backgroundMeanDemand,
      ),
  );
  const busyUntil = new Float64Array(P); // parallel task on p until then (0 = free)
  const holding = new Uint8Array(P);
  const share = 1 / o.mpl;
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
    const bunches = taskBunches(weights, tasks);
    const k = processors.length;
    const size = o.messageBytes(job);
    let comm = 0;
    for (let i = 1; i < k; i++) {
      comm += o.startup + size / k / o.bandwidth;
      if (clusterOf(processors[i]!) !== clusterOf(processors[0]!)) {
        comm += latencyOf(processors[i]!) + latencyOf(processors[0]!);
      }
    }
    const perTask = (job.runtime * benchmarkOf(job, platform)) / tasks;
    const release: number[] = [];
    let end = now;
    for (let i = 0; i < k; i++) {
      const p = processors[i]!;
      const done = local[p]!.finish(
        now + comm,
        (bunches[i]! * perTask) / speeds[p]!,
        share,
        switchCost,
      );
      release.push(done);
      end = Math.max(end, done);
    }
    for (let i = 0; i < k; i++) {
      if (o.policy === "adaptive" || o.holdUntilEnd) release[i] = end;
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

  const runPolicy = (now: number) => {
    decisions++;
    while (queue.length > 0) {
      const job = queue[0]!;
      const { a, n } = pool(now);
      const maxPar = job.maxParallelism ?? job.cores;
      if (o.policy === "dynamic") {
        const target = Math.min(maxPar, dynamicPartitionSize(P, queue.length - 1, running.length));
        if (n < Math.max(1, Math.min(target, o.alpha))) return;
        const chosen = selectProcessors(platform, processorMachine, a, Math.min(target, n))!;
        start(
          job,
          chosen,
          chosen.map((p) => ff[p]!),
          now,
        );
      } else {
        const target = Math.min(maxPar, adaptivePartitionSize(P, queue.length - 1));
        if (n < target) return;
        const chosen: number[] = [];
        for (let p = 0; p < P && chosen.length < target; p++) if (a[p]) chosen.push(p);
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
