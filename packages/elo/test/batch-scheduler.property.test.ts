import { createPlatform, simulate } from "@sched/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { maxMinScheduler, minMinScheduler } from "../src/batch-scheduler.js";
import { drawnJobs } from "./helpers.js";
import { plainBatch } from "./plain-batch.js";

// minMinScheduler / maxMinScheduler against the plain batch scheduler they replaced (as of
// 2026-11-28 morning: every machine looked at per event, a dense row of expected times per job,
// Infinity where it does not fit, every arrival checked machine by machine, and the previous
// greedy of greedy-oracle.ts): the same starts, at the same times, on the same machines, and the
// same rejections, event by event. Few distinct speeds, sizes and submit times make ties common;
// machines of 1, 2 and 4 cores and jobs of 1 to 5 cores make some jobs fit few machines or none,
// and floating licenses usable on some machines only thin the lists further.

const scenario = fc
  .record({
    machines: fc.array(
      fc.record({
        speed: fc.integer({ min: 1, max: 3 }),
        cores: fc.constantFrom(1, 2, 4),
        holds: fc.boolean(), // where the license is usable
      }),
      { minLength: 1, maxLength: 7 },
    ),
    jobs: fc.array(
      fc.record({
        submit: fc.integer({ min: 0, max: 6 }),
        runtime: fc.integer({ min: 1, max: 4 }),
        estimate: fc.integer({ min: 1, max: 4 }),
        cores: fc.integer({ min: 1, max: 5 }),
        license: fc.boolean(),
        delay: fc.option(fc.integer({ min: 0, max: 5 }), { nil: undefined }),
      }),
      { maxLength: 30 },
    ),
  })
  .map(({ machines, jobs }) => {
    const usable = machines.flatMap((mc, j) => (mc.holds ? [j] : []));
    const platform = createPlatform({
      machines: machines.map(({ speed, cores }) => ({ speed, cores })),
      licenses: usable.length > 0 ? [{ name: "l", copies: 2, machines: usable }] : [],
    });
    const list = drawnJobs(jobs, (j) => (j.license && usable.length > 0 ? { l: 1 } : undefined));
    return { platform, jobs: list };
  });

describe("the batch schedulers against the plain batch scheduler", () => {
  for (const largest of [false, true]) {
    it(`${largest ? "max-min" : "min-min"}: the same starts and rejections, event by event`, () => {
      fc.assert(
        fc.property(scenario, ({ platform, jobs }) => {
          const make = largest ? maxMinScheduler : minMinScheduler;
          const got = simulate(jobs, platform, make());
          const want = simulate(jobs, platform, plainBatch(largest));
          expect(got.records).toEqual(want.records);
        }),
        { numRuns: 300 },
      );
    });
  }
});
