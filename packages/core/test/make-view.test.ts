import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createJob, createPlatform, InvalidInputError, identicalPool } from "../src/index.js";
import { arbPlatform, makeView } from "../src/testing/index.js";

describe("makeView (@sched/core/testing)", () => {
  it("gives every member, consistent with each other, for any free-core shape", () => {
    fc.assert(
      fc.property(
        arbPlatform().chain((p) =>
          fc.tuple(
            fc.constant(p),
            fc.tuple(...p.machines.map((m) => fc.integer({ min: 0, max: m.cores }))),
          ),
        ),
        ([platform, free]) => {
          const jobs = [1, 2, 3].map((id) => createJob({ id, submit: 0, runtime: 5, cores: 1 }));
          const view = makeView(platform, { now: 7, freeCores: free, waiting: jobs });
          expect(view.now).toBe(7);
          expect(view.totalFreeCores).toBe(free.reduce((a, b) => a + b, 0));
          // Whole and fractional starts: the lowest machine index >= from with a free core.
          for (let from = -1; from <= free.length; from += 0.5) {
            let m = Math.max(0, Math.ceil(from));
            while (m < free.length && free[m] === 0) m++;
            expect(view.nextFreeMachine(from)).toBe(m < free.length ? m : -1);
            if (from >= 0 && from < free.length && Number.isInteger(from)) {
              expect(view.freeCores(from)).toBe(free[from]);
            }
          }
          expect(view.waitingCount).toBe(3);
          for (let i = 0; i < 3; i++) expect(view.waitingAt(i)).toBe(view.waiting[i]);
          expect(view.waitingAt(3)).toBeUndefined();
          expect(view.waiting.map((w) => [w.job.id, w.progress, w.preemptions])).toEqual([
            [1, 0, 0],
            [2, 0, 0],
            [3, 0, 0],
          ]);
          expect(view.isWaiting(2) && !view.isRunning(2)).toBe(true);
        },
      ),
      { numRuns: 60 },
    );
  });

  it("takes the running jobs' cores and licenses off the platform", () => {
    const platform = createPlatform({
      machines: [{ cores: 4 }, { cores: 2 }],
      licenses: [{ name: "lic", copies: 2 }],
    });
    const job = createJob({ id: 9, submit: 0, runtime: 10, cores: 3, licenses: { lic: 1 } });
    const allocation = [
      { machine: 0, cores: 2 },
      { machine: 1, cores: 1 },
    ];
    const view = makeView(platform, {
      now: 4,
      running: [{ job, allocation, start: 0, progressAtStart: 0, progress: 0.4, estimatedEnd: 10 }],
    });
    expect([view.freeCores(0), view.freeCores(1), view.totalFreeCores]).toEqual([2, 1, 3]);
    expect(view.freeLicenses("lic", 0)).toBe(1);
    expect(view.isRunning(9) && !view.isWaiting(9)).toBe(true);
    expect(view.duration(job, allocation, 10)).toBe(10);
  });

  it("names the option it rejects", () => {
    const p = identicalPool(2);
    expect(() => makeView(p, { freeCores: [1] })).toThrow(InvalidInputError);
    expect(() => makeView(p, { freeCores: [1] })).toThrow(/makeView: options.freeCores has 1/);
    expect(() => makeView(p, { freeCores: [1, 2] })).toThrow(/options.freeCores\[1\] is 2/);
    expect(() => makeView(p, { now: Number.NaN })).toThrow(/options.now is NaN/);
  });

  it("takes a waiting job's progress in [0, 1) and a running job's in [0, 1]", () => {
    const p = identicalPool(2);
    const job = createJob({ id: 1, submit: 0, runtime: 5, cores: 1 });
    const waiting = (progress: number) =>
      makeView(p, { waiting: [{ job, progress, preemptions: 1 }] });
    expect(waiting(0.5).waiting[0]!.progress).toBe(0.5);
    expect(() => waiting(1)).toThrow(
      "@sched/core/testing/makeView: options.waiting[0].progress is 1, expected a number in [0, 1)",
    );
    const running = makeView(p, {
      running: [
        {
          job,
          allocation: [{ machine: 0, cores: 1 }],
          start: 0,
          progressAtStart: 0,
          progress: 1,
          estimatedEnd: 5,
        },
      ],
    });
    expect(running.running[0]!.progress).toBe(1);
  });
});
