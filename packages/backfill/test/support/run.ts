import type { Job, Platform, Scheduler, ScheduleTrace, SchedulingContext } from "@sched/core";
import { simulate } from "@sched/core";
import type { BackfillScheduler } from "../../src/strategy.js";

/** Job id -> start of its first execution interval. */
export function startsOf(trace: ScheduleTrace): Map<number, number> {
  const m = new Map<number, number>();
  for (const r of trace.records) if (r.intervals.length > 0) m.set(r.job.id, r.intervals[0]!.start);
  return m;
}

/** Job `id`'s execution intervals as `[start, end, machine of its first part]`. */
export function intervalsOf(
  trace: ScheduleTrace,
  id: number,
): [number, number, number][] | undefined {
  return trace.records
    .find((r) => r.job.id === id)
    ?.intervals.map((x): [number, number, number] => [x.start, x.end, x.allocation[0]!.machine]);
}

/** Wraps a backfill scheduler and records, per job, every reservation it held after each event. */
export function recording(inner: BackfillScheduler): {
  scheduler: Scheduler;
  history: Map<number, number[]>;
} {
  const history = new Map<number, number[]>();
  const scheduler: Scheduler = {
    name: inner.name,
    reset(p: Platform) {
      history.clear();
      inner.reset?.(p);
    },
    schedule(ctx: SchedulingContext) {
      inner.schedule(ctx);
      for (const [id, t] of inner.reservations()) {
        const h = history.get(id);
        if (h === undefined) history.set(id, [t]);
        else h.push(t);
      }
    },
  };
  return { scheduler, history };
}

/** Small job builder: estimate defaults to the runtime. */
export function job(
  id: number,
  submit: number,
  runtime: number,
  cores: number,
  extra: Partial<Job> = {},
): Job {
  return { id, submit, runtime, estimate: runtime, cores, ...extra };
}

/** Every instant where the cores in use exceed the pool, or a start before submit: a tiny checker. */
export function poolViolations(trace: ScheduleTrace, procs: number): string[] {
  const out: string[] = [];
  const events: [number, number][] = [];
  for (const r of trace.records) {
    for (const iv of r.intervals) {
      if (iv.start < r.job.submit)
        out.push(`job ${r.job.id} starts at ${iv.start} before submit ${r.job.submit}`);
      events.push([iv.start, r.job.cores], [iv.end, -r.job.cores]);
    }
  }
  events.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  let used = 0;
  for (const [t, d] of events) {
    used += d;
    if (used > procs) out.push(`${used} cores in use at ${t} > ${procs}`);
  }
  return out;
}

/** Runs `scheduler` on `jobs` and `platform`. */
export function run(jobs: readonly Job[], platform: Platform, scheduler: Scheduler): ScheduleTrace {
  return simulate(jobs, platform, scheduler);
}
