import {
  type Allocation,
  type ExecutionModel,
  type Scheduler,
  type SchedulingContext,
  simulate,
} from "@sched/core";
import { Random } from "@sched/random";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { competitiveScheduler, tierPreference } from "../src/competitive-scheduler.js";
import { TIER_SEARCHES } from "../src/defaults.js";
import { jobLevel } from "../src/job-level.js";
import { tierOf } from "../src/tiers.js";
import { expectSound, instance, jobs, machines } from "./helpers.js";

describe("competitiveScheduler properties", () => {
  it("gives each job the size-based level of jobLevel over the sizes submitted up to its start", () => {
    // Sizes over four orders of magnitude, so that every level occurs; a job's level bins its
    // size between the smallest and the largest size the policy has seen (every arrival so far).
    const draw = fc.record({
      submit: fc.integer({ min: 0, max: 40 }),
      runtime: fc
        .integer({ min: 0, max: 4 })
        .chain((e) => fc.integer({ min: 10 ** e, max: 10 ** (e + 1) })),
    });
    fc.assert(
      fc.property(
        fc.array(draw, { minLength: 1, maxLength: 12 }),
        fc.integer({ min: 1, max: 3 }),
        fc.constantFrom("log", "linear") as fc.Arbitrary<"log" | "linear">,
        (draws, count, levelScale) => {
          const js = jobs(draws.map((d) => [d.submit, d.runtime] as const));
          const levels = new Map<number, number>();
          const policy = competitiveScheduler({
            levelScale,
            onRatingUpdate: (e) => levels.set(e.job, e.jobLevel),
          });
          const trace = simulate(js, machines(Array(count).fill(1)), policy);
          for (const r of trace.records) {
            const start = r.intervals[0]!.start;
            const seen = js.filter((j) => j.submit <= start).map((j) => j.runtime);
            const want = jobLevel({
              size: r.job.runtime,
              minSize: Math.min(...seen),
              maxSize: Math.max(...seen),
              tiers: 5,
              scale: levelScale,
            });
            expect(levels.get(r.job.id), `job ${r.job.id}`).toBe(want);
          }
          expect(levels.size).toBe(js.length);
        },
      ),
      { numRuns: 150 },
    );
  });

  it("starts every job on a free machine of the best available tier in tierSearch order, best rating first", () => {
    fc.assert(
      fc.property(
        instance,
        fc.integer({ min: 0, max: 4 }),
        fc.constantFrom(...TIER_SEARCHES),
        (inst, shift, tierSearch) => {
          const level = (id: number) => 1 + ((id + shift) % 5);
          // narrow tiers so that machines change tier often during a run
          const inner = competitiveScheduler({
            tierWidth: 15,
            baseRating: 40,
            jobLevel: (job) => level(job.id),
            tierSearch,
          });
          let checked = 0;
          const spy: Scheduler = {
            name: "spy",
            reset: (p) => inner.reset!(p),
            schedule(ctx: SchedulingContext) {
              const taken = new Set<number>();
              const wrapped: SchedulingContext = {
                ...ctx,
                view: ctx.view,
                start(jobId: number, allocation: Allocation) {
                  const { ratings, tiers } = inner.snapshot();
                  const m = allocation[0]!.machine;
                  const free = (x: number) => !taken.has(x) && ctx.view.freeCores(x) === 1;
                  expect(free(m)).toBe(true);
                  const want = tierPreference(level(jobId), 5, tierSearch).find((t) =>
                    Array.from(tiers).some((tt, x) => tt === t && free(x)),
                  );
                  expect(tiers[m]).toBe(want);
                  for (let x = 0; x < tiers.length; x++) {
                    if (tiers[x] === want && free(x)) {
                      expect(
                        ratings[m]! > ratings[x]! || (ratings[m] === ratings[x] && m <= x),
                      ).toBe(true);
                    }
                  }
                  taken.add(m);
                  checked++;
                  ctx.start(jobId, allocation);
                },
              };
              inner.schedule(wrapped);
            },
          };
          const trace = simulate(jobs(inst.jobs), machines(inst.speeds, 9), spy);
          expect(checked).toBe(inst.jobs.length);
          expectSound(trace);
        },
      ),
      { numRuns: 60 },
    );
  });

  it("keeps every rating > 0 and every tier equal to the tier of its rating during a run", () => {
    fc.assert(
      fc.property(instance, fc.integer({ min: 1, max: 60 }), (inst, width) => {
        const policy = competitiveScheduler({
          tierWidth: width,
          baseRating: 2.5 * width,
          onRatingUpdate: (e) => {
            expect(e.ratingAfter).toBeGreaterThan(0);
            expect(e.tierAfter).toBe(tierOf(e.ratingAfter, { tierWidth: width }));
            expect(e.ratingAfter > e.ratingBefore).toBe(e.won);
          },
        });
        simulate(jobs(inst.jobs), machines(inst.speeds, 9), policy);
        const { ratings, tiers } = policy.snapshot();
        ratings.forEach((r, m) => {
          expect(tiers[m]).toBe(tierOf(r, { tierWidth: width }));
        });
      }),
      { numRuns: 60 },
    );
  });

  it("never drops a machine as fast as MAXSPEED to a slower tier", () => {
    fc.assert(
      fc.property(instance, (inst) => {
        const speeds = inst.speeds.map(() => 9);
        const policy = competitiveScheduler({
          tierWidth: 10,
          onRatingUpdate: (e) => {
            expect(e.won).toBe(true);
            expect(e.tierAfter).toBeLessThanOrEqual(e.tierBefore);
          },
        });
        simulate(jobs(inst.jobs), machines(speeds, 9), policy);
      }),
      { numRuns: 40 },
    );
  });
});

/** Machines that run at `speeds[m]` +-20% per (machine, job), whatever the platform says. */
function trueSpeeds(speeds: readonly number[]): ExecutionModel {
  return {
    name: "true-speeds",
    duration: (job, allocation, platform, seconds) => {
      const m = allocation[0]!.machine;
      const u = new Random(5, `truth/m${m}/j${job.id}`).uniform(-0.2, 0.2);
      return (seconds * platform.referenceSpeed) / (speeds[m]! * (1 + u));
    },
  };
}

describe("what the competitive scheduler knows", () => {
  it("ignores the platform's speed figures: only completions (and maxSpeed) matter", () => {
    fc.assert(
      fc.property(
        instance,
        fc.array(fc.integer({ min: 1, max: 9 }), { minLength: 6, maxLength: 6 }),
        (inst, advertised) => {
          const truth = trueSpeeds(inst.speeds);
          const told = machines(advertised.slice(0, inst.speeds.length), 9);
          const honest = machines(inst.speeds, 9);
          const js = jobs(inst.jobs);
          const run = (p: typeof told) =>
            simulate(js, p, competitiveScheduler({ maxSpeed: 9 }), {
              executionModel: truth,
            }).records.map((r) => r.intervals);
          expect(run(told)).toEqual(run(honest));
        },
      ),
      { numRuns: 40 },
    );
  });
});
