import { requireInteger } from "@sched/errors";

/** The beta distribution a machine uses to predict its result on a job (paper, section 3.2). */
export interface BetaParameters {
  readonly alpha: number;
  readonly beta: number;
  /** `"positive"` when job level <= tier level, else `"negative"`. */
  readonly perspective: "positive" | "negative";
}

/**
 * The beta distribution's parameters for a machine of tier `tierLevel` running a job of level
 * `jobLevel`. Positive perspective (job level <= tier level): `alpha = 3 + |tier - level|`,
 * `beta = 2`; negative perspective (job level > tier level): `alpha = 2`,
 * `beta = 3 + |tier - level|`.
 *
 * Complexity: O(1).
 *
 * @throws InvalidInputError when a level is not an integer >= 1.
 * @example
 * ```ts
 * betaParameters(3, 1); // { alpha: 5, beta: 2, perspective: "positive" }
 * ```
 */
export function betaParameters(tierLevel: number, jobLevel: number): BetaParameters {
  requireInteger("@sched/elo/betaParameters", "tierLevel", tierLevel, 1);
  requireInteger("@sched/elo/betaParameters", "jobLevel", jobLevel, 1);
  const gap = Math.abs(tierLevel - jobLevel);
  return jobLevel <= tierLevel
    ? { alpha: 3 + gap, beta: 2, perspective: "positive" }
    : { alpha: 2, beta: 3 + gap, perspective: "negative" };
}

/**
 * The expected result `S_e` of a machine of tier `tierLevel` on a job of level `jobLevel`: the
 * mean `alpha / (alpha + beta)` of {@link betaParameters}. Always in (0, 1): in [0.6, 1) for the
 * positive perspective, in (0, 1/3] for the negative one.
 *
 * Complexity: O(1).
 *
 * @throws InvalidInputError when a level is not an integer >= 1.
 * @example
 * ```ts
 * expectedResult(2, 2); // 0.6   (alpha 3, beta 2)
 * expectedResult(1, 3); // 0.2857… (alpha 2, beta 5)
 * ```
 */
export function expectedResult(tierLevel: number, jobLevel: number): number {
  const { alpha, beta } = betaParameters(tierLevel, jobLevel);
  return alpha / (alpha + beta);
}
