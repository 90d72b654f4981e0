import { createPlatform, type Job, type Scheduler, simulate } from "@sched/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { machineOrder } from "../src/allocation.js";
import { edf } from "../src/edf.js";
import { easy } from "../src/presets.js";
import { job, startsOf } from "./support/run.js";

// The readings of the convergent paper's EDF that its text leaves open (section 6: "jobs were
// ordered in decreasing order w.r.t. their deadline ... It exploits the job preemptive feature
// to free resources to execute first new submitted job with an earliest deadline"), and the
// machine choice of the baselines.

const oneCore = createPlatform({ machines: [{ cores: 1 }] });

const intervals = (trace: ReturnType<typeof simulate>, id: number) =>
  trace.records.find((r) => r.job.id === id)?.intervals.map((i) => [i.start, i.end]);

describe("edf readings: hand-worked", () => {
  // J1 runs from 0; J2, J3, J4 wait for it; J4 has no deadline.
  const queued = [
    job(1, 0, 10, 1, { deadline: 100 }),
    job(2, 1, 10, 1, { deadline: 50 }),
    job(3, 2, 10, 1, { deadline: 80 }),
    job(4, 3, 10, 1),
  ];

  it("deadlineOrder 'decreasing' takes the latest deadline first; undated jobs stay last", () => {
    const order = (s: Scheduler) => {
      const starts = startsOf(simulate(queued, oneCore, s));
      return [2, 3, 4].sort((a, b) => (starts.get(a) as number) - (starts.get(b) as number));
    };
    expect(order(edf({ preemption: false }))).toEqual([2, 3, 4]);
    expect(order(edf({ preemption: false, deadlineOrder: "decreasing" }))).toEqual([3, 2, 4]);
  });

  it("undatedFactor orders a job without deadline as if due at submit + factor x estimate", () => {
    const order = (undatedFactor: number) => {
      const starts = startsOf(simulate(queued, oneCore, edf({ preemption: false, undatedFactor })));
      return [2, 3, 4].sort((a, b) => (starts.get(a) as number) - (starts.get(b) as number));
    };
    expect(order(Number.POSITIVE_INFINITY)).toEqual([2, 3, 4]);
    expect(order(0)).toEqual([4, 2, 3]); // due at 3
    expect(order(6)).toEqual([2, 4, 3]); // due at 63
    expect(order(8)).toEqual([2, 3, 4]); // due at 83
  });

  it("a job without deadline is preempted by its key, and never preempts", () => {
    // J1 has no deadline (key 0 + 2 x 10 = 20); J2 (deadline 30) does not preempt it, J3 (15) does.
    const jobs = [
      job(1, 0, 10, 1),
      job(2, 1, 3, 1, { deadline: 30 }),
      job(3, 2, 3, 1, { deadline: 15 }),
    ];
    const trace = simulate(jobs, oneCore, edf({ undatedFactor: 2 }));
    expect(intervals(trace, 3)).toEqual([[2, 5]]);
    expect(intervals(trace, 1)).toEqual([
      [0, 2],
      [5, 13],
    ]);
    expect(intervals(trace, 2)).toEqual([[13, 16]]);
    // An undated arrival never preempts, whatever its key.
    const undated = [job(1, 0, 10, 1, { deadline: 100 }), job(2, 1, 3, 1)];
    expect(startsOf(simulate(undated, oneCore, edf({ undatedFactor: 0 }))).get(2)).toBe(10);
  });

  it("preemptFor 'waiting' lets a job that became ready later preempt; 'arrivals' only at submission", () => {
    // J2 is submitted at 1 but ready at 3: it is not a new submission when it may first run.
    const jobs = [job(1, 0, 10, 1, { deadline: 100 }), job(2, 1, 2, 1, { deadline: 20, ready: 3 })];
    expect(intervals(simulate(jobs, oneCore, edf()), 2)).toEqual([[10, 12]]);
    const trace = simulate(jobs, oneCore, edf({ preemptFor: "waiting" }));
    expect(intervals(trace, 2)).toEqual([[3, 5]]);
    expect(intervals(trace, 1)).toEqual([
      [0, 3],
      [5, 12],
    ]);
  });

  it("preemptFor 'waiting': a job preempted for an arrival preempts a later-deadline job at the next event", () => {
    // Two identical machines. J1 (deadline 20) on m0, J2 (deadline 90) on m1. J3 arrives at 1
    // with deadline 10: the first machine with a later deadline is m0, so J1 is preempted. J1
    // (20) then waits behind J2 (90): 'waiting' lets it take m1 at the next event (J4's
    // arrival at 2); 'arrivals' leaves it waiting.
    const two = createPlatform({ machines: [{ cores: 1 }, { cores: 1 }] });
    const jobs = [
      job(1, 0, 10, 1, { deadline: 20 }),
      job(2, 0, 10, 1, { deadline: 90 }),
      job(3, 1, 5, 1, { deadline: 10 }),
      job(4, 2, 1, 1, { deadline: 1000 }),
    ];
    const arrivals = simulate(jobs, two, edf({ exclusive: true }));
    expect(intervals(arrivals, 1)).toEqual([
      [0, 1],
      [6, 15],
    ]);
    const waiting = simulate(jobs, two, edf({ exclusive: true, preemptFor: "waiting" }));
    expect(intervals(waiting, 1)).toEqual([
      [0, 1],
      [2, 11],
    ]);
    expect(intervals(waiting, 2)).toEqual([
      [0, 2],
      [6, 14],
    ]);
  });

  it("rejects invalid reading options, naming the field", () => {
    expect(() => edf({ deadlineOrder: "up" as never })).toThrow(
      /@sched\/backfill\/edf: options.deadlineOrder is "up", expected "increasing" or "decreasing"/,
    );
    expect(() => edf({ undatedFactor: -1 })).toThrow(/options.undatedFactor is -1/);
    expect(() => edf({ undatedFactor: Number.NaN })).toThrow(/options.undatedFactor is NaN/);
    expect(() => edf({ preemptFor: "all" as never })).toThrow(/options.preemptFor is "all"/);
    expect(() => easy({ machineOrder: "worst-fit" as never })).toThrow(
      /options.machineOrder is "worst-fit", expected one of "index", "speed", "best-fit"/,
    );
  });
});

describe("machineOrder 'best-fit'", () => {
  const farm = createPlatform({
    machines: [
      { cores: 8, speed: 1 },
      { cores: 2, speed: 1 },
      { cores: 4, speed: 3 },
      { cores: 2, speed: 2 },
    ],
  });

  it("tries the fewest cores first, then the fastest, then the lowest index", () => {
    expect(Array.from(machineOrder(farm, "best-fit"))).toEqual([3, 1, 2, 0]);
    expect(Array.from(machineOrder(farm, "speed"))).toEqual([2, 3, 0, 1]);
    expect(Array.from(machineOrder(farm, "index"))).toEqual([0, 1, 2, 3]);
  });

  it("puts a job on the smallest idle machine that hosts it (exclusive EASY)", () => {
    const jobs = [job(1, 0, 10, 2), job(2, 0, 10, 3), job(3, 0, 10, 2)];
    const trace = simulate(jobs, farm, easy({ exclusive: true, machineOrder: "best-fit" }));
    const on = (id: number) =>
      trace.records.find((r) => r.job.id === id)?.intervals[0]?.allocation[0]?.machine;
    expect([on(1), on(2), on(3)]).toEqual([3, 2, 1]);
    const byIndex = simulate(jobs, farm, easy({ exclusive: true }));
    expect(byIndex.records.map((r) => r.intervals[0]!.allocation[0]!.machine)).toEqual([0, 2, 1]);
  });
});

/** A farm of single-core machines of any speed, and one-core jobs, some without deadline. */
const farmArb = fc
  .record({
    speeds: fc.array(fc.integer({ min: 1, max: 4 }), { minLength: 1, maxLength: 4 }),
    jobs: fc.array(
      fc.record({
        gap: fc.integer({ min: 0, max: 6 }),
        runtime: fc.integer({ min: 1, max: 12 }),
        slack: fc.option(fc.integer({ min: 0, max: 40 }), { nil: undefined }),
      }),
      { minLength: 1, maxLength: 14 },
    ),
  })
  .map(({ speeds, jobs }) => {
    const platform = createPlatform({ machines: speeds.map((speed) => ({ cores: 1, speed })) });
    let t = 0;
    const list: Job[] = jobs.map((j, i) => {
      t += j.gap;
      return job(i + 1, t, j.runtime, 1, j.slack === undefined ? {} : { deadline: t + j.slack });
    });
    return { platform, jobs: list };
  });

describe("edf readings: properties on farms where every job fits every machine", () => {
  it("without preemption, a job starts only when no job waiting then comes before it in the reading's order (oracle comparator)", () => {
    fc.assert(
      fc.property(
        farmArb,
        fc.constantFrom("increasing" as const, "decreasing" as const),
        fc.constantFrom(Number.POSITIVE_INFINITY, 0, 1.5, 4),
        (w, deadlineOrder, undatedFactor) => {
          const key = (j: Job) => j.deadline ?? j.submit + undatedFactor * j.estimate;
          const sign = deadlineOrder === "increasing" ? 1 : -1;
          const before = (a: Job, b: Job): boolean => {
            const [ka, kb] = [key(a), key(b)];
            if (ka !== kb) {
              if (ka === Number.POSITIVE_INFINITY) return false;
              if (kb === Number.POSITIVE_INFINITY) return true;
              return sign * (ka - kb) < 0;
            }
            return a.submit - b.submit < 0 || (a.submit === b.submit && a.id < b.id);
          };
          const trace = simulate(
            w.jobs,
            w.platform,
            edf({ preemption: false, exclusive: true, deadlineOrder, undatedFactor }),
          );
          const start = startsOf(trace);
          for (const a of w.jobs) {
            const t = start.get(a.id) as number;
            for (const b of w.jobs) {
              const tb = start.get(b.id) as number;
              // b was waiting when a started and did not start then: a must come first.
              if (b !== a && b.submit <= t && tb > t)
                expect(before(a, b), `${a.id} ${b.id}`).toBe(true);
            }
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it("preemptFor 'waiting': after every event, no job waiting since before it has an earlier deadline than a running job", () => {
    fc.assert(
      fc.property(farmArb, fc.constantFrom(Number.POSITIVE_INFINITY, 0, 2), (w, undatedFactor) => {
        const inner = edf({ exclusive: true, preemptFor: "waiting", undatedFactor });
        const key = (j: Job) => j.deadline ?? j.submit + undatedFactor * j.estimate;
        const checked: Scheduler = {
          name: inner.name,
          reset: (p) => inner.reset?.(p),
          schedule(ctx) {
            const before = ctx.view.waiting.map((x) => x.job);
            inner.schedule(ctx);
            const running = ctx.view.running.filter((r) => ctx.view.isRunning(r.job.id));
            const latest = Math.max(Number.NEGATIVE_INFINITY, ...running.map((r) => key(r.job)));
            for (const j of before) {
              if (j.deadline === undefined || !ctx.view.isWaiting(j.id)) continue;
              expect(j.deadline, `job ${j.id} at ${ctx.view.now}`).toBeGreaterThanOrEqual(latest);
            }
          },
        };
        const trace = simulate(w.jobs, w.platform, checked);
        expect(trace.records.every((r) => r.outcome === "completed")).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});
