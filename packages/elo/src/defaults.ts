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
}> = Object.freeze({
  tiers: 5,
  tierWidth: 500,
  growth: 20,
  minRating: 1,
  overhead: 0,
  stickyTopTier: false,
  levelScale: "log",
});

/**
 * The defaults of `randomScheduler`'s options. Frozen.
 *
 * @example RANDOM_SCHEDULER_DEFAULTS.seed // 1
 */
export const RANDOM_SCHEDULER_DEFAULTS: Readonly<{ seed: number }> = Object.freeze({ seed: 1 });
