import {
  createPlatform,
  type Job,
  type Platform,
  type Scheduler,
  type SchedulingContext,
  simulate,
} from "@sched/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { conservative } from "../src/presets.js";
import type { BackfillScheduler } from "../src/strategy.js";

// The pooled conservative compresses in place: it skips the reservations that cannot have a new
// start (by the bound on what was given back since each was last placed), reads that bound
// from the last pass by position, moves a reservation by changing only where its old and new
// intervals differ, and skips its start scan after a compression that leaves nothing due. The
// single-machine form re-places every reservation, in queue order, at every compression (plain
// compression, no pruning). On one machine both plans are the same, so after every event they
// must hold the same reservations.

/** Wraps a scheduler and records, at each call, the time and its reservations sorted by id. */
function everyEvent(inner: BackfillScheduler): { scheduler: Scheduler; log: string[] } {
  const log: string[] = [];
  const scheduler: Scheduler = {
    name: inner.name,
    reset(p: Platform) {
      log.length = 0;
      inner.reset?.(p);
    },
    schedule(ctx: SchedulingContext) {
      inner.schedule(ctx);
      const held = [...inner.reservations()].sort((a, b) => a[0] - b[0]);
      log.push(`${ctx.view.now}: ${held.map(([id, t]) => `${id}@${t}`).join(" ")}`);
    },
  };
  return { scheduler, log };
}

const workload = fc.record({
  cores: fc.integer({ min: 1, max: 8 }),
  raw: fc.array(
    fc.record({
      submit: fc.integer({ min: 0, max: 40 }),
      runtime: fc.integer({ min: 1, max: 25 }),
      // Estimates up to 4x the run time (jobs end early: compression runs), or exact.
      factor: fc.oneof(fc.constant(1), fc.integer({ min: 1, max: 4 })),
      cores: fc.integer({ min: 1, max: 8 }),
    }),
    { minLength: 1, maxLength: 40 },
  ),
  order: fc.constantFrom("fcfs" as const, "sjf" as const, "largest-first" as const),
});

describe("conservative: in-place compression against plain re-placement (properties)", () => {
  it("holds the same reservations after every event as re-placing every reservation", () => {
    fc.assert(
      fc.property(workload, ({ cores, raw, order }) => {
        const platform = createPlatform({ machines: [{ cores }] });
        // Ids in submit order (the engine's queue order breaks ties by id).
        const bySubmit = [...raw].sort((a, b) => a.submit - b.submit);
        const jobs: Job[] = [];
        for (const [i, r] of bySubmit.entries()) {
          const estimate = r.runtime * r.factor;
          jobs.push({
            id: i + 1,
            submit: r.submit,
            runtime: r.runtime,
            estimate,
            cores: Math.min(r.cores, cores),
          });
        }
        const pruned = everyEvent(conservative({ order }));
        const plain = everyEvent(conservative({ order, singleMachine: true }));
        simulate(jobs, platform, pruned.scheduler);
        simulate(jobs, platform, plain.scheduler);
        expect(pruned.log).toEqual(plain.log);
      }),
      { numRuns: 400 },
    );
  });

  it("holds the same reservations with licenses (a floating pool and node-locked copies)", () => {
    // Licensed reservations too are checked in place (each profile scanned with what the
    // reservation holds counted as free) and moved by the difference of their intervals.
    const licensed = fc.record({
      cores: fc.integer({ min: 1, max: 6 }),
      floating: fc.integer({ min: 1, max: 3 }),
      locked: fc.integer({ min: 1, max: 2 }),
      raw: fc.array(
        fc.record({
          submit: fc.integer({ min: 0, max: 40 }),
          runtime: fc.integer({ min: 1, max: 25 }),
          factor: fc.oneof(fc.constant(1), fc.integer({ min: 1, max: 4 })),
          cores: fc.integer({ min: 1, max: 6 }),
          a: fc.integer({ min: 0, max: 3 }),
          b: fc.integer({ min: 0, max: 2 }),
        }),
        { minLength: 1, maxLength: 40 },
      ),
      order: fc.constantFrom("fcfs" as const, "sjf" as const, "largest-first" as const),
    });
    let moved = 0;
    fc.assert(
      fc.property(licensed, ({ cores, floating, locked, raw, order }) => {
        const platform = createPlatform({
          machines: [{ cores }],
          licenses: [
            { name: "a", copies: floating },
            { name: "b", kind: "node-locked", copies: locked, machines: [0] },
          ],
        });
        const bySubmit = [...raw].sort((x, y) => x.submit - y.submit);
        const jobs: Job[] = bySubmit.map((r, i) => {
          const licenses: Record<string, number> = {};
          if (r.a > 0) licenses.a = Math.min(r.a, floating);
          if (r.b > 0) licenses.b = Math.min(r.b, locked);
          return {
            id: i + 1,
            submit: r.submit,
            runtime: r.runtime,
            estimate: r.runtime * r.factor,
            cores: Math.min(r.cores, cores),
            ...(Object.keys(licenses).length > 0 ? { licenses } : {}),
          };
        });
        const pruned = everyEvent(conservative({ order }));
        const plain = everyEvent(conservative({ order, singleMachine: true }));
        simulate(jobs, platform, pruned.scheduler);
        simulate(jobs, platform, plain.scheduler);
        expect(pruned.log).toEqual(plain.log);
        // some licensed reservation moved earlier between two events
        const at = new Map<number, number>();
        for (const line of pruned.log) {
          for (const held of line
            .split(": ")[1]!
            .split(" ")
            .filter((x) => x !== "")) {
            const [id, t] = held.split("@").map(Number) as [number, number];
            const before = at.get(id);
            if (before !== undefined && t < before && jobs[id - 1]!.licenses !== undefined) moved++;
            at.set(id, t);
          }
        }
      }),
      { numRuns: 400 },
    );
    expect(moved).toBeGreaterThan(50);
  });

  it("holds the same reservations with licenses when jobs also overrun their estimates", () => {
    // A job that runs past its estimate counts as released at each event while it still holds
    // its cores and copies: reservations due then cannot start and wait for the next
    // compression. Both plans must still hold the same reservations after every event.
    const overrun = fc.record({
      cores: fc.integer({ min: 1, max: 4 }),
      floating: fc.integer({ min: 1, max: 3 }),
      raw: fc.array(
        fc.record({
          submit: fc.integer({ min: 0, max: 30 }),
          runtime: fc.integer({ min: 2, max: 20 }),
          // estimate = runtime * tenths / 10: a half to four times the run time
          tenths: fc.integer({ min: 5, max: 40 }),
          cores: fc.integer({ min: 1, max: 4 }),
          a: fc.integer({ min: 0, max: 2 }),
        }),
        { minLength: 1, maxLength: 30 },
      ),
    });
    let over = 0;
    fc.assert(
      fc.property(overrun, ({ cores, floating, raw }) => {
        const platform = createPlatform({
          machines: [{ cores }],
          licenses: [{ name: "a", copies: floating }],
        });
        const bySubmit = [...raw].sort((x, y) => x.submit - y.submit);
        const jobs: Job[] = bySubmit.map((r, i) => ({
          id: i + 1,
          submit: r.submit,
          runtime: r.runtime,
          estimate: Math.max(1, Math.round((r.runtime * r.tenths) / 10)),
          cores: Math.min(r.cores, cores),
          ...(r.a > 0 ? { licenses: { a: Math.min(r.a, floating) } } : {}),
        }));
        over += jobs.filter((j) => j.runtime > j.estimate).length;
        const pruned = everyEvent(conservative());
        const plain = everyEvent(conservative({ singleMachine: true }));
        simulate(jobs, platform, pruned.scheduler);
        simulate(jobs, platform, plain.scheduler);
        expect(pruned.log).toEqual(plain.log);
      }),
      { numRuns: 300 },
    );
    expect(over).toBeGreaterThan(300);
  });
});
