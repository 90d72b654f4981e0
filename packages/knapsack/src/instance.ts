import { InvalidInputError } from "@sched/errors";

/**
 * A multidimensional 0-1 knapsack (MKP) instance: choose items to maximise the sum of their
 * `values` so that, for every constraint `k`, the chosen items' `weights[k][i]` sum to at most
 * `capacities[k]`. A plain 0-1 knapsack is the case `weights.length === 1`.
 *
 * All numbers must be finite; weights and capacities must be >= 0. Values may be any finite
 * number, but an item whose value is <= 0 is never chosen (it cannot raise the total).
 */
export interface MkpInstance {
  /** `values[i]`: the value of item `i`. */
  readonly values: ArrayLike<number>;
  /** `weights[k][i]`: item `i`'s weight in constraint `k`; one row per constraint, each as long as `values`. */
  readonly weights: ArrayLike<ArrayLike<number>>;
  /** `capacities[k]`: the capacity of constraint `k`; as many as `weights` has rows. */
  readonly capacities: ArrayLike<number>;
}

/** What every solver returns. */
export interface KnapsackResult {
  /** The chosen item indices, ascending. */
  readonly items: readonly number[];
  /** The sum of the chosen items' values (0 for no item). */
  readonly value: number;
  /** True when the solver proved that no feasible choice has a larger value. */
  readonly optimal: boolean;
}

/** An instance copied into typed arrays; `w[k * n + i]` is item `i`'s weight in constraint `k`. */
export interface DenseInstance {
  readonly n: number;
  readonly m: number;
  readonly v: Float64Array;
  readonly w: Float64Array;
  readonly c: Float64Array;
}

function isArrayLike(x: unknown): x is ArrayLike<unknown> {
  return (
    x !== null &&
    (Array.isArray(x) ||
      ArrayBuffer.isView(x) ||
      (typeof x === "object" && typeof (x as { length?: unknown }).length === "number"))
  );
}

function describe(x: unknown): string {
  if (typeof x === "number") return Number.isNaN(x) ? "NaN" : String(x);
  if (x === null) return "null";
  if (Array.isArray(x)) return "an array";
  return typeof x;
}

/** Checks one number; `min` is the smallest allowed value (or -Infinity). */
export function checkNumber(where: string, field: string, x: unknown, min: number): number {
  if (typeof x !== "number" || !Number.isFinite(x)) {
    throw new InvalidInputError(
      where,
      field,
      `is ${describe(x)}, expected a finite number${min === 0 ? " >= 0" : ""}`,
    );
  }
  if (x < min) throw new InvalidInputError(where, field, `is ${x}, expected a number >= ${min}`);
  return x;
}

/**
 * Validates an {@link MkpInstance} and copies it into typed arrays (the input is never touched
 * again, so callers may reuse or mutate it afterwards).
 *
 * @throws InvalidInputError naming the field: not an array, mismatched lengths, NaN or
 * infinite numbers, negative weights or capacities.
 */
export function readMkpInstance(where: string, instance: MkpInstance): DenseInstance {
  if (instance === null || typeof instance !== "object" || Array.isArray(instance)) {
    throw new InvalidInputError(
      where,
      "instance",
      `is ${describe(instance)}, expected { values, weights, capacities }`,
    );
  }
  const { values, weights, capacities } = instance;
  if (!isArrayLike(values))
    throw new InvalidInputError(
      where,
      "values",
      `is ${describe(values)}, expected an array of numbers`,
    );
  if (!isArrayLike(weights))
    throw new InvalidInputError(
      where,
      "weights",
      `is ${describe(weights)}, expected an array of rows`,
    );
  if (!isArrayLike(capacities)) {
    throw new InvalidInputError(
      where,
      "capacities",
      `is ${describe(capacities)}, expected an array of numbers`,
    );
  }
  const n = values.length;
  const m = weights.length;
  if (capacities.length !== m) {
    throw new InvalidInputError(
      where,
      "capacities",
      `has length ${capacities.length}, expected ${m} (one per row of weights)`,
    );
  }
  // Each number is checked inline; checkNumber (and the field name) only for the error.
  const v = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const x = values[i];
    if (typeof x !== "number" || !Number.isFinite(x))
      checkNumber(where, `values[${i}]`, x, Number.NEGATIVE_INFINITY);
    v[i] = x as number;
  }
  const c = new Float64Array(m);
  for (let k = 0; k < m; k++) {
    const x = capacities[k];
    if (typeof x !== "number" || !(x >= 0 && x < Number.POSITIVE_INFINITY))
      checkNumber(where, `capacities[${k}]`, x, 0);
    c[k] = x as number;
  }
  const w = new Float64Array(m * n);
  for (let k = 0; k < m; k++) {
    const row = weights[k];
    if (!isArrayLike(row))
      throw new InvalidInputError(
        where,
        `weights[${k}]`,
        `is ${describe(row)}, expected an array of numbers`,
      );
    if (row.length !== n) {
      throw new InvalidInputError(
        where,
        `weights[${k}]`,
        `has length ${row.length}, expected ${n} (one per value)`,
      );
    }
    for (let i = 0; i < n; i++) {
      const x = row[i];
      if (typeof x !== "number" || !(x >= 0 && x < Number.POSITIVE_INFINITY))
        checkNumber(where, `weights[${k}][${i}]`, x, 0);
      w[k * n + i] = x as number;
    }
  }
  return { n, m, v, w, c };
}

/** The sum of `v` over `items`, added in the given (ascending) order so results are reproducible. */
export function sumValues(v: Float64Array, items: readonly number[]): number {
  let s = 0;
  for (const i of items) s += v[i] as number;
  return s;
}
