import { InvalidInputError } from "@sched/errors";
import { describe, expect, it } from "vitest";
import { indexHash } from "../src/index.js";

describe("indexHash", () => {
  it("gives fixed 32-bit values (the knapsack dual simplex's perturbation depends on them)", () => {
    expect([0, 1, 2, 1000].map(indexHash)).toEqual([
      4068589060, 4291420325, 3474005262, 3930752810,
    ]);
  });

  it("refuses what is not a safe integer >= 0", () => {
    for (const bad of [-1, 1.5, Number.NaN, 2 ** 53, "3" as unknown as number]) {
      expect(() => indexHash(bad)).toThrow(InvalidInputError);
    }
    expect(() => indexHash(-1)).toThrow(
      "@sched/random/indexHash: index is -1, expected a safe integer >= 0",
    );
  });
});
