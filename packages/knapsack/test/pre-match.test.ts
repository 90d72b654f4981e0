import { InvalidInputError } from "@sched/errors";
import { describe, expect, it } from "vitest";
import { jobCosts, preMatch } from "../src/index.js";

describe("jobCosts", () => {
  it("is the mean of each row's positive entries, 0 for a row without any", () => {
    expect(
      Array.from(
        jobCosts([
          [0, 4, 2],
          [0, 0, 0],
          [-1, 3, 1],
        ]),
      ),
    ).toEqual([3, 0, 2]);
  });

  it("sums each row's positive entries in machine order (the bytes of c_i depend on it)", () => {
    // (0.1 + 0.2) + 0.3 = 0.6000000000000001, while (0.3 + 0.2) + 0.1 = 0.6.
    const [forward, backward] = jobCosts([
      [0.1, 0, 0.2, 0.3],
      [0.3, 0.2, 0, 0.1],
    ]);
    expect(forward).toBe(0.6000000000000001 / 3);
    expect(backward).toBe(0.6 / 3);
  });

  it("rejects NaN and infinite entries, naming them", () => {
    expect(() => jobCosts([[1, Number.NaN]])).toThrow(
      "@sched/knapsack/jobCosts: matrix[0][1] is NaN, expected a finite number",
    );
    // an infinite priority would make the mean infinite (or NaN with -Infinity and Infinity)
    expect(() => jobCosts([[1], [Number.POSITIVE_INFINITY, 2]])).toThrow(
      "@sched/knapsack/jobCosts: matrix[1][0] is Infinity, expected a finite number",
    );
  });
});

describe("preMatch", () => {
  it("clears the cheaper of two jobs fighting for one copy and never touches the others", () => {
    const r = preMatch({
      jobs: [{ id: 1, licenses: { cad: 1 } }, { id: 2, licenses: { cad: 1 } }, { id: 3 }],
      copies: { cad: 1 },
      costs: [2, 5, 1],
    });
    expect(r.clear).toEqual([1]);
    expect(r.critical).toEqual(["cad"]);
    expect(r.clusters).toEqual([
      {
        jobs: [1, 2],
        licenses: ["cad"],
        instance: { values: [2, 5], weights: [[1, 1]], capacities: [1] },
        keep: [2],
        optimal: false,
      },
    ]);
  });

  it("takes the costs from the Job-Machine matrix rows", () => {
    const jobs = [
      { id: 7, licenses: { a: 1, b: 1 } },
      { id: 8, licenses: { a: 1 } },
      { id: 9, licenses: { b: 1 } },
    ];
    // Costs 4, 3, 3: the greedy and the exact solver both keep 8 and 9 (value 6 > 4).
    const matrix = [
      [4, 0, 4],
      [3, 3, 0],
      [0, 1, 5],
    ];
    expect(preMatch({ jobs, copies: { a: 1, b: 1 }, matrix }).clear).toEqual([7]);
    const exact = preMatch({ jobs, copies: { a: 1, b: 1 }, matrix }, { solver: "exact" });
    expect(exact.clear).toEqual([7]);
    expect(exact.clusters[0]?.optimal).toBe(true);
  });

  it("clears a job whose row has no positive entry when its license is contested", () => {
    const r = preMatch({
      jobs: [
        { id: 1, licenses: { a: 1 } },
        { id: 2, licenses: { a: 1 } },
      ],
      copies: { a: 1 },
      matrix: [
        [0, 0],
        [0, 1],
      ],
    });
    expect(r.clear).toEqual([1]);
  });

  it("gives a critical license missing from copies 0 copies, with either solver", () => {
    // "x" is offered nowhere: rho = Infinity, critical, capacity 0, so the jobs asking for it
    // are cleared whatever their cost; job 3 keeps the one copy of "a".
    const jobs = [
      { id: 1, licenses: { x: 1 } },
      { id: 2, licenses: { x: 1, a: 1 } },
      { id: 3, licenses: { a: 1 } },
    ];
    for (const solver of ["greedy", "exact"] as const) {
      const r = preMatch({ jobs, copies: { a: 1 }, costs: [5, 4, 1] }, { solver });
      expect(r.critical).toEqual(["a", "x"]);
      expect(r.clusters.map((c) => c.instance.capacities)).toEqual([[1, 0]]);
      expect(r.clear).toEqual([1, 2]);
    }
  });

  it("rejects inconsistent input, naming the field", () => {
    const jobs = [{ id: 1, licenses: { a: 1 } }];
    expect(() => preMatch({ jobs, copies: { a: 1 } })).toThrow(InvalidInputError);
    expect(() => preMatch({ jobs, copies: { a: 1 }, costs: [1], matrix: [[1]] })).toThrow(
      /give exactly one/,
    );
    expect(() => preMatch({ jobs, copies: { a: 1 }, costs: [1, 2] })).toThrow(
      /costs has length 2, expected 1/,
    );
    expect(() => preMatch({ jobs, copies: { a: 1 }, matrix: [] })).toThrow(
      /matrix has 0 rows, expected 1/,
    );
    expect(() => preMatch({ jobs, copies: { a: 1 }, costs: [Number.NaN] })).toThrow(
      "@sched/knapsack/preMatch: costs[0] is NaN",
    );
    expect(() =>
      preMatch({ jobs, copies: { a: 1 }, costs: [1] }, { solver: "lp" as never }),
    ).toThrow(/options\.solver/);
    expect(() => preMatch({ jobs: [...jobs, ...jobs], copies: { a: 1 }, costs: [1, 1] })).toThrow(
      "@sched/knapsack/preMatch: jobs[1].id is 1, which is already tracked",
    );
  });
});
