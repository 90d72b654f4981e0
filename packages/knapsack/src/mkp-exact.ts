import { describeValue, InvalidInputError, optionKeys, requireKnownKeys } from "@sched/errors";
import { dantzigSearch } from "./dantzig-search.js";
import {
  type DenseInstance,
  type KnapsackResult,
  type MkpInstance,
  readMkpInstance,
  sumValues,
} from "./instance.js";
import { lpSearch } from "./lp-search.js";
import { defaultGreedyOptions, greedyItems } from "./mkp-greedy.js";

/** Options of {@link mkpExact}. */
export interface MkpExactOptions {
  /**
   * Stop after this many search nodes (linear programs solved) and return the best solution
   * found with `optimal: false` and a valid `bound`. Counting nodes, never time, keeps the result
   * the same on every machine.
   * @defaultValue `1_000_000`
   */
  readonly nodeLimit?: number;
}

/** The keys of {@link MkpExactOptions}, all of them (checked by the compiler). Internal. */
export const EXACT_KEYS = optionKeys<MkpExactOptions>({
  nodeLimit: true,
});

/** What {@link mkpExact} returns: a {@link KnapsackResult} plus search statistics. */
export interface MkpExactResult extends KnapsackResult {
  /**
   * An upper bound on the optimum: `value` when `optimal`, else the largest bound of the parts
   * of the search tree left unexplored (never below `value`).
   */
  readonly bound: number;
  /** Search nodes (linear programs) solved. */
  readonly nodes: number;
}

interface ResolvedExactOptions {
  readonly nodeLimit: number;
}

function resolveOptions(
  where: string,
  options: MkpExactOptions | undefined,
  field = "options",
): ResolvedExactOptions {
  const nodeLimit = options?.nodeLimit ?? 1_000_000;
  if (typeof nodeLimit !== "number" || Number.isNaN(nodeLimit) || nodeLimit < 0) {
    throw new InvalidInputError(
      where,
      `${field}.nodeLimit`,
      `is ${describeValue(nodeLimit)}, expected a number >= 0`,
    );
  }
  return { nodeLimit };
}

/**
 * Solves the multidimensional 0-1 knapsack exactly by LP-based branch and bound.
 *
 * 1. Items with a value <= 0 or heavier than some capacity are dropped, constraints that all the
 *    remaining items satisfy together are dropped, and items with no weight on the others are
 *    always taken.
 * 2. The incumbent starts as the best of three greedy variants ({@link mkpGreedy} with its
 *    defaults, `"fill"`, and `rhoExponent: 2`).
 * 3. With one binding constraint, a depth-first search with Dantzig's bound (the exact LP bound
 *    of a single knapsack) finishes the job. Otherwise every node solves the LP relaxation with
 *    a bounded dual simplex, warm-started from the previous node's basis; its bound is the
 *    Lagrangian value `sum_k y_k c_k + sum_j max over [lo_j, up_j] of (v_j - y·a_j) x_j` of the
 *    LP duals `y` (clamped to >= 0), an upper bound for any `y >= 0` however the LP was solved,
 *    floored when all values are integers. Nodes whose bound does not beat the incumbent are
 *    pruned; free variables whose reduced cost alone would sink the bound below the incumbent
 *    are fixed for the subtree (reduced-cost fixing); integral LP solutions and a rounding of
 *    every node's LP solution update the incumbent. Branching: depth-first on the fractional
 *    variable nearest to 1, the "take" branch first.
 *
 * `optimal: true` means the search finished, so no feasible choice is better (for non-integer
 * values: by more than a relative 1e-9). When `nodeLimit` stops it first, the result is the best
 * solution found (`optimal: false`), never worse than {@link mkpGreedy}'s, and `bound` is the
 * largest bound left open. Items whose value is <= 0 are never chosen. Deterministic.
 *
 * Complexity: NP-hard in general; O(n·m) per node plus O(m² + nnz) per dual simplex pivot,
 * at most `nodeLimit` nodes; O(m² + n·m) space.
 *
 * @throws InvalidInputError on a malformed instance (field named) or bad options.
 * @example
 * mkpExact({ values: [10, 7, 6], weights: [[4, 3, 3], [1, 2, 2]], capacities: [6, 4] });
 * // => { items: [1, 2], value: 13, optimal: true, bound: 13, nodes: … }
 */
export function mkpExact(instance: MkpInstance, options?: MkpExactOptions): MkpExactResult {
  const where = "@sched/knapsack/mkpExact";
  const inst = readMkpInstance(where, instance);
  requireKnownKeys(where, "options", options, EXACT_KEYS);
  return solveMkp(inst, resolveOptions(where, options));
}

/** Shared option handling for `knapsack01`. */
export { resolveOptions as resolveExactOptions };

/** The exact search on a validated instance (also `knapsack01`'s branch and bound). */
export function solveMkp(inst: DenseInstance, opts: ResolvedExactOptions): MkpExactResult {
  const { n, m, v, w, c } = inst;
  // Incumbent: the best of three greedy variants (ties: the first).
  let start: number[] = [];
  let startValue = 0;
  for (const variant of [
    { strategy: "drop", rhoExponent: 0 },
    { strategy: "fill", rhoExponent: 0 },
    { strategy: "drop", rhoExponent: 2 },
  ] as const) {
    const items = greedyItems(inst, { ...defaultGreedyOptions(inst), ...variant });
    const value = sumValues(v, items);
    if (value > startValue) {
      start = items;
      startValue = value;
    }
  }

  // Reduction: candidates, binding constraints, items free on every binding constraint.
  const cand: number[] = [];
  for (let i = 0; i < n; i++) {
    let ok = (v[i] as number) > 0;
    for (let k = 0; ok && k < m; k++) if ((w[k * n + i] as number) > (c[k] as number)) ok = false;
    if (ok) cand.push(i);
  }
  const rows: number[] = [];
  for (let k = 0; k < m; k++) {
    let total = 0;
    for (const i of cand) total += w[k * n + i] as number;
    if (total > (c[k] as number)) rows.push(k);
  }
  const always: number[] = [];
  const free: number[] = [];
  for (const i of cand) {
    if (rows.some((k) => (w[k * n + i] as number) > 0)) free.push(i);
    else always.push(i);
  }
  const finish = (items: readonly number[], optimal: boolean, bound: number, nodes: number) => {
    const sorted = [...items].sort((p, q) => p - q);
    const value = sumValues(v, sorted);
    return {
      items: sorted,
      value,
      optimal,
      bound: optimal ? value : Math.max(bound, value),
      nodes,
    };
  };
  if (rows.length === 0) return finish(cand, true, 0, 0);
  if (rows.length === 1) {
    const k = rows[0] as number;
    const weights = w.subarray(k * n, (k + 1) * n);
    const isFree = new Set(free);
    const startFree = start.filter((i) => isFree.has(i));
    const r = dantzigSearch(v, weights, c[k] as number, free, startFree, opts.nodeLimit);
    return finish([...always, ...r.items], r.optimal, r.bound + sumValues(v, always), r.nodes);
  }
  const r = lpSearch({ inst, rows, free, always, start, nodeLimit: opts.nodeLimit });
  return finish(r.items, r.optimal, r.bound, r.nodes);
}
