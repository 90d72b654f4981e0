import { createJob, createPlatform, simulate } from "@sched/core";
import { describe, expect, it } from "vitest";
import {
  competitivePass,
  competitiveScheduler,
  expectedTime,
  isWin,
  minMin,
  minMinScheduler,
  TierList,
  tierPreference,
  updateRating,
} from "../src/index.js";

// Defects the options fuzz suite found (options-fuzz.property.test.ts), one example each.
describe("elo: hostile values end in an InvalidInputError naming the place", () => {
  it("updateRating's won is a boolean (a truthy 1 counted as a win)", () => {
    expect(() => updateRating(1250, 1 as never, 0.6)).toThrow(
      "@sched/elo/updateRating: won is 1, expected true or false",
    );
  });

  it("stickyTopTier is a boolean (was read for its truthiness)", () => {
    expect(() => competitiveScheduler({ stickyTopTier: "no" as never })).toThrow(
      /options\.stickyTopTier is "no", expected true or false/,
    );
  });

  it("mct/minMin/maxMin check etc and ready entries' types (strings were compared as numbers)", () => {
    expect(() => minMin({ tasks: 1, machines: 1, etc: ["5"] as never })).toThrow(
      '@sched/elo/minMin: problem.etc[0] is "5", expected a number >= 0 or Infinity',
    );
    expect(() => minMin({ tasks: 1, machines: 1, etc: [1], ready: null as never })).toThrow(
      /problem\.ready is null, expected an array/,
    );
    expect(() => minMin({ tasks: 1, machines: 1, etc: [1], ready: [Symbol()] as never })).toThrow(
      /problem\.ready\[0\] is symbol/,
    );
  });

  it("isWin(null) names the outcome (was a raw TypeError reading size)", () => {
    expect(() => isWin(null as never, { maxSpeed: 9 })).toThrow(
      "@sched/elo/isWin: outcome is null, expected an object",
    );
  });

  it("a bad told speed is refused when the run starts, named (was a TypeError wrapped by reset)", () => {
    const platform = createPlatform({ machines: [{ speed: 1 }] });
    const jobs = [createJob({ id: 1, submit: 0, runtime: 1, cores: 1 })];
    expect(() => simulate(jobs, platform, minMinScheduler({ speeds: 5 as never }))).toThrow(
      /options\.speeds is 5, expected an array of speeds/,
    );
  });

  it("a hole in state.free is a bad machine, not a skip", () => {
    const platform = createPlatform({ machines: [{ speed: 1 }, { speed: 2 }] });
    // biome-ignore lint/suspicious/noSparseArray: the hostile input
    const free = [, 1] as number[];
    expect(() => competitivePass({ now: 0, platform, completed: [], queue: [], free })).toThrow(
      /state\.free\[0\] is undefined/,
    );
  });

  it("an empty tier list says it has no machines (said 'expected an integer in [0, -1]')", () => {
    expect(() => new TierList(0).rating(0)).toThrow(
      "machine is 0, but the tier list has no machines",
    );
  });
});

describe("tierPreference checks level and tiers", () => {
  it("level -Infinity is refused (its loop never ended) and so is a level above tiers", () => {
    expect(() => tierPreference(Number.NEGATIVE_INFINITY, 4)).toThrow(
      "@sched/elo/tierPreference: level is -Infinity, expected an integer >= 1",
    );
    expect(() => tierPreference(2, 1e308)).toThrow(/tiers is 1e\+308/);
    expect(() => tierPreference(5, 4)).toThrow(/level is 5, expected an integer in \[1, 4\]/);
    expect(tierPreference(3, 5)).toEqual([3, 2, 1, 4, 5]);
  });

  it("expectedTime refuses a bigint machine (read as machine 1) and names a symbol speed", () => {
    const platform = createPlatform({ machines: [{ speed: 1 }, { speed: 2 }] });
    const job = createJob({ id: 1, submit: 0, runtime: 10, cores: 1 });
    expect(() => expectedTime(job, 1n as never, platform)).toThrow(/machine is bigint/);
    expect(() => expectedTime(job, 1, platform, Symbol() as never)).toThrow(/speed is symbol/);
    expect(expectedTime(job, 1, platform)).toBe(5);
  });
});
