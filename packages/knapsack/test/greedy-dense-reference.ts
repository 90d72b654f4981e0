// The surrogate greedy as it was before it ran on sparse instances (dense loops over every
// constraint and item), kept as the reference its sparse form must equal bit for bit. Its one
// change since: a fit is the plain sum in item order, recomputed (the sparse form keeps running
// sums and recomputes only near a capacity). Test-only.
import type { DenseInstance } from "../src/instance.js";

interface ResolvedGreedyOptions {
  readonly costs: Float64Array;
  readonly reweight: boolean;
  readonly strategy: "fill" | "drop";
  readonly rhoExponent: number;
}

const UNDECIDED = 0;
const TAKEN = 1;
const DISCARDED = 2;

/** The surrogate greedy on a validated dense instance; the chosen items, ascending. */
export function denseGreedyItems(inst: DenseInstance, opts: ResolvedGreedyOptions): number[] {
  const { n, m, v, w, c } = inst;
  const { costs, reweight, rhoExponent } = opts;
  const status = new Int8Array(n);
  const demand = new Float64Array(m);
  const critical = new Uint8Array(m);
  const a = new Float64Array(n);
  const ratio = new Float64Array(n);
  /** Number of critical constraints on which the item has a positive weight. */
  const onCritical = new Int32Array(n);

  // Items that can never be chosen: value <= 0 (cannot raise the total) or too heavy alone.
  for (let i = 0; i < n; i++) {
    let ok = (v[i] as number) > 0;
    for (let k = 0; ok && k < m; k++) if ((w[k * n + i] as number) > (c[k] as number)) ok = false;
    if (!ok) status[i] = DISCARDED;
  }
  let criticalCount = 0;
  for (let k = 0; k < m; k++) {
    let d = 0;
    for (let i = 0; i < n; i++) if (status[i] !== DISCARDED) d += w[k * n + i] as number;
    demand[k] = d;
    if (d > (c[k] as number)) {
      critical[k] = 1;
      criticalCount++;
      for (let i = 0; i < n; i++) if ((w[k * n + i] as number) > 0) onCritical[i]!++;
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
      for (let k = 0; k < m; k++) {
        const wi = w[k * n + i] as number;
        if (critical[k] !== 1 || wi === 0) continue;
        const share = wi / (c[k] as number);
        s +=
          rhoExponent === 0
            ? share
            : share * ((demand[k] as number) / (c[k] as number)) ** rhoExponent;
      }
      a[i] = s;
      setRatio(i);
    }
  };
  // The fit rule every result is checked by: each load of the taken items and i, summed in
  // item order, within its capacity (the plain definition, recomputed at every test).
  const fits = (i: number): boolean => {
    for (let k = 0; k < m; k++) {
      let load = 0;
      for (let j = 0; j < n; j++)
        if (j === i || status[j] === TAKEN) load += w[k * n + j] as number;
      if (load > (c[k] as number)) return false;
    }
    return true;
  };
  const take = (i: number): void => {
    status[i] = TAKEN;
  };
  /**
   * Discards `i`, updating demands, critical constraints and (when reweighting) the ratios;
   * `raised(j)` is told of each item whose ratio a constraint leaving the critical set raised.
   */
  const discard = (i: number, raised?: (j: number) => void): void => {
    status[i] = DISCARDED;
    for (let k = 0; k < m; k++) {
      const wi = w[k * n + i] as number;
      if (wi === 0) continue;
      demand[k] = (demand[k] as number) - wi;
      if (critical[k] === 0 || (demand[k] as number) > (c[k] as number)) continue;
      // Constraint k stops being critical.
      critical[k] = 0;
      criticalCount--;
      for (let j = 0; j < n; j++) {
        const wj = w[k * n + j] as number;
        if (wj === 0) continue;
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
      if (status[i] === UNDECIDED && onCritical[i]! > 0) heap.push(i, ratio[i] as number);
    const dropped: number[] = [];
    const requeue = (j: number): void => {
      if (onCritical[j]! > 0) heap.push(j, ratio[j] as number);
    };
    while (criticalCount > 0) {
      let worst = -1;
      while (heap.size > 0) {
        const [i, r] = heap.pop();
        if (status[i] === UNDECIDED && onCritical[i]! > 0 && r === ratio[i]) {
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

  push(item: number, ratio: number): void {
    if (this.size === this.#item.length) {
      const items = new Int32Array(this.size * 2);
      items.set(this.#item);
      this.#item = items;
      const ratios = new Float64Array(this.size * 2);
      ratios.set(this.#ratio);
      this.#ratio = ratios;
    }
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

  pop(): [number, number] {
    const top: [number, number] = [this.#item[0] as number, this.#ratio[0] as number];
    this.size--;
    if (this.size > 0) {
      this.#item[0] = this.#item[this.size] as number;
      this.#ratio[0] = this.#ratio[this.size] as number;
      let k = 0;
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
    return top;
  }
}
