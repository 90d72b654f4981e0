const INF = Number.POSITIVE_INFINITY;

/**
 * Candidate columns per row for the one-sided searches of `mfs` (`SolverState.augmentRow`):
 * a row's `k` columns of smallest reduced cost `C[i][j] - v[j]`, taken when a search first scans
 * the row, and a lower bound on that reduced cost for every other column of the row. Internal.
 *
 * Why a bound taken once stays a bound: while `mfs` adds rows by one-sided searches, column
 * potentials only fall (the jump start lowers them, and each search lowers those of the columns
 * it settles), so `C[i][j] - v[j]` only grows. The bound is therefore valid for as long as the
 * caller keeps that phase going; `mfs` drops the lists before its first two-sided search, whose
 * update may raise a potential.
 *
 * What a search gains: on dense 1000 x 1000 uniform weights, a search scans about 150 rows to
 * find a free column, and the columns it settles come from the 16 cheapest of each row in
 * practice (none of the 26,000 row scans of five held-out instances needed more), so a scan costs
 * 16 relaxations instead of 1000. Exactness never depends on that: a row whose bound is within
 * reach of the smallest label is scanned in full (`SolverState.relaxSparse`).
 */
export class CandidateLists {
  /** Columns kept per row. */
  readonly k: number;
  /** Row `i`'s columns at `i * k .. i * k + count[i]`. */
  readonly cols: Int32Array;
  /** Columns kept for row `i`, or -1 while its list is not built. */
  readonly count: Int32Array;
  /**
   * The smallest reduced cost `C[i][j] - v[j]` of an eligible column left out of row `i`'s list,
   * at the time it was built (`+Infinity` when none was left out).
   */
  readonly bound: Float64Array;
  /** The largest `|C[i][j]|` of the rows built so far (for the rounding margin). */
  costMax = 0;
  /** Rows scanned through their lists, and rows of those scanned in full later. */
  scans = 0;
  expansions = 0;
  // Selection buffers: the k + 1 smallest reduced costs of the row being built, sorted.
  private readonly bestCost: Float64Array;
  private readonly bestCol: Int32Array;

  /** Whether {@link CandidateLists.useful} may give up on them. */
  private readonly mayGiveUp: boolean;

  constructor(n: number, k: number, mayGiveUp = true) {
    this.k = k;
    this.mayGiveUp = mayGiveUp;
    this.cols = new Int32Array(n * k);
    this.count = new Int32Array(n).fill(-1);
    this.bound = new Float64Array(n);
    this.bestCost = new Float64Array(k + 1);
    this.bestCol = new Int32Array(k + 1);
  }

  /**
   * Whether lists still pay: after 64 scans, stop when more than one scan in four had to read
   * its row in full (heavy ties, where reduced costs bunch up), since a full scan through the
   * lists costs more than a plain one.
   */
  get useful(): boolean {
    return !this.mayGiveUp || this.scans < 64 || this.expansions * 4 <= this.scans;
  }

  /**
   * Builds row `i`'s list from its weights `W[base .. base + m)` (`cost = negScale * w` when
   * `w > 0`, else forbidden) and the column potentials `v`.
   */
  build(
    i: number,
    W: Float64Array,
    base: number,
    m: number,
    negScale: number,
    v: Float64Array,
  ): void {
    const k = this.k;
    const bestCost = this.bestCost;
    const bestCol = this.bestCol;
    let kept = 0; // entries of bestCost/bestCol in use (at most k + 1)
    let worst = INF; // bestCost[k] once full: only smaller reduced costs get in
    let high = 0; // the row's largest weight (its largest |cost| is high * scale, exactly)
    for (let j = 0; j < m; j++) {
      const w = W[base + j]!;
      if (w > high) high = w;
      const r = w * negScale - v[j]!;
      // Eligibility second: "r < worst" is mostly false once the buffer is full (and well
      // predicted), while "w > 0" is a coin toss on a sparse matrix.
      if (!(r < worst && w > 0)) continue;
      // Insert (r, j) into the sorted buffer; equal costs keep their column order.
      let p = kept < k + 1 ? kept++ : k;
      while (p > 0 && bestCost[p - 1]! > r) {
        bestCost[p] = bestCost[p - 1]!;
        bestCol[p] = bestCol[p - 1]!;
        p--;
      }
      bestCost[p] = r;
      bestCol[p] = j;
      if (kept === k + 1) worst = bestCost[k]!;
    }
    const costMax = -(high * negScale);
    if (costMax > this.costMax) this.costMax = costMax;
    const listed = kept < k + 1 ? kept : k;
    const at = i * k;
    for (let p = 0; p < listed; p++) this.cols[at + p] = bestCol[p]!;
    this.count[i] = listed;
    this.bound[i] = kept === k + 1 ? bestCost[k]! : INF;
  }
}

/**
 * A binary min-heap of (label, column) entries, the priority queue of the searches through
 * candidate lists. Entries are never updated: a column whose label falls is pushed again, and
 * an entry whose label is no longer the column's is stale (dropped when it reaches the top).
 * Internal.
 */
export class LabelHeap {
  keys: Float64Array;
  cols: Int32Array;
  size = 0;
  /** Work stack of {@link LabelHeap.collectMin}. */
  private stack: Int32Array;

  constructor(capacity: number) {
    this.keys = new Float64Array(capacity);
    this.cols = new Int32Array(capacity);
    this.stack = new Int32Array(capacity);
  }

  push(key: number, col: number): void {
    if (this.size === this.keys.length) this.grow();
    const keys = this.keys;
    const cols = this.cols;
    let p = this.size++;
    while (p > 0) {
      const parent = (p - 1) >> 1;
      const pk = keys[parent]!;
      if (pk < key || (pk === key && cols[parent]! < col)) break;
      keys[p] = pk;
      cols[p] = cols[parent]!;
      p = parent;
    }
    keys[p] = key;
    cols[p] = col;
  }

  /** Removes the top entry. */
  pop(): void {
    const keys = this.keys;
    const cols = this.cols;
    const size = --this.size;
    if (size === 0) return;
    const key = keys[size]!;
    const col = cols[size]!;
    let p = 0;
    for (;;) {
      let c = 2 * p + 1;
      if (c >= size) break;
      const c2 = c + 1;
      if (c2 < size && (keys[c2]! < keys[c]! || (keys[c2] === keys[c] && cols[c2]! < cols[c]!))) {
        c = c2;
      }
      const ck = keys[c]!;
      if (key < ck || (key === ck && col < cols[c]!)) break;
      keys[p] = ck;
      cols[p] = cols[c]!;
      p = c;
    }
    keys[p] = key;
    cols[p] = col;
  }

  /**
   * Writes into `out` the columns of every entry whose key equals the top key `low` and is still
   * the column's label (`label[col] === low`), and returns how many (in no particular order).
   */
  collectMin(low: number, label: Float64Array, out: Int32Array): number {
    const keys = this.keys;
    const cols = this.cols;
    const stack = this.stack;
    let top = 0;
    let found = 0;
    if (this.size > 0) stack[top++] = 0;
    while (top > 0) {
      const p = stack[--top]!;
      if (keys[p] !== low) continue; // larger: so is everything below it
      const col = cols[p]!;
      if (label[col] === low) out[found++] = col;
      const c = 2 * p + 1;
      if (c < this.size) stack[top++] = c;
      if (c + 1 < this.size) stack[top++] = c + 1;
    }
    return found;
  }

  private grow(): void {
    const capacity = 2 * this.keys.length + 16;
    const keys = new Float64Array(capacity);
    const cols = new Int32Array(capacity);
    keys.set(this.keys);
    cols.set(this.cols);
    this.keys = keys;
    this.cols = cols;
    this.stack = new Int32Array(capacity);
  }
}
