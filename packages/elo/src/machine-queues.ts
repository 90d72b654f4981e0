import {
  eligibleMachines,
  type Job,
  type Platform,
  type Scheduler,
  type SchedulingContext,
} from "@sched/core";
import { canStartNow, NO_MACHINE } from "./eligibility.js";

/**
 * Immediate-mode mapping: each arriving job is bound to one machine for good and waits in that
 * machine's FIFO queue; an idle machine starts the head of its queue when it can (ready time
 * reached, licenses free). Random assignment and MCT differ only in `choose`. @internal
 */
export interface QueueChooser {
  reset(platform: Platform): void;
  /**
   * Binds each job of `jobs` (arrival order; every job has at least one eligible machine,
   * `eligible[i]` ascending, shared between calls: read only) to a machine; `queued[m]` is the
   * job ids waiting on m, `running[m]` the job running on m (or null) with its start.
   */
  choose(
    jobs: readonly Job[],
    eligible: readonly (readonly number[])[],
    state: QueueState,
    now: number,
  ): number[];
}

/** What a chooser may read. @internal */
export interface QueueState {
  readonly platform: Platform;
  readonly queued: readonly (readonly Job[])[];
  readonly running: readonly ({ readonly job: Job; readonly start: number } | null)[];
  /**
   * The machines that run a job or have one queued (in no particular order): every other
   * machine runs nothing and has an empty queue.
   */
  readonly active: readonly number[];
}

/**
 * Whether `eligibleMachines(job, platform)` would accept `job` without an error and answer from
 * its cores alone: an object without licenses whose cores, maxParallelism and benchmark pass
 * the checks `eligibleMachines` makes (no weaker: a job this refuses is asked as before).
 */
function answeredByCores(job: Job): boolean {
  if (typeof job !== "object" || job === null || job.licenses !== undefined) return false;
  const { cores, maxParallelism: mp, benchmark: b } = job;
  return (
    Number.isInteger(cores) &&
    cores >= 1 &&
    (mp === undefined || (Number.isInteger(mp) && mp >= 1)) &&
    (b === undefined || (typeof b === "number" && b > 0 && Number.isFinite(b)))
  );
}

/** At most this many lists of eligible machines are kept per platform (one per cores count). */
const KEPT_LISTS = 64;

/** Builds a queue-based scheduler. @internal */
export function queueScheduler(name: string, chooser: QueueChooser): Scheduler {
  let platformSeen: Platform | null = null;
  let queued: Job[][] = [];
  let running: ({ job: Job; start: number } | null)[] = [];
  const where = new Map<number, number>();
  // the machines with a job queued (in `pending`, unordered; `pendingAt[m]` is m's place there,
  // -1 when its queue is empty), and the machines running or with a job queued (`active`)
  let pending: number[] = [];
  let pendingAt = new Int32Array(0);
  let active: number[] = [];
  let activeAt = new Int32Array(0);
  // eligibleMachines of a job without licenses depends on its cores only: the list per cores
  // count, made once per platform (131,072 one-core machines: an array of 131,072 per arrival)
  const eligibleByCores = new Map<number, number[]>();

  const reset = (platform: Platform): void => {
    platformSeen = platform;
    queued = platform.machines.map(() => []);
    running = platform.machines.map(() => null);
    where.clear();
    const n = platform.machines.length;
    pending = [];
    pendingAt = new Int32Array(n).fill(-1);
    active = [];
    activeAt = new Int32Array(n).fill(-1);
    eligibleByCores.clear();
    chooser.reset(platform);
  };
  const activate = (m: number): void => {
    if (activeAt[m] !== -1) return;
    activeAt[m] = active.length;
    active.push(m);
  };
  /** Drops machine m from `active` when it runs nothing and has nothing queued. */
  const settle = (m: number): void => {
    const at = activeAt[m]!;
    if (at === -1 || running[m] !== null || queued[m]!.length > 0) return;
    const last = active.pop()!;
    if (last !== m) {
      active[at] = last;
      activeAt[last] = at;
    }
    activeAt[m] = -1;
  };
  const unpend = (m: number): void => {
    const at = pendingAt[m]!;
    const last = pending.pop()!;
    if (last !== m) {
      pending[at] = last;
      pendingAt[last] = at;
    }
    pendingAt[m] = -1;
  };
  const eligibleOf = (job: Job, platform: Platform): readonly number[] => {
    if (!answeredByCores(job)) return eligibleMachines(job, platform);
    const kept = eligibleByCores.get(job.cores);
    if (kept !== undefined) return kept;
    // the first job of each cores count is asked for real (the platform checked with it)
    const ms = eligibleMachines(job, platform);
    if (eligibleByCores.size < KEPT_LISTS) eligibleByCores.set(job.cores, ms);
    return ms;
  };
  /** Starts the head of machine m's queue if m is free for it (the loop's body, as before). */
  const tryHead = (ctx: SchedulingContext, m: number): void => {
    const { view } = ctx;
    const head = queued[m]![0];
    if (head === undefined || running[m] !== null) return;
    if (!canStartNow(head, m, view)) return;
    ctx.start(head.id, [{ machine: m, cores: head.cores }]);
    queued[m]!.shift();
    running[m] = { job: head, start: view.now };
    if (queued[m]!.length === 0) unpend(m);
  };

  return {
    name,
    reset,
    schedule(ctx: SchedulingContext): void {
      const { view } = ctx;
      const platform = view.platform;
      if (platformSeen !== platform) reset(platform);
      for (const job of ctx.completed) {
        const m = where.get(job.id);
        if (m === undefined) continue;
        where.delete(job.id);
        running[m] = null;
        settle(m);
      }
      const jobs: Job[] = [];
      const eligible: (readonly number[])[] = [];
      for (const job of ctx.arrived) {
        const ms = eligibleOf(job, platform);
        if (ms.length === 0) ctx.reject(job.id, NO_MACHINE);
        else {
          jobs.push(job);
          eligible.push(ms);
        }
      }
      if (jobs.length > 0) {
        const chosen = chooser.choose(
          jobs,
          eligible,
          { platform, queued, running, active },
          view.now,
        );
        for (let i = 0; i < jobs.length; i++) {
          const m = chosen[i]!;
          queued[m]!.push(jobs[i]!);
          where.set(jobs[i]!.id, m);
          if (pendingAt[m] === -1) {
            pendingAt[m] = pending.length;
            pending.push(m);
          }
          activate(m);
        }
      }
      // Every machine with a job queued, in index order (the others have no head to start):
      // the machines with a queue, sorted, when they are few, else all of them.
      if (pending.length === 0) return;
      const n = queued.length;
      if (pending.length * 16 < n) {
        const order = Int32Array.from(pending).sort();
        for (let i = 0; i < order.length; i++) tryHead(ctx, order[i]!);
      } else {
        for (let m = 0; m < n; m++) if (pendingAt[m] !== -1) tryHead(ctx, m);
      }
    },
  };
}
