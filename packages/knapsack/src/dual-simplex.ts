import { indexHash } from "@sched/random";

/**
 * A small bounded-variable dual simplex for the LP relaxation of a packing problem
 *
 *   maximise v·x  subject to  A x + s = c,  lo <= x <= up,  lo_s <= s <= up_s,
 *
 * with `A` stored by columns (sparse), used by the exact MKP search. The basis inverse is kept
 * explicitly (m x m, updated at each pivot, rebuilt every {@link REINVERT_EVERY} pivots), the
 * leaving row is the most infeasible one and the entering column comes from Harris's two-pass
 * ratio test. Structural variables are boxed, slacks bounded below (`up_s` may be infinite). The
 * caller keeps every slack with an infinite upper bound at a dual value >= 0 by construction
 * (packing rows), so the basis is always made dual feasible again after a change of bounds by
 * moving boxed nonbasic variables to the bound their reduced cost prefers: no phase 1 is ever
 * needed. Internal to the package.
 */

/** Rebuild the basis inverse from scratch after this many pivots (round-off drift). */
const REINVERT_EVERY = 100;
/**
 * Inverses rebuilt by {@link DualSimplex.loadBasis} for a basis saved without one are kept (the
 * newest first) for a second load of the same basis (the node's sibling) while they fit in this
 * many bytes: the rebuild depends on the basis alone, so the copy is the same to the bit.
 */
const REBUILT_CACHE_BYTES = 16 * 1024 * 1024;
/** Smallest |pivot| accepted in the ratio test, relative to the row's largest entry. */
const PIVOT_TOLERANCE = 1e-9;

/** A matrix stored by columns: column `j` holds `val[p]` in row `row[p]` for `start[j] <= p < start[j+1]`. */
export interface SparseColumns {
  readonly rows: number;
  readonly cols: number;
  readonly start: Int32Array;
  readonly row: Int32Array;
  readonly val: Float64Array;
}

/** A deterministic pseudo-random number in [0.5, 1) for variable `j` (`@sched/random`'s hash). */
function perturbation(j: number): number {
  return 0.5 + indexHash(j) / 2 ** 33;
}

/** A basis as {@link DualSimplex.saveBasis} returns it. */
export interface Basis {
  readonly head: Int32Array;
  /** One bit per variable: nonbasic at its upper bound. */
  readonly atUpper: Uint8Array;
  readonly binv: Float64Array | null;
  /** The squared norms of the rows of `binv` (with it; null without). */
  readonly norm: Float64Array | null;
  readonly sinceInvert: number;
}

/** The full state of a {@link DualSimplex}, for trying a bound change and undoing it. */
export interface Snapshot {
  readonly head: Int32Array;
  readonly pos: Int32Array;
  readonly atUpper: Uint8Array;
  readonly xB: Float64Array;
  readonly binv: Float64Array;
  readonly norm: Float64Array;
  readonly stale: Uint8Array;
  readonly y: Float64Array;
  readonly d: Float64Array;
  sinceInvert: number;
}

/** Copies every array of a solver state from `from` into `to` (same sizes). */
function copyState(from: Omit<Snapshot, "sinceInvert">, to: Omit<Snapshot, "sinceInvert">): void {
  to.head.set(from.head);
  to.pos.set(from.pos);
  to.atUpper.set(from.atUpper);
  to.xB.set(from.xB);
  to.binv.set(from.binv);
  to.norm.set(from.norm);
  to.stale.set(from.stale);
  to.y.set(from.y);
  to.d.set(from.d);
}

/** How a call to {@link DualSimplex.solve} ended. */
export type LpStatus = "optimal" | "infeasible" | "limit" | "cutoff";

export class DualSimplex {
  readonly m: number;
  readonly n: number;
  readonly a: SparseColumns;
  /** The (perturbed) objective. */
  readonly v: Float64Array;
  readonly c: Float64Array;
  /**
   * Bounds of every variable, structurals first then the slacks (`n + k`: the slack of row `k`,
   * default `[0, Infinity)`; structurals default to `[0, 1]`). The caller edits them between
   * solves; lower bounds must be finite.
   */
  readonly lo: Float64Array;
  readonly up: Float64Array;
  /** `head[r]`: the variable basic in row `r`. */
  readonly head: Int32Array;
  /** `pos[j]`: the row where `j` is basic, or -1. */
  readonly pos: Int32Array;
  /** For a nonbasic variable: 1 when it sits at its (finite) upper bound. */
  readonly atUpper: Uint8Array;
  readonly xB: Float64Array;
  /**
   * Row-major basis inverse: `binv[r * m + k]`, and the squared norm of each of its rows: for
   * every row not flagged in `stale`, the sum over k in increasing order of `binv[r * m + k]²`
   * for the current inverse. A pivot flags the rows it changes; a flagged norm is computed (by
   * the same sum) when the leaving row's choice reads it, or before the norms are saved.
   */
  readonly binv: Float64Array;
  readonly norm: Float64Array;
  readonly stale: Uint8Array;
  /** Duals (one per row) and reduced costs (one per variable, slacks after the structurals). */
  readonly y: Float64Array;
  readonly d: Float64Array;
  /** After `"infeasible"`: a direction along which the dual objective falls without limit. */
  readonly ray: Float64Array;
  /** Pivots done since construction. */
  pivots = 0;
  #sinceInvert = 0;
  readonly #rho: Float64Array;
  readonly #alpha: Float64Array;
  readonly #u: Float64Array;
  readonly #used: Int32Array;
  readonly #cand: Int32Array;
  readonly #ratio: Float64Array;
  readonly #flip: Float64Array;
  readonly #orig: Int32Array;
  /** Scratch of {@link #invert} (the basis matrix, the pivot row's nonzeros) and of {@link #primal}. */
  readonly #bmat: Float64Array;
  readonly #nzB: Int32Array;
  readonly #nzI: Int32Array;
  readonly #rhs: Float64Array;
  /** The nonzero entries of the flips' column sum in {@link solve}. */
  readonly #nzW: Int32Array;
  /** The variables that are not fixed (lo < up) during a {@link solve}, in increasing order. */
  readonly #act: Int32Array;
  /** Inverses (and their norms) rebuilt for bases saved without one, oldest first. */
  readonly #rebuilt = new Map<Basis, { binv: Float64Array; norm: Float64Array }>();
  readonly #rebuiltMax: number;
  /** True while `d` holds, for every nonbasic variable, exactly what {@link #reducedCosts} computes. */
  #fresh = false;
  readonly #dualTol: number;

  constructor(a: SparseColumns, v: Float64Array, c: Float64Array) {
    const m = a.rows;
    const n = a.cols;
    this.m = m;
    this.n = n;
    this.a = a;
    // The objective is perturbed by a tiny deterministic amount per variable against dual
    // degeneracy (stalling); callers compute bounds with their own, unperturbed values.
    this.v = Float64Array.from(v, (x, j) => x + 1e-7 * (1 + Math.abs(x)) * perturbation(j));
    this.c = c;
    this.lo = new Float64Array(n + m);
    this.up = new Float64Array(n + m).fill(1);
    this.up.fill(Number.POSITIVE_INFINITY, n);
    this.head = new Int32Array(m);
    this.pos = new Int32Array(n + m).fill(-1);
    this.atUpper = new Uint8Array(n + m);
    this.xB = new Float64Array(m);
    this.binv = new Float64Array(m * m);
    this.norm = new Float64Array(m);
    this.stale = new Uint8Array(m);
    this.y = new Float64Array(m);
    this.d = new Float64Array(n + m);
    this.ray = new Float64Array(m);
    this.#rho = new Float64Array(m);
    this.#alpha = new Float64Array(n + m);
    this.#u = new Float64Array(m);
    this.#used = new Int32Array(m);
    this.#cand = new Int32Array(n + m);
    this.#ratio = new Float64Array(n + m);
    this.#flip = new Float64Array(m);
    this.#orig = new Int32Array(m);
    this.#bmat = new Float64Array(m * m);
    this.#nzB = new Int32Array(m);
    this.#nzI = new Int32Array(m);
    this.#rhs = new Float64Array(m);
    this.#nzW = new Int32Array(m);
    this.#act = new Int32Array(n + m);
    this.#rebuiltMax = Math.max(1, Math.floor(REBUILT_CACHE_BYTES / (8 * (m * m + m))));
    let vmax = 1;
    for (let j = 0; j < n; j++) vmax = Math.max(vmax, Math.abs(v[j] as number));
    this.#dualTol = 1e-9 * vmax;
    this.#slackBasis();
  }

  /** The all-slack basis (always nonsingular). */
  #slackBasis(): void {
    const { m, n } = this;
    this.pos.fill(-1);
    this.binv.fill(0);
    for (let k = 0; k < m; k++) {
      this.head[k] = n + k;
      this.pos[n + k] = k;
      this.binv[k * m + k] = 1;
    }
    this.norm.fill(1);
    this.stale.fill(0);
    this.#sinceInvert = 0;
    this.#duals();
  }

  /** y = v_B B^-1, then every reduced cost d_j = v_j - y·a_j (slack of row k: -y_k). */
  #duals(): void {
    const { m, n, binv, y, d, head, v, pos } = this;
    y.fill(0);
    for (let r = 0; r < m; r++) {
      const j = head[r] as number;
      if (j >= n) continue;
      const vj = v[j] as number;
      const base = r * m;
      for (let k = 0; k < m; k++) y[k] = (y[k] as number) + vj * (binv[base + k] as number);
    }
    const { start, row, val } = this.a;
    for (let j = 0; j < n; j++) {
      if (pos[j] !== -1) {
        d[j] = 0;
        continue;
      }
      let s = v[j] as number;
      const end = start[j + 1] as number;
      for (let p = start[j] as number; p < end; p++)
        s -= (y[row[p] as number] as number) * (val[p] as number);
      d[j] = s;
    }
    for (let k = 0; k < m; k++) d[n + k] = pos[n + k] === -1 ? -(y[k] as number) : 0;
    this.#fresh = true;
  }

  /**
   * Recomputes the nonbasic reduced costs from the current duals (basic ones are 0); nothing to
   * do while they are fresh (no pivot or restore since the last computation).
   */
  #reducedCosts(): void {
    if (this.#fresh) return;
    const { m, n, y, d, v, pos } = this;
    const { start, row, val } = this.a;
    for (let j = 0; j < n; j++) {
      if (pos[j] !== -1) continue;
      let s = v[j] as number;
      const end = start[j + 1] as number;
      for (let p = start[j] as number; p < end; p++)
        s -= (y[row[p] as number] as number) * (val[p] as number);
      d[j] = s;
    }
    for (let k = 0; k < m; k++) if (pos[n + k] === -1) d[n + k] = -(y[k] as number);
    this.#fresh = true;
  }

  /** Rebuilds the basis inverse by Gauss-Jordan with partial pivoting; false when singular. */
  #invert(): boolean {
    const { m, n, head, binv } = this;
    const { start, row, val } = this.a;
    // B[k][r] = a_{k, head[r]}; then binv[r][k] = (B^-1)[r][k] maps rows to basis positions.
    const B = this.#bmat;
    B.fill(0);
    for (let r = 0; r < m; r++) {
      const j = head[r] as number;
      if (j >= n) B[(j - n) * m + r] = 1;
      else
        for (let p = start[j] as number; p < (start[j + 1] as number); p++)
          B[(row[p] as number) * m + r] = val[p] as number;
    }
    binv.fill(0);
    for (let k = 0; k < m; k++) binv[k * m + k] = 1;
    // Row operations only touch B's columns from the pivot on (earlier ones are done) and the
    // columns of binv that some pivot row has brought in (the others are still identity).
    const used = this.#used;
    const nzB = this.#nzB;
    const nzI = this.#nzI;
    let nUsed = 0;
    const orig = this.#orig;
    for (let k = 0; k < m; k++) orig[k] = k;
    for (let col = 0; col < m; col++) {
      let piv = col;
      let best = Math.abs(B[col * m + col] as number);
      for (let r = col + 1; r < m; r++) {
        const x = Math.abs(B[r * m + col] as number);
        if (x > best) {
          best = x;
          piv = r;
        }
      }
      if (best < 1e-11) return false;
      if (piv !== col) {
        for (let k = col; k < m; k++) {
          const t = B[col * m + k] as number;
          B[col * m + k] = B[piv * m + k] as number;
          B[piv * m + k] = t;
        }
        for (let k = 0; k < m; k++) {
          const t = binv[col * m + k] as number;
          binv[col * m + k] = binv[piv * m + k] as number;
          binv[piv * m + k] = t;
        }
        const o = orig[col] as number;
        orig[col] = orig[piv] as number;
        orig[piv] = o;
      }
      used[nUsed++] = orig[col] as number;
      const cb = col * m;
      const p = B[cb + col] as number;
      for (let k = col; k < m; k++) B[cb + k] = (B[cb + k] as number) / p;
      for (let t = 0; t < nUsed; t++) {
        const k = used[t] as number;
        binv[cb + k] = (binv[cb + k] as number) / p;
      }
      // Elimination skips the pivot row's zero entries (x - f·0 is x, up to the sign of a zero)
      // and B's column col, which no later step reads.
      let nb = 0;
      for (let k = col + 1; k < m; k++) if (B[cb + k] !== 0) nzB[nb++] = k;
      let ni = 0;
      for (let t = 0; t < nUsed; t++) {
        const k = used[t] as number;
        if (binv[cb + k] !== 0) nzI[ni++] = k;
      }
      for (let r = 0; r < m; r++) {
        if (r === col) continue;
        const rb = r * m;
        const f = B[rb + col] as number;
        if (f === 0) continue;
        for (let t = 0; t < nb; t++) {
          const k = nzB[t] as number;
          B[rb + k] = (B[rb + k] as number) - f * (B[cb + k] as number);
        }
        for (let t = 0; t < ni; t++) {
          const k = nzI[t] as number;
          binv[rb + k] = (binv[rb + k] as number) - f * (binv[cb + k] as number);
        }
      }
    }
    this.#sinceInvert = 0;
    this.#norms();
    return true;
  }

  /** The squared norm of every row of the basis inverse (dual steepest edge weights). */
  #norms(): void {
    for (let i = 0; i < this.m; i++) this.#norm(i);
  }

  /** Computes the squared norm of row `i` of the basis inverse and clears its stale flag. */
  #norm(i: number): number {
    const { m, binv } = this;
    const bi = i * m;
    let s = 0;
    for (let k = 0; k < m; k++) {
      const b = binv[bi + k] as number;
      s += b * b;
    }
    this.norm[i] = s;
    this.stale[i] = 0;
    return s;
  }

  /** Brings every stale norm up to date. */
  #freshNorms(): void {
    for (let i = 0; i < this.m; i++) if (this.stale[i] === 1) this.#norm(i);
  }

  /** Value of nonbasic variable `j` under the current bounds and status. */
  #nonbasicValue(j: number): number {
    return this.atUpper[j] === 1 ? (this.up[j] as number) : (this.lo[j] as number);
  }

  /**
   * Moves every boxed nonbasic variable to the bound its reduced cost prefers (upper when
   * d > 0, lower when d < 0; a fixed or unbounded-above variable stays at its lower bound), then
   * recomputes x_B = B^-1 (c - sum over nonbasic j of a_j x_j).
   */
  #primal(): void {
    const { m, n, binv, xB, c, pos, d, atUpper, lo, up } = this;
    const { start, row, val } = this.a;
    const dualTol = this.#dualTol;
    const rhs = this.#rhs;
    rhs.set(c);
    for (let j = 0; j < n + m; j++) {
      if (pos[j] !== -1) continue;
      if (up[j] === Number.POSITIVE_INFINITY || lo[j] === up[j]) atUpper[j] = 0;
      else {
        const dj = d[j] as number;
        if (dj > dualTol) atUpper[j] = 1;
        else if (dj < -dualTol) atUpper[j] = 0;
      }
      const x = this.#nonbasicValue(j);
      if (x === 0) continue;
      if (j >= n) rhs[j - n] = (rhs[j - n] as number) - x;
      else
        for (let p = start[j] as number; p < (start[j + 1] as number); p++) {
          const k = row[p] as number;
          rhs[k] = (rhs[k] as number) - x * (val[p] as number);
        }
    }
    for (let r = 0; r < m; r++) {
      let s = 0;
      const base = r * m;
      for (let k = 0; k < m; k++) s += (binv[base + k] as number) * (rhs[k] as number);
      xB[r] = s;
    }
  }

  /**
   * A copy of the current basis (basic variables and the bound each nonbasic one sits at), with
   * a copy of its inverse when `withInverse` (m² numbers; loading it then skips the rebuild).
   */
  saveBasis(withInverse: boolean): Basis {
    const bits = new Uint8Array((this.n + this.m + 7) >> 3);
    for (let j = 0; j < this.n + this.m; j++)
      if (this.atUpper[j] === 1) bits[j >> 3] = (bits[j >> 3] as number) | (1 << (j & 7));
    return {
      head: this.head.slice(),
      atUpper: bits,
      binv: withInverse ? this.binv.slice() : null,
      norm: withInverse ? this.#savedNorms() : null,
      sinceInvert: this.#sinceInvert,
    };
  }

  /** A copy of the norms, every one up to date. */
  #savedNorms(): Float64Array {
    this.#freshNorms();
    return this.norm.slice();
  }

  /**
   * Makes `basis` (from {@link saveBasis}) the current basis: its inverse is copied when saved,
   * else rebuilt (the slack basis if singular; a rebuild is kept for one more load of the same
   * basis, see {@link REBUILT_CACHE_BYTES}); then the duals. The next {@link solve} starts from
   * it.
   */
  loadBasis(basis: Basis): void {
    this.head.set(basis.head);
    for (let j = 0; j < this.n + this.m; j++)
      this.atUpper[j] = ((basis.atUpper[j >> 3] as number) >> (j & 7)) & 1;
    this.pos.fill(-1);
    for (let r = 0; r < this.m; r++) this.pos[this.head[r] as number] = r;
    if (basis.binv !== null) {
      this.binv.set(basis.binv);
      this.#sinceInvert = basis.sinceInvert;
      if (basis.norm !== null) {
        this.norm.set(basis.norm);
        this.stale.fill(0);
      } else this.#norms();
    } else {
      const kept = this.#rebuilt.get(basis);
      if (kept !== undefined) {
        this.#rebuilt.delete(basis);
        this.binv.set(kept.binv);
        this.norm.set(kept.norm);
        this.stale.fill(0);
        this.#sinceInvert = 0;
      } else if (this.#invert()) {
        if (this.#rebuilt.size >= this.#rebuiltMax) {
          const oldest = this.#rebuilt.keys().next().value as Basis;
          this.#rebuilt.delete(oldest);
        }
        this.#rebuilt.set(basis, {
          binv: this.binv.slice(),
          norm: this.norm.slice(),
        });
      } else this.#slackBasis();
    }
    this.#duals();
  }

  /** An empty {@link Snapshot} sized for this problem, to pass to {@link snapshot}. */
  newSnapshot(): Snapshot {
    const { m, n } = this;
    return {
      head: new Int32Array(m),
      pos: new Int32Array(n + m),
      atUpper: new Uint8Array(n + m),
      xB: new Float64Array(m),
      binv: new Float64Array(m * m),
      norm: new Float64Array(m),
      stale: new Uint8Array(m),
      y: new Float64Array(m),
      d: new Float64Array(n + m),
      sinceInvert: 0,
    };
  }

  /** Copies the whole solver state (basis, inverse, solution, duals) into `into`. */
  snapshot(into: Snapshot): void {
    copyState(this, into);
    into.sinceInvert = this.#sinceInvert;
  }

  /** Restores a state copied by {@link snapshot} (bounds are the caller's business). */
  restore(from: Snapshot): void {
    copyState(from, this);
    this.#sinceInvert = from.sinceInvert;
    this.#fresh = false;
  }

  /** The (perturbed) objective of the current basic solution. */
  #objective(): number {
    const { n, v, pos, xB, atUpper, lo, up } = this;
    let z = 0;
    for (let j = 0; j < n; j++) {
      const r = pos[j] as number;
      const x =
        r !== -1 ? (xB[r] as number) : atUpper[j] === 1 ? (up[j] as number) : (lo[j] as number);
      z += (v[j] as number) * x;
    }
    return z;
  }

  /** The value of variable `j` (structural or slack) in the current basic solution. */
  value(j: number): number {
    const r = this.pos[j] as number;
    return r === -1 ? this.#nonbasicValue(j) : (this.xB[r] as number);
  }

  /** Rebuilds the inverse (the slack basis if singular), the duals and the basic solution. */
  #refresh(): void {
    if (!this.#invert()) this.#slackBasis();
    this.#duals();
    this.#primal();
  }

  /**
   * Re-optimises after the caller changed bounds: nonbasic variables move to the bound their
   * reduced cost prefers (restoring dual feasibility), then dual simplex pivots until the basic
   * solution is within its bounds (`"optimal"`), a row proves the bounds infeasible
   * (`"infeasible"`, with {@link ray}), `maxPivots` pivots were spent (`"limit"`), or the
   * objective of the basic solution, which equals the dual objective while the basis is dual
   * feasible and only falls, is at most `cutoff` (`"cutoff"`: the caller may stop here).
   */
  solve(maxPivots: number, cutoff = Number.NEGATIVE_INFINITY): LpStatus {
    const { m, n, lo, up, d, atUpper, pos, head, xB, binv, y, norm, stale } = this;
    const { start, row, val } = this.a;
    const rho = this.#rho;
    const alpha = this.#alpha;
    const u = this.#u;
    const dualTol = this.#dualTol;
    this.#reducedCosts();
    this.#primal();
    // The loops over variables below skip fixed ones, whose alpha is 0 (and then not stored):
    // they visit only the variables not fixed (bounds do not change during a solve).
    const act = this.#act;
    let nAct = 0;
    let nActStruct = 0;
    for (let j = 0; j < n + m; j++) {
      if (lo[j] === up[j]) continue;
      act[nAct++] = j;
      if (j < n) nActStruct = nAct;
    }
    let spent = 0;
    for (;;) {
      // Leaving row: dual steepest edge, the largest violation² / ||row of B^-1||² (exact
      // norms, kept by the inverse's update); ties: the lowest row.
      let r = -1;
      let worst = 0;
      let bestScore = 0;
      let toUpper = false;
      for (let i = 0; i < m; i++) {
        const j = head[i] as number;
        const x = xB[i] as number;
        const l = lo[j] as number;
        const h = up[j] as number;
        let viol = 0;
        let above = false;
        if (l - x > 1e-9 * (1 + Math.abs(l))) viol = l - x;
        else if (x - h > 1e-9 * (1 + Math.abs(h))) {
          viol = x - h;
          above = true;
        }
        if (viol === 0) continue;
        const sc = (viol * viol) / (stale[i] === 1 ? this.#norm(i) : (norm[i] as number));
        if (sc > bestScore) {
          bestScore = sc;
          worst = viol;
          r = i;
          toUpper = above;
        }
      }
      if (r < 0) return "optimal";
      if (spent >= maxPivots) return "limit";
      if (cutoff > Number.NEGATIVE_INFINITY && this.#objective() <= cutoff) return "cutoff";
      // rho = row r of B^-1; alpha_j = rho · a_j for the nonbasic variables that are not fixed
      // (a fixed variable's reduced cost goes stale here and is recomputed by the next solve).
      let rowMax = 0;
      for (let k = 0; k < m; k++) rho[k] = binv[r * m + k] as number;
      for (let c = 0; c < nActStruct; c++) {
        const j = act[c] as number;
        if (pos[j] !== -1) {
          alpha[j] = 0;
          continue;
        }
        let s = 0;
        const end = start[j + 1] as number;
        for (let p = start[j] as number; p < end; p++)
          s += (rho[row[p] as number] as number) * (val[p] as number);
        alpha[j] = s;
        if (Math.abs(s) > rowMax) rowMax = Math.abs(s);
      }
      for (let c = nActStruct; c < nAct; c++) {
        const j = act[c] as number;
        const s = pos[j] === -1 ? (rho[j - n] as number) : 0;
        alpha[j] = s;
        if (Math.abs(s) > rowMax) rowMax = Math.abs(s);
      }
      // x_B[r] moves by -alpha_q per unit of x_q. A candidate q moves it towards the violated
      // bound: sigma·alpha_q < 0 when q may increase (at lower), > 0 when it may decrease (at
      // upper); sigma = +1 below the lower bound, -1 above the upper bound.
      const sigma = toUpper ? -1 : 1;
      const pivTol = PIVOT_TOLERANCE * Math.max(1, rowMax);
      // Ratio test with bound flipping (long step): the candidates' breakpoints t_j = |d_j| /
      // |alpha_j| in increasing order; passing a boxed candidate flips it to its other bound,
      // which lowers the row's infeasibility by |alpha_j|·(up_j - lo_j). The first candidate
      // whose flip would not leave the row infeasible (or that cannot flip) enters; among the
      // breakpoints from there on within Harris's tolerance, the largest |alpha| is taken.
      const cand = this.#cand;
      const ratio = this.#ratio;
      let nc = 0;
      for (let c = 0; c < nAct; c++) {
        const j = act[c] as number;
        const aj = alpha[j] as number;
        if (aj <= pivTol && aj >= -pivTol) continue;
        const atUp = atUpper[j] === 1;
        if (atUp ? sigma * aj <= 0 : sigma * aj >= 0) continue;
        const dj = atUp ? (d[j] as number) : -(d[j] as number);
        cand[nc] = j;
        ratio[j] = Math.max(0, dj) / Math.abs(aj);
        nc++;
      }
      if (nc === 0) {
        // Dual ray: y + t·sigma·rho (t >= 0) keeps every reduced cost feasible and lowers the
        // dual objective without limit.
        for (let k = 0; k < m; k++) this.ray[k] = sigma * (rho[k] as number);
        return "infeasible";
      }
      // Walk the breakpoints in increasing order (selection: few are passed, so no full sort);
      // passed candidates are moved to the front of cand.
      let slope = worst;
      let first = 0;
      for (; first < nc - 1; first++) {
        let at = first;
        for (let c = first + 1; c < nc; c++) {
          const jc = cand[c] as number;
          const ja = cand[at] as number;
          if (
            (ratio[jc] as number) < (ratio[ja] as number) ||
            ((ratio[jc] as number) === (ratio[ja] as number) && jc < ja)
          )
            at = c;
        }
        const j = cand[at] as number;
        const range = (up[j] as number) - (lo[j] as number);
        const after = slope - Math.abs(alpha[j] as number) * range;
        if (!(after > 1e-9 * (1 + worst))) break; // also stops on an infinite range
        cand[at] = cand[first] as number;
        cand[first] = j;
        slope = after;
      }
      let thetaMax = Number.POSITIVE_INFINITY;
      for (let c = first; c < nc; c++) {
        const j = cand[c] as number;
        const t = (ratio[j] as number) + dualTol / Math.abs(alpha[j] as number);
        if (t < thetaMax) thetaMax = t;
      }
      let q = -1;
      let qAbs = 0;
      for (let c = first; c < nc; c++) {
        const j = cand[c] as number;
        if ((ratio[j] as number) > thetaMax) continue;
        const aAbs = Math.abs(alpha[j] as number);
        if (aAbs > qAbs || (aAbs === qAbs && j < q)) {
          q = j;
          qAbs = aAbs;
        }
      }
      // Flip the candidates passed: x_B -= B^-1 (sum of a_j · change of x_j).
      if (first > 0) {
        const w = this.#flip;
        w.fill(0);
        for (let c = 0; c < first; c++) {
          const j = cand[c] as number;
          const change =
            atUpper[j] === 1
              ? (lo[j] as number) - (up[j] as number)
              : (up[j] as number) - (lo[j] as number);
          atUpper[j] = atUpper[j] === 1 ? 0 : 1;
          if (j >= n) w[j - n] = (w[j - n] as number) + change;
          else
            for (let p = start[j] as number; p < (start[j + 1] as number); p++)
              w[row[p] as number] = (w[row[p] as number] as number) + change * (val[p] as number);
        }
        // Only w's nonzero entries, in increasing order: adding binv·0 leaves t as it is.
        const nzW = this.#nzW;
        let nw = 0;
        for (let k = 0; k < m; k++) if (w[k] !== 0) nzW[nw++] = k;
        for (let i = 0; i < m; i++) {
          let t = 0;
          const bi = i * m;
          for (let c = 0; c < nw; c++) {
            const k = nzW[c] as number;
            t += (binv[bi + k] as number) * (w[k] as number);
          }
          xB[i] = (xB[i] as number) - t;
        }
      }
      const aq = alpha[q] as number;
      // u = B^-1 a_q.
      if (q < n) {
        // Row by row, each sum over the column's entries in the same order as column by column.
        const ps = start[q] as number;
        const pe = start[q + 1] as number;
        for (let i = 0; i < m; i++) {
          const bi = i * m;
          let s = 0;
          for (let p = ps; p < pe; p++)
            s += (binv[bi + (row[p] as number)] as number) * (val[p] as number);
          u[i] = s;
        }
      } else {
        const k = q - n;
        for (let i = 0; i < m; i++) u[i] = binv[i * m + k] as number;
      }
      // Primal step: x_B[r] reaches its violated bound, q enters at its old value plus delta.
      const leaving = head[r] as number;
      const target = toUpper ? (up[leaving] as number) : (lo[leaving] as number);
      const delta = ((xB[r] as number) - target) / (u[r] as number);
      const enteringValue = this.#nonbasicValue(q) + delta;
      for (let i = 0; i < m; i++) xB[i] = (xB[i] as number) - delta * (u[i] as number);
      xB[r] = enteringValue;
      // Dual step: theta = d_q / alpha_q (d_q taken as 0 when Harris's tolerance let it drift
      // to the wrong sign, so the dual objective never rises); d_j -= theta alpha_j; y += theta rho.
      const dq = atUpper[q] === 1 ? Math.max(0, d[q] as number) : Math.min(0, d[q] as number);
      const theta = dq / aq;
      for (let c = 0; c < nAct; c++) {
        const j = act[c] as number;
        const aj = alpha[j] as number;
        if (aj !== 0) d[j] = (d[j] as number) - theta * aj;
      }
      for (let k = 0; k < m; k++) y[k] = (y[k] as number) + theta * (rho[k] as number);
      d[q] = 0;
      d[leaving] = -theta;
      // Basis inverse: pivot on u[r].
      // The other rows' updates skip the pivot row's zeros (x - f·0 is x, up to the sign of a
      // zero) when it has few (a plain loop is faster when more than half are nonzero); the
      // norms of the rows changed are computed when next read.
      const ur = u[r] as number;
      const base = r * m;
      const nzR = this.#nzB;
      let nnzR = 0;
      for (let k = 0; k < m; k++) {
        const b = (binv[base + k] as number) / ur;
        binv[base + k] = b;
        if (b !== 0) nzR[nnzR++] = k;
      }
      stale[r] = 1;
      const dense = 2 * nnzR > m;
      for (let i = 0; i < m; i++) {
        if (i === r) continue;
        const f = u[i] as number;
        if (f === 0) continue;
        const bi = i * m;
        if (dense)
          for (let k = 0; k < m; k++)
            binv[bi + k] = (binv[bi + k] as number) - f * (binv[base + k] as number);
        else
          for (let t = 0; t < nnzR; t++) {
            const k = nzR[t] as number;
            binv[bi + k] = (binv[bi + k] as number) - f * (binv[base + k] as number);
          }
        stale[i] = 1;
      }
      head[r] = q;
      pos[q] = r;
      pos[leaving] = -1;
      atUpper[leaving] = toUpper ? 1 : 0;
      this.#fresh = false;
      this.pivots++;
      spent++;
      if (++this.#sinceInvert >= REINVERT_EVERY) this.#refresh();
    }
  }
}
