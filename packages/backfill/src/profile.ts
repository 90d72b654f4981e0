import { InvalidInputError } from "@sched/core";

const WHERE = "@sched/backfill/AvailabilityProfile";

/** @throws InvalidInputError when `origin` or `free` is not finite. */
function requireFiniteStart(origin: number, free: number): void {
  if (!Number.isFinite(origin) || !Number.isFinite(free)) {
    throw new InvalidInputError(
      WHERE,
      "origin/free",
      `are ${origin}/${free}, expected finite numbers`,
    );
  }
}
/** Segments per block of the block maxima (a power of two). */
const BLOCK_BITS = 4;
const BLOCK = 1 << BLOCK_BITS;
/** Largest whole amount for which a search keeps the bound of its low run (`lowUntil`). */
const LOW_HINTS = 4096;

/**
 * The structure behind `AvailabilityProfile` (`availability-profile.ts`), without its argument
 * checks: the package's planners (`plan.ts`, `machine-plan.ts`, the conservative compression)
 * call it directly, hundreds of times per job, with arguments that are valid by construction.
 * Each method has the contract of the `AvailabilityProfile` method of the same name (read its
 * TSDoc: what a method answers, and what it refuses there); an argument outside it gives an
 * undefined result here, except for the guards this class had before the checks moved out (the
 * constructor's and the loads' origin and free, `add`'s interval), kept so that the planners run
 * the code they ran (README, "Argument checks"). Internal: not exported from the package.
 *
 * A step function of a free amount over time, from `origin` to infinity. Segment `i` covers
 * `[time(i), time(i + 1))` with free amount `free(i)`; the last segment extends to infinity.
 * Stored as two parallel typed arrays sorted by time (breakpoints are kept unique), followed by
 * a sentinel segment (see {@link seal}); look-ups use binary search. Reserving an interval
 * inserts at most two breakpoints; adjacent segments with equal amounts are merged, so the
 * number of segments stays at most one more than twice the number of distinct interval ends
 * added. Amounts may go negative (overruns) and need not be whole numbers here (rounding is
 * handled: see {@link add}); the public class takes whole numbers only.
 */
export class UncheckedProfile {
  private times: Float64Array;
  private amounts: Float64Array;
  private n: number;
  // Scratch buffers of `load`: the sorted distinct change times and the amount at each.
  private keys = new Float64Array(16);
  private acc = new Float64Array(16);
  // Largest amount of each block of BLOCK consecutive segments, valid for the first `valid`
  // blocks (every change invalidates from the block it touches on): lets a search skip a whole
  // block of segments that all have too little free.
  private blockMax = new Float64Array(1);
  private valid = 0;
  // True when some amount may be below zero: set by any change that makes one negative, cleared
  // only when the profile is rebuilt. While false, `nonNegative` needs no scan.
  private negative = false;
  // Per whole amount c (index c, up to LOW_HINTS): a time before which every point of the
  // profile has less than c free, so that a search for c may start there; -Infinity when
  // unknown. Non-decreasing in c. Raised by the searches (the low run they step over first),
  // lowered by every change that adds free (to its start), reset by a load.
  private lowUntil = new Float64Array(0);

  /**
   * A profile with `free` available from `origin` on.
   * @throws InvalidInputError when `origin` or `free` is not finite.
   */
  constructor(origin: number, free: number) {
    if (!Number.isFinite(origin)) {
      throw new InvalidInputError(WHERE, "origin", `is ${origin}, expected a finite number`);
    }
    if (!Number.isFinite(free)) {
      throw new InvalidInputError(WHERE, "free", `is ${free}, expected a finite number`);
    }
    this.times = new Float64Array(16);
    this.amounts = new Float64Array(16);
    this.times[0] = origin;
    this.amounts[0] = free;
    this.n = 1;
    this.valid = 0;
    this.negative = free < 0;
    this.seal();
  }

  /**
   * Resets this profile in place (reusing its buffers) to `free` at `origin` plus
   * `amounts[i]` from `times[i]` on, for the first `count` entries (times before `origin` count
   * at `origin`; the arrays are read, not kept). O(R log R).
   * @throws InvalidInputError when `origin` or `free` is not finite.
   */
  load(
    origin: number,
    free: number,
    times: ArrayLike<number>,
    amounts: ArrayLike<number>,
    count: number,
  ): void {
    requireFiniteStart(origin, free);
    const n = this.sortChanges(origin, times, count);
    const keys = this.keys;
    const acc = this.acc;
    // Sum the amounts per distinct time: each change adds to the first key equal to its time.
    acc.fill(0, 0, n);
    for (let i = 0; i < count; i++) {
      const amount = amounts[i]!;
      if (amount === 0) continue;
      const t = Math.max(times[i]!, origin);
      let lo = 0;
      let hi = n - 1;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (keys[mid]! < t) lo = mid + 1;
        else hi = mid;
      }
      acc[lo]! += amount;
    }
    this.fill(origin, free, keys, acc, n);
  }

  /**
   * Like {@link load} for changes already sorted by time without duplicates (`times[i] <
   * times[i + 1]`): no sort, O(count). The arrays are read, not kept.
   * @throws InvalidInputError when `origin` or `free` is not finite.
   */
  loadSorted(
    origin: number,
    free: number,
    times: ArrayLike<number>,
    amounts: ArrayLike<number>,
    count: number,
  ): void {
    requireFiniteStart(origin, free);
    this.fill(origin, free, times, amounts, count);
  }

  /** The profile from `free` at `origin` and changes sorted by time (clamped to `origin`). */
  private fill(
    origin: number,
    free: number,
    keys: ArrayLike<number>,
    acc: ArrayLike<number>,
    n: number,
  ): void {
    this.grow(n + 1);
    this.valid = 0;
    const ts = this.times;
    const as = this.amounts;
    ts[0] = origin;
    as[0] = free;
    let level = free;
    let m = 1;
    let negative = free < 0;
    for (let r = 0; r < n; r++) {
      const a = acc[r]!;
      if (a === 0) continue;
      level += a;
      if (level < 0) negative = true;
      const t = Math.max(keys[r]!, origin);
      if (ts[m - 1] === t) {
        as[m - 1] = level;
      } else {
        ts[m] = t;
        as[m] = level;
        m++;
      }
    }
    this.n = m;
    this.negative = negative;
    this.lowUntil.fill(Number.NEGATIVE_INFINITY);
    this.compact();
    this.seal();
  }

  /**
   * Copies the change times (clamped to `origin`) into `keys`, sorted ascending without
   * duplicates, and returns how many distinct times there are. A native typed-array sort: no
   * comparator calls and no allocation once the buffers are large enough.
   */
  private sortChanges(origin: number, times: ArrayLike<number>, count: number): number {
    if (this.keys.length < count) {
      let cap = this.keys.length * 2;
      while (cap < count) cap *= 2;
      this.keys = new Float64Array(cap);
      this.acc = new Float64Array(cap);
    }
    const keys = this.keys;
    for (let i = 0; i < count; i++) keys[i] = Math.max(times[i]!, origin);
    if (count <= 32) {
      // Insertion sort: cheaper than a native sort's call for the few running jobs of most events.
      for (let i = 1; i < count; i++) {
        const t = keys[i]!;
        let j = i - 1;
        while (j >= 0 && keys[j]! > t) {
          keys[j + 1] = keys[j]!;
          j--;
        }
        keys[j + 1] = t;
      }
    } else if (count === keys.length) {
      keys.sort();
    } else {
      keys.subarray(0, count).sort();
    }
    let n = 0;
    for (let i = 0; i < count; i++) if (n === 0 || keys[i] !== keys[n - 1]) keys[n++] = keys[i]!;
    return n;
  }

  /** Start of the profile (its first breakpoint). */
  get origin(): number {
    return this.times[0]!;
  }

  /** Number of segments. */
  get size(): number {
    return this.n;
  }

  /** Start time of segment `i`. */
  time(i: number): number {
    return this.times[i]!;
  }

  /** Free amount in segment `i`. */
  free(i: number): number {
    return this.amounts[i]!;
  }

  /** Index of the segment containing `t` (the last breakpoint <= t); 0 for t before the origin. O(log S). */
  indexAt(t: number): number {
    // Most searches start at the origin (now): answer those without a search.
    if (this.n === 1 || t < this.times[1]!) return 0;
    let lo = 1;
    let hi = this.n - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.times[mid]! <= t) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  /** Free amount at time `t`. O(log S). */
  valueAt(t: number): number {
    return this.amounts[this.indexAt(t)]!;
  }

  /** Smallest free amount over `[start, end)`; the amount at `start` when `end <= start`. */
  minOver(start: number, end: number): number {
    let i = this.indexAt(start);
    let m = this.amounts[i]!;
    i++;
    while (i < this.n && this.times[i]! < end) {
      if (this.amounts[i]! < m) m = this.amounts[i]!;
      i++;
    }
    return m;
  }

  /**
   * True when no amount is below zero during `[start, end)` (`minOver(start, end) >= 0`): O(1)
   * while no change has made any amount negative since the profile was built, otherwise
   * O(log S + window).
   */
  nonNegative(start: number, end: number): boolean {
    return !this.negative || this.minOver(start, end) >= 0;
  }

  /** True when at least `amount` is free during all of `[start, end)`. */
  fits(start: number, end: number, amount: number): boolean {
    let i = this.indexAt(start);
    if (this.amounts[i]! < amount) return false;
    i++;
    while (i < this.n && this.times[i]! < end) {
      if (this.amounts[i]! < amount) return false;
      i++;
    }
    return true;
  }

  /** As `AvailabilityProfile.earliestStart`. O(log S + S). */
  earliestStart(
    amount: number,
    duration: number,
    from: number,
    limit = Number.POSITIVE_INFINITY,
  ): number {
    const times = this.times;
    const amounts = this.amounts;
    const n = this.n;
    let start = Math.max(from, times[0]!);
    if (start >= limit) return Number.POSITIVE_INFINITY;
    // From the bound of the low run (see `lowUntil`) when it is later; what the first skip
    // steps over from there (or from the origin) raises it.
    const low = this.lowBound(amount);
    if (low >= limit) return Number.POSITIVE_INFINITY;
    let known = low >= start || start === times[0];
    if (low > start) start = low;
    let i = this.indexAt(start);
    for (;;) {
      if (amounts[i]! < amount) {
        // Skip the segments with too little free: the next candidate is the first with enough.
        i = this.skipLow(i, amount, limit);
        if (known) this.raiseLow(amount, i === n ? Number.POSITIVE_INFINITY : times[i]!);
        if (i === n) return Number.POSITIVE_INFINITY;
        start = times[i]!;
        if (start >= limit) return Number.POSITIVE_INFINITY;
      }
      // Only the first skip starts where everything before is known to be low.
      known = false;
      // Segment i has enough: scan the rest of the window [start, start + duration).
      const end = start + duration;
      let j = i + 1;
      while (j < n && times[j]! < end && amounts[j]! >= amount) j++;
      if (j === n || times[j]! >= end) return start;
      i = j;
    }
  }

  /**
   * As `AvailabilityProfile.earliestStartBefore` (conservative's check: the earliest start
   * before `limit` of an interval that holds `own` from `ownStart` on, as if given back).
   */
  earliestStartBefore(
    amount: number,
    duration: number,
    from: number,
    limit: number,
    ownStart: number,
    own: number,
  ): number {
    const times = this.times;
    const amounts = this.amounts;
    const n = this.n;
    let start = Math.max(from, times[0]!);
    if (start >= limit) return Number.POSITIVE_INFINITY;
    // From the bound of the low run (see `lowUntil`) when it is later; what the step over low
    // segments passes from there (or from the origin) raises it.
    const low = this.lowBound(amount);
    if (low >= limit) return Number.POSITIVE_INFINITY;
    const known = low >= start || start === times[0];
    if (low > start) start = low;
    let k = this.indexAt(start);
    // Segments at or after ownStart hold `own` of this interval: they need `amount - own`.
    const inOwn = amount - own;
    let run = start;
    // The steps over segments with too little free test `limit` only where they stop: one may
    // run on past `limit` to the next segment with enough free, which costs less than finding
    // the index of `limit` first.
    if (amounts[k]! < amount) {
      // Step over the segments with too little free (one compare each: the sentinel stops it).
      k++;
      while (amounts[k]! < amount) k++;
      if (known) this.raiseLow(amount, k === n ? Number.POSITIVE_INFINITY : times[k]!);
      if (k === n || times[k]! >= limit) return Number.POSITIVE_INFINITY;
      run = times[k]!;
    }
    for (;;) {
      // Segment k starts a run with enough free: extend it before ownStart (one compare each).
      const end = run + duration;
      const stop = Math.min(end, ownStart);
      k++;
      while (times[k]! < stop && amounts[k]! >= amount) k++;
      if (times[k]! >= end) return run;
      if (times[k]! >= ownStart) {
        // The window reaches the own part: it needs `inOwn` there, and a block there means no
        // start before ownStart (>= limit) is left.
        while (times[k]! < end && amounts[k]! >= inOwn) k++;
        return times[k]! >= end ? run : Number.POSITIVE_INFINITY;
      }
      // Blocked at k (before ownStart): the next run starts at the next segment with enough.
      k++;
      while (amounts[k]! < amount) k++;
      if (times[k]! >= limit) return Number.POSITIVE_INFINITY;
      run = times[k]!;
    }
  }

  /**
   * Adds `delta` (negative to reserve, positive to release) to the free amount over
   * `[start, end)`; the part before the origin is ignored. O(S).
   * @throws InvalidInputError when `start`/`end` is NaN or `end` is not after `start`.
   */
  add(start: number, end: number, delta: number): void {
    if (Number.isNaN(start) || Number.isNaN(end) || !(end > start)) {
      throw new InvalidInputError(WHERE, "interval", `is [${start}, ${end}), expected start < end`);
    }
    if (delta === 0) return;
    const times = this.times;
    const s = Math.max(start, times[0]!);
    if (end <= s) return;
    const n = this.n;
    const i = this.indexAt(s);
    // k: the first segment at or after `end` (the segments i..k-1 meet [s, end)).
    let k: number;
    if (end === Number.POSITIVE_INFINITY) {
      k = n;
    } else {
      let lo = i + 1;
      let hi = n;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (times[mid]! < end) lo = mid + 1;
        else hi = mid;
      }
      k = lo;
    }
    const amounts = this.amounts;
    const first = amounts[i]!;
    const last = amounts[k - 1]!;
    // Segments i..k-1 gain delta in place; two of them becoming equal (possible only through
    // rounding, never with integer amounts) is left to the general path.
    let low = first + delta;
    let high = low;
    let prev = low;
    amounts[i] = low;
    let interiorEqual = false;
    for (let j = i + 1; j < k; j++) {
      const a = amounts[j]! + delta;
      amounts[j] = a;
      if (a === prev) interiorEqual = true;
      if (a < low) low = a;
      if (a > high) high = a;
      prev = a;
    }
    if (low < 0) this.negative = true;
    if (delta > 0) this.lowerLow(high, s);
    const splitLeft = times[i]! < s;
    const splitRight = k < n ? times[k] !== end : end !== Number.POSITIVE_INFINITY;
    // A delta absorbed by rounding leaves a split part equal to the part that gained.
    if ((splitLeft && amounts[i] === first) || (splitRight && amounts[k - 1] === last)) {
      interiorEqual = true;
    }
    // One shift of the tail, by the segments the split ends add less the merges remove: a
    // left end splits segment i (its first part keeps `first`) or merges with segment i - 1;
    // a right end splits segment k - 1 (its rest keeps `last`) or merges with segment k.
    // Interior segments were distinct and all gained delta, so they stay distinct, and a split
    // part differs from the part that gained, unless rounding made two equal (never with
    // integer amounts): then every neighbour in the range is merged at the end, as a
    // split-add-merge would.
    const mergeLeft = !interiorEqual && !splitLeft && i > 0 && amounts[i - 1] === amounts[i];
    const mergeRight = !interiorEqual && !splitRight && k < n && amounts[k - 1] === amounts[k];
    const left = splitLeft ? 1 : mergeLeft ? -1 : 0;
    const right = splitRight ? 1 : mergeRight ? -1 : 0;
    this.touch(i > 0 ? i - 1 : 0);
    if (left !== 0 || right !== 0) {
      const grown = n + left + right;
      this.grow(grown);
      const ts = this.times;
      const as = this.amounts;
      // The tail (old k, or k + 1 when it merges, on) and the middle (old i, or i + 1 when it
      // merges, up to k - 1, shifted by `left`); the one moving right is copied first.
      const tailFrom = mergeRight ? k + 1 : k;
      const tailTo = k + left + (splitRight ? 1 : 0);
      const midFrom = mergeLeft ? i + 1 : i;
      const midTo = midFrom + left;
      if (left === 1 && tailFrom !== tailTo && tailFrom < n) {
        ts.copyWithin(tailTo, tailFrom, n);
        as.copyWithin(tailTo, tailFrom, n);
      }
      if (midFrom !== midTo && midFrom < k) {
        ts.copyWithin(midTo, midFrom, k);
        as.copyWithin(midTo, midFrom, k);
      }
      if (left !== 1 && tailFrom !== tailTo && tailFrom < n) {
        ts.copyWithin(tailTo, tailFrom, n);
        as.copyWithin(tailTo, tailFrom, n);
      }
      if (splitLeft) {
        // Segment i keeps its start and old amount; the part that gained starts at s.
        as[i] = first;
        ts[i + 1] = s;
      }
      if (splitRight) {
        ts[k + left] = end;
        as[k + left] = last;
      }
      this.n = grown;
      this.seal();
    }
    if (interiorEqual) this.mergeAround(i + left, k + left);
  }

  /** Removes the part of the profile before `t` (t becomes the origin). O(S). */
  trimBefore(t: number): void {
    if (t <= this.times[0]!) return;
    this.valid = 0;
    const i = this.indexAt(t);
    if (i > 0) {
      this.times.copyWithin(0, i, this.n);
      this.amounts.copyWithin(0, i, this.n);
      this.n -= i;
      this.seal();
    }
    this.times[0] = t;
  }

  /** A deep copy. */
  clone(): UncheckedProfile {
    const p = new UncheckedProfile(this.times[0]!, this.amounts[0]!);
    p.grow(this.n);
    p.times.set(this.times.subarray(0, this.n));
    p.amounts.set(this.amounts.subarray(0, this.n));
    p.n = this.n;
    p.negative = this.negative;
    p.seal();
    return p;
  }

  /** The segments as `[time, free]` pairs, for tests and debugging. */
  toArray(): [number, number][] {
    const out: [number, number][] = [];
    for (let i = 0; i < this.n; i++) out.push([this.times[i]!, this.amounts[i]!]);
    return out;
  }

  /**
   * A time before which every point has less than `amount` free (`-Infinity` when unknown, or
   * for an amount that is not a whole number from 1 to LOW_HINTS).
   */
  private lowBound(amount: number): number {
    if (!(amount >= 1 && amount <= LOW_HINTS && Number.isInteger(amount))) {
      return Number.NEGATIVE_INFINITY;
    }
    if (this.lowUntil.length <= amount) this.growHints(amount);
    return this.lowUntil[amount]!;
  }

  /** Grows `lowUntil` to hold `amount` (new entries take the largest bound known). */
  private growHints(amount: number): void {
    const old = this.lowUntil;
    const next = new Float64Array(Math.min(LOW_HINTS, Math.max(2 * old.length, amount)) + 1);
    next.set(old);
    next.fill(old.at(-1) ?? Number.NEGATIVE_INFINITY, old.length);
    this.lowUntil = next;
  }

  /** Nothing has `amount` free before `t`: raises the bounds of `amount` and above to `t`. */
  private raiseLow(amount: number, t: number): void {
    const lows = this.lowUntil;
    if (!(amount < lows.length && Number.isInteger(amount))) return;
    for (let c = amount; c < lows.length && lows[c]! < t; c++) lows[c] = t;
  }

  /** Up to `high` became free from `t` on: lowers the bounds of `high` and below to `t`. */
  private lowerLow(high: number, t: number): void {
    const lows = this.lowUntil;
    for (let c = Math.min(Math.floor(high), lows.length - 1); c >= 1 && lows[c]! > t; c--) {
      lows[c] = t;
    }
  }

  /** Marks the block maxima from segment `i` on as stale. */
  private touch(i: number): void {
    const b = i >> BLOCK_BITS;
    if (b < this.valid) this.valid = b;
  }

  /**
   * The first index `k > i` with `amounts[k] >= amount` or `times[k] >= limit`, or `n`: the
   * end of a run of segments with too little free. Whole blocks whose largest amount is below
   * `amount` (and that end before `limit`) are skipped in O(1) each; block maxima are
   * recomputed, lazily, only up to the block the search reaches.
   */
  private skipLow(i: number, amount: number, limit: number): number {
    const times = this.times;
    const amounts = this.amounts;
    const n = this.n;
    let k = i + 1;
    for (;;) {
      // Linear to the next block boundary.
      const edge = Math.min(((k >> BLOCK_BITS) + 1) << BLOCK_BITS, n);
      while (k < edge) {
        if (amounts[k]! >= amount || times[k]! >= limit) return k;
        k++;
      }
      if (k >= n) return n;
      // Whole blocks.
      for (;;) {
        const b = k >> BLOCK_BITS;
        const last = Math.min(k + BLOCK, n) - 1;
        if (times[last]! >= limit) break;
        if (b >= this.valid) this.refresh(b);
        if (this.blockMax[b]! >= amount) break;
        k = last + 1;
        if (k >= n) return n;
      }
    }
  }

  /** Recomputes the block maxima up to block `b`. */
  private refresh(b: number): void {
    const amounts = this.amounts;
    const n = this.n;
    for (let c = this.valid; c <= b; c++) {
      const from = c << BLOCK_BITS;
      const to = Math.min(from + BLOCK, n);
      let m = amounts[from]!;
      for (let j = from + 1; j < to; j++) if (amounts[j]! > m) m = amounts[j]!;
      this.blockMax[c] = m;
    }
    this.valid = b + 1;
  }

  /** Merges equal neighbours among segments [i - 1, k]. */
  private mergeAround(i: number, k: number): void {
    const lo = i > 0 ? i - 1 : 0;
    const hi = k < this.n ? k : this.n - 1;
    this.touch(lo);
    let w = lo;
    for (let r = lo + 1; r <= hi; r++) {
      if (this.amounts[r] !== this.amounts[w]) {
        w++;
        this.times[w] = this.times[r]!;
        this.amounts[w] = this.amounts[r]!;
      }
    }
    const removed = hi - w;
    if (removed > 0) {
      this.times.copyWithin(w + 1, hi + 1, this.n);
      this.amounts.copyWithin(w + 1, hi + 1, this.n);
      this.n -= removed;
      this.seal();
    }
  }

  private compact(): void {
    this.mergeAround(0, this.n - 1);
  }

  /**
   * Writes the sentinel segment after the last one (time and amount `Infinity`), which ends
   * the scans of {@link earliestStartBefore} without a bound check: no window extends past it
   * and no search steps over it as too low. Called by every change of the segment count.
   */
  private seal(): void {
    this.times[this.n] = Number.POSITIVE_INFINITY;
    this.amounts[this.n] = Number.POSITIVE_INFINITY;
  }

  /** Room for `size` segments and the sentinel. */
  private grow(size: number): void {
    if (size < this.times.length) return;
    let cap = this.times.length * 2;
    while (cap <= size) cap *= 2;
    const t = new Float64Array(cap);
    const a = new Float64Array(cap);
    t.set(this.times.subarray(0, this.n));
    a.set(this.amounts.subarray(0, this.n));
    this.times = t;
    this.amounts = a;
    const m = new Float64Array((cap >> BLOCK_BITS) + 1);
    m.set(this.blockMax.subarray(0, Math.min(this.valid, m.length)));
    this.blockMax = m;
  }
}
