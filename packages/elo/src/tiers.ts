import { InvalidInputError } from "@sched/core";
import { optionKeys, requireInteger, requireKnownKeys, requirePositive } from "@sched/errors";
import { COMPETITIVE_DEFAULTS } from "./defaults.js";

/** How ratings map to tiers. */
export interface TierOptions {
  /**
   * Number of tiers. Tier 1 is the fastest (highest ratings), tier `tiers` the slowest.
   * @defaultValue 5
   */
  readonly tiers?: number;
  /**
   * Width of each tier's rating range. Tier `t` holds ratings in
   * `[(tiers - t) * tierWidth, (tiers - t + 1) * tierWidth)`, except that the top tier (1) has no
   * upper bound and the bottom tier holds every rating below `tierWidth`.
   * @defaultValue 500
   */
  readonly tierWidth?: number;
}

/** The keys of {@link TierOptions}, all of them (checked by the compiler). Internal. */
export const TIER_KEYS = optionKeys<TierOptions>({
  tiers: true,
  tierWidth: true,
});

/** {@link TierOptions} with every default filled in. */
export interface ResolvedTierOptions {
  readonly tiers: number;
  readonly tierWidth: number;
}

/**
 * Fills the defaults of {@link TierOptions}, then validates them. @internal
 * @throws InvalidInputError when `tiers` is not an integer >= 1 or `tierWidth` is not > 0.
 */
export function resolveTierOptions(
  options: TierOptions = {},
  where = "@sched/elo/tierOf",
): ResolvedTierOptions {
  const tiers = options.tiers ?? COMPETITIVE_DEFAULTS.tiers;
  const tierWidth = options.tierWidth ?? COMPETITIVE_DEFAULTS.tierWidth;
  requireInteger(where, "options.tiers", tiers, 1);
  requirePositive(where, "options.tierWidth", tierWidth);
  return { tiers, tierWidth };
}

/**
 * The tier (1 = fastest) whose rating range holds `rating`. Ratings at or above the top tier's
 * lower bound `(tiers - 1) * tierWidth` are in tier 1 however high they climb; ratings below
 * `tierWidth` are in the bottom tier `tiers`.
 *
 * Complexity: O(1).
 *
 * @throws InvalidInputError when `rating` is not a finite number > 0 or an option is invalid.
 * @example
 * ```ts
 * tierOf(1250); // 3   (5 tiers of 500: [1000, 1500) is tier 3)
 * tierOf(2000); // 1
 * tierOf(9999); // 1
 * tierOf(499);  // 5
 * ```
 */
export function tierOf(rating: number, options?: TierOptions): number {
  const where = "@sched/elo/tierOf";
  requireKnownKeys(where, "options", options, TIER_KEYS);
  const { tiers, tierWidth } = resolveTierOptions(options, where);
  requirePositive(where, "rating", rating);
  return tierOfResolved(rating, tiers, tierWidth);
}

/** {@link tierOf} without validation, for hot paths. @internal */
export function tierOfResolved(rating: number, tiers: number, tierWidth: number): number {
  const band = Math.floor(rating / tierWidth); // 0 for the bottom tier
  return band >= tiers - 1 ? 1 : tiers - band;
}

/**
 * The half-open rating range `[low, high)` of tier `tier`: `low = 0` for the bottom tier and
 * `high = Infinity` for the top tier.
 *
 * Complexity: O(1).
 *
 * @throws InvalidInputError when `tier` is not an integer in [1, tiers] or an option is invalid.
 * @example
 * ```ts
 * tierRange(3); // { low: 1000, high: 1500 }
 * tierRange(1); // { low: 2000, high: Infinity }
 * ```
 */
export function tierRange(tier: number, options?: TierOptions): { low: number; high: number } {
  const where = "@sched/elo/tierRange";
  requireKnownKeys(where, "options", options, TIER_KEYS);
  const { tiers, tierWidth } = resolveTierOptions(options, where);
  requireInteger(where, "tier", tier, 1);
  if (tier > tiers) {
    throw new InvalidInputError(where, "tier", `is ${tier}, expected an integer in [1, ${tiers}]`);
  }
  const band = tiers - tier;
  return {
    low: tier === tiers ? 0 : band * tierWidth,
    high: tier === 1 ? Number.POSITIVE_INFINITY : (band + 1) * tierWidth,
  };
}
