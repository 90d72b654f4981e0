import fc from "fast-check";
import type { SparseColumns } from "../src/dual-simplex.js";
import type { MkpInstance } from "../src/index.js";

/**
 * The best value over all 2^n subsets; items: the first best subset found. Integer instances use
 * Gray-code order (O(2^n · m), exact sums); others recompute each subset's loads in ascending item
 * order with no slack (O(2^n · n · m)).
 */
export function bruteForce(instance: MkpInstance): { value: number; items: number[] } {
  const n = instance.values.length;
  const m = instance.capacities.length;
  const integral =
    Array.from(instance.values).every(Number.isInteger) &&
    Array.from(instance.weights).every((row) => Array.from(row).every(Number.isInteger));
  const load = new Float64Array(m);
  let value = 0;
  let mask = 0;
  let best = 0;
  let bestMask = 0;
  for (let step = 1; step < 1 << n; step++) {
    const bit = 31 - Math.clz32(step & -step);
    const sign = mask & (1 << bit) ? -1 : 1;
    mask ^= 1 << bit;
    let ok = true;
    if (integral) {
      value += sign * (instance.values[bit] as number);
      for (let k = 0; k < m; k++) {
        load[k] =
          (load[k] as number) + sign * ((instance.weights[k] as ArrayLike<number>)[bit] as number);
        if ((load[k] as number) > (instance.capacities[k] as number)) ok = false;
      }
    } else {
      value = 0;
      for (let i = 0; i < n; i++) if (mask & (1 << i)) value += instance.values[i] as number;
      for (let k = 0; k < m && ok; k++) {
        let l = 0;
        for (let i = 0; i < n; i++)
          if (mask & (1 << i)) l += (instance.weights[k] as ArrayLike<number>)[i] as number;
        if (l > (instance.capacities[k] as number)) ok = false;
      }
    }
    if (ok && value > best) {
      best = value;
      bestMask = mask;
    }
  }
  const items: number[] = [];
  for (let i = 0; i < n; i++) if (bestMask & (1 << i)) items.push(i);
  return { value: best, items };
}

/**
 * Whether `items` is ascending, duplicate-free, in range and within every capacity plus `slack`
 * (default 1e-9, for float sums added in another order; a negative slack demands a margin).
 */
export function isFeasible(instance: MkpInstance, items: readonly number[], slack = 1e-9): boolean {
  const n = instance.values.length;
  for (let p = 0; p < items.length; p++) {
    const i = items[p] as number;
    if (!Number.isInteger(i) || i < 0 || i >= n) return false;
    if (p > 0 && (items[p - 1] as number) >= i) return false;
  }
  for (let k = 0; k < instance.capacities.length; k++) {
    let load = 0;
    for (const i of items) load += (instance.weights[k] as ArrayLike<number>)[i] as number;
    if (load > (instance.capacities[k] as number) + slack) return false;
  }
  return true;
}

/** Sum of values of `items`. */
export function totalValue(instance: MkpInstance, items: readonly number[]): number {
  let s = 0;
  for (const i of items) s += instance.values[i] as number;
  return s;
}

/** MKP instances with up to `maxItems` items and 1..`maxConstraints` constraints; integer or real numbers. */
export function mkpInstance(
  maxItems = 15,
  maxConstraints = 4,
  kind: "integer" | "real" = "integer",
): fc.Arbitrary<{ values: number[]; weights: number[][]; capacities: number[] }> {
  const num = (max: number) =>
    kind === "integer"
      ? fc.integer({ min: 0, max })
      : fc.double({ min: 0, max, noNaN: true, noDefaultInfinity: true });
  return fc
    .record({
      n: fc.integer({ min: 0, max: maxItems }),
      m: fc.integer({ min: 1, max: maxConstraints }),
    })
    .chain(({ n, m }) =>
      fc.record({
        values: fc.array(num(30), { minLength: n, maxLength: n }),
        weights: fc.array(fc.array(num(20), { minLength: n, maxLength: n }), {
          minLength: m,
          maxLength: m,
        }),
        capacities: fc.array(num(20 * Math.max(1, Math.ceil(n / 3))), {
          minLength: m,
          maxLength: m,
        }),
      }),
    );
}

/** A deep copy, to check that a function does not mutate its input. */
export function clone<T>(x: T): T {
  return structuredClone(x);
}

/**
 * The optimum of an MKP with non-negative integer weights and small capacities by dynamic
 * programming over load vectors (one state per vector of loads up to the capacities): an exact
 * oracle for instances too large for brute force. O(n · prod(c_k + 1) · m).
 */
export function dpOptimum(instance: MkpInstance): number {
  const n = instance.values.length;
  const m = instance.capacities.length;
  const caps = Array.from(instance.capacities, (c) => Math.floor(c));
  const stride: number[] = [];
  let states = 1;
  for (const c of caps) {
    stride.push(states);
    states *= c + 1;
  }
  let best = new Float64Array(states).fill(Number.NEGATIVE_INFINITY);
  best[0] = 0;
  for (let i = 0; i < n; i++) {
    const v = instance.values[i] as number;
    const next = Float64Array.from(best);
    if (v > 0) {
      for (let s = 0; s < states; s++) {
        const here = best[s] as number;
        if (here === Number.NEGATIVE_INFINITY) continue;
        let t = 0;
        let ok = true;
        for (let k = 0; k < m && ok; k++) {
          const load = Math.floor(s / (stride[k] as number)) % ((caps[k] as number) + 1);
          const w = (instance.weights[k] as ArrayLike<number>)[i] as number;
          if (load + w > (caps[k] as number)) ok = false;
          else t += (load + w) * (stride[k] as number);
        }
        if (ok && here + v > (next[t] as number)) next[t] = here + v;
      }
    }
    best = next;
  }
  let opt = 0;
  for (const x of best) if (x > opt) opt = x;
  return opt;
}

/**
 * License-knapsack-like instances as Table 1 builds them: one copy (weight 1) of each license a
 * job asks for (probability `density`), real values in [1, 10] (a job's mean priority), small
 * capacities (free copies).
 */
export function licenseInstance(
  maxItems: number,
  maxConstraints: number,
  maxCapacity: number,
): fc.Arbitrary<{ values: number[]; weights: number[][]; capacities: number[] }> {
  return fc
    .record({
      n: fc.integer({ min: 0, max: maxItems }),
      m: fc.integer({ min: 1, max: maxConstraints }),
    })
    .chain(({ n, m }) =>
      fc.record({
        values: fc.array(fc.double({ min: 1, max: 10, noNaN: true }), {
          minLength: n,
          maxLength: n,
        }),
        weights: fc.array(
          fc.array(
            fc.integer({ min: 0, max: 4 }).map((x) => (x === 0 ? 1 : 0)),
            {
              minLength: n,
              maxLength: n,
            },
          ),
          { minLength: m, maxLength: m },
        ),
        capacities: fc.array(fc.integer({ min: 0, max: maxCapacity }), {
          minLength: m,
          maxLength: m,
        }),
      }),
    );
}

/** The instance's weights stored by columns (the solver's internal layout). */
export function columnsOf(instance: MkpInstance): SparseColumns {
  const n = instance.values.length;
  const m = instance.capacities.length;
  const start = new Int32Array(n + 1);
  const row: number[] = [];
  const val: number[] = [];
  for (let j = 0; j < n; j++) {
    for (let k = 0; k < m; k++) {
      const w = (instance.weights[k] as ArrayLike<number>)[j] as number;
      if (w !== 0) {
        row.push(k);
        val.push(w);
      }
    }
    start[j + 1] = row.length;
  }
  return { rows: m, cols: n, start, row: Int32Array.from(row), val: Float64Array.from(val) };
}

/**
 * mulberry32: a small seeded generator of numbers in [0, 1), so that the pinned search paths
 * (`*-path.test.ts`) see the same instances everywhere.
 */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * MKP instances with decimal weights drawn from `weights` (tenths and the like, whose sums in
 * two orders can differ by an ulp), integer values 1..`maxValue` and integer `costs` -1..3 (for
 * the greedy's `costs` option). Capacities lie on the same 0.1 grid: either a `share` (tenths,
 * drawn from the range) of each row's total, or `tenths` drawn from the range, divided by 10.
 */
export function decimalMkp(o: {
  items: [number, number];
  rows: [number, number];
  maxValue: number;
  weights: readonly number[];
  capacity: { share: [number, number] } | { tenths: [number, number] };
}): fc.Arbitrary<{
  values: number[];
  weights: number[][];
  capacities: number[];
  costs: number[];
}> {
  const cap = o.capacity;
  return fc
    .record({
      n: fc.integer({ min: o.items[0], max: o.items[1] }),
      m: fc.integer({ min: o.rows[0], max: o.rows[1] }),
    })
    .chain(({ n, m }) =>
      fc.record({
        values: fc.array(fc.integer({ min: 1, max: o.maxValue }), { minLength: n, maxLength: n }),
        weights: fc.array(
          fc.array(fc.constantFrom<number>(...o.weights), { minLength: n, maxLength: n }),
          { minLength: m, maxLength: m },
        ),
        scale: fc.array(
          "share" in cap
            ? fc.integer({ min: cap.share[0], max: cap.share[1] })
            : fc.integer({ min: cap.tenths[0], max: cap.tenths[1] }),
          { minLength: m, maxLength: m },
        ),
        costs: fc.array(fc.integer({ min: -1, max: 3 }), { minLength: n, maxLength: n }),
      }),
    )
    .map(({ values, weights, scale, costs }) => ({
      values,
      weights,
      capacities: weights.map((row, k) =>
        "share" in cap
          ? Math.round(row.reduce((s, x) => s + x, 0) * (scale[k] as number)) / 10
          : (scale[k] as number) / 10,
      ),
      costs,
    }));
}
