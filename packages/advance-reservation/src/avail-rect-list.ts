import { InvalidInputError, MAX_RESOURCE_COUNT } from "@sched/core";
import {
  describeValue,
  type OptionKeys,
  optionKeys,
  refuseMisspeltKeys,
  requireBoolean,
  requireKnownKeys,
} from "@sched/errors";
import { ADVANCE_RESERVATION_DEFAULTS } from "./defaults.js";
import { checkPeSelection, type PeSelection } from "./pe-selection.js";
import {
  complementInto,
  count,
  disjoint,
  equal,
  highest,
  isEmpty,
  lowest,
  orInto,
  popcount32,
  subset,
  toArray,
  wordsFor,
} from "./pe-set.js";
import {
  type AllocationPolicy,
  type AvailabilityRectangle,
  firstFit,
  policyExportNamed,
  policyExports,
  uncheckedCompare,
} from "./policies.js";

const WHERE = "@sched/advance-reservation/AvailRectList";

/** Options of {@link AvailRectList}. */
export interface AvailRectListOptions {
  /**
   * The earliest time the structure represents. Nothing is reserved before it: allocations are
   * clipped to `[origin, ∞)` and rectangles never begin before it. {@link AvailRectList.advanceTo}
   * moves it forward (a scheduler calls it with the current time).
   * @defaultValue 0
   */
  readonly origin?: number;
}

/** The keys of {@link AvailRectListOptions}, all of them (checked by the compiler). */
const LIST_KEYS = optionKeys<AvailRectListOptions>({
  origin: true,
});

/**
 * A time window of a request (section 4.2): the job may start at `ready` (the paper's `t_r`),
 * runs `duration` (`t_du`) and must end by `deadline` (`t_dl`).
 */
export interface RequestWindow {
  /** `t_r`: the earliest start (raised to the structure's origin). A finite time. */
  readonly ready: number;
  /** `t_du`: how long the job holds its PEs. A finite duration > 0. */
  readonly duration: number;
  /**
   * `t_dl`: the job must end by then. A time, or `Infinity` for none.
   * @defaultValue `Infinity`
   */
  readonly deadline?: number;
}

/**
 * A request of {@link AvailRectList.findAllocation}: the paper's `(t_r, t_du, t_dl, n)`, i.e.
 * `peCount` PEs (`n`) for `duration` (`t_du`), starting at or after `ready` (`t_r`) and ending by
 * `deadline` (`t_dl`).
 */
export interface AllocationRequest extends RequestWindow {
  /** `n`: how many PEs the job needs. A positive integer. */
  readonly peCount: number;
}

/** Options of {@link AvailRectList.findAllocation}. */
export interface FindAllocationOptions {
  /**
   * How to choose among the feasible start times: one of the seven paper policies
   * (`firstFit`, `peBestFit`, `peWorstFit`, `durationBestFit`, `durationWorstFit`,
   * `peDurationBestFit`, `peDurationWorstFit`) or your own {@link AllocationPolicy}.
   * @defaultValue {@link firstFit}
   */
  readonly policy?: AllocationPolicy;
  /**
   * Clip each rectangle's end at the request's deadline `tdl`: the search looks at the records
   * inside the request's window only, so a rectangle whose PEs stay free past the deadline ends
   * there (and one never reserved again has a finite duration). `false` stretches rectangles to
   * the next conflicting record, `Infinity` if there is none. The clipped form reproduces the
   * paper's reported behaviour (Du_B close to PE_W); see the README's Interpretation.
   * @defaultValue true
   */
  readonly clipToDeadline?: boolean;
  /**
   * Which `n` of the chosen rectangle's free PEs the reservation takes: `"lowest-index"`,
   * `"highest-index"`, `"soonest-reserved"` (those whose next reservation after the job's end
   * comes soonest) or `"latest-released"` (those released most recently at or before its
   * start); ties to the lower index. The paper does not say (README, Interpretation 5).
   * @defaultValue `"lowest-index"`
   */
  readonly peSelection?: PeSelection;
}

/** The keys of {@link FindAllocationOptions}, all of them (checked by the compiler). */
const FIND_KEYS = optionKeys<FindAllocationOptions>({
  policy: true,
  clipToDeadline: true,
  peSelection: true,
});

/** A query of {@link AvailRectList.maximumRectangle}: one candidate start time. */
export interface RectangleQuery {
  /** `t_s`: the start time (raised to the structure's origin). A finite time. */
  readonly start: number;
  /** `t_du`: a finite duration > 0. */
  readonly duration: number;
  /**
   * `n`: the rectangle needs at least this many free PEs (a positive integer).
   * @defaultValue `1`
   */
  readonly peCount?: number;
}

/** A query of {@link AvailRectList.earliestFit}: `peCount` PEs for `duration`, from `ready` on. */
export interface FitQuery {
  /** How many PEs (a positive integer). */
  readonly peCount: number;
  /** How long (a finite duration > 0). */
  readonly duration: number;
  /** The earliest start allowed (raised to the structure's origin). A finite time. */
  readonly ready: number;
}

/**
 * The fields of the query objects, all of them (checked by the compiler): a query may be the
 * caller's own job record, with fields of its own, but not a near miss of a field it lacks
 * (`dedline`).
 */
const WINDOW_KEYS = optionKeys<RequestWindow>({ ready: true, duration: true, deadline: true });
const REQUEST_KEYS = optionKeys<AllocationRequest>({ ...WINDOW_KEYS.record, peCount: true });
const RECTANGLE_KEYS = optionKeys<RectangleQuery>({ start: true, duration: true, peCount: true });
const FIT_KEYS = optionKeys<FitQuery>({ peCount: true, duration: true, ready: true });

/** One record of the structure: from `time` until the next record, exactly the PEs `busy` are reserved. */
export interface AvailRecord {
  readonly time: number;
  /** Reserved PEs, increasing. Empty (the paper's `ø`) means every PE is free from `time` on. */
  readonly busy: readonly number[];
}

/** What {@link AvailRectList.findAllocation} returns: a start time, the PEs, and why. */
export interface FoundAllocation {
  /** Start time `ts` of the reservation. */
  readonly start: number;
  /** `ts + tdu`. */
  readonly end: number;
  /** `n` PEs of the chosen rectangle (by `peSelection`, default the lowest-index), increasing. */
  readonly pes: readonly number[];
  /** The maximum availability rectangle the policy chose. */
  readonly rectangle: AvailabilityRectangle;
}

/** What {@link AvailRectList.earliestFit} returns. */
export interface Fit {
  readonly start: number;
  /** The `n` lowest-index PEs free throughout `[start, start + duration)`, increasing. */
  readonly pes: readonly number[];
}

/**
 * The paper's availability structure (section 4): `AvailRectList`, the records `{time, busy
 * PEs}` at which the set of reserved PEs changes, and `TimeSet`, their sorted times.
 *
 * Representation: the TimeSet is a sorted `number[]` searched by bisection, and record `k`'s
 * busy set is a bitset (`Uint32Array` of `W = ceil(pes / 32)` words) with its size cached.
 * Record `k` holds from `times[k]` until `times[k + 1]`; before the first record and from the
 * last one on, nothing is reserved. The structure is kept minimal (the paper's clean-up of
 * redundant records): the first record is not empty, no record equals its predecessor, and the
 * last record is empty. The minimal form of a reservation timeline is unique, so two
 * structures holding the same reservations have identical {@link AvailRectList.records}.
 *
 * Use it as the admission-control structure of an advance-reservation system, or as the
 * availability profile of conservative backfilling ({@link AvailRectList.earliestFit}). Not
 * re-entrant: a policy's `compare` must not call back into the structure it is ranking for.
 *
 * Complexity, with `m` records, `W = ceil(pes / 32)` words per set and `n'` records inside
 * the interval touched: `addAllocation` / `deleteAllocation` O(log m + n'·W + m) (the `m` is
 * the array shift of at most two inserted and two removed records, a memmove); `findAllocation`
 * O(log m + p·(log m + (v + b)·(S + x)) + W + n) for `p` candidate start times, `v` records
 * inside each candidate's window, `b` records walked to stretch its rectangle, `S = ceil(W / 32)`
 * words of each set's word summary and `x` words of the window that are busy in some record but
 * all ones in none (the only words read one by one; busy sets made of whole runs have few).
 *
 * @example
 * ```ts
 * const list = new AvailRectList(8);
 * list.addAllocation(0, 10, [0, 1, 2, 3]);
 * list.findAllocation({ ready: 0, duration: 5, deadline: 20, peCount: 6 });
 * // { start: 10, end: 15, pes: [0, 1, 2, 3, 4, 5], rectangle: { start: 10, begin: 10, end: 20, freePEs: 8 } }
 * ```
 */
export class AvailRectList {
  /** Number of PEs, `0 .. pes - 1`. */
  readonly pes: number;
  private readonly words: number;
  private originTime: number;
  /** TimeSet: record times, strictly increasing. */
  private readonly times: number[] = [];
  /**
   * Busy set of each record: `W` words of bits, then its word summary (see `sumWords`) in the
   * same array, so a record is one array to move, copy and reuse.
   */
  private readonly sets: Uint32Array[] = [];
  /** Size of each busy set. */
  private readonly counts: number[] = [];
  /**
   * `S = ceil(W / 32)`. Each busy set's array ends with its word summary, `2·S` words from offset
   * `W`: bit `w` of the first `S` is set when word `w` of the set is not 0, bit `w` of the last
   * `S` when it is all ones (`0xffffffff`). Busy sets are mostly runs of whole words (either
   * empty or full), so `rectangleAt` works on the summaries and reads only the words that are
   * neither.
   */
  private readonly sumWords: number;
  /** Summary of the scratch `union` (same layout): which of its words are nonzero, all ones. */
  private readonly unionSum: Uint32Array;
  /** Which words of `mask` are nonzero (`S` words), filled by `prepare`. */
  private readonly maskSum: Uint32Array;
  /** Scratch bitsets reused by every call (no allocation on the hot path). */
  private readonly mask: Uint32Array;
  private readonly union: Uint32Array;
  private readonly free: Uint32Array;
  private readonly bestFree: Uint32Array;
  private readonly pick: Uint32Array;
  /** Busy sets of removed records, reused by `split` (no allocation in steady state). */
  private readonly spare: Uint32Array[] = [];
  /** Set by `rectangleAt` when a too-busy record rules out every start before this time. */
  private blockedUntil = Number.NEGATIVE_INFINITY;
  /** The records `[windowFirst, windowEnd)` of the last window `rectangleAt` united. */
  private windowFirst = 0;
  private windowEnd = 0;
  /** Candidate start times of the current `findAllocation`. */
  private readonly candidates: number[] = [];

  /**
   * An empty structure (every PE free) for `pes` PEs.
   * @throws InvalidInputError when `pes` is not a positive integer or `origin` is not finite.
   */
  constructor(pes: number, options: AvailRectListOptions = {}) {
    requireKnownKeys(WHERE, "options", options, LIST_KEYS);
    // Above 2^31 - 1 the bitsets' word count overflows (`wordsFor(1e308)` is 0): refused, as
    // core refuses such a machine.
    if (!Number.isInteger(pes) || pes < 1 || pes > MAX_RESOURCE_COUNT) {
      throw new InvalidInputError(
        WHERE,
        "pes",
        `is ${describeValue(pes)}, expected an integer in [1, ${MAX_RESOURCE_COUNT}]`,
      );
    }
    const origin = options.origin ?? 0;
    if (typeof origin !== "number" || !Number.isFinite(origin)) {
      throw new InvalidInputError(
        WHERE,
        "options.origin",
        `is ${describeValue(origin)}, expected a finite number`,
      );
    }
    this.pes = pes;
    this.words = wordsFor(pes);
    this.originTime = origin;
    this.mask = new Uint32Array(this.words);
    this.union = new Uint32Array(this.words);
    this.free = new Uint32Array(this.words);
    this.bestFree = new Uint32Array(this.words);
    this.pick = new Uint32Array(this.words);
    this.sumWords = wordsFor(this.words);
    this.unionSum = new Uint32Array(2 * this.sumWords);
    this.maskSum = new Uint32Array(this.sumWords);
  }

  /** The earliest time represented (see {@link AvailRectListOptions.origin}). */
  get origin(): number {
    return this.originTime;
  }

  /** Number of records. */
  get size(): number {
    return this.times.length;
  }

  /** A copy of the TimeSet: the record times, increasing. O(m). */
  timeSet(): number[] {
    return this.times.slice();
  }

  /** A copy of every record, in time order. O(m·(W + pes)). */
  records(): AvailRecord[] {
    return this.times.map((time, k) => ({
      time,
      busy: toArray(this.sets[k]!.subarray(0, this.words)),
    }));
  }

  /** An independent copy. O(m·W). */
  clone(): AvailRectList {
    const copy = new AvailRectList(this.pes, { origin: this.originTime });
    for (let k = 0; k < this.times.length; k++) {
      copy.times.push(this.times[k]!);
      copy.sets.push(this.sets[k]!.slice());
      copy.counts.push(this.counts[k]!);
    }
    return copy;
  }

  /** PEs reserved at instant `t` (increasing). O(log m + W + pes). */
  busyAt(t: number): number[] {
    const k = this.floorIndex(t);
    return k < 0 ? [] : toArray(this.sets[k]!.subarray(0, this.words));
  }

  /**
   * PEs free throughout `[ts, te)` (increasing); for an empty interval, the PEs free at `ts`.
   * O(log m + v·W + pes) for `v` records in the interval.
   * @throws InvalidInputError when `ts` or `te` is not finite.
   */
  freeDuring(ts: number, te: number): number[] {
    this.checkTime("freeDuring", "ts", ts);
    this.checkTime("freeDuring", "te", te);
    this.unionOver(ts, Math.max(te, ts));
    complementInto(this.free, this.union, this.pes);
    return toArray(this.free);
  }

  /**
   * Reserves `pes` during `[ts, te)` (paper's Algorithm 1): adds them to the busy set of every
   * record in the interval, splitting records at `ts` and `te` when needed, then removes the
   * records that became redundant. The part before the origin is ignored. In place.
   *
   * Complexity: O(log m + n'·W + m + |pes|).
   * @throws InvalidInputError when the times are not finite, `te <= ts`, a PE index is out of
   * range or repeated, or a PE is already reserved somewhere in `[ts, te)` (nothing changes then).
   */
  addAllocation(ts: number, te: number, pes: readonly number[]): void {
    const a = this.prepare("addAllocation", ts, te, pes);
    if (a === null) return;
    // Check first, so a refused call leaves the structure untouched.
    for (let k = Math.max(this.floorIndex(a), 0); k < this.times.length; k++) {
      if (this.times[k]! >= te) break;
      if (!disjoint(this.mask, this.sets[k]!)) {
        const clash = lowest(this.intersection(this.sets[k]!), 1)[0];
        throw new InvalidInputError(
          `${WHERE}/addAllocation`,
          "pes",
          `include PE ${clash}, already reserved at ${Math.max(this.times[k]!, a)} within [${ts}, ${te})`,
        );
      }
    }
    const size = count(this.mask);
    const i = this.split(a);
    const j = this.split(te);
    const W = this.words;
    const S = this.sumWords;
    const mask = this.mask;
    const maskSum = this.maskSum;
    for (let k = i; k < j; k++) {
      const set = this.sets[k]!;
      for (let g = 0; g < S; g++) {
        let x = maskSum[g]!;
        while (x !== 0) {
          const bit = x & -x;
          x ^= bit;
          const w = (g << 5) + 31 - Math.clz32(bit);
          const v = (set[w]! | mask[w]!) >>> 0;
          set[w] = v;
          set[W + g]! |= bit;
          if (v === 0xffffffff) set[W + S + g]! |= bit;
        }
      }
      this.counts[k]! += size;
    }
    this.cleanAt(j);
    this.cleanAt(i);
  }

  /**
   * Releases `pes` during `[ts, te)` (paper's Algorithm 2): the inverse of
   * {@link AvailRectList.addAllocation}, with the same clean-up. A scheduler calls it when a
   * job ends, with `ts` = now to drop the unused rest of an early-finishing job's reservation.
   * The part before the origin is ignored. In place.
   *
   * Complexity: O(log m + n'·W + m + |pes|).
   * @throws InvalidInputError when the times are not finite, `te <= ts`, a PE index is out of
   * range or repeated, or a PE is not reserved throughout `[ts, te)` (nothing changes then).
   */
  deleteAllocation(ts: number, te: number, pes: readonly number[]): void {
    const a = this.prepare("deleteAllocation", ts, te, pes);
    if (a === null) return;
    // Before the first record and from the last (empty) one on nothing is reserved, so the
    // walk below also catches an interval that sticks out of the reserved range.
    const first = this.floorIndex(a);
    let badAt: number | null = first < 0 ? a : null;
    for (let k = first; badAt === null && k < this.times.length; k++) {
      if (k > first && this.times[k]! >= te) break;
      if (!subset(this.mask, this.sets[k]!)) badAt = Math.max(this.times[k]!, a);
    }
    if (badAt !== null) {
      throw new InvalidInputError(
        `${WHERE}/deleteAllocation`,
        "pes",
        `are not all reserved at ${badAt} within [${ts}, ${te})`,
      );
    }
    const size = count(this.mask);
    const i = this.split(a);
    const j = this.split(te);
    const W = this.words;
    const S = this.sumWords;
    const mask = this.mask;
    const maskSum = this.maskSum;
    for (let k = i; k < j; k++) {
      const set = this.sets[k]!;
      for (let g = 0; g < S; g++) {
        let x = maskSum[g]!;
        while (x !== 0) {
          const bit = x & -x;
          x ^= bit;
          const w = (g << 5) + 31 - Math.clz32(bit);
          const v = set[w]! & ~mask[w]!;
          set[w] = v;
          // Some bit of the word was cleared: it is no longer all ones.
          set[W + S + g]! &= ~bit;
          if (v === 0) set[W + g]! &= ~bit;
        }
      }
      this.counts[k]! -= size;
    }
    this.cleanAt(j);
    this.cleanAt(i);
  }

  /**
   * Forgets the past: moves the origin to `t`, folding the records before `t` into one record at
   * `t` (dropped if empty). Call it with the current time so rectangles do not stretch into the
   * past. No-op when `t <= origin`. In place. O(log m + m).
   * @throws InvalidInputError when `t` is not finite.
   */
  advanceTo(t: number): void {
    this.checkTime("advanceTo", "t", t);
    if (t <= this.originTime) return;
    this.originTime = t;
    const k = this.floorIndex(t);
    if (k < 0) return;
    this.times[k] = t;
    this.times.splice(0, k);
    for (const set of this.sets.splice(0, k)) this.spare.push(set);
    this.counts.splice(0, k);
    if (this.counts[0] === 0) this.removeAt(0);
  }

  /**
   * The paper's candidate start times (section 4.2) for a request window `(tr, tdu, tdl)` =
   * `{ ready, duration, deadline }`, increasing
   * and distinct: the ready time `tr`, the latest start `tdl - tdu`, every record time inside
   * `[tr, tdl - tdu]`, and every record time minus `tdu` inside it. `tr` is raised to the
   * origin. Empty when the window is shorter than `tdu`. A start that is feasible anywhere in
   * the window implies a feasible candidate (sliding a start left only adds records to its
   * interval until it meets a record time or `tr`), so candidates lose no feasibility.
   *
   * Complexity: O(log m + p) for `p` candidates (a linear merge of two sorted runs).
   * @throws InvalidInputError when `ready` is not finite, `duration` not positive and finite, or
   * `deadline` NaN.
   */
  candidateStartTimes(window: RequestWindow): number[] {
    const { tr, tdu, tdl } = this.checkWindow("candidateStartTimes", window, WINDOW_KEYS);
    const out: number[] = [];
    this.fillCandidates(out, tr, tdu, tdl);
    return out;
  }

  /**
   * The paper's `findAllocation(tr, tdu, tdl, n, policy)` (Algorithm 3), with the request
   * `{ ready: tr, duration: tdu, deadline: tdl, peCount: n }` and the policy in `options`: for
   * each candidate start time (see {@link AvailRectList.candidateStartTimes}) with at least `n`
   * PEs free throughout `[ts, ts + tdu)`, its maximum availability rectangle (its end clipped at
   * `tdl` unless `options.clipToDeadline` is false); then the rectangle the policy prefers,
   * ties to the earliest start; then `n` of its free PEs by `options.peSelection` (default the
   * `n` lowest-index ones). Does not reserve them: call
   * {@link AvailRectList.addAllocation} with the result. `null` when no candidate is feasible
   * (also when `n` exceeds the PE count or `tdl < tr + tdu`).
   *
   * Complexity: O(log m + p·(log m + (v + b)·(S + x)) + W + n) for `p` candidates, `v` records
   * per candidate window, `b` records walked to stretch each rectangle (bounded by m), `S =
   * ceil(W / 32)` summary words per set and `x` words of the window busy in some record but all
   * ones in none (see the class's complexity note).
   * Choosing the PEs costs O(n + W) by index, and O(c·W + n·log n) by time for the `c` records
   * walked from the job's end forward (`"soonest-reserved"`) or from its start back
   * (`"latest-released"`) until `n` PEs are found.
   * @throws InvalidInputError when `ready` is not finite, `duration` not positive and finite,
   * `deadline` NaN, `peCount` not a positive integer, `options.policy` has no `compare`,
   * `options.clipToDeadline` is not true or false, or `options.peSelection` is not one of its
   * four values.
   *
   * @example
   * ```ts
   * // Figure 1: 2 PEs for t4 - t2, ready at t2, deadline t9, PE Worst Fit
   * list.findAllocation({ ready: 2, duration: 2, deadline: 9, peCount: 2 }, { policy: peWorstFit });
   * // { start: 3, end: 5, pes: [0, 1], rectangle: { start: 3, begin: 3, end: 8, freePEs: 10 } }
   * ```
   */
  findAllocation(
    request: AllocationRequest,
    options: FindAllocationOptions = {},
  ): FoundAllocation | null {
    requireKnownKeys(`${WHERE}/findAllocation`, "options", options, FIND_KEYS);
    const { tr, tdu, tdl } = this.checkWindow("findAllocation", request, REQUEST_KEYS);
    const n = this.checkCount("findAllocation", "request.peCount", request.peCount);
    const policy = options.policy ?? ADVANCE_RESERVATION_DEFAULTS.policy;
    checkPolicy(`${WHERE}/findAllocation`, "options.policy", policy);
    const selection = checkPeSelection(
      `${WHERE}/findAllocation`,
      "options.peSelection",
      options.peSelection === undefined
        ? ADVANCE_RESERVATION_DEFAULTS.peSelection
        : options.peSelection,
    );
    // checked: a truthy "false" used to clip
    const clip = requireBoolean(
      `${WHERE}/findAllocation`,
      "options.clipToDeadline",
      options.clipToDeadline ?? ADVANCE_RESERVATION_DEFAULTS.clipToDeadline,
    );
    const endCap = clip ? tdl : Number.POSITIVE_INFINITY;
    if (n > this.pes) return null;
    // The policy's comparison without its public door's checks: the rectangles are built here.
    const compare = uncheckedCompare(policy);
    let best: AvailabilityRectangle | null = null;
    let bestFirst = 0;
    let bestEnd = 0;
    const candidates = this.candidates;
    this.fillCandidates(candidates, tr, tdu, tdl);
    this.blockedUntil = Number.NEGATIVE_INFINITY;
    for (let c = 0; c < candidates.length; c++) {
      const s = candidates[c]!;
      // A too-busy record found for an earlier candidate also rules this one out.
      if (s < this.blockedUntil) continue;
      const rect = this.rectangleAt(s, tdu, n, endCap);
      if (rect === null) continue;
      if (best === null || compare(rect, best) < 0) {
        best = rect;
        bestFirst = this.windowFirst;
        bestEnd = this.windowEnd;
      }
    }
    if (best === null) return null;
    // The chosen rectangle's free PEs, built once (its window's records are unchanged).
    this.windowUnion(bestFirst, bestEnd);
    this.freeInto(this.bestFree);
    return {
      start: best.start,
      end: best.start + tdu,
      pes: this.choosePes(best.start, best.start + tdu, n, selection),
      rectangle: best,
    };
  }

  /**
   * The maximum availability rectangle of start time `ts` for a job of `tdu` seconds: the PEs
   * free throughout `[ts, ts + tdu)` stretched back and forward while all of them stay free (no
   * deadline here, so the end is not clipped), or `null` when fewer than `n` PEs are free.
   * O(log m + (v + b)·W).
   * @throws InvalidInputError when `ts` is not finite, `tdu` not positive and finite, or `n`
   * not a positive integer.
   */
  maximumRectangle(query: RectangleQuery): AvailabilityRectangle | null {
    const where = "maximumRectangle";
    checkQuery(where, "query", query, RECTANGLE_KEYS);
    const { tr, tdu } = this.checkWindow(
      where,
      { ready: query.start, duration: query.duration },
      WINDOW_KEYS,
      "query",
      "start",
    );
    const n = this.checkCount(where, "query.peCount", query.peCount ?? 1);
    return this.rectangleAt(Math.max(tr, this.originTime), tdu, n, Number.POSITIVE_INFINITY);
  }

  /**
   * The availability-profile query conservative backfilling needs: the earliest start
   * `s >= t` = `query.ready` (and `>= origin`) such that `n` = `query.peCount` PEs are free
   * throughout `[s, s + duration)`, with the `n` lowest-index such PEs; `null` only when `n`
   * exceeds the PE count. The answer is `t` or a record time, so only those are tried, in order.
   *
   * Complexity: O(log m + q·(log m + v·(S + x)) + W + n) for `q` start times tried (at most
   * m + 1), `S` and `x` as in {@link AvailRectList.findAllocation} (the windows are united by
   * their word summaries); records busier than `pes - n` let it skip every start that would
   * overlap them.
   * @throws InvalidInputError when `ready` is not finite, `duration` not positive and finite, or
   * `peCount` not a positive integer.
   */
  earliestFit(query: FitQuery): Fit | null {
    const { tr: t, tdu: duration } = this.checkWindow("earliestFit", query, FIT_KEYS, "query");
    const n = this.checkCount("earliestFit", "query.peCount", query.peCount);
    if (n > this.pes) return null;
    const limit = this.pes - n;
    let s = Math.max(t, this.originTime);
    for (;;) {
      // Scan the window [s, s + duration): a record with more than pes - n busy PEs rules out
      // every start before its end, so jump there; otherwise test the union of the window.
      const first = this.floorIndex(s);
      const e = s + duration;
      let jump = -1;
      let k = Math.max(first, 0);
      for (; k < this.times.length; k++) {
        if (k > first && this.times[k]! >= e) break;
        if (this.counts[k]! > limit) jump = k;
      }
      if (jump >= 0) {
        // The last record is empty, so `jump + 1` exists.
        s = this.times[jump + 1]!;
        continue;
      }
      if (this.pes - this.windowUnion(Math.max(first, 0), k) >= n) {
        this.freeInto(this.free);
        return { start: s, pes: lowest(this.free, n) };
      }
      // The next record time after s (exists: the window ends inside the reserved range).
      s = this.times[first + 1]!;
    }
  }

  // --- internals -------------------------------------------------------------------------

  /**
   * `n` PEs of `bestFree` (every one free throughout `[ts, te)`, at least `n` of them) by
   * `selection`, increasing. The time readings walk the records from `te` forward or from `ts`
   * back: the PEs of `bestFree` first met busy in a record are the next to be reserved (or the
   * latest released), a record at a time, lower index first within one; those never met come last,
   * lower index first.
   */
  private choosePes(ts: number, te: number, n: number, selection: PeSelection): number[] {
    if (selection === "lowest-index") return lowest(this.bestFree, n);
    if (selection === "highest-index") return highest(this.bestFree, n);
    const left = this.pick;
    left.set(this.bestFree);
    const out: number[] = [];
    const take = (k: number): void => {
      // `union` := sets[k] ∩ left, the PEs of this group; take them lowest first.
      const set = this.sets[k]!;
      for (let w = 0; w < this.words; w++) this.union[w] = set[w]! & left[w]!;
      for (const p of lowest(this.union, n - out.length)) {
        out.push(p);
        left[p >>> 5]! &= ~(1 << (p & 31));
      }
    };
    if (selection === "soonest-reserved") {
      // Records from the one in force at te on (none of `bestFree` is busy in [ts, te)).
      for (let k = Math.max(this.floorIndex(te), 0); k < this.times.length; k++) {
        if (out.length >= n) break;
        take(k);
      }
    } else {
      // Records that begin before ts, latest first: a PE of `bestFree` busy in record k is free
      // from `times[k + 1]` (<= ts) on, so the groups come in decreasing release time.
      for (let k = this.lowerBound(ts) - 1; k >= 0; k--) {
        if (out.length >= n) break;
        take(k);
      }
    }
    for (const p of lowest(left, n - out.length)) out.push(p);
    return out.sort((a, b) => a - b);
  }

  /** Last index with `times[k] <= t`, or -1. */
  private floorIndex(t: number): number {
    let lo = 0;
    let hi = this.times.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.times[mid]! <= t) lo = mid + 1;
      else hi = mid;
    }
    return lo - 1;
  }

  /** First index with `times[k] >= t`. */
  private lowerBound(t: number): number {
    let lo = 0;
    let hi = this.times.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.times[mid]! < t) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /**
   * Writes the candidate start times into `out`, increasing and distinct: a linear merge of the
   * record times in `[a, latest]` and the record times minus `tdu` in it, after `a` and before
   * `latest`.
   */
  private fillCandidates(out: number[], tr: number, tdu: number, tdl: number): void {
    out.length = 0;
    const a = Math.max(tr, this.originTime);
    const latest = latestStart(tdl, tdu);
    if (!(latest >= a)) return;
    out.push(a);
    const times = this.times;
    const len = times.length;
    let i = this.lowerBound(a);
    let j = i;
    while (j < len && times[j]! - tdu < a) j++;
    for (;;) {
      const x = i < len && times[i]! <= latest ? times[i]! : Number.POSITIVE_INFINITY;
      const y = j < len && times[j]! - tdu <= latest ? times[j]! - tdu : Number.POSITIVE_INFINITY;
      if (x === Number.POSITIVE_INFINITY && y === Number.POSITIVE_INFINITY) break;
      let v: number;
      if (x <= y) {
        v = x;
        i++;
      } else {
        v = y;
        j++;
      }
      if (v > out[out.length - 1]!) out.push(v);
    }
    if (Number.isFinite(latest) && latest > out[out.length - 1]!) out.push(latest);
  }

  /** Ensures a record at `t` (copying the busy set in force there); returns its index. */
  private split(t: number): number {
    const k = this.floorIndex(t);
    if (k >= 0 && this.times[k] === t) return k;
    const set = this.spare.pop() ?? new Uint32Array(this.words + 2 * this.sumWords);
    if (k >= 0) set.set(this.sets[k]!);
    else set.fill(0);
    this.times.splice(k + 1, 0, t);
    this.sets.splice(k + 1, 0, set);
    this.counts.splice(k + 1, 0, k >= 0 ? this.counts[k]! : 0);
    return k + 1;
  }

  /** Removes record `k` if it is redundant (same busy set as its predecessor; empty if first). */
  private cleanAt(k: number): void {
    if (k < 0 || k >= this.times.length) return;
    const redundant =
      k === 0
        ? this.counts[0] === 0
        : this.counts[k] === this.counts[k - 1] && equal(this.sets[k]!, this.sets[k - 1]!);
    if (redundant) this.removeAt(k);
  }

  private removeAt(k: number): void {
    this.spare.push(this.sets[k]!);
    this.times.splice(k, 1);
    this.sets.splice(k, 1);
    this.counts.splice(k, 1);
  }

  /** Validates an add/delete call, fills `mask`; returns the clipped start, or null for a no-op. */
  private prepare(fn: string, ts: number, te: number, pes: readonly number[]): number | null {
    this.checkTime(fn, "ts", ts);
    this.checkTime(fn, "te", te);
    if (!(te > ts)) {
      throw new InvalidInputError(
        `${WHERE}/${fn}`,
        "te",
        `is ${describeValue(te)}, expected > ts (${ts})`,
      );
    }
    if (!Array.isArray(pes) && !ArrayBuffer.isView(pes)) {
      // Not an array: `pes.length` would be undefined and the call a silent no-op.
      throw new InvalidInputError(
        `${WHERE}/${fn}`,
        "pes",
        `is ${pes === null ? "null" : typeof pes}, expected an array of PE indices`,
      );
    }
    this.mask.fill(0);
    this.maskSum.fill(0);
    for (let i = 0; i < pes.length; i++) {
      const p = pes[i]!;
      if (!Number.isInteger(p) || p < 0 || p >= this.pes) {
        throw new InvalidInputError(
          `${WHERE}/${fn}`,
          `pes[${i}]`,
          `is ${describeValue(p)}, expected an integer in [0, ${this.pes - 1}]`,
        );
      }
      const bit = 1 << (p & 31);
      if ((this.mask[p >>> 5]! & bit) !== 0) {
        throw new InvalidInputError(`${WHERE}/${fn}`, `pes[${i}]`, `repeats PE ${p}`);
      }
      this.mask[p >>> 5]! |= bit;
      this.maskSum[p >>> 10]! |= 1 << ((p >>> 5) & 31);
    }
    const a = Math.max(ts, this.originTime);
    if (te <= a || isEmpty(this.mask)) return null;
    return a;
  }

  /** `mask ∩ set` in the `union` scratch (for error messages). */
  private intersection(set: Uint32Array): Uint32Array {
    for (let w = 0; w < this.words; w++) this.union[w] = set[w]! & this.mask[w]!;
    return this.union;
  }

  /** `union` := every PE reserved somewhere in `[ts, te)` (busy at `ts` when `te == ts`). */
  private unionOver(ts: number, te: number): void {
    this.union.fill(0);
    const first = this.floorIndex(ts);
    for (let k = Math.max(first, 0); k < this.times.length; k++) {
      if (k > first && this.times[k]! >= te) break;
      orInto(this.union, this.sets[k]!);
    }
  }

  /**
   * The rectangle of start `s` (>= origin), its end at most `endCap` (>= s + tdu); null if
   * fewer than n are free. Leaves the window's records `[windowFirst, windowEnd)` set (for
   * `windowUnion`) and the window's union in `union` / `unionSum`.
   */
  private rectangleAt(
    s: number,
    tdu: number,
    n: number,
    endCap: number,
  ): AvailabilityRectangle | null {
    const e = s + tdu;
    const first = this.floorIndex(s);
    const times = this.times;
    const limit = this.pes - n;
    // Pass 1 (no word operations): a record with more than pes - n busy PEs rules the start
    // out, and every later start whose window still reaches that record.
    let k = Math.max(first, 0);
    for (; k < times.length; k++) {
      if (k > first && times[k]! >= e) break;
      if (this.counts[k]! > limit) {
        this.blockedUntil = times[k + 1]!;
        return null;
      }
    }
    // Pass 2: the union of the window's busy sets, by word summaries.
    const start = Math.max(first, 0);
    this.windowFirst = start;
    this.windowEnd = k;
    const freePEs = this.pes - this.windowUnion(start, k);
    if (freePEs < n) return null;
    // Stretch while every free PE stays free: while the record's set is inside the union.
    let b = first;
    while (b > 0 && this.coveredByUnion(b - 1)) b--;
    const begin = b <= 0 ? this.originTime : times[b]!;
    let f = k;
    while (f < times.length && times[f]! < endCap && this.coveredByUnion(f)) f++;
    const end = f < times.length && times[f]! < endCap ? times[f]! : endCap;
    return { start: s, begin, end, freePEs };
  }

  /**
   * The union of the busy sets of records `[from, to)`: `unionSum` := the OR of their
   * summaries, and the words of `union` that are nonzero in some set but all ones in none
   * ("mixed") := the OR of those words; the other words of `union` are stale (a word is all
   * ones when `unionSum` says full, 0 when it says zero). Returns the union's size.
   * O((to - from)·S + x·(to - from)) for `x` mixed words.
   */
  private windowUnion(from: number, to: number): number {
    const W = this.words;
    const S = this.sumWords;
    const us = this.unionSum;
    us.fill(0);
    for (let r = from; r < to; r++) {
      const set = this.sets[r]!;
      for (let g = 0; g < 2 * S; g++) us[g]! |= set[W + g]!;
    }
    const union = this.union;
    let busy = 0;
    for (let g = 0; g < S; g++) {
      busy += popcount32(us[S + g]!) << 5;
      let x = us[g]! & ~us[S + g]!;
      while (x !== 0) {
        const bit = x & -x;
        x ^= bit;
        const w = (g << 5) + 31 - Math.clz32(bit);
        let v = 0;
        for (let r = from; r < to; r++) v |= this.sets[r]![w]!;
        union[w] = v;
        busy += popcount32(v);
      }
    }
    return busy;
  }

  /** True when record `k`'s busy set is inside the union left by `windowUnion`. O(S + x). */
  private coveredByUnion(k: number): boolean {
    const W = this.words;
    const S = this.sumWords;
    const us = this.unionSum;
    const set = this.sets[k]!;
    const union = this.union;
    for (let g = 0; g < S; g++) {
      // Nonzero words of the set where the union is not all ones.
      let x = set[W + g]! & ~us[S + g]!;
      if (x === 0) continue;
      if ((x & ~us[g]!) !== 0) return false; // the union is 0 there
      while (x !== 0) {
        const bit = x & -x;
        x ^= bit;
        const w = (g << 5) + 31 - Math.clz32(bit);
        if ((set[w]! & ~union[w]!) !== 0) return false;
      }
    }
    return true;
  }

  /** Writes the complement of the union left by `windowUnion` (PEs `0 .. pes-1`) into `out`. O(W). */
  private freeInto(out: Uint32Array): void {
    const S = this.sumWords;
    const us = this.unionSum;
    const union = this.union;
    const last = this.words - 1;
    for (let w = 0; w <= last; w++) {
      const g = w >>> 5;
      const bit = 1 << (w & 31);
      const v = (us[S + g]! & bit) !== 0 ? 0xffffffff : (us[g]! & bit) !== 0 ? union[w]! : 0;
      out[w] = ~v >>> 0;
    }
    const tail = this.pes & 31;
    if (tail !== 0) out[last] = out[last]! & ((1 << tail) - 1);
  }

  private checkTime(fn: string, field: string, t: number): void {
    if (!Number.isFinite(t)) {
      throw new InvalidInputError(
        `${WHERE}/${fn}`,
        field,
        `is ${describeValue(t)}, expected a finite number`,
      );
    }
  }

  /** Validates a request window; returns it in the paper's notation. */
  private checkWindow(
    fn: string,
    window: RequestWindow,
    known: OptionKeys,
    name = "request",
    readyField = "ready",
  ): { readonly tr: number; readonly tdu: number; readonly tdl: number } {
    const where = `${WHERE}/${fn}`;
    checkQuery(fn, name, window, known);
    const { ready, duration } = window;
    const deadline = window.deadline ?? Number.POSITIVE_INFINITY;
    if (typeof ready !== "number" || !Number.isFinite(ready)) {
      throw new InvalidInputError(
        where,
        `${name}.${readyField}`,
        `is ${describeValue(ready)}, expected a finite number`,
      );
    }
    if (typeof duration !== "number" || !Number.isFinite(duration) || duration <= 0) {
      throw new InvalidInputError(
        where,
        `${name}.duration`,
        `is ${describeValue(duration)}, expected a finite number > 0`,
      );
    }
    if (typeof deadline !== "number" || Number.isNaN(deadline)) {
      throw new InvalidInputError(
        where,
        `${name}.deadline`,
        `is ${describeValue(deadline)}, expected a number or Infinity`,
      );
    }
    return { tr: ready, tdu: duration, tdl: deadline };
  }

  private checkCount(fn: string, field: string, n: number): number {
    if (!Number.isInteger(n) || n < 1) {
      throw new InvalidInputError(
        `${WHERE}/${fn}`,
        field,
        `is ${describeValue(n)}, expected a positive integer`,
      );
    }
    return n;
  }
}

/** Throws unless `query` is an object without a near miss of a field it lacks. */
function checkQuery(fn: string, name: string, query: unknown, known: OptionKeys): void {
  if (typeof query !== "object" || query === null) {
    throw new InvalidInputError(
      `${WHERE}/${fn}`,
      name,
      `is ${describeValue(query)}, expected an object`,
    );
  }
  refuseMisspeltKeys(`${WHERE}/${fn}`, name, query, known);
}

/** Throws unless `policy` is an {@link AllocationPolicy} (an object with `compare`). Internal. */
export function checkPolicy(where: string, field: string, policy: AllocationPolicy): void {
  if (typeof policy !== "object" || policy === null) {
    // A policy's name ("PE_W") or its export's ("peWorstFit") given as a string: say what to import.
    const known = typeof policy === "string" ? policyExportNamed(policy) : undefined;
    const hint =
      known === undefined
        ? `: one of the exports ${policyExports().join(", ")}, or one built by scorePolicy`
        : `: import ${known.exported} (the policy named ${JSON.stringify(known.name)}) from @sched/advance-reservation`;
    throw new InvalidInputError(
      where,
      field,
      `is ${describeValue(policy)}, expected an AllocationPolicy object ({ name, compare(a, b) })${hint}`,
    );
  }
  if (typeof policy.compare !== "function") {
    throw new InvalidInputError(where, field, "has no compare(a, b) function");
  }
}

/**
 * `tdl - tdu`, lowered by rounding steps if needed so that `latest + tdu <= tdl` holds in
 * floating point (a reservation must never end after its deadline by an ulp). Internal (the
 * admission rule's rejection reason names it).
 */
export function latestStart(tdl: number, tdu: number): number {
  let latest = tdl - tdu;
  if (!Number.isFinite(latest)) return latest;
  let step = Math.max(Math.abs(latest) * Number.EPSILON, Number.MIN_VALUE);
  while (latest + tdu > tdl) {
    latest -= step;
    step *= 2;
  }
  return latest;
}
