import { schedulerSpecs } from "@sched/core/testing";
import { maxMinScheduler, minMinScheduler } from "../src/batch-scheduler.js";
import { competitiveScheduler } from "../src/competitive-scheduler.js";
import { mctScheduler } from "../src/mct-scheduler.js";
import { randomScheduler } from "../src/random-scheduler.js";

// Every policy of the package, on both platform shapes with licenses, deadlines and ready times.
schedulerSpecs("competitive", () => competitiveScheduler(), { numRuns: 30 });
schedulerSpecs("competitive (narrow tiers)", () => competitiveScheduler({ tierWidth: 10 }), {
  numRuns: 30,
});
schedulerSpecs("random", () => randomScheduler({ seed: 11 }), { numRuns: 30 });
schedulerSpecs("min-min", () => minMinScheduler(), { numRuns: 30 });
schedulerSpecs("max-min", () => maxMinScheduler(), { numRuns: 30 });
schedulerSpecs("mct", () => mctScheduler(), { numRuns: 30 });
