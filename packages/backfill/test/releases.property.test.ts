import type { RunningJob, SchedulerView } from "@sched/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { AvailabilityProfile } from "../src/availability-profile.js";
import { PooledPlan } from "../src/plan.js";
import { ReleaseSet } from "../src/releases.js";

// The incremental release list (ReleaseSet, behind PooledPlan.rebuild) against a from-scratch sort,
// over random sequences of running lists: jobs ending anywhere in the list, jobs starting at its
// end or (as no engine does) in the middle, estimated ends that move, lists never seen before.

interface Fake {
  job: { id: number; cores: number };
  estimatedEnd: number;
}

type Step =
  | { kind: "end"; at: number }
  | { kind: "start"; at: number; middle: boolean; cores: number; end: number }
  | { kind: "move"; at: number; end: number }
  | { kind: "fresh"; cores: number[]; ends: number[] };

const stepArb: fc.Arbitrary<Step> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant("end" as const), at: fc.nat() }) },
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant("start" as const),
      at: fc.nat(),
      middle: fc.boolean(),
      cores: fc.integer({ min: 1, max: 8 }),
      end: fc.integer({ min: 0, max: 40 }),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant("move" as const),
      at: fc.nat(),
      end: fc.integer({ min: 0, max: 40 }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc
      .array(fc.tuple(fc.integer({ min: 1, max: 8 }), fc.integer({ min: 0, max: 40 })), {
        maxLength: 12,
      })
      .map((pairs) => ({
        kind: "fresh" as const,
        cores: pairs.map((p) => p[0]),
        ends: pairs.map((p) => p[1]),
      })),
  },
);

/** Applies `step` to `list` (in place), with ids from `next`. */
function apply(list: Fake[], step: Step, next: { id: number }): void {
  switch (step.kind) {
    case "end":
      if (list.length > 0) list.splice(step.at % list.length, 1);
      return;
    case "start": {
      const r = { job: { id: next.id++, cores: step.cores }, estimatedEnd: step.end };
      if (step.middle) list.splice(step.at % (list.length + 1), 0, r);
      else list.push(r);
      return;
    }
    case "move":
      // A contention model moves the estimated end of a job that keeps running.
      if (list.length > 0) list[step.at % list.length]!.estimatedEnd = step.end;
      return;
    case "fresh":
      list.length = 0;
      for (let i = 0; i < step.cores.length; i++) {
        list.push({ job: { id: next.id++, cores: step.cores[i]! }, estimatedEnd: step.ends[i]! });
      }
      return;
  }
}

/** The release list from scratch: distinct times ascending, cores summed. */
function naive(list: readonly Fake[]): [number, number][] {
  const by = new Map<number, number>();
  for (const r of list) by.set(r.estimatedEnd, (by.get(r.estimatedEnd) ?? 0) + r.job.cores);
  return [...by].sort((a, b) => a[0] - b[0]);
}

function contents(rel: ReleaseSet): [number, number][] {
  const out: [number, number][] = [];
  for (let i = 0; i < rel.size; i++) out.push([rel.times[i]!, rel.cores[i]!]);
  return out;
}

describe("ReleaseSet (properties)", () => {
  it("after every sync, holds exactly the running jobs' releases by estimated end", () => {
    fc.assert(
      fc.property(fc.array(stepArb, { maxLength: 60 }), (steps) => {
        const rel = new ReleaseSet();
        const list: Fake[] = [];
        const next = { id: 0 };
        rel.sync(list as unknown as RunningJob[]);
        expect(contents(rel)).toEqual([]);
        for (const step of steps) {
          apply(list, step, next);
          rel.sync(list as unknown as RunningJob[]);
          expect(contents(rel)).toEqual(naive(list));
        }
        rel.clear();
        rel.sync(list as unknown as RunningJob[]);
        expect(contents(rel)).toEqual(naive(list));
      }),
      { numRuns: 300 },
    );
  });

  it("grows past its initial buffers (hundreds of running jobs and distinct ends)", () => {
    const rel = new ReleaseSet();
    const list: Fake[] = [];
    for (let i = 0; i < 300; i++)
      list.push({ job: { id: i, cores: 1 + (i % 3) }, estimatedEnd: i });
    rel.sync(list as unknown as RunningJob[]);
    expect(contents(rel)).toEqual(naive(list));
    list.splice(0, 150);
    rel.sync(list as unknown as RunningJob[]);
    expect(contents(rel)).toEqual(naive(list));
    expect(rel.size).toBe(150);
  });
});

describe("PooledPlan.rebuild without reservations (incremental) against a from-scratch profile", () => {
  it("gives the profile fromReleases builds, event after event", () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(stepArb, fc.integer({ min: 0, max: 5 }), fc.nat({ max: 6 })), {
          maxLength: 40,
        }),
        (steps) => {
          const plan = new PooledPlan();
          const list: Fake[] = [];
          const next = { id: 0 };
          let now = 0;
          for (const [step, dt, free] of steps) {
            apply(list, step, next);
            now += dt;
            const view = {
              now,
              platform: { licenses: [] },
              running: list,
              totalFreeCores: free,
            } as unknown as SchedulerView;
            plan.rebuild(view);
            const expected = AvailabilityProfile.fromReleases(
              now,
              free,
              list.map((r) => ({ time: r.estimatedEnd, amount: r.job.cores })),
            );
            expect(plan.cores.toArray()).toEqual(expected.toArray());
          }
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe("AvailabilityProfile.load and loadSorted (properties)", () => {
  const change = fc.tuple(fc.integer({ min: -10, max: 60 }), fc.integer({ min: -4, max: 4 }));
  it("load of unsorted changes (duplicates, times before the origin, > 32 of them) equals the naive sum", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 20 }),
        fc.integer({ min: -5, max: 10 }),
        fc.array(change, { maxLength: 80 }),
        (origin, free, changes) => {
          const p = new AvailabilityProfile(0, 0);
          p.load(
            origin,
            free,
            changes.map((c) => c[0]),
            changes.map((c) => c[1]),
            changes.length,
          );
          for (let t = origin; t <= 70; t++) {
            let v = free;
            for (const [time, amount] of changes) if (Math.max(time, origin) <= t) v += amount;
            expect(p.valueAt(t)).toBe(v);
          }
          const segs = p.toArray();
          expect(segs[0]![0]).toBe(origin);
          for (let i = 1; i < segs.length; i++) {
            expect(segs[i]![0]).toBeGreaterThan(segs[i - 1]![0]);
            expect(segs[i]![1]).not.toBe(segs[i - 1]![1]);
          }
          // The same changes merged by time and sorted: loadSorted gives the same profile.
          const by = new Map<number, number>();
          for (const [time, amount] of changes) by.set(time, (by.get(time) ?? 0) + amount);
          const sorted = [...by].sort((a, b) => a[0] - b[0]);
          const q = new AvailabilityProfile(0, 0);
          q.loadSorted(
            origin,
            free,
            sorted.map((c) => c[0]),
            sorted.map((c) => c[1]),
            sorted.length,
          );
          expect(q.toArray()).toEqual(segs);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("loadSorted rejects a non-finite origin or free amount", () => {
    const p = new AvailabilityProfile(0, 0);
    expect(() => p.loadSorted(Number.NaN, 1, [], [], 0)).toThrow(
      /AvailabilityProfile\.loadSorted: origin is NaN, expected a finite time/,
    );
    expect(() => p.loadSorted(0, Number.POSITIVE_INFINITY, [], [], 0)).toThrow(
      /AvailabilityProfile\.loadSorted: free is Infinity, expected an integer/,
    );
  });
});
