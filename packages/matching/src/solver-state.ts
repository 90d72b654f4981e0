import { Arena } from "./arena.js";
import { type CandidateLists, LabelHeap } from "./candidates.js";
import { ColumnCache } from "./column-cache.js";

/**
 * The shortest-augmenting-path engine shared by `mfs` and `imfs` (internal, not exported).
 *
 * ## The problem it solves
 * An `n x m` cost matrix `C` and `K` "dummy" columns `m .. m+K-1`; dummy column `d` costs
 * `dummyCost[d]` for every row. `C` is never stored: it is read from the weights in place,
 * `C[i][j] = -scale * w(i, j)` when `w(i, j) > 0` and `+Infinity` (a forbidden pair, never
 * used) otherwise. The engine keeps a matching that covers every *processed* row (each
 * processed row has a real or a dummy column) of minimum total cost. Dummy columns are created
 * only when a row cannot reach a free real column, so at all times
 *
 *   K = (number of processed rows) - nu(processed rows)                                  (K)
 *
 * where nu(S) is the maximum cardinality of a matching of the rows S into the real columns.
 *
 * ## Why this is "maximum cardinality first, then minimum cost" (the reduction)
 * Let S be the processed rows and K = |S| - nu(S) dummies, each adjacent to every row.
 * (i) A matching that covers every row of S uses at most K dummies, so at least nu(S) real
 *     pairs; a real part can never exceed nu(S), so it uses exactly K dummies and its real part
 *     is a maximum-cardinality matching.
 * (ii) Conversely every maximum matching of S extends to a row-covering one by giving its
 *     |S| - nu(S) unmatched rows the K dummies.
 * (iii) Every dummy is used exactly once in (i), so the dummy costs add the same constant to
 *     every row-covering matching, and its real cost is -(real weight).
 * So a minimum-cost row-covering matching is exactly a maximum-weight matching among those of
 * maximum cardinality. No "big M" is involved: cardinality is forced by counting, not by cost,
 * so it is exact for every finite weight, huge or tiny; forbidden pairs are `+Infinity` and can
 * never be chosen because a finite row-covering matching always exists.
 *
 * ## Invariants (the dual certificate; the state `imfs` inherits)
 * Row potentials `u`, column potentials `v` (real then dummy columns):
 *   (D1) reduced cost  C[i][j] - u[i] - v[j] >= 0  for every processed row i, finite C[i][j];
 *   (D2) equality on matched pairs;
 *   (D3) v[j] <= 0 for matched columns, v[j] = 0 for free real columns; dummies are always
 *        matched.
 * These are the reduced-cost conditions of the min-cost-flow formulation (source -> rows ->
 * columns -> sink, with the sink potential 0), so a matching that covers the processed rows and
 * satisfies them has minimum cost among all such matchings (no negative residual cycle).
 * (D1) and (D2) hold at all times; `mfs`'s start (column reduction) may leave free columns
 * below 0 until it repairs them at the end (shortest paths to free columns do not depend on
 * their potentials).
 *
 * ## Operations
 * - {@link SolverState.augmentRow}: adds a free row: Dijkstra on reduced costs from the row to the
 *   nearest free real column (Jonker-Volgenant / Crouse style, `O(m)` per scanned row). If no
 *   free real column is reachable (nu does not grow), a new dummy column is created whose cost
 *   keeps (D1); (K) is preserved in both cases (proof in the method).
 * - {@link SolverState.repairColumn}: a free real column with `v < 0` violates (D3). A reverse
 *   Dijkstra from it either raises its potential to 0 or moves the "free" status along an even
 *   alternating path to the column where that is cheapest. Used by `mfs` after a column
 *   reduction left free columns (square without a perfect matching, or nearly square).
 * - `imfs` uses the bidirectional versions of these searches in `bidi.ts` (one event = one
 *   search from both ends).
 * - {@link SolverState.normalize}: shifts potentials between rows and columns (reduced costs
 *   unchanged) so that a column freed later needs only a short repair.
 *
 * Floating point: the cardinality never depends on arithmetic; costs and potentials are
 * doubles, so the cost is minimum up to rounding (exact for integer weights with sums below
 * 2^53, where every value computed is an integer).
 *
 * Ties (`augmentRow`): the search settles distances in increasing order and, within one
 * distance, columns in the order they reached it (breadth first; the columns that reach it in
 * the same scan of a row, in increasing index). The first free real column reached at the
 * current distance ends the search. (`repairColumn`: lowest row index.)
 */

/** A dummy column index is `m + d`; this marks "no column / no row". */
export const NONE = -1;

const INF = Number.POSITIVE_INFINITY;
const EMPTY_F64 = new Float64Array(0);
const EMPTY_I32 = new Int32Array(0);
const EMPTY_U8 = new Uint8Array(0);

/** Where the engine reads its weights: entry `(i, j)` at `i * rowStride + j * colStride`. */
export interface WeightLayout {
  /** Power of two the weights are multiplied by (see `scaleFor`). */
  readonly scale: number;
  /** Distance between rows. */
  readonly rowStride: number;
  /** Distance between columns (1 when rows are contiguous). */
  readonly colStride: number;
}

/** The mutable working state of one solve. */
export class SolverState {
  /** Number of rows. */
  readonly n: number;
  /** Number of real columns. */
  readonly m: number;
  /**
   * The weights, read in place: cost `-scale * w` when `w > 0`, forbidden otherwise; entry
   * `(i, j)` at `i * rowStride + j * colStride` (so a transposed view costs nothing to build).
   */
  readonly W: Float64Array;
  /** Multiplier of the weights (`imfs` settles it after reading the changed lines). */
  scale: number;
  /** Distance between rows in {@link SolverState.W}. */
  readonly rowStride: number;
  /** Distance between columns in {@link SolverState.W}. */
  readonly colStride: number;
  /** Row potentials. */
  readonly u: Float64Array;
  /** Column potentials: real columns `0..m-1`, then dummies. Capacity `m + dummyCapacity`. */
  readonly v: Float64Array;
  /** Cost of dummy column `d` (same for every row). Capacity `dummyCapacity`. */
  readonly dummyCost: Float64Array;
  /** Row -> column (real or `m + d`), or `NONE` when the row is not (yet) processed. */
  readonly rowToCol: Int32Array;
  /** Column -> row, or `NONE`. Capacity `m + dummyCapacity`. */
  readonly colToRow: Int32Array;
  /** Weight of each row's pair, filled by `finish` (0 for a row on a dummy). */
  readonly pairWeight: Float64Array;
  /** Number of dummy columns. */
  K = 0;
  /**
   * Columns (real and dummy) the search work arrays hold: every column this solve can have,
   * unless the caller knows fewer (`imfs`: the dummies so far plus one per row it re-adds).
   * Set before the first search.
   */
  workColumns: number;
  /**
   * Take the search work arrays from the scratch pool (`arena.ts`) instead of allocating them:
   * only for a caller that started a call with `resetScratch` and drops the engine's work
   * arrays before its next call (`imfs`).
   */
  scratch = false;
  /**
   * A contiguous copy of the weights of real column {@link SolverState.copiedCol} (entry `i`
   * for row `i`), when the caller has read that column already (`imfs`, a changed column): the
   * searches read it instead of the strided column.
   */
  colCopy: Float64Array = EMPTY_F64;
  /** The column {@link SolverState.colCopy} holds, or `NONE`. */
  copiedCol = NONE;
  /**
   * A column-major copy of the weights (`column-cache.ts`), which the backward searches read
   * instead of the strided columns of `W` (`imfs`, in a call of a chain); `undefined` otherwise.
   */
  columns: ColumnCache | undefined = undefined;
  /**
   * The copy holds this call's matrix in every built column and may be written: columns the
   * searches read for the first time are copied into it. Else (a call from an older state) it
   * is only read, with {@link SolverState.staleRows} patched and
   * {@link SolverState.staleCol} read from `W`.
   */
  columnsWritable = false;
  /** Start {@link SolverState.columns} at the first column read (when it is `undefined`). */
  startColumns = false;
  /**
   * The newest version of a copy started here ({@link SolverState.startColumns}), whose columns
   * are this call's matrix at version 1: 0 in `imfs` (it records version 1 when the call ends),
   * 1 in `mfs` (its result is version 1).
   */
  startVersion = 0;
  /**
   * The version of this call's matrix in {@link SolverState.columns}: a writable copy records
   * it for the columns it copies; a read-only one reads only columns copied at or before it.
   */
  columnsVersion = 0;
  /** Rows whose entries in a read-only copy are not this call's (read from `W` instead). */
  staleRows: Int32Array = EMPTY_I32;
  /** `staleCol[c] = 1`: column `c` of a read-only copy is not this call's (read `W`). */
  staleCol: Uint8Array = EMPTY_U8;
  /**
   * The copy holds entries of earlier matrices, which an untruthful hint would make differ
   * from `W`: the searches check the pairs they make against `W` (see `bidi.ts`).
   */
  checkColumns = false;
  /** A column of a read-only copy with its stale rows patched. */
  private patched: Float64Array = EMPTY_F64;
  /**
   * This call is one that reads a column copy when it has one (`imfs`, hinted, same shape and
   * lines): its searches weigh a backward step as `SearchOptions.copiedBackwardCost`, with or
   * without the copy, so that results never depend on whether it was there.
   */
  copyCall = false;

  // Work arrays of the searches, created on first use (an `imfs` call often needs only one
  // bidirectional search, and allocating arrays costs more than most of what it does); no
  // allocation inside the loops. Column arrays have the capacity of `v`.
  /** Tentative label of an unsettled column (`+Infinity` once settled). */
  key: Float64Array = EMPTY_F64;
  /** Potential of an unsettled column (`-Infinity` once settled, so it is never relabeled). */
  vs: Float64Array = EMPTY_F64;
  /** Final label of a settled column. */
  label: Float64Array = EMPTY_F64;
  /** The row that gave a column its label. */
  pathRow: Int32Array = EMPTY_I32;
  // One-sided searches (`augmentRow`, `repairColumn`).
  private ties: Int32Array = EMPTY_I32;
  private scannedCols: Int32Array = EMPTY_I32;
  private scannedRows: Int32Array = EMPTY_I32;
  private rowDist: Float64Array = EMPTY_F64;
  private predCol: Int32Array = EMPTY_I32;
  private open: Uint8Array = EMPTY_U8;
  /** Number of entries in `ties` after a relaxation (see `relax`). */
  private nTies = 0;
  /**
   * Candidate columns per row (`candidates.ts`): while set, `augmentRow` scans a row through its
   * list (`relaxSparse`). Only `mfs` sets it, and only while column potentials can only fall.
   */
  candidates: CandidateLists | undefined = undefined;
  /** The next one-sided search scans rows through {@link SolverState.candidates}. */
  useCandidates = false;
  /** Rows scanned by {@link SolverState.augmentRow} so far (how long its searches run). */
  rowScans = 0;
  /**
   * Columns `0 .. cleanColumns` have `key = +Infinity` and `vs = v`, as a search starts them:
   * left so by a search through candidate lists, which puts back only the columns it touched.
   * Only such a search sets it, and {@link SolverState.setCandidates} forgets it, so it holds
   * while one-sided searches through lists follow one another (nothing else changes `v`
   * between them in `mfs`).
   */
  cleanColumns = 0;
  // Searches through candidate lists: their priority queue, the scan position of the row that
  // gave each column its label, each scanned row's bound on the labels it has not given yet
  // (`+Infinity` once read in full), the smallest of those, and the rounding margin's terms.
  private heap: LabelHeap | undefined = undefined;
  private pathPos: Int32Array = EMPTY_I32;
  private scanBound: Float64Array = EMPTY_F64;
  private deferred = INF;
  /** The largest `|v[j]|` of a real column, kept while {@link SolverState.candidates} is set. */
  vMagnitude = 0;
  // Bidirectional searches (`bidi.ts`; they use the column arrays above too).
  fSettled: Uint8Array = EMPTY_U8;
  bColLabel: Float64Array = EMPTY_F64;
  bLabel: Float64Array = EMPTY_F64;
  bNext: Int32Array = EMPTY_I32;
  bOpen: Uint8Array = EMPTY_U8;
  /** Per row, all NONE between searches: the work array of `cutCycles`. */
  walkAt: Int32Array = EMPTY_I32;

  constructor(
    n: number,
    m: number,
    W: Float64Array,
    layout: WeightLayout,
    /** The most dummy columns this solve can create (at most one per row). */
    dummyCapacity = n,
    /**
     * Take `colToRow` (never part of a result) from the scratch pool (`arena.ts`), as the
     * search work arrays with {@link SolverState.scratch}: only for `imfs`.
     */
    scratch = false,
  ) {
    this.n = n;
    this.m = m;
    this.W = W;
    this.scale = layout.scale;
    this.rowStride = layout.rowStride;
    this.colStride = layout.colStride;
    const size = m + dummyCapacity;
    const arena = new Arena(2 * n + size + dummyCapacity, n + (scratch ? 0 : size), 0);
    this.u = arena.f64(n);
    this.pairWeight = arena.f64(n);
    this.v = arena.f64(size);
    this.dummyCost = arena.f64(dummyCapacity);
    this.rowToCol = arena.i32(n).fill(NONE);
    this.colToRow = (scratch ? new Arena(0, size, 0, true, false) : arena).i32(size).fill(NONE);
    this.workColumns = size;
    this.scratch = scratch;
  }

  /** Creates the column work arrays (`key`, `vs`, `label`, `pathRow`) if needed. */
  labels(): void {
    if (this.key.length !== 0) return;
    const size = this.workColumns;
    // Written before read by every search (no zeroing needed from the scratch pool).
    const arena = new Arena(3 * size, size, 0, this.scratch, false);
    this.key = arena.f64(size);
    this.vs = arena.f64(size);
    this.label = arena.f64(size);
    this.pathRow = arena.i32(size);
  }

  /** Creates the work arrays of the bidirectional searches if needed. */
  twoSided(): void {
    if (this.bLabel.length !== 0) return;
    const { n } = this;
    const size = this.workColumns;
    // With the column arrays in the same allocation when they do not exist yet.
    const withLabels = this.key.length === 0;
    const arena = new Arena(
      size + n + (withLabels ? 3 * size : 0),
      2 * n + (withLabels ? size : 0),
      size + n,
      this.scratch,
      false, // written before read by every search
    );
    if (withLabels) {
      this.key = arena.f64(size);
      this.vs = arena.f64(size);
      this.label = arena.f64(size);
      this.pathRow = arena.i32(size);
    }
    this.bColLabel = arena.f64(size);
    this.bLabel = arena.f64(n);
    this.bNext = arena.i32(n);
    this.walkAt = arena.i32(n).fill(NONE);
    this.fSettled = arena.u8(size);
    this.bOpen = arena.u8(n);
  }

  /** Creates the work arrays of the one-sided searches if needed. */
  private oneSided(): void {
    this.labels();
    if (this.ties.length !== 0) return;
    const { n } = this;
    const size = this.workColumns;
    const arena = new Arena(n, 2 * size + 2 * n, n, this.scratch, false);
    this.rowDist = arena.f64(n);
    this.ties = arena.i32(size);
    this.scannedCols = arena.i32(size);
    this.scannedRows = arena.i32(n);
    this.predCol = arena.i32(n);
    this.open = arena.u8(n);
  }

  /**
   * Where real column `c` can be read contiguously: 1 in {@link SolverState.columns} at
   * `c * n`, 2 in {@link SolverState.patchedColumn} at 0, 0 nowhere (read `W`). A writable copy
   * (started here if {@link SolverState.startColumns} asks for one) gets the column first if it
   * does not hold it yet (one strided pass over `W`).
   */
  columnSource(c: number): number {
    const cache = this.columns ?? (this.startColumns ? this.startColumnCopy() : undefined);
    if (cache === undefined) return 0;
    if (cache.builtAt[c] === 0) {
      if (!this.columnsWritable) return 0;
      this.copyColumn(cache, c);
    }
    if (this.columnsWritable) return 1;
    if (this.staleCol[c] === 1 || cache.builtAt[c]! > this.columnsVersion) return 0;
    const rows = this.staleRows;
    if (rows.length === 0) return 1;
    const { n, W, rowStride } = this;
    if (this.patched.length === 0) this.patched = new Arena(n, 0, 0, this.scratch, false).f64(n);
    const out = this.patched;
    out.set(cache.column(c));
    const from = c * this.colStride;
    for (let q = 0; q < rows.length; q++) out[rows[q]!] = W[from + rows[q]! * rowStride]!;
    return 2;
  }

  /**
   * Starts {@link SolverState.columns} for this call's matrix (version 1, which the caller
   * records at the end); `undefined`, and no further attempt, when even its index (`m` slots
   * and versions) cannot be allocated (the call then reads `W`, as without a copy). The columns
   * themselves, `8 n` bytes each, are allocated as they are first written.
   */
  startColumnCopy(): ColumnCache | undefined {
    this.startColumns = false;
    try {
      this.columns = new ColumnCache(this.n, this.m, this.startVersion);
    } catch {
      return undefined; // (a RangeError: the allocation failed)
    }
    this.columnsWritable = true;
    this.columnsVersion = 1;
    return this.columns;
  }

  /** The column {@link SolverState.columnSource} patched last. */
  get patchedColumn(): Float64Array {
    return this.patched;
  }

  /** Copies real column `c` of `W` into `cache` (this call's matrix). */
  copyColumn(cache: ColumnCache, c: number): void {
    const { n, W, rowStride } = this;
    const data = cache.column(c);
    const from = c * this.colStride;
    for (let i = 0; i < n; i++) data[i] = W[from + i * rowStride]!;
    cache.builtAt[c] = this.columnsVersion;
  }

  /** Cost of row `i` on column `j` (real or dummy); `+Infinity` when forbidden. */
  cost(i: number, j: number): number {
    if (j >= this.m) return this.dummyCost[j - this.m]!;
    const w = this.W[i * this.rowStride + j * this.colStride]!;
    return w > 0 ? -w * this.scale : INF;
  }

  /**
   * The cost `D` of a new dummy column: the largest potential of a processed row (0 if none),
   * so that `D - u[i] >= 0` for every row the update leaves alone. The new row `r` itself needs
   * no bound: its update is limited by its own distance to the dummy, `D - u[r]`.
   */
  private dummyCostBound(r: number): number {
    const { u, rowToCol } = this;
    let D = Number.NEGATIVE_INFINITY;
    for (let q = 0; q < this.n; q++) if (q !== r && rowToCol[q] !== NONE && u[q]! > D) D = u[q]!;
    return D === Number.NEGATIVE_INFINITY ? 0 : D;
  }

  /**
   * When every real column is matched, shifts potentials (`v -= t`, `u += t`, with `t` the
   * largest column potential) so that the largest one is 0. Reduced costs are unchanged, so
   * (D1)-(D3) still hold, but a column freed later (its row leaves) starts close to the 0 it
   * must reach, which keeps `repairColumn` short. (Left alone when a real column is free: its
   * potential must stay 0.)
   */
  normalize(): void {
    const { n, m, u, v, colToRow } = this;
    let t = Number.NEGATIVE_INFINITY;
    for (let j = 0; j < m; j++) {
      if (colToRow[j] === NONE) return; // a free real column
      if (v[j]! > t) t = v[j]!;
    }
    for (let j = m; j < m + this.K; j++) if (v[j]! > t) t = v[j]!;
    if (!(t < 0)) return;
    for (let j = 0; j < m + this.K; j++) v[j]! -= t;
    for (let i = 0; i < n; i++) if (this.rowToCol[i] !== NONE) u[i]! += t;
  }

  /** Number of real columns with no row. */
  freeRealColumns(): number {
    let count = 0;
    for (let j = 0; j < this.m; j++) if (this.colToRow[j] === NONE) count++;
    return count;
  }

  /**
   * Relaxes every unsettled column `j < M` from row `i` (`label = shift + C[i][j] - v[j]`) and
   * returns the smallest tentative label afterwards; `ties[0 .. nTies)` lists the columns that
   * have it, in increasing index (`+Infinity`: nothing reachable).
   */
  private relax(i: number, shift: number, M: number): number {
    const { m, W, key, vs, pathRow, ties } = this;
    const negScale = -this.scale;
    let low = INF;
    let nt = 0;
    // The hot loop: one matrix row (contiguous in `mfs`), no index list (settled columns are
    // skipped by their sentinels: key +Infinity, vs -Infinity, so the new label is +Infinity).
    const base = i * this.rowStride;
    const cs = this.colStride;
    for (let j = 0; j < m; j++) {
      let x = key[j]!;
      const w = W[base + j * cs]!;
      const t = shift + w * negScale - vs[j]!;
      // Eligibility second: "t < x" is mostly false and well predicted, while "w > 0" is a
      // coin toss on a sparse matrix.
      if (t < x && w > 0) {
        x = t;
        key[j] = t;
        pathRow[j] = i;
      }
      if (x <= low) {
        if (x < low) {
          low = x;
          nt = 0;
        }
        ties[nt++] = j;
      }
    }
    const dummyCost = this.dummyCost;
    for (let j = m; j < M; j++) {
      let x = key[j]!;
      const t = shift + dummyCost[j - m]! - vs[j]!;
      if (t < x) {
        x = t;
        key[j] = t;
        pathRow[j] = i;
      }
      if (x <= low) {
        if (x < low) {
          low = x;
          nt = 0;
        }
        ties[nt++] = j;
      }
    }
    if (low === INF) nt = 0;
    this.nTies = nt;
    return low;
  }

  /**
   * Sets {@link SolverState.candidates} (`undefined` to drop them); with lists, also the
   * largest `|v|` of a real column, which `augmentRow` then keeps up to date.
   */
  setCandidates(lists: CandidateLists | undefined): void {
    this.candidates = lists;
    this.useCandidates = false;
    this.cleanColumns = 0;
    if (lists === undefined) return;
    let magnitude = 0;
    for (let j = 0; j < this.m; j++) {
      const a = Math.abs(this.v[j]!);
      if (a > magnitude) magnitude = a;
    }
    this.vMagnitude = magnitude;
  }

  /** Starts a search through candidate lists. */
  private startSparse(): void {
    if (this.heap === undefined) {
      this.heap = new LabelHeap(4 * (this.candidates!.k + 1) * 64);
      this.pathPos = new Int32Array(this.workColumns);
      this.scanBound = new Float64Array(this.n);
    }
    this.heap.size = 0;
    this.deferred = INF;
  }

  /**
   * {@link SolverState.relax} through row `i`'s candidate list: the same smallest label and the
   * same `ties`, and the same label and path row for every column a search can settle, while
   * reading the rest of the row only when its bound comes within reach.
   *
   * Row `i` (the `q`-th scanned) relaxes its candidate columns (and the dummies) at once. Every
   * other column `j` would get at least `B = shift + bound[i]` (the bound holds because column
   * potentials only fell since the list was built), less a rounding margin. While the smallest
   * such `B` over the rows scanned so far lies above the smallest label, no column's label nor
   * the set of columns at the smallest label can differ from what full scans give (a deferred
   * label is above it), so the answer is that of {@link SolverState.relax}. Otherwise the rows
   * in reach are read in full first, keeping for each column the label of the row scanned
   * first when two rows give the same, as scans in order do. Columns not settled may keep a
   * larger label than full scans would give them, which nothing reads.
   */
  private relaxSparse(i: number, shift: number, M: number, q: number): number {
    const lists = this.candidates!;
    const heap = this.heap!;
    const { m, W, key, vs, pathRow, pathPos } = this;
    const negScale = -this.scale;
    const base = i * this.rowStride;
    if (lists.count[i] === -1) lists.build(i, W, base, m, negScale, this.v);
    lists.scans++;
    const k = lists.k;
    const at = i * k;
    const end = at + lists.count[i]!;
    const cols = lists.cols;
    for (let p = at; p < end; p++) {
      const j = cols[p]!;
      const t = shift + W[base + j]! * negScale - vs[j]!;
      if (t < key[j]!) {
        key[j] = t;
        pathRow[j] = i;
        pathPos[j] = q;
        heap.push(t, j);
      }
    }
    const dummyCost = this.dummyCost;
    for (let j = m; j < M; j++) {
      const t = shift + dummyCost[j - m]! - vs[j]!;
      if (t < key[j]!) {
        key[j] = t;
        pathRow[j] = i;
        pathPos[j] = q;
        heap.push(t, j);
      }
    }
    const bound = lists.bound[i]!;
    let B = INF;
    if (bound !== INF) {
      // The rounding of the labels (one product, two sums) and of the bound: far below any
      // difference a search decides on, and never in the way of exactness (too small a `B` only
      // reads a row in full sooner).
      const margin =
        (Math.abs(shift) + Math.abs(bound) + lists.costMax + this.vMagnitude) * 2 ** -46;
      B = shift + bound - margin;
    }
    this.scanBound[q] = B;
    if (B < this.deferred) this.deferred = B;

    let low: number;
    for (;;) {
      while (heap.size > 0 && key[heap.cols[0]!] !== heap.keys[0]) heap.pop();
      low = heap.size > 0 ? heap.keys[0]! : INF;
      if (this.deferred === INF || this.deferred > low) break;
      this.expandDeferred(low, q);
    }
    let nt = 0;
    if (low !== INF) {
      const ties = this.ties;
      nt = heap.collectMin(low, key, ties);
      // In increasing index, as a full scan lists them.
      for (let a = 1; a < nt; a++) {
        const j = ties[a]!;
        let b = a;
        while (b > 0 && ties[b - 1]! > j) {
          ties[b] = ties[b - 1]!;
          b--;
        }
        ties[b] = j;
      }
    }
    this.nTies = nt;
    return low;
  }

  /**
   * Reads in full every scanned row (positions `0 .. last`) whose bound is at or below `low`,
   * then recomputes the smallest bound left.
   */
  private expandDeferred(low: number, last: number): void {
    const lists = this.candidates!;
    const heap = this.heap!;
    const { m, W, u, key, vs, pathRow, pathPos, scannedRows, rowDist, scanBound } = this;
    const negScale = -this.scale;
    let deferred = INF;
    for (let q = 0; q <= last; q++) {
      const B = scanBound[q]!;
      if (B === INF) continue;
      if (B > low) {
        if (B < deferred) deferred = B;
        continue;
      }
      scanBound[q] = INF;
      lists.expansions++;
      const i = scannedRows[q]!;
      const shift = rowDist[q]! - u[i]!;
      const base = i * this.rowStride;
      for (let j = 0; j < m; j++) {
        const w = W[base + j]!;
        const t = shift + w * negScale - vs[j]!;
        const x = key[j]!;
        if (w > 0 && t <= x && t !== INF) {
          if (t < x) {
            key[j] = t;
            pathRow[j] = i;
            pathPos[j] = q;
            heap.push(t, j);
          } else if (pathPos[j]! > q) {
            // Same label from a row scanned later: a scan in order would have kept this one.
            pathRow[j] = i;
            pathPos[j] = q;
          }
        }
      }
    }
    this.deferred = deferred;
  }

  /**
   * Adds the free row `r` to the processed set, keeping (D1), (D2) and (K).
   *
   * Dijkstra from `r` over alternating paths: row -> any column by a non-matching pair with its
   * reduced cost, column -> its row by the matching pair (reduced cost 0). Distances are settled
   * in increasing order, a whole distance ("level") at a time, as in Jonker and Volgenant's
   * augmentation: the columns at the current level are scanned breadth first (their rows are
   * relaxed), and a column that reaches the current level while doing so joins it at once.
   * The first free real column that joins a level ends the search (distance `delta`);
   * potentials of the settled nodes move by `delta - dist` (which keeps (D1)-(D2)), and the
   * path is flipped. Each scanned row costs one pass over its matrix row and the unsettled
   * columns (no index list), and no other pass is needed while a level lasts, which matters
   * with integer weights, where levels are wide. The real part grows by one and K is
   * unchanged, so (K) holds (nu grows by one).
   *
   * If no free real column is reachable, nu(S + r) = nu(S): an augmenting path for the real part
   * would have to start at `r` (any other would already exist in S). Then one dummy is added,
   * which keeps (K). Its cost `D = max u` over S (see `dummyCostBound`) keeps (D1) for every
   * row the update leaves alone; the distance to it through a settled row `i` is
   * `dist(i) + D - u[i]`; the minimum over all reachable rows (all were settled, with exact
   * distances) is `delta`, and the same update applies to the nodes with `dist <= delta`.
   * When there is no free real column at all, that minimum is tracked during the search, which
   * stops as soon as nothing cheaper is left.
   *
   * `freeColumns`: the number of free real columns, when the caller keeps count (`mfs`), so that
   * a search does not count them (a pass over the columns, 3% of `mfs` on 150 x 300 plans);
   * negative (the default) to have them counted.
   */
  augmentRow(r: number, withDummies = false, freeColumns = -1): void {
    this.oneSided();
    const { m, u, v, colToRow, rowToCol, key, vs, label, pathRow, ties } = this;
    const { scannedRows, rowDist, scannedCols } = this;
    const K = this.K;
    // Existing dummies are left out of the search unless `withDummies`: a path through one
    // continues from a row on a dummy, and no such row reaches a free real column (K), nor
    // gives a cheaper way to a new dummy (S is optimal, so swapping which row sits on a dummy
    // never pays). Their distances are all the same, `dummyBound` below (each row on a dummy
    // has the largest potential, as (D1) on the dummy columns requires), so the search only
    // has to be redone with them when it ends on a free real column beyond that distance.
    const M = withDummies ? m + K : m;
    // Columns below `cleanColumns` are ready from the last search (see there).
    for (let j = this.cleanColumns; j < M; j++) {
      key[j] = INF;
      vs[j] = v[j]!;
    }
    this.cleanColumns = 0;
    const sparse = this.useCandidates && this.candidates?.useful === true;
    if (sparse) this.startSparse();
    u[r] = 0;
    // The distance to a (new or existing) dummy through scanned row i is
    // dist(i) + maxU - u[i]. With no free real column at all, the search can only end on a new
    // dummy, so it stops as soon as nothing cheaper remains.
    const noFree = (freeColumns < 0 ? this.freeRealColumns() : freeColumns) === 0;
    let dummyBound = INF;
    const maxU = noFree || K > 0 ? this.dummyCostBound(r) : Number.NEGATIVE_INFINITY;
    const trackDummy = maxU !== Number.NEGATIVE_INFINITY;
    // The start row's own distance is 0 (its first labels may be negative: its potential is
    // arbitrary until now), so the first level is whatever its scan finds.
    let level = Number.NEGATIVE_INFINITY;
    let rowLabel = 0;
    let i = r;
    let nRows = 0;
    let nCols = 0;
    let head = 0; // scannedCols[head .. nCols): columns of the current level not scanned yet
    let sink = NONE;
    for (;;) {
      scannedRows[nRows] = i;
      rowDist[nRows] = rowLabel;
      nRows++;
      this.rowScans++;
      if (trackDummy) {
        const via = rowLabel + maxU - u[i]!;
        if (via < dummyBound) dummyBound = via;
      }
      const low = sparse
        ? this.relaxSparse(i, rowLabel - u[i]!, M, nRows - 1)
        : this.relax(i, rowLabel - u[i]!, M);
      if (low <= level) {
        // Columns that reached the current level (below it only by rounding) join it.
        for (let q = 0; q < this.nTies; q++) {
          const j = ties[q]!;
          label[j] = level;
          key[j] = INF;
          vs[j] = Number.NEGATIVE_INFINITY;
          scannedCols[nCols++] = j;
          if (sink === NONE && j < m && colToRow[j] === NONE) sink = j;
        }
        if (sink !== NONE) break;
      }
      if (head === nCols) {
        // The level is exhausted: the next one starts at the smallest label left.
        if (low === INF || (noFree && low >= dummyBound)) break;
        level = low;
        for (let q = 0; q < this.nTies; q++) {
          const j = ties[q]!;
          label[j] = level;
          key[j] = INF;
          vs[j] = Number.NEGATIVE_INFINITY;
          scannedCols[nCols++] = j;
          if (sink === NONE && j < m && colToRow[j] === NONE) sink = j;
        }
        if (sink !== NONE) break;
      } else if (noFree && level >= dummyBound) {
        break;
      }
      i = colToRow[scannedCols[head++]!]!;
      rowLabel = level;
    }

    if (sink !== NONE && !withDummies && K > 0 && level > dummyBound) {
      // A free real column, but beyond the dummies' distance: redo the search with them, so
      // that the rows on dummies get their share of the potential update. (Nothing has been
      // modified yet.)
      this.augmentRow(r, true, freeColumns);
      return;
    }
    let delta: number;
    if (sink === NONE) {
      // No free real column reachable (or none closer than a new dummy): create dummy m + K.
      const D = this.dummyCostBound(r);
      delta = INF;
      let via = r;
      for (let q = 0; q < nRows; q++) {
        const row = scannedRows[q]!;
        const t = rowDist[q]! + D - u[row]!;
        if (t < delta || (t === delta && row < via)) {
          delta = t;
          via = row;
        }
      }
      sink = m + K;
      this.dummyCost[K] = D;
      v[sink] = 0;
      colToRow[sink] = NONE;
      label[sink] = delta;
      pathRow[sink] = via;
      this.K = K + 1;
    } else {
      delta = level;
    }

    // Potential update on the settled nodes (dist <= delta). The start row is always settled:
    // its first labels may be negative (its own potential is arbitrary until now).
    u[r] += delta;
    for (let q = 1; q < nRows; q++) {
      const d = rowDist[q]!;
      if (d <= delta) u[scannedRows[q]!]! += delta - d;
    }
    for (let q = 0; q < nCols; q++) {
      const j = scannedCols[q]!;
      const d = label[j]!;
      if (d <= delta) v[j]! -= delta - d;
    }
    if (this.candidates !== undefined) {
      let magnitude = this.vMagnitude;
      for (let q = 0; q < nCols; q++) {
        const j = scannedCols[q]!;
        if (j < m && -v[j]! > magnitude) magnitude = -v[j]!;
      }
      this.vMagnitude = magnitude;
    }

    // Flip the path.
    let j = sink;
    for (;;) {
      const row = pathRow[j]!;
      colToRow[j] = row;
      const prev = rowToCol[row]!;
      rowToCol[row] = j;
      if (row === r) break;
      j = prev;
    }

    if (sparse) {
      // A search through the lists labels few columns, each with an entry in the heap (a
      // column's label always has one), and settles few: putting back `key = +Infinity` and
      // `vs = v` on those costs less than the next search's pass over every column.
      const heap = this.heap!;
      for (let p = 0; p < heap.size; p++) key[heap.cols[p]!] = INF;
      for (let q = 0; q < nCols; q++) {
        const c = scannedCols[q]!;
        key[c] = INF;
        vs[c] = v[c]!;
      }
      this.cleanColumns = M;
    }
  }

  /**
   * Restores (D3) at the free real column `j0` whose potential is negative, keeping (D1), (D2)
   * and the set of matched rows. Every processed row must be matched.
   *
   * Reverse Dijkstra from `j0`: column -> row `i` by a non-matching pair (reduced cost), row ->
   * its matched column (0). Ending at a matched column `k` (which becomes free; the path shifts
   * each row onto the previous column) costs `dist(k) - v[k]`; not moving costs `-v[j0]`
   * (raise `v[j0]` to 0). The cheapest option `delta` is taken: settled columns gain
   * `delta - dist`, settled rows lose it, which keeps (D1)-(D2), leaves matched potentials
   * `<= 0` (as `dist(k) - v[k] >= delta` for every settled `k`) and gives the freed column
   * exactly 0. An even alternating path keeps the real part's size, so (K) is kept; dummy
   * columns are never reached because rows on dummies cannot reach a free real column (the
   * caller ensures this before repairing).
   *
   * @param inS `inS[i] = 1` for processed rows.
   */
  repairColumn(j0: number, inS: Uint8Array): void {
    this.oneSided();
    const { n, m, W, u, v, colToRow, rowToCol, scannedCols, predCol, open } = this;
    const dist = this.label;
    const rowDist = this.rowDist;
    // open[i] = 1 while row i is processed and not yet settled. Rows are scanned in increasing
    // index so that the column walk through the matrix has a constant stride.
    for (let i = 0; i < n; i++) {
      open[i] = inS[i]!;
      if (inS[i] === 1) rowDist[i] = INF;
    }
    const rowStep = this.rowStride;
    const negScale = -this.scale;
    let best = -v[j0]!;
    let bestEnd = j0;
    let nScannedCols = 0;
    scannedCols[nScannedCols++] = j0;
    dist[j0] = 0;
    let k = j0;
    let dk = 0;
    const settledRows = this.scannedRows;
    let nSettledRows = 0;
    for (;;) {
      const shift = dk - v[k]!;
      let lowest = INF;
      let bestRow = NONE;
      if (k < m) {
        const colBase = k * this.colStride;
        for (let i = 0; i < n; i++) {
          if (open[i] === 0) continue;
          let s = rowDist[i]!;
          // Eligibility tested second, as in augmentRow (well-predicted branch first).
          const w = W[colBase + i * rowStep]!;
          const t = shift + w * negScale - u[i]!;
          if (t < s && w > 0) {
            s = t;
            rowDist[i] = t;
            predCol[i] = k;
          }
          if (s < lowest) {
            lowest = s;
            bestRow = i;
          }
        }
      } else {
        const t0 = shift + this.dummyCost[k - m]!;
        for (let i = 0; i < n; i++) {
          if (open[i] === 0) continue;
          const t = t0 - u[i]!;
          let s = rowDist[i]!;
          if (t < s) {
            s = t;
            rowDist[i] = t;
            predCol[i] = k;
          }
          if (s < lowest) {
            lowest = s;
            bestRow = i;
          }
        }
      }
      // (Rows are scanned in increasing index with a strict "<": ties go to the lowest row.)
      if (bestRow === NONE || lowest >= best) break;
      open[bestRow] = 0;
      settledRows[nSettledRows++] = bestRow;
      k = rowToCol[bestRow]!;
      dk = lowest;
      dist[k] = dk;
      scannedCols[nScannedCols++] = k;
      const T = dk - v[k]!;
      if (T < best) {
        best = T;
        bestEnd = k;
      }
    }
    const delta = best;
    for (let q = 0; q < nScannedCols; q++) {
      const j = scannedCols[q]!;
      v[j]! += delta - dist[j]!;
    }
    for (let q = 0; q < nSettledRows; q++) {
      const i = settledRows[q]!;
      u[i]! -= delta - rowDist[i]!;
    }
    if (bestEnd !== j0) {
      // Shift: the row on bestEnd moves to its predecessor column, and so on back to j0.
      let i = colToRow[bestEnd]!;
      colToRow[bestEnd] = NONE;
      for (;;) {
        const c = predCol[i]!;
        const next = colToRow[c]!;
        rowToCol[i] = c;
        colToRow[c] = i;
        if (c === j0) break;
        i = next;
      }
    }
    v[bestEnd] = 0; // exactly 0 (it is 0 up to rounding)
  }
}
