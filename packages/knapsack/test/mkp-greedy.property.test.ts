import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { mkpGreedy } from "../src/index.js";
import { clone, decimalMkp, isFeasible, mkpInstance, totalValue } from "./helpers.js";

const variants = fc.record({
  strategy: fc.constantFrom("fill" as const, "drop" as const),
  reweight: fc.boolean(),
  rhoExponent: fc.constantFrom(0, 1, 2),
});

/** Decimal weights on a 0.1 grid with capacities on it too, and costs that may be <= 0. */
const decimal = decimalMkp({
  items: [2, 10],
  rows: [1, 3],
  maxValue: 5,
  weights: [0, 0, 0.1, 0.15, 0.2, 0.25, 0.3, 0.4, 0.7, 1.1],
  capacity: { share: [4, 9] },
}).map(({ costs, ...inst }) => ({ inst, costs }));

describe("mkpGreedy properties", () => {
  it("returns a feasible, maximal choice (no skipped positive item still fits) in every variant", () => {
    fc.assert(
      fc.property(
        fc.oneof(mkpInstance(20, 4, "integer"), mkpInstance(20, 4, "real")),
        variants,
        (inst, options) => {
          const r = mkpGreedy(inst, options);
          expect(isFeasible(inst, r.items)).toBe(true);
          expect(r.value).toBe(totalValue(inst, r.items));
          expect(r.optimal).toBe(false);
          const chosen = new Set(r.items);
          for (let i = 0; i < inst.values.length; i++) {
            if (chosen.has(i) || (inst.values[i] as number) <= 0) continue;
            expect(
              isFeasible(
                inst,
                [...r.items, i].sort((a, b) => a - b),
                -1e-9,
              ),
            ).toBe(false);
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it("on decimal weights, fits by plain sums in item order exactly and is maximal by them", () => {
    // 0.4 + 0.4 + 0.3 + 0.1 > 1.2 but 0.1 + 0.4 + 0.4 + 0.3 = 1.2: a running sum in the order
    // items are taken may accept a set whose plain sum is over a capacity, or refuse one whose
    // plain sum fills it exactly. The rule is the plain sum (no slack), both ways.
    fc.assert(
      fc.property(decimal, variants, ({ inst }, options) => {
        const r = mkpGreedy(inst, options);
        expect(isFeasible(inst, r.items, 0)).toBe(true);
        const chosen = new Set(r.items);
        for (let i = 0; i < inst.values.length; i++) {
          if (chosen.has(i)) continue;
          const more = [...r.items, i].sort((a, b) => a - b);
          expect(isFeasible(inst, more, 0)).toBe(false);
        }
      }),
      { numRuns: 500 },
    );
  });

  it("takes every positive item when they all fit together", () => {
    fc.assert(
      fc.property(mkpInstance(15, 3), variants, (inst, options) => {
        const roomy = {
          ...inst,
          capacities: inst.weights.map((row) => row.reduce((a, b) => a + b, 0)),
        };
        const expected = inst.values.flatMap((v, i) => (v > 0 ? [i] : []));
        expect(mkpGreedy(roomy, options).items).toEqual(expected);
      }),
      { numRuns: 100 },
    );
  });

  it("is deterministic and does not mutate its input", () => {
    fc.assert(
      fc.property(mkpInstance(15, 4), variants, (inst, options) => {
        const before = clone(inst);
        const a = mkpGreedy(inst, options);
        expect(inst).toEqual(before);
        expect(mkpGreedy(inst, options)).toEqual(a);
      }),
      { numRuns: 100 },
    );
  });
});

/**
 * The drop strategy as first written (a linear scan per pick): the reference the heap-based
 * implementation must reproduce item for item.
 */
function referenceDrop(
  inst: {
    values: ArrayLike<number>;
    weights: ArrayLike<ArrayLike<number>>;
    capacities: ArrayLike<number>;
  },
  reweight: boolean,
  costs?: ArrayLike<number>,
): number[] {
  const n = inst.values.length;
  const m = inst.capacities.length;
  const w = (k: number, i: number) => inst.weights[k]?.[i] as number;
  const c = (k: number) => inst.capacities[k] as number;
  const value = (i: number) => (costs ?? inst.values)[i] as number;
  const status = new Array<number>(n).fill(0); // 0 undecided, 1 taken, 2 discarded
  const demand = new Array<number>(m).fill(0);
  const critical = new Array<boolean>(m).fill(false);
  const onCritical = new Array<number>(n).fill(0);
  const a = new Array<number>(n).fill(0);
  const ratio = new Array<number>(n).fill(0);
  for (let i = 0; i < n; i++) {
    let ok = (inst.values[i] as number) > 0;
    for (let k = 0; k < m; k++) if (w(k, i) > c(k)) ok = false;
    if (!ok) status[i] = 2;
  }
  let criticalCount = 0;
  for (let k = 0; k < m; k++) {
    for (let i = 0; i < n; i++) if (status[i] !== 2) demand[k]! += w(k, i);
    if ((demand[k] as number) > c(k)) {
      critical[k] = true;
      criticalCount++;
      for (let i = 0; i < n; i++) if (w(k, i) > 0) onCritical[i]!++;
    }
  }
  const setRatio = (i: number) => {
    ratio[i] = (a[i] as number) <= 0 ? Number.POSITIVE_INFINITY : value(i) / (a[i] as number);
  };
  for (let i = 0; i < n; i++) {
    if (status[i] !== 0) continue;
    let s = 0;
    for (let k = 0; k < m; k++) if (critical[k] && w(k, i) !== 0) s += w(k, i) / c(k);
    a[i] = s;
    setRatio(i);
  }
  // A fit: each load of the taken items and i, summed in item order, within its capacity.
  const fits = (i: number) => {
    for (let k = 0; k < m; k++) {
      let load = 0;
      for (let j = 0; j < n; j++) if (j === i || status[j] === 1) load += w(k, j);
      if (load > c(k)) return false;
    }
    return true;
  };
  const take = (i: number) => {
    status[i] = 1;
  };
  const pick = (best: boolean) => {
    let found = -1;
    for (let i = 0; i < n; i++) {
      if (status[i] !== 0) continue;
      if (best) {
        if (found < 0 || (ratio[i] as number) > (ratio[found] as number)) found = i;
      } else if (
        (onCritical[i] as number) > 0 &&
        (found < 0 || (ratio[i] as number) <= (ratio[found] as number))
      ) {
        found = i;
      }
    }
    return found;
  };
  const dropped: number[] = [];
  while (criticalCount > 0) {
    const i = pick(false);
    if (i < 0) break;
    dropped.push(i);
    status[i] = 2;
    for (let k = 0; k < m; k++) {
      if (w(k, i) === 0) continue;
      demand[k]! -= w(k, i);
      if (!critical[k] || (demand[k] as number) > c(k)) continue;
      critical[k] = false;
      criticalCount--;
      for (let j = 0; j < n; j++) {
        if (w(k, j) === 0) continue;
        onCritical[j]!--;
        if (reweight && status[j] === 0) {
          a[j] = onCritical[j] === 0 ? 0 : (a[j] as number) - w(k, j) / c(k);
          setRatio(j);
        }
      }
    }
  }
  for (let i = pick(true); i >= 0; i = pick(true)) {
    if (fits(i)) take(i);
    else status[i] = 2;
  }
  for (let p = dropped.length - 1; p >= 0; p--)
    if (fits(dropped[p] as number)) take(dropped[p] as number);
  const items: number[] = [];
  for (let i = 0; i < n; i++) if (status[i] === 1) items.push(i);
  return items;
}

describe("mkpGreedy drop strategy (heap)", () => {
  it("picks exactly what the linear-scan reference picks (ties included)", () => {
    fc.assert(
      fc.property(
        fc.oneof(mkpInstance(30, 4, "integer"), mkpInstance(30, 4, "real")),
        fc.boolean(),
        fc.boolean(),
        (inst, reweight, withCosts) => {
          const costs = withCosts
            ? Array.from(inst.values, (v, i) => ((i * 7) % 5) + (v as number) / 2)
            : undefined;
          const r = mkpGreedy(inst, { reweight, ...(costs === undefined ? {} : { costs }) });
          expect(r.items).toEqual(referenceDrop(inst, reweight, costs));
        },
      ),
      { numRuns: 400 },
    );
  });

  it("picks what the reference picks on decimal weights and costs <= 0 (fits by plain sums in item order)", () => {
    // 0.1 + 0.2 + 0.3 > 0.6 but 0.3 + 0.2 + 0.1 = 0.6: a fit is decided by the plain sum in
    // item order, not by the running sum in the order items were taken (rank order), and
    // costs <= 0 on an item with a_i = 0 must still rank it first (ratio +Infinity, not 0 / 0
    // or -1 / 0).
    fc.assert(
      fc.property(decimal, fc.boolean(), fc.boolean(), ({ inst, costs }, reweight, withCosts) => {
        const options = withCosts ? { reweight, costs } : { reweight };
        expect(mkpGreedy(inst, options).items).toEqual(
          referenceDrop(inst, reweight, withCosts ? costs : undefined),
        );
      }),
      { numRuns: 1000 },
    );
  });
});
