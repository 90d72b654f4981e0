import { InvalidInputError } from "@sched/errors";
import { describe, expect, it } from "vitest";
import { knapsack01, mkpExact, mkpGreedy, preMatch } from "../src/index.js";
import { table1Event } from "../src/reproduction/index.js";

const mkp = { values: [10, 7, 6], weights: [[4, 3, 3]], capacities: [6] };
const k01 = { values: [3, 4], weights: [1, 2], capacity: 2 };

/** The message of the InvalidInputError `fn` throws. */
function refused(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(InvalidInputError);
    return (e as Error).message;
  }
  throw new Error("expected an InvalidInputError");
}

describe("unknown option keys are refused", () => {
  it("mkpExact, mkpGreedy and knapsack01 name the key and the one meant", () => {
    expect(refused(() => mkpExact(mkp, { nodelimit: 1 } as never))).toBe(
      "@sched/knapsack/mkpExact: options.nodelimit is not a known key (did you mean `nodeLimit`?), expected one of nodeLimit",
    );
    expect(refused(() => mkpGreedy(mkp, { reweigh: false } as never))).toContain(
      "@sched/knapsack/mkpGreedy: options.reweigh is not a known key (did you mean `reweight`?)",
    );
    expect(refused(() => knapsack01(k01, { methods: "dp" } as never))).toContain(
      "@sched/knapsack/knapsack01: options.methods is not a known key (did you mean `method`?)",
    );
  });

  it("preMatch and table1Event check their nested solver options", () => {
    const input = { jobs: [{ id: 1, licenses: { a: 1 } }], copies: { a: 1 }, costs: [1] };
    expect(refused(() => preMatch(input, { solvr: "exact" } as never))).toContain(
      "options.solvr is not a known key (did you mean `solver`?)",
    );
    expect(refused(() => preMatch(input, { exact: { limit: 3 } } as never))).toContain(
      "@sched/knapsack/preMatch: options.exact.limit is not a known key",
    );
    expect(refused(() => table1Event([mkp], { greedy: { strategie: "x" } } as never))).toContain(
      "options.greedy.strategie is not a known key (did you mean `strategy`?)",
    );
  });

  it("null options are refused by every solver, naming options", () => {
    for (const fn of [
      () => mkpExact(mkp, null as never),
      () => mkpGreedy(mkp, null as never),
      () => knapsack01(k01, null as never),
    ])
      expect(refused(fn)).toMatch(/: options is null, expected an object$/);
  });
});

describe("quoted values", () => {
  it("an unknown strategy is quoted", () => {
    expect(refused(() => mkpGreedy(mkp, { strategy: "foo" } as never))).toContain(
      'options.strategy is "foo", expected "fill" or "drop"',
    );
  });
});
