import fc from "fast-check";
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
