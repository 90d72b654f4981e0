import { describe, expect, it } from "vitest";
import { clusterLicenses, LicenseClusters, mkpGreedy, preMatch } from "../src/index.js";

// Defects the options fuzz suite found (options-fuzz.property.test.ts), one example each.
describe("knapsack: hostile values end in an InvalidInputError naming the place", () => {
  it("an array as the instance is named as such (was 'values is function': [].values)", () => {
    expect(() => mkpGreedy([] as never)).toThrow(
      "@sched/knapsack/mkpGreedy: instance is an array, expected { values, weights, capacities }",
    );
  });

  it('a license map given as an array is refused (a sparse [, 1] read as license "1")', () => {
    // biome-ignore lint/suspicious/noSparseArray: the hostile input
    const licenses = [, 1] as never;
    expect(() => clusterLicenses([{ id: 1, licenses }], { 1: 1 })).toThrow(
      /jobs\[0\]\.licenses is not an object, expected license name -> copies/,
    );
    expect(() => new LicenseClusters([] as never)).toThrow(/copies is not an object/);
  });

  it("a string as the jobs is refused, the empty one too (was read as no jobs)", () => {
    expect(() => clusterLicenses("" as never, { cad: 1 })).toThrow(
      /jobs is string, expected an iterable of \{ id, licenses\? \}/,
    );
  });

  it("preMatch checks its greedy and exact options whichever solver runs (a hostile greedy passed with the exact one)", () => {
    const input = { jobs: [{ id: 1, licenses: { cad: 1 } }], copies: { cad: 1 }, costs: [1] };
    expect(() =>
      preMatch(input, { solver: "exact", greedy: { strategy: "fil" as never } }),
    ).toThrow(
      '@sched/knapsack/preMatch: options.greedy.strategy is "fil", expected "fill" or "drop"',
    );
    expect(() => preMatch(input, { greedy: { rhoExponent: Number.NaN } })).toThrow(
      /options\.greedy\.rhoExponent is NaN/,
    );
    expect(() => preMatch(input, { exact: { nodeLimit: -1 } })).toThrow(
      /options\.exact\.nodeLimit is -1/,
    );
    expect(() => preMatch(input, { greedy: { costs: [1] } as never })).toThrow(
      /options\.greedy\.costs is not a known key/,
    );
    expect(preMatch(input, { solver: "exact", greedy: { strategy: "fill" } }).clear).toEqual([]);
  });
});
