import { describeValue, InvalidInputError } from "@sched/errors";
import { UncheckedProfile } from "./profile.js";

const WHERE = "@sched/backfill/AvailabilityProfile";

// The checks of the public methods. Each returns nothing and throws an InvalidInputError whose
// `where` names the method (`@sched/backfill/AvailabilityProfile.add`) and whose field names the
// argument. The rules, method by method, are in the README ("AvailabilityProfile").

/** Throws: `field` of `method` is `value`, expected `expected`. */
function refuse(method: string, field: string, value: unknown, expected: string): never {
  throw new InvalidInputError(
    `${WHERE}.${method}`,
    field,
    `is ${describeValue(value)}, expected ${expected}`,
  );
}

/** A point in time: a finite number. */
function checkTime(method: string, field: string, value: number): void {
  if (typeof value !== "number" || !Number.isFinite(value)) {
    refuse(method, field, value, "a finite time");
  }
}

/** The end of a window starting at `start`: a number >= `start` (or > it), `Infinity` allowed. */
function checkEnd(
  method: string,
  field: string,
  value: number,
  startField: string,
  start: number,
  strict: boolean,
): void {
  if (typeof value !== "number" || !(strict ? value > start : value >= start)) {
    refuse(method, field, value, `a time ${strict ? ">" : ">="} ${startField} (${start})`);
  }
}

/** An amount (cores, copies of a license): a safe integer, at least `min` when given. */
function checkAmount(method: string, field: string, value: number, min?: number): void {
  if (
    typeof value !== "number" ||
    !Number.isSafeInteger(value) ||
    (min !== undefined && value < min)
  ) {
    refuse(method, field, value, min === undefined ? "an integer" : `an integer >= ${min}`);
  }
}

/** A duration: a number >= 0, `Infinity` allowed. */
function checkDuration(method: string, field: string, value: number): void {
  if (typeof value !== "number" || !(value >= 0)) {
    refuse(method, field, value, "a duration >= 0, or Infinity");
  }
}

/** A time limit: any number but NaN (`Infinity` for none). */
function checkLimit(method: string, field: string, value: number): void {
  if (typeof value !== "number" || Number.isNaN(value)) {
    refuse(method, field, value, "a time, or Infinity");
  }
}

/**
 * The arguments of `load`/`loadSorted`: `origin` finite, `free` an integer, and `count` entries
 * of `times` (finite, strictly increasing when `sorted`) and `amounts` (integers). O(count).
 */
function checkLoad(
  method: string,
  [origin, free, times, amounts, count]: Parameters<UncheckedProfile["load"]>,
  sorted: boolean,
): void {
  checkTime(method, "origin", origin);
  checkAmount(method, "free", free);
  for (const [field, a] of [
    ["times", times],
    ["amounts", amounts],
  ] as const) {
    if (typeof a !== "object" || a === null || typeof a.length !== "number") {
      refuse(method, field, a, "an array or typed array of numbers");
    }
  }
  const most = Math.min(times.length, amounts.length);
  if (typeof count !== "number" || !Number.isSafeInteger(count) || count < 0 || count > most) {
    refuse(method, "count", count, `an integer from 0 to ${most} (the shorter array's length)`);
  }
  for (let i = 0; i < count; i++) {
    checkTime(method, `times[${i}]`, times[i]!);
    checkAmount(method, `amounts[${i}]`, amounts[i]!);
    if (sorted && i > 0 && !(times[i]! > times[i - 1]!)) {
      refuse(method, `times[${i}]`, times[i], `a time > times[${i - 1}] (${times[i - 1]})`);
    }
  }
}

/**
 * A step function of a free amount (cores, or copies of a license) over time, from `origin` to
 * infinity: the availability profile of backfilling schedulers. Segment `i` covers
 * `[time(i), time(i + 1))` with free amount `free(i)`; the last segment extends to infinity.
 *
 * Stored as two parallel typed arrays sorted by time (breakpoints are kept unique); look-ups use
 * binary search. Reserving an interval inserts at most two breakpoints; adjacent segments with
 * equal amounts are merged, so the number of segments stays at most one more than twice the
 * number of distinct interval ends added.
 *
 * Complexity: `indexAt` O(log S); `minOver`, `fits` O(log S + segments in the window);
 * `earliestStart` O(log S + S) amortised; `add` O(log S + segments in the interval) plus at
 * most one shift of the segments after it (two typed-array moves), for S segments.
 *
 * Amounts are whole numbers, and may go negative (a running job that overran its estimate is
 * still holding cores that the plan released); a negative amount simply never fits. Times are
 * finite; the ends of windows and limits may be `Infinity`.
 *
 * Every method checks its arguments (O(1), or O(count) for the loads): a time that is not
 * finite, an amount that is not an integer (or a negative one asked for), a reversed window (or
 * an empty one given to `add`), or an index out of range throws an `InvalidInputError` naming
 * the method and the argument, and leaves the profile as it was, e.g. `@sched/backfill/AvailabilityProfile.add: end is 5, expected a time > start
 * (10)`. The package's own schedulers use the same structure without the checks.
 *
 * @example
 * const p = new AvailabilityProfile(0, 2);   // 2 cores free from t = 0
 * p.add(0, 10, -2);                           // a job holds both until 10
 * p.earliestStart(2, 5, 0);                   // 10
 */
export class AvailabilityProfile {
  private core: UncheckedProfile;

  /**
   * A profile with `free` available from `origin` on.
   * @throws InvalidInputError when `origin` is not finite or `free` is not an integer.
   */
  constructor(origin: number, free: number) {
    if (typeof origin !== "number" || !Number.isFinite(origin)) {
      throw new InvalidInputError(
        WHERE,
        "origin",
        `is ${describeValue(origin)}, expected a finite time`,
      );
    }
    if (typeof free !== "number" || !Number.isSafeInteger(free)) {
      throw new InvalidInputError(WHERE, "free", `is ${describeValue(free)}, expected an integer`);
    }
    this.core = new UncheckedProfile(origin, free);
  }

  /**
   * Builds a profile whose amount is `free` at `origin` and grows by `releases[i].amount` at
   * `releases[i].time` (times before `origin` count at `origin`). O(R log R).
   * @throws InvalidInputError when `origin` or a release's `time` is not finite, or `free` or a
   * release's `amount` is not an integer (naming `releases[i].time` / `releases[i].amount`).
   */
  static fromReleases(
    origin: number,
    free: number,
    releases: readonly { readonly time: number; readonly amount: number }[],
  ): AvailabilityProfile {
    checkTime("fromReleases", "origin", origin);
    checkAmount("fromReleases", "free", free);
    const p = new AvailabilityProfile(origin, free);
    if (!Array.isArray(releases)) refuse("fromReleases", "releases", releases, "an array");
    const times = new Float64Array(releases.length);
    const amounts = new Float64Array(releases.length);
    for (let i = 0; i < releases.length; i++) {
      const r = releases[i];
      if (typeof r !== "object" || r === null) {
        refuse("fromReleases", `releases[${i}]`, r, "an object { time, amount }");
      }
      checkTime("fromReleases", `releases[${i}].time`, r.time);
      checkAmount("fromReleases", `releases[${i}].amount`, r.amount);
      times[i] = r.time;
      amounts[i] = r.amount;
    }
    p.core.load(origin, free, times, amounts, releases.length);
    return p;
  }

  /**
   * Resets this profile in place (reusing its buffers) to `free` at `origin` plus
   * `amounts[i]` from `times[i]` on, for the first `count` entries (times before `origin` count
   * at `origin`; the arrays are read, not kept). O(R log R).
   * @throws InvalidInputError when `origin` or one of the first `count` times is not finite,
   * `free` or one of the first `count` amounts is not an integer, or `count` is not an integer
   * from 0 to the length of the shorter array; the profile is then unchanged.
   */
  load(
    origin: number,
    free: number,
    times: ArrayLike<number>,
    amounts: ArrayLike<number>,
    count: number,
  ): void {
    checkLoad("load", [origin, free, times, amounts, count], false);
    this.core.load(origin, free, times, amounts, count);
  }

  /**
   * Like {@link AvailabilityProfile.load} for changes already sorted by time without duplicates
   * (`times[i] < times[i + 1]`): no sort, O(count). The arrays are read, not kept.
   * @throws InvalidInputError as {@link AvailabilityProfile.load} does, and when a time is not
   * after the one before it; the profile is then unchanged.
   */
  loadSorted(
    origin: number,
    free: number,
    times: ArrayLike<number>,
    amounts: ArrayLike<number>,
    count: number,
  ): void {
    checkLoad("loadSorted", [origin, free, times, amounts, count], true);
    this.core.loadSorted(origin, free, times, amounts, count);
  }

  /** Start of the profile (its first breakpoint). */
  get origin(): number {
    return this.core.origin;
  }

  /** Number of segments. */
  get size(): number {
    return this.core.size;
  }

  /**
   * Start time of segment `i`.
   * @throws InvalidInputError when `i` is not an integer from 0 to `size - 1`.
   */
  time(i: number): number {
    this.checkIndex("time", i);
    return this.core.time(i);
  }

  /**
   * Free amount in segment `i`.
   * @throws InvalidInputError when `i` is not an integer from 0 to `size - 1`.
   */
  free(i: number): number {
    this.checkIndex("free", i);
    return this.core.free(i);
  }

  /**
   * Index of the segment containing `t` (the last breakpoint <= t); 0 for t before the origin.
   * O(log S).
   * @throws InvalidInputError when `t` is not finite.
   */
  indexAt(t: number): number {
    checkTime("indexAt", "t", t);
    return this.core.indexAt(t);
  }

  /**
   * Free amount at time `t` (the amount at the origin for `t` before it). O(log S).
   * @throws InvalidInputError when `t` is not finite.
   */
  valueAt(t: number): number {
    checkTime("valueAt", "t", t);
    return this.core.valueAt(t);
  }

  /**
   * Smallest free amount over `[start, end)`; the amount at `start` when `end === start`.
   * O(log S + segments in the window).
   * @throws InvalidInputError when `start` is not finite or `end` is NaN or before `start`.
   */
  minOver(start: number, end: number): number {
    checkTime("minOver", "start", start);
    checkEnd("minOver", "end", end, "start", start, false);
    return this.core.minOver(start, end);
  }

  /**
   * True when no amount is below zero during `[start, end)` (`minOver(start, end) >= 0`): O(1)
   * while no change has made any amount negative since the profile was built, otherwise
   * O(log S + window).
   * @throws InvalidInputError when `start` is not finite or `end` is NaN or before `start`.
   */
  nonNegative(start: number, end: number): boolean {
    checkTime("nonNegative", "start", start);
    checkEnd("nonNegative", "end", end, "start", start, false);
    return this.core.nonNegative(start, end);
  }

  /**
   * True when at least `amount` is free during all of `[start, end)` (at `start` when
   * `end === start`). O(log S + segments in the window).
   * @throws InvalidInputError when `start` is not finite, `end` is NaN or before `start`, or
   * `amount` is not an integer >= 0.
   */
  fits(start: number, end: number, amount: number): boolean {
    checkTime("fits", "start", start);
    checkEnd("fits", "end", end, "start", start, false);
    checkAmount("fits", "amount", amount, 0);
    return this.core.fits(start, end, amount);
  }

  /**
   * The earliest time `t >= from` such that `amount` is free during `[t, t + duration)`, or
   * `Infinity` when the amount never becomes free. Candidates are `from` and the breakpoints
   * after it, so the answer is one of them. With `limit`, only starts before `limit` are
   * considered (`Infinity` when none fits before it), and the scan stops there. O(log S + S).
   * @throws InvalidInputError when `amount` is not an integer >= 0, `duration` is NaN or
   * negative, `from` is not finite, or `limit` is NaN.
   */
  earliestStart(
    amount: number,
    duration: number,
    from: number,
    limit = Number.POSITIVE_INFINITY,
  ): number {
    checkAmount("earliestStart", "amount", amount, 0);
    checkDuration("earliestStart", "duration", duration);
    checkTime("earliestStart", "from", from);
    checkLimit("earliestStart", "limit", limit);
    return this.core.earliestStart(amount, duration, from, limit);
  }

  /**
   * Like {@link AvailabilityProfile.earliestStart} restricted to starts before `limit`, for an
   * interval of `duration` that already holds `own` over `[ownStart, ownStart + duration)` (with
   * `limit <= ownStart`): the scan counts `own` as free in the segments that start at or after
   * `ownStart`, as if the interval had been given back, without changing the profile.
   * `Infinity` when nothing fits before `limit`. O(log S + segments scanned).
   * @throws InvalidInputError when `amount` or `own` is not an integer >= 0, `duration` is NaN
   * or negative, `from` is not finite, `limit` is NaN, or `ownStart` is NaN or before `limit`.
   */
  earliestStartBefore(
    amount: number,
    duration: number,
    from: number,
    limit: number,
    ownStart: number,
    own: number,
  ): number {
    checkAmount("earliestStartBefore", "amount", amount, 0);
    checkDuration("earliestStartBefore", "duration", duration);
    checkTime("earliestStartBefore", "from", from);
    checkLimit("earliestStartBefore", "limit", limit);
    checkEnd("earliestStartBefore", "ownStart", ownStart, "limit", limit, false);
    checkAmount("earliestStartBefore", "own", own, 0);
    return this.core.earliestStartBefore(amount, duration, from, limit, ownStart, own);
  }

  /**
   * Adds `delta` (negative to reserve, positive to release) to the free amount over
   * `[start, end)`; the part before the origin is ignored. O(S).
   * @throws InvalidInputError when `start` is not finite, `end` is NaN or not after `start`,
   * or `delta` is not an integer.
   */
  add(start: number, end: number, delta: number): void {
    checkTime("add", "start", start);
    checkEnd("add", "end", end, "start", start, true);
    checkAmount("add", "delta", delta);
    this.core.add(start, end, delta);
  }

  /**
   * Removes the part of the profile before `t` (t becomes the origin; nothing changes when `t`
   * is at or before the origin). O(S).
   * @throws InvalidInputError when `t` is not finite.
   */
  trimBefore(t: number): void {
    checkTime("trimBefore", "t", t);
    this.core.trimBefore(t);
  }

  /** A deep copy. */
  clone(): AvailabilityProfile {
    const p = new AvailabilityProfile(0, 0);
    p.core = this.core.clone();
    return p;
  }

  /** The segments as `[time, free]` pairs, for tests and debugging. */
  toArray(): [number, number][] {
    return this.core.toArray();
  }

  /** Throws unless `i` is a segment index. */
  private checkIndex(method: string, i: number): void {
    const n = this.core.size;
    if (typeof i !== "number" || !Number.isInteger(i) || i < 0 || i >= n) {
      refuse(method, "i", i, `an integer from 0 to ${n - 1}`);
    }
  }
}
