import { createJob, createPlatform, InvalidInputError, simulate } from "@sched/core";
import { describe, expect, it } from "vitest";
import {
  competitiveScheduler,
  type RatingEvent,
  tierPreference,
} from "../src/competitive-scheduler.js";
import { expectSound, jobs, machines, runTwice } from "./helpers.js";

describe("tierPreference", () => {
  it("looks at the job's tier, then faster tiers, then slower ones", () => {
    expect(tierPreference(3, 5)).toEqual([3, 2, 1, 4, 5]);
    expect(tierPreference(1, 5)).toEqual([1, 2, 3, 4, 5]);
    expect(tierPreference(5, 5)).toEqual([5, 4, 3, 2, 1]);
    expect(tierPreference(3, 5, "faster-first")).toEqual([3, 2, 1, 4, 5]);
  });
  it("with slower-first looks at the slower tiers first, with nearest by distance (faster at a tie)", () => {
    expect(tierPreference(3, 5, "slower-first")).toEqual([3, 4, 5, 2, 1]);
    expect(tierPreference(1, 5, "slower-first")).toEqual([1, 2, 3, 4, 5]);
    expect(tierPreference(5, 5, "slower-first")).toEqual([5, 4, 3, 2, 1]);
    expect(tierPreference(3, 5, "nearest")).toEqual([3, 2, 4, 1, 5]);
    expect(tierPreference(2, 5, "nearest")).toEqual([2, 1, 3, 4, 5]);
    expect(tierPreference(4, 5, "nearest")).toEqual([4, 3, 5, 2, 1]);
  });
  it("rejects an unknown order, naming it", () => {
    expect(() => tierPreference(3, 5, "up" as never)).toThrow(
      '@sched/elo/tierPreference: search is "up", expected one of "faster-first", "slower-first", "nearest"',
    );
  });
});

describe("competitiveScheduler", () => {
  it("rates a machine after a job as the hand computation says", () => {
    // speeds 9 and 5 Mflops, runtimes at 9 Mflops; one 900-Mflop job (100 s at speed 9)
    const events: RatingEvent[] = [];
    const policy = competitiveScheduler({ onRatingUpdate: (e) => events.push(e) });
    const trace = simulate(jobs([[0, 100]]), machines([9, 5], 9), policy);
    expect(trace.records[0]!.intervals[0]!.allocation).toEqual([{ machine: 0, cores: 1 }]);
    expect(events).toHaveLength(1);
    const e = events[0]!;
    // tier 3 (1250), level 1 (the only size seen): positive perspective, gap 2, S_e = 5/7;
    // 100 s <= 3 * 900 / 9 = 300 s: a win, CR = 1250 + 20 * (1 - 5/7)
    expect(e).toMatchObject({
      machine: 0,
      job: 0,
      tierBefore: 3,
      jobLevel: 1,
      won: true,
      size: 900,
    });
    expect(e.elapsed).toBe(100);
    expect(e.expected).toBeCloseTo(5 / 7, 15);
    expect(e.ratingAfter).toBeCloseTo(1250 + 40 / 7, 12);
    expect(Array.from(policy.snapshot().tiers)).toEqual([3, 3]);
  });

  it("learns from a loss: a slow machine drops out of tier 1 and the fast one gets the work", () => {
    // both start at the bottom of tier 1 (CR 2000); machine 0 is slow (1 vs MAXSPEED 9)
    const policy = competitiveScheduler({ baseRating: 2000 });
    const js = jobs([
      [0, 10],
      [100, 10],
      [200, 10],
      [300, 10],
    ]);
    const trace = simulate(js, machines([1, 9], 9), policy);
    const used = trace.records.map((r) => r.intervals[0]!.allocation[0]!.machine);
    expect(used).toEqual([0, 1, 1, 1]); // the first job lost on machine 0: 2000 - 20 * 0.6 = 1988
    const snap = policy.snapshot();
    expect(snap.ratings[0]).toBe(1988);
    expect(Array.from(snap.tiers)).toEqual([2, 1]);
  });

  it("takes the free machine with the highest rating inside a tier", () => {
    const policy = competitiveScheduler({ baseRating: 1250 });
    // job 0 runs alone on machine 0 and wins (+): machine 0 now rates higher than 1 and 2
    const js = jobs([
      [0, 10],
      [50, 10],
    ]);
    const trace = simulate(js, machines([3, 9, 9], 9), policy);
    expect(trace.records.map((r) => r.intervals[0]!.allocation[0]!.machine)).toEqual([0, 0]);
  });

  it("falls back to the next best tier when the job's tier has no free machine", () => {
    // levels given by the user: every job asks for tier 1, which is empty; tier 3 holds all
    const policy = competitiveScheduler({ jobLevel: () => 1 });
    const trace = simulate(
      jobs([
        [0, 10],
        [0, 10],
      ]),
      machines([9, 9, 9], 9),
      policy,
    );
    expect(trace.records.map((r) => r.intervals[0]!.start)).toEqual([0, 0]);
    expectSound(trace);
  });

  it("waits when no machine is free and runs a machine's jobs one at a time", () => {
    const trace = runTwice(
      jobs([
        [0, 10],
        [0, 20],
        [0, 30],
      ]),
      machines([9], 9),
      competitiveScheduler(),
    );
    expect(trace.records.map((r) => r.intervals[0]!.start)).toEqual([0, 10, 30]);
  });

  it("rejects a job that no single machine can run", () => {
    const platform = createPlatform({ machines: [{ cores: 2 }, { cores: 2 }] });
    const trace = simulate(
      [
        createJob({ id: 0, submit: 0, runtime: 5, cores: 3 }),
        createJob({ id: 1, submit: 0, runtime: 5, cores: 2 }),
      ],
      platform,
      competitiveScheduler(),
    );
    expect(trace.records.map((r) => r.outcome)).toEqual(["rejected", "completed"]);
  });

  it("rejects invalid options and a bad custom job level", () => {
    expect(() => competitiveScheduler({ tiers: 0 })).toThrow(InvalidInputError);
    expect(() => competitiveScheduler({ tierSearch: "down" as never })).toThrow(
      '@sched/elo/competitiveScheduler: options.tierSearch is "down", expected one of "faster-first", "slower-first", "nearest"',
    );
    expect(() => competitiveScheduler({ overhead: Number.NaN })).toThrow("options.overhead");
    expect(() =>
      simulate(jobs([[0, 1]]), machines([9]), competitiveScheduler({ overhead: 9 })),
    ).toThrow("expected a number < maxSpeed (9)");
    expect(() =>
      simulate(jobs([[0, 1]]), machines([9]), competitiveScheduler({ jobLevel: () => 6 })),
    ).toThrow(
      "@sched/elo/competitiveScheduler: options.jobLevel returned 6 for job 0, expected an integer in [1, 5]",
    );
    // A string is quoted, so "3" does not read as the integer 3.
    expect(() =>
      simulate(
        jobs([[0, 1]]),
        machines([9]),
        competitiveScheduler({ jobLevel: (() => "3") as never }),
      ),
    ).toThrow('options.jobLevel returned "3" for job 0, expected an integer in [1, 5]');
  });
});
