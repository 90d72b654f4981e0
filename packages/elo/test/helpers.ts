import {
  createJob,
  createPlatform,
  type Job,
  type Platform,
  type Scheduler,
  type ScheduleTrace,
  simulate,
} from "@sched/core";
import fc from "fast-check";
import { expect } from "vitest";

/** A platform of single-core machines with these speeds, reference speed `ref`. */
export function machines(speeds: readonly number[], ref = 1): Platform {
  return createPlatform({ machines: speeds.map((speed) => ({ speed })), referenceSpeed: ref });
}

/** Jobs from [submit, runtime] pairs (ids 0, 1, …; sorted by submit). */
export function jobs(specs: readonly (readonly [number, number])[]): Job[] {
  return specs
    .map(([submit, runtime], id) => createJob({ id, submit, runtime, cores: 1 }))
    .sort((a, b) => a.submit - b.submit || a.id - b.id);
}

/** A job drawn by a property test: its times and cores, and a delay before it is ready, if any. */
export interface JobDraw {
  readonly submit: number;
  readonly runtime: number;
  readonly estimate: number;
  readonly cores: number;
  readonly delay?: number | undefined;
}

/**
 * The jobs of `draws` (ids 0, 1, …), each asking for the licenses `licensesOf` gives it (none when
 * undefined) and ready `delay` after its submit when it has one, in queue order (submit, then id).
 */
export function drawnJobs<T extends JobDraw>(
  draws: readonly T[],
  licensesOf: (draw: T) => Record<string, number> | undefined,
): Job[] {
  return draws
    .map((j, id) => {
      const licenses = licensesOf(j);
      return createJob({
        id,
        submit: j.submit,
        runtime: j.runtime,
        estimate: j.estimate,
        cores: j.cores,
        ...(licenses !== undefined ? { licenses } : {}),
        ...(j.delay !== undefined ? { ready: j.submit + j.delay } : {}),
      });
    })
    .sort((a, b) => a.submit - b.submit || a.id - b.id);
}

/** The largest completion time of a trace. */
export function makespan(trace: ScheduleTrace): number {
  let end = 0;
  for (const r of trace.records) if (r.end !== null && r.end > end) end = r.end;
  return end;
}

/**
 * What every policy of this package guarantees: each job completed (or rejected), in one
 * interval on one machine, never before its submit time, machines never running two jobs at once.
 */
export function expectSound(trace: ScheduleTrace): void {
  const busy = new Map<number, [number, number][]>();
  for (const r of trace.records) {
    if (r.outcome === "rejected") continue;
    expect(r.outcome).toBe("completed");
    expect(r.intervals).toHaveLength(1);
    const iv = r.intervals[0]!;
    expect(iv.allocation).toHaveLength(1);
    expect(iv.start).toBeGreaterThanOrEqual(r.job.submit);
    const m = iv.allocation[0]!.machine;
    const list = busy.get(m) ?? [];
    list.push([iv.start, iv.end]);
    busy.set(m, list);
  }
  for (const list of busy.values()) {
    list.sort((a, b) => a[0] - b[0]);
    for (let i = 1; i < list.length; i++)
      expect(list[i]![0]).toBeGreaterThanOrEqual(list[i - 1]![1]);
  }
}

/** Runs twice and checks both runs give the same schedule. */
export function runTwice(js: readonly Job[], platform: Platform, policy: Scheduler): ScheduleTrace {
  const a = simulate(js, platform, policy);
  const b = simulate(js, platform, policy);
  expect(b.records.map((r) => [r.end, r.intervals])).toEqual(
    a.records.map((r) => [r.end, r.intervals]),
  );
  return a;
}

/** Small heterogeneous instances: speeds, and jobs as [submit, runtime]. */
export const instance = fc.record({
  speeds: fc.array(fc.integer({ min: 1, max: 9 }), { minLength: 1, maxLength: 6 }),
  jobs: fc.array(fc.tuple(fc.integer({ min: 0, max: 50 }), fc.integer({ min: 1, max: 100 })), {
    maxLength: 25,
  }),
});
