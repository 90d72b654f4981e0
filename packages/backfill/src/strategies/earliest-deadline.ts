import {
  type Allocation,
  fitsMachine,
  type Job,
  type Platform,
  type RunningJob,
  type SchedulingContext,
  whyNeverFits,
} from "@sched/core";
import { idle } from "../allocation.js";
import { PlatformCache, readyTime, rejectImpossible } from "../context.js";
import type { ResolvedEdf } from "../options.js";
import { inRun } from "../order.js";
import type { BackfillStrategy } from "../strategy.js";

/** A job's deadline for ordering and preemption (see `EdfOptions.undatedFactor`). */
type DeadlineKey = (job: Job) => number;

function deadlineKey(undatedFactor: number): DeadlineKey {
  if (undatedFactor === Number.POSITIVE_INFINITY) {
    return (job) => job.deadline ?? Number.POSITIVE_INFINITY;
  }
  return (job) => job.deadline ?? job.submit + undatedFactor * job.estimate;
}

/**
 * The queue order: by deadline key (`sign` 1 increasing, -1 decreasing), an infinite key (a job
 * without deadline, by default) last either way, then submit time, then id.
 */
function queueOrder(key: DeadlineKey, sign: 1 | -1): (a: Job, b: Job) => number {
  return (a, b) => {
    const da = key(a);
    const db = key(b);
    if (da !== db) {
      if (da === Number.POSITIVE_INFINITY) return 1;
      if (db === Number.POSITIVE_INFINITY) return -1;
      return da < db ? -sign : sign;
    }
    return a.submit - b.submit || a.id - b.id;
  };
}

/**
 * Earliest deadline first (the strategy behind `edf`), as the convergent-scheduling paper
 * implements it: waiting jobs in
 * increasing deadline order (jobs without a deadline last; ties by submit time, then id),
 * machines fastest first; each job goes to the best available machine that has its cores and
 * licenses, and a job that fits nowhere stays queued while later jobs are tried (no
 * reservation). With `preemption`, a newly submitted job that fits nowhere preempts running
 * jobs with a strictly later deadline (latest deadline first, then latest start) when that
 * frees enough room for it; preempted jobs keep their progress and return to the queue.
 *
 * Placement: a job that one machine of the platform could host (its cores and licenses) runs on
 * one machine (the farm shape: "each job to the best available machine"); any other job spans
 * machines, fastest first (the pool of single-core machines).
 *
 * With `exclusive`, a machine runs one job at a time: a job starts only on an idle machine, and
 * a preempting arrival empties one whole machine (see `EdfOptions.exclusive`).
 *
 * The readings the paper leaves open are options: `deadlineOrder`, `undatedFactor`,
 * `preemptFor` (see `EdfOptions`).
 *
 * Complexity per event: O(Q log Q) to sort the queue (O(Q) when it is in order already, as by
 * default jobs without deadlines are), O(M) per job tried (O(1) for a job on one
 * machine that needs more cores than any machine has free, O(M) again after each start), and per
 * preempting job O(R log R + M) (O(M + R) with `exclusive`).
 *
 * No reservation is made, so there is nothing to resume.
 */
export function earliestDeadline(opts: ResolvedEdf): BackfillStrategy {
  const key = deadlineKey(opts.undatedFactor);
  const byDeadline = queueOrder(key, 1);
  const inQueueOrder = opts.deadlineOrder === "increasing" ? byDeadline : queueOrder(key, -1);
  const cache = new PlatformCache(opts.machineOrder);
  let platform: Platform | null = null;
  let singleCache = new WeakMap<Job, boolean>();
  // The most cores of one machine of `platform`: a job that needs more never fits on one
  // machine (`whyNeverFits` with `singleMachine` says so in every case), known without the
  // cache (on a pool of single-core processors, every job of several cores at every event).
  let largest = 0;
  // The queue of the latest call (its storage reused; no call keeps it).
  const queue: Job[] = [];
  // The jobs started in the latest call (cleared, not reallocated, when a call starts any).
  const started = new Set<number>();

  // One machine when some machine could ever host the whole job (with its licenses).
  const single = (job: Job): boolean => {
    if (opts.exclusive) return true;
    if (job.cores > largest) return false;
    let s = singleCache.get(job);
    if (s === undefined) {
      s = platform !== null && whyNeverFits(job, platform, { singleMachine: true }) === null;
      singleCache.set(job, s);
    }
    return s;
  };
  const place = (ctx: SchedulingContext, job: Job): Allocation | null =>
    readyTime(job) > ctx.view.now
      ? null
      : cache.allocate(ctx.view, job, single(job), opts.exclusive);

  const decide = (ctx: SchedulingContext) => {
    const view = ctx.view;
    cache.prepare(view.platform);
    if (view.platform !== platform) {
      platform = view.platform;
      singleCache = new WeakMap();
      largest = 0;
      for (const m of platform.machines) if (m.cores > largest) largest = m.cores;
    }
    const rejected = rejectImpossible(ctx, opts.exclusive);
    let n = 0;
    for (const w of view.waiting) if (!rejected?.has(w.job.id)) queue[n++] = w.job;
    queue.length = n;
    if (n === 0) return;
    if (!inRun(queue, inQueueOrder)) queue.sort(inQueueOrder);
    if (started.size > 0) started.clear();
    // Exclusive: a job starts only on an idle machine, and each start takes one, so the loop
    // can stop when none is left (the later jobs would all get null).
    let idleLeft = Number.POSITIVE_INFINITY;
    if (opts.exclusive) {
      idleLeft = 0;
      for (let m = 0; m < view.platform.machines.length; m++) if (idle(view, m)) idleLeft++;
    }
    // The most free cores on one machine, known after the first single-machine job asks and
    // until a start: a job on one machine that needs more gets null without the O(M) search
    // (on a loaded farm most of the queue is such jobs, at every event). A job of one core
    // needs no search: some machine has a free core.
    const machines = view.platform.machines.length;
    let widest = -1;
    for (const job of queue) {
      if (idleLeft === 0 || view.totalFreeCores === 0) break;
      if (job.cores > 1 && single(job)) {
        if (widest < 0) {
          widest = 0;
          for (let m = 0; m < machines; m++) widest = Math.max(widest, view.freeCores(m));
        }
        if (job.cores > widest) continue;
      }
      const alloc = place(ctx, job);
      if (alloc !== null) {
        ctx.start(job.id, alloc);
        started.add(job.id);
        idleLeft--;
        widest = -1;
      }
    }
    if (!opts.preemption) return;
    const candidates = opts.preemptFor === "arrivals" ? ctx.arrived : queue;
    if (candidates.length === 0) return;
    const fresh = candidates.filter(
      (j) =>
        !started.has(j.id) &&
        !rejected?.has(j.id) &&
        j.deadline !== undefined &&
        readyTime(j) <= view.now,
    );
    if (fresh.length === 0) return;
    fresh.sort(byDeadline);
    // No job can preempt once its deadline is at least every running job's (the bound only
    // falls as jobs are preempted and earlier ones start).
    let latest = Number.NEGATIVE_INFINITY;
    for (const r of view.running) if (key(r.job) > latest) latest = key(r.job);
    const preempted: Job[] = [];
    for (const job of fresh) {
      if (key(job) >= latest) break;
      const victims = opts.exclusive
        ? machineVictims(ctx, job, started, cache.order, key)
        : chooseVictims(ctx, job, single(job), started, cache.order, key);
      if (victims === null) continue;
      for (const v of victims) {
        ctx.preempt(v.id);
        preempted.push(v);
      }
      const alloc = place(ctx, job);
      if (alloc !== null) {
        ctx.start(job.id, alloc);
        started.add(job.id);
      }
    }
    // Preempted jobs (they re-enter the queue after this call) may still fit elsewhere.
    preempted.sort(byDeadline);
    for (const job of preempted) {
      const alloc = place(ctx, job);
      if (alloc !== null) ctx.start(job.id, alloc);
    }
  };

  return {
    name: opts.name,
    singleMachine: opts.exclusive,
    decide,
    reset(p: Platform) {
      cache.clear();
      cache.prepare(p);
      platform = null;
    },
    resume() {},
    reservations: () => [],
  };
}

/**
 * The running jobs to preempt so that `job` fits, or `null` when preempting every running job
 * with a later deadline would not free enough cores (on one machine, when `single`). Licenses
 * are not counted here; `start` is attempted after the preemption and skipped when they lack.
 */
function chooseVictims(
  ctx: SchedulingContext,
  job: Job,
  single: boolean,
  startedNow: Set<number>,
  order: Int32Array,
  deadlineOf: DeadlineKey,
): Job[] | null {
  const view = ctx.view;
  const dl = deadlineOf(job);
  const candidates: RunningJob[] = [];
  for (const r of view.running) {
    if (startedNow.has(r.job.id) || !view.isRunning(r.job.id)) continue;
    if (deadlineOf(r.job) > dl) candidates.push(r);
  }
  if (candidates.length === 0) return null;
  candidates.sort(
    (a, b) =>
      (deadlineOf(a.job) === deadlineOf(b.job)
        ? 0
        : deadlineOf(a.job) > deadlineOf(b.job)
          ? -1
          : 1) ||
      b.start - a.start ||
      b.job.id - a.job.id,
  );
  if (!single) {
    let free = view.totalFreeCores;
    const out: Job[] = [];
    for (const c of candidates) {
      if (free >= job.cores) break;
      out.push(c.job);
      free += c.job.cores;
    }
    return free >= job.cores && out.length > 0 ? out : null;
  }
  // One machine: the first machine in the policy's order where freeing later-deadline jobs
  // makes room.
  const machines = view.platform.machines;
  for (const m of order) {
    if (machines[m]!.cores < job.cores) continue;
    let free = view.freeCores(m);
    const out: Job[] = [];
    for (const c of candidates) {
      if (free >= job.cores) break;
      let on = 0;
      for (const p of c.allocation) if (p.machine === m) on += p.cores;
      if (on === 0) continue;
      out.push(c.job);
      free += on;
    }
    if (free >= job.cores && out.length > 0) return out;
  }
  return null;
}

/**
 * Machine-exclusive preemption: the running jobs of the first machine, in `order`, that could
 * host `job` alone (cores, licenses usable or held there) and whose running jobs all have a
 * strictly later deadline than `job` (and did not start in this call), and where the license
 * copies it needs are free once they are preempted; `null` when no machine qualifies. Emptying
 * that machine lets `job` start there.
 */
function machineVictims(
  ctx: SchedulingContext,
  job: Job,
  startedNow: Set<number>,
  order: Int32Array,
  deadlineOf: DeadlineKey,
): Job[] | null {
  const view = ctx.view;
  const platform = view.platform;
  const dl = deadlineOf(job);
  // Per machine: its running jobs, or null once one of them may not be preempted.
  const on = new Map<number, Job[] | null>();
  for (const r of view.running) {
    if (!view.isRunning(r.job.id)) continue;
    const ok = !startedNow.has(r.job.id) && deadlineOf(r.job) > dl;
    for (const part of r.allocation) {
      const list = on.get(part.machine);
      if (!ok) on.set(part.machine, null);
      else if (list === undefined) on.set(part.machine, [r.job]);
      else if (list !== null && !list.includes(r.job)) list.push(r.job);
    }
  }
  for (const m of order) {
    const list = on.get(m);
    if (list === undefined || list === null) continue;
    if (!fitsMachine(job, platform, m) || !licensesAfter(view, job, m, list)) continue;
    return list;
  }
  return null;
}

/**
 * True when, with `victims` (all on machine `m`) preempted, the license copies `job` needs
 * would be free on `m`: the free copies now plus those the victims hold (node-locked copies
 * are held on the victim's first machine, `m`; floating ones return to the pool).
 */
function licensesAfter(
  view: SchedulingContext["view"],
  job: Job,
  m: number,
  victims: readonly Job[],
): boolean {
  const lic = job.licenses;
  if (lic === undefined) return true;
  for (const name in lic) {
    const copies = lic[name]!;
    if (!(copies > 0)) continue;
    let free = view.freeLicenses(name, m);
    for (const v of victims) free += v.licenses?.[name] ?? 0;
    if (free < copies) return false;
  }
  return true;
}
