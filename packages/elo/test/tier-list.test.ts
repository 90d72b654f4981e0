import { InvalidInputError } from "@sched/core";
import { describe, expect, it } from "vitest";
import { TierList } from "../src/tier-list.js";

describe("TierList", () => {
  it("starts every machine at the base rating (default 1250, tier 3)", () => {
    const list = new TierList(3);
    expect([0, 1, 2].map((m) => list.rating(m))).toEqual([1250, 1250, 1250]);
    expect(list.members(3)).toEqual([0, 1, 2]);
    expect(list.members(1)).toEqual([]);
  });

  it("records a job with the hand-computed update and reports it", () => {
    const list = new TierList(2);
    const update = list.record(1, 3, true); // tier 3, level 3: S_e = 3/5, +20 * 0.4
    expect(update).toEqual({
      machine: 1,
      jobLevel: 3,
      tierBefore: 3,
      tierAfter: 3,
      expected: 0.6,
      won: true,
      ratingBefore: 1250,
      ratingAfter: 1258,
    });
    expect(list.members(3)).toEqual([1, 0]); // rating descending
    const loss = list.record(0, 1, false); // tier 3, level 1: S_e = 5/7
    expect(loss.ratingAfter).toBeCloseTo(1250 - (20 * 5) / 7, 12);
  });

  it("moves a machine down one tier when its rating falls below its tier's range", () => {
    const list = new TierList(1, { baseRating: 1005 });
    const u = list.record(0, 3, false); // 1005 - 12 = 993
    expect(u.ratingAfter).toBe(993);
    expect(u.tierBefore).toBe(3);
    expect(u.tierAfter).toBe(4);
    expect(list.members(4)).toEqual([0]);
    expect(list.members(3)).toEqual([]);
  });

  it("moves a machine up when its rating rises above its tier's range", () => {
    const list = new TierList(1, { baseRating: 1495 });
    expect(list.record(0, 3, true).tierAfter).toBe(2); // 1503
  });

  it("keeps a machine above the top range in tier 1", () => {
    const list = new TierList(1, { baseRating: 2490 });
    for (let i = 0; i < 10; i++) list.record(0, 5, true);
    expect(list.rating(0)).toBeGreaterThan(2500);
    expect(list.tier(0)).toBe(1);
  });

  it("lets a machine leave tier 1 unless stickyTopTier is set", () => {
    const free = new TierList(1, { baseRating: 2005 });
    const sticky = new TierList(1, { baseRating: 2005, stickyTopTier: true });
    expect(free.record(0, 1, false).tierAfter).toBe(2); // 2005 - 12 = 1993
    expect(sticky.record(0, 1, false).tierAfter).toBe(1);
    expect(sticky.rating(0)).toBe(1993);
  });

  it("uses S_e from the tier the machine was in when it ran the job", () => {
    const list = new TierList(1, { baseRating: 1505 }); // tier 2
    const u = list.record(0, 4, false); // level 4 > tier 2: negative, gap 2: S_e = 2/7
    expect(u.expected).toBeCloseTo(2 / 7, 15);
    expect(u.ratingAfter).toBeCloseTo(1505 - 40 / 7, 12); // 1499.29: tier 3
    expect(u.tierAfter).toBe(3);
  });

  it("never lets a rating reach 0", () => {
    const list = new TierList(1, { baseRating: 10 });
    for (let i = 0; i < 5; i++) list.record(0, 5, false);
    expect(list.rating(0)).toBe(1);
    expect(list.tier(0)).toBe(5);
  });

  it("returns snapshots that are copies", () => {
    const list = new TierList(2);
    const snap = list.snapshot();
    list.record(0, 1, true);
    expect(Array.from(snap.ratings)).toEqual([1250, 1250]);
    expect(Array.from(snap.tiers)).toEqual([3, 3]);
  });

  it("validates machines, options and levels", () => {
    expect(() => new TierList(-1)).toThrow(InvalidInputError);
    expect(() => new TierList(1, { baseRating: 0 })).toThrow("options.baseRating");
    expect(() => new TierList(1, { baseRating: 0.5 })).toThrow("options.baseRating");
    expect(() => new TierList(1).record(1, 1, true)).toThrow("machine is 1");
    expect(() => new TierList(1).record(0, 0, true)).toThrow("jobLevel is 0");
  });

  it("refuses a non-boolean outcome and an unknown tier instead of coercing them", () => {
    // record(0, 3, "yes") counted a win and echoed won: "yes"; members(0) listed nobody.
    expect(() => new TierList(1).record(0, 3, "yes" as never)).toThrow(
      '@sched/elo/TierList.record: won is "yes", expected true or false',
    );
    expect(() => new TierList(2).members(0)).toThrow(
      "@sched/elo/TierList.members: tier is 0, expected an integer in [1, 5]",
    );
    expect(() => new TierList(2).members(6)).toThrow(InvalidInputError);
    // a level beyond the last tier was rated with |tier - level| of a tier that does not exist
    expect(() => new TierList(1).record(0, 6, true)).toThrow(
      "@sched/elo/TierList.record: jobLevel is 6, expected an integer in [1, 5]",
    );
    expect(new TierList(2).members(3)).toEqual([0, 1]);
    expect(() => new TierList(1, null as never)).toThrow(
      "@sched/elo/TierList: options is null, expected an object",
    );
  });
});
