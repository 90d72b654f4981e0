import { createJob, type Job } from "@sched/core";
import fc from "fast-check";
import { AvailRectList } from "../src/index.js";

/** A small advance-reservation case: `machines` identical machines of `cores` cores each. */
export interface Case {
  machines: number;
  cores: number;
  jobs: Job[];
}

/** Small AR workloads: integer times, ready times, general/immediate/no deadlines, estimates that may be off both ways. */
export const caseArb = (exactEstimates: boolean): fc.Arbitrary<Case> =>
  fc
    .record({
      machines: fc.integer({ min: 1, max: 6 }),
      cores: fc.constantFrom(1, 1, 2),
      specs: fc.array(
        fc.record({
          gap: fc.integer({ min: 0, max: 4 }),
          runtime: fc.integer({ min: 1, max: 8 }),
          error: exactEstimates ? fc.constant(0) : fc.integer({ min: -2, max: 3 }),
          cores: fc.integer({ min: 1, max: 7 }),
          delay: fc.integer({ min: 0, max: 5 }),
          slack: fc.option(fc.integer({ min: 0, max: 12 }), { nil: undefined }),
        }),
        { maxLength: 14 },
      ),
    })
    .map(({ machines, cores, specs }) => {
      let submit = 0;
      const jobs = specs.map((s, id) => {
        submit += s.gap;
        const estimate = Math.max(1, s.runtime + s.error);
        const ready = submit + s.delay;
        return createJob({
          id,
          submit,
          runtime: s.runtime,
          estimate,
          cores: s.cores,
          ready,
          ...(s.slack === undefined ? {} : { deadline: ready + estimate + s.slack }),
        });
      });
      return { machines, cores, jobs };
    });

/**
 * Figure 1 of the paper, with t_i = i and 10 PEs: job1 runs on n1 = {0,1} during [t0, t3),
 * job2 on n2 = {2,3} during [t0, t1), job3 is reserved on n3 = {4,5,6} during [t8, t10).
 */
export function figure1(): AvailRectList {
  const list = new AvailRectList(10);
  list.addAllocation(0, 3, [0, 1]);
  list.addAllocation(0, 1, [2, 3]);
  list.addAllocation(8, 10, [4, 5, 6]);
  return list;
}
