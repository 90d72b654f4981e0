import { describe, expect, it } from "vitest";
import { AvailabilityProfile } from "../src/availability-profile.js";

describe("AvailabilityProfile", () => {
  it("fromReleases builds the step function of free cores from estimated ends", () => {
    // 10 cores, 4 free now (t = 100); jobs of 2, 3, 1 cores end at 150, 120, 150.
    const p = AvailabilityProfile.fromReleases(100, 4, [
      { time: 150, amount: 2 },
      { time: 120, amount: 3 },
      { time: 150, amount: 1 },
    ]);
    expect(p.toArray()).toEqual([
      [100, 4],
      [120, 7],
      [150, 10],
    ]);
    expect(p.valueAt(99)).toBe(4);
    expect(p.valueAt(119.5)).toBe(4);
    expect(p.valueAt(120)).toBe(7);
    expect(p.valueAt(1e9)).toBe(10);
  });

  it("fromReleases moves releases before the origin to the origin (overrunning jobs)", () => {
    const p = AvailabilityProfile.fromReleases(100, 1, [
      { time: 90, amount: 2 },
      { time: 130, amount: 1 },
    ]);
    expect(p.toArray()).toEqual([
      [100, 3],
      [130, 4],
    ]);
  });

  it("earliestStart finds the first window that holds the amount for the whole duration", () => {
    const p = AvailabilityProfile.fromReleases(0, 2, [
      { time: 10, amount: 3 },
      { time: 20, amount: 5 },
    ]);
    // free: [0,10) 2, [10,20) 5, [20,inf) 10
    expect(p.earliestStart(2, 100, 0)).toBe(0);
    expect(p.earliestStart(3, 5, 0)).toBe(10);
    expect(p.earliestStart(5, 100, 0)).toBe(10);
    expect(p.earliestStart(6, 1, 0)).toBe(20);
    expect(p.earliestStart(11, 1, 0)).toBe(Number.POSITIVE_INFINITY);
    expect(p.earliestStart(3, 5, 12)).toBe(12);
    // A hole: reserve 4 of [12, 30); a 4-core job of 5 s no longer fits at 10.
    p.add(12, 30, -4);
    // free: [0,10) 2, [10,12) 5, [12,20) 1, [20,30) 6, [30,inf) 10
    expect(p.earliestStart(4, 2, 0)).toBe(10);
    expect(p.earliestStart(4, 3, 0)).toBe(20);
    expect(p.earliestStart(7, 1, 0)).toBe(30);
  });

  it("add splits and merges segments", () => {
    const p = new AvailabilityProfile(0, 10);
    p.add(5, 15, -4);
    expect(p.toArray()).toEqual([
      [0, 10],
      [5, 6],
      [15, 10],
    ]);
    p.add(15, 20, -4);
    expect(p.toArray()).toEqual([
      [0, 10],
      [5, 6],
      [20, 10],
    ]);
    p.add(5, 20, 4);
    expect(p.toArray()).toEqual([[0, 10]]);
    p.add(-5, 3, -1);
    expect(p.toArray()).toEqual([
      [0, 9],
      [3, 10],
    ]);
    p.add(3, Number.POSITIVE_INFINITY, -1);
    expect(p.toArray()).toEqual([[0, 9]]);
  });

  it("minOver and fits look at every segment the window touches", () => {
    const p = AvailabilityProfile.fromReleases(0, 3, [
      { time: 10, amount: -2 },
      { time: 20, amount: 5 },
    ]);
    // free: [0,10) 3, [10,20) 1, [20,inf) 6
    expect(p.minOver(0, 10)).toBe(3);
    expect(p.minOver(0, 10.5)).toBe(1);
    expect(p.minOver(15, 25)).toBe(1);
    expect(p.minOver(20, 1e9)).toBe(6);
    expect(p.fits(0, 10, 3)).toBe(true);
    expect(p.fits(0, 11, 3)).toBe(false);
    expect(p.fits(12, 12, 1)).toBe(true);
  });

  it("trimBefore drops the past and keeps the present amount", () => {
    const p = AvailabilityProfile.fromReleases(0, 1, [
      { time: 10, amount: 1 },
      { time: 20, amount: 1 },
    ]);
    p.trimBefore(15);
    expect(p.toArray()).toEqual([
      [15, 2],
      [20, 3],
    ]);
    p.trimBefore(20);
    expect(p.toArray()).toEqual([[20, 3]]);
  });

  it("grows past its initial capacity", () => {
    const p = new AvailabilityProfile(0, 1000);
    for (let i = 0; i < 200; i++) p.add(i * 10, i * 10 + 5, -(i % 7) - 1);
    expect(p.valueAt(2 * 10 + 1)).toBe(1000 - (2 % 7) - 1);
    expect(p.valueAt(199 * 10 + 4)).toBe(1000 - (199 % 7) - 1);
    expect(p.valueAt(199 * 10 + 6)).toBe(1000);
    const q = p.clone();
    q.add(0, 1, -1);
    expect(p.valueAt(0)).toBe(999);
    expect(q.valueAt(0)).toBe(998);
  });

  it("load resets a profile in place from unsorted changes, negative ones included", () => {
    const p = new AvailabilityProfile(0, 1);
    p.add(0, 100, -1);
    // 3 free at 50; a reservation takes 2 over [60, 70); a running job frees 1 at 80.
    p.load(50, 3, [80, 70, 60], [1, 2, -2], 3);
    expect(p.toArray()).toEqual([
      [50, 3],
      [60, 1],
      [70, 3],
      [80, 4],
    ]);
    // count limits what is read; equal neighbours are merged
    p.load(0, 2, [5, 5, 9], [1, -1, 4], 2);
    expect(p.toArray()).toEqual([[0, 2]]);
  });

  it("earliestStartBefore reads no segment past the last, after the profile grew and shrank", () => {
    const p = new AvailabilityProfile(0, 4);
    p.add(10, 20, -2);
    p.add(30, 40, 3);
    expect(p.earliestStartBefore(5, 1, 0, 100, Number.POSITIVE_INFINITY, 0)).toBe(30);
    // Merged back: the segments that held 7 free are gone, and no scan may find them.
    p.add(30, 40, -3);
    expect(p.toArray()).toEqual([
      [0, 4],
      [10, 2],
      [20, 4],
    ]);
    expect(p.earliestStartBefore(5, 1, 0, 100, Number.POSITIVE_INFINITY, 0)).toBe(
      Number.POSITIVE_INFINITY,
    );
    // The last segment lasts for ever: any window from it fits.
    expect(p.earliestStartBefore(4, 1e9, 5, 100, Number.POSITIVE_INFINITY, 0)).toBe(20);
    expect(p.earliestStartBefore(4, Number.POSITIVE_INFINITY, 21, 100, 200, 4)).toBe(21);
    p.trimBefore(15);
    expect(p.toArray()).toEqual([
      [15, 2],
      [20, 4],
    ]);
    expect(p.earliestStartBefore(3, 5, 0, 25, 25, 3)).toBe(20);
    expect(p.earliestStartBefore(3, 5, 0, 20, 25, 3)).toBe(Number.POSITIVE_INFINITY);
    const c = p.clone();
    expect(c.earliestStartBefore(5, 1, 0, 100, Number.POSITIVE_INFINITY, 0)).toBe(
      Number.POSITIVE_INFINITY,
    );
  });

  it("rejects bad input with the function's name", () => {
    expect(() => new AvailabilityProfile(Number.NaN, 1)).toThrow(
      /@sched\/backfill\/AvailabilityProfile: origin is NaN/,
    );
    const p = new AvailabilityProfile(0, 1);
    expect(() => p.add(5, 5, 1)).toThrow(
      /@sched\/backfill\/AvailabilityProfile\.add: end is 5, expected a time > start \(5\)/,
    );
  });
});
