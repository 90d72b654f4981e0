import {
  type Allocation,
  firstFitAllocation,
  InvalidInputError,
  type Job,
  oneCoreAllocation,
  type Platform,
  type Scheduler,
  type ScheduleTrace,
  type SchedulingContext,
} from "@sched/core";
import {
  describeChoices,
  describeValue,
  optionKeys,
  requireAnyInteger,
  requireArray,
  requireBoolean,
  requireFinite,
  requireInteger,
  requireKnownKeys,
  requireObject,
  requirePositive,
} from "@sched/errors";
import { computeOnlyProfile, type ProfileOf } from "./cost.js";
import { checkProfileAndFlag } from "./execution.js";
import { bestSplit } from "./oas-best-split.js";
import {
  checkedOasProfile,
  checkOasJob,
  costOfAllocation,
  groupResources,
  type OasAssignment,
  type OasInstance,
  oasInstance,
  withOasJob,
} from "./oas-instance.js";
import { before, FifoTree, type OasQueued, ReadyHeap, RuleHeap, readyAt } from "./oas-queue.js";
import {
  type AllocationCandidates,
  candidatesOf,
  checkAllocationCandidates,
  DEFAULT_ALLOCATION_CANDIDATES,
  fastestFreeBits,
  orderRuns,
  resourcesBySlowdown,
} from "./oas-slotted.js";

/**
 * A job's allocation as the heuristics choose it: its `ct`, its total and per-link eq.-4
 * demand, and (when known) its machines as `[first, end)` ranges (`null`: read them from `a`;
 * {@link UNTRACKED}: not followed).
 */
interface Started {
  readonly a: Allocation;
  readonly ct: number;
  readonly total: number;
  readonly demand: Float64Array;
  readonly on: Int32Array | null;
}

/** Allocations of at least this many one-core parts are built by `oneCoreAllocation`. */
const ONE_CORE_FROM = 16;

/** The machines of a job started without following the free resources (`Started.on`). */
const UNTRACKED = new Int32Array(0);

/** The machines of `a`'s parts as `[first, end)` ranges, neighbours in the parts' order merged. */
function machineRanges(a: Allocation): Int32Array {
  const out: number[] = [];
  for (const part of a) {
    const m = part.machine;
    if (out.length > 0 && out[out.length - 1] === m) out[out.length - 1] = m + 1;
    else out.push(m, m + 1);
  }
  return Int32Array.from(out);
}

/** The six heuristics the OAS paper compares with. */
export type OasRule = "FCFS" | "SJF" | "BJF" | "FPFS" | "SPT" | "LPT";

/** All six, in the paper's order. */
export const OAS_RULES: readonly OasRule[] = Object.freeze([
  "FCFS",
  "SJF",
  "BJF",
  "FPFS",
  "SPT",
  "LPT",
]);

/**
 * Queue order of a rule (indices into `jobs`): FCFS and FPFS by (submit, id); SJF by fewest
 * tasks, BJF by most tasks; SPT by shortest base time (`estimate`), LPT by longest; ties by
 * (submit, id).
 *
 * Complexity: O(n log n).
 *
 * @example
 * ```ts
 * ruleOrder("LPT", jobs); // indices, longest estimate first
 * ```
 */
export function ruleOrder(rule: OasRule, jobs: readonly Job[]): number[] {
  const where = "@sched/multicluster/ruleOrder";
  requireArray(where, "jobs", jobs);
  for (let i = 0; i < jobs.length; i++) {
    const j = requireObject(where, `jobs[${i}]`, jobs[i]) as Job;
    requireInteger(where, `jobs[${i}].id`, j.id, 0);
    requireFinite(where, `jobs[${i}].submit`, j.submit);
    requireInteger(where, `jobs[${i}].cores`, j.cores, 1);
    requirePositive(where, `jobs[${i}].estimate`, j.estimate);
  }
  return orderOf(rule, jobs);
}

/**
 * {@link ruleOrder} without the checks of the jobs (the rule is checked). Internal: the
 * heuristics order the engine's waiting jobs with it at every event.
 */
function orderOf(rule: OasRule, jobs: readonly Job[]): number[] {
  const idx = jobs.map((_, i) => i);
  const fifo = (a: number, b: number) =>
    jobs[a]!.submit - jobs[b]!.submit || jobs[a]!.id - jobs[b]!.id;
  const k = Object.hasOwn(RULE_KEY, rule) ? RULE_KEY[rule] : undefined;
  if (k === undefined) {
    throw new InvalidInputError(
      "@sched/multicluster/ruleOrder",
      "rule",
      `is ${describeValue(rule)}, expected ${describeChoices(OAS_RULES)}`,
    );
  }
  return idx.sort((a, b) => k(jobs[a]!) - k(jobs[b]!) || fifo(a, b));
}

/** Options of {@link oasHeuristic}. */
export interface OasHeuristicOptions {
  /** Each job's `sigma` and per-task bandwidth. @defaultValue {@link computeOnlyProfile} */
  readonly profile?: ProfileOf;
  /**
   * Link-aware: start a job only on an allocation that keeps every link within its bandwidth,
   * counting the running jobs' eq.-4 demand (ties between allocations of equal `ct`: least
   * demand). `false`: the link-blind variant, which never looks at links (ties: the first
   * candidate) and so may saturate them; the execution model then charges the contention
   * (eq. 5-7). @defaultValue `true`
   */
  readonly links?: boolean;
  /**
   * The allocations tried for each job ({@link AllocationCandidates}; README, Interpretation):
   * `"union"`, the `tau` fastest free resources, each cluster's fastest and each cluster topped
   * up; `"fastest"`, the `tau` fastest free resources only; `"exhaustive"`, every split of the
   * tasks over the clusters (a best allocation of the free resources). @defaultValue `"exhaustive"`
   */
  readonly allocationCandidates?: AllocationCandidates;
}

/** The keys of {@link OasHeuristicOptions}, all of them (checked by the compiler). */
const HEURISTIC_KEYS = optionKeys<OasHeuristicOptions>({
  profile: true,
  links: true,
  allocationCandidates: true,
});

function linkLoads(
  platform: Platform,
  running: readonly { job: Job; allocation: Allocation }[],
  profile: ProfileOf,
): Float64Array {
  const load = new Float64Array(platform.links.length);
  for (const r of running) {
    const one = oasInstance([r.job], platform, profile);
    const c = costOfAllocation(one, 0, r.allocation);
    for (let l = 0; l < load.length; l++) load[l]! += c.demand[l]!;
  }
  return load;
}

/**
 * The defaults of {@link OasHeuristicOptions} (`profile` defaults to `computeOnlyProfile`). Frozen.
 *
 * @example OAS_HEURISTIC_DEFAULTS.links // true
 */
export const OAS_HEURISTIC_DEFAULTS: Readonly<{
  links: boolean;
  allocationCandidates: AllocationCandidates;
}> = Object.freeze({ links: true, allocationCandidates: DEFAULT_ALLOCATION_CANDIDATES });

/**
 * One of the six heuristics as a core scheduler for rigid co-allocated jobs (`job.cores`
 * tasks), on the OAS allocation and cost model. Each call walks the waiting jobs in
 * {@link ruleOrder}; a job starts on the {@link candidateResources} allocation with the
 * smallest `ct` (then least link demand) among those that fit the free cores and keep every link
 * at or below its bandwidth counting the running jobs' eq.-4 demand (so no link saturates, and
 * `oasExecutionModel`'s contention slowdowns are all 1); with `links: false` (link-blind) the
 * link check is skipped. FPFS skips a job that does not fit and tries the next; the other five
 * stop at the first job that does not fit (strict order). A job that fits on no considered
 * allocation even on an empty platform is rejected with a reason.
 *
 * With `allocationCandidates: "exhaustive"` (the default) the best split is searched, not
 * enumerated, with the enumeration's pick: the smallest `ct`, then the least demand, then the
 * first in its order (the union's candidates, then most tasks in the lowest clusters); beyond
 * 1 000 splits within a relative 1e-9 of the least demand, the first of those in that order.
 *
 * Complexity per call: O((arrived + ready + left) log waiting + running * links) for the
 * queue, kept in the rule's order between calls (a heap; FPFS: an arrival-order min-tree that
 * finds the next job asking for at most the free cores in O(log waiting)), and O(running) for
 * the links' loads (nothing without links); plus, for each job tried that asks for at most the
 * free cores (the strict rules: the head, until one cannot start; FPFS: each such job, and each
 * job once when it is first ready), O(R log R * clusters); `"exhaustive"` adds O(speeds *
 * links * tau^2 + clusters^2 * tau^2) for it, `speeds` the distinct slowdowns of the free
 * resources. One cluster without a link (the only split is the `cores` fastest free
 * resources): when the machines' speeds never increase with their index (a pool of identical
 * machines), core's `firstFitAllocation` of the view, O(parts + runs of neighbouring machines
 * x log32 machines), whose machine ranges the engine reads instead of its parts; otherwise
 * O(cores + R / 32 + runs of the order), a walk of a bit set of the free resources in
 * slowdown order, plus O(cores) for the allocation. What does not change during a run is
 * computed once: the platform's check and layout, each waiting job's check and whether it fits
 * the empty platform, each running job's demand, each benchmark's slowdown row (and its order
 * as runs of neighbouring resources); the free resources are refreshed on the machines that
 * changed (kept as ranges of machines, not one entry per part). A job is checked at the first call that sees it ready, as before. The queue is
 * rebuilt from `view.waiting` (O(waiting log waiting)) at a run's first call and whenever its
 * count disagrees with the view's (a view made by hand).
 *
 * @example
 * ```ts
 * simulate(jobs, platform, oasHeuristic("SPT", { profile }), { executionModel: oasExecutionModel({ profile }) });
 * ```
 */
export function oasHeuristic(rule: OasRule, options: OasHeuristicOptions = {}): Scheduler {
  const where = "@sched/multicluster/oasHeuristic";
  requireKnownKeys(where, "options", options, HEURISTIC_KEYS);
  ruleOrder(rule, []);
  const profile = options.profile ?? computeOnlyProfile;
  // a truthy "false" used to run the link-aware heuristic under the link-aware name
  const aware = requireBoolean(
    where,
    "options.links",
    options.links ?? OAS_HEURISTIC_DEFAULTS.links,
  );
  const reading = checkAllocationCandidates(
    where,
    "options.allocationCandidates",
    options.allocationCandidates ?? OAS_HEURISTIC_DEFAULTS.allocationCandidates,
  );
  // Kept between calls (cleared by `reset` and when another platform comes): the platform's
  // layout, checked once; the eq.-4 demand of each running job on its allocation; the waiting
  // jobs, by id (`tracked`), each checked once when it is first ready, with whether it fits the
  // empty platform (known once asked). The ready ones wait in the rule's order (`heap`; FPFS:
  // `fifo`, every waiting job in arrival order, the jobs not ready with the value Infinity),
  // the others by ready time (`pending`). Jobs enter from `ctx.arrived` and leave when the
  // heuristic starts or rejects them; when the count of waiting jobs disagrees with the view's,
  // the queue is rebuilt from `view.waiting` (a first call, a hand-made view).
  let layout: OasInstance | null = null;
  let allFree = new Uint8Array(0);
  // One slowdown row per benchmark (withOasJob), for `layout`, and (`onePool`) the resources
  // of each row in candidatesOf's order (by slowdown, then index) as runs of consecutive
  // indices (orderRuns).
  const rows = new Map<number, Float64Array>();
  const rowRuns = new WeakMap<Float64Array, Int32Array>();
  // whether a row never decreases (its order is then the resources' own)
  const rowRising = new WeakMap<Float64Array, boolean>();
  // One cluster without a link: every reading's only allocation is the `cores` fastest free
  // resources (one split, no demand), so it is taken without the search.
  let onePool = false;
  // The free resources as the heuristic sees them (`free[r]`: 1 for the first `freeCores(m)`
  // resources of machine m; `freeWords`, the same as a bit set), kept between calls: the
  // machines of the jobs it started or that ended since are refreshed (`dirty`, `[first, end)`
  // ranges of machines, `dirtyCount` machines in all, counted again when a job's and another's
  // share one), all of them when `freeSum` is -1 or disagrees with the view's free cores.
  // `startedOn`: the machines of each job it started (its parts' as ranges), until it ends.
  let free = new Uint8Array(0);
  let freeWords = new Int32Array(0);
  let freeSum = -1;
  let firstOf = new Int32Array(0);
  let dirty: number[] = [];
  let dirtyCount = 0;
  const startedOn = new Map<number, Int32Array>();
  const demands = new Map<number, { job: Job; allocation: Allocation; demand: Float64Array }>();
  const fpfs = rule === "FPFS";
  const keyOf = RULE_KEY[rule];
  let tracked = new Map<number, OasQueued>();
  let readyCount = 0;
  let queuePlatform: Platform | null = null;
  const heap = new RuleHeap();
  const fifo = new FifoTree();
  const pending = new ReadyHeap();
  const markDirty = (on: Int32Array) => {
    for (let k = 0; k < on.length; k += 2) {
      dirty.push(on[k]!, on[k + 1]!);
      dirtyCount += on[k + 1]! - on[k]!;
    }
  };
  const forget = () => {
    layout = null;
    rows.clear();
    freeSum = -1;
    dirty = [];
    dirtyCount = 0;
    startedOn.clear();
    demands.clear();
    tracked = new Map();
    readyCount = 0;
    queuePlatform = null;
    heap.clear();
    fifo.clear();
    pending.clear();
  };
  const entry = (job: Job): OasQueued => ({
    job,
    key: keyOf(job),
    checked: false,
    fitsEmpty: undefined,
    at: -1,
  });
  // FPFS's value of a ready job: 0 until it was looked at (it must be, whatever the free
  // cores), then its cores (it may start only when at least that many are free)
  const fifoValue = (q: OasQueued) => (q.fitsEmpty === undefined ? 0 : q.job.cores);
  /** `q` is ready: it joins the walk (false: FPFS's slots out of order, rebuild). */
  const enter = (q: OasQueued, appended: boolean): boolean => {
    readyCount++;
    if (!fpfs) {
      heap.push(q);
      return true;
    }
    if (appended) {
      fifo.set(q.at, fifoValue(q));
      return true;
    }
    return fifo.append(q, fifoValue(q));
  };
  /** This call's arrivals and newly ready jobs, into the queue; false when it must be rebuilt. */
  const absorb = (ctx: SchedulingContext, fresh: OasQueued[]): boolean => {
    const view = ctx.view;
    const now = view.now;
    for (const job of ctx.arrived) {
      if (tracked.has(job.id)) return false;
      const q = entry(job);
      tracked.set(job.id, q);
      if (readyAt(job) <= now) {
        if (!enter(q, false)) return false;
        fresh.push(q);
      } else {
        pending.push(q);
        if (fpfs && !fifo.append(q, Number.POSITIVE_INFINITY)) return false;
      }
    }
    for (let q = pending.popReady(now); q !== undefined; q = pending.popReady(now)) {
      if (tracked.get(q.job.id) !== q) return false;
      if (!enter(q, true)) return false;
      fresh.push(q);
    }
    if (tracked.size !== (view.waitingCount ?? view.waiting.length)) return false;
    // in the view's order (submit, then id), as the checks used to run
    if (fresh.length > 1) fresh.sort((a, b) => a.job.submit - b.job.submit || a.job.id - b.job.id);
    return true;
  };
  /** The queue from `view.waiting`, keeping what is known of the jobs already tracked. */
  const rebuild = (view: SchedulingContext["view"], fresh: OasQueued[]) => {
    const old = view.platform === queuePlatform ? tracked : new Map<number, OasQueued>();
    if (view.platform !== queuePlatform) forget();
    queuePlatform = view.platform;
    tracked = new Map();
    readyCount = 0;
    heap.clear();
    fifo.clear();
    pending.clear();
    fresh.length = 0;
    const now = view.now;
    const all: OasQueued[] = [];
    for (const w of view.waiting) {
      const job = w.job;
      const known = old.get(job.id);
      const q = known !== undefined && known.job === job ? known : entry(job);
      q.at = -1;
      tracked.set(job.id, q);
      all.push(q);
      if (readyAt(job) <= now) {
        if (!q.checked) fresh.push(q);
      } else pending.push(q);
    }
    if (fpfs) all.sort((a, b) => (before(a, b) ? -1 : 1));
    for (const q of all) {
      if (readyAt(q.job) <= now) enter(q, false);
      else if (fpfs) fifo.append(q, Number.POSITIVE_INFINITY);
    }
  };
  /** The checks of the jobs ready for the first time, in the order and words they always had. */
  const checkFresh = (view: SchedulingContext["view"], fresh: readonly OasQueued[], R: number) => {
    for (const q of fresh) {
      try {
        checkOasJob(q.job, "jobs[0]", where);
      } catch (e) {
        // named by its place among the ready waiting jobs, as a check of all of them named it
        let i = 0;
        for (const w of view.waiting) {
          if (w.job === q.job) break;
          if (readyAt(w.job) <= view.now) i++;
        }
        checkOasJob(q.job, `jobs[${i}]`, where);
        throw e;
      }
    }
    for (const q of fresh) {
      checkedOasProfile(q.job, profile, R, where);
      q.checked = true;
    }
  };
  return {
    name: `oas-${rule.toLowerCase()}${aware ? "" : "-link-blind"}`,
    reset: forget,
    schedule(ctx: SchedulingContext): void {
      const view = ctx.view;
      const platform = view.platform;
      const fresh: OasQueued[] = [];
      if (queuePlatform !== platform || !absorb(ctx, fresh)) rebuild(view, fresh);
      for (const job of ctx.completed) {
        const on = startedOn.get(job.id);
        if (on !== undefined) startedOn.delete(job.id);
        if (on === undefined || on === UNTRACKED) freeSum = -1;
        else markDirty(on);
      }
      if (dirtyCount > platform.machines.length) {
        freeSum = -1;
        dirty = [];
        dirtyCount = 0;
      }
      if (readyCount === 0) return;
      if (layout === null || layout.platform !== platform) {
        // checks the platform and the profile function, as every call used to
        layout = oasInstance([], platform, profile, where);
        const Rl = layout.resourceMachine.length;
        allFree = new Uint8Array(Rl).fill(1);
        rows.clear();
        onePool = layout.clusterSize.length === 1 && layout.clusterLink[0] === -1;
        free = new Uint8Array(Rl);
        freeWords = new Int32Array((Rl + 31) >>> 5);
        freeSum = -1;
        dirty = [];
        dirtyCount = 0;
        firstOf = new Int32Array(platform.machines.length).fill(-1);
        for (let r = Rl - 1; r >= 0; r--) firstOf[layout.resourceMachine[r]!] = r;
      }
      const base = layout;
      const R = base.resourceMachine.length;
      // each waiting job is checked once, when it is first ready, in the order and words of
      // `oasInstance(waiting)`
      if (fresh.length > 0) checkFresh(view, fresh, R);
      const load = new Float64Array(platform.links.length);
      // No link: no load to sum; a running job the heuristic started was checked when it was
      // tried, as the check here would (a job it did not start is checked here)
      const running =
        load.length === 0 && view.running.length === startedOn.size ? [] : view.running;
      for (const r of running) {
        let d = demands.get(r.job.id);
        if (d === undefined || d.job !== r.job || d.allocation !== r.allocation) {
          // checked as `oasInstance([job])` checks it (the running jobs' loads used to be that)
          checkOasJob(r.job, "jobs[0]", "@sched/multicluster/oasInstance");
          const one = withOasJob(base, r.job, profile, "@sched/multicluster/oasInstance", rows);
          d = {
            job: r.job,
            allocation: r.allocation,
            demand: costOfAllocation(one, 0, r.allocation).demand,
          };
          demands.set(r.job.id, d);
        }
        for (let l = 0; l < load.length; l++) load[l]! += d.demand[l]!;
      }
      if (demands.size > 2 * view.running.length + 1024) {
        const kept = new Set(view.running.map((r) => r.job));
        for (const [id, d] of demands) if (!kept.has(d.job)) demands.delete(id);
      }
      const rm = base.resourceMachine;
      const refreshFree = () => {
        if (freeSum >= 0) {
          // the machines that changed: machine m's resources are consecutive from firstOf[m]
          for (let k = 0; k < dirty.length; k += 2) {
            const end = dirty[k + 1]!;
            // one core per machine (R = machines): machine m is resource m
            if (R === firstOf.length) {
              for (let m = dirty[k]!; m < end; m++) {
                const f = view.freeCores(m) > 0 ? 1 : 0;
                if (f !== free[m]) {
                  freeSum += f - free[m]!;
                  free[m] = f;
                  freeWords[m >>> 5]! ^= 1 << (m & 31);
                }
              }
              continue;
            }
            for (let m = dirty[k]!; m < end; m++) {
              let left = view.freeCores(m);
              for (let r = firstOf[m]!; r < R && rm[r] === m; r++) {
                const f = left > 0 ? 1 : 0;
                if (f !== free[r]) {
                  freeSum += f - free[r]!;
                  free[r] = f;
                  freeWords[r >>> 5]! ^= 1 << (r & 31);
                }
                if (left > 0) left -= 1;
              }
            }
          }
          dirty = [];
          dirtyCount = 0;
          if (freeSum === view.totalFreeCores) return;
        }
        dirty = [];
        dirtyCount = 0;
        const left = platform.machines.map((m) => view.freeCores(m.id));
        freeSum = 0;
        freeWords.fill(0);
        for (let r = 0; r < R; r++) {
          const m = rm[r]!;
          free[r] = left[m]! > 0 ? 1 : 0;
          freeSum += free[r]!;
          if (left[m]! > 0) {
            left[m]! -= 1;
            freeWords[r >>> 5]! |= 1 << (r & 31);
          }
        }
      };
      // "exhaustive", link-aware: its best split, searched without enumerating the splits;
      // link-blind, every split ties on demand and the tau fastest (the first candidate) win
      const candidatesFor = (inst: OasInstance, at: ArrayLike<number>, base: Float64Array) => {
        if (reading !== "exhaustive") return candidatesOf(inst, 0, at, reading, where);
        if (!aware) return candidatesOf(inst, 0, at, "fastest", where);
        const sigma = inst.sigma[0]!;
        const res = bestSplit(
          inst,
          0,
          at,
          candidatesOf(inst, 0, at, "union", where),
          (sp) => sigma * sp + (1 - sigma),
          () => ({ base }),
        );
        return res === null ? [] : [res];
      };
      // onePool: candidatesOf(inst, 0, free, "fastest") (the resources' order made once per
      // row) and its allocation, the only candidate (its `ct` is not compared), with a demand
      // of 0 on every link (no cluster has one). `free` is the view's free cores (refreshFree),
      // so on a row that never decreases (resources by index are by slowdown: equal speeds,
      // or speeds that never increase) the `cores` fastest free are the first free by index:
      // core's firstFitAllocation of the view, the same parts, which comes with its machine
      // ranges for the engine to read instead of its parts; the free resources are then not
      // followed (read afresh when next asked). Otherwise a walk of the bit set of the free
      // resources (fastestFreeBits).
      const pooled = (inst: OasInstance): Started | null => {
        const slow = inst.slowdown;
        let rising = rowRising.get(slow);
        if (rising === undefined) {
          rising = true;
          for (let r = 1; r < slow.length && rising; r++) rising = slow[r - 1]! <= slow[r]!;
          rowRising.set(slow, rising);
        }
        const demand = new Float64Array(load.length);
        if (rising) {
          const a = firstFitAllocation(view, inst.tasks[0]!);
          return a === null ? null : { a, ct: 0, total: 0, demand, on: UNTRACKED };
        }
        refreshFree();
        let runs = rowRuns.get(slow);
        if (runs === undefined) {
          runs = orderRuns(resourcesBySlowdown(inst, 0));
          rowRuns.set(slow, runs);
        }
        const pick = fastestFreeBits(inst.tasks[0]!, freeWords, runs);
        if (pick === null) return null;
        // one-core machines (a resource is a machine): the same parts by core's
        // oneCoreAllocation, which the engine reads by ranges of neighbouring machines
        const a =
          R === platform.machines.length && pick.length >= ONE_CORE_FROM
            ? oneCoreAllocation(platform, pick)
            : groupResources(inst, pick);
        return { a, ct: 0, total: 0, demand, on: null };
      };
      const fits = (inst: OasInstance, res: number[], base: Float64Array) => {
        const a = groupResources(inst, res);
        const c = costOfAllocation(inst, 0, a);
        if (!aware) return { a, c };
        for (let l = 0; l < base.length; l++) {
          if (
            c.demand[l]! > 0 &&
            base[l]! + c.demand[l]! > platform.links[l]!.bandwidth * (1 + 1e-9)
          )
            return null;
        }
        return { a, c };
      };
      /** Starts `q`'s job, or rejects it, or neither (it waits). */
      const attempt = (q: OasQueued): "started" | "rejected" | "waits" => {
        const job = q.job;
        // one job's instance, built only for a job that may start (every allocation takes
        // `cores` free resources: with fewer free there is none, and no candidate either)
        let inst: OasInstance | null = null;
        let best: Started | null = null;
        if (job.cores <= view.totalFreeCores) {
          inst = withOasJob(base, job, profile, where, rows);
          if (onePool) best = pooled(inst);
          else {
            refreshFree();
            for (const res of candidatesFor(inst, free, load)) {
              const f = fits(inst, res, load);
              if (f === null) continue;
              const total = aware ? f.c.demand.reduce((s, x) => s + x, 0) : 0;
              if (best === null || f.c.ct < best.ct || (f.c.ct === best.ct && total < best.total)) {
                best = { a: f.a, ct: f.c.ct, total, demand: f.c.demand, on: null };
              }
            }
          }
        }
        if (best !== null) {
          ctx.start(job.id, best.a);
          const on = best.on ?? machineRanges(best.a);
          startedOn.set(job.id, on);
          if (on === UNTRACKED) freeSum = -1;
          else markDirty(on);
          for (let l = 0; l < load.length; l++) load[l]! += best.demand[l]!;
          return "started";
        }
        if (q.fitsEmpty === undefined) {
          const one = inst ?? withOasJob(base, job, profile, where, rows);
          const zero = new Float64Array(load.length);
          // onePool: the `cores` fastest of all resources (a job wider than the platform was
          // rejected by its check), on which no link is used
          q.fitsEmpty = onePool
            ? one.tasks[0]! <= R
            : candidatesFor(one, allFree, zero).some((res) => fits(one, res, zero) !== null);
        }
        if (!q.fitsEmpty) {
          ctx.reject(
            job.id,
            "no allocation this heuristic considers runs it without saturating a link",
          );
          return "rejected";
        }
        return "waits";
      };
      const leave = (q: OasQueued) => {
        tracked.delete(q.job.id);
        readyCount--;
      };
      if (!fpfs) {
        // strict order: the head starts or is rejected, and the next is tried, or it waits
        for (let q = heap.peek(); q !== undefined; q = heap.peek()) {
          if (attempt(q) === "waits") return;
          heap.pop();
          leave(q);
        }
        return;
      }
      // FPFS: every ready job in arrival order that may start now (at most the free cores) or
      // was never looked at; the others cannot start and were asked whether they fit
      for (let slot = fifo.find(0, view.totalFreeCores); slot >= 0; ) {
        const q = fifo.at(slot)!;
        if (attempt(q) === "waits") fifo.set(slot, fifoValue(q));
        else {
          fifo.remove(q);
          leave(q);
        }
        slot = fifo.find(slot + 1, view.totalFreeCores);
      }
    },
  };
}

/**
 * The key of each rule's order ({@link ruleOrder}): smaller first, ties by (submit, id).
 * Internal (not exported by the package; the queue's tests build their entries with it).
 */
export const RULE_KEY: Record<OasRule, (j: Job) => number> = {
  FCFS: () => 0,
  FPFS: () => 0,
  SJF: (j) => j.cores,
  BJF: (j) => -j.cores,
  SPT: (j) => j.estimate,
  LPT: (j) => -j.estimate,
};

/** Options of {@link oasPlanScheduler}. */
export interface OasPlanOptions {
  /**
   * Start each job as soon as the jobs the plan puts before it on its machines have ended, its
   * cores are free and no link would saturate (same order and allocations, without the idle
   * time slot rounding leaves), instead of at its slot. @defaultValue `false`
   */
  readonly compact?: boolean;
  /** Profiles for the link check of `compact`. @defaultValue {@link computeOnlyProfile} */
  readonly profile?: ProfileOf;
}

/** The keys of {@link OasPlanOptions}, all of them (checked by the compiler). */
const PLAN_KEYS = optionKeys<OasPlanOptions>({
  compact: true,
  profile: true,
});

/**
 * Replays an OAS schedule (from `solveOas` or `bruteForceOas`) in the core engine: job `jobId`
 * starts at `max(submit, startSlot * eta)` on its allocation, or as soon after as its cores
 * are free; with `compact`, see {@link OasPlanOptions.compact}. Jobs missing from the plan are
 * rejected.
 *
 * Complexity: O(plan^2) per call.
 *
 * @example
 * ```ts
 * const trace = simulate(jobs, platform, oasPlanScheduler(r.schedule, r.eta), { executionModel });
 * ```
 */
export function oasPlanScheduler(
  schedule: readonly OasAssignment[],
  eta: number,
  options: OasPlanOptions = {},
): Scheduler {
  const where = "@sched/multicluster/oasPlanScheduler";
  requireKnownKeys(where, "options", options, PLAN_KEYS);
  checkSchedule(where, schedule);
  if (typeof eta !== "number" || !Number.isFinite(eta) || !(eta > 0)) {
    throw new InvalidInputError(
      where,
      "eta",
      `is ${describeValue(eta)}, expected a finite number > 0`,
    );
  }
  const plan = new Map(schedule.map((a) => [a.jobId, a]));
  const compact = options.compact ?? false;
  const profile = options.profile ?? computeOnlyProfile;
  checkProfileAndFlag(where, profile, "compact", compact);
  const started = new Set<number>();
  const shares = (a: OasAssignment, b: OasAssignment) =>
    a.allocation.some((p) => b.allocation.some((q) => q.machine === p.machine));
  return {
    name: compact ? "oas-plan-compact" : "oas-plan",
    reset(): void {
      started.clear();
    },
    schedule(ctx: SchedulingContext): void {
      const view = ctx.view;
      const platform = view.platform;
      const due = view.waiting
        .map((w) => w.job)
        .map((job) => ({ job, a: plan.get(job.id) }))
        .sort((x, y) => (x.a?.startSlot ?? 0) - (y.a?.startSlot ?? 0) || x.job.id - y.job.id);
      const load = compact ? linkLoads(platform, view.running, profile) : new Float64Array(0);
      let next = Number.POSITIVE_INFINITY;
      for (const { job, a } of due) {
        if (a === undefined) {
          ctx.reject(job.id, "not in the OAS plan");
          continue;
        }
        const ready = Math.max(job.submit, job.ready ?? job.submit);
        const at = compact ? ready : Math.max(ready, a.startSlot * eta);
        if (at > view.now) {
          next = Math.min(next, at);
          continue;
        }
        if (!a.allocation.every((p) => view.freeCores(p.machine) >= p.cores)) continue;
        if (compact) {
          // Before it on its machines: planned to end by its start. Jobs the plan runs side by
          // side (on a machine of several cores) are not ordered: one waiting for the other made
          // the compacted plan longer than the plan (two 1-core jobs of one slot on a 2-core
          // machine, the second run after the first).
          const before = schedule.some(
            (b) =>
              b.jobId !== a.jobId &&
              b.startSlot + b.slots <= a.startSlot &&
              shares(a, b) &&
              (!started.has(b.jobId) || view.isRunning(b.jobId)),
          );
          if (before) continue;
          const one = oasInstance([job], platform, profile);
          const demand = costOfAllocation(one, 0, a.allocation).demand;
          let ok = true;
          for (let l = 0; l < load.length; l++) {
            if (demand[l]! > 0 && load[l]! + demand[l]! > platform.links[l]!.bandwidth * (1 + 1e-9))
              ok = false;
          }
          if (!ok) continue;
          for (let l = 0; l < load.length; l++) load[l]! += demand[l]!;
        }
        started.add(job.id);
        ctx.start(job.id, a.allocation);
      }
      if (Number.isFinite(next)) ctx.wakeAt(next);
    },
  };
}

/** A moment when a link carries more than its bandwidth. */
export interface LinkOverload {
  readonly time: number;
  readonly link: number;
  /** Eq.-4 demand of the jobs running then, bytes/s. */
  readonly load: number;
  readonly bandwidth: number;
}

/**
 * Every start of an interval at which the running jobs' eq.-4 demand exceeds a link's
 * bandwidth, for a core trace; `[]` means no link was ever saturated.
 *
 * Complexity: O(intervals^2 * links).
 */
export function linkLoadViolations(
  trace: ScheduleTrace,
  profile: ProfileOf = computeOnlyProfile,
): LinkOverload[] {
  const platform = trace.platform;
  const spans: { start: number; end: number; demand: Float64Array }[] = [];
  for (const rec of trace.records) {
    for (const iv of rec.intervals) {
      const one = oasInstance([rec.job], platform, profile);
      spans.push({
        start: iv.start,
        end: iv.end,
        demand: costOfAllocation(one, 0, iv.allocation).demand,
      });
    }
  }
  const out: LinkOverload[] = [];
  for (const s of spans) {
    for (let l = 0; l < platform.links.length; l++) {
      let load = 0;
      for (const o of spans) if (o.start <= s.start && s.start < o.end) load += o.demand[l]!;
      if (load > platform.links[l]!.bandwidth * (1 + 1e-9)) {
        out.push({ time: s.start, link: l, load, bandwidth: platform.links[l]!.bandwidth });
      }
    }
  }
  return out.sort((a, b) => a.time - b.time || a.link - b.link);
}

/**
 * An OAS schedule as {@link oasPlanScheduler} reads it: an array of `{ jobId, startSlot, slots,
 * allocation }` with distinct integer ids, slots from 0, and allocations of `{ machine, cores }`
 * (any value used to be accepted, and a job with a bad entry silently never started).
 */
function checkSchedule(where: string, schedule: unknown): void {
  if (!Array.isArray(schedule)) {
    throw new InvalidInputError(
      where,
      "schedule",
      `is ${describeValue(schedule)}, expected an array`,
    );
  }
  const ids = new Set<number>();
  for (let i = 0; i < schedule.length; i++) {
    const at = `schedule[${i}]`;
    const a: unknown = schedule[i];
    if (typeof a !== "object" || a === null || Array.isArray(a)) {
      throw new InvalidInputError(
        where,
        at,
        `is ${describeValue(a)}, expected { jobId, startSlot, slots, allocation }`,
      );
    }
    const { jobId, startSlot, slots, allocation } = a as Record<string, unknown>;
    requireAnyInteger(where, `${at}.jobId`, jobId);
    if (ids.has(jobId as number)) {
      throw new InvalidInputError(
        where,
        `${at}.jobId`,
        `is ${jobId}, which another assignment has`,
      );
    }
    ids.add(jobId as number);
    requireInteger(where, `${at}.startSlot`, startSlot, 0);
    requireInteger(where, `${at}.slots`, slots, 1);
    if (!Array.isArray(allocation) || allocation.length === 0) {
      throw new InvalidInputError(
        where,
        `${at}.allocation`,
        `is ${describeValue(allocation)}, expected a non-empty array of { machine, cores }`,
      );
    }
    for (let k = 0; k < allocation.length; k++) {
      const part: unknown = allocation[k];
      if (typeof part !== "object" || part === null || Array.isArray(part)) {
        throw new InvalidInputError(
          where,
          `${at}.allocation[${k}]`,
          `is ${describeValue(part)}, expected { machine, cores }`,
        );
      }
      const { machine, cores } = part as Record<string, unknown>;
      requireInteger(where, `${at}.allocation[${k}].machine`, machine, 0);
      requireInteger(where, `${at}.allocation[${k}].cores`, cores, 1);
    }
  }
}
