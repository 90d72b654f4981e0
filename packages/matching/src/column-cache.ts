import type { MatchingState } from "./types.js";

/**
 * A column-major copy of the weights a chain of `imfs` calls works on (internal, not exported
 * from the package): entry `(i, c)` of the internal orientation at `data[c * n + i]`, for the
 * columns marked in `built`. The backward side of a bidirectional search reads whole columns;
 * in the row-major matrix each entry of a column is on its own cache line (and, at 1000 x 1000,
 * its own page), while here a column is contiguous.
 *
 * It is built on read: the first time a search reads a column backward, the column is copied
 * here (the strided read it needed anyway, plus a contiguous write), and a changed column that
 * a hinted call reads is copied on the way. Later calls of the same chain read the copy.
 * `data` is allocated at once (`8 n m` bytes) but only the pages of columns written are ever
 * touched.
 *
 * Ownership: the copy is valid for exactly one matrix, so at most one state owns it. The state
 * an `imfs` call returns owns the copy the call used; a hinted call from that state, with the
 * same shape and the default origins, takes it (the state keeps no handle), updates the lines
 * the hint lists, and hands it to its own result. States themselves are never modified: the
 * handle lives in a `WeakMap` keyed by the state object, so a state that is dropped frees its
 * copy, and a copied or rebuilt state object has none.
 */
export class ColumnCache {
  /** Internal rows. */
  readonly n: number;
  /** Internal real columns. */
  readonly m: number;
  /** Entry `(i, c)` at `c * n + i`, valid where `built[c] = 1`. */
  readonly data: Float64Array;
  /** `built[c] = 1` once column `c` holds the weights of the matrix of the owning state. */
  readonly built: Uint8Array;
  /**
   * `true` while the copy holds only entries read from the current call's matrix; `false` when
   * it was inherited (its columns were read from earlier matrices, which a truthful change hint
   * promises equal).
   */
  fresh: boolean;

  constructor(n: number, m: number) {
    this.n = n;
    this.m = m;
    this.data = new Float64Array(n * m);
    this.built = new Uint8Array(m);
    this.fresh = true;
  }
}

/**
 * The copy each state owns: a `ColumnCache`, or `null` once a call from that state has taken it
 * (or started its own): a second call from the same state (branching) runs without one. No
 * entry: the state never had one (a result of `mfs`, or of a call that used none).
 */
const owners = new WeakMap<MatchingState, ColumnCache | null>();

/**
 * Takes the copy `state` owns, if any, leaving `state` without one; returns `null` when a call
 * from `state` already took it (or started its own), `undefined` when `state` never had one.
 */
export function takeColumnCache(state: MatchingState): ColumnCache | null | undefined {
  const cache = owners.get(state);
  owners.set(state, null);
  return cache;
}

/** Makes `state` the owner of `cache`. */
export function giveColumnCache(state: MatchingState, cache: ColumnCache): void {
  owners.set(state, cache);
}
