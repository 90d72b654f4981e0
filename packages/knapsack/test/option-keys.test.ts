import { InvalidInputError } from "@sched/errors";
import { describe, expect, it } from "vitest";
import { knapsack01, mkpExact, mkpGreedy, preMatch } from "../src/index.js";
import { table1Event } from "../src/reproduction/index.js";

const mkp = { values: [10, 7, 6], weights: [[4, 3, 3]], capacities: [6] };
const k01 = { values: [3, 4], weights: [1, 2], capacity: 2 };

/** `fn` throws an InvalidInputError whose message contains `text`. */
function expectRefused(fn: () => unknown, text: string | RegExp): void {
  expect(fn).toThrow(InvalidInputError);
  expect(fn).toThrow(text);
}

describe("unknown option keys are refused", () => {
  it("mkpExact, mkpGreedy and knapsack01 name the key and the one meant", () => {
    expectRefused(
      () => mkpExact(mkp, { nodelimit: 1 } as never),
      "@sched/knapsack/mkpExact: options.nodelimit is not a known key (did you mean `nodeLimit`?), expected one of nodeLimit",
    );
    expectRefused(
      () => mkpGreedy(mkp, { reweigh: false } as never),
      "@sched/knapsack/mkpGreedy: options.reweigh is not a known key (did you mean `reweight`?)",
    );
    expectRefused(
      () => knapsack01(k01, { methods: "dp" } as never),
      "@sched/knapsack/knapsack01: options.methods is not a known key (did you mean `method`?)",
    );
  });

  it("preMatch and table1Event check their nested solver options", () => {
    const input = { jobs: [{ id: 1, licenses: { a: 1 } }], copies: { a: 1 }, costs: [1] };
    expectRefused(
      () => preMatch(input, { solvr: "exact" } as never),
      "options.solvr is not a known key (did you mean `solver`?)",
    );
    expectRefused(
      () => preMatch(input, { exact: { limit: 3 } } as never),
      "@sched/knapsack/preMatch: options.exact.limit is not a known key",
    );
    expectRefused(
      () => table1Event([mkp], { greedy: { strategie: "x" } } as never),
      "options.greedy.strategie is not a known key (did you mean `strategy`?)",
    );
  });

  it("null options are refused by every solver, naming options", () => {
    for (const fn of [
      () => mkpExact(mkp, null as never),
      () => mkpGreedy(mkp, null as never),
      () => knapsack01(k01, null as never),
    ])
      expectRefused(fn, /: options is null, expected an object$/);
  });
});

describe("quoted values", () => {
  it("an unknown strategy is quoted", () => {
    expectRefused(
      () => mkpGreedy(mkp, { strategy: "foo" } as never),
      'options.strategy is "foo", expected "fill" or "drop"',
    );
  });
});
