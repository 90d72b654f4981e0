import { InvalidInputError } from "@sched/core";
import { describe, expect, it } from "vitest";
import { tierOf, tierRange } from "../src/tiers.js";

describe("tierOf (5 tiers of 500 by default)", () => {
  it("puts each 500-wide range in its tier, tier 1 the highest ratings", () => {
    expect(tierOf(1)).toBe(5);
    expect(tierOf(499.99)).toBe(5);
    expect(tierOf(500)).toBe(4);
    expect(tierOf(999)).toBe(4);
    expect(tierOf(1000)).toBe(3);
    expect(tierOf(1250)).toBe(3);
    expect(tierOf(1500)).toBe(2);
    expect(tierOf(2000)).toBe(1);
  });

  it("keeps ratings above the top range in tier 1", () => {
    expect(tierOf(2500)).toBe(1);
    expect(tierOf(1e9)).toBe(1);
  });

  it("follows the tiers and tierWidth options", () => {
    expect(tierOf(250, { tiers: 3, tierWidth: 100 })).toBe(1);
    expect(tierOf(150, { tiers: 3, tierWidth: 100 })).toBe(2);
    expect(tierOf(50, { tiers: 3, tierWidth: 100 })).toBe(3);
    expect(tierOf(5, { tiers: 1 })).toBe(1);
  });

  it("rejects a rating <= 0 and bad options", () => {
    expect(() => tierOf(0)).toThrow(InvalidInputError);
    expect(() => tierOf(10, { tiers: 0 })).toThrow("options.tiers");
    expect(() => tierOf(10, { tierWidth: 0 })).toThrow("options.tierWidth");
  });
});

describe("tierRange", () => {
  it("gives each tier's half-open rating range", () => {
    expect(tierRange(5)).toEqual({ low: 0, high: 500 });
    expect(tierRange(3)).toEqual({ low: 1000, high: 1500 });
    expect(tierRange(1)).toEqual({ low: 2000, high: Number.POSITIVE_INFINITY });
  });

  it("rejects a tier outside [1, tiers]", () => {
    expect(() => tierRange(6)).toThrow(
      "@sched/elo/tierRange: tier is 6, expected an integer in [1, 5]",
    );
    expect(() => tierRange(0)).toThrow(InvalidInputError);
  });
});
