import { describe, expect, it } from "vitest";
import {
  ConstraintViolationError,
  checkSchedule,
  computeMetrics,
  createJob,
  identicalPool,
  maxCoresOf,
  type Scheduler,
  simulate,
} from "../src/index.js";

/** Starts every waiting job at once on machines 0 .. size - 1, `size` chosen per job. */
function sized(size: (id: number) => number): Scheduler {
  return {
    name: "sized",
    schedule(ctx) {
      for (const w of ctx.view.waiting) {
        const n = size(w.job.id);
        ctx.start(
          w.job.id,
          Array.from({ length: n }, (_, m) => ({ machine: m, cores: 1 })),
        );
      }
    },
  };
}

describe("moldable jobs", () => {
  it("maxCoresOf is maxParallelism for a moldable job, cores otherwise", () => {
    expect(
      maxCoresOf(createJob({ id: 1, submit: 0, runtime: 1, cores: 1, maxParallelism: 8 })),
    ).toBe(8);
    expect(maxCoresOf(createJob({ id: 2, submit: 0, runtime: 1, cores: 4 }))).toBe(4);
    expect(
      maxCoresOf(createJob({ id: 3, submit: 0, runtime: 1, cores: 4, maxParallelism: 2 })),
    ).toBe(4);
  });

  it("accepts any size from cores to maxParallelism; checkSchedule and utilization follow it", () => {
    const job = createJob({ id: 1, submit: 0, runtime: 10, cores: 1, maxParallelism: 4 });
    const trace = simulate(
      [job],
      identicalPool(4),
      sized(() => 3),
    );
    expect(trace.records[0]!.intervals[0]!.allocation.length).toBe(3);
    expect(checkSchedule(trace)).toEqual([]);
    // 3 cores for 10 s on 4 cores over a 10 s makespan
    expect(computeMetrics(trace).utilization).toBeCloseTo(0.75, 12);
  });

  it("rejects a size above maxParallelism, naming the range", () => {
    const job = createJob({ id: 1, submit: 0, runtime: 10, cores: 1, maxParallelism: 2 });
    expect(() =>
      simulate(
        [job],
        identicalPool(4),
        sized(() => 3),
      ),
    ).toThrow(ConstraintViolationError);
    expect(() =>
      simulate(
        [job],
        identicalPool(4),
        sized(() => 3),
      ),
    ).toThrow(/takes 1 to 2/);
  });

  it("keeps rigid jobs exact: a rigid job given more cores is still a violation", () => {
    const job = createJob({ id: 1, submit: 0, runtime: 10, cores: 2 });
    expect(() =>
      simulate(
        [job],
        identicalPool(4),
        sized(() => 3),
      ),
    ).toThrow(/the job needs 2/);
    const forged = {
      scheduler: "x",
      platform: identicalPool(4),
      records: [
        {
          job,
          intervals: [
            {
              start: 0,
              end: 10,
              allocation: [0, 1, 2].map((m) => ({ machine: m, cores: 1 })),
            },
          ],
          end: 10,
          outcome: "completed" as const,
        },
      ],
      stats: { events: 1, decisions: 1, schedulerMs: 0 },
    };
    expect(checkSchedule(forged).map((v) => v.kind)).toContain("allocation");
    const moldable = {
      ...forged,
      records: [{ ...forged.records[0]!, job: { ...job, cores: 1, maxParallelism: 3 } }],
    };
    expect(checkSchedule(moldable)).toEqual([]);
  });
});
