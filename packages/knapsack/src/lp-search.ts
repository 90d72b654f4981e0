import { type Basis, DualSimplex, type LpStatus, type SparseColumns } from "./dual-simplex.js";
import type { DenseInstance } from "./instance.js";
import { localSearch } from "./mkp-local-search.js";

/**
 * The LP-based branch and bound of `mkpExact` for two or more binding constraints; the design
 * and its reasons are in the package README ("How mkpExact proves optimality"). Internal.
 */

/** Pivots one node's linear program may spend before the node counts as unsolved. */
const NODE_PIVOT_CAP = 5000;
/** Strong branching: observations per side that make a pseudocost reliable, ... */
const RELIABILITY = 1;
/** ... candidates measured at most per node, pivots per child LP, ... */
const STRONG_CANDIDATES = 8;
const STRONG_PIVOTS = 30;
/** ... and candidates examined without a better score before the choice stops. */
const LOOKAHEAD = 4;
/**
 * Saved bases keep a copy of their inverse (m² numbers, so a child skips the refactorisation)
 * while the copies of the open nodes fit in this many bytes (64 MB: 4 760 nodes at m = 41).
 */
const INVERSE_CACHE_BYTES = 64 * 1024 * 1024;
/** Distance from 0 or 1 below which an LP value counts as integral. */
const INTEGRALITY_TOLERANCE = 1e-7;

/** What the search needs: the instance, its reduction and the starting incumbent. */
export interface LpSearchInput {
  readonly inst: DenseInstance;
  /** The binding constraints (two or more). */
  readonly rows: readonly number[];
  /** The items to decide (positive value, fit alone, weight on some binding row). */
  readonly free: readonly number[];
  /** Items taken in every solution (no weight on any binding row). */
  readonly always: readonly number[];
  /** A feasible solution to start from (item indices). */
  readonly start: readonly number[];
  readonly nodeLimit: number;
}

/** The search's outcome; `bound` is valid for the whole instance (always-taken items included). */
export interface LpSearchResult {
  readonly items: readonly number[];
  readonly optimal: boolean;
  readonly bound: number;
  readonly nodes: number;
}

/**
 * A search node: the bound changes that lead to it from its parent, as triples (variable, lo,
 * up) over the LP's variables (items, then the rows' slacks): the parent's reduced-cost fixings
 * (`inherited`, one array shared by siblings) then its own (`fix`); a valid bound, a sequence
 * number (ties in the queue: the newest first), the parent's final basis (the warm start) and,
 * for pseudocosts, the item branched on to create it (-1 for none), its side and its LP value.
 */
interface SearchNode {
  readonly parent: SearchNode | null;
  readonly inherited: readonly number[];
  readonly fix: readonly number[];
  readonly bound: number;
  readonly seq: number;
  readonly basis: Basis | null;
  readonly branched: number;
  readonly side: number;
  readonly frac: number;
}

/** Whether `items` (ascending) fit every capacity, each load summed in ascending item order. */
export function fitsAll(inst: DenseInstance, items: readonly number[]): boolean {
  const { n, m, w, c } = inst;
  for (let k = 0; k < m; k++) {
    let load = 0;
    const base = k * n;
    for (const i of items) load += w[base + i] as number;
    if (load > (c[k] as number)) return false;
  }
  return true;
}

/**
 * Best-first LP-based branch and bound with a cardinality row, reduced-cost fixing, reliability
 * branching on pseudocosts, strong-branching bounds for children, and rounding plus local
 * search for incumbents. Deterministic: every choice breaks ties by index or sequence number and
 * every budget counts nodes or pivots.
 */
export function lpSearch(input: LpSearchInput): LpSearchResult {
  const { inst, rows, free, always, start, nodeLimit } = input;
  const { n, v, w, c } = inst;
  const N = free.length;
  // LP rows: the binding constraints, then the cardinality row sum_j x_j + s = N, whose slack
  // bounds [N - kUp, N - kLo] carry the branching on the number of items taken.
  const M = rows.length + 1;
  const CARD = M - 1;
  const colStart = new Int32Array(N + 1);
  const rowIdx: number[] = [];
  const vals: number[] = [];
  const rv = new Float64Array(N);
  let integral = true;
  for (let j = 0; j < N; j++) {
    const i = free[j] as number;
    rv[j] = v[i] as number;
    if (!Number.isInteger(rv[j] as number)) integral = false;
    for (let r = 0; r < CARD; r++) {
      const x = w[(rows[r] as number) * n + i] as number;
      if (x !== 0) {
        rowIdx.push(r);
        vals.push(x);
      }
    }
    rowIdx.push(CARD);
    vals.push(1);
    colStart[j + 1] = rowIdx.length;
  }
  const a: SparseColumns = {
    rows: M,
    cols: N,
    start: colStart,
    row: Int32Array.from(rowIdx),
    val: Float64Array.from(vals),
  };
  const rc = new Float64Array(M);
  for (let r = 0; r < CARD; r++) rc[r] = c[rows[r] as number] as number;
  rc[CARD] = N;
  let alwaysValue = 0;
  for (const i of always) alwaysValue += v[i] as number;

  const lp = new DualSimplex(a, rv, rc);
  const { lo, up } = lp;
  const cardSlack = N + CARD;
  up[cardSlack] = N;

  // The incumbent, valued without the always-taken items.
  let bestItems: readonly number[] = [...start];
  let best = -alwaysValue;
  for (const i of start) best += v[i] as number;
  // Integral values: bounds are floored and improvements are whole; otherwise a relative 1e-9.
  const tol = (x: number): number => (integral ? 0 : 1e-9 * Math.max(1, Math.abs(x)));
  const round = (ub: number): number =>
    integral ? Math.floor(ub + 1e-9 * Math.max(1, Math.abs(ub))) : ub;
  const beats = (ub: number): boolean => round(ub) > best + tol(best);

  /** Keeps `chosen` (reduced items) if plain sums accept it and it is better. */
  const accept = (chosen: readonly number[], value: number): boolean => {
    if (value <= best + tol(best)) return false;
    const items = [...always, ...chosen.map((j) => free[j] as number)].sort((p, q) => p - q);
    if (!fitsAll(inst, items)) return false;
    best = value;
    bestItems = items;
    return true;
  };
  const lsX = new Uint8Array(N);
  /**
   * Offers a feasible set of reduced items: kept when better; then, when better or `force`d,
   * improved by local search and the result offered in turn.
   */
  const offer = (chosen: readonly number[], force = false): void => {
    let value = 0;
    for (const j of chosen) value += rv[j] as number;
    if (!accept(chosen, value) && !force) return;
    lsX.fill(0);
    for (const j of chosen) lsX[j] = 1;
    if (localSearch(a, CARD, rv, rc, lsX) === 0) return;
    const better: number[] = [];
    let betterValue = 0;
    for (let j = 0; j < N; j++) {
      if (lsX[j] === 1) {
        better.push(j);
        betterValue += rv[j] as number;
      }
    }
    accept(better, betterValue);
  };
  {
    const slot = new Map<number, number>();
    for (let j = 0; j < N; j++) slot.set(free[j] as number, j);
    const chosen: number[] = [];
    for (const i of start) {
      const j = slot.get(i);
      if (j !== undefined) chosen.push(j);
    }
    offer(chosen, true);
  }

  // The Lagrangian bound of duals y under the current bounds,
  //   L(y) = sum_k y_k c_k + sum over every variable of max over [lo, up] of (reduced cost)·x,
  // valid for any y with y >= 0 on the packing rows (their slacks are unbounded above), so it
  // does not depend on how accurately the LP was solved. Fills dj with the items' reduced costs.
  const yc = new Float64Array(M);
  const dj = new Float64Array(N);
  const lagrangian = (y: Float64Array): number => {
    let L = 0;
    for (let r = 0; r < CARD; r++) {
      const yr = Math.max(0, y[r] as number);
      yc[r] = yr;
      L += yr * (rc[r] as number);
    }
    const yCard = y[CARD] as number;
    yc[CARD] = yCard;
    L += yCard * N;
    L += yCard > 0 ? -yCard * (lo[cardSlack] as number) : -yCard * (up[cardSlack] as number);
    const { start: st, row, val } = a;
    for (let j = 0; j < N; j++) {
      let s = rv[j] as number;
      for (let p = st[j] as number; p < (st[j + 1] as number); p++)
        s -= (yc[row[p] as number] as number) * (val[p] as number);
      dj[j] = s;
      L += s > 0 ? s * (up[j] as number) : s * (lo[j] as number);
    }
    return L;
  };
  const yRay = new Float64Array(M);
  /** A valid bound of the LP just solved (minus infinity when its infeasibility is certified). */
  const lpBound = (status: LpStatus): number => {
    if (status !== "infeasible") return lagrangian(lp.y);
    // Along the dual ray y + t·ray the bound falls without limit: find a t that prunes.
    for (let t = 0; t <= 1e12; t = t === 0 ? 1 : t * 16) {
      for (let r = 0; r < M; r++) yRay[r] = (lp.y[r] as number) + t * (lp.ray[r] as number);
      if (!beats(lagrangian(yRay))) return Number.NEGATIVE_INFINITY;
    }
    return lagrangian(lp.y);
  };

  // Rounding of an LP solution: the items at 1, the fractional ones by decreasing value, then
  // the others in decreasing root reduced cost, each when it fits.
  let heuristicOrder: Int32Array | null = null;
  const x = new Float64Array(N);
  const load = new Float64Array(CARD);
  const taken = new Uint8Array(N);
  const roundSolution = (): void => {
    load.fill(0);
    taken.fill(0);
    const chosen: number[] = [];
    const { start: st, row, val } = a;
    const tryTake = (j: number): void => {
      taken[j] = 1;
      const end = (st[j + 1] as number) - 1; // the column's last entry is the cardinality row
      for (let p = st[j] as number; p < end; p++) {
        const k = row[p] as number;
        if ((load[k] as number) + (val[p] as number) > (rc[k] as number)) return;
      }
      for (let p = st[j] as number; p < end; p++) {
        const k = row[p] as number;
        load[k] = (load[k] as number) + (val[p] as number);
      }
      chosen.push(j);
    };
    for (let j = 0; j < N; j++)
      if ((lo[j] as number) === 1 || (x[j] as number) >= 1 - INTEGRALITY_TOLERANCE) tryTake(j);
    const fractional: number[] = [];
    for (let j = 0; j < N; j++)
      if (taken[j] === 0 && (x[j] as number) > INTEGRALITY_TOLERANCE && (up[j] as number) === 1)
        fractional.push(j);
    fractional.sort((p, q) => (x[q] as number) - (x[p] as number) || p - q);
    for (const j of fractional) tryTake(j);
    if (heuristicOrder !== null)
      for (const j of heuristicOrder) if (taken[j] === 0 && (up[j] as number) === 1) tryTake(j);
    offer(chosen.sort((p, q) => p - q));
  };

  // Pseudocosts: per item and side (0: set to 0, 1: set to 1), the sum and count of observed
  // bound losses per unit of change; unobserved sides use the mean of all observations.
  const pcSum = [new Float64Array(N), new Float64Array(N)] as const;
  const pcCount = [new Int32Array(N), new Int32Array(N)] as const;
  let pcAllSum = 0;
  let pcAllCount = 0;
  const observe = (j: number, side: 0 | 1, frac: number, loss: number): void => {
    const unit = Math.max(0, loss) / (side === 0 ? frac : 1 - frac);
    pcSum[side][j] = (pcSum[side][j] as number) + unit;
    pcCount[side][j] = (pcCount[side][j] as number) + 1;
    pcAllSum += unit;
    pcAllCount++;
  };
  const pseudocost = (j: number, side: 0 | 1): number => {
    const k = pcCount[side][j] as number;
    if (k > 0) return (pcSum[side][j] as number) / k;
    return pcAllCount > 0 ? pcAllSum / pcAllCount : 1;
  };
  const score = (down: number, upLoss: number): number =>
    Math.max(down, 1e-6) * Math.max(upLoss, 1e-6);

  const rootLo = Float64Array.from(lo);
  const rootUp = Float64Array.from(up);
  const open = new NodeHeap<SearchNode>(
    (p, q) => p.bound > q.bound || (p.bound === q.bound && p.seq > q.seq),
  );
  let seq = 0;
  let inherited: readonly number[] = [];
  const child = (
    parent: SearchNode,
    fix: readonly number[],
    bound: number,
    basis: Basis,
    branched = -1,
    side = 0,
    frac = 0,
  ): SearchNode => ({ parent, inherited, fix, bound, seq: seq++, basis, branched, side, frac });
  open.push({
    parent: null,
    inherited: [],
    fix: [],
    bound: Number.POSITIVE_INFINITY,
    seq: seq++,
    basis: null,
    branched: -1,
    side: 0,
    frac: 0,
  });
  const snap = lp.newSnapshot();
  const path: SearchNode[] = [];
  const fixes: number[] = [];
  let lastSolved: SearchNode | null = null;
  // A node to solve next without going through the queue (its parent again, with new fixings).
  let again: SearchNode | null = null;
  let nodes = 0;
  let unsure = false; // a subtree was given up without proof (pivot cap, uncertified ray)
  let rootBound = Number.POSITIVE_INFINITY;
  let stopped = false;

  for (;;) {
    let node: SearchNode;
    if (again !== null) {
      node = again;
      again = null;
      if (nodes >= nodeLimit) {
        open.push(node);
        stopped = true;
        break;
      }
    } else {
      const top = open.peek();
      if (top === undefined || !beats(top.bound)) break; // nothing open can beat the incumbent
      if (nodes >= nodeLimit) {
        stopped = true;
        break;
      }
      node = open.pop() as SearchNode;
    }
    nodes++;
    // The node's bounds: the root's, then every change on the path from the root. A child of
    // the node just solved starts from that node's bounds, which already include its fixings
    // (the child's `inherited`; strong branching put its trial bounds back).
    if (node.parent === null || node.parent !== lastSolved) {
      lo.set(rootLo);
      up.set(rootUp);
      path.length = 0;
      for (let p: SearchNode | null = node; p !== null; p = p.parent) path.push(p);
      for (let k = path.length - 1; k >= 0; k--) {
        const p = path[k] as SearchNode;
        applyBounds(lo, up, p.inherited);
        applyBounds(lo, up, p.fix);
      }
    } else {
      applyBounds(lo, up, node.inherited);
      applyBounds(lo, up, node.fix);
    }
    if (node.basis !== null && node.parent !== lastSolved) lp.loadBasis(node.basis);
    lastSolved = node;
    // Stop the dual simplex as soon as its objective shows the node cannot beat the incumbent
    // (confirmed by the Lagrangian bound with the true values; else solve on).
    const cutoff = integral ? best + 1 - 1e-6 : best + tol(best);
    let status = lp.solve(NODE_PIVOT_CAP, cutoff);
    if (status === "cutoff" && beats(lagrangian(lp.y))) status = lp.solve(NODE_PIVOT_CAP);
    const L = lpBound(status);
    if (node.branched >= 0 && status !== "infeasible")
      observe(node.branched, node.side === 0 ? 0 : 1, node.frac, node.bound - L);
    if (status !== "optimal") {
      // Cut off, infeasible or unsolved: the bound stands only if it prunes; else the subtree is
      // given up without proof.
      if (beats(L)) unsure = true;
      continue;
    }
    if (nodes === 1) {
      rootBound = round(L);
      heuristicOrder = Int32Array.from(
        Array.from({ length: N }, (_, j) => j).sort(
          (p, q) => (dj[q] as number) - (dj[p] as number) || p - q,
        ),
      );
    }
    if (!beats(L)) continue;
    let fractional = false;
    let card = 0;
    for (let j = 0; j < N; j++) {
      const xj = lp.value(j);
      x[j] = xj;
      card += xj;
      if (xj > INTEGRALITY_TOLERANCE && xj < 1 - INTEGRALITY_TOLERANCE) fractional = true;
    }
    roundSolution();
    if (!fractional) {
      // An integral LP optimum is its subtree's best (when plain sums accept it).
      const chosen: number[] = [];
      for (let j = 0; j < N; j++) if ((x[j] as number) > 0.5) chosen.push(j);
      offer(chosen);
    }
    if (!beats(L)) continue;
    // Reduced-cost fixing, valid for the whole subtree (the incumbent only improves): an item
    // whose reduced cost alone would sink the bound to the incumbent stays where the LP has it.
    fixes.length = 0;
    for (let j = 0; j < N; j++) {
      if ((lo[j] as number) === (up[j] as number)) continue;
      const d = dj[j] as number;
      if (d < 0 && !beats(L + d)) fixes.push(j, 0, 0);
      else if (d > 0 && !beats(L - d)) fixes.push(j, 1, 1);
    }
    for (let t = 0; t < fixes.length; t += 3) {
      lo[fixes[t] as number] = fixes[t + 1] as number;
      up[fixes[t] as number] = fixes[t + 2] as number;
    }
    const basis = lp.saveBasis(open.size * 8 * M * M < INVERSE_CACHE_BYTES);
    inherited = fixes.length === 0 ? [] : [...fixes];

    // Branch on the number of items first when the LP's is fractional: sum x >= ceil first.
    const kFloor = Math.floor(card + 1e-6);
    if (fractional && card - kFloor > 1e-6) {
      open.push(child(node, [cardSlack, N - kFloor, up[cardSlack] as number], L, basis));
      open.push(child(node, [cardSlack, lo[cardSlack] as number, N - kFloor - 1], L, basis));
      continue;
    }
    // Then on an item: the free fractional ones are scored by the product of their estimated
    // bound losses down and up (pseudocosts); a side not yet observed RELIABILITY times is
    // measured by strong branching (both children solved for at most STRONG_PIVOTS pivots, their
    // bounds valid however far the dual simplex got), which may also prune a side outright.
    const cands: number[] = [];
    for (let j = 0; j < N; j++) {
      if ((lo[j] as number) === (up[j] as number)) continue;
      const xj = x[j] as number;
      if (xj > INTEGRALITY_TOLERANCE && xj < 1 - INTEGRALITY_TOLERANCE) cands.push(j);
    }
    if (cands.length === 0) {
      if (fractional) {
        // Reduced-cost fixing fixed every fractional item: solve this node again with them.
        again = child(node, [], L, basis);
        continue;
      }
      // An integral optimum that plain sums reject: branch on a free item at 1.
      let bj = -1;
      for (let j = 0; j < N && bj < 0; j++)
        if ((lo[j] as number) !== (up[j] as number) && (x[j] as number) > 0.5) bj = j;
      if (bj >= 0) {
        open.push(child(node, [bj, 0, 0], L, basis));
        open.push(child(node, [bj, 1, 1], L, basis));
      }
      continue;
    }
    const estimate = (j: number): number => {
      const f = x[j] as number;
      return score(pseudocost(j, 0) * f, pseudocost(j, 1) * (1 - f));
    };
    cands.sort((p, q) => estimate(q) - estimate(p) || p - q);
    let bj = -1;
    let bestScore = Number.NEGATIVE_INFINITY;
    let bjLoss: readonly number[] | null = null;
    let sinceBetter = 0;
    let strong = 0;
    let pruneVar = -1;
    let pruneSide = 0;
    let bothPruned = false;
    lp.snapshot(snap);
    for (const j of cands) {
      const reliable =
        (pcCount[0][j] as number) >= RELIABILITY && (pcCount[1][j] as number) >= RELIABILITY;
      let sc: number;
      let loss: number[] | null = null;
      if (reliable || strong >= STRONG_CANDIDATES) sc = estimate(j);
      else {
        strong++;
        const f = x[j] as number;
        loss = [0, 0];
        for (const side of [0, 1] as const) {
          lo[j] = side;
          up[j] = side;
          const Lc = lpBound(lp.solve(STRONG_PIVOTS, cutoff));
          lp.restore(snap);
          lo[j] = 0;
          up[j] = 1;
          loss[side] = L - Lc;
          if (Lc !== Number.NEGATIVE_INFINITY) observe(j, side, f, L - Lc);
          if (!beats(Lc)) {
            if (pruneVar === j) bothPruned = true;
            pruneVar = j;
            pruneSide = side;
          }
        }
        if (pruneVar >= 0) break;
        sc = score(loss[0] as number, loss[1] as number);
      }
      if (sc > bestScore) {
        bestScore = sc;
        bj = j;
        bjLoss = loss;
        sinceBetter = 0;
      } else if (++sinceBetter >= LOOKAHEAD) break;
    }
    if (bothPruned) continue;
    if (pruneVar >= 0) {
      // One side of pruneVar cannot beat the incumbent: fix the other and solve again.
      const keep = 1 - pruneSide;
      again = child(node, [pruneVar, keep, keep], L, basis);
      continue;
    }
    // Children: "take" popped first among equal bounds. Strong branching's child bounds are
    // valid and order the queue better than the parent's.
    const f = x[bj] as number;
    const downBound = bjLoss === null ? L : L - Math.max(0, bjLoss[0] as number);
    const upBound = bjLoss === null ? L : L - Math.max(0, bjLoss[1] as number);
    open.push(child(node, [bj, 0, 0], downBound, basis, bj, 0, f));
    open.push(child(node, [bj, 1, 1], upBound, basis, bj, 1, f));
  }

  // Without a proof, the bound is the largest one left open: the root's when a subtree was
  // given up, else the best open node's (the trivial sum of values before the root is solved).
  let trivial = 0;
  for (let j = 0; j < N; j++) trivial += rv[j] as number;
  const root = rootBound === Number.POSITIVE_INFINITY ? trivial : rootBound;
  let bound = best;
  if (unsure) bound = Math.max(bound, root);
  else if (stopped) {
    const top = (open.peek() as SearchNode).bound;
    bound = Math.max(bound, top === Number.POSITIVE_INFINITY ? root : round(top));
  }
  return { items: bestItems, optimal: !stopped && !unsure, bound: bound + alwaysValue, nodes };
}

/** Applies bound changes given as triples (variable, lo, up). */
function applyBounds(lo: Float64Array, up: Float64Array, changes: readonly number[]): void {
  for (let t = 0; t < changes.length; t += 3) {
    lo[changes[t] as number] = changes[t + 1] as number;
    up[changes[t] as number] = changes[t + 2] as number;
  }
}

/** A binary heap; `before(p, q)` is true when `p` must come out before `q`. */
class NodeHeap<T> {
  readonly #items: T[] = [];
  readonly #before: (p: T, q: T) => boolean;

  constructor(before: (p: T, q: T) => boolean) {
    this.#before = before;
  }

  get size(): number {
    return this.#items.length;
  }

  peek(): T | undefined {
    return this.#items[0];
  }

  push(item: T): void {
    const a = this.#items;
    a.push(item);
    let k = a.length - 1;
    while (k > 0) {
      const p = (k - 1) >> 1;
      if (!this.#before(a[k] as T, a[p] as T)) break;
      [a[k], a[p]] = [a[p] as T, a[k] as T];
      k = p;
    }
  }

  pop(): T | undefined {
    const a = this.#items;
    const top = a[0];
    const last = a.pop();
    if (a.length > 0 && last !== undefined) {
      a[0] = last;
      let k = 0;
      for (;;) {
        const l = 2 * k + 1;
        if (l >= a.length) break;
        const r = l + 1;
        const c = r < a.length && this.#before(a[r] as T, a[l] as T) ? r : l;
        if (!this.#before(a[c] as T, a[k] as T)) break;
        [a[c], a[k]] = [a[k] as T, a[c] as T];
        k = c;
      }
    }
    return top;
  }
}
