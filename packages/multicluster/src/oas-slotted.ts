import {
  InvalidInputError,
  type Job,
  LimitExceededError,
  type Platform,
  type ScheduleTrace,
} from "@sched/core";
import {
  describeValue,
  optionKeys,
  requireArray,
  requireKnownKeys,
  requireObject,
  requireOneOf,
  requirePositive,
} from "@sched/errors";
import { computeOnlyProfile, type ProfileOf } from "./cost.js";
import { bestSplit } from "./oas-best-split.js";
import { countCompositions } from "./oas-configurations.js";
import {
  checkInstance,
  checkJobIndex,
  costOfAllocation,
  groupResources,
  type OasAssignment,
  type OasInstance,
  oasInstance,
  slotsNeeded,
} from "./oas-instance.js";

/**
 * Which allocations a list heuristic considers for a job (the paper does not list them; README,
 * Interpretation): `"union"`, the `tau` fastest free resources, each cluster's fastest `tau`, and
 * each cluster topped up with the fastest free resources elsewhere; `"fastest"`, only the `tau`
 * fastest free resources (a plain list scheduler); `"exhaustive"`, every split of the job's tasks
 * over the clusters, each cluster's share on its fastest free resources, which contains a best
 * allocation of the free resources by `ct` and link demand. The heuristics and
 * {@link slottedListSchedule} find that best split without enumerating the splits (thresholds on
 * `SP` and a dynamic program over links and tasks, with the enumeration's pick; beyond 1 000
 * splits within a relative 1e-9 of the least demand, the first of those in its order);
 * {@link candidateResources} lists them, at most
 * {@link MAX_ALLOCATION_SPLITS}.
 */
export type AllocationCandidates = "union" | "fastest" | "exhaustive";

/** The values of {@link AllocationCandidates}: the union, the fastest only, every split (the default). */
export const ALLOCATION_CANDIDATES: readonly AllocationCandidates[] = Object.freeze([
  "union",
  "fastest",
  "exhaustive",
]);

/**
 * The default {@link AllocationCandidates}: `"exhaustive"`, a best allocation of the free
 * resources (the paper's techniques allocate "considering all the available resources", "the best
 * available resources"; README, Interpretation). Read by `OAS_HEURISTIC_DEFAULTS`.
 */
export const DEFAULT_ALLOCATION_CANDIDATES: AllocationCandidates = "exhaustive";

/**
 * The most splits of a job's tasks over the clusters {@link candidateResources} lists for
 * `"exhaustive"` (the schedulers search them without listing them).
 */
export const MAX_ALLOCATION_SPLITS = 10_000;

/** `value` as an {@link AllocationCandidates}, or an `InvalidInputError` naming `field`. */
export function checkAllocationCandidates(
  where: string,
  field: string,
  value: unknown,
): AllocationCandidates {
  return requireOneOf(where, field, value, ALLOCATION_CANDIDATES);
}

/** Options of {@link candidateResources}. */
export interface CandidateOptions {
  /** The candidate set ({@link AllocationCandidates}). @defaultValue `"exhaustive"` */
  readonly allocationCandidates?: AllocationCandidates;
}

const CANDIDATE_KEYS = optionKeys<CandidateOptions>({ allocationCandidates: true });

/**
 * The allocations this package's heuristics consider for job `j` among the free resources
 * (`free[r]` 1), by `options.allocationCandidates` ({@link AllocationCandidates}):
 * `"union"`: the `tau_j` fastest free resources overall, then, for each cluster in
 * index order, that cluster's fastest `tau_j` free resources, or all of them topped up with the
 * fastest free resources elsewhere (ties: lower resource index), deduplicated, in that order;
 * `"fastest"`: the first of these only; `"exhaustive"` (default): the union's, then every other split of
 * the tasks over the clusters (tasks per cluster, lexicographic, most in cluster 0 first), each
 * cluster's share on its fastest free resources. Each candidate is sorted by resource index.
 * Every union candidate is such a split, so `"fastest"` is a subset of `"union"`, itself a
 * subset of `"exhaustive"`. Empty when fewer than `tau_j` are free.
 *
 * Complexity: O(R log R * clusters) (`"exhaustive"`: O(R log R + splits * R)).
 *
 * @throws InvalidInputError naming `options.allocationCandidates` for an unknown reading;
 *   LimitExceededError when `"exhaustive"` would enumerate more than
 *   {@link MAX_ALLOCATION_SPLITS} splits.
 *
 * @example
 * ```ts
 * candidateResources(oasInstance(jobs, platform, profile), 0, [1, 1, 1, 1, 1, 1], {
 *   allocationCandidates: "exhaustive",
 * });
 * ```
 */
export function candidateResources(
  instance: OasInstance,
  j: number,
  free: ArrayLike<number>,
  options: CandidateOptions = {},
): number[][] {
  const where = "@sched/multicluster/candidateResources";
  checkInstance(where, instance);
  checkJobIndex(where, instance, j);
  const R = instance.resourceMachine.length;
  if (!Array.isArray(free) && !(ArrayBuffer.isView(free) && !(free instanceof DataView))) {
    throw new InvalidInputError(where, "free", `is ${describeValue(free)}, expected an array`);
  }
  const list = free as ArrayLike<unknown>;
  if (list.length !== R) {
    throw new InvalidInputError(
      where,
      "free",
      `has ${list.length} entries, expected ${R} (one 0 or 1 per resource)`,
    );
  }
  for (let r = 0; r < R; r++) {
    if (list[r] !== 0 && list[r] !== 1) {
      throw new InvalidInputError(
        where,
        `free[${r}]`,
        `is ${describeValue(list[r])}, expected 0 or 1`,
      );
    }
  }
  requireObject(where, "options", options);
  requireKnownKeys(where, "options", options, CANDIDATE_KEYS);
  const reading = checkAllocationCandidates(
    where,
    "options.allocationCandidates",
    options.allocationCandidates ?? DEFAULT_ALLOCATION_CANDIDATES,
  );
  return candidatesOf(instance, j, free, reading, where);
}

/**
 * {@link candidateResources} without its checks. Internal: the schedulers' inner loops. `where`
 * names the caller in the `LimitExceededError` of `"exhaustive"`.
 */
export function candidatesOf(
  instance: OasInstance,
  j: number,
  free: ArrayLike<number>,
  reading: AllocationCandidates = "union",
  where = "@sched/multicluster/candidateResources",
): number[][] {
  const R = instance.resourceMachine.length;
  const tau = instance.tasks[j]!;
  const order: number[] = [];
  for (let r = 0; r < R; r++) if (free[r]) order.push(r);
  if (order.length < tau) return [];
  const slow = (r: number) => instance.slowdown[j * R + r]!;
  order.sort((a, b) => slow(a) - slow(b) || a - b);
  const out: number[][] = [order.slice(0, tau)];
  if (reading === "fastest") return [out[0]!.slice().sort((a, b) => a - b)];
  const K = instance.clusterSize.length;
  // a candidate's split (tasks per cluster): every candidate takes each cluster's fastest free
  // resources, so its split names it
  const splitKey = (pick: readonly number[]) => {
    const t = new Array<number>(K).fill(0);
    for (const r of pick) t[instance.resourceCluster[r]!]! += 1;
    return t.join(",");
  };
  const seen = new Set([splitKey(out[0]!)]);
  const add = (pick: number[]) => {
    const key = splitKey(pick);
    if (!seen.has(key)) {
      seen.add(key);
      out.push(pick);
    }
  };
  const byCluster: number[][] = Array.from({ length: K }, () => []);
  for (const r of order) byCluster[instance.resourceCluster[r]!]!.push(r);
  for (let k = 0; k < K; k++) {
    const inK = byCluster[k]!;
    if (inK.length === 0) continue;
    if (inK.length >= tau) add(inK.slice(0, tau));
    else
      add([
        ...inK,
        ...order.filter((r) => instance.resourceCluster[r] !== k).slice(0, tau - inK.length),
      ]);
  }
  if (reading === "exhaustive") {
    const caps = byCluster.map((c) => c.length);
    const splits = countCompositions(caps, tau);
    if (splits > MAX_ALLOCATION_SPLITS) {
      throw new LimitExceededError(
        where,
        `job ${instance.jobs[j]!.id} has ${splits} splits of its ${tau} tasks over ${K} clusters, more than the ${MAX_ALLOCATION_SPLITS} candidateResources lists; pass options.allocationCandidates "union" to list the union's (the heuristics and slottedListSchedule search every split without listing them)`,
        { limit: "options.allocationCandidates" },
      );
    }
    // tasks left to place after cluster k: at most the free resources of clusters k+1..
    const after = new Array<number>(K + 1).fill(0);
    for (let k = K - 1; k >= 0; k--) after[k] = after[k + 1]! + caps[k]!;
    const t = new Array<number>(K).fill(0);
    const walk = (k: number, left: number) => {
      if (k === K) {
        if (left !== 0) return;
        const pick: number[] = [];
        for (let c = 0; c < K; c++) pick.push(...byCluster[c]!.slice(0, t[c]!));
        add(pick);
        return;
      }
      for (let c = Math.min(caps[k]!, left); c >= 0; c--) {
        if (left - c > after[k + 1]!) break;
        t[k] = c;
        walk(k + 1, left - c);
      }
      t[k] = 0;
    };
    walk(0, tau);
  }
  return out.map((c) => c.slice().sort((a, b) => a - b));
}

/**
 * Every resource of `instance`, in the order {@link candidatesOf} sorts the free ones for job
 * `j`: by slowdown, then index. Internal: made once per slowdown row for {@link fastestFree}.
 *
 * Complexity: O(R log R).
 */
export function resourcesBySlowdown(instance: OasInstance, j: number): Int32Array {
  const R = instance.resourceMachine.length;
  const slow = instance.slowdown;
  return Int32Array.from({ length: R }, (_, r) => r).sort(
    (a, b) => slow[j * R + a]! - slow[j * R + b]! || a - b,
  );
}

/**
 * `candidatesOf(instance, j, free, "fastest")` from `order` ({@link resourcesBySlowdown} of
 * job `j`'s row): the first `tau_j` free resources in that order, sorted by index, or none
 * when fewer are free. On one cluster without a link this is every reading's only candidate,
 * and the `"exhaustive"` search's pick (one split, no demand). Internal: the plain walk, the
 * oracle of {@link fastestFreeBits}, which the heuristics run (tests:
 * allocation-candidates.test.ts).
 *
 * Complexity: O(R) at worst, O(position of the `tau_j`-th free resource in `order`) plus
 * O(tau log tau).
 */
export function fastestFree(
  instance: OasInstance,
  j: number,
  free: ArrayLike<number>,
  order: Int32Array,
): number[][] {
  const tau = instance.tasks[j]!;
  const pick: number[] = [];
  for (let i = 0; i < order.length && pick.length < tau; i++) {
    const r = order[i]!;
    if (free[r]) pick.push(r);
  }
  if (pick.length < tau) return [];
  return [pick.sort((a, b) => a - b)];
}

/**
 * The runs of `order` (a permutation of the resources, e.g. {@link resourcesBySlowdown}): its
 * maximal stretches of consecutive resource indices, as `[first, end)` pairs in `order`'s
 * sequence (`runs[2 i]`, `runs[2 i + 1]`). One pair when `order` is the identity (every
 * resource as fast as the next: a pool of identical machines). Internal: made once per
 * slowdown row for {@link fastestFreeBits}.
 *
 * Complexity: O(R).
 */
export function orderRuns(order: Int32Array): Int32Array {
  const out: number[] = [];
  for (let i = 0; i < order.length; ) {
    const first = order[i]!;
    let end = first + 1;
    for (i++; i < order.length && order[i] === end; i++) end++;
    out.push(first, end);
  }
  return Int32Array.from(out);
}

/**
 * {@link fastestFree} on a bit set of the free resources (`words[r >>> 5]` has bit `r & 31`
 * set when resource `r` is free) and the {@link orderRuns} of the same order: the first `tau`
 * free resources in that order, sorted by index, or `null` when fewer are free. A word of 32
 * busy resources is passed in one step. Internal: the heuristics' inner loop on one cluster
 * without a link (tests: allocation-candidates.test.ts, against {@link fastestFree}).
 *
 * Complexity: O(tau + (resources passed) / 32 + runs passed), plus O(tau log tau) when the
 * runs visited are not in index order.
 */
export function fastestFreeBits(
  tau: number,
  words: Int32Array,
  runs: Int32Array,
): Int32Array | null {
  const pick = new Int32Array(tau);
  let n = 0;
  // the picks of one run ascend; they all follow the earlier ones when the run starts after
  // the last pick (else they are sorted at the end)
  let sorted = true;
  for (let k = 0; k < runs.length && n < tau; k += 2) {
    const end = runs[k + 1]!;
    let r = runs[k]!;
    if (n > 0 && r < pick[n - 1]!) sorted = false;
    while (r < end && n < tau) {
      const w = r >>> 5;
      const low = r & 31;
      // the word's bits from r on, and below end when end is in this word
      let bits = (words[w]! >>> low) << low;
      const wordEnd = (w + 1) << 5;
      if (end < wordEnd) bits &= (1 << (end & 31)) - 1;
      while (bits !== 0 && n < tau) {
        pick[n++] = (w << 5) | (31 - Math.clz32(bits & -bits));
        bits &= bits - 1;
      }
      r = wordEnd;
    }
  }
  if (n < tau) return null;
  if (!sorted) pick.sort();
  return pick;
}

/** Options of {@link slottedPlanFromTrace} (and, with the candidate set, of {@link slottedListSchedule}). */
export interface SlottedPlanOptions {
  /** Slot size, seconds. */
  readonly eta: number;
  /** Horizon, slots. */
  readonly theta: number;
  /** @defaultValue {@link computeOnlyProfile} */
  readonly profile?: ProfileOf;
}

/** Options of {@link slottedListSchedule}. */
export interface SlottedListOptions extends SlottedPlanOptions {
  /**
   * The allocations tried for each job at each slot ({@link AllocationCandidates}, from the
   * resources free in that slot). @defaultValue `"exhaustive"`
   */
  readonly allocationCandidates?: AllocationCandidates;
}

/** The keys of {@link SlottedPlanOptions}, all of them (checked by the compiler). */
const PLAN_KEYS = optionKeys<SlottedPlanOptions>({
  eta: true,
  theta: true,
  profile: true,
});

/** The keys of {@link SlottedListOptions}, all of them (checked by the compiler). */
const SLOTTED_KEYS = optionKeys<SlottedListOptions>({
  ...PLAN_KEYS.record,
  allocationCandidates: true,
});

/** The most slots a slotted schedule may span (as `bruteForceOas`'s `theta`). */
export const MAX_SLOTS = 2 ** 24;

/**
 * `options`' slot size and horizon, checked: an object of known keys, `eta` a finite number
 * > 0, `theta` an integer in [1, {@link MAX_SLOTS}] (its `resources x theta` table is
 * allocated). Internal: shared by the slotted schedules.
 */
export function checkSlotOptions(
  where: string,
  options: SlottedPlanOptions,
  keys: typeof PLAN_KEYS | typeof SLOTTED_KEYS = PLAN_KEYS,
): void {
  requireObject(where, "options", options);
  requireKnownKeys(where, "options", options, keys);
  requirePositive(where, "options.eta", options.eta);
  const theta = options.theta;
  if (typeof theta !== "number" || !Number.isInteger(theta) || theta < 1 || theta > MAX_SLOTS) {
    throw new InvalidInputError(
      where,
      "options.theta",
      `is ${describeValue(theta)}, expected an integer in [1, ${MAX_SLOTS}]`,
    );
  }
}

/**
 * A list schedule in the MIP's slotted model: jobs in `order` (indices into `jobs`), each at
 * the earliest slot where one of its {@link candidateResources} (`options.allocationCandidates`,
 * among the resources free in that slot; fewest slots first, then least link demand) is free for
 * all its slots without saturating a link (`"exhaustive"`: its best split searched directly, the
 * enumeration's pick). A feasible point of the
 * OAS MIP (the solver's warm start); `null` when a job does not fit in `theta`.
 *
 * Complexity: O(jobs * theta * candidates * (R + slots * links)); `"exhaustive"`:
 * O(jobs * theta * (R * slots + speeds * (links * slots + links * tau^2) + clusters^2 * tau^2)).
 *
 * @throws InvalidInputError when `order` is not a permutation of the job indices, or naming the
 *   option (`options.eta`, `options.theta`, `options.profile`, `options.allocationCandidates`)
 *   or the job field that is invalid.
 */
export function slottedListSchedule(
  jobs: readonly Job[],
  platform: Platform,
  order: readonly number[],
  options: SlottedListOptions,
): OasAssignment[] | null {
  const where = "@sched/multicluster/slottedListSchedule";
  checkSlotOptions(where, options, SLOTTED_KEYS);
  const reading = checkAllocationCandidates(
    where,
    "options.allocationCandidates",
    options.allocationCandidates ?? DEFAULT_ALLOCATION_CANDIDATES,
  );
  const inst = oasInstance(jobs, platform, options.profile ?? computeOnlyProfile, where);
  // order: each job index once (a job left out left a hole in the result)
  requireArray(where, "order", order);
  if (order.length !== jobs.length) {
    throw new InvalidInputError(
      where,
      "order",
      `has ${order.length} entries, expected ${jobs.length} (each index of jobs once)`,
    );
  }
  const placedOnce = new Uint8Array(jobs.length);
  for (let k = 0; k < order.length; k++) {
    const j = order[k];
    if (typeof j !== "number" || !Number.isInteger(j) || j < 0 || j >= jobs.length) {
      throw new InvalidInputError(
        where,
        `order[${k}]`,
        `is ${describeValue(j)}, expected a job index in [0, ${jobs.length - 1}]`,
      );
    }
    if (placedOnce[j] === 1) {
      throw new InvalidInputError(where, `order[${k}]`, `is ${j}, a job index already in order`);
    }
    placedOnce[j] = 1;
  }
  const cells = inst.resourceMachine.length * options.theta;
  if (cells > MAX_SLOTS * 8) {
    throw new InvalidInputError(
      where,
      "options.theta",
      `is ${options.theta}, which makes ${cells} resource-slots on ${inst.resourceMachine.length} cores, expected at most ${MAX_SLOTS * 8}`,
    );
  }
  const R = inst.resourceMachine.length;
  const T = options.theta;
  const L = platform.links.length;
  const busy = new Uint8Array(R * T);
  const load = new Float64Array(L * T);
  const out: OasAssignment[] = new Array(jobs.length);
  // "exhaustive": its best split at slot s, searched without enumerating the splits (fewest
  // slots, then least demand; a split of n slots needs its resources free and its links
  // unsaturated over slots s..s+n-1)
  const candidatesAt = (j: number, s: number, free: Uint8Array): number[][] => {
    if (reading !== "exhaustive") return candidatesOf(inst, j, free, reading, where);
    const nextBusy = new Int32Array(R); // first busy slot after s (T: none)
    for (let r = 0; r < R; r++) {
      if (!free[r]) continue;
      let t = s + 1;
      while (t < T && !busy[r * T + t]) t++;
      nextBusy[r] = t;
    }
    const sigma = inst.sigma[j]!;
    const res = bestSplit(
      inst,
      j,
      free,
      candidatesOf(inst, j, free, "union", where),
      (sp) =>
        slotsNeeded({
          baseTime: inst.baseTime[j]!,
          ct: sigma * sp + (1 - sigma),
          eta: options.eta,
        }),
      (n) => {
        if (s + n > T) return null;
        const base = new Float64Array(L);
        for (let l = 0; l < L; l++) {
          let m = 0;
          for (let t = s; t < s + n; t++) m = Math.max(m, load[l * T + t]!);
          base[l] = m;
        }
        return { base, usable: (r: number) => nextBusy[r]! >= s + n };
      },
    );
    return res === null ? [] : [res];
  };
  for (const j of order) {
    let placed = false;
    for (let s = 0; s < T && !placed; s++) {
      const free = new Uint8Array(R);
      for (let r = 0; r < R; r++) free[r] = busy[r * T + s] ? 0 : 1;
      let best: { res: number[]; n: number; demand: Float64Array; total: number } | null = null;
      for (const res of candidatesAt(j, s, free)) {
        const cost = costOfAllocation(inst, j, groupResources(inst, res));
        const n = slotsNeeded({ baseTime: inst.baseTime[j]!, ct: cost.ct, eta: options.eta });
        if (s + n > T) continue;
        let ok = true;
        for (let t = s; t < s + n && ok; t++) {
          for (const r of res) if (busy[r * T + t]) ok = false;
          for (let l = 0; l < L && ok; l++) {
            if (
              cost.demand[l]! > 0 &&
              load[l * T + t]! + cost.demand[l]! > platform.links[l]!.bandwidth * (1 + 1e-9)
            )
              ok = false;
          }
        }
        if (!ok) continue;
        const total = cost.demand.reduce((a, b) => a + b, 0);
        if (best === null || n < best.n || (n === best.n && total < best.total)) {
          best = { res, n, demand: cost.demand, total };
        }
      }
      if (best === null) continue;
      for (let t = s; t < s + best.n; t++) {
        for (const r of best.res) busy[r * T + t] = 1;
        for (let l = 0; l < L; l++) load[l * T + t]! += best.demand[l]!;
      }
      out[j] = {
        jobId: jobs[j]!.id,
        startSlot: s,
        slots: best.n,
        allocation: groupResources(inst, best.res),
      };
      placed = true;
    }
    if (!placed) return null;
  }
  return out;
}

/**
 * Turns a schedule run by the core engine (e.g. a heuristic's trace on the OAS platform) into
 * a slotted OAS schedule, a feasible point of the MIP: jobs in the order the trace started them
 * (start time, then id), each on the allocation it had, for `ceil(Tb * ct / eta)` slots from
 * the earliest slot at which the cores it takes are past the jobs placed before them (so each
 * machine keeps the trace's order) and no link would saturate. Returns `null` when a job of
 * `jobs` did not complete in one interval or does not fit in `theta` slots. Run compacted by
 * `oasPlanScheduler`, the result keeps the trace's allocations and per-machine order.
 *
 * Complexity: O(jobs * (allocation + slots * links) + jobs log jobs).
 *
 * @throws InvalidInputError when `eta` or `theta` is not positive.
 *
 * @example
 * ```ts
 * const trace = simulate(jobs, platform, oasHeuristic("FPFS", { profile }), { executionModel });
 * const plan = slottedPlanFromTrace(trace, jobs, { eta: 60, theta: 40, profile });
 * ```
 */
export function slottedPlanFromTrace(
  trace: ScheduleTrace,
  jobs: readonly Job[],
  options: SlottedPlanOptions,
): OasAssignment[] | null {
  const where = "@sched/multicluster/slottedPlanFromTrace";
  checkSlotOptions(where, options);
  const platform = trace.platform;
  const inst = oasInstance(jobs, platform, options.profile ?? computeOnlyProfile, where);
  const R = inst.resourceMachine.length;
  const T = options.theta;
  const L = platform.links.length;
  const byId = new Map(trace.records.map((r) => [r.job.id, r]));
  const starts: { j: number; start: number }[] = [];
  for (let j = 0; j < jobs.length; j++) {
    const rec = byId.get(jobs[j]!.id);
    if (rec === undefined || rec.outcome !== "completed" || rec.intervals.length !== 1) return null;
    starts.push({ j, start: rec.intervals[0]!.start });
  }
  starts.sort((a, b) => a.start - b.start || jobs[a.j]!.id - jobs[b.j]!.id);
  const readyAt = new Int32Array(R); // first slot each resource is free from (append-only)
  const load = new Float64Array(L * T);
  const out: OasAssignment[] = new Array(jobs.length);
  for (const { j } of starts) {
    const allocation = byId.get(jobs[j]!.id)!.intervals[0]!.allocation;
    const res: number[] = [];
    for (const part of allocation) {
      const onMachine: number[] = [];
      for (let r = 0; r < R; r++) if (inst.resourceMachine[r] === part.machine) onMachine.push(r);
      onMachine.sort((a, b) => readyAt[a]! - readyAt[b]! || a - b);
      if (onMachine.length < part.cores) return null;
      res.push(...onMachine.slice(0, part.cores));
    }
    const cost = costOfAllocation(inst, j, allocation);
    const n = slotsNeeded({ baseTime: inst.baseTime[j]!, ct: cost.ct, eta: options.eta });
    let s = 0;
    for (const r of res) s = Math.max(s, readyAt[r]!);
    let placed = false;
    for (; s + n <= T && !placed; s++) {
      let ok = true;
      for (let t = s; t < s + n && ok; t++) {
        for (let l = 0; l < L && ok; l++) {
          if (
            cost.demand[l]! > 0 &&
            load[l * T + t]! + cost.demand[l]! > platform.links[l]!.bandwidth * (1 + 1e-9)
          )
            ok = false;
        }
      }
      if (!ok) continue;
      for (let t = s; t < s + n; t++)
        for (let l = 0; l < L; l++) load[l * T + t]! += cost.demand[l]!;
      for (const r of res) readyAt[r] = s + n;
      out[j] = {
        jobId: jobs[j]!.id,
        startSlot: s,
        slots: n,
        allocation: groupResources(inst, res),
      };
      placed = true;
    }
    if (!placed) return null;
  }
  return out;
}
