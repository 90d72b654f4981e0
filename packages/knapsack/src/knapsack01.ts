import {
  describeValue,
  InvalidInputError,
  LimitExceededError,
  optionKeys,
  requireKnownKeys,
} from "@sched/errors";
import { checkNumber, type KnapsackResult } from "./instance.js";
import { type MkpExactOptions, resolveExactOptions, solveMkp } from "./mkp-exact.js";

/** A 0-1 knapsack instance: one weight per item and a single capacity. */
export interface Knapsack01Instance {
  /** `values[i]`: the value of item `i` (items with value <= 0 are never chosen). */
  readonly values: ArrayLike<number>;
  /** `weights[i]`: the weight of item `i`, finite and >= 0. */
  readonly weights: ArrayLike<number>;
  /** The capacity, finite and >= 0. */
  readonly capacity: number;
}

/** Options of {@link knapsack01}. */
export interface Knapsack01Options extends MkpExactOptions {
  /**
   * `"dp"`: dynamic programming over capacities (needs integer weights; O(n·capacity));
   * `"branch-and-bound"`: depth-first search with the Dantzig bound (any weights);
   * `"auto"`: `"dp"` when the weights are integers and `n·(capacity+1) <= dpCellLimit`,
   * else `"branch-and-bound"`.
   * @defaultValue `"auto"`
   */
  readonly method?: "auto" | "dp" | "branch-and-bound";
  /**
   * The largest table (`n·(capacity+1)` cells, one byte each) `"auto"` lets the DP use.
   * @defaultValue `20_000_000`
   */
  readonly dpCellLimit?: number;
}

/** The keys of {@link Knapsack01Options}, all of them (checked by the compiler). Internal. */
export const KNAPSACK01_KEYS = optionKeys<Knapsack01Options>({
  method: true,
  dpCellLimit: true,
  nodeLimit: true,
});

const WHERE = "@sched/knapsack/knapsack01";

/**
 * Solves the 0-1 knapsack exactly: maximise the sum of `values` of the chosen items with their
 * `weights` summing to at most `capacity`. Integer weights use dynamic programming (a
 * pseudo-polynomial O(n·capacity) table, always optimal); otherwise (or on request) branch and
 * bound with the Dantzig bound, limited by `nodeLimit` like {@link mkpExact}.
 * Among equally valuable choices the DP keeps the one that leaves later items out (an item is
 * taken only when it strictly improves).
 *
 * @throws InvalidInputError on mismatched lengths, NaN or infinite numbers, negative weights or
 * capacity, non-integer weights with `method: "dp"`, bad options.
 * @example
 * knapsack01({ values: [60, 100, 120], weights: [10, 20, 30], capacity: 50 });
 * // => { items: [1, 2], value: 220, optimal: true }
 */
export function knapsack01(
  instance: Knapsack01Instance,
  options?: Knapsack01Options,
): KnapsackResult {
  if (instance === null || typeof instance !== "object" || Array.isArray(instance)) {
    throw new InvalidInputError(
      WHERE,
      "instance",
      "is not an object, expected { values, weights, capacity }",
    );
  }
  const o = requireKnownKeys(WHERE, "options", options, KNAPSACK01_KEYS) ?? {};
  const method = o.method ?? "auto";
  const dpCellLimit = o.dpCellLimit ?? 20_000_000;
  if (method !== "auto" && method !== "dp" && method !== "branch-and-bound") {
    throw new InvalidInputError(
      WHERE,
      "options.method",
      `is ${describeValue(method)}, expected "auto", "dp" or "branch-and-bound"`,
    );
  }
  checkNumber(WHERE, "options.dpCellLimit", dpCellLimit, 0);
  const exact = resolveExactOptions(WHERE, o);
  const { values, weights } = instance;
  if (values === null || typeof values !== "object" || typeof values.length !== "number") {
    throw new InvalidInputError(WHERE, "values", "is not an array, expected an array of numbers");
  }
  if (weights === null || typeof weights !== "object" || typeof weights.length !== "number") {
    throw new InvalidInputError(WHERE, "weights", "is not an array, expected an array of numbers");
  }
  const n = values.length;
  if (weights.length !== n) {
    throw new InvalidInputError(
      WHERE,
      "weights",
      `has length ${weights.length}, expected ${n} (one per value)`,
    );
  }
  const v = new Float64Array(n);
  const w = new Float64Array(n);
  let integerWeights = true;
  for (let i = 0; i < n; i++) {
    v[i] = checkNumber(WHERE, `values[${i}]`, values[i], Number.NEGATIVE_INFINITY);
    w[i] = checkNumber(WHERE, `weights[${i}]`, weights[i], 0);
    if (!Number.isInteger(w[i] as number)) integerWeights = false;
  }
  const capacity = checkNumber(WHERE, "capacity", instance.capacity, 0);
  const C = Math.floor(capacity);
  if (method === "dp" && !integerWeights) {
    throw new InvalidInputError(
      WHERE,
      "weights",
      'are not all integers, which options.method "dp" needs',
    );
  }
  const useDp =
    method === "dp" || (method === "auto" && integerWeights && n * (C + 1) <= dpCellLimit);
  if (!useDp) {
    const r = solveMkp({ n, m: 1, v, w, c: Float64Array.of(capacity) }, exact);
    return { items: r.items, value: r.value, optimal: r.optimal };
  }
  return dynamicProgram(v, w, C);
}

/** O(n·C) table; `keep[i * (C+1) + c]` = 1 when item i is taken at capacity c. */
function dynamicProgram(v: Float64Array, w: Float64Array, C: number): KnapsackResult {
  const n = v.length;
  const width = C + 1;
  let best: Float64Array;
  let keep: Uint8Array;
  try {
    best = new Float64Array(width);
    keep = new Uint8Array(n * width);
  } catch (e) {
    if (!(e instanceof RangeError)) throw e;
    // Only `method: "dp"` gets here (`"auto"` stays within dpCellLimit): a table this large
    // is beyond what the engine can allocate, a RangeError that would name nothing.
    throw new LimitExceededError(
      WHERE,
      `options.method "dp" needs a table of ${n} x ${width} = ${n * width} cells (items x (capacity + 1)), more than this engine can allocate; use "branch-and-bound" or "auto"`,
      { limit: "options.method" },
    );
  }
  for (let i = 0; i < n; i++) {
    const vi = v[i] as number;
    const wi = w[i] as number;
    if (vi <= 0 || wi > C) continue;
    const row = i * width;
    for (let c = C; c >= wi; c--) {
      const candidate = (best[c - wi] as number) + vi;
      if (candidate > (best[c] as number)) {
        best[c] = candidate;
        keep[row + c] = 1;
      }
    }
  }
  const items: number[] = [];
  let c = C;
  for (let i = n - 1; i >= 0; i--) {
    if (keep[i * width + c] === 1) {
      items.push(i);
      c -= w[i] as number;
    }
  }
  items.reverse();
  let value = 0;
  for (const i of items) value += v[i] as number;
  return { items, value, optimal: true };
}
