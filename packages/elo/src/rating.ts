import { InvalidInputError } from "@sched/core";
import {
  optionKeys,
  requireBoolean,
  requireFinite,
  requireKnownKeys,
  requirePositive,
} from "@sched/errors";
import { COMPETITIVE_DEFAULTS } from "./defaults.js";

/** Options of {@link updateRating}. */
export interface RatingOptions {
  /**
   * The growth constant `C` of equation (1): the largest change one job can make.
   * @defaultValue 20
   */
  readonly growth?: number;
  /**
   * The floor of a rating. The paper only says that "CR cannot go to a 0 value or less"; an
   * update that would end at or below `minRating` ends at `minRating` instead. Must be > 0.
   * @defaultValue 1
   */
  readonly minRating?: number;
}

/** The keys of {@link RatingOptions}, all of them (checked by the compiler). Internal. */
export const RATING_KEYS = optionKeys<RatingOptions>({
  growth: true,
  minRating: true,
});

/** {@link RatingOptions} with every default filled in. */
export interface ResolvedRatingOptions {
  readonly growth: number;
  readonly minRating: number;
}

/**
 * Fills the defaults of {@link RatingOptions}, then validates them. @internal
 * @throws InvalidInputError when `growth` or `minRating` is not a finite number > 0.
 */
export function resolveRatingOptions(
  options: RatingOptions = {},
  where = "@sched/elo/updateRating",
): ResolvedRatingOptions {
  const growth = options.growth ?? COMPETITIVE_DEFAULTS.growth;
  const minRating = options.minRating ?? COMPETITIVE_DEFAULTS.minRating;
  requirePositive(where, "options.growth", growth);
  requirePositive(where, "options.minRating", minRating);
  return { growth, minRating };
}

/**
 * One Elo-style update of a competitive rating, equation (1) of the paper:
 * `CR_new = max(minRating, CR_old + C * (S - S_e))`, with `S = 1` for a win and `0` for a loss.
 * A win never lowers the rating and a loss never raises it (strictly, when `0 < S_e < 1` and the
 * floor is not hit).
 *
 * Complexity: O(1).
 *
 * @param rating - the current rating, finite and > 0.
 * @param won - whether the machine met the winning condition.
 * @param expected - the expected result `S_e`, in [0, 1] (see {@link expectedResult}).
 * @throws InvalidInputError when `rating` is not a finite number > 0, `expected` is outside
 *   [0, 1], or an option is invalid.
 * @example
 * ```ts
 * updateRating(1250, true, 0.6);  // 1258  (1250 + 20 * 0.4)
 * updateRating(1250, false, 0.6); // 1238  (1250 - 20 * 0.6)
 * ```
 */
export function updateRating(
  rating: number,
  won: boolean,
  expected: number,
  options?: RatingOptions,
): number {
  const where = "@sched/elo/updateRating";
  requireKnownKeys(where, "options", options, RATING_KEYS);
  const { growth, minRating } = resolveRatingOptions(options, where);
  requirePositive(where, "rating", rating);
  requireFinite(where, "expected", expected);
  requireBoolean(where, "won", won);
  if (expected < 0 || expected > 1) {
    throw new InvalidInputError(where, "expected", `is ${expected}, expected a number in [0, 1]`);
  }
  const next = rating + growth * ((won ? 1 : 0) - expected);
  return Math.max(next, minRating);
}
