import { createJob, identicalPool, type ScheduleTrace, simulate } from "@sched/core";
import { arbJobs, arbPlatform } from "@sched/core/testing";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { convergent } from "../src/convergent.js";
import { CONVERGENT_VARIANTS, convergentVariant } from "../src/variants.js";

const farms = arbPlatform({ shape: "farm", maxMachines: 5 }).chain((platform) =>
  arbJobs(platform, { maxJobs: 14, singleMachine: true }).map((jobs) => ({ platform, jobs })),
);

/** Largest number of copies of each license held at once, by a sweep over the intervals. */
function peakLicenseUse(trace: ScheduleTrace): Map<string, number> {
  const events: [number, number, string, number][] = [];
  for (const r of trace.records) {
    const req = r.job.licenses ?? {};
    for (const iv of r.intervals)
      for (const name of Object.keys(req)) {
        const lic = trace.platform.licenses.find((l) => l.name === name);
        const key = lic?.kind === "node-locked" ? `${name}@${iv.allocation[0]?.machine}` : name;
        events.push(
          [iv.start, 1, key, req[name] as number],
          [iv.end, -1, key, req[name] as number],
        );
      }
  }
  events.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const now = new Map<string, number>();
  const peak = new Map<string, number>();
  for (const [, sign, key, n] of events) {
    const v = (now.get(key) ?? 0) + sign * n;
    now.set(key, v);
    peak.set(key, Math.max(peak.get(key) ?? 0, v));
  }
  return peak;
}

describe("convergent scheduler properties", () => {
  it("never holds more copies of a license than the platform has (every variant)", () => {
    fc.assert(
      fc.property(farms, fc.constantFrom(...CONVERGENT_VARIANTS), ({ platform, jobs }, v) => {
        const trace = simulate(jobs, platform, convergentVariant(v));
        for (const [key, peak] of peakLicenseUse(trace)) {
          const [name] = key.split("@");
          const lic = platform.licenses.find((l) => l.name === name);
          expect(peak).toBeLessThanOrEqual(lic?.copies ?? 0);
        }
      }),
      { numRuns: 30 },
    );
  });
  it("never runs two jobs on one machine at once, nor a job on two machines", () => {
    fc.assert(
      fc.property(farms, ({ platform, jobs }) => {
        const trace = simulate(jobs, platform, convergent());
        const ivs = trace.records.flatMap((r) => r.intervals);
        for (const a of ivs) {
          expect(a.allocation.length).toBe(1);
          for (const b of ivs) {
            if (a === b || a.allocation[0]?.machine !== b.allocation[0]?.machine) continue;
            expect(a.end <= b.start || b.end <= a.start).toBe(true);
          }
        }
      }),
      { numRuns: 30 },
    );
  });
  it("without preemption runs every job in one piece", () => {
    fc.assert(
      fc.property(
        farms,
        fc.constantFrom("CS_inp" as const, "CS_ninp" as const),
        ({ platform, jobs }, v) => {
          const trace = simulate(jobs, platform, convergentVariant(v));
          for (const r of trace.records) expect(r.intervals.length).toBeLessThanOrEqual(1);
        },
      ),
      { numRuns: 30 },
    );
  });
  it("misses no deadline when every job has its own machine and a feasible deadline", () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            gap: fc.nat(20),
            runtime: fc.integer({ min: 1, max: 50 }),
            slack: fc.nat(30),
          }),
          { minLength: 1, maxLength: 10 },
        ),
        fc.constantFrom(...CONVERGENT_VARIANTS),
        (raw, v) => {
          let t = 0;
          const jobs = raw.map((r, id) => {
            t += r.gap;
            return createJob({
              id,
              submit: t,
              runtime: r.runtime,
              cores: 1,
              deadline: t + r.runtime + r.slack,
            });
          });
          const trace = simulate(jobs, identicalPool(10), convergentVariant(v));
          for (const r of trace.records) {
            expect(r.intervals).toHaveLength(1);
            expect(r.intervals[0]?.start).toBe(r.job.submit);
            expect(r.end as number).toBeLessThanOrEqual(r.job.deadline as number);
          }
        },
      ),
      { numRuns: 30 },
    );
  });
});
