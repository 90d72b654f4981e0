import { InvalidInputError } from "@sched/core";
import {
  optionKeys,
  requireInteger,
  requireKnownKeys,
  requireObject,
  requireOneOf,
  requirePositive,
} from "@sched/errors";
import { COMPETITIVE_DEFAULTS } from "./defaults.js";

/** Arguments of {@link jobLevel}. */
export interface JobLevelOptions {
  /** The job's size (finite, > 0). */
  readonly size: number;
  /** Smallest size of the range (finite, > 0, <= `maxSize`). */
  readonly minSize: number;
  /** Largest size of the range (finite, > 0). */
  readonly maxSize: number;
  /** Number of tiers (levels), an integer >= 1. */
  readonly tiers: number;
  /**
   * How the size range is cut into levels: `"log"`, equal bins of log size (each level spans the
   * same factor of sizes), or `"linear"`, equal bins of size.
   * @defaultValue `"log"`
   */
  readonly scale?: "log" | "linear";
}

/** The keys of {@link JobLevelOptions}, all of them (checked by the compiler). Internal. */
export const JOB_LEVEL_KEYS = optionKeys<JobLevelOptions>({
  size: true,
  minSize: true,
  maxSize: true,
  tiers: true,
  scale: true,
});

/**
 * The job level (the tier a job asks for; 1 = the fastest tier) from the job's size, as the
 * paper allows ("given by the user of the system or the size of the job"): the size range
 * `[minSize, maxSize]` is cut into `tiers` equal bins, of log size by default (`scale`); the
 * largest jobs get level 1, the smallest level `tiers`. Sizes outside the range are clamped to it; when `minSize === maxSize` every job
 * gets level 1.
 *
 * The competitive scheduler calls this with the smallest and largest sizes seen so far, so the
 * level of a job depends only on jobs that have arrived (the policy is online).
 *
 * Complexity: O(1).
 *
 * @throws InvalidInputError when a size is not a finite number > 0, `minSize > maxSize`, or
 *   `tiers` is not an integer >= 1.
 * @example
 * ```ts
 * jobLevel({ size: 9e9, minSize: 1e3, maxSize: 9e9, tiers: 5 }); // 1
 * jobLevel({ size: 1e3, minSize: 1e3, maxSize: 9e9, tiers: 5 }); // 5
 * jobLevel({ size: 3e6, minSize: 1e3, maxSize: 9e9, tiers: 5 }); // 3  (log10 3e6 = 6.48, in the middle bin of [3, 9.95])
 * ```
 */
export function jobLevel(options: JobLevelOptions): number {
  const where = "@sched/elo/jobLevel";
  requireObject(where, "options", options);
  requireKnownKeys(where, "options", options, JOB_LEVEL_KEYS);
  const { size, minSize, maxSize, tiers } = options;
  const scale = options.scale ?? COMPETITIVE_DEFAULTS.levelScale;
  requireOneOf(where, "scale", scale, ["log", "linear"]);
  requirePositive(where, "size", size);
  requirePositive(where, "minSize", minSize);
  requirePositive(where, "maxSize", maxSize);
  requireInteger(where, "tiers", tiers, 1);
  if (minSize > maxSize) {
    throw new InvalidInputError(
      where,
      "minSize",
      `is ${minSize}, expected <= maxSize (${maxSize})`,
    );
  }
  return jobLevelResolved(size, minSize, maxSize, tiers, scale);
}

/** {@link jobLevel} without validation. @internal */
export function jobLevelResolved(
  size: number,
  minSize: number,
  maxSize: number,
  tiers: number,
  scale: "log" | "linear" = "log",
): number {
  if (maxSize <= minSize || size >= maxSize) return 1;
  if (size <= minSize) return tiers;
  if (scale === "linear") {
    const level = 1 + Math.floor(((maxSize - size) / (maxSize - minSize)) * tiers);
    return Math.max(1, Math.min(level, tiers));
  }
  const logMax = Math.log(maxSize);
  const span = logMax - Math.log(minSize);
  // sizes so close that their logarithms coincide: one bin
  if (!(span > 0)) return 1;
  const level = 1 + Math.floor(((logMax - Math.log(size)) / span) * tiers);
  return Math.max(1, Math.min(level, tiers));
}
