import { InvalidInputError } from "@sched/core";
import {
  optionKeys,
  requireFinite,
  requireInteger,
  requireKnownKeys,
  requireObject,
  requirePositive,
} from "@sched/errors";
import { COMPETITIVE_DEFAULTS } from "./defaults.js";

/** Options of {@link winCondition} and {@link isWin}. */
export interface WinConditionOptions {
  /**
   * `MAXSPEED`: the fastest machine speed of the system, in the units of machine speeds (the
   * paper: 9 Mflops). Required: the paper assumes it is known beforehand.
   */
  readonly maxSpeed: number;
  /**
   * The programmer-defined overhead, in speed units, subtracted from `maxSpeed`: a positive
   * overhead loosens every tier's condition, a negative one tightens it. `maxSpeed - overhead`
   * must stay > 0.
   * @defaultValue 0
   */
  readonly overhead?: number;
}

/** The keys of {@link WinConditionOptions}, all of them (checked by the compiler). Internal. */
export const WIN_KEYS = optionKeys<WinConditionOptions>({
  maxSpeed: true,
  overhead: true,
});

/** {@link WinConditionOptions} with every default filled in. */
export interface ResolvedWinConditionOptions {
  readonly maxSpeed: number;
  readonly overhead: number;
}

/**
 * Validates {@link WinConditionOptions} and fills the default overhead. @internal
 * @throws InvalidInputError when `maxSpeed` is not > 0, `overhead` is not finite, or
 *   `maxSpeed - overhead <= 0`.
 */
export function resolveWinConditionOptions(
  options: WinConditionOptions,
  where = "@sched/elo/winCondition",
): ResolvedWinConditionOptions {
  if (options === undefined || options === null) {
    throw new InvalidInputError(where, "options", "is missing, expected { maxSpeed }");
  }
  requireKnownKeys(where, "options", options, WIN_KEYS);
  const { maxSpeed } = options;
  const overhead = options.overhead ?? COMPETITIVE_DEFAULTS.overhead;
  requirePositive(where, "options.maxSpeed", maxSpeed);
  requireFinite(where, "options.overhead", overhead);
  if (maxSpeed - overhead <= 0) {
    throw new InvalidInputError(
      where,
      "options.overhead",
      `is ${overhead}, expected a number < options.maxSpeed (${maxSpeed})`,
    );
  }
  return { maxSpeed, overhead };
}

/**
 * The winning condition of tier `tierLevel`, equation (2) of the paper, read as a speed:
 * `(MAXSPEED - overhead) / tierLevel`. A machine wins a job when the speed it showed on the job
 * (job size / measured execution time) is at least this; equivalently when its execution time is
 * at most `tierLevel * size / (MAXSPEED - overhead)` (see {@link isWin}). Tier 1 must run at the
 * full `MAXSPEED - overhead`, tier 5 at a fifth of it: "higher tiers have stricter conditions".
 *
 * Complexity: O(1).
 *
 * @throws InvalidInputError when `tierLevel` is not an integer >= 1 or an option is invalid.
 * @example
 * ```ts
 * winCondition(1, { maxSpeed: 9 });              // 9   (speed units, e.g. Mflops)
 * winCondition(3, { maxSpeed: 9, overhead: 3 }); // 2
 * ```
 */
export function winCondition(tierLevel: number, options: WinConditionOptions): number {
  const where = "@sched/elo/winCondition";
  const { maxSpeed, overhead } = resolveWinConditionOptions(options, where);
  requireInteger(where, "tierLevel", tierLevel, 1);
  return (maxSpeed - overhead) / tierLevel;
}

/** One completed job, as a machine measures it. */
export interface JobOutcome {
  /** Job size in operations (speed units x seconds), > 0. */
  readonly size: number;
  /** Measured execution time in seconds (completion - start), > 0. */
  readonly elapsed: number;
  /** The tier of the machine that ran it. */
  readonly tierLevel: number;
}

/**
 * Relative slack in {@link isWin}'s comparison, so that a machine running at exactly the
 * threshold speed wins despite rounding in `end - start`.
 */
export const WIN_TOLERANCE = 1e-9;

/**
 * Whether a machine met its tier's winning condition on a job: its execution time is at most
 * `tierLevel * size / (MAXSPEED - overhead)` (times `1 + WIN_TOLERANCE`), i.e. it ran at a speed
 * of at least {@link winCondition}.
 *
 * Complexity: O(1).
 *
 * @throws InvalidInputError when `size` or `elapsed` is not > 0, `tierLevel` is not an integer
 *   >= 1, or an option is invalid.
 * @example
 * ```ts
 * // 900 Mflop in 100 s is 9 Mflops: enough for tier 1 when MAXSPEED is 9
 * isWin({ size: 900, elapsed: 100, tierLevel: 1 }, { maxSpeed: 9 }); // true
 * isWin({ size: 900, elapsed: 101, tierLevel: 1 }, { maxSpeed: 9 }); // false
 * isWin({ size: 900, elapsed: 200, tierLevel: 2 }, { maxSpeed: 9 }); // true (4.5 Mflops)
 * ```
 */
export function isWin(outcome: JobOutcome, options: WinConditionOptions): boolean {
  const where = "@sched/elo/isWin";
  const { maxSpeed, overhead } = resolveWinConditionOptions(options, where);
  requireObject(where, "outcome", outcome);
  requirePositive(where, "outcome.size", outcome.size);
  requirePositive(where, "outcome.elapsed", outcome.elapsed);
  requireInteger(where, "outcome.tierLevel", outcome.tierLevel, 1);
  return winsResolved(outcome.size, outcome.elapsed, outcome.tierLevel, maxSpeed - overhead);
}

/** {@link isWin} without validation; `effectiveMax = maxSpeed - overhead`. @internal */
export function winsResolved(
  size: number,
  elapsed: number,
  tierLevel: number,
  effectiveMax: number,
): boolean {
  return elapsed <= ((tierLevel * size) / effectiveMax) * (1 + WIN_TOLERANCE);
}
