import { simulate } from "@sched/core";
import { Random } from "@sched/random";
import { bench, describe } from "vitest";
import { maxMinScheduler, minMinScheduler } from "../src/batch-scheduler.js";
import { competitiveScheduler } from "../src/competitive-scheduler.js";
import { mctScheduler } from "../src/mct-scheduler.js";
import { maxMin, minMin } from "../src/min-min.js";
import { eloInstance } from "../src/paper-setup.js";
import { randomScheduler } from "../src/random-scheduler.js";
import { TierList } from "../src/tier-list.js";

describe("TierList.record", () => {
  const list = new TierList(60);
  const rng = new Random(1, "bench/ratings");
  bench("10 000 rating updates on 60 machines", () => {
    for (let i = 0; i < 10_000; i++)
      list.record(rng.integer(0, 59), rng.integer(1, 5), rng.chance(0.5));
  });
});

describe("mapping heuristics, 500 tasks x 60 machines", () => {
  const rng = new Random(2, "bench/etc");
  const etc = Float64Array.from({ length: 500 * 60 }, () => 1 + 1000 * rng.next());
  const problem = { tasks: 500, machines: 60, etc };
  bench("minMin", () => {
    minMin(problem);
  });
  bench("maxMin", () => {
    maxMin(problem);
  });
});

describe("a 2000-job stream on 60 machines (load 0.7)", () => {
  const { jobs, platform, executionModel } = eloInstance({
    machines: 60,
    jobs: 2000,
    seed: 1,
    meanInterarrival: 562 / 7 / (60 * 0.7),
  });
  const run = (make: () => Parameters<typeof simulate>[2]) => () => {
    simulate(jobs, platform, make(), { executionModel });
  };
  bench(
    "competitive",
    run(() => competitiveScheduler()),
    { iterations: 5 },
  );
  bench(
    "min-min",
    run(() => minMinScheduler()),
    { iterations: 5 },
  );
  bench(
    "max-min",
    run(() => maxMinScheduler()),
    { iterations: 5 },
  );
  bench(
    "mct",
    run(() => mctScheduler()),
    { iterations: 5 },
  );
  bench(
    "random",
    run(() => randomScheduler({ seed: 1 })),
    { iterations: 5 },
  );
});
