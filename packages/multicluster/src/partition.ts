import { InvalidInputError, type Platform, validatePlatform } from "@sched/core";
import {
  describeValue,
  optionKeys,
  requireInteger,
  requireKnownKeys,
  requireNonNegative,
  requireObject,
  requireOneOf,
  requirePositive,
} from "@sched/errors";

/** Checks a list of finite numbers > 0 (or >= 0 with `zero`), naming each entry. */
function numbers(where: string, field: string, v: unknown, zero: boolean): ArrayLike<number> {
  if (!Array.isArray(v) && !(v instanceof Float64Array) && !(v instanceof Int32Array)) {
    throw new InvalidInputError(
      where,
      field,
      `is ${describeValue(v)}, expected an array of numbers`,
    );
  }
  const list = v as ArrayLike<unknown>;
  for (let i = 0; i < list.length; i++) {
    const x = list[i];
    if (typeof x !== "number" || !Number.isFinite(x) || (zero ? x < 0 : x <= 0)) {
      throw new InvalidInputError(
        where,
        `${field}[${i}]`,
        `is ${describeValue(x)}, expected a finite number ${zero ? ">= 0" : "> 0"}`,
      );
    }
  }
  return list as ArrayLike<number>;
}

/** Arguments of {@link dynamicPartitionSize} (first paper, eq. 2). */
export interface DynamicPartitionSizeOptions {
  /** `P`, the number of processors of the system. */
  readonly processors: number;
  /** Jobs waiting in the queue (besides the one being started). */
  readonly queued: number;
  /** Jobs executing. */
  readonly executing: number;
}

const DYNAMIC_KEYS = optionKeys<DynamicPartitionSizeOptions>({
  processors: true,
  queued: true,
  executing: true,
});

/**
 * The dynamic policy's partition size (first paper, eq. 2):
 * `ceil(P / ((queued + 1) + 0.5 * executing))`, at least 1, at most `P`.
 *
 * Complexity: O(1).
 *
 * @example
 * ```ts
 * dynamicPartitionSize({ processors: 64, queued: 3, executing: 2 }); // ceil(64 / 5) = 13
 * ```
 */
export function dynamicPartitionSize(options: DynamicPartitionSizeOptions): number {
  const where = "@sched/multicluster/dynamicPartitionSize";
  const { processors, queued, executing } = checkedCounts(where, options, DYNAMIC_KEYS);
  return partitionSize(processors, queued, 0.5, executing);
}

/**
 * `options`' three counts, checked: an object with known keys only, `processors` a whole number
 * >= 1, `queued` and `executing` whole numbers >= 0.
 */
function checkedCounts(
  where: string,
  options: DynamicPartitionSizeOptions,
  keys: typeof DYNAMIC_KEYS | typeof MAP_KEYS,
): DynamicPartitionSizeOptions {
  requireObject(where, "options", options);
  requireKnownKeys(where, "options", options, keys);
  return {
    processors: requireInteger(where, "options.processors", options.processors, 1),
    queued: requireInteger(where, "options.queued", options.queued, 0),
    executing: requireInteger(where, "options.executing", options.executing, 0),
  };
}

/**
 * `ceil(P / ((queued + 1) + executingWeight * executing))`, at least 1, at most `P`: the dynamic
 * (weight 0.5), MAP and adaptive (no executing term) partition sizes, without argument checks.
 * Internal: the simulators call it at every decision with counts that are valid by construction
 * (their options checked once, upstream); users call the checked functions above and below.
 */
export function partitionSize(
  processors: number,
  queued: number,
  executingWeight: number,
  executing: number,
): number {
  const ps = Math.ceil(processors / (queued + 1 + executingWeight * executing));
  return Math.min(processors, Math.max(1, ps));
}

/**
 * Rosti et al.'s adaptive partition size: `ceil(P / (queued + 1))`, at least 1, from the queued
 * jobs only. It counts every processor of the system, busy or not, and ignores speeds and
 * background load.
 *
 * Complexity: O(1).
 *
 * @example
 * ```ts
 * adaptivePartitionSize(64, 3); // 16
 * ```
 */
export function adaptivePartitionSize(processors: number, queued: number): number {
  const where = "@sched/multicluster/adaptivePartitionSize";
  requireInteger(where, "processors", processors, 1);
  requireInteger(where, "queued", queued, 0);
  return partitionSize(processors, queued, 0, 0);
}

/** Arguments of {@link mapPartitionSize}. */
export interface MapPartitionSizeOptions extends DynamicPartitionSizeOptions {
  /** Weight of the executing jobs in the denominator (1: MAP; 0.5: eq. 2; 0: Rosti). */
  readonly executingWeight: number;
}

const MAP_KEYS = optionKeys<MapPartitionSizeOptions>({
  ...DYNAMIC_KEYS.record,
  executingWeight: true,
});

/**
 * The MAP partition size (the modified adaptive policy of Dandamudi's group, the first paper's
 * baseline [2]): from the total number of jobs in the system rather than the queued ones only,
 * `ceil(P / ((queued + 1) + executingWeight * executing))`, at least 1, at most `P`, on every
 * processor of the system (blind to speeds and background load). `executingWeight` 1 counts
 * every job in the system once; 0.5 is the dynamic policy's eq. 2; 0 is Rosti's adaptive size.
 *
 * Complexity: O(1).
 *
 * @example
 * ```ts
 * mapPartitionSize({ processors: 64, queued: 3, executing: 4, executingWeight: 1 }); // ceil(64 / 8) = 8
 * ```
 */
export function mapPartitionSize(options: MapPartitionSizeOptions): number {
  const where = "@sched/multicluster/mapPartitionSize";
  const { processors, queued, executing } = checkedCounts(where, options, MAP_KEYS);
  const weight = requireNonNegative(where, "options.executingWeight", options.executingWeight);
  return partitionSize(processors, queued, weight, executing);
}

/**
 * Fitness factors (eq. 4): `ff_i = speed_i * MPL / slowest speed in the system`.
 *
 * Complexity: O(n).
 *
 * @example
 * ```ts
 * fitnessFactors([1, 2, 4], 2); // [2, 4, 8]
 * ```
 */
export function fitnessFactors(speeds: ArrayLike<number>, mpl: number): Float64Array {
  const where = "@sched/multicluster/fitnessFactors";
  numbers(where, "speeds", speeds, false);
  requirePositive(where, "mpl", mpl);
  let slowest = Number.POSITIVE_INFINITY;
  for (let i = 0; i < speeds.length; i++) slowest = Math.min(slowest, speeds[i]!);
  const out = new Float64Array(speeds.length);
  for (let i = 0; i < speeds.length; i++) out[i] = (speeds[i]! * mpl) / slowest;
  return out;
}

/**
 * Tasks per processor of a partition (eq. 3): `bunch_i = ff_i * tasks / ff(System)`, where
 * `ff(System)` is the sum of the partition's fitness factors, so the bunches add up to `tasks`.
 * Rounded to integers by largest remainder (ties: lower position first) with every processor
 * getting at least one task; needs `tasks >= weights.length`.
 *
 * Complexity: O(n log n).
 *
 * @example
 * ```ts
 * taskBunches([2, 4, 2], 8); // [2, 4, 2]
 * taskBunches([1, 1, 1], 4); // [2, 1, 1]
 * ```
 */
export function taskBunches(weights: ArrayLike<number>, tasks: number): Int32Array {
  const where = "@sched/multicluster/taskBunches";
  numbers(where, "weights", weights, true);
  // tasks < weights.length, or weights of no finite positive sum, made the rounding loops below
  // run forever (taskBunches([1, 1, 1], 2), taskBunches([1e308, 2, 4], 10))
  requireInteger(where, "tasks", tasks, weights.length);
  if (tasks > 2 ** 31 - 1) {
    throw new InvalidInputError(where, "tasks", `is ${tasks}, expected at most 2147483647`);
  }
  let total = 0;
  for (let i = 0; i < weights.length; i++) {
    total += weights[i]!;
    if (!Number.isFinite(weights[i]! * tasks)) {
      throw new InvalidInputError(
        where,
        `weights[${i}]`,
        `is ${weights[i]}, too large: weights[${i}] * tasks overflows a double`,
      );
    }
  }
  if (weights.length > 0 && !(total > 0 && Number.isFinite(total))) {
    throw new InvalidInputError(where, "weights", `sum to ${total}, expected a finite sum > 0`);
  }
  return bunchTasks(weights, tasks);
}

/**
 * {@link taskBunches} without argument checks. Internal: the simulators call it at every job
 * start with fitness factors (finite, > 0) or equal weights and `tasks >= weights.length`.
 */
export function bunchTasks(weights: ArrayLike<number>, tasks: number): Int32Array {
  const n = weights.length;
  const out = new Int32Array(n);
  if (n === 0) return out;
  let sum = 0;
  for (let i = 0; i < n; i++) sum += weights[i]!;
  // one task each, then the rest in proportion to the weights
  const rest = tasks - n;
  const rem = new Float64Array(n);
  let given = 0;
  for (let i = 0; i < n; i++) {
    const exact = (weights[i]! * tasks) / sum - 1;
    const share = Math.max(0, Math.floor(exact));
    out[i] = 1 + share;
    given += share;
    rem[i] = exact - share;
  }
  const order = Array.from({ length: n }, (_, i) => i).sort((a, b) => rem[b]! - rem[a]! || a - b);
  let left = rest - given;
  for (let r = 0; left > 0; r = (r + 1) % n, left--) out[order[r]!]! += 1;
  for (let r = n - 1; left < 0; r = (r + n - 1) % n) {
    // over-given (only possible through the floor of the minimum): take back from the largest
    const i = order[r]!;
    if (out[i]! > 1) {
      out[i]! -= 1;
      left++;
    }
  }
  return out;
}

/**
 * Which cluster the dynamic policy's step (1), "select processors within the same cluster if
 * possible", takes when several have enough available processors (the paper does not say):
 * `"fastest"`, the one whose fastest `count` available processors are fastest in total;
 * `"best-fit"`, the one with the fewest available processors (it leaves the larger pools whole
 * for wider jobs; ties: the faster, as `"fastest"`); `"lowest-index"`, the first by index.
 * Ties: lower cluster index.
 */
export type ClusterSelection = "fastest" | "best-fit" | "lowest-index";

/** The values of {@link ClusterSelection}. */
export const CLUSTER_SELECTIONS: readonly ClusterSelection[] = [
  "fastest",
  "best-fit",
  "lowest-index",
];

/**
 * How the dynamic policy's step (2), "select processors taking cluster proximity into account",
 * spreads a job no single cluster can hold (the paper gives no topology nor distance). Every
 * reading starts at the cluster with the most available processors (ties: lower index) and
 * takes all of them; the rest comes from:
 * `"line"`, the other clusters by index distance to the first (clusters on a line; ties: lower
 * index); `"fewest-clusters"`, the other clusters by decreasing available processors (ties:
 * index distance, then lower index), which spans the fewest clusters; `"fastest"`, the fastest
 * available processors of the other clusters, whatever their cluster (ties: lower processor
 * index). Inside a cluster, fastest processors first (ties: lower index).
 */
export type ClusterProximity = "line" | "fewest-clusters" | "fastest";

/** The values of {@link ClusterProximity}. */
export const CLUSTER_PROXIMITIES: readonly ClusterProximity[] = [
  "line",
  "fewest-clusters",
  "fastest",
];

/** Options of {@link selectProcessors}. */
export interface SelectProcessorsOptions {
  /** The cluster taken when several have enough (README, Interpretation). @defaultValue `"fastest"` */
  readonly cluster?: ClusterSelection;
  /** How a job no cluster can hold spreads over clusters (README, Interpretation). @defaultValue `"line"` */
  readonly proximity?: ClusterProximity;
}

/**
 * The dynamic policy's processor selection: `count` processors among the available ones
 * (`available[p]` 1), (1) inside one cluster when some cluster has enough (by
 * `options.cluster`, {@link ClusterSelection}: by default the cluster whose fastest `count`
 * available processors are fastest in total; ties: lower cluster index), else
 * (2) by cluster proximity (`options.proximity`, {@link ClusterProximity}): the cluster with
 * the most available processors first, all of them, then by default the others by index
 * distance to it (ties: lower index), each cluster's processors fastest first (ties: lower
 * index). `processorMachine[p]` maps a processor to its machine. Returns the processors, root
 * first, or `null` when fewer than `count` are available.
 *
 * Complexity: O(P log P).
 *
 * @throws InvalidInputError naming the argument or option that is invalid: a platform that is
 *   not one, `processorMachine` entries that are not machine indices, `available` not of the
 *   same length or with entries other than 0 and 1, `count` not an integer >= 0, an unknown
 *   `options.cluster` or `options.proximity`.
 *
 * @example
 * ```ts
 * selectProcessors(platform, [0, 1, 2, 3], Uint8Array.of(1, 0, 1, 1), 2); // [2, 3] if cluster 1 holds 2 and 3
 * ```
 */
export function selectProcessors(
  platform: Platform,
  processorMachine: ArrayLike<number>,
  available: ArrayLike<number>,
  count: number,
  options: SelectProcessorsOptions = {},
): number[] | null {
  const where = "@sched/multicluster/selectProcessors";
  validatePlatform(platform, where);
  const machines = platform.machines.length;
  const pm = arrayOf(where, "processorMachine", processorMachine);
  for (let p = 0; p < pm.length; p++) {
    const m = pm[p];
    if (typeof m !== "number" || !Number.isInteger(m) || m < 0 || m >= machines) {
      throw new InvalidInputError(
        where,
        `processorMachine[${p}]`,
        `is ${describeValue(m)}, expected a machine index in [0, ${machines - 1}]`,
      );
    }
  }
  const av = arrayOf(where, "available", available);
  if (av.length !== pm.length) {
    throw new InvalidInputError(
      where,
      "available",
      `has ${av.length} entries, expected ${pm.length} (one per processor of processorMachine)`,
    );
  }
  for (let p = 0; p < av.length; p++) {
    if (av[p] !== 0 && av[p] !== 1) {
      throw new InvalidInputError(
        where,
        `available[${p}]`,
        `is ${describeValue(av[p])}, expected 0 or 1`,
      );
    }
  }
  requireInteger(where, "count", count, 0);
  requireObject(where, "options", options);
  requireKnownKeys(where, "options", options, SELECT_KEYS);
  const rule = requireOneOf(
    where,
    "options.cluster",
    options.cluster ?? "fastest",
    CLUSTER_SELECTIONS,
  );
  const proximity = requireOneOf(
    where,
    "options.proximity",
    options.proximity ?? "line",
    CLUSTER_PROXIMITIES,
  );
  return chooseProcessors(platform, processorMachine, available, count, rule, proximity);
}

const SELECT_KEYS = optionKeys<SelectProcessorsOptions>({ cluster: true, proximity: true });

/** An array or a typed array, named in the error otherwise. */
function arrayOf(where: string, field: string, v: unknown): ArrayLike<unknown> {
  if (!Array.isArray(v) && !(ArrayBuffer.isView(v) && !(v instanceof DataView))) {
    throw new InvalidInputError(where, field, `is ${describeValue(v)}, expected an array`);
  }
  return v as ArrayLike<unknown>;
}

const uniformCache = new WeakMap<Platform, Uint8Array>();

/** Per cluster of `platform`, 1 when all its machines have the same speed (cached). */
function uniformClusters(platform: Platform): Uint8Array {
  let u = uniformCache.get(platform);
  if (u === undefined) {
    const n = platform.clusters.length;
    u = new Uint8Array(n).fill(1);
    const first = new Array<number | undefined>(n);
    for (const m of platform.machines) {
      const f = first[m.cluster];
      if (f === undefined) first[m.cluster] = m.speed;
      else if (f !== m.speed) u[m.cluster] = 0;
    }
    uniformCache.set(platform, u);
  }
  return u;
}

/**
 * Whether the platform is one cluster of equal speeds, where {@link chooseProcessors} takes the
 * first `count` available processors whatever the rule. Internal.
 */
export function oneUniformCluster(platform: Platform): boolean {
  return platform.clusters.length === 1 && uniformClusters(platform)[0] === 1;
}

/**
 * {@link selectProcessors} without argument checks. Internal: the simulators call it at every
 * start with their own processor tables and checked rules.
 */
export function chooseProcessors(
  platform: Platform,
  processorMachine: ArrayLike<number>,
  available: ArrayLike<number>,
  count: number,
  rule: ClusterSelection,
  proximity: ClusterProximity,
): number[] | null {
  const nClusters = platform.clusters.length;
  const uniform = uniformClusters(platform);
  if (nClusters === 1 && uniform[0] === 1) {
    // one cluster of equal speeds: every rule takes the first `count` available processors
    // (the order below is then the index order), or none when fewer are available
    if (count < 1) return null;
    const out: number[] = [];
    for (let p = 0; p < available.length && out.length < count; p++) if (available[p]) out.push(p);
    return out.length < count ? null : out;
  }
  const byCluster: number[][] = Array.from({ length: nClusters }, () => []);
  let total = 0;
  for (let p = 0; p < available.length; p++) {
    if (available[p]) {
      byCluster[platform.machines[processorMachine[p]!]!.cluster]!.push(p);
      total++;
    }
  }
  if (total < count || count < 1) return null;
  const speed = (p: number) => platform.machines[processorMachine[p]!]!.speed;
  // a cluster of equal speeds is listed in index order already
  for (let k = 0; k < nClusters; k++) {
    if (uniform[k] !== 1) byCluster[k]!.sort((a, b) => speed(b) - speed(a) || a - b);
  }
  let best = -1;
  let bestPower = -1;
  for (let k = 0; k < nClusters; k++) {
    const list = byCluster[k]!;
    if (list.length < count) continue;
    if (rule === "lowest-index") {
      best = k;
      break;
    }
    let power = 0;
    for (let i = 0; i < count; i++) power += speed(list[i]!);
    const fewer = best >= 0 && list.length < byCluster[best]!.length;
    const sameSize = best < 0 || list.length === byCluster[best]!.length;
    if (rule === "best-fit" ? fewer || (sameSize && power > bestPower) : power > bestPower) {
      bestPower = power;
      best = k;
    }
  }
  if (best >= 0) return byCluster[best]!.slice(0, count);
  let first = 0;
  for (let k = 1; k < nClusters; k++) {
    if (byCluster[k]!.length > byCluster[first]!.length) first = k;
  }
  // the first cluster cannot hold the job (else step 1 took it): all of it, then the rest
  const out = byCluster[first]!.slice();
  if (proximity === "fastest") {
    const rest: number[] = [];
    for (let k = 0; k < nClusters; k++) if (k !== first) rest.push(...byCluster[k]!);
    rest.sort((a, b) => speed(b) - speed(a) || a - b);
    for (let i = 0; out.length < count; i++) out.push(rest[i]!);
    return out;
  }
  const distance = (k: number) => Math.abs(k - first);
  const order = Array.from({ length: nClusters }, (_, k) => k)
    .filter((k) => k !== first)
    .sort(
      proximity === "fewest-clusters"
        ? (a, b) =>
            byCluster[b]!.length - byCluster[a]!.length || distance(a) - distance(b) || a - b
        : (a, b) => distance(a) - distance(b) || a - b,
    );
  for (const k of order) {
    for (const p of byCluster[k]!) {
      if (out.length === count) return out;
      out.push(p);
    }
  }
  return out;
}
