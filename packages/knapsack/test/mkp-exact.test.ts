import { InvalidInputError } from "@sched/errors";
import { describe, expect, it } from "vitest";
import { mkpExact, mkpGreedy } from "../src/index.js";
import { bruteForce, isFeasible } from "./helpers.js";

describe("mkpExact", () => {
  it("finds the optimum the greedy misses", () => {
    const inst = {
      values: [10, 7, 6],
      weights: [
        [4, 3, 3],
        [1, 2, 2],
      ],
      capacities: [6, 4],
    };
    const r = mkpExact(inst);
    // the README's example, nodes included
    expect(r).toEqual({ items: [1, 2], value: 13, optimal: true, bound: 13, nodes: 3 });
    expect(mkpGreedy(inst).value).toBe(10);
    // Before the root is solved the bound left open is the trivial one, the sum of the values
    // (10 + 7 + 6), not Infinity; the incumbent is the greedy's, improved by local search.
    expect(mkpExact(inst, { nodeLimit: 0 })).toEqual({
      items: [1, 2],
      value: 13,
      optimal: false,
      bound: 23,
      nodes: 0,
    });
  });

  it("proves the incumbent optimal at the root of the single-knapsack search when Dantzig's bound equals it", () => {
    // One binding constraint; the greedy keeps items 0 and 1 (value 5, the capacity exactly
    // filled) and Dantzig's bound is 2 + 3 + 1·0/3 = 5: optimal without a node.
    expect(mkpExact({ values: [2, 3, 1], weights: [[1, 2, 3]], capacities: [3] })).toEqual({
      items: [0, 1],
      value: 5,
      optimal: true,
      bound: 5,
      nodes: 0,
    });
  });

  it("stops at the node limit on a node to be solved again, and reports the bound of that node", () => {
    // At nodeLimit 3 the limit falls on a node to be solved again at once (its parent with new
    // fixings, not taken from the queue) while no other node is open: it goes back to the queue
    // and its bound (15) is the one left open. The optimum is 13 (items 3 and 4), proven at 6
    // nodes.
    const inst = {
      values: [3, 2, 1, 7, 6, 3],
      weights: [
        [1, 0, 0, 2, 0, 3],
        [0, 8, 6, 7, 4, 4],
        [8, 9, 0, 9, 0, 5],
      ],
      capacities: [3, 14, 15],
    };
    expect(bruteForce(inst).value).toBe(13);
    const bounds = [0, 1, 2, 3, 4, 5, 6].map((nodeLimit) => {
      const r = mkpExact(inst, { nodeLimit });
      expect(r).toMatchObject({ items: [3, 4], value: 13, optimal: nodeLimit === 6 });
      return r.bound;
    });
    expect(bounds).toEqual([22, 15, 15, 15, 14, 14, 13]);
  });

  it("finds a set whose plain sum is exactly the capacity, which a running sum in ratio order refuses", () => {
    // Row 1 drops out (item 8 is too heavy for it, the rest weigh 0.5 <= 1): one binding row.
    // Taken in ratio order, items 3, 4 and 6 leave 1.2 - 0.3 - 0.1 - 0.4 = 0.3999999999999999,
    // less than item 2's 0.4; summed in item order, as fitsAll does, items 0-4 and 6 weigh 1.2.
    const inst = {
      values: [1, 1, 1, 3, 1, 1, 3, 1, 1],
      weights: [
        [0, 0, 0.4, 0.3, 0.1, 0.4, 0.4, 0.4, 0],
        [0, 0, 0.3, 0, 0.2, 0, 0, 0, 1.1],
      ],
      capacities: [1.2, 1],
    };
    const r = mkpExact(inst);
    expect(r).toMatchObject({ items: [0, 1, 2, 3, 4, 6], value: 10, optimal: true, bound: 10 });
    expect(isFeasible(inst, r.items, 0)).toBe(true);
    expect(bruteForce(inst).value).toBe(10);
  });

  it("handles empty instances and instances without constraints", () => {
    expect(mkpExact({ values: [], weights: [[]], capacities: [5] })).toMatchObject({
      items: [],
      value: 0,
      optimal: true,
    });
    expect(mkpExact({ values: [3, -1, 0, 2], weights: [], capacities: [] })).toMatchObject({
      items: [0, 3],
      value: 5,
      optimal: true,
    });
  });

  it("drops a constraint the items meet together exactly, and then needs no search", () => {
    // Totals equal to the capacities: no binding constraint, so every item is taken at once.
    const inst = {
      values: [4, 3, 2],
      weights: [
        [2, 2, 1],
        [0, 3, 3],
      ],
      capacities: [5, 6],
    };
    expect(mkpExact(inst)).toEqual({
      items: [0, 1, 2],
      value: 9,
      optimal: true,
      bound: 9,
      nodes: 0,
    });
    // One unit less on the second: one binding constraint, the single-knapsack search runs.
    expect(mkpExact({ ...inst, capacities: [5, 5] })).toMatchObject({ value: 7, optimal: true });
  });

  it("never chooses items with a value <= 0 or heavier than a capacity", () => {
    const r = mkpExact({ values: [0, -4, 5, 9], weights: [[0, 0, 1, 3]], capacities: [2] });
    expect(r).toMatchObject({ items: [2], value: 5, optimal: true });
    expect(mkpExact({ values: [1, 2], weights: [[1, 1]], capacities: [0] }).items).toEqual([]);
  });

  it("accepts typed arrays", () => {
    const r = mkpExact({
      values: Float64Array.of(4, 5, 6),
      weights: [Int32Array.of(2, 3, 4)],
      capacities: Float64Array.of(5),
    });
    expect(r).toMatchObject({ items: [0, 1], value: 9, optimal: true });
  });

  it("stops at the node limit with the best solution found, not proven optimal, and a valid bound", () => {
    // 20 items, 3 tight constraints: the root does not close the gap.
    const n = 20;
    const values = Array.from({ length: n }, (_, i) => 20 + ((i * 37) % 23));
    const weights = [0, 1, 2].map((k) =>
      Array.from({ length: n }, (_, i) => 5 + ((i * (7 + 4 * k) + k) % 11)),
    );
    const inst = { values, weights, capacities: [40, 45, 50] };
    const full = mkpExact(inst);
    expect(full.optimal).toBe(true);
    expect(full.value).toBe(bruteForce(inst).value);
    for (const nodeLimit of [0, 1, 2]) {
      const limited = mkpExact(inst, { nodeLimit });
      expect(limited.optimal).toBe(false);
      expect(limited.nodes).toBeLessThanOrEqual(nodeLimit);
      expect(isFeasible(inst, limited.items)).toBe(true);
      expect(limited.value).toBeLessThanOrEqual(full.value);
      expect(limited.value).toBeGreaterThanOrEqual(mkpGreedy(inst).value);
      expect(limited.bound).toBeGreaterThanOrEqual(full.value);
    }
  });

  it("names the offending field in its errors", () => {
    const ok = { values: [1, 2], weights: [[1, 1]], capacities: [1] };
    const cases: [unknown, string][] = [
      [{ ...ok, values: [1, Number.NaN] }, "values[1]"],
      [{ ...ok, capacities: [-1] }, "capacities[0]"],
      [{ ...ok, capacities: [1, 2] }, "capacities"],
      [{ ...ok, weights: [[1]] }, "weights[0]"],
      [{ ...ok, weights: [[1, 1, 1]] }, "weights[0]"], // longer than values, too
      [{ ...ok, weights: [[1, 1], [1]], capacities: [1, 1] }, "weights[1]"],
      [{ ...ok, weights: [[1, -2]] }, "weights[0][1]"],
      [{ ...ok, weights: [[1, Number.POSITIVE_INFINITY]] }, "weights[0][1]"],
      [{ ...ok, values: "12" }, "values"],
      [null, "instance"],
    ];
    for (const [inst, field] of cases) {
      expect(() => mkpExact(inst as never)).toThrow(InvalidInputError);
      try {
        mkpExact(inst as never);
      } catch (e) {
        expect((e as InvalidInputError).field).toBe(field);
        expect((e as Error).message).toMatch(/^@sched\/knapsack\/mkpExact: /);
      }
    }
    expect(() => mkpExact(ok, { nodeLimit: Number.NaN })).toThrow(/options\.nodeLimit/);
    expect(() => mkpExact(ok, { nodeLimit: -1 })).toThrow(/options\.nodeLimit/);
  });
});
