import { expect, it } from "vitest";
import {
  checkSchedule,
  computeMetrics,
  createJob,
  firstFitAllocation,
  identicalPool,
  type Scheduler,
  simulate,
} from "../src/index.js";

it("the README example prints what the README says", () => {
  const firstFit: Scheduler = {
    name: "first-fit",
    schedule(ctx) {
      for (const w of ctx.view.waiting) {
        const allocation = firstFitAllocation(ctx.view, w.job.cores);
        if (allocation) ctx.start(w.job.id, allocation);
      }
    },
  };
  const jobs = [
    createJob({ id: 1, submit: 0, runtime: 100, cores: 2 }),
    createJob({ id: 2, submit: 10, runtime: 50, cores: 4 }),
    createJob({ id: 3, submit: 20, runtime: 30, cores: 1 }),
  ];
  const trace = simulate(jobs, identicalPool(4), firstFit);
  expect(trace.records.map((r) => [r.job.id, r.intervals[0]?.start, r.end])).toEqual([
    [1, 0, 100],
    [2, 100, 150],
    [3, 20, 50],
  ]);
  expect(checkSchedule(trace)).toEqual([]);
  const m = computeMetrics(trace);
  expect(m.meanWait).toBe(30);
  expect(m.makespan).toBe(150);
  expect(m.utilization).toBeCloseTo(0.7167, 4);
  expect(m.meanBoundedSlowdown).toBeCloseTo(1.6, 12);
});
