import type { Job } from "@sched/core";

/** What the incremental sorter reads of an entry: its job (the keys of the named orders). */
export interface Keyed {
  readonly job: Job;
}

/** Queue order: submit time, then id. */
export function byQueue(a: Keyed, b: Keyed): number {
  return a.job.submit - b.job.submit || a.job.id - b.job.id;
}

/** True when `x` is a number other than NaN (what makes a subtraction or `<` an order on it). */
export function isOrderedNumber(x: unknown): boolean {
  return typeof x === "number" && !Number.isNaN(x);
}

/**
 * A sorter that gives, at every call, exactly `entries.slice().sort((a, b) => key(a, b) ||
 * byQueue(a, b))`, by keeping the previous call's input and result and updating them: the jobs
 * that left are dropped from the previous result, the new ones are sorted and merged in. O(Q)
 * per call without comparisons for the Q entries kept, plus O(A log A + A log Q) comparisons
 * for A new ones, against O(Q log Q) for the sort; a call whose input is the previous one
 * returns the previous result itself (no copy). Internal (the named orders of `queueSorter`).
 *
 * What it relies on, checked at every call (else it sorts plainly, as above, and starts
 * again from that input):
 * - the input is in strict queue order (submit, then id; the engine's waiting queue is), so
 *   that it is matched with the previous input in one walk: an entry is the same as before
 *   when it is the same object (`===`);
 * - every new entry has numbers, not NaN, for its key (`keyOk`), submit time and id: then
 *   `key || byQueue` is a strict total order on the input (the queue order has no ties), and
 *   every correct sort of the input gives the same array, the plain sort's.
 * What it relies on unchecked: an entry kept from one call to the next has the same key,
 * submit time and id (no one mutates a waiting job or its `Job`; the engine never does).
 *
 * The result must not be mutated (it is kept, and may be returned again), and holds until the
 * call after the next one (the merge writes over it then; two arrays take turns).
 */
export function incrementalSorter<T extends Keyed>(
  key: (a: T, b: T) => number,
  keyOk: (job: Job) => boolean,
): (entries: readonly T[]) => readonly T[] {
  const full = (a: T, b: T): number => key(a, b) || byQueue(a, b);
  // The previous input, in queue order (`pin`, its first `pn` entries), and the previous
  // result: `out[k] === pin[rank[k]]`. A copy of the input, not the input itself: the engine's
  // waiting array changes in place between calls. The buffers are never shortened (entries
  // past the count are stale).
  let pin: T[] = [];
  let pinNext: T[] = [];
  let pn = 0;
  let out: T[] = [];
  // The result of the call before the previous one: written over by the next merge (the two
  // arrays take turns, so that no call allocates one).
  let spare: T[] = [];
  let rank = new Int32Array(16);
  let rankNext = new Int32Array(16);
  // Per entry of `pin`: its index in the new input, or -1 when it has left.
  let pos = new Int32Array(16);
  // The indices in the new input of the new entries, the first `nf` (sorted before the merge).
  let fresh = new Int32Array(16);
  let current: readonly T[] = [];
  const byIndex = (i: number, j: number): number => full(current[i]!, current[j]!);

  const plain = (entries: readonly T[]): readonly T[] => {
    pn = 0;
    out = [];
    return entries.slice().sort(full);
  };

  /** Sorts `fresh[0..nf)` by the order of their entries in `entries`. */
  const sortFresh = (entries: readonly T[], nf: number): void => {
    if (nf <= 16) {
      // Insertion sort: few new entries at most events.
      for (let a = 1; a < nf; a++) {
        const x = fresh[a]!;
        const wx = entries[x]!;
        let b = a - 1;
        while (b >= 0 && full(entries[fresh[b]!]!, wx) > 0) {
          fresh[b + 1] = fresh[b]!;
          b--;
        }
        fresh[b + 1] = x;
      }
      return;
    }
    current = entries;
    fresh.set(Array.from(fresh.subarray(0, nf)).sort(byIndex));
    current = [];
  };

  return (entries) => {
    const n = entries.length;
    // The caller's input is an older result of this sorter: the merge must not write over it.
    if (entries === spare) spare = [];
    if (pos.length < pn) pos = new Int32Array(2 * pn);
    if (fresh.length < n) fresh = new Int32Array(2 * n);
    // Walk the previous input and this one together (both in queue order): an entry of `pin`
    // that comes before the current entry and is not it has left; an entry not found in
    // `pin` is new. The queue order of the input is checked where it is not implied: around
    // each new entry (two kept entries keep the order they had in `pin`).
    let i = 0;
    let nf = 0;
    let afterFresh = false;
    for (let j = 0; j < n; j++) {
      const w = entries[j]!;
      let kept = false;
      while (i < pn) {
        const p = pin[i]!;
        if (p === w) {
          pos[i++] = j;
          kept = true;
          break;
        }
        if (!(byQueue(p, w) < 0)) break;
        pos[i++] = -1;
      }
      if (kept) {
        if (afterFresh && !(byQueue(entries[j - 1]!, w) < 0)) return plain(entries);
        afterFresh = false;
      } else {
        const job = w.job;
        if (!(keyOk(job) && isOrderedNumber(job.submit) && isOrderedNumber(job.id))) {
          return plain(entries);
        }
        if (j > 0 && !(byQueue(entries[j - 1]!, w) < 0)) return plain(entries);
        fresh[nf++] = j;
        afterFresh = true;
      }
      pinNext[j] = w;
    }
    const before = pn;
    while (i < before) pos[i++] = -1;
    const swap = pin;
    pin = pinNext;
    pinNext = swap;
    pn = n;
    // Nothing new and nothing left (every entry of `pin` kept): the previous result stands.
    if (nf === 0 && n === before) return out;

    // The new entries in order, then merged into the kept ones: each new entry's place among
    // the previous result (left entries included: they are still ordered with the others) by
    // a binary search from the previous new entry's place.
    if (nf > 1) sortFresh(entries, nf);
    if (rankNext.length < n) rankNext = new Int32Array(Math.max(2 * n, 16));
    const next = spare;
    let m = 0;
    let k = 0;
    for (let f = 0; f < nf; f++) {
      const j = fresh[f]!;
      const w = entries[j]!;
      let lo = k;
      let hi = before;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (full(out[mid]!, w) < 0) lo = mid + 1;
        else hi = mid;
      }
      for (; k < lo; k++) {
        const p = pos[rank[k]!]!;
        if (p >= 0) {
          rankNext[m++] = p;
          next[m - 1] = out[k]!;
        }
      }
      rankNext[m++] = j;
      next[m - 1] = w;
    }
    for (; k < before; k++) {
      const p = pos[rank[k]!]!;
      if (p >= 0) {
        rankNext[m++] = p;
        next[m - 1] = out[k]!;
      }
    }
    const r = rank;
    rank = rankNext;
    rankNext = r;
    if (next.length > m) next.length = m;
    spare = out;
    out = next;
    return next;
  };
}
