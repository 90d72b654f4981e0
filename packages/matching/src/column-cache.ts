import type { MatchingState } from "./types.js";

/**
 * How many versions behind the newest a state may be and still read a column copy (with the
 * lines changed since patched from its own matrix).
 */
export const MAX_VERSIONS_BEHIND = 8;

/** The most rows a call patches in each column it reads from a copy (else it reads `W`). */
export const MAX_PATCHED_ROWS = 32;

/**
 * A column-major copy of the weights a chain of `imfs` calls works on (internal, not exported
 * from the package): entry `(i, c)` of the internal orientation at `column(c)[i]`, for the
 * columns marked in `builtAt`. The backward side of a bidirectional search reads whole columns;
 * in the row-major matrix each entry of a column is on its own cache line (and, at 1000 x 1000,
 * its own page), while here a column is contiguous.
 *
 * It is built on read: the first time a search reads a column backward, the column is copied
 * here (the strided read it needed anyway, plus a contiguous write), and a changed column that
 * a hinted call reads is copied on the way. Each column has an array of its own, allocated when
 * it is first written (`8 n` bytes each, `8 n m` at most): one allocation of `8 n m` bytes up
 * front would be zero-filled at once, about 0.5 ms at 1000 x 1000, more than a whole hinted call
 * from a fresh plan otherwise costs.
 *
 * `mfs` starts one too, with the columns its two-sided searches read (they read them strided
 * anyway): a scheduler's first `imfs` calls after a plan mostly need those same columns, the ones
 * around the last free columns, so they read them contiguously from the start.
 *
 * Versions: the copy holds the matrix of its newest version (`version`) in every built column.
 * Each state of a chain knows the copy and its own version (`columnCopyOf`); the call from the
 * state at the newest version updates the copy in place with the lines its hint lists (which the
 * hint promises are the only ones that differ) and returns the state of the next version. A
 * call from an older state (branching) reads the copy without writing to it, only the columns
 * copied at or before its version, taking the lines changed since its version (`changedSince`)
 * and its own hint's lines from its own matrix.
 * Versions are recorded before the copy is written, so a call that throws half-way leaves the
 * copy consistent with the log.
 */
export class ColumnCache {
  /** Internal rows. */
  readonly n: number;
  /** Internal real columns. */
  readonly m: number;
  /** Column `c` (entry of row `i` at `[i]`), valid where `builtAt[c] > 0`; allocated when first written. */
  private readonly data: (Float64Array | undefined)[];
  /**
   * The version whose matrix column `c` was copied from (0: not copied yet). A state of an
   * older version never reads it: that matrix's unlisted lines are equal to the state's only
   * if every hint in between was truthful, and an untruthful hint may void only the results
   * of the states after it.
   */
  readonly builtAt: Int32Array;
  /** The newest version (each update adds one). */
  version = 0;
  /** Lines changed by the most recent versions, oldest first: `log[k]` made version `first + k`. */
  private readonly log: { rows: Int32Array; cols: Int32Array }[] = [];
  private first = 1;

  /**
   * An empty copy whose newest version is `version`: 0 for a copy an `imfs` call starts (its
   * matrix becomes version 1 when the call ends), 1 for one `mfs` starts (its plan's matrix).
   */
  constructor(n: number, m: number, version = 0) {
    this.n = n;
    this.m = m;
    this.version = version;
    this.first = version + 1;
    this.data = new Array<Float64Array | undefined>(m).fill(undefined);
    this.builtAt = new Int32Array(m);
  }

  /** Column `c`'s array, allocated (zeroed) if it was never written. */
  column(c: number): Float64Array {
    let col = this.data[c];
    if (col === undefined) {
      col = new Float64Array(this.n);
      this.data[c] = col;
    }
    return col;
  }

  /**
   * Records a new version that changes the internal `rows` and `cols` (copied) and returns it;
   * call it before writing them.
   */
  advance(rows: ArrayLike<number>, cols: ArrayLike<number>): number {
    this.log.push({ rows: Int32Array.from(rows), cols: Int32Array.from(cols) });
    if (this.log.length > MAX_VERSIONS_BEHIND) {
      this.log.shift();
      this.first++;
    }
    this.version++;
    return this.version;
  }

  /**
   * Marks in `rowFlag` and `colFlag` the lines changed after version `since` (whose entries in
   * the copy are not those of that version's matrix); `false` (nothing marked) when `since` is
   * too old for the log.
   */
  changedSince(since: number, rowFlag: Uint8Array, colFlag: Uint8Array): boolean {
    if (since < this.first - 1 || since > this.version) return false;
    for (let k = since + 1 - this.first; k < this.log.length; k++) {
      const { rows, cols } = this.log[k]!;
      for (let q = 0; q < rows.length; q++) rowFlag[rows[q]!] = 1;
      for (let q = 0; q < cols.length; q++) colFlag[cols[q]!] = 1;
    }
    return true;
  }
}

/** A state's view of a copy: the copy and the version of the state's own matrix. */
export interface ColumnCopyHandle {
  readonly cache: ColumnCache;
  readonly version: number;
}

/**
 * The copy each state knows. States themselves are never modified: the handle lives in a
 * `WeakMap` keyed by the state object, so a copied or rebuilt state object has none, and a copy
 * lives as long as some state of its chain does.
 */
const handles = new WeakMap<MatchingState, ColumnCopyHandle>();

/** The copy `state` knows, if any. */
export function columnCopyOf(state: MatchingState): ColumnCopyHandle | undefined {
  return handles.get(state);
}

/** Lets `state` know `cache`, whose `version` is the state's matrix. */
export function setColumnCopy(state: MatchingState, cache: ColumnCache, version: number): void {
  handles.set(state, { cache, version });
}
