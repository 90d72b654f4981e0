import {
  type Allocation,
  createJob,
  createPlatform,
  type ExecutionModel,
  InvalidInputError,
  type Job,
  MAX_RESOURCE_COUNT,
  maxCoresOf,
  oneCoreAllocation,
  type Platform,
  type RunningSetEntry,
  type Scheduler,
  type ScheduleTrace,
  type SchedulingContext,
  simulate,
} from "@sched/core";
import { describeValue, optionKeys, requireKnownKeys, requireOneOf } from "@sched/errors";
import { Random } from "@sched/random";
import {
  adaptivePartitionSize,
  bunchTasks,
  type ClusterProximity,
  type ClusterSelection,
  fitnessFactors,
  mapPartitionSize,
  selectProcessors,
  taskBunches,
} from "./partition.js";
import { ProcessorPool } from "./processor-pool.js";
import {
  type BackgroundSharing,
  type BaselinePartition,
  type BaselineSelection,
  checkJobList,
  type DynamicAllotment,
  jobWork,
  resolveSpaceSharingOptions,
  SPACE_SHARING_KEYS,
  type SpaceSharingOptions,
  type SpaceSharingPolicy,
  sharesOf,
} from "./space-sharing.js";
import { decideSpaceSharing, resolvePolicyOptions } from "./space-sharing-pass.js";

/**
 * Which machine a local (background) job is pinned to, `undefined` for a parallel job. The
 * scheduler and the execution model of the core path must be given the same function.
 */
export type LocalMachineOf = (job: Job, platform: Platform) => number | undefined;

const noLocalJobs: LocalMachineOf = () => undefined;

/** Options of {@link spaceSharingScheduler}. */
export interface SpaceSharingSchedulerOptions {
  /** `"dynamic"` (the paper's policy) or `"adaptive"` (the baseline). @defaultValue `"dynamic"` */
  readonly policy?: SpaceSharingPolicy;
  /** Space-sharing threshold `alpha` (dynamic policy). @defaultValue `2` */
  readonly alpha?: number;
  /** Dynamic policy: the cluster taken when several have enough ({@link ClusterSelection}). @defaultValue `"fastest"` */
  readonly clusterSelection?: ClusterSelection;
  /** Dynamic policy: how a job no cluster can hold spreads over clusters ({@link ClusterProximity}). @defaultValue `"line"` */
  readonly clusterProximity?: ClusterProximity;
  /** Dynamic policy: how many processors the head gets ({@link DynamicAllotment}). @defaultValue `"pool"` */
  readonly dynamicAllotment?: DynamicAllotment;
  /** Adaptive policy: its partition size (`"map"` or `"rosti"`). @defaultValue `"map"` */
  readonly baselinePartition?: BaselinePartition;
  /** Adaptive policy, MAP: weight of the executing jobs. @defaultValue `1` */
  readonly executingWeight?: number;
  /** Adaptive policy: which processors it takes. @defaultValue `"random"` */
  readonly baselineSelection?: BaselineSelection;
  /** Seed of the adaptive policy's random selection (stream `baseline/selection`). @defaultValue `1` */
  readonly seed?: number;
  /** Local jobs and their machines. @defaultValue none (every job is parallel) */
  readonly localMachine?: LocalMachineOf;
}

/** The keys of {@link SpaceSharingSchedulerOptions}, all of them (checked by the compiler). */
const SCHEDULER_KEYS = optionKeys<SpaceSharingSchedulerOptions>({
  policy: true,
  alpha: true,
  clusterSelection: true,
  clusterProximity: true,
  dynamicAllotment: true,
  baselinePartition: true,
  executingWeight: true,
  baselineSelection: true,
  seed: true,
  localMachine: true,
});

const WHERE = "@sched/multicluster/spaceSharingScheduler";

/**
 * Dynamic space sharing or adaptive partitioning (first paper, section 2.2) as a core
 * `Scheduler`: each machine of the platform is one processor, whose `cores` are its process
 * slots (a parallel task or a local job each take one; {@link processorPlatform} gives every
 * processor `MPL` slots). A parallel job takes one slot on each of the processors the policy
 * picks, root (where its data starts) first; a moldable job (`maxParallelism` > `cores`) any
 * number from `cores` to `maxParallelism`, a rigid one exactly `cores` (rejected, with a
 * reason, when the platform has fewer processors). Processors are held until the job ends.
 *
 * Local jobs (`localMachine(job)` defined, one core each) start at once on their processor
 * when it runs no other local job and has a free slot, else wait there first come first served;
 * they are never counted in the parallel queue.
 *
 * The pool: processors running no parallel task and no local job, with a free slot. Parallel
 * jobs that are ready wait in the engine's queue order (submit, then id); the policy serves the
 * head only (no backfilling), as the package's own simulator does:
 * - dynamic: runs after every parallel arrival or completion and every local completion (the
 *   only moments the pool grows, so this covers "when alpha processors are idle" without a
 *   timer); target `min(maxParallelism, dynamicPartitionSize({ processors: P, queued, executing }))`; starts
 *   the head on `max(cores, min(target, pool))` processors, chosen by
 *   {@link selectProcessors} (by `clusterSelection` and `clusterProximity`), once the pool
 *   holds `max(1, min(target, alpha))` (with `dynamicAllotment: "target"`, `target`) and at least `cores`;
 * - adaptive: runs after every parallel arrival or completion, and after a local completion
 *   while no parallel job runs; target `max(cores, min(maxParallelism, size))`, the size by
 *   `baselinePartition` ({@link mapPartitionSize} or {@link adaptivePartitionSize}); the head
 *   waits until the pool holds the target; processors by `baselineSelection`.
 * `P` is the number of machines, `queued` the ready parallel jobs behind the head,
 * `executing` the parallel jobs running. Task folding, communication and interference are the
 * execution model's ({@link spaceSharingExecutionModel}). The parallel decision is
 * {@link spaceSharingPass}'s, on the pool, the ready queue and `executing` (one
 * implementation, called here without the pass's checks of its state); this adapter adds the triggers, the local jobs and the processors held.
 *
 * Complexity: per job started on k processors, O(k + M / 32) for the baseline (`"fastest"`
 * on machines of several speeds: O(M log M)) and for dynamic space sharing on one cluster of
 * equal speeds, O(M log M) for dynamic space sharing otherwise; plus, per call, O(jobs the
 * decision looks at + machines changed since the previous call), M machines: the ready queue is
 * read lazily from the view's head (local jobs and jobs not ready at its head are stepped over),
 * the pool is kept between calls as flags, bits and per-block counts (`ProcessorPool`), so
 * that the k processors are found without reading every machine's flag. While local jobs wait, O(M) per
 * call to start them. With a view whose counts disagree with the scheduler's own (a view made by
 * hand), O(M + queue) per call as before.
 *
 * @throws InvalidInputError for invalid options, or a local job that does not need exactly one
 * core or names a machine the platform lacks.
 *
 * @example
 * ```ts
 * const trace = simulate(jobs, platform, spaceSharingScheduler({ policy: "dynamic" }), {
 *   executionModel: spaceSharingExecutionModel({ bunching: "fitness" }),
 * });
 * ```
 */
export function spaceSharingScheduler(options: SpaceSharingSchedulerOptions = {}): Scheduler {
  requireKnownKeys(WHERE, "options", options, SCHEDULER_KEYS);
  const o = resolvePolicyOptions(options, WHERE);
  const { policy } = o;
  const localMachine = options.localMachine ?? noLocalJobs;

  let platform: Platform | null = null;
  let M = 0;
  let holding = new Uint8Array(0);
  let localBusy = new Uint8Array(0);
  let localQueues: number[][] = [];
  let localHeads: number[] = [];
  let localWaiting = 0;
  const machinesOf = new Map<number, readonly number[]>();
  const localOf = new Map<number, number>();
  let executing = 0;
  let pick = new Random(o.seed, "baseline/selection");
  // The pass's per-platform constants and its pool flags, built once per platform.
  let identity: number[] = [];
  let speeds: number[] = [];
  let pool = new ProcessorPool(0);
  // The parallel jobs waiting (arrived, neither started nor rejected), and the ready times of
  // those not ready yet: while they and the local jobs waiting add up to the view's count, the
  // ready queue is read lazily from the view's head (a call costs the jobs the decision looks
  // at, not the queue); otherwise (a hand-made view) every waiting job is read, as before.
  let parallelWaiting = 0;
  const notReady = new TimeHeap();
  // The pool kept between calls: only the machines a completion or a local start touched since
  // (`dirty[0..dirtyCount)`) are read again (all of them when `poolKnown` is false: a first
  // call, a hand-made view, more than M touched).
  let poolKnown = false;
  let dirty = new Int32Array(0);
  let dirtyCount = 0;
  const touched = (m: number) => {
    if (dirtyCount < dirty.length) dirty[dirtyCount++] = m;
    else poolKnown = false;
  };

  const init = (p: Platform) => {
    platform = p;
    M = p.machines.length;
    pick = new Random(o.seed, "baseline/selection");
    holding = new Uint8Array(M);
    localBusy = new Uint8Array(M);
    localQueues = Array.from({ length: M }, () => []);
    localHeads = new Array<number>(M).fill(0);
    localWaiting = 0;
    identity = Array.from({ length: M }, (_, m) => m);
    speeds = p.machines.map((m) => m.speed);
    pool = new ProcessorPool(M);
    machinesOf.clear();
    localOf.clear();
    executing = 0;
    parallelWaiting = 0;
    notReady.clear();
    poolKnown = false;
    dirty = new Int32Array(M);
    dirtyCount = 0;
  };

  const localMachineChecked = (job: Job, p: Platform): number | undefined => {
    const m = localMachine(job, p);
    if (m === undefined) return undefined;
    if (!Number.isInteger(m) || m < 0 || m >= p.machines.length) {
      throw new InvalidInputError(
        WHERE,
        `job ${job.id} (local) machine`,
        `is ${describeValue(m)}, expected a machine index in 0..${p.machines.length - 1}`,
      );
    }
    if (job.cores !== 1) {
      throw new InvalidInputError(
        WHERE,
        `job ${job.id} (local).cores`,
        `is ${job.cores}, expected 1 (a local job is one process)`,
      );
    }
    return m;
  };

  const startLocalJobs = (ctx: SchedulingContext) => {
    const view = ctx.view;
    for (let m = 0; m < M && localWaiting > 0; m++) {
      const q = localQueues[m]!;
      if (localBusy[m] || localHeads[m]! >= q.length || view.freeCores(m) < 1) continue;
      const id = q[localHeads[m]!]!;
      localHeads[m]! += 1;
      localWaiting--;
      if (localHeads[m]! === q.length) {
        q.length = 0;
        localHeads[m] = 0;
      }
      ctx.start(id, [{ machine: m, cores: 1 }]);
      localBusy[m] = 1;
      touched(m);
    }
  };

  const runPolicy = (ctx: SchedulingContext) => {
    const view = ctx.view;
    const p = platform!;
    const now = view.now;
    while (notReady.size > 0 && notReady.peek() <= now) notReady.pop();
    // the ready parallel jobs in queue order: `queue`, of which `queueLength` exist
    const queue: Job[] = [];
    let queueLength: number;
    let jobAt: (qi: number) => Job;
    const count = view.waitingCount ?? view.waiting.length;
    const lazy = view.waitingAt !== undefined && count === parallelWaiting + localWaiting;
    if (lazy) {
      queueLength = parallelWaiting - notReady.size;
      let cursor = 0;
      jobAt = (qi) => {
        while (queue.length <= qi) {
          const job = view.waitingAt(cursor++)!.job;
          if (localOf.has(job.id)) continue;
          if (job.ready !== undefined && job.ready > now) continue;
          queue.push(job);
        }
        return queue[qi]!;
      };
    } else {
      notReady.clear();
      parallelWaiting = 0;
      for (let i = 0; i < count; i++) {
        const w = view.waitingAt === undefined ? view.waiting[i]! : view.waitingAt(i)!;
        const job = w.job;
        if (localOf.has(job.id)) continue;
        parallelWaiting++;
        if (job.ready !== undefined && job.ready > now) {
          notReady.push(job.ready);
          continue;
        }
        queue.push(job);
      }
      queueLength = queue.length;
      jobAt = (qi) => queue[qi]!;
    }
    // The pool, as spaceSharingPass's state.available would list it, as flags: the unchecked
    // pass (the state is built here, the options were resolved once; the public pass checks both
    // at every call and decides the same, test space-sharing-pass.test.ts).
    if (lazy && poolKnown) {
      for (let i = 0; i < dirtyCount; i++) {
        const m = dirty[i]!;
        pool.set(m, !holding[m] && !localBusy[m] && view.freeCores(m) >= 1 ? 1 : 0);
      }
    } else {
      for (let m = 0; m < M; m++) {
        pool.set(m, !holding[m] && !localBusy[m] && view.freeCores(m) >= 1 ? 1 : 0);
      }
    }
    dirtyCount = 0;
    const decision = decideSpaceSharing(
      p,
      identity,
      speeds,
      pool,
      queueLength,
      (qi) => {
        const job = jobAt(qi);
        return { id: job.id, minProcessors: job.cores, maxProcessors: maxCoresOf(job) };
      },
      executing,
      o,
      pick,
    );
    // the decision took the processors it chose out of the pool, which the starts below hold
    poolKnown = true;
    // Rejections and starts in queue order, as the decision lists them.
    const reasons = new Map(decision.rejected.map((r) => [r.id, r.reason]));
    let si = 0;
    for (const job of queue) {
      const reason = reasons.get(job.id);
      if (reason !== undefined) {
        ctx.reject(job.id, reason);
        parallelWaiting--;
        continue;
      }
      const next = decision.start[si];
      if (next === undefined || next.id !== job.id) break;
      si++;
      const { id, processors } = next;
      ctx.start(id, onePerProcessor(p, processors));
      for (const m of processors) holding[m] = 1;
      machinesOf.set(id, processors);
      executing++;
      parallelWaiting--;
    }
  };

  return {
    name: policy === "dynamic" ? "dynamic-space-sharing" : "adaptive-partitioning",
    reset(p: Platform) {
      init(p);
    },
    schedule(ctx: SchedulingContext) {
      const view = ctx.view;
      if (platform !== view.platform) init(view.platform);
      const p = platform!;
      let parallelEvent = false;
      let localEnded = false;
      for (const job of ctx.completed) {
        const m = localOf.get(job.id);
        if (m !== undefined) {
          localBusy[m] = 0;
          touched(m);
          localOf.delete(job.id);
          localEnded = true;
        } else {
          const ms = machinesOf.get(job.id);
          if (ms !== undefined) {
            for (const x of ms) holding[x] = 0;
            if (dirtyCount + ms.length <= dirty.length) {
              for (let i = 0; i < ms.length; i++) dirty[dirtyCount + i] = ms[i]!;
              dirtyCount += ms.length;
            } else poolKnown = false;
            machinesOf.delete(job.id);
            executing--;
          } else poolKnown = false;
          parallelEvent = true;
        }
      }
      for (const job of ctx.arrived) {
        const m = localMachineChecked(job, p);
        if (m !== undefined) {
          localOf.set(job.id, m);
          localQueues[m]!.push(job.id);
          localWaiting++;
        } else {
          parallelEvent = true;
          parallelWaiting++;
          if (job.ready !== undefined && job.ready > view.now) notReady.push(job.ready);
        }
      }
      if ((ctx.ready?.length ?? 0) > 0) parallelEvent = true;
      if (localWaiting > 0) startLocalJobs(ctx);
      if (!poolKnown) dirtyCount = 0;
      const run = parallelEvent || (localEnded && (policy === "dynamic" || executing === 0));
      if (run) runPolicy(ctx);
    },
  };
}

/** Options of {@link spaceSharingExecutionModel}. */
export interface SpaceSharingExecutionModelOptions {
  /**
   * How a job's tasks are folded onto its processors: `"fitness"` (the dynamic policy: in
   * proportion to the fitness factors, {@link taskBunches}) or `"equal"` (adaptive
   * partitioning). @defaultValue `"fitness"`
   */
  readonly bunching?: "fitness" | "equal";
  /** Multiprogramming level: a parallel task runs at `1 / MPL` while a local job shares its processor. @defaultValue `2` */
  readonly mpl?: number;
  /**
   * The local job's share of a processor it shares with a parallel task: `"conserving"` the
   * rest (`1 - 1/MPL`), `"legacy"` all of it. @defaultValue `"conserving"`
   */
  readonly backgroundSharing?: BackgroundSharing;
  /** Message startup cost, seconds. @defaultValue `50e-6` */
  readonly startup?: number;
  /** Network bandwidth, bytes/s. @defaultValue `12.5e6` (100 Mbit/s) */
  readonly bandwidth?: number;
  /** Size of a job's data, bytes. @defaultValue the sum of `job.input` sizes, else 0 */
  readonly messageBytes?: (job: Job) => number;
  /** Local jobs (the same function as the scheduler's). @defaultValue none */
  readonly localMachine?: LocalMachineOf;
}

/** The keys of {@link SpaceSharingExecutionModelOptions}, all of them (checked by the compiler). */
const MODEL_KEYS = optionKeys<SpaceSharingExecutionModelOptions>({
  bunching: true,
  mpl: true,
  backgroundSharing: true,
  startup: true,
  bandwidth: true,
  messageBytes: true,
  localMachine: true,
});

const fitnessCache = new WeakMap<Platform, Map<number, Float64Array>>();

function fitnessOf(platform: Platform, mpl: number): Float64Array {
  let byMpl = fitnessCache.get(platform);
  if (byMpl === undefined) {
    byMpl = new Map();
    fitnessCache.set(platform, byMpl);
  }
  let ff = byMpl.get(mpl);
  if (ff === undefined) {
    ff = fitnessFactors(
      platform.machines.map((m) => m.speed),
      mpl,
    );
    byMpl.set(mpl, ff);
  }
  return ff;
}

/**
 * The space-sharing cost model as a core `ExecutionModel` with the `slowdowns` contention hook.
 *
 * A parallel job on an allocation of k processors (each part's cores count as that many
 * processors of its machine, in allocation order; the first is the root): its
 * `tasks = max(maxParallelism (else cores), k)` tasks are folded into bunches
 * ({@link taskBunches}, weights the fitness factors or equal); its duration alone is the
 * scatter of its data from the root, `sum over i = 1..k-1 of (startup + size / k / bandwidth`
 * `+ both clusters' link latencies when processor i is in another cluster than the root)`, plus
 * the longest bunch, `bunch_i * seconds * benchmark / tasks / speed_i`. A local job takes its
 * demand `seconds`, whatever the speed (as in the package's own simulator).
 *
 * Interference (`slowdowns`): while a local job and a parallel task share a processor, the task
 * runs at `1 / MPL` and the local job at `1 - 1/MPL` (`backgroundSharing: "conserving"`) or
 * unslowed (`"legacy"`). One rate per parallel job: it progresses at the work-weighted mean rate
 * of its processors,
 * `slowdown = sum W_i / sum (W_i * rate_i)` with `W_i` the compute time of bunch i alone
 * (exact for one processor or when every processor is equally loaded; see the README's
 * Interpretation for what it leaves out).
 *
 * Complexity: `duration` O(k log k); `slowdowns` O(R + sum of k log k over the parallel jobs
 * that share a processor with a local job), R running jobs.
 *
 * @throws InvalidInputError for invalid options.
 *
 * @example
 * ```ts
 * const model = spaceSharingExecutionModel({ bunching: "equal" });
 * model.duration(job, [{ machine: 0, cores: 1 }, { machine: 1, cores: 1 }], platform, 100);
 * ```
 */
export function spaceSharingExecutionModel(
  options: SpaceSharingExecutionModelOptions = {},
): ExecutionModel {
  requireKnownKeys(
    "@sched/multicluster/spaceSharingExecutionModel",
    "options",
    options,
    MODEL_KEYS,
  );
  const where = "@sched/multicluster/spaceSharingExecutionModel";
  const bunching = options.bunching ?? "fitness";
  const mpl = options.mpl ?? 2;
  const backgroundSharing = options.backgroundSharing ?? "conserving";
  const startup = options.startup ?? 50e-6;
  const bandwidth = options.bandwidth ?? 12.5e6;
  const messageBytes =
    options.messageBytes ?? ((job: Job) => (job.input ?? []).reduce((s, d) => s + d.size, 0));
  const localMachine = options.localMachine ?? noLocalJobs;
  requireOneOf(where, "options.bunching", bunching, ["fitness", "equal"]);
  requireOneOf(where, "options.backgroundSharing", backgroundSharing, ["conserving", "legacy"]);
  const check = (field: string, v: number, ok: boolean, expected: string) => {
    if (!Number.isFinite(v) || !ok) {
      throw new InvalidInputError(
        where,
        `options.${field}`,
        `is ${describeValue(v)}, expected ${expected}`,
      );
    }
  };
  check(
    "mpl",
    mpl,
    backgroundSharing === "conserving" ? mpl > 1 : mpl >= 1,
    backgroundSharing === "conserving"
      ? "a number > 1 (with conserving background sharing, MPL 1 would leave a local job no CPU)"
      : "a number >= 1",
  );
  check("startup", startup, startup >= 0, "a number >= 0");
  check("bandwidth", bandwidth, bandwidth > 0, "a number > 0");
  const shares = sharesOf({ mpl, backgroundSharing });

  /** Processors of an allocation, root first. */
  const processorsOf = (allocation: Allocation): number[] => {
    const out: number[] = [];
    for (const part of allocation) for (let c = 0; c < part.cores; c++) out.push(part.machine);
    return out;
  };

  /** Compute time of each processor's bunch alone, for `seconds` of work. */
  const computeTimes = (
    job: Job,
    procs: readonly number[],
    platform: Platform,
    seconds: number,
  ): Float64Array => {
    const k = procs.length;
    const tasks = Math.max(job.maxParallelism ?? job.cores, k);
    let weights: ArrayLike<number>;
    if (bunching === "fitness") {
      const ff = fitnessOf(platform, mpl);
      weights = procs.map((m) => ff[m]!);
    } else weights = new Float64Array(k).fill(1);
    const bunches = bunchTasks(weights, tasks);
    const perTask = jobWork({ ...job, runtime: seconds }, platform) / tasks;
    const out = new Float64Array(k);
    for (let i = 0; i < k; i++) {
      out[i] = (bunches[i]! * perTask) / platform.machines[procs[i]!]!.speed;
    }
    return out;
  };

  const unitTimes = new WeakMap<Allocation, { job: Job; times: Float64Array }>();

  const latencyOf = (platform: Platform, m: number) => {
    const link = platform.clusters[platform.machines[m]!.cluster]!.link;
    return link === undefined ? 0 : platform.links[link]!.latency;
  };

  return {
    name: `space-sharing-${bunching}`,
    duration(job: Job, allocation: Allocation, platform: Platform, seconds: number): number {
      if (localMachine(job, platform) !== undefined) return seconds;
      const procs = processorsOf(allocation);
      const k = procs.length;
      const size = messageBytes(job);
      const cluster = (m: number) => platform.machines[m]!.cluster;
      let comm = 0;
      for (let i = 1; i < k; i++) {
        comm += startup + size / k / bandwidth;
        if (cluster(procs[i]!) !== cluster(procs[0]!)) {
          comm += latencyOf(platform, procs[i]!) + latencyOf(platform, procs[0]!);
        }
      }
      const w = computeTimes(job, procs, platform, seconds);
      let longest = 0;
      for (let i = 0; i < k; i++) if (w[i]! > longest) longest = w[i]!;
      return comm + longest;
    },
    slowdowns(running: readonly RunningSetEntry[], platform: Platform): ArrayLike<number> {
      const out = new Float64Array(running.length).fill(1);
      const busy = new Uint8Array(platform.machines.length);
      const parallel = new Uint8Array(platform.machines.length);
      let any = false;
      for (const r of running) {
        if (localMachine(r.job, platform) !== undefined) {
          busy[r.allocation[0]!.machine] = 1;
          any = true;
        } else for (const part of r.allocation) parallel[part.machine] = 1;
      }
      if (!any) return out;
      for (let j = 0; j < running.length; j++) {
        const r = running[j]!;
        if (localMachine(r.job, platform) !== undefined) {
          if (parallel[r.allocation[0]!.machine]) out[j] = 1 / shares.local;
          continue;
        }
        let touched = false;
        for (const part of r.allocation) if (busy[part.machine]) touched = true;
        if (!touched) continue;
        const procs = processorsOf(r.allocation);
        // The engine keeps one frozen allocation object per interval: cache its bunch times.
        let w = unitTimes.get(r.allocation);
        if (w === undefined || w.job !== r.job) {
          w = { job: r.job, times: computeTimes(r.job, procs, platform, 1) };
          unitTimes.set(r.allocation, w);
        }
        const times = w.times;
        let total = 0;
        let rate = 0;
        for (let i = 0; i < procs.length; i++) {
          total += times[i]!;
          rate += times[i]! * (busy[procs[i]!] ? shares.task : 1);
        }
        out[j] = total / rate;
      }
      return out;
    },
  };
}

/**
 * The engine platform of the core path: one single-processor machine per core of `platform`
 * (processor p = the p-th core, machines in order, as in `simulateSpaceSharing`), with `slots`
 * cores (process slots: a parallel task and local jobs each take one), the same speed, cluster,
 * clusters, links and reference speed. Licenses are dropped (the space-sharing model has none).
 *
 * Complexity: O(total cores).
 *
 * @throws InvalidInputError when `slots` is not an integer in [1, 2^31 - 1].
 *
 * @example
 * ```ts
 * processorPlatform(multiClusterPlatform([{ nodes: 2, coresPerNode: 2 }]), 2).machines.length; // 4
 * ```
 */
export function processorPlatform(platform: Platform, slots: number): Platform {
  if (!Number.isInteger(slots) || slots < 1 || slots > MAX_RESOURCE_COUNT) {
    throw new InvalidInputError(
      "@sched/multicluster/processorPlatform",
      "slots",
      `is ${describeValue(slots)}, expected an integer in [1, ${MAX_RESOURCE_COUNT}]`,
    );
  }
  const machines: { name: string; cores: number; speed: number; cluster: number }[] = [];
  for (const m of platform.machines) {
    for (let c = 0; c < m.cores; c++) {
      machines.push({
        name: m.cores === 1 ? m.name : `${m.name}p${c}`,
        cores: slots,
        speed: m.speed,
        cluster: m.cluster,
      });
    }
  }
  return createPlatform({
    machines,
    links: platform.links.map((l) => ({ bandwidth: l.bandwidth, latency: l.latency })),
    clusters: platform.clusters.map((c) =>
      c.link === undefined ? { name: c.name } : { name: c.name, link: c.link },
    ),
    referenceSpeed: platform.referenceSpeed,
  });
}

/** The outcome of {@link simulateSpaceSharingOnCore}. */
export interface SpaceSharingCoreResult {
  readonly policy: SpaceSharingPolicy;
  /** The engine's trace: parallel jobs and local jobs (ids from `firstLocalId` on). */
  readonly trace: ScheduleTrace;
  /** Ids of local jobs start here. */
  readonly firstLocalId: number;
  /** Local jobs generated. */
  readonly localJobs: number;
  /** Parallel jobs completed (all of them unless a rigid job was wider than the platform). */
  readonly completed: number;
  /** Mean of end - submit over the parallel jobs. */
  readonly meanResponse: number;
  /** Processor-time held by parallel jobs / (processors * (last parallel end - first submit)). */
  readonly utilization: number;
  /** Last parallel end. */
  readonly makespan: number;
  /** The engine's `schedule` calls. */
  readonly decisions: number;
}

/**
 * Runs {@link spaceSharingScheduler} on core's engine with {@link spaceSharingExecutionModel}:
 * the core path of {@link simulateSpaceSharing}, same options and same meaning of the results.
 * The engine platform is {@link processorPlatform}`(platform, ceil(MPL))`. Background load is
 * made of real local jobs: on each processor, Poisson arrivals of rate `backgroundLoad / mean`
 * with exponential demands of mean `backgroundMeanDemand`, drawn from the same per-processor
 * seeded streams as the own simulator (so the local busy periods are the same), pinned to
 * their processor, run first come first served, generated lazily until every parallel job has
 * ended. Differences from the own simulator (README, Interpretation): every processor is held
 * until its job ends (core has no partial release), interference is one rate per parallel job
 * (and a local job is slowed for as long as a parallel job holds its processor), context
 * switches are not charged (`contextSwitch` is ignored).
 *
 * Complexity: O(E log E) engine work for E events (arrivals and completions of parallel and
 * local jobs) plus O(M log M + M) per policy call, M processors.
 *
 * @throws InvalidInputError for invalid options or jobs not sorted by submit (naming the
 * field or the job).
 *
 * @example
 * ```ts
 * const r = simulateSpaceSharingOnCore(jobs, multiClusterPlatform(Array(8).fill({ nodes: 8 })), { policy: "dynamic", backgroundLoad: 0.3 });
 * r.meanResponse;
 * ```
 */
export function simulateSpaceSharingOnCore(
  jobs: readonly Job[],
  platform: Platform,
  options: SpaceSharingOptions = {},
): SpaceSharingCoreResult {
  requireKnownKeys(
    "@sched/multicluster/simulateSpaceSharingOnCore",
    "options",
    options,
    SPACE_SHARING_KEYS,
  );
  const where = "@sched/multicluster/simulateSpaceSharingOnCore";
  const o = resolveSpaceSharingOptions(options, where);
  checkJobList(where, jobs);
  for (let i = 1; i < jobs.length; i++) {
    if (jobs[i]!.submit < jobs[i - 1]!.submit) {
      throw new InvalidInputError(
        where,
        `jobs[${i}].submit`,
        "is earlier than the previous job's, expected jobs sorted by submit",
      );
    }
  }
  const engine = processorPlatform(platform, Math.ceil(o.mpl));
  const P = engine.machines.length;
  let firstLocalId = 0;
  for (const j of jobs) firstLocalId = Math.max(firstLocalId, j.id + 1);
  const localMachine: LocalMachineOf = (job) =>
    job.id >= firstLocalId ? (job.id - firstLocalId) % P : undefined;
  const inner = spaceSharingScheduler({
    policy: o.policy,
    alpha: o.alpha,
    clusterSelection: o.clusterSelection,
    clusterProximity: o.clusterProximity,
    dynamicAllotment: o.dynamicAllotment,
    baselinePartition: o.baselinePartition,
    executingWeight: o.executingWeight,
    baselineSelection: o.baselineSelection,
    seed: o.seed,
    localMachine,
  });
  // Jobs the scheduler rejects (more processors than the platform has) never complete.
  let rejected = 0;
  for (const j of jobs) if (j.cores > P) rejected++;
  const state = { parallelDone: rejected, localJobs: 0 };
  const scheduler: Scheduler = {
    name: inner.name,
    reset: (p) => inner.reset?.(p),
    schedule(ctx) {
      for (const job of ctx.completed) if (job.id < firstLocalId) state.parallelDone++;
      inner.schedule(ctx);
    },
  };
  const model = spaceSharingExecutionModel({
    bunching: o.policy === "dynamic" ? "fitness" : "equal",
    mpl: o.mpl,
    backgroundSharing: o.backgroundSharing,
    startup: o.startup,
    bandwidth: o.bandwidth,
    messageBytes: o.messageBytes,
    localMachine,
  });
  const input = mergedWorkload(jobs, P, o, firstLocalId, state);
  const trace = simulate(input, engine, scheduler, { executionModel: model });

  let sumResponse = 0;
  let completed = 0;
  let held = 0;
  const first = jobs.length > 0 ? jobs[0]!.submit : 0;
  let makespan = first;
  for (const r of trace.records) {
    if (r.job.id >= firstLocalId || r.outcome !== "completed") continue;
    completed++;
    sumResponse += r.end! - r.job.submit;
    if (r.end! > makespan) makespan = r.end!;
    for (const iv of r.intervals) held += (iv.end - iv.start) * iv.allocation.length;
  }
  const span = makespan - first;
  return {
    policy: o.policy,
    trace,
    firstLocalId,
    localJobs: state.localJobs,
    completed,
    meanResponse: completed === 0 ? 0 : sumResponse / completed,
    utilization: span > 0 ? held / (P * span) : 0,
    makespan,
    decisions: trace.stats.decisions,
  };
}

/**
 * The parallel jobs merged with lazily generated local jobs (one per processor stream, ids
 * `firstLocalId + P * n + p` so that `(id - firstLocalId) % P` is the processor), in submit
 * order (a parallel job first on a tie). Stops producing local jobs once every parallel job has
 * been read and has ended.
 */
function* mergedWorkload(
  jobs: readonly Job[],
  P: number,
  o: { backgroundLoad: number; backgroundMeanDemand: number; seed: number },
  firstLocalId: number,
  state: { parallelDone: number; localJobs: number },
): Generator<Job> {
  const load = o.backgroundLoad;
  const mean = o.backgroundMeanDemand;
  const rngs: Random[] = [];
  const next = new Float64Array(P);
  const count = new Float64Array(P);
  for (let p = 0; p < P; p++) {
    const rng = new Random(o.seed, `background/p${p}`);
    rngs.push(rng);
    next[p] = load > 0 ? rng.exponential(mean / load) : Number.POSITIVE_INFINITY;
  }
  let i = 0;
  for (;;) {
    if (i >= jobs.length && state.parallelDone >= jobs.length) return;
    let p = -1;
    let t = Number.POSITIVE_INFINITY;
    for (let q = 0; q < P; q++) {
      if (next[q]! < t) {
        t = next[q]!;
        p = q;
      }
    }
    if (i < jobs.length && jobs[i]!.submit <= t) {
      yield jobs[i++]!;
      continue;
    }
    if (p < 0) return;
    const rng = rngs[p]!;
    // A zero draw (probability 2^-32) would be an invalid runtime: take the smallest positive.
    const demand = Math.max(rng.exponential(mean), Number.MIN_VALUE);
    const id = firstLocalId + P * count[p]! + p;
    count[p]! += 1;
    state.localJobs++;
    yield createJob({ id, submit: t, runtime: demand, cores: 1 });
    next[p] = t + rng.exponential(mean / load);
  }
}

/** A min-heap of times (the ready times of the parallel jobs not ready yet). */
class TimeHeap {
  private readonly items: number[] = [];

  get size(): number {
    return this.items.length;
  }

  peek(): number {
    return this.items[0]!;
  }

  push(t: number): void {
    const items = this.items;
    let i = items.length;
    items.push(t);
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!(t < items[parent]!)) break;
      items[i] = items[parent]!;
      i = parent;
    }
    items[i] = t;
  }

  pop(): void {
    const items = this.items;
    const last = items.pop()!;
    const n = items.length;
    if (n === 0) return;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= n) break;
      const c = l + 1 < n && items[l + 1]! < items[l]! ? l + 1 : l;
      if (!(items[c]! < last)) break;
      items[i] = items[c]!;
      i = c;
    }
    items[i] = last;
  }

  clear(): void {
    this.items.length = 0;
  }
}

/** Allocations of at least this many processors in ascending order go by `oneCoreAllocation`. */
const ONE_CORE_FROM = 16;

/**
 * One core on each processor's machine (a machine is a processor here), in the order given (the
 * root first): from {@link ONE_CORE_FROM} processors in ascending order on, by
 * `oneCoreAllocation` (the same parts, which the engine reads by ranges of neighbouring
 * machines instead of part by part: thousands per job on a machine of 131,072 processors).
 */
function onePerProcessor(platform: Platform, processors: readonly number[]): Allocation {
  if (processors.length >= ONE_CORE_FROM) {
    let ascending = true;
    for (let i = 1; i < processors.length && ascending; i++) {
      ascending = processors[i]! > processors[i - 1]!;
    }
    if (ascending) return oneCoreAllocation(platform, processors);
  }
  return processors.map((m) => ({ machine: m, cores: 1 }));
}
