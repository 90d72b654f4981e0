import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { computeMetrics, metricsOf, simulate } from "../src/index.js";
import { arbJobs, arbPlatform } from "../src/testing/index.js";
import { chaos, greedy } from "./helpers.js";

const traces = arbPlatform()
  .chain((platform) => arbJobs(platform).map((jobs) => ({ platform, jobs })))
  .chain(({ platform, jobs }) =>
    fc.constantFrom(greedy(), chaos()).map((policy) => simulate(jobs, platform, policy)),
  );

describe("computeMetrics (properties)", () => {
  it("stays in range on valid schedules", () => {
    fc.assert(
      fc.property(traces, (trace) => {
        const m = computeMetrics(trace);
        expect(m.completed + m.rejected + m.unfinished).toBe(m.jobs);
        expect(m.utilization).toBeGreaterThanOrEqual(0);
        expect(m.utilization).toBeLessThanOrEqual(1 + 1e-9);
        if (m.completed > 0) {
          expect(m.meanWait).toBeGreaterThanOrEqual(0);
          expect(m.maxWait).toBeGreaterThanOrEqual(m.meanWait - 1e-9);
          expect(m.meanResponse).toBeGreaterThanOrEqual(m.meanWait);
          expect(m.meanSlowdown).toBeGreaterThanOrEqual(1 - 1e-12);
          expect(m.meanBoundedSlowdown).toBeGreaterThanOrEqual(1);
          expect(m.meanBoundedSlowdown).toBeLessThanOrEqual(m.meanSlowdown + 1e-9);
        }
        if (!Number.isNaN(m.machineUsage)) {
          expect(m.machineUsage).toBeGreaterThanOrEqual(0);
          expect(m.machineUsage).toBeLessThanOrEqual(1);
        }
        for (const u of Object.values(m.licenseUsageByName)) {
          if (!Number.isNaN(u)) expect(u).toBeLessThanOrEqual(1 + 1e-9);
        }
        expect(m.acceptanceRate).toBeCloseTo((m.jobs - m.rejected) / m.jobs, 12);
      }),
      { numRuns: 60 },
    );
  });

  it("does not depend on the order of the records", () => {
    fc.assert(
      fc.property(traces, (trace) => {
        const reversed = [...trace.records].reverse();
        const a = metricsOf(trace.records, trace.platform);
        const b = metricsOf(reversed, trace.platform);
        for (const key of Object.keys(a) as (keyof typeof a)[]) {
          if (key === "licenseUsageByName") continue;
          const x = a[key] as number;
          const y = b[key] as number;
          if (Number.isNaN(x)) expect(y).toBeNaN();
          else expect(y).toBeCloseTo(x, 9);
        }
      }),
      { numRuns: 40 },
    );
  });
});
