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
});
