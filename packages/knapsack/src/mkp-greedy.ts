import {
  InvalidInputError,
  optionKeys,
  requireBoolean,
  requireKnownKeys,
  requireOneOf,
} from "@sched/errors";
import {
  checkNumber,
  type DenseInstance,
  type KnapsackResult,
  type MkpInstance,
  readMkpInstance,
  sumValues,
} from "./instance.js";

/** Options of {@link mkpGreedy}. */
export interface MkpGreedyOptions {
  /**
   * Per-item costs `c_i` that order the items (by `c_i / a_i`, decreasing) instead of `values`.
   * The paper's license variant passes the mean positive entry of each job's Job-Machine matrix
   * row here (see `jobCosts`); the result's `value` is still the sum of `values`.
   * @defaultValue `instance.values`
   */
  readonly costs?: ArrayLike<number>;
  /**
   * Recompute the surrogate weights `a_i` (and the order) whenever discarding an item makes a
   * constraint stop being critical, as the paper does. `false` keeps the weights computed at
   * the start (classic Eilon surrogate greedy).
   * @defaultValue `true`
   */
  readonly reweight?: boolean;
  /**
   * `"fill"`: scan items by decreasing `c_i / a_i`, take each one that fits, discard the others.
   * `"drop"`: start from every item and discard the one with the smallest `c_i / a_i` among the
   * items on a critical constraint until no constraint is critical, then add discarded items back
   * (last discarded first) while they fit.
   * `"drop"` reads the paper's "according to the decreasing unitary costs ordering, jobs can be
   * discarded" literally and was clearly better on the Table 1 workload (see the README).
   * @defaultValue `"drop"`
   */
  readonly strategy?: "fill" | "drop";
  /**
   * Weights each critical constraint's share by `rho_k ^ rhoExponent` in the surrogate weight,
   * `a_i = sum over critical k of (weights[k][i] / capacities[k]) · rho_k ^ rhoExponent`, where
   * `rho_k` = (weight of the items not discarded) / capacity. 0 is the paper's (Eilon's) surrogate;
   * 2 to 4 make the more over-requested constraints count more, which closed about half of the
   * remaining gap to the optimum on the Table 1 workload (see the README).
   * @defaultValue `0`
   */
  readonly rhoExponent?: number;
}

/** The keys of {@link MkpGreedyOptions}, all of them (checked by the compiler). Internal. */
export const GREEDY_KEYS = optionKeys<MkpGreedyOptions>({
  costs: true,
  reweight: true,
  strategy: true,
  rhoExponent: true,
});

interface ResolvedGreedyOptions {
  readonly costs: Float64Array;
  readonly reweight: boolean;
  readonly strategy: "fill" | "drop";
  readonly rhoExponent: number;
}

const WHERE = "@sched/knapsack/mkpGreedy";

/**
 * The greedy's options other than `costs`, defaults filled and checked; errors name `where` and
 * `field`. Internal: shared by {@link mkpGreedy} and `preMatch` (which checks its `greedy`
 * option once, whichever solver runs).
 */
export function resolveGreedyChoices(
  where: string,
  field: string,
  o: Omit<MkpGreedyOptions, "costs">,
): Omit<ResolvedGreedyOptions, "costs"> {
  const reweight = requireBoolean(where, `${field}.reweight`, o.reweight ?? true);
  const strategy = o.strategy ?? "drop";
  requireOneOf(where, `${field}.strategy`, strategy, ["fill", "drop"]);
  const rhoExponent = checkNumber(where, `${field}.rhoExponent`, o.rhoExponent ?? 0, 0);
  return { reweight, strategy, rhoExponent };
}

function resolveOptions(
  inst: DenseInstance,
  options: MkpGreedyOptions | undefined,
): ResolvedGreedyOptions {
  const o = requireKnownKeys(WHERE, "options", options, GREEDY_KEYS) ?? {};
  const { reweight, strategy, rhoExponent } = resolveGreedyChoices(WHERE, "options", o);
  let costs = inst.v;
  if (o.costs !== undefined) {
    if (o.costs === null || typeof o.costs !== "object" || o.costs.length !== inst.n) {
      throw new InvalidInputError(
        WHERE,
        "options.costs",
        `has length ${o.costs?.length ?? "none"}, expected ${inst.n} (one per value)`,
      );
    }
    costs = new Float64Array(inst.n);
    for (let i = 0; i < inst.n; i++) {
      costs[i] = checkNumber(WHERE, `options.costs[${i}]`, o.costs[i], Number.NEGATIVE_INFINITY);
    }
  }
  return { costs, reweight, strategy, rhoExponent };
}

const EPS = Number.EPSILON;
const UNDECIDED = 0;
const TAKEN = 1;
const DISCARDED = 2;

/**
 * An instance by its nonzero weights, listed both ways. Internal: the greedy's loops then cost
 * the number of nonzero weights, not `n·m` (license knapsacks are sparse: a job asks for a few
 * of the critical licenses).
 */
export interface SparseInstance {
  readonly n: number;
  readonly m: number;
  readonly v: Float64Array;
  readonly c: Float64Array;
  /** Item `i`'s nonzero weights: constraint `itemK[p]` (ascending), weight `itemW[p]`, p in [itemStart[i], itemStart[i + 1]). */
  readonly itemStart: Int32Array;
  readonly itemK: Int32Array;
  readonly itemW: Float64Array;
  /** Constraint `k`'s nonzero weights: item `consI[p]` (ascending), weight `consW[p]`, p in [consStart[k], consStart[k + 1]). */
  readonly consStart: Int32Array;
  readonly consI: Int32Array;
  readonly consW: Float64Array;
}

/**
 * The sparse instance of item lists (`itemK` ascending within each item, weights nonzero):
 * adds the constraint lists (items ascending). O(n + m + nonzeros).
 */
export function sparseFromItems(
  n: number,
  m: number,
  v: Float64Array,
  c: Float64Array,
  itemStart: Int32Array,
  itemK: Int32Array,
  itemW: Float64Array,
): SparseInstance {
  const nnz = itemStart[n] as number;
  const consStart = new Int32Array(m + 1);
  for (let p = 0; p < nnz; p++) consStart[(itemK[p] as number) + 1]!++;
  for (let k = 0; k < m; k++)
    consStart[k + 1] = (consStart[k + 1] as number) + (consStart[k] as number);
  const next = consStart.slice(0, m);
  const consI = new Int32Array(nnz);
  const consW = new Float64Array(nnz);
  for (let i = 0; i < n; i++) {
    for (let p = itemStart[i] as number; p < (itemStart[i + 1] as number); p++) {
      const k = itemK[p] as number;
      const at = next[k]!++;
      consI[at] = i;
      consW[at] = itemW[p] as number;
    }
  }
  return { n, m, v, c, itemStart, itemK, itemW, consStart, consI, consW };
}

/** The nonzero weights of a dense instance (a weight of 0 or -0 is left out). O(n·m). */
export function sparseOf(inst: DenseInstance): SparseInstance {
  const { n, m, v, w, c } = inst;
  let nnz = 0;
  for (let p = 0; p < n * m; p++) if ((w[p] as number) !== 0) nnz++;
  const itemStart = new Int32Array(n + 1);
  const itemK = new Int32Array(nnz);
  const itemW = new Float64Array(nnz);
  let p = 0;
  for (let i = 0; i < n; i++) {
    itemStart[i] = p;
    for (let k = 0; k < m; k++) {
      const x = w[k * n + i] as number;
      if (x === 0) continue;
      itemK[p] = k;
      itemW[p++] = x;
    }
  }
  itemStart[n] = p;
  return sparseFromItems(n, m, v, c, itemStart, itemK, itemW);
}

/**
 * The surrogate greedy on a validated instance; returns the chosen items, ascending.
 * Exposed inside the package so the exact solver can seed its incumbent with it.
 */
export function greedyItems(inst: DenseInstance, opts: ResolvedGreedyOptions): number[] {
  return sparseGreedyItems(sparseOf(inst), opts);
}

/**
 * {@link greedyItems} on a sparse instance: the same decisions and the same floating-point
 * sums in the same order. A weight of 0 changes no sum, never makes an item too heavy or a
 * constraint critical, and never fails a fit (the used copies never exceed a capacity), so the
 * loops skip them. O(nonzeros) per pass instead of O(n·m).
 */
export function sparseGreedyItems(inst: SparseInstance, opts: ResolvedGreedyOptions): number[] {
  const { n, m, v, c, itemStart, itemK, itemW, consStart, consI, consW } = inst;
  const { costs, reweight, rhoExponent } = opts;
  const status = new Int8Array(n);
  const demand = new Float64Array(m);
  const used = new Float64Array(m);
  const critical = new Uint8Array(m);
  const a = new Float64Array(n);
  const ratio = new Float64Array(n);
  /** Number of critical constraints on which the item has a positive weight. */
  const onCritical = new Int32Array(n);

  // Items that can never be chosen: value <= 0 (cannot raise the total) or too heavy alone.
  for (let i = 0; i < n; i++) {
    let ok = (v[i] as number) > 0;
    const end = itemStart[i + 1] as number;
    for (let p = itemStart[i] as number; ok && p < end; p++)
      if ((itemW[p] as number) > (c[itemK[p] as number] as number)) ok = false;
    if (!ok) status[i] = DISCARDED;
  }
  let criticalCount = 0;
  for (let k = 0; k < m; k++) {
    let d = 0;
    const start = consStart[k] as number;
    const end = consStart[k + 1] as number;
    for (let p = start; p < end; p++)
      if (status[consI[p] as number] !== DISCARDED) d += consW[p] as number;
    demand[k] = d;
    if (d > (c[k] as number)) {
      critical[k] = 1;
      criticalCount++;
      for (let p = start; p < end; p++)
        if ((consW[p] as number) > 0) onCritical[consI[p] as number]!++;
    }
  }
  const setRatio = (i: number): void => {
    const s = a[i] as number;
    ratio[i] = s <= 0 ? Number.POSITIVE_INFINITY : (costs[i] as number) / s;
  };
  // a_i = sum over critical k of (w_ki / c_k) · rho_k^e; c_k > 0 whenever w_ki > 0 here.
  const computeRatios = (): void => {
    for (let i = 0; i < n; i++) {
      if (status[i] !== UNDECIDED) continue;
      let s = 0;
      const end = itemStart[i + 1] as number;
      for (let p = itemStart[i] as number; p < end; p++) {
        const k = itemK[p] as number;
        if (critical[k] !== 1) continue;
        const share = (itemW[p] as number) / (c[k] as number);
        s +=
          rhoExponent === 0
            ? share
            : share * ((demand[k] as number) / (c[k] as number)) ** rhoExponent;
      }
      a[i] = s;
      setRatio(i);
    }
  };
  // Whether item i fits by the rule every result is checked by (`fitsAll`): each load of the
  // taken items and i, summed in item order, within its capacity. `used` is the running sum in
  // the order items were taken; it differs from that plain sum by at most (items on k)·ε·load,
  // so it decides alone outside a slack of 4·(items on k + 1)·ε·capacity, and the plain sum is
  // computed only inside it (a load that fills a decimal capacity within a few ulps). On a
  // constraint whose weights are integers summing to at most 2^53 every sum is exact: no slack.
  const below = new Float64Array(m);
  const above = new Float64Array(m);
  for (let k = 0; k < m; k++) {
    const cap = c[k] as number;
    const first = consStart[k] as number;
    const last = consStart[k + 1] as number;
    let total = 0;
    let integral = true;
    for (let q = first; integral && q < last; q++) {
      const x = consW[q] as number;
      integral = Number.isInteger(x);
      total += x;
    }
    const slack = integral && total <= 2 ** 53 ? 0 : 4 * (last - first + 1) * EPS * cap;
    below[k] = cap - slack;
    above[k] = cap + slack;
  }
  const plainLoadWith = (k: number, i: number): number => {
    let load = 0;
    const last = consStart[k + 1] as number;
    for (let q = consStart[k] as number; q < last; q++) {
      const j = consI[q] as number;
      if (j === i || status[j] === TAKEN) load += consW[q] as number;
    }
    return load;
  };
  const fits = (i: number): boolean => {
    const end = itemStart[i + 1] as number;
    for (let p = itemStart[i] as number; p < end; p++) {
      const k = itemK[p] as number;
      const load = (used[k] as number) + (itemW[p] as number);
      if (load <= (below[k] as number)) continue;
      if (load > (above[k] as number) || plainLoadWith(k, i) > (c[k] as number)) return false;
    }
    return true;
  };
  const take = (i: number): void => {
    status[i] = TAKEN;
    const end = itemStart[i + 1] as number;
    for (let p = itemStart[i] as number; p < end; p++) {
      const k = itemK[p] as number;
      used[k] = (used[k] as number) + (itemW[p] as number);
    }
  };
  /**
   * Discards `i`, updating demands, critical constraints and (when reweighting) the ratios;
   * `raised(j)` is told of each item whose ratio a constraint leaving the critical set raised.
   */
  const discard = (i: number, raised?: (j: number) => void): void => {
    status[i] = DISCARDED;
    const end = itemStart[i + 1] as number;
    for (let p = itemStart[i] as number; p < end; p++) {
      const k = itemK[p] as number;
      demand[k] = (demand[k] as number) - (itemW[p] as number);
      if (critical[k] === 0 || (demand[k] as number) > (c[k] as number)) continue;
      // Constraint k stops being critical.
      critical[k] = 0;
      criticalCount--;
      const last = consStart[k + 1] as number;
      for (let q = consStart[k] as number; q < last; q++) {
        const j = consI[q] as number;
        const wj = consW[q] as number;
        onCritical[j]!--;
        if (reweight && rhoExponent === 0 && status[j] === UNDECIDED) {
          a[j] = onCritical[j] === 0 ? 0 : (a[j] as number) - wj / (c[k] as number);
          setRatio(j);
          raised?.(j);
        }
      }
    }
    if (reweight && rhoExponent !== 0) computeRatios();
  };
  // The undecided item with the largest (fill) or smallest (drop, among items on a critical
  // constraint) ratio; ties: lowest index for fill, highest for drop.
  const pick = (best: boolean): number => {
    let found = -1;
    for (let i = 0; i < n; i++) {
      if (status[i] !== UNDECIDED) continue;
      if (best) {
        if (found < 0 || (ratio[i] as number) > (ratio[found] as number)) found = i;
      } else if (
        onCritical[i]! > 0 &&
        (found < 0 || (ratio[i] as number) <= (ratio[found] as number))
      ) {
        found = i;
      }
    }
    return found;
  };

  computeRatios();
  // With rhoExponent 0 a discard only raises the ratios of the items on the constraints that
  // stop being critical (and onCritical only falls), so the drop phase can take its picks from
  // a heap with lazy deletion instead of a scan per pick: O((n + updates) log n) instead of
  // O(n^2). Same picks (smallest ratio, then highest index), same result.
  if (opts.strategy !== "fill" && rhoExponent === 0) {
    const heap = new DropHeap(n);
    for (let i = 0; i < n; i++)
      if (status[i] === UNDECIDED && onCritical[i]! > 0) heap.add(i, ratio[i] as number);
    heap.heapify();
    const dropped: number[] = [];
    const requeue = (j: number): void => {
      if (onCritical[j]! > 0) heap.push(j, ratio[j] as number);
    };
    while (criticalCount > 0) {
      let worst = -1;
      while (heap.size > 0) {
        const i = heap.pop();
        if (status[i] === UNDECIDED && onCritical[i]! > 0 && heap.popped === ratio[i]) {
          worst = i;
          break;
        }
      }
      if (worst < 0) break; // cannot happen: a critical constraint has an undecided item on it
      dropped.push(worst);
      discard(worst, requeue);
    }
    // Ratios no longer change: take the rest in rank order (largest ratio, then lowest index).
    const rest: number[] = [];
    for (let i = 0; i < n; i++) if (status[i] === UNDECIDED) rest.push(i);
    rest.sort((x, y) => {
      const rx = ratio[x] as number;
      const ry = ratio[y] as number;
      return rx === ry ? x - y : rx > ry ? -1 : 1;
    });
    for (const i of rest) {
      if (fits(i)) take(i);
      else status[i] = DISCARDED;
    }
    for (let p = dropped.length - 1; p >= 0; p--) {
      const i = dropped[p] as number;
      if (fits(i)) take(i);
    }
  } else if (opts.strategy === "fill") {
    for (let i = pick(true); i >= 0; i = pick(true)) {
      if (fits(i)) take(i);
      else discard(i);
    }
  } else {
    const dropped: number[] = [];
    while (criticalCount > 0) {
      const worst = pick(false);
      if (worst < 0) break; // cannot happen: a critical constraint has an undecided item on it
      dropped.push(worst);
      discard(worst);
    }
    // No constraint is critical: the rest fit together (checked anyway, against rounding).
    for (let i = pick(true); i >= 0; i = pick(true)) {
      if (fits(i)) take(i);
      else status[i] = DISCARDED;
    }
    // Add back what still fits, last discarded (the best of the discarded) first.
    for (let p = dropped.length - 1; p >= 0; p--) {
      const i = dropped[p] as number;
      if (fits(i)) take(i);
    }
  }
  const items: number[] = [];
  for (let i = 0; i < n; i++) if (status[i] === TAKEN) items.push(i);
  return items;
}

/**
 * Min-heap of (item, ratio) ordered by ratio ascending, then item descending (the drop
 * phase's pick); stale entries are skipped by the caller.
 */
class DropHeap {
  #item: Int32Array;
  #ratio: Float64Array;
  size = 0;

  constructor(capacity: number) {
    this.#item = new Int32Array(Math.max(4, capacity));
    this.#ratio = new Float64Array(Math.max(4, capacity));
  }

  #less(a: number, b: number): boolean {
    const ra = this.#ratio[a] as number;
    const rb = this.#ratio[b] as number;
    return ra < rb || (ra === rb && (this.#item[a] as number) > (this.#item[b] as number));
  }

  #swap(a: number, b: number): void {
    const i = this.#item[a] as number;
    this.#item[a] = this.#item[b] as number;
    this.#item[b] = i;
    const r = this.#ratio[a] as number;
    this.#ratio[a] = this.#ratio[b] as number;
    this.#ratio[b] = r;
  }

  /** Appends without ordering: call {@link heapify} before any `push` or `pop`. */
  add(item: number, ratio: number): void {
    this.#grow();
    this.#item[this.size] = item;
    this.#ratio[this.size++] = ratio;
  }

  /** Orders the entries added (Floyd, O(size)). */
  heapify(): void {
    for (let k = (this.size >> 1) - 1; k >= 0; k--) this.#down(k);
  }

  #grow(): void {
    if (this.size === this.#item.length) {
      const items = new Int32Array(this.size * 2);
      items.set(this.#item);
      this.#item = items;
      const ratios = new Float64Array(this.size * 2);
      ratios.set(this.#ratio);
      this.#ratio = ratios;
    }
  }

  push(item: number, ratio: number): void {
    this.#grow();
    let k = this.size++;
    this.#item[k] = item;
    this.#ratio[k] = ratio;
    while (k > 0) {
      const p = (k - 1) >> 1;
      if (!this.#less(k, p)) break;
      this.#swap(k, p);
      k = p;
    }
  }

  /** The ratio of the entry {@link pop} returned last. */
  popped = 0;

  /** Removes the smallest entry; returns its item (its ratio goes to {@link popped}). */
  pop(): number {
    const top = this.#item[0] as number;
    this.popped = this.#ratio[0] as number;
    this.size--;
    if (this.size > 0) {
      this.#item[0] = this.#item[this.size] as number;
      this.#ratio[0] = this.#ratio[this.size] as number;
      this.#down(0);
    }
    return top;
  }

  #down(from: number): void {
    let k = from;
    for (;;) {
      const l = 2 * k + 1;
      if (l >= this.size) break;
      const r = l + 1;
      const c = r < this.size && this.#less(r, l) ? r : l;
      if (!this.#less(c, k)) break;
      this.#swap(c, k);
      k = c;
    }
  }
}

/**
 * The paper's greedy for the multidimensional 0-1 knapsack (convergent scheduling, section 4.2):
 * Eilon's surrogate turns the MKP into one knapsack whose item weight is
 * `a_i = sum over critical constraints k of weights[k][i] / capacities[k]` (a constraint is
 * critical when the items not yet discarded ask for more than its capacity, the paper's
 * `rho_l > 1`); items are ranked by `c_i / a_i` (`c_i` = value, or `options.costs`; items on no
 * critical constraint, `a_i = 0`, rank first). By default (`strategy: "drop"`) the lowest-ranked
 * item on a critical constraint is discarded until no constraint is critical, then discarded
 * items are added back (last discarded first) while they fit; `"fill"` takes items in rank order
 * when they fit. After each discarded item the weights and the ranking are recomputed, because a
 * constraint may stop being critical. Ties: lower index ranks higher (drops go to the higher
 * index).
 *
 * Use it when speed matters more than the last few percent; {@link mkpExact} is the exact
 * counterpart. The result is always feasible and maximal (no unchosen item with a positive value
 * would still fit), `optimal` is `false` (not proven, even when it happens to be). A set fits when
 * each load, summed in item order, is within its capacity (the rule `mkpExact` keeps its sets
 * by), whatever order the items were taken in.
 *
 * Complexity: O(n·m) to copy the instance and list its z nonzero weights; the passes then cost
 * O(z) (zero weights are skipped: they change no sum and no decision); `"drop"` (default) takes
 * its picks from a heap: O((n + u) log n) with u <= z ratio updates (constraints stopping being
 * critical), plus a sort of the rest; `"fill"` scans: O(n) per decision, O(z + n²) in all.
 * A fit test whose running load lands within a few ulps of capacity k sums that load again in
 * item order, O(nonzeros on k), unless k's weights are integers (exact sums: never).
 * O(n + m + z) extra space. With `rhoExponent > 0` every discard recomputes all weights:
 * O(n² + n·z).
 *
 * @throws InvalidInputError on a malformed instance (field named) or bad options.
 * @example
 * mkpGreedy({ values: [10, 7, 6], weights: [[4, 3, 3], [1, 2, 2]], capacities: [6, 4] });
 * // => { items: [0], value: 10, optimal: false } (mkpExact finds [1, 2], value 13)
 */
export function mkpGreedy(instance: MkpInstance, options?: MkpGreedyOptions): KnapsackResult {
  const inst = readMkpInstance(WHERE, instance);
  const opts = resolveOptions(inst, options);
  const items = greedyItems(inst, opts);
  return { items, value: sumValues(inst.v, items), optimal: false };
}

/** Default greedy options on a validated instance (used by the exact solver for its incumbent). */
export function defaultGreedyOptions(inst: DenseInstance): ResolvedGreedyOptions {
  return { costs: inst.v, reweight: true, strategy: "drop", rhoExponent: 0 };
}
