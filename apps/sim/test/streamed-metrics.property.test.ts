import {
  computeMetrics,
  type JobRecord,
  type Metrics,
  simulate,
  simulateStream,
} from "@sched/core";
import { arbJobs, arbPlatform } from "@sched/core/testing";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { SCHEDULERS } from "../src/schedulers.js";

// `run` gives the metrics a streamed run accumulates online (and jobs.csv from its records): for
// every policy it offers, they must be those of the kept trace, bit for bit.

const runs = arbPlatform({ shape: "pool", maxMachines: 8 }).chain((platform) =>
  arbJobs(platform, { licenses: false, deadlines: false, maxJobs: 25 }).map((jobs) => ({
    platform,
    jobs,
  })),
);

function same(a: Metrics, b: Metrics): boolean {
  for (const key of Object.keys(a) as (keyof Metrics)[]) {
    if (key === "schedulerMsPerDecision" || key === "licenseUsageByName") continue;
    if (!Object.is(a[key], b[key])) return false;
  }
  return true;
}

describe("streamed runs of every policy run offers", () => {
  for (const entry of SCHEDULERS.filter((s) => s.experimentOnly === undefined)) {
    it(`${entry.name}: same records and metrics (bit for bit) as the kept trace`, () => {
      fc.assert(
        fc.property(runs, ({ platform, jobs }) => {
          const trace = simulate(jobs, platform, entry.create({}));
          const records: JobRecord[] = [];
          const summary = simulateStream(jobs, platform, entry.create({}), {
            onRecord: (r) => records.push(r),
          });
          expect(records).toEqual(trace.records);
          expect(same(summary.metrics!, computeMetrics(trace))).toBe(true);
        }),
        { numRuns: 15 },
      );
    });
  }
});
