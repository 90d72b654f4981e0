import { InvalidInputError, type Platform } from "@sched/core";
import { describeValue, optionKeys, refuseMisspeltKeys, requireKnownKeys } from "@sched/errors";
import type { Random } from "@sched/random";
import {
  type ClusterProximity,
  type ClusterSelection,
  chooseProcessors,
  oneUniformCluster,
  partitionSize,
  selectProcessors,
} from "./partition.js";
import { ProcessorPool } from "./processor-pool.js";
import {
  type BaselinePartition,
  type BaselineSelection,
  choosePoolBaseline,
  type DynamicAllotment,
  dynamicGate,
  type ResolvedSpaceSharingOptions,
  resolveSpaceSharingOptions,
  type SpaceSharingPolicy,
} from "./space-sharing.js";

const WHERE = "@sched/multicluster/spaceSharingPass";

/** A parallel job waiting for processors, as {@link spaceSharingPass} reads it. */
export interface SpaceSharingPassJob {
  /** The job's id. */
  readonly id: number;
  /** Fewest processors it runs on (a rigid job: exactly this many). */
  readonly minProcessors: number;
  /** Most processors it can use (`minProcessors` for a rigid job). */
  readonly maxProcessors: number;
}

/** The state of the system now, as {@link spaceSharingPass} reads it. */
export interface SpaceSharingPassState {
  /** The platform: each machine is one processor. */
  readonly platform: Platform;
  /** The pool: indices of the processors running no parallel task and no local job (increasing or not; each once). */
  readonly available: readonly number[];
  /** The ready parallel jobs, in queue order (head first). */
  readonly queue: readonly SpaceSharingPassJob[];
  /** How many parallel jobs are executing now. */
  readonly executing: number;
}

/** The keys of {@link SpaceSharingPassState}, all of them (checked by the compiler). */
const STATE_KEYS = optionKeys<SpaceSharingPassState>({
  platform: true,
  available: true,
  queue: true,
  executing: true,
});

/**
 * The fields of a queued job, all of them (checked by the compiler): a job may carry fields of
 * the caller's own, but not a near miss of a field it lacks (`maxProcesors`).
 */
const JOB_KEYS = optionKeys<SpaceSharingPassJob>({
  id: true,
  minProcessors: true,
  maxProcessors: true,
});

/** Options of {@link spaceSharingPass}. */
export interface SpaceSharingPassOptions {
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
  /**
   * The random stream of the adaptive policy's `"random"` selection, advanced by the call (the
   * only memory the pass needs, and only then). Required for that selection.
   * @defaultValue none
   */
  readonly random?: Random;
}

/** The keys of {@link SpaceSharingPassOptions}, all of them (checked by the compiler). */
const PASS_KEYS = optionKeys<SpaceSharingPassOptions>({
  policy: true,
  alpha: true,
  clusterSelection: true,
  clusterProximity: true,
  dynamicAllotment: true,
  baselinePartition: true,
  executingWeight: true,
  baselineSelection: true,
  random: true,
});

/** One job to start now and the processors it takes, root first as {@link selectProcessors} orders them. */
export interface SpaceSharingStart {
  /** The job's id. */
  readonly id: number;
  /** The processors (machine indices) it takes, one slot each. */
  readonly processors: readonly number[];
}

/** What {@link spaceSharingPass} decides. */
export interface SpaceSharingDecision {
  /** The jobs to start now, in order. */
  readonly start: readonly SpaceSharingStart[];
  /** Jobs that can never run here (more processors than the platform has), with a reason. */
  readonly rejected: readonly { readonly id: number; readonly reason: string }[];
}

function fail(field: string, message: string): never {
  throw new InvalidInputError(WHERE, field, message);
}

function checkState(state: SpaceSharingPassState): Uint8Array {
  if (typeof state !== "object" || state === null) {
    fail("state", `is ${describeValue(state)}, expected an object`);
  }
  requireKnownKeys(WHERE, "state", state, STATE_KEYS);
  const M = state.platform?.machines?.length;
  if (M === undefined) fail("state.platform", "is not a platform (no machines)");
  const e = state.executing;
  if (!Number.isInteger(e) || e < 0)
    fail("state.executing", `is ${describeValue(e)}, expected an integer >= 0`);
  if (!Array.isArray(state.available)) fail("state.available", "is not an array");
  const avail = new Uint8Array(M);
  // an index loop, not forEach: a hole in a sparse array is an undefined processor, not a skip
  for (let i = 0; i < state.available.length; i++) {
    const m = state.available[i] as number;
    if (!Number.isInteger(m) || m < 0 || m >= M) {
      fail(
        `state.available[${i}]`,
        `is ${describeValue(m)}, expected a machine index in 0..${M - 1}`,
      );
    }
    if (avail[m]) fail(`state.available[${i}]`, `repeats processor ${m}`);
    avail[m] = 1;
  }
  if (!Array.isArray(state.queue)) fail("state.queue", "is not an array");
  const ids = new Set<number>();
  // an index loop, not forEach: a hole is an undefined job, refused, not skipped
  for (let i = 0; i < state.queue.length; i++) {
    const j = state.queue[i] as SpaceSharingPassJob;
    if (typeof j !== "object" || j === null) {
      fail(`state.queue[${i}]`, `is ${describeValue(j)}, expected an object`);
    }
    refuseMisspeltKeys(WHERE, `state.queue[${i}]`, j, JOB_KEYS);
    if (!Number.isInteger(j.id))
      fail(`state.queue[${i}].id`, `is ${describeValue(j.id)}, expected an integer`);
    if (ids.has(j.id)) fail(`state.queue[${i}].id`, `is ${j.id}, listed twice in the queue`);
    ids.add(j.id);
    const lo = j.minProcessors;
    const hi = j.maxProcessors;
    if (!Number.isInteger(lo) || lo < 1) {
      fail(`state.queue[${i}].minProcessors`, `is ${describeValue(lo)}, expected an integer >= 1`);
    }
    if (!Number.isInteger(hi) || hi < lo) {
      fail(
        `state.queue[${i}].maxProcessors`,
        `is ${describeValue(hi)}, expected an integer >= minProcessors (${lo})`,
      );
    }
  }
  return avail;
}

/**
 * The policy options a caller set (`undefined` ones left to their defaults), resolved and
 * checked: shared by {@link spaceSharingPass} and `spaceSharingScheduler`. Internal.
 */
export function resolvePolicyOptions(
  options: SpaceSharingPassOptions & { readonly seed?: number },
  where: string,
): ResolvedSpaceSharingOptions {
  if (typeof options !== "object" || options === null) {
    throw new InvalidInputError(
      where,
      "options",
      `is ${options === null ? "null" : typeof options}, expected an object`,
    );
  }
  return resolveSpaceSharingOptions(
    {
      ...(options.policy === undefined ? {} : { policy: options.policy }),
      ...(options.alpha === undefined ? {} : { alpha: options.alpha }),
      ...(options.clusterSelection === undefined
        ? {}
        : { clusterSelection: options.clusterSelection }),
      ...(options.clusterProximity === undefined
        ? {}
        : { clusterProximity: options.clusterProximity }),
      ...(options.dynamicAllotment === undefined
        ? {}
        : { dynamicAllotment: options.dynamicAllotment }),
      ...(options.baselinePartition === undefined
        ? {}
        : { baselinePartition: options.baselinePartition }),
      ...(options.executingWeight === undefined
        ? {}
        : { executingWeight: options.executingWeight }),
      ...(options.baselineSelection === undefined
        ? {}
        : { baselineSelection: options.baselineSelection }),
      ...(options.seed === undefined ? {} : { seed: options.seed }),
    },
    where,
  );
}

/**
 * Dynamic space sharing or adaptive partitioning (first paper, section 2.2) as one pure
 * decision: from the pool of idle processors, the ready parallel jobs in queue order and the
 * number executing, which jobs start now on which processors. The head is served only (no
 * backfilling): a job that cannot start ends the pass; one needing more processors than the
 * platform has is rejected and skipped.
 * - dynamic: target `min(maxProcessors, dynamicPartitionSize({ processors: P, queued, executing }))`; the head
 *   starts on `max(minProcessors, min(target, pool))` processors chosen by
 *   {@link selectProcessors} (by `clusterSelection` and `clusterProximity`), once the pool holds
 *   `max(1, min(target, alpha))` (with `dynamicAllotment: "target"`, `target`) and that many;
 * - adaptive: target `max(minProcessors, min(maxProcessors, size))`, the size by
 *   `baselinePartition`; the head waits until the pool holds the target; processors by
 *   `baselineSelection`.
 * `queued` counts the jobs behind the job decided; each start adds one to `executing`.
 * `spaceSharingScheduler` decides by calling this function (one implementation).
 *
 * Complexity: O(M log M) per job started (O(k + M / 32) on k processors for the baseline, and
 * for dynamic space sharing on one cluster of equal speeds) plus O(M + queue), M processors.
 *
 * @throws InvalidInputError naming the option or state field (`state.queue[2].maxProcessors`,
 * `state.available[0]`, `options.random`, …).
 *
 * @example
 * ```ts
 * spaceSharingPass({ platform, available: [0, 1, 2, 3], queue: [{ id: 1, minProcessors: 1, maxProcessors: 4 }], executing: 0 });
 * ```
 */
export function spaceSharingPass(
  state: SpaceSharingPassState,
  options: SpaceSharingPassOptions = {},
): SpaceSharingDecision {
  requireKnownKeys(WHERE, "options", options, PASS_KEYS);
  const o = resolvePolicyOptions(options, WHERE);
  const avail = checkState(state);
  const random = options.random;
  if (o.policy === "adaptive" && o.baselineSelection === "random" && random === undefined) {
    fail("options.random", 'is missing, required by baselineSelection "random"');
  }
  const { platform } = state;
  const M = platform.machines.length;
  const pool = new ProcessorPool(M);
  for (let m = 0; m < M; m++) if (avail[m]) pool.set(m, 1);
  return decideSpaceSharing(
    platform,
    Array.from({ length: M }, (_, m) => m),
    platform.machines.map((m) => m.speed),
    pool,
    state.queue.length,
    (qi) => state.queue[qi]!,
    state.executing,
    o,
    random as Random,
  );
}

/**
 * {@link spaceSharingPass}'s decision without its checks. Internal: `spaceSharingScheduler`
 * calls it at every event with a state it kept (a pool of processors, a queue of the engine's
 * jobs) and options resolved once; the public pass checks its arguments, then calls it. `pool`
 * is consumed: the chosen processors are cleared. `identity` is `[0, 1, …, M - 1]` and `speeds` the machines' speeds. The queue
 * is `queueLength` jobs, read in order from the head by `jobAt` only as far as the decision goes
 * (it stops at the first job that waits), so a caller may produce them lazily.
 */
export function decideSpaceSharing(
  platform: Platform,
  identity: readonly number[],
  speeds: readonly number[],
  pool: ProcessorPool,
  queueLength: number,
  jobAt: (qi: number) => SpaceSharingPassJob,
  executing: number,
  o: ResolvedSpaceSharingOptions,
  random: Random,
): SpaceSharingDecision {
  const M = platform.machines.length;
  const firstFit = o.policy === "dynamic" && oneUniformCluster(platform);
  let n = pool.count;
  const start: SpaceSharingStart[] = [];
  const rejected: { id: number; reason: string }[] = [];
  for (let qi = 0; qi < queueLength; qi++) {
    const job = jobAt(qi);
    const lo = job.minProcessors;
    if (lo > M) {
      rejected.push({
        id: job.id,
        reason: `needs ${lo} processors (one slot each), the platform has ${M} machines`,
      });
      continue;
    }
    const hi = job.maxProcessors;
    const queued = queueLength - qi - 1;
    let chosen: number[];
    if (o.policy === "dynamic") {
      // (partitionSize unchecked: the caller checked or built the state and options)
      const target = Math.min(hi, partitionSize(M, queued, 0.5, executing));
      const size = Math.max(lo, Math.min(target, n));
      if (n < dynamicGate(o.dynamicAllotment, target, o.alpha) || n < size) break;
      // one cluster of equal speeds: every rule takes the first `size` available processors
      chosen = firstFit
        ? pool.firstAvailable(size)
        : (chooseProcessors(
            platform,
            identity,
            pool.flags,
            size,
            o.clusterSelection,
            o.clusterProximity,
          ) as number[]);
    } else {
      const size =
        o.baselinePartition === "map"
          ? partitionSize(M, queued, o.executingWeight, executing)
          : partitionSize(M, queued, 0, 0);
      const target = Math.max(lo, Math.min(hi, size));
      if (n < target) break;
      chosen = choosePoolBaseline(pool, speeds, target, o.baselineSelection, random);
    }
    pool.take(chosen);
    n -= chosen.length;
    executing++;
    start.push({ id: job.id, processors: chosen });
  }
  return { start, rejected };
}
