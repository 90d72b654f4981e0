import { InvalidInputError } from "@sched/errors";
import {
  type DenseInstance,
  type KnapsackResult,
  type MkpInstance,
  readMkpInstance,
  sumValues,
} from "./instance.js";
import { defaultGreedyOptions, greedyItems } from "./mkp-greedy.js";

/** Options of {@link mkpExact}. */
export interface MkpExactOptions {
  /**
   * Stop after this many search nodes and return the best solution found (`optimal: false`
   * unless the search had finished). Counting nodes keeps the result deterministic.
   * @defaultValue `10_000_000`
   */
  readonly nodeLimit?: number;
  /**
   * Stop after this many milliseconds of search (wall clock, checked every 256 nodes) and return
   * the best solution found. A finite time limit makes the result depend on the machine's speed.
   * @defaultValue `Infinity`
   */
  readonly timeLimit?: number;
  /**
   * Subgradient iterations spent at the root to choose the surrogate multipliers (one per
   * constraint). More iterations give a tighter bound; 0 uses the starting multipliers.
   * Ignored when there is a single constraint.
   * @defaultValue `300`
   */
  readonly multiplierIterations?: number;
}

/** What {@link mkpExact} returns: a {@link KnapsackResult} plus search statistics. */
export interface MkpExactResult extends KnapsackResult {
  /** An upper bound on the optimum: `value` when `optimal`, else the root relaxation's bound. */
  readonly bound: number;
  /** Search nodes visited. */
  readonly nodes: number;
}

interface ResolvedExactOptions {
  readonly nodeLimit: number;
  readonly timeLimit: number;
  readonly multiplierIterations: number;
}

function resolveOptions(where: string, options: MkpExactOptions | undefined): ResolvedExactOptions {
  const o = options ?? {};
  const resolved = {
    nodeLimit: o.nodeLimit ?? 10_000_000,
    timeLimit: o.timeLimit ?? Number.POSITIVE_INFINITY,
    multiplierIterations: o.multiplierIterations ?? 300,
  };
  for (const [key, value] of Object.entries(resolved)) {
    if (typeof value !== "number" || Number.isNaN(value) || value < 0) {
      throw new InvalidInputError(
        where,
        `options.${key}`,
        `is ${String(value)}, expected a number >= 0`,
      );
    }
  }
  if (!Number.isInteger(resolved.multiplierIterations)) {
    throw new InvalidInputError(
      where,
      "options.multiplierIterations",
      `is ${resolved.multiplierIterations}, expected an integer >= 0`,
    );
  }
  return resolved;
}

/**
 * Lagrangian multipliers for the constraints, by projected subgradient descent on
 * `L(l) = sum_k l_k c_k + sum_i max(0, v_i - sum_k l_k w_ki)` (whose minimum is the LP bound).
 * Only `cand` items take part. Returns the multipliers with the smallest `L` seen.
 */
function multipliers(
  inst: DenseInstance,
  cand: Int32Array,
  lowerBound: number,
  iterations: number,
): Float64Array {
  const { n, m, v, w, c } = inst;
  const lambda = new Float64Array(m);
  if (m === 1) {
    lambda[0] = 1;
    return lambda;
  }
  let totalValue = 0;
  for (const i of cand) totalValue += v[i] as number;
  let criticalCount = 0;
  const total = new Float64Array(m);
  for (let k = 0; k < m; k++) {
    let t = 0;
    for (const i of cand) t += w[k * n + i] as number;
    total[k] = t;
    if (t > (c[k] as number)) criticalCount++;
  }
  for (let k = 0; k < m; k++) {
    if ((total[k] as number) > (c[k] as number))
      lambda[k] = totalValue / (criticalCount * (total[k] as number));
  }
  const best = Float64Array.from(lambda);
  let bestL = Number.POSITIVE_INFINITY;
  let theta = 2;
  let stale = 0;
  const g = new Float64Array(m);
  for (let it = 0; it < iterations; it++) {
    let L = 0;
    for (let k = 0; k < m; k++) {
      L += (lambda[k] as number) * (c[k] as number);
      g[k] = c[k] as number;
    }
    for (const i of cand) {
      let lw = 0;
      for (let k = 0; k < m; k++) lw += (lambda[k] as number) * (w[k * n + i] as number);
      const reduced = (v[i] as number) - lw;
      if (reduced > 0) {
        L += reduced;
        for (let k = 0; k < m; k++) g[k] = (g[k] as number) - (w[k * n + i] as number);
      }
    }
    if (bestL === Number.POSITIVE_INFINITY || L < bestL - 1e-12 * Math.abs(bestL)) {
      bestL = L;
      best.set(lambda);
      stale = 0;
    } else if (++stale >= 10) {
      theta /= 2;
      stale = 0;
      if (theta < 1e-4) break;
    }
    if (bestL - lowerBound <= 1e-9 * Math.max(1, Math.abs(lowerBound))) break;
    let norm = 0;
    for (let k = 0; k < m; k++) {
      const gk = g[k] as number;
      if ((lambda[k] as number) > 0 || gk < 0) norm += gk * gk;
    }
    if (norm === 0) break;
    const step = (theta * Math.max(L - lowerBound, 1e-9 * Math.max(1, Math.abs(L)))) / norm;
    for (let k = 0; k < m; k++)
      lambda[k] = Math.max(0, (lambda[k] as number) - step * (g[k] as number));
  }
  return best;
}

/**
 * Branch and bound on a validated instance. Exposed inside the package for `knapsack01`.
 * Depth-first over the items sorted by surrogate efficiency; each node is bounded by the
 * Dantzig (LP) bound of the surrogate knapsack `sum_k l_k w_ki <= sum_k l_k r_k` (r: residual
 * capacities), skipping items that no longer fit some residual capacity.
 */
export function branchAndBound(inst: DenseInstance, opts: ResolvedExactOptions): MkpExactResult {
  const { n, m, v, w, c } = inst;
  // Incumbent: the best of three greedy variants (ties: the first).
  let bestItems: number[] = [];
  let best = 0;
  for (const variant of [
    { strategy: "drop", rhoExponent: 0 },
    { strategy: "fill", rhoExponent: 0 },
    { strategy: "drop", rhoExponent: 2 },
  ] as const) {
    const items = greedyItems(inst, { ...defaultGreedyOptions(inst), ...variant });
    const value = sumValues(v, items);
    if (value > best) {
      bestItems = items;
      best = value;
    }
  }

  const candList: number[] = [];
  for (let i = 0; i < n; i++) {
    let ok = (v[i] as number) > 0;
    for (let k = 0; ok && k < m; k++) if ((w[k * n + i] as number) > (c[k] as number)) ok = false;
    if (ok) candList.push(i);
  }
  const cand = Int32Array.from(candList);
  const N = cand.length;
  let integral = true;
  for (const i of cand) if (!Number.isInteger(v[i] as number)) integral = false;

  const lambda = multipliers(inst, cand, best, opts.multiplierIterations);
  const s = new Float64Array(n);
  for (const i of cand) {
    let t = 0;
    for (let k = 0; k < m; k++) t += (lambda[k] as number) * (w[k * n + i] as number);
    s[i] = t;
  }
  const eff = (i: number): number =>
    s[i] === 0 ? Number.POSITIVE_INFINITY : (v[i] as number) / (s[i] as number);
  const order = Int32Array.from(
    candList.sort((x, y) => {
      const ex = eff(x);
      const ey = eff(y);
      return ex === ey ? x - y : ex > ey ? -1 : 1;
    }),
  );
  // Column-major copies in search order for cache-friendly inner loops.
  const ow = new Float64Array(N * m);
  const ov = new Float64Array(N);
  const os = new Float64Array(N);
  for (let j = 0; j < N; j++) {
    const i = order[j] as number;
    ov[j] = v[i] as number;
    os[j] = s[i] as number;
    for (let k = 0; k < m; k++) ow[j * m + k] = w[k * n + i] as number;
  }

  const r = Float64Array.from(c);
  let R = 0;
  for (let k = 0; k < m; k++) R += (lambda[k] as number) * (c[k] as number);

  const fitsAt = (j: number): boolean => {
    const base = j * m;
    for (let k = 0; k < m; k++) if ((ow[base + k] as number) > (r[k] as number)) return false;
    return true;
  };
  const bound = (d: number, value: number): number => {
    let ub = value;
    let cap = R;
    for (let j = d; j < N; j++) {
      if (!fitsAt(j)) continue;
      const sj = os[j] as number;
      if (sj <= cap) {
        cap -= sj;
        ub += ov[j] as number;
      } else {
        ub += ((ov[j] as number) * cap) / sj;
        break;
      }
    }
    return integral ? Math.floor(ub + 1e-9) : ub;
  };
  const tolerance = (x: number): number => (integral ? 0 : 1e-12 * Math.max(1, Math.abs(x)));

  const rootBound = bound(0, 0);
  const x = new Int8Array(N);
  let nodes = 0;
  let finished = rootBound <= best + tolerance(best);
  const started = performance.now();
  let d = 0;
  let value = 0;
  search: while (!finished) {
    // Visit the node at depth d.
    nodes++;
    if (nodes > opts.nodeLimit) break;
    if (
      (nodes & 255) === 0 &&
      opts.timeLimit !== Number.POSITIVE_INFINITY &&
      performance.now() - started > opts.timeLimit
    ) {
      break;
    }
    if (value > best + tolerance(best)) {
      best = value;
      const items: number[] = [];
      for (let j = 0; j < d; j++) if (x[j] === 1) items.push(order[j] as number);
      bestItems = items.sort((p, q) => p - q);
    }
    let descend = d < N && bound(d, value) > best + tolerance(best);
    if (descend) {
      if (fitsAt(d)) {
        x[d] = 1;
        const base = d * m;
        for (let k = 0; k < m; k++) r[k] = (r[k] as number) - (ow[base + k] as number);
        R -= os[d] as number;
        value += ov[d] as number;
      } else {
        x[d] = 0;
      }
      d++;
      continue;
    }
    // Backtrack to the deepest item still included and exclude it instead.
    descend = false;
    while (d > 0) {
      d--;
      if (x[d] === 1) {
        x[d] = 0;
        const base = d * m;
        for (let k = 0; k < m; k++) r[k] = (r[k] as number) + (ow[base + k] as number);
        R += os[d] as number;
        value -= ov[d] as number;
        d++;
        continue search;
      }
    }
    finished = true;
  }
  const items = bestItems;
  const total = sumValues(v, items);
  return {
    items,
    value: total,
    optimal: finished,
    bound: finished ? total : Math.max(rootBound, total),
    nodes,
  };
}

/**
 * Solves the multidimensional 0-1 knapsack exactly by branch and bound: the best of three greedy
 * variants ({@link mkpGreedy} with its defaults, `"fill"`, and `rhoExponent: 2`) gives
 * the first incumbent; subgradient optimisation at the root picks one multiplier per constraint
 * (approaching the LP relaxation's dual); every node is then bounded by the Dantzig bound of the
 * resulting surrogate knapsack, skipping items that no longer fit. Depth-first, items in
 * decreasing surrogate efficiency (ties by index), the "take" branch first.
 *
 * `optimal: true` means the search finished, so no feasible choice is better. When `nodeLimit`
 * or `timeLimit` stops it first, the result is the best solution found (`optimal: false`),
 * never worse than {@link mkpGreedy}'s. Items whose value is <= 0 are never chosen.
 *
 * Complexity: NP-hard in general; O(m·n·iterations) for the multipliers, then O(n·m) per node,
 * at most `nodeLimit` nodes; O(n·m) space.
 *
 * @throws InvalidInputError on a malformed instance (field named) or bad options.
 * @example
 * mkpExact({ values: [10, 7, 6], weights: [[4, 3, 3], [1, 2, 2]], capacities: [6, 4] });
 * // => { items: [1, 2], value: 13, optimal: true, bound: 13, nodes: … }
 */
export function mkpExact(instance: MkpInstance, options?: MkpExactOptions): MkpExactResult {
  const where = "@sched/knapsack/mkpExact";
  const inst = readMkpInstance(where, instance);
  return branchAndBound(inst, resolveOptions(where, options));
}

/** Shared option handling for `knapsack01`. */
export { resolveOptions as resolveExactOptions };
