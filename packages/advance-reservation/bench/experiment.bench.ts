import { createPlatform, identicalPool, simulate } from "@sched/core";
import { bench, describe } from "vitest";
import { advanceReservation, firstFit, peWorstFit } from "../src/index.js";
import { toyArWorkload } from "../test/toy-ar-workload.js";

/**
 * One simulation of the reproduction's size (10^4 jobs, 1024 PEs, UMed 7, {3,3}) on the test
 * stand-in workload: the full reproduction is 3 studies x 5 points x 7 policies x runs of these.
 */
describe("one AR simulation: 10^4 jobs, 1024 PEs (engine + scheduler)", () => {
  const jobs = toyArWorkload(
    {
      umed: 7,
      arrivalFactor: 1,
      artimeFactor: 3,
      deadlineFactor: 3,
      jobs: 10_000,
      pes: 1024,
      seed: 1,
    },
    300,
  );
  const platforms = [
    ["identicalPool(1024)", identicalPool(1024)],
    [
      "one 1024-core machine (as sched-sim reproduce ar-*)",
      createPlatform({ machines: [{ cores: 1024 }] }),
    ],
  ] as const;
  for (const [label, platform] of platforms) {
    for (const policy of [firstFit, peWorstFit]) {
      bench(
        `${policy.name}, ${label}`,
        () => {
          simulate(jobs, platform, advanceReservation({ policy }));
        },
        { iterations: 3, time: 0, warmupIterations: 1 },
      );
    }
  }
});
