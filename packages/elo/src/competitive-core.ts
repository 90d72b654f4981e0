import {
  fitsMachine,
  InvalidInputError,
  type Job,
  type LicenseRequest,
  type Platform,
} from "@sched/core";
import {
  describeChoices,
  describeValue,
  requireFinite,
  requireInteger,
  requireOneOf,
  requirePositive,
} from "@sched/errors";
import { COMPETITIVE_DEFAULTS, TIER_SEARCHES, type TierSearch } from "./defaults.js";
import { isReady } from "./eligibility.js";
import { jobLevelResolved } from "./job-level.js";
import {
  type RatingUpdate,
  type ResolvedTierListOptions,
  resolveTierListOptions,
  TierList,
  type TierListOptions,
} from "./tier-list.js";
import { winsResolved } from "./win-condition.js";

/**
 * The one implementation of the competitive matchmaking policy, shared by
 * `competitiveScheduler` (the engine adapter) and `competitivePass` (the pure pass). @internal
 */

/** A waiting job, as `competitivePass` reads it (and what the policy reads of a `Job`). */
export interface CompetitiveQueuedJob {
  readonly id: number;
  /** Cores it needs, all on one machine (an integer >= 1). */
  readonly cores: number;
  /** Its requested run time at its benchmark (a duration > 0). */
  readonly estimate: number;
  /** The benchmark `estimate` refers to. @defaultValue the platform's reference speed */
  readonly benchmark?: number;
  /** It may not start before this time. @defaultValue none: ready now */
  readonly ready?: number;
  /** License copies it needs while it runs, by license name. @defaultValue none */
  readonly licenses?: LicenseRequest;
}

/** What one completed job did to its machine's rating. */
export interface RatingEvent extends RatingUpdate {
  /** Completion time. */
  readonly time: number;
  readonly job: number;
  /** Measured execution time: completion - start. */
  readonly elapsed: number;
  /** The job size the winning condition used (see `jobSize`). */
  readonly size: number;
}

/** The options the core reads (the scheduler's, its callback aside). @internal */
export interface CoreOptions<J> extends TierListOptions {
  readonly maxSpeed?: number;
  readonly overhead?: number;
  readonly jobLevel?: (job: J, size: number) => number;
  readonly levelScale?: "log" | "linear";
  readonly tierSearch?: TierSearch;
}

/** Options checked once. @internal */
export interface ResolvedCoreOptions<J> {
  readonly tierList: ResolvedTierListOptions;
  readonly overhead: number;
  readonly maxSpeed: number | undefined;
  readonly levelScale: "log" | "linear";
  readonly tierSearch: TierSearch;
  readonly jobLevel: ((job: J, size: number) => number) | undefined;
  readonly where: string;
}

/** Checks the options; throws InvalidInputError naming `where` and the option. @internal */
export function resolveCoreOptions<J>(
  options: CoreOptions<J>,
  where: string,
): ResolvedCoreOptions<J> {
  const tierList = resolveTierListOptions(options, where);
  const overhead = options.overhead ?? COMPETITIVE_DEFAULTS.overhead;
  requireFinite(where, "options.overhead", overhead);
  if (options.maxSpeed !== undefined) requirePositive(where, "options.maxSpeed", options.maxSpeed);
  const levelScale = options.levelScale ?? COMPETITIVE_DEFAULTS.levelScale;
  requireOneOf(where, "options.levelScale", levelScale, ["log", "linear"]);
  const tierSearch = requireOneOf(
    where,
    "options.tierSearch",
    options.tierSearch ?? COMPETITIVE_DEFAULTS.tierSearch,
    TIER_SEARCHES,
  );
  return {
    tierList,
    overhead,
    maxSpeed: options.maxSpeed,
    levelScale,
    tierSearch,
    jobLevel: options.jobLevel,
    where,
  };
}

/**
 * `place` lists the idle machines of each tier when there are at most this many (found one by one
 * from the lowest), else walks the tiers' runs of the rating order. @internal
 */
export const LIST_UP_TO = 64;

/** The idle machines, as `place` asks about them. @internal */
export interface IdleMachines {
  /** Whether machine `m` runs nothing. */
  idle(m: number): boolean;
  /** The lowest idle machine >= `from`, or -1 when none. */
  next(from: number): number;
}

/** A job the policy started and has not seen complete. @internal */
export interface Placed {
  readonly machine: number;
  readonly start: number;
  readonly level: number;
  readonly size: number;
  readonly licenses: LicenseRequest | undefined;
}

/** The policy's state on one platform: ratings, the size range, the jobs it placed. @internal */
export class CompetitiveCore<J extends CompetitiveQueuedJob> {
  readonly platform: Platform;
  readonly list: TierList;
  readonly placed = new Map<number, Placed>();
  readonly #options: ResolvedCoreOptions<J>;
  readonly #effectiveMax: number;
  #minSize = Number.POSITIVE_INFINITY;
  #maxSize = 0;
  // Every machine's rating and tier (copies of the list's, updated with it in `complete`), and
  // the machines in the order `place` tries them: by tier, then rating descending, then index,
  // kept sorted as ratings change instead of sorted again at every call. `#at` is each
  // machine's position in `#order`.
  readonly #ratings: Float64Array;
  readonly #tiers: Int32Array;
  readonly #order: Int32Array;
  readonly #at: Int32Array;
  /** The most cores of any machine: a job asking more can start nowhere. */
  readonly #maxCores: number;
  /** The tiers a job of each level tries, in order ({@link tierPreference}), by level. */
  readonly #preference: number[][];
  /** How many machines each tier has (index = tier), and where each tier's run of `#order` starts. */
  readonly #tierCount: Int32Array;
  readonly #tierStarts: Int32Array;
  /** `place`'s per-call marks: machines started on, positions of `#order` looked at, and where to go from them. */
  readonly #taken: Uint32Array;
  readonly #seen: Uint32Array;
  readonly #skip: Int32Array;
  #call = 0;

  /** @throws InvalidInputError when `maxSpeed - overhead <= 0`. */
  constructor(platform: Platform, options: ResolvedCoreOptions<J>) {
    this.platform = platform;
    this.#options = options;
    this.list = new TierList(platform.machines.length, options.tierList);
    let max = 0;
    for (const m of platform.machines) if (m.speed > max) max = m.speed;
    const maxSpeed = options.maxSpeed ?? max;
    this.#effectiveMax = maxSpeed - options.overhead;
    if (!(this.#effectiveMax > 0)) {
      throw new InvalidInputError(
        options.where,
        "options.overhead",
        `is ${options.overhead}, expected a number < maxSpeed (${maxSpeed})`,
      );
    }
    const { ratings, tiers } = this.list.snapshot();
    this.#ratings = ratings;
    this.#tiers = tiers;
    const n = platform.machines.length;
    // (every machine starts at one rating and tier, so the index order is the order: checked in
    // O(n), sorted only if not)
    this.#order = Int32Array.from({ length: n }, (_, m) => m);
    let sorted = true;
    for (let m = 1; m < n && sorted; m++) sorted = this.#before(m - 1, m);
    if (!sorted) {
      this.#order.sort((a, b) => (this.#before(a, b) ? -1 : this.#before(b, a) ? 1 : 0));
    }
    this.#at = new Int32Array(n);
    for (let i = 0; i < n; i++) this.#at[this.#order[i]!] = i;
    let cores = 0;
    for (const m of platform.machines) if (m.cores > cores) cores = m.cores;
    this.#maxCores = cores;
    const levels = options.tierList.tiers;
    this.#tierCount = new Int32Array(levels + 2);
    for (let m = 0; m < n; m++) this.#tierCount[this.#tiers[m]!]!++;
    this.#tierStarts = new Int32Array(levels + 2);
    this.#taken = new Uint32Array(n);
    this.#seen = new Uint32Array(n);
    this.#skip = new Int32Array(n);
    this.#preference = [[]];
    for (let level = 1; level <= levels; level++) {
      this.#preference.push(tierPreferenceUnchecked(level, levels, options.tierSearch));
    }
  }

  /** Whether machine `a` comes before `b` in `place`'s order: lower tier, higher rating, lower index. */
  #before(a: number, b: number): boolean {
    const ta = this.#tiers[a]!;
    const tb = this.#tiers[b]!;
    if (ta !== tb) return ta < tb;
    const ra = this.#ratings[a]!;
    const rb = this.#ratings[b]!;
    return ra !== rb ? ra > rb : a < b;
  }

  /** Moves machine `m`, whose rating just changed, to its place in `#order` (the rest is sorted). */
  #reposition(m: number): void {
    const order = this.#order;
    const at = this.#at;
    let p = at[m]!;
    while (p > 0 && this.#before(m, order[p - 1]!)) {
      order[p] = order[p - 1]!;
      at[order[p]!] = p;
      p--;
    }
    while (p < order.length - 1 && this.#before(order[p + 1]!, m)) {
      order[p] = order[p + 1]!;
      at[order[p]!] = p;
      p++;
    }
    order[p] = m;
    at[m] = p;
  }

  /** The job's size as the policy knows it: estimate times its benchmark (`jobSize`). */
  size(job: CompetitiveQueuedJob): number {
    return job.estimate * (job.benchmark ?? this.platform.referenceSpeed);
  }

  /** Measures, judges and rates the completion of placed job `id` at `now`; undefined when not placed. */
  complete(id: number, now: number): RatingEvent | undefined {
    const p = this.placed.get(id);
    if (p === undefined) return undefined;
    this.placed.delete(id);
    const elapsed = now - p.start;
    const tier = this.list.tier(p.machine);
    const won = elapsed > 0 && winsResolved(p.size, elapsed, tier, this.#effectiveMax);
    const update = this.list.record(p.machine, p.level, won);
    this.#ratings[p.machine] = update.ratingAfter;
    this.#tierCount[this.#tiers[p.machine]!]!--;
    this.#tiers[p.machine] = update.tierAfter;
    this.#tierCount[update.tierAfter]!++;
    this.#reposition(p.machine);
    return { ...update, time: now, job: id, elapsed, size: p.size };
  }

  /** Learns an arrival's size; false (reject it) when no machine can ever run it alone. */
  arrive(job: J): boolean {
    let any = false;
    const n = this.platform.machines.length;
    // fitsMachine reads the job's cores and licenses only, which CompetitiveQueuedJob has. After
    // the first call (which checks the job), a job asking more cores than any machine has fits
    // none: no need to ask every machine.
    for (let m = 0; m < n && !any; m++) {
      any = fitsMachine(job as unknown as Job, this.platform, m);
      if (job.cores > this.#maxCores) break;
    }
    if (!any) return false;
    const size = this.size(job);
    if (size < this.#minSize) this.#minSize = size;
    if (size > this.#maxSize) this.#maxSize = size;
    return true;
  }

  /**
   * Starts waiting jobs, in queue order, on idle machines: tier of the job's level first, then
   * the others in `tierSearch` order, best rating then lowest index inside a tier. `idle.idle(m)`:
   * machine `m` runs nothing; `idle.next(from)`: the lowest idle machine >= `from`, or -1;
   * `licensesOk(job, m)`: the job's licenses are free on `m` now (the caller takes them when
   * `onStart` is called).
   *
   * With at most `listUpTo` idle machines (found in `#order`, the order they are tried), each
   * tier's idle machines are listed and a job takes the first it fits in its tiers' lists. With
   * more, the tiers are runs of `#order` (sorted by tier first): a job walks its tiers' runs,
   * skipping the machines that are busy or were started on in this call, and asks `licensesOk`
   * about the idle ones in order, as the lists would give them. A machine found busy or started
   * on is skipped by every later walk of the call (`#skip`, with path compression), so a call
   * looks at each machine once at most, and a call on a mostly idle platform looks at few:
   * O(tiers + machines looked at) per call with a ready job, instead of a pass over every
   * machine.
   */
  place(
    now: number,
    waiting: Iterable<J>,
    idle: IdleMachines,
    licensesOk: (job: J, machine: number) => boolean,
    onStart: (job: J, machine: number) => void,
    listUpTo: number = LIST_UP_TO,
  ): void {
    const { tiers } = this.#options.tierList;
    const machines = this.platform.machines;
    const order = this.#order;
    const n = order.length;
    let call = 0; // set at the first ready job: a call with none looks at no machine
    const taken = this.#taken;
    // the lowest idle machine not started on in this call (-1: none left), found again only
    // when it is taken
    let cursor = -1;
    const anyFree = (): boolean => {
      while (cursor >= 0 && taken[cursor] === call) cursor = idle.next(cursor + 1);
      return cursor >= 0;
    };
    const skip = this.#skip;
    const seen = this.#seen;
    // the first position >= p of `order` whose machine is idle and not taken (n: none)
    const open = (p: number): number => {
      let q = p;
      for (;;) {
        if (q >= n) break;
        if (seen[q] === call) {
          const s = skip[q]!;
          if (s !== q) {
            q = s;
            continue;
          }
          if (taken[order[q]!] !== call) break;
        } else {
          seen[q] = call;
          const m = order[q]!;
          if (taken[m] !== call && idle.idle(m)) {
            skip[q] = q;
            break;
          }
        }
        skip[q] = q + 1;
        q++;
      }
      // path compression: every position walked over points at the answer
      for (let r = p; r < q; ) {
        const s = skip[r]!;
        skip[r] = q;
        r = s > r ? s : r + 1;
      }
      return q;
    };
    const starts = this.#tierStarts;
    // up to `listUpTo` idle machines: the lists of each tier's idle machines, in the order they
    // are tried (few idle machines, as on a loaded platform: cheaper than the walks); more:
    // the walks (`buckets` stays null)
    let buckets: number[][] | null = null;
    let free = 0;
    for (const job of waiting) {
      if (!isReady(job, now)) continue;
      if (call === 0) {
        call = this.#nextCall();
        // (a scan in the order tried, as the lists were made before: cheaper than `next` on
        // machines that have a free core but run a job, and it stops early on a mostly idle
        // platform)
        const found: number[] = [];
        let many = false;
        for (let i = 0; i < n; i++) {
          const m = order[i]!;
          if (!idle.idle(m)) continue;
          if (found.length === listUpTo) {
            many = true;
            break;
          }
          found.push(m);
        }
        if (!many) {
          buckets = Array.from({ length: tiers + 1 }, () => []);
          for (const m of found) (buckets[this.#tiers[m]!] as number[]).push(m);
          free = found.length;
        } else {
          cursor = idle.next(0);
          starts[1] = 0;
          for (let t = 1; t <= tiers; t++) starts[t + 1] = starts[t]! + this.#tierCount[t]!;
        }
      }
      if (buckets !== null ? free === 0 : !anyFree()) break;
      const size = this.size(job);
      const level = this.#levelOf(job, size);
      let machine = -1;
      if (buckets !== null) {
        machine = pick(buckets, this.#preference[level]!, (m) => {
          const cores = (machines[m] as { cores: number }).cores;
          return cores >= job.cores && licensesOk(job, m);
        });
        if (machine >= 0) free--;
      } else {
        for (const tier of this.#preference[level]!) {
          const end = starts[tier + 1]!;
          for (let p = open(starts[tier]!); p < end; p = open(p + 1)) {
            const m = order[p]!;
            if ((machines[m] as { cores: number }).cores >= job.cores && licensesOk(job, m)) {
              machine = m;
              break;
            }
          }
          if (machine >= 0) break;
        }
      }
      if (machine < 0) continue;
      taken[machine] = call;
      this.placed.set(job.id, { machine, start: now, level, size, licenses: job.licenses });
      onStart(job, machine);
    }
  }

  /** A new mark for `place`'s per-call arrays (all cleared when the marks wrap around). */
  #nextCall(): number {
    if (this.#call === 0xffffffff) {
      this.#call = 0;
      this.#taken.fill(0);
      this.#seen.fill(0);
    }
    return ++this.#call;
  }

  #levelOf(job: J, size: number): number {
    const { jobLevel, tierList, levelScale, where } = this.#options;
    const tiers = tierList.tiers;
    if (jobLevel === undefined) {
      return jobLevelResolved(size, this.#minSize, this.#maxSize, tiers, levelScale);
    }
    const level = jobLevel(job, size);
    if (!Number.isInteger(level) || level < 1 || level > tiers) {
      throw new InvalidInputError(
        where,
        "options.jobLevel",
        `returned ${describeValue(level)} for job ${job.id}, expected an integer in [1, ${tiers}]`,
      );
    }
    return level;
  }
}

/**
 * Takes (and removes) the first machine that `ok` accepts, searching the tiers in `preference`
 * order ({@link tierPreference}); -1 when none. @internal
 */
export function pick(
  buckets: number[][],
  preference: readonly number[],
  ok: (machine: number) => boolean,
): number {
  for (const tier of preference) {
    const bucket = buckets[tier] as number[];
    for (let i = 0; i < bucket.length; i++) {
      const m = bucket[i] as number;
      if (ok(m)) {
        bucket.splice(i, 1);
        return m;
      }
    }
  }
  return -1;
}

/**
 * The order in which a job of level `level` looks at tiers: its own, then the "next best" by
 * `search` ({@link TierSearch}): by default the faster ones from the nearest, then the slower
 * ones from the nearest.
 *
 * Complexity: O(tiers).
 *
 * @throws InvalidInputError when `search` is not a {@link TierSearch}.
 *
 * @example
 * ```ts
 * tierPreference(3, 5); // [3, 2, 1, 4, 5]
 * tierPreference(3, 5, "slower-first"); // [3, 4, 5, 2, 1]
 * tierPreference(3, 5, "nearest"); // [3, 2, 4, 1, 5]
 * ```
 */
export function tierPreference(
  level: number,
  tiers: number,
  search: TierSearch = COMPETITIVE_DEFAULTS.tierSearch,
): number[] {
  const where = "@sched/elo/tierPreference";
  // tiers materialises an array of that length; level -Infinity made the second loop endless
  requireInteger(where, "tiers", tiers, 1);
  if (tiers > 2 ** 24) {
    throw new InvalidInputError(where, "tiers", `is ${tiers}, expected at most 16777216 (2^24)`);
  }
  requireInteger(where, "level", level, 1);
  if (level > tiers) {
    throw new InvalidInputError(
      where,
      "level",
      `is ${level}, expected an integer in [1, ${tiers}]`,
    );
  }
  return tierPreferenceUnchecked(level, tiers, search);
}

/** {@link tierPreference} without validation of `level` and `tiers`, for the matchmaking loop (its inputs are checked). */
function tierPreferenceUnchecked(level: number, tiers: number, search: TierSearch): number[] {
  const own = Math.min(level, tiers);
  const faster: number[] = [];
  for (let t = own - 1; t >= 1; t--) faster.push(t);
  const slower: number[] = [];
  for (let t = Math.max(level, own) + 1; t <= tiers; t++) slower.push(t);
  switch (search) {
    case "faster-first":
      return [own, ...faster, ...slower];
    case "slower-first":
      return [own, ...slower, ...faster];
    case "nearest": {
      const out = [own];
      for (let i = 0; i < Math.max(faster.length, slower.length); i++) {
        if (i < faster.length) out.push(faster[i] as number);
        if (i < slower.length) out.push(slower[i] as number);
      }
      return out;
    }
    default:
      throw new InvalidInputError(
        "@sched/elo/tierPreference",
        "search",
        `is ${describeValue(search)}, expected ${describeChoices(TIER_SEARCHES)}`,
      );
  }
}
