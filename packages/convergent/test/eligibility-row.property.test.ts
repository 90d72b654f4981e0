import { fitsMachine, type Job, type Platform } from "@sched/core";
import { arbJobs, arbPlatform } from "@sched/core/testing";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { KNOWN_ELIGIBLE } from "../src/matrix-checks.js";
import { coreClass, eligibilityRow } from "../src/minimal-requirements.js";

// `eligibilityRow` gives a job without licenses the row of its class of cores, made once per
// platform and shared: it must still be `fitsMachine` machine by machine, with its count
// registered (what `countEligible` answers without reading the row).

const plainRow = (job: Job, platform: Platform) =>
  Uint8Array.from(platform.machines, (_, m) => (fitsMachine(job, platform, m) ? 1 : 0));

const cases = arbPlatform({ maxMachines: 12 }).chain((platform) =>
  fc.record({
    platform: fc.constant(platform),
    jobs: arbJobs(platform),
    // cores between, at and above the machines' counts, without licenses
    wide: fc.array(fc.integer({ min: 1, max: 20 }), { maxLength: 12 }),
  }),
);

describe("eligibilityRow", () => {
  it("is fitsMachine machine by machine, count registered, one row per class of cores for jobs without licenses", () => {
    fc.assert(
      fc.property(cases, ({ platform, jobs, wide }) => {
        const all: Job[] = [
          ...jobs,
          ...wide.map((cores, k) => ({
            id: 10_000 + k,
            submit: 0,
            runtime: 1,
            estimate: 1,
            cores,
          })),
        ];
        for (const job of all) {
          const row = eligibilityRow(job, platform);
          const want = plainRow(job, platform);
          expect(row).toEqual(want);
          expect(KNOWN_ELIGIBLE.get(row)).toBe(want.reduce((s, x) => s + x, 0));
        }
        const free = all.filter((j) => j.licenses === undefined);
        for (const a of free) {
          for (const b of free) {
            const same = coreClass(platform, a.cores) === coreClass(platform, b.cores);
            expect(eligibilityRow(a, platform) === eligibilityRow(b, platform)).toBe(same);
          }
        }
      }),
      { numRuns: 300 },
    );
  });

  it("refuses a job as fitsMachine does, shared row or not", () => {
    const platform = arbPlatform({ maxMachines: 3 });
    fc.assert(
      fc.property(platform, fc.constantFrom(0, -1, 1.5, Number.NaN), (p, cores) => {
        const bad = { id: 1, submit: 0, runtime: 1, estimate: 1, cores } as Job;
        // a good job of each class first, so that the rows exist
        for (let c = 1; c <= 9; c++) eligibilityRow({ ...bad, cores: c }, p);
        let want = "";
        try {
          fitsMachine(bad, p, 0);
        } catch (e) {
          want = (e as Error).message;
        }
        expect(want).not.toBe("");
        expect(() => eligibilityRow(bad, p)).toThrow(want);
      }),
      { numRuns: 40 },
    );
  });
});
