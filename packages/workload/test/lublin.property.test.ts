import { InvalidInputError, validateJobs } from "@sched/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { generateLublin, lublinRecords, resolveLublinOptions } from "../src/lublin.js";
import { swfToJobs } from "../src/swf-jobs.js";
import { formatSwf } from "../src/swf-write.js";

const options = fc.record({
  jobs: fc.integer({ min: 0, max: 200 }),
  procs: fc.integer({ min: 1, max: 5000 }),
  seed: fc.integer({ min: -(2 ** 40), max: 2 ** 40 }),
  jobTypes: fc.boolean(),
  arrivalFactor: fc.double({ min: 0.1, max: 10, noNaN: true }),
});

describe("Lublin properties", () => {
  it("every generated job is valid for the machine it was generated for", () => {
    fc.assert(
      fc.property(options, (o) => {
        const rs = [...lublinRecords(o)];
        expect(rs).toHaveLength(o.jobs);
        let prev = 0;
        rs.forEach((r, i) => {
          expect(r.jobNumber).toBe(i + 1);
          expect(Number.isInteger(r.allocatedProcs)).toBe(true);
          expect(r.allocatedProcs).toBeGreaterThanOrEqual(1);
          expect(r.allocatedProcs).toBeLessThanOrEqual(o.procs);
          expect(r.runTime).toBeGreaterThanOrEqual(1);
          expect(r.runTime).toBeLessThanOrEqual(162754);
          expect(r.submitTime).toBeGreaterThanOrEqual(prev);
          prev = r.submitTime;
        });
        const { jobs } = swfToJobs(rs, { estimate: "runtime" });
        expect(validateJobs(jobs)).toEqual(jobs);
      }),
      { numRuns: 60 },
    );
  });

  it("the same options reproduce byte-identical SWF", () => {
    fc.assert(
      fc.property(options, (o) => {
        const a = generateLublin(o);
        const b = generateLublin({ ...o });
        expect(formatSwf(b.header, b.records)).toBe(formatSwf(a.header, a.records));
      }),
      { numRuns: 30 },
    );
  });

  it("a probability outside [0, 1] is always rejected with the option's name", () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.double({ min: 1.0000001, max: 1e6, noNaN: true }),
          fc.double({ max: -1e-9, min: -1e6, noNaN: true }),
        ),
        fc.constantFrom("serialProb", "pow2Prob", "uProb"),
        fc.constantFrom("batch", "interactive", "typeless"),
        (v, key, type) => {
          expect(() => resolveLublinOptions({ [type]: { [key]: v } })).toThrow(InvalidInputError);
          expect(() => resolveLublinOptions({ [type]: { [key]: v } })).toThrow(
            `options.${type}.${key}`,
          );
        },
      ),
      { numRuns: 100 },
    );
  });
});
