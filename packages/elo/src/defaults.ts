/**
 * The defaults of `competitiveScheduler`'s options (and of the tier, rating and win-condition
 * functions it builds on: `tierOf`, `updateRating`, `TierList`, `winCondition`, `jobLevel`).
 * `baseRating` defaults to `tiers * tierWidth / 2` and `maxSpeed` to the platform's fastest
 * machine, so they are not here. Frozen.
 *
 * @example COMPETITIVE_DEFAULTS.tiers // 5
 */
export const COMPETITIVE_DEFAULTS: Readonly<{
  tiers: number;
  tierWidth: number;
  growth: number;
  minRating: number;
  overhead: number;
  stickyTopTier: boolean;
  levelScale: "log" | "linear";
  tierSearch: TierSearch;
}> = Object.freeze({
  tiers: 5,
  tierWidth: 500,
  growth: 20,
  minRating: 1,
  overhead: 0,
  stickyTopTier: false,
  levelScale: "log",
  tierSearch: "faster-first",
});

/**
 * The order of the "next best tier" after a job's own tier is full (the paper leaves it open):
 * `"faster-first"`, the faster tiers from the nearest, then the slower from the nearest
 * (`3 → 2, 1, 4, 5`); `"slower-first"`, the slower ones first (`3 → 4, 5, 2, 1`); `"nearest"`,
 * by distance to the job's tier, the faster first at equal distance (`3 → 2, 4, 1, 5`).
 */
export type TierSearch = "faster-first" | "slower-first" | "nearest";

/** The values of {@link TierSearch}. */
export const TIER_SEARCHES: readonly TierSearch[] = ["faster-first", "slower-first", "nearest"];

/**
 * The defaults of `randomScheduler`'s options. Frozen.
 *
 * @example RANDOM_SCHEDULER_DEFAULTS.seed // 1
 */
export const RANDOM_SCHEDULER_DEFAULTS: Readonly<{ seed: number }> = Object.freeze({ seed: 1 });
