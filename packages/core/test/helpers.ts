import { createJob } from "../src/job.js";
import type { Scheduler, SchedulerView, SchedulingContext } from "../src/scheduler.js";
import type { JobRecord } from "../src/trace.js";
import type { Allocation, AllocationPart, Job, Platform } from "../src/types.js";

/** Machines a job may use at all: allowed by every floating license it needs. */
function allowedMachines(job: Job, platform: Platform): number[] {
  const out: number[] = [];
  for (const m of platform.machines) {
    let ok = true;
    for (const name in job.licenses ?? {}) {
      const l = platform.licenses.find((x) => x.name === name);
      if (l === undefined) ok = false;
      else if (l.kind === "floating" && l.machines !== undefined && !l.machines.includes(m.id)) {
        ok = false;
      }
    }
    if (ok) out.push(m.id);
  }
  return out;
}

/** Can machine `m` host the job's node-locked licenses, given `copies(name, m)`? */
function canLead(
  job: Job,
  platform: Platform,
  m: number,
  copies: (name: string, m: number) => number,
): boolean {
  for (const name in job.licenses ?? {}) {
    const l = platform.licenses.find((x) => x.name === name);
    if (l === undefined) return false;
    if (copies(name, m) < job.licenses![name]!) return false;
  }
  return true;
}

/** Could the job ever run on the empty platform? */
export function feasible(job: Job, platform: Platform): boolean {
  const allowed = allowedMachines(job, platform);
  const cores = allowed.reduce((s, m) => s + platform.machines[m]!.cores, 0);
  if (cores < job.cores) return false;
  const staticCopies = (name: string, m: number) => {
    const l = platform.licenses.find((x) => x.name === name)!;
    if (l.kind === "floating") return l.copies;
    return l.machines!.includes(m) ? l.copies : 0;
  };
  return allowed.some((m) => canLead(job, platform, m, staticCopies));
}

/**
 * A first-fit allocation whose first machine can host the licenses, or null. Machines are tried
 * from index `rotate` (mod machines) upwards, wrapping around.
 */
export function fitNow(job: Job, view: SchedulerView, rotate = 0): Allocation | null {
  const platform = view.platform;
  const base = allowedMachines(job, platform);
  const k = base.length === 0 ? 0 : rotate % base.length;
  const allowed = [...base.slice(k), ...base.slice(0, k)];
  const copies = (name: string, m: number) => view.freeLicenses(name, m);
  for (const lead of allowed) {
    if (view.freeCores(lead) < 1 || !canLead(job, platform, lead, copies)) continue;
    const parts: AllocationPart[] = [];
    let need = job.cores;
    const take = (m: number) => {
      const c = Math.min(need, view.freeCores(m));
      if (c > 0) {
        parts.push({ machine: m, cores: c });
        need -= c;
      }
    };
    take(lead);
    for (const m of allowed) if (m !== lead && need > 0) take(m);
    if (need === 0) return parts;
  }
  return null;
}

/**
 * Test-only policy: walks the queue in order and starts every ready job that fits now (first
 * machine able to host its node-locked licenses, then first fit); rejects jobs that could
 * never run on the platform.
 */
export function greedy(name = "greedy"): Scheduler {
  return {
    name,
    schedule(ctx) {
      const view = ctx.view;
      for (const w of view.waiting) {
        const job = w.job;
        if (!feasible(job, view.platform)) {
          ctx.reject(job.id, "can never run on this platform");
          continue;
        }
        if (view.now < (job.ready ?? job.submit)) continue;
        const alloc = fitNow(job, view);
        if (alloc !== null) ctx.start(job.id, alloc);
      }
    },
  };
}

/**
 * Test-only policy that preempts a lot: at each call it preempts running jobs whose
 * (id + call) is divisible by 3, then starts every ready waiting job (preempted ones included)
 * that fits, trying machines from a rotating offset so resumed jobs land elsewhere. Sets a timer
 * when jobs wait and nothing runs, so nothing is lost.
 */
export function chaos(): Scheduler {
  let call = 0;
  return {
    name: "chaos",
    reset() {
      call = 0;
    },
    schedule(ctx) {
      const view = ctx.view;
      call++;
      const preempted: Job[] = [];
      for (const r of view.running) {
        if (view.isRunning(r.job.id) && (r.job.id + call) % 3 === 0) {
          ctx.preempt(r.job.id);
          preempted.push(r.job);
        }
      }
      const candidates = [...view.waiting.map((w) => w.job), ...preempted];
      let waitingLeft = false;
      for (const job of candidates) {
        if (!view.isWaiting(job.id)) continue;
        if (!feasible(job, view.platform)) {
          ctx.reject(job.id, "can never run on this platform");
          continue;
        }
        const alloc = view.now < (job.ready ?? job.submit) ? null : fitNow(job, view, call);
        if (alloc !== null) ctx.start(job.id, alloc);
        else waitingLeft = true;
      }
      if (waitingLeft && view.totalFreeCores === view.platform.totalCores) ctx.wakeAt(view.now + 1);
    },
  };
}

/** A valid job: submit 0, runtime 10, one core, unless `spec` says otherwise. */
export const job = (spec: Partial<Job> & { id: number }): Job =>
  createJob({ submit: 0, runtime: 10, cores: 1, ...spec });

/** Metrics without the wall-clock one (`schedulerMsPerDecision`), which differs run to run. */
export const untimed = (m: object | undefined): object | undefined => {
  if (m === undefined) return undefined;
  const { schedulerMsPerDecision: _, ...rest } = m as { schedulerMsPerDecision?: number };
  return rest;
};

/** The same parts in a plain array (no runs). */
export const plain = (a: Allocation): Allocation =>
  a.map((p) => ({ machine: p.machine, cores: p.cores }));

/** Each record's id, outcome, end and intervals (their allocations as plain parts). */
export const briefRecords = (records: readonly JobRecord[]) =>
  records.map((r) => [
    r.job.id,
    r.outcome,
    r.end,
    r.intervals.map((iv) => [iv.start, iv.end, plain(iv.allocation)]),
  ]);

/** A policy driven by a script: `act(ctx, callIndex)`. Records what each call saw. */
export function scripted(act: (ctx: SchedulingContext, call: number) => void) {
  const seen: {
    now: number;
    arrived: number[];
    completed: number[];
    woken: boolean;
    ready: number[];
    waiting: number[];
    running: number[];
    free: number;
  }[] = [];
  const policy: Scheduler = {
    name: "scripted",
    schedule(ctx) {
      seen.push({
        now: ctx.view.now,
        arrived: ctx.arrived.map((j) => j.id),
        completed: ctx.completed.map((j) => j.id),
        woken: ctx.woken,
        ready: (ctx.ready ?? []).map((j) => j.id),
        waiting: ctx.view.waiting.map((w) => w.job.id),
        running: ctx.view.running.map((r) => r.job.id),
        free: ctx.view.totalFreeCores,
      });
      act(ctx, seen.length - 1);
    },
  };
  return { policy, seen };
}
