import { InvalidInputError } from "@sched/core";
import {
  describeValue,
  optionKeys,
  requireBoolean,
  requireInteger,
  requireKnownKeys,
  requireObject,
  requirePositive,
} from "@sched/errors";
import { COMPETITIVE_DEFAULTS } from "./defaults.js";
import { expectedResult } from "./expected-result.js";
import { type RatingOptions, resolveRatingOptions } from "./rating.js";
import { resolveTierOptions, type TierOptions, tierOfResolved } from "./tiers.js";

/** Options of {@link TierList}: the tiers, the rating update and the starting rating. */
export interface TierListOptions extends TierOptions, RatingOptions {
  /**
   * The rating every machine starts with (the paper's "base CR", whose value it does not give).
   * The default is the middle of the rating ranges, `tiers * tierWidth / 2` (1250 with 5 tiers of
   * 500, the middle of tier 3), so machines can move up or down from the start.
   * @defaultValue `tiers * tierWidth / 2`
   */
  readonly baseRating?: number;
  /**
   * When true, a machine that once reached tier 1 stays in tier 1 whatever its rating does
   * afterwards (the strongest reading of "staying in the top tier once there"). When false, the
   * top tier is only unbounded above: a machine leaves it when its rating falls below the tier's
   * lower bound, as the paper says of every tier.
   * @defaultValue false
   */
  readonly stickyTopTier?: boolean;
}

/** The keys of {@link TierListOptions}, all of them (checked by the compiler). Internal. */
export const TIER_LIST_KEYS = optionKeys<TierListOptions>({
  baseRating: true,
  stickyTopTier: true,
  tiers: true,
  tierWidth: true,
  growth: true,
  minRating: true,
});

/** {@link TierListOptions} with every default filled in. */
export interface ResolvedTierListOptions {
  readonly tiers: number;
  readonly tierWidth: number;
  readonly growth: number;
  readonly minRating: number;
  readonly baseRating: number;
  readonly stickyTopTier: boolean;
}

/**
 * Fills the defaults of {@link TierListOptions}, then validates them. @internal
 * @throws InvalidInputError when an option is out of range (see each field).
 */
export function resolveTierListOptions(
  options: TierListOptions = {},
  where = "@sched/elo/TierList",
): ResolvedTierListOptions {
  requireObject(where, "options", options);
  const { tiers, tierWidth } = resolveTierOptions(options, where);
  const { growth, minRating } = resolveRatingOptions(options, where);
  const baseRating = options.baseRating ?? (tiers * tierWidth) / 2;
  requirePositive(where, "options.baseRating", baseRating);
  if (baseRating < minRating) {
    throw new InvalidInputError(
      where,
      "options.baseRating",
      `is ${baseRating}, expected a number >= options.minRating (${minRating})`,
    );
  }
  const stickyTopTier = requireBoolean(
    where,
    "options.stickyTopTier",
    options.stickyTopTier ?? COMPETITIVE_DEFAULTS.stickyTopTier,
  );
  return { tiers, tierWidth, growth, minRating, baseRating, stickyTopTier };
}

/** What one completed job did to a machine's rating. */
export interface RatingUpdate {
  readonly machine: number;
  readonly jobLevel: number;
  /** The machine's tier when it ran the job (the tier level of the prediction). */
  readonly tierBefore: number;
  readonly tierAfter: number;
  /** `S_e`. */
  readonly expected: number;
  readonly won: boolean;
  readonly ratingBefore: number;
  readonly ratingAfter: number;
}

/** A copy of every machine's rating and tier at one moment. */
export interface TierSnapshot {
  readonly ratings: Float64Array;
  readonly tiers: Int32Array;
}

/**
 * The paper's tier list: every machine's competitive rating (CR) and the tiers that group
 * machines by rating range, tier 1 the fastest. A machine's tier always follows its rating
 * (moving down when the rating falls below its tier's range, up when it rises above), except
 * that with `stickyTopTier` a machine that reached tier 1 never leaves it.
 *
 * This object is mutable state: {@link TierList.record} changes it. Everything else reads.
 *
 * Complexity: `record` O(1); `members` O(k log k) for a tier of k machines; memory O(machines).
 *
 * @throws InvalidInputError (constructor) when `machines` is not an integer >= 0 or an option is
 *   invalid.
 * @example
 * ```ts
 * const list = new TierList(2);          // both machines at 1250, tier 3
 * list.record(0, 3, true);               // a level-3 job won on tier 3: S_e = 0.6, +8
 * list.rating(0);                        // 1258
 * list.members(3);                       // [0, 1]  (rating descending, then id)
 * ```
 */
export class TierList {
  /** The resolved options. */
  readonly options: ResolvedTierListOptions;
  readonly #ratings: Float64Array;
  readonly #tiers: Int32Array;
  readonly #reachedTop: Uint8Array;

  constructor(machines: number, options?: TierListOptions) {
    const where = "@sched/elo/TierList";
    requireKnownKeys(where, "options", options, TIER_LIST_KEYS);
    requireInteger(where, "machines", machines, 0);
    this.options = resolveTierListOptions(options, where);
    this.#ratings = new Float64Array(machines).fill(this.options.baseRating);
    this.#tiers = new Int32Array(machines);
    this.#reachedTop = new Uint8Array(machines);
    for (let m = 0; m < machines; m++) this.#place(m);
  }

  /** Number of machines. */
  get size(): number {
    return this.#ratings.length;
  }

  /** Machine `machine`'s current rating. */
  rating(machine: number): number {
    this.#check(machine);
    return this.#ratings[machine]!;
  }

  /** Machine `machine`'s current tier (1 = fastest). */
  tier(machine: number): number {
    this.#check(machine);
    return this.#tiers[machine]!;
  }

  /** The machines of tier `tier`, by rating descending, then by machine index. */
  members(tier: number): number[] {
    const tiers = this.options.tiers;
    if (!Number.isInteger(tier) || tier < 1 || tier > tiers) {
      // An unknown tier used to list no machine, as an empty tier does.
      throw new InvalidInputError(
        "@sched/elo/TierList.members",
        "tier",
        `is ${describeValue(tier)}, expected an integer in [1, ${tiers}]`,
      );
    }
    const out: number[] = [];
    for (let m = 0; m < this.#tiers.length; m++) if (this.#tiers[m] === tier) out.push(m);
    const r = this.#ratings;
    out.sort((a, b) => r[b]! - r[a]! || a - b);
    return out;
  }

  /**
   * Records that machine `machine` completed a job of level `jobLevel` and whether it met its
   * tier's winning condition: predicts `S_e` from its current tier and the job level, applies
   * equation (1) (floored at `minRating`), then moves the machine to the tier of its new rating.
   */
  record(machine: number, jobLevel: number, won: boolean): RatingUpdate {
    this.#check(machine);
    requireInteger("@sched/elo/TierList.record", "jobLevel", jobLevel, 1);
    if (jobLevel > this.options.tiers) {
      // As competitiveScheduler checks options.jobLevel: a level is a tier.
      throw new InvalidInputError(
        "@sched/elo/TierList.record",
        "jobLevel",
        `is ${jobLevel}, expected an integer in [1, ${this.options.tiers}]`,
      );
    }
    // A truthy non-boolean used to count as a win and be echoed in the update.
    requireBoolean("@sched/elo/TierList.record", "won", won);
    const tierBefore = this.#tiers[machine]!;
    const ratingBefore = this.#ratings[machine]!;
    const expected = expectedResult(tierBefore, jobLevel);
    const { growth, minRating } = this.options;
    const next = ratingBefore + growth * ((won ? 1 : 0) - expected);
    const ratingAfter = Math.max(next, minRating);
    this.#ratings[machine] = ratingAfter;
    this.#place(machine);
    return {
      machine,
      jobLevel,
      tierBefore,
      tierAfter: this.#tiers[machine]!,
      expected,
      won,
      ratingBefore,
      ratingAfter,
    };
  }

  /** A copy of every rating and tier. */
  snapshot(): TierSnapshot {
    return { ratings: this.#ratings.slice(), tiers: this.#tiers.slice() };
  }

  #place(machine: number): void {
    const { tiers, tierWidth, stickyTopTier } = this.options;
    let tier = tierOfResolved(this.#ratings[machine]!, tiers, tierWidth);
    if (tier === 1) this.#reachedTop[machine] = 1;
    else if (stickyTopTier && this.#reachedTop[machine] === 1) tier = 1;
    this.#tiers[machine] = tier;
  }

  #check(machine: number): void {
    if (!Number.isInteger(machine) || machine < 0 || machine >= this.#ratings.length) {
      throw new InvalidInputError(
        "@sched/elo/TierList",
        "machine",
        this.#ratings.length === 0
          ? `is ${describeValue(machine)}, but the tier list has no machines`
          : `is ${describeValue(machine)}, expected an integer in [0, ${this.#ratings.length - 1}]`,
      );
    }
  }
}
