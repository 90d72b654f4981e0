import type { OasInstance } from "./oas-instance.js";

/**
 * The `"exhaustive"` candidate set's best allocation, found without enumerating the splits.
 * Internal: the heuristics' and the slotted list schedule's inner loop (README, Interpretation,
 * Heuristics; Complexity).
 *
 * Every split of a job's `tau` tasks over the clusters, each cluster's share `t_k` on its fastest
 * free resources, is scored by a stage (`ct`, or the slots it needs, both non-decreasing in the
 * slowdown `SP` of its slowest resource, eq. 3), then by its total eq.-4 link demand. So:
 *
 * 1. Thresholds: for each distinct slowdown `v` of the free resources, ascending, grouped by
 *    equal stage, each cluster may use its fastest resources up to the group's largest `v`
 *    (a prefix of its free resources, cut short where `limitsOf` says a resource is unusable).
 * 2. Feasibility and least demand: a dynamic program over links (the clusters sharing a link
 *    together) and tasks placed gives the least total demand of a split within those caps that
 *    keeps every link within its bandwidth (`base + demand <= bandwidth * (1 + 1e-9)`, as the
 *    enumeration checks). The first group with a feasible split sets the stage.
 * 3. Ties, as the enumeration breaks them: the splits of that stage whose demand is within a
 *    relative 1e-9 of the least (the near-ties: equal demands summed in another order differ in
 *    the last bits) are listed in the enumeration's order, pruned by the least demand of the
 *    clusters left, and scored as the enumeration scores them (float sums per link in cluster
 *    order, then over the links); the least float total wins, the union's candidates first,
 *    then the first listed. A least demand of 0 needs no listing (its ties are exact zeros), and
 *    beyond {@link NEAR_TIES} near-ties (many interchangeable clusters) the first in the
 *    enumeration's order among them wins, found greedily one cluster at a time, each choice
 *    checked by the same program over the clusters left.
 *
 * Complexity: O(R log R * clusters + stages * links * tau^2 + clusters * tau^2 * (links +
 * near-ties)) per call.
 */

/** What the caller allows at one stage: the links' current loads and which resources it may use. */
export interface StageLimits {
  /** Load already on each link, bytes/s (the largest over the job's slots for a slotted schedule). */
  readonly base: ArrayLike<number>;
  /** Whether free resource `r` may be used (`undefined`: all). */
  readonly usable?: (r: number) => boolean;
}

/** Relative distance from the least total demand within which splits are near-ties. */
export const DEMAND_TIE = 1e-9;

/**
 * The most near-ties scored one by one as the enumeration scores them; beyond, the first in the
 * enumeration's order among them.
 */
export const NEAR_TIES = 1000;

/**
 * The resources (sorted by index) of the best split of job `j`'s tasks over the free resources:
 * the smallest `stageOf(SP)`, then the least total link demand as the enumeration sums it, then
 * the first in the `"exhaustive"` enumeration's order (`unionCandidates`, the union's
 * candidates in order, then most tasks in the lowest clusters). `limitsOf(stage)` gives the
 * loads and usable resources for a stage, or `null` when nothing of that stage fits (the
 * horizon). `null` when no split fits.
 */
export function bestSplit(
  inst: OasInstance,
  j: number,
  free: ArrayLike<number>,
  unionCandidates: readonly (readonly number[])[],
  stageOf: (sp: number) => number,
  limitsOf: (stage: number) => StageLimits | null,
): number[] | null {
  const R = inst.resourceMachine.length;
  const tau = inst.tasks[j]!;
  const K = inst.clusterSize.length;
  const slow = (r: number) => inst.slowdown[j * R + r]!;
  const order: number[] = [];
  for (let r = 0; r < R; r++) if (free[r]) order.push(r);
  if (order.length < tau) return null;
  order.sort((a, b) => slow(a) - slow(b) || a - b);
  const byCluster: number[][] = Array.from({ length: K }, () => []);
  for (const r of order) byCluster[inst.resourceCluster[r]!]!.push(r);
  const model = new SplitModel(inst, j);
  const unionSplits = unionCandidates.map((res) => {
    const t = new Int32Array(K);
    for (const r of res) t[inst.resourceCluster[r]!]! += 1;
    return t;
  });
  const values: number[] = [];
  for (const r of order)
    if (values.length === 0 || values[values.length - 1] !== slow(r)) values.push(slow(r));
  for (let i = 0; i < values.length; ) {
    const stage = stageOf(values[i]!);
    while (i + 1 < values.length && stageOf(values[i + 1]!) === stage) i++;
    const threshold = values[i]!;
    i++;
    const limits = limitsOf(stage);
    if (limits === null) continue;
    const caps = new Int32Array(K);
    for (let k = 0; k < K; k++) {
      const list = byCluster[k]!;
      let c = 0;
      while (
        c < list.length &&
        c < tau &&
        slow(list[c]!) <= threshold &&
        (limits.usable === undefined || limits.usable(list[c]!))
      )
        c++;
      caps[k] = c;
    }
    const split = model.choose(caps, limits.base, unionSplits);
    if (split === null) continue;
    const pick: number[] = [];
    for (let k = 0; k < K; k++) pick.push(...byCluster[k]!.slice(0, split[k]!));
    return pick.sort((a, b) => a - b);
  }
  return null;
}

/**
 * One job's splits as a dynamic program: `groups` of clusters behind one link (or one cluster
 * without a link), eq.-4 demand per cluster share, link capacities as the enumeration checks them.
 */
class SplitModel {
  private readonly tau: number;
  private readonly K: number;
  /** Each group's clusters, ascending; the group's link (-1: none). */
  private readonly groups: { clusters: number[]; link: number }[] = [];
  private readonly groupOf: Int32Array;
  private readonly cap: Float64Array;
  private readonly ptbw: number;
  private readonly clusterLink: Int32Array;

  constructor(inst: OasInstance, j: number) {
    this.tau = inst.tasks[j]!;
    this.K = inst.clusterSize.length;
    this.ptbw = inst.ptbw[j]!;
    this.clusterLink = inst.clusterLink;
    const links = inst.platform.links;
    this.cap = new Float64Array(links.length);
    for (let l = 0; l < links.length; l++) this.cap[l] = links[l]!.bandwidth * (1 + 1e-9);
    this.groupOf = new Int32Array(this.K);
    const byLink = new Map<number, number>();
    for (let k = 0; k < this.K; k++) {
      const l = inst.clusterLink[k]!;
      const known = l >= 0 ? byLink.get(l) : undefined;
      if (known !== undefined) {
        this.groups[known]!.clusters.push(k);
        this.groupOf[k] = known;
      } else {
        this.groupOf[k] = this.groups.length;
        if (l >= 0) byLink.set(l, this.groups.length);
        this.groups.push({ clusters: [k], link: l });
      }
    }
  }

  /** Eq. 4 for `t` tasks in cluster `k`, as `linkDemand` computes it (0 without a link). */
  private demand(k: number, t: number): number {
    const tau = this.tau;
    if (this.clusterLink[k]! < 0 || tau <= 1 || t <= 0 || t >= tau) return 0;
    return (t * this.ptbw * (tau - t)) / (tau - 1);
  }

  /** Whether `demand` on group `g`'s link, over `base`, passes the enumeration's check. */
  private fits(g: number, demand: number, base: ArrayLike<number>): boolean {
    const l = this.groups[g]!.link;
    return l < 0 || !(demand > 0 && base[l]! + demand > this.cap[l]!);
  }

  /** Least demand of `clusters` (each up to `caps`) for each number of tasks, before any check. */
  private least(clusters: readonly number[], caps: Int32Array): Float64Array<ArrayBuffer> {
    const tau = this.tau;
    let cur = new Float64Array(tau + 1).fill(Number.POSITIVE_INFINITY);
    cur[0] = 0;
    let reach = 0;
    for (const k of clusters) {
      const c = Math.min(caps[k]!, tau);
      const next = new Float64Array(tau + 1).fill(Number.POSITIVE_INFINITY);
      for (let m = 0; m <= reach; m++) {
        const v = cur[m]!;
        if (v === Number.POSITIVE_INFINITY) continue;
        for (let t = 0; t <= c && m + t <= tau; t++) {
          const x = v + this.demand(k, t);
          if (x < next[m + t]!) next[m + t] = x;
        }
      }
      reach = Math.min(tau, reach + c);
      cur = next;
    }
    return cur;
  }

  /** Min-plus product of two tables over 0..tau. */
  private combine(a: Float64Array, b: Float64Array): Float64Array<ArrayBuffer> {
    const tau = this.tau;
    const out = new Float64Array(tau + 1).fill(Number.POSITIVE_INFINITY);
    for (let m = 0; m <= tau; m++) {
      const x = a[m]!;
      if (x === Number.POSITIVE_INFINITY) continue;
      for (let n = 0; m + n <= tau; n++) {
        const y = b[n]!;
        if (y !== Number.POSITIVE_INFINITY && x + y < out[m + n]!) out[m + n] = x + y;
      }
    }
    return out;
  }

  /** Whether split `t` stays within `caps`. */
  private within(t: Int32Array, caps: Int32Array): boolean {
    for (let k = 0; k < this.K; k++) if (t[k]! > caps[k]!) return false;
    return true;
  }

  /**
   * The total demand of split `t` as the enumeration computes it (per link in cluster order,
   * then over the links in order), or `null` when a link fails the enumeration's check.
   */
  private score(t: ArrayLike<number>, base: ArrayLike<number>): number | null {
    const perLink = new Float64Array(this.cap.length);
    for (let k = 0; k < this.K; k++) {
      const l = this.clusterLink[k]!;
      if (l >= 0) perLink[l]! += this.demand(k, t[k]!);
    }
    for (let l = 0; l < perLink.length; l++) {
      if (perLink[l]! > 0 && base[l]! + perLink[l]! > this.cap[l]!) return null;
    }
    return perLink.reduce((a, b) => a + b, 0);
  }

  /**
   * The enumeration's own pick among the splits within `caps` whose demand is at most `bound`:
   * every such split is listed (most tasks in the lowest clusters first, pruned by the least
   * demand of the clusters left, each share checked against its own link), scored as the
   * enumeration scores them, and the least total wins, the union's candidates first, then the
   * first listed. `undefined` when more than {@link NEAR_TIES} splits (or 50 times as many
   * partial ones) are near the least.
   */
  private nearTies(
    caps: Int32Array,
    base: ArrayLike<number>,
    bound: number,
    unionSplits: readonly Int32Array[],
  ): Int32Array | null | undefined {
    const tau = this.tau;
    const K = this.K;
    const INF = Number.POSITIVE_INFINITY;
    // rest[k][m]: least demand of clusters k.. for m tasks, each share within its own link
    const rest: Float64Array[] = new Array(K + 1);
    rest[K] = new Float64Array(tau + 1).fill(INF);
    rest[K]![0] = 0;
    for (let k = K - 1; k >= 0; k--) {
      const own = new Float64Array(tau + 1).fill(INF);
      const l = this.clusterLink[k]!;
      for (let c = 0; c <= Math.min(caps[k]!, tau); c++) {
        const d = this.demand(k, c);
        if (l < 0 || !(d > 0 && base[l]! + d > this.cap[l]!)) own[c] = d;
      }
      rest[k] = this.combine(own, rest[k + 1]!);
    }
    const found: { t: Int32Array; total: number }[] = [];
    const t = new Int32Array(K);
    let visits = 0;
    let over = false;
    const walk = (k: number, left: number, sum: number): void => {
      if (over) return;
      if (++visits > NEAR_TIES * 50) {
        over = true;
        return;
      }
      if (k === K) {
        const total = this.score(t, base);
        if (total !== null && total <= bound) {
          found.push({ t: t.slice(), total });
          if (found.length > NEAR_TIES) over = true;
        }
        return;
      }
      for (let c = Math.min(caps[k]!, left); c >= 0 && !over; c--) {
        const d = sum + this.demand(k, c);
        if (d + rest[k + 1]![left - c]! > bound) continue;
        t[k] = c;
        walk(k + 1, left - c, d);
      }
      t[k] = 0;
    };
    walk(0, tau, 0);
    if (over || found.length === 0) return undefined;
    let min = INF;
    for (const f of found) if (f.total < min) min = f.total;
    for (const u of unionSplits) if (this.within(u, caps) && this.score(u, base) === min) return u;
    return found.find((f) => f.total === min)!.t;
  }

  /**
   * The split (tasks per cluster) chosen among those within `caps` that pass the link check over
   * `base`: least total demand (ties within {@link DEMAND_TIE}), then the first union split, then
   * the lexicographically largest. `null` when none passes.
   */
  choose(
    caps: Int32Array,
    base: ArrayLike<number>,
    unionSplits: readonly Int32Array[],
  ): Int32Array | null {
    const tau = this.tau;
    const K = this.K;
    const G = this.groups.length;
    // least total: each group's least demand per task count (infeasible: Infinity), combined
    let all = new Float64Array(tau + 1).fill(Number.POSITIVE_INFINITY);
    all[0] = 0;
    for (let g = 0; g < G; g++) {
      const h = this.least(this.groups[g]!.clusters, caps);
      for (let m = 0; m <= tau; m++)
        if (!this.fits(g, h[m]!, base)) h[m] = Number.POSITIVE_INFINITY;
      all = this.combine(all, h);
    }
    const least = all[tau]!;
    if (least === Number.POSITIVE_INFINITY) return null;
    const bound = least + least * DEMAND_TIE;
    // a least of 0 is exact (every tie is a sum of zeros); otherwise the near-ties, scored as
    // the enumeration scores them, when there are not too many
    if (least > 0) {
      const exact = this.nearTies(caps, base, bound, unionSplits);
      if (exact !== undefined) return exact;
    }
    // the union's candidates first, in their order, then the lexicographically largest
    for (const u of unionSplits) {
      if (this.within(u, caps) && (this.score(u, base) ?? Number.POSITIVE_INFINITY) <= bound) {
        return u;
      }
    }
    // then the lexicographically largest split within the bound, one cluster at a time
    const t = new Int32Array(K);
    const fixed = new Float64Array(G); // demand of the clusters already chosen, per group
    let left = tau;
    for (let k = 0; k < K; k++) {
      const g = this.groupOf[k]!;
      // the other groups: their chosen part plus the least of their clusters after k
      let rest = new Float64Array(tau + 1).fill(Number.POSITIVE_INFINITY);
      rest[0] = 0;
      let own: Float64Array | null = null;
      for (let h = 0; h < G; h++) {
        const after = this.groups[h]!.clusters.filter((c) => c > k);
        const table = this.least(after, caps);
        if (h === g) {
          own = table;
          continue;
        }
        for (let m = 0; m <= tau; m++) {
          const x = fixed[h]! + table[m]!;
          table[m] = this.fits(h, x, base) ? x : Number.POSITIVE_INFINITY;
        }
        rest = this.combine(rest, table);
      }
      let chosen = -1;
      let fallback = -1;
      let fallbackValue = Number.POSITIVE_INFINITY;
      for (let c = Math.min(caps[k]!, left); c >= 0 && chosen < 0; c--) {
        const mine = fixed[g]! + this.demand(k, c);
        let value = Number.POSITIVE_INFINITY;
        for (let m = 0; m <= left - c; m++) {
          const x = mine + own![m]!;
          if (x === Number.POSITIVE_INFINITY || !this.fits(g, x, base)) continue;
          const v = x + rest[left - c - m]!;
          if (v < value) value = v;
        }
        if (value <= bound) chosen = c;
        else if (value < fallbackValue) {
          fallbackValue = value;
          fallback = c;
        }
      }
      // rounding cannot push every completion past a relative 1e-9; should it, keep the least
      if (chosen < 0) chosen = fallback;
      t[k] = chosen;
      fixed[g]! += this.demand(k, chosen);
      left -= chosen;
    }
    return t;
  }
}
