import {
  type Allocation,
  type Job,
  type Platform,
  type SchedulerView,
  type SchedulingContext,
  type WaitingJob,
  whyNeverFits,
} from "@sched/core";
import { allocate, type MachineOrder, machineOrder } from "./allocation.js";
import type { QueueSorter } from "./order.js";

/**
 * Per-platform facts a policy caches between calls: the machine order it allocates in and the
 * slowest machine (for planned durations). Internal.
 */
export class PlatformCache {
  private platform: Platform | null = null;
  order: Int32Array = new Int32Array(0);
  private slowest = 0;
  // The one-part allocations on the slowest machine that planned durations are asked for, by
  // core count (frozen, shared between calls so that asking allocates nothing).
  private readonly onSlowest = new Map<number, Allocation>();
  private readonly rule: MachineOrder;
  /**
   * The rule `allocate` is given: `"index"` when this platform's order is the index order anyway
   * (fastest first among machines of one speed, say), so that a job without licenses gets
   * `firstFitAllocation`'s walk of the free machines rather than a look at every machine (the
   * same allocation; on a pool of 131,072 processors, most of an EDF run).
   */
  private effective: MachineOrder;

  constructor(rule: MachineOrder) {
    this.rule = rule;
    this.effective = rule;
  }

  /** Recomputes the cache when the platform changes. O(M log M) then, O(1) otherwise. */
  prepare(platform: Platform): void {
    if (platform === this.platform) return;
    this.platform = platform;
    this.order = machineOrder(platform, this.rule);
    let identity = true;
    for (let i = 0; i < this.order.length && identity; i++) identity = this.order[i] === i;
    this.effective = identity ? "index" : this.rule;
    let s = 0;
    const ms = platform.machines;
    for (let i = 1; i < ms.length; i++) if (ms[i]!.speed < ms[s]!.speed) s = i;
    this.slowest = s;
    this.onSlowest.clear();
  }

  /** An allocation for `job` now in this policy's machine order, or `null`; see `allocate`. */
  allocate(
    view: SchedulerView,
    job: Job,
    singleMachine = false,
    exclusive = false,
  ): Allocation | null {
    return allocate(view, job, this.order, this.effective, singleMachine, exclusive);
  }

  /** Forgets the platform (a new run starts). */
  clear(): void {
    this.platform = null;
  }

  /**
   * The duration a policy plans with: the job's remaining estimate on the slowest machine of
   * the platform, an upper bound of its estimated duration on any allocation (equal to the
   * estimate on a platform of identical machines).
   */
  plannedDuration(ctx: SchedulingContext, w: WaitingJob): number {
    return this.plannedFor(ctx, w.job, w.progress);
  }

  /** {@link PlatformCache.plannedDuration} of `job` with `progress` done. */
  plannedFor(ctx: SchedulingContext, job: Job, progress: number): number {
    const cores = job.cores;
    let on = this.onSlowest.get(cores);
    if (on === undefined) {
      on = Object.freeze([Object.freeze({ machine: this.slowest, cores })]);
      this.onSlowest.set(cores, on);
    }
    const d = ctx.view.duration(job, on, job.estimate);
    return progress > 0 ? d * (1 - progress) : d;
  }
}

/**
 * Rejects the arrived jobs that can never run on the platform and returns their ids (or `null`
 * when there are none). O(arrived x (M + L)).
 */
export function rejectImpossible(
  ctx: SchedulingContext,
  singleMachine = false,
): Set<number> | null {
  let rejected: Set<number> | null = null;
  const platform = ctx.view.platform;
  const options = { singleMachine };
  for (const job of ctx.arrived) {
    const why = whyNeverFits(job, platform, options);
    if (why !== null) {
      ctx.reject(job.id, why);
      rejected ??= new Set();
      rejected.add(job.id);
    }
  }
  return rejected;
}

/** The waiting jobs minus `rejected`. */
export function waitingExcept(
  waiting: readonly WaitingJob[],
  rejected: Set<number> | null,
): readonly WaitingJob[] {
  return rejected === null ? waiting : waiting.filter((w) => !rejected.has(w.job.id));
}

/** The earliest time `job` may start: its ready time when later than its submit time. */
export function readyTime(job: Job): number {
  return job.ready !== undefined && job.ready > job.submit ? job.ready : job.submit;
}

/**
 * `queue` with the jobs of `holders` first, in holder order; O(Q) (O(Q x H) for at most
 * {@link FEW_HOLDERS} holders, found by a scan rather than a map). A job whose id is held more
 * than once goes at its last place in `holders`, and of queued jobs sharing a held id the last
 * one is kept (as a map from id to place and a slot per place has it). When that order is
 * `queue`'s own (the holders already lead it), `queue` itself is returned, not a copy.
 */
export function holdersFirst(
  queue: readonly WaitingJob[],
  holders: readonly number[],
): readonly WaitingJob[] {
  const h = holders.length;
  // A held id's place: its last index in `holders`, or -1.
  let rank: Map<number, number> | undefined;
  if (h > FEW_HOLDERS) {
    rank = new Map();
    for (let i = 0; i < h; i++) rank.set(holders[i]!, i);
  }
  const place = (id: number): number => {
    if (rank !== undefined) return rank.get(id) ?? -1;
    for (let i = h - 1; i >= 0; i--) if (holders[i] === id) return i;
    return -1;
  };
  const front: (WaitingJob | undefined)[] = new Array(h);
  let held = 0;
  for (const w of queue) {
    const r = place(w.job.id);
    if (r >= 0) {
      front[r] = w;
      held++;
    }
  }
  // The queue is the answer when its first `held` jobs are the filled slots in order.
  let same = true;
  let k = 0;
  for (let i = 0; i < h && same; i++) {
    const w = front[i];
    if (w !== undefined) same = queue[k++] === w;
  }
  if (same && k === held) return queue;
  const out: WaitingJob[] = [];
  for (const w of front) if (w !== undefined) out.push(w);
  for (const w of queue) if (place(w.job.id) < 0) out.push(w);
  return out;
}

/** Up to this many holders, `holdersFirst` finds a job's place by a scan, not a map. */
const FEW_HOLDERS = 8;

/**
 * Reservations re-ordered by the policy's queue order (which may change at every event): the
 * waiting jobs that hold one, sorted by `sorter`. O(Q log Q) (O(Q) and a map of the
 * reservations with the incremental sorter of a named order).
 */
export function inQueueOrder<R extends { readonly job: Job }>(
  res: readonly R[],
  sorter: QueueSorter,
  ctx: SchedulingContext,
): R[] {
  const byId = new Map<number, R>();
  for (const r of res) byId.set(r.job.id, r);
  const waiting = ctx.view.waiting.filter((w) => byId.has(w.job.id));
  const out: R[] = [];
  for (const w of sorter(waiting, ctx.view)) {
    const r = byId.get(w.job.id);
    if (r !== undefined) out.push(r);
  }
  return out;
}

/**
 * `inQueueOrder(res, sorter, { view })` in place, without its map of `res` and its filter of the
 * queue, when the reservations are those of the first `res.length` waiting jobs (conservative:
 * every waiting job holds one but the arrivals of the current event, which the engine puts at
 * the end of the queue). Sorts `res` by `compare` (the order's comparator: a guess, cheap when
 * `res` is mostly in that order already), then checks it against the sorter's order of that
 * part of the queue (the queue itself when it is all of it): true when they name the same jobs
 * in the same order. Then that part is exactly the waiting jobs that hold a reservation (job ids
 * are unique, as in the engine and `backfillPass`), the part `inQueueOrder` sorts, and `res` is
 * its result. False otherwise (`res` is then in some order of its own: `inQueueOrder` does not
 * depend on it, ids being unique). O(Q) plus the sort and the sorter.
 */
export function sortInQueueOrder<R extends { readonly job: Job }>(
  res: R[],
  compare: (a: R, b: R) => number,
  sorter: QueueSorter,
  view: SchedulerView,
): boolean {
  const all = view.waiting;
  const n = res.length;
  if (n > all.length) return false;
  const sorted = sorter(n === all.length ? all : all.slice(0, n), view);
  res.sort(compare);
  for (let i = 0; i < n; i++) if (res[i]!.job !== sorted[i]!.job) return false;
  return true;
}
