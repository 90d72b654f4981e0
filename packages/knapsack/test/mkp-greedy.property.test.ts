import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { mkpGreedy } from "../src/index.js";
import { clone, isFeasible, mkpInstance, totalValue } from "./helpers.js";

const variants = fc.record({
  strategy: fc.constantFrom("fill" as const, "drop" as const),
  reweight: fc.boolean(),
  rhoExponent: fc.constantFrom(0, 1, 2),
});

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
  const used = new Array<number>(m).fill(0);
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
  const fits = (i: number) => {
    for (let k = 0; k < m; k++) if ((used[k] as number) + w(k, i) > c(k)) return false;
    return true;
  };
  const take = (i: number) => {
    status[i] = 1;
    for (let k = 0; k < m; k++) used[k]! += w(k, i);
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

  it("picks what the reference picks on decimal weights and costs <= 0 (sums whose order decides a fit)", () => {
    // 0.1 + 0.2 + 0.3 > 0.6 but 0.3 + 0.2 + 0.1 = 0.6: which items still fit after the drop
    // phase depends on the order the rest is taken in (rank order), and costs <= 0 on an item
    // with a_i = 0 must still rank it first (ratio +Infinity, not 0 / 0 or -1 / 0).
    const decimal = fc
      .record({ n: fc.integer({ min: 2, max: 10 }), m: fc.integer({ min: 1, max: 3 }) })
      .chain(({ n, m }) =>
        fc.record({
          values: fc.array(fc.integer({ min: 1, max: 5 }), { minLength: n, maxLength: n }),
          weights: fc.array(
            fc.array(fc.constantFrom<number>(0, 0, 0.1, 0.15, 0.2, 0.25, 0.3, 0.4, 0.7, 1.1), {
              minLength: n,
              maxLength: n,
            }),
            { minLength: m, maxLength: m },
          ),
          share: fc.integer({ min: 4, max: 9 }),
          costs: fc.array(fc.integer({ min: -1, max: 3 }), { minLength: n, maxLength: n }),
        }),
      )
      .map(({ values, weights, share, costs }) => ({
        inst: {
          values,
          weights,
          // capacities on the same 0.1 grid as the weights' sums
          capacities: weights.map((row) => Math.round(row.reduce((s, x) => s + x, 0) * share) / 10),
        },
        costs,
      }));
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
