import {
  createJob,
  createPlatform,
  InvalidInputError,
  type SchedulingContext,
  simulate,
} from "@sched/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { maxMinScheduler, minMinScheduler } from "../src/batch-scheduler.js";
import { expectedTime } from "../src/expected-time.js";
import { mct } from "../src/mct.js";
import { mctScheduler } from "../src/mct-scheduler.js";
import { maxMin, minMin } from "../src/min-min.js";
import { randomScheduler } from "../src/random-scheduler.js";
import { expectSound, instance, jobs, machines, makespan, runTwice } from "./helpers.js";

/** The static problem of a batch submitted at 0, with exact expected times. */
function staticProblem(speeds: number[], runtimes: number[]) {
  const m = speeds.length;
  const etc = new Float64Array(runtimes.length * m);
  runtimes.forEach((r, i) => {
    speeds.forEach((s, j) => {
      etc[i * m + j] = r / s;
    });
  });
  return { tasks: runtimes.length, machines: m, etc };
}

const batch = fc.record({
  speeds: fc.array(fc.double({ min: 1, max: 9, noNaN: true }), { minLength: 1, maxLength: 5 }),
  runtimes: fc.array(fc.double({ min: 1, max: 1000, noNaN: true }), {
    minLength: 1,
    maxLength: 12,
  }),
});

describe("expectedTime", () => {
  it("is the estimate's operations divided by the told speed", () => {
    const platform = createPlatform({ machines: [{ speed: 6 }], referenceSpeed: 9 });
    const job = createJob({ id: 0, submit: 0, runtime: 50, estimate: 100, cores: 1 });
    expect(expectedTime(job, 0, platform)).toBe(150);
    expect(expectedTime(job, 0, platform, 9)).toBe(100);
    expect(() => expectedTime(job, 1, platform)).toThrow(InvalidInputError);
  });
});

describe("the online baselines agree with the static heuristics on a batch with exact times", () => {
  it("MCT starts every job when and where the static MCT plan says", () => {
    fc.assert(
      fc.property(batch, ({ speeds, runtimes }) => {
        const plan = mct(staticProblem(speeds, runtimes));
        const trace = simulate(jobs(runtimes.map((r) => [0, r])), machines(speeds), mctScheduler());
        trace.records.forEach((r, i) => {
          expect(r.intervals[0]!.allocation[0]!.machine).toBe(plan.machineOf[i]);
          expect(r.intervals[0]!.start).toBeCloseTo(plan.start[i]!, 6);
        });
      }),
      { numRuns: 60 },
    );
  });

  it("batch-mode Min-Min and Max-Min reach the static plan's makespan", () => {
    fc.assert(
      fc.property(batch, ({ speeds, runtimes }) => {
        const js = jobs(runtimes.map((r) => [0, r]));
        const p = staticProblem(speeds, runtimes);
        expect(makespan(simulate(js, machines(speeds), minMinScheduler()))).toBeCloseTo(
          minMin(p).makespan,
          6,
        );
        expect(makespan(simulate(js, machines(speeds), maxMinScheduler()))).toBeCloseTo(
          maxMin(p).makespan,
          6,
        );
      }),
      { numRuns: 60 },
    );
  });
});

describe("baseline schedulers", () => {
  const policies = [
    () => randomScheduler({ seed: 3 }),
    () => minMinScheduler(),
    () => maxMinScheduler(),
    () => mctScheduler(),
  ];

  it("run every job once, one job per machine at a time, the same way twice", () => {
    fc.assert(
      fc.property(instance, fc.integer({ min: 0, max: 3 }), (inst, k) => {
        expectSound(runTwice(jobs(inst.jobs), machines(inst.speeds, 3), policies[k]!()));
      }),
      { numRuns: 80 },
    );
  });

  it("plan with the told speeds, not the real ones", () => {
    // machine 1 is really faster, but MCT is told the opposite
    const js = jobs([[0, 90]]);
    const told = simulate(js, machines([1, 9]), mctScheduler({ speeds: [9, 1] }));
    expect(told.records[0]!.intervals[0]!.allocation[0]!.machine).toBe(0);
    const truth = simulate(js, machines([1, 9]), mctScheduler());
    expect(truth.records[0]!.intervals[0]!.allocation[0]!.machine).toBe(1);
  });

  it("random assignment depends on the seed only", () => {
    const js = jobs(Array.from({ length: 40 }, (_, i) => [i, 5] as const));
    const p = machines([1, 1, 1, 1, 1, 1, 1, 1]);
    const where = (seed: number) =>
      simulate(js, p, randomScheduler({ seed })).records.map(
        (r) => r.intervals[0]!.allocation[0]!.machine,
      );
    expect(where(5)).toEqual(where(5));
    expect(where(5)).not.toEqual(where(6));
    expect(new Set(where(5)).size).toBeGreaterThan(4);
  });

  it("reject jobs that no single machine can run, and a speeds option of the wrong length", () => {
    const platform = createPlatform({ machines: [{ cores: 1 }, { cores: 2 }] });
    const js = [createJob({ id: 0, submit: 0, runtime: 5, cores: 3 })];
    for (const make of policies) {
      expect(simulate(js, platform, make()).records[0]!.outcome).toBe("rejected");
    }
    expect(() => simulate(js, platform, minMinScheduler({ speeds: [1] }))).toThrow(
      "@sched/elo/minMinScheduler: options.speeds has length 1, expected one speed per machine (2)",
    );
    expect(() => simulate(js, platform, mctScheduler({ speeds: [1, 0] }))).toThrow(
      "options.speeds[1]",
    );
    // one speed too many is refused as well, not ignored
    for (const make of [minMinScheduler, maxMinScheduler, mctScheduler]) {
      expect(() => simulate(js, platform, make({ speeds: [1, 2, 3] }))).toThrow(
        "options.speeds has length 3, expected one speed per machine (2)",
      );
    }
    expect(() => randomScheduler({ seed: Number.NaN })).toThrow("options.seed");
  });

  it("refuse an invalid arriving job wider than every machine, as one that fits (no rejection instead)", () => {
    // Called directly, as an embedding caller may: the engine would have refused the job first.
    const platform = createPlatform({ machines: [{ cores: 1 }, { cores: 2 }] });
    const valid = createJob({ id: 0, submit: 0, runtime: 5, cores: 3 });
    for (const make of [minMinScheduler, maxMinScheduler]) {
      for (const job of [
        { ...valid, cores: 3.5 },
        { ...valid, cores: Number.POSITIVE_INFINITY },
        { ...valid, licenses: { x: -1 } },
      ]) {
        const rejected: number[] = [];
        const ctx = {
          view: { platform, now: 0, waiting: [], running: [] },
          arrived: [job],
          completed: [],
          reject: (id: number) => rejected.push(id),
          start: () => undefined,
        } as unknown as SchedulingContext;
        expect(() => make().schedule(ctx)).toThrow("@sched/core/fitsMachine");
        expect(rejected).toEqual([]);
      }
    }
  });
});
