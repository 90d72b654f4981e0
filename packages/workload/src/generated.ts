import { InvalidInputError, type Job, type Platform } from "@sched/core";
import { describeValue } from "@sched/errors";

/** A generated workload: the platform it was generated for and its jobs, in submit order. */
export interface GeneratedWorkload {
  readonly platform: Platform;
  readonly jobs: readonly Job[];
}

/** A closed range `[lo, hi]`. */
export type Range = readonly [lo: number, hi: number];

/** Checks a finite range with lo <= hi (and lo >= min). Internal. */
export function checkRange(
  where: string,
  field: string,
  r: unknown,
  min = Number.NEGATIVE_INFINITY,
): Range {
  if (
    !Array.isArray(r) ||
    r.length !== 2 ||
    typeof r[0] !== "number" ||
    typeof r[1] !== "number" ||
    !Number.isFinite(r[0]) ||
    !Number.isFinite(r[1]) ||
    r[0] > r[1] ||
    r[0] < min
  ) {
    throw new InvalidInputError(
      where,
      field,
      `is ${rangeText(r)}, expected [lo, hi] with finite ${min === Number.NEGATIVE_INFINITY ? "" : `${min} <= `}lo <= hi`,
    );
  }
  return [r[0], r[1]];
}

/**
 * A range as the caller wrote it, `[3000,500]`; never throws (JSON.stringify threw a raw
 * TypeError on a bigint element).
 */
function rangeText(r: unknown): string {
  return Array.isArray(r) ? `[${Array.from(r, describeValue).join(",")}]` : describeValue(r);
}

/** Checks an integer >= min. Internal. */
export function checkInteger(where: string, field: string, v: unknown, min: number): number {
  if (typeof v !== "number" || !Number.isSafeInteger(v) || v < min) {
    throw new InvalidInputError(
      where,
      field,
      `is ${describeValue(v)}, expected an integer >= ${min}`,
    );
  }
  return v;
}

/** The most elements a JavaScript array holds (2^32 - 1). */
const MAX_ARRAY_LENGTH = 2 ** 32 - 1;

/**
 * Checks a number of jobs to generate into an array: an integer >= 0 that an array can hold.
 * Larger counts are refused at once (the generators used to run for days before failing).
 * Internal.
 */
export function checkJobCount(where: string, field: string, v: unknown): number {
  const n = checkInteger(where, field, v, 0);
  if (n > MAX_ARRAY_LENGTH) {
    throw new InvalidInputError(
      where,
      field,
      `is ${n}, more jobs than an array holds (${MAX_ARRAY_LENGTH})`,
    );
  }
  return n;
}

/** Checks a finite number > 0. Internal. */
export function checkPositive(where: string, field: string, v: unknown): number {
  if (typeof v !== "number" || !Number.isFinite(v) || v <= 0) {
    throw new InvalidInputError(
      where,
      field,
      `is ${describeValue(v)}, expected a finite number > 0`,
    );
  }
  return v;
}

/** Checks a probability in [0, 1]. Internal. */
export function checkProbability(where: string, field: string, v: unknown): number {
  if (typeof v !== "number" || !(v >= 0 && v <= 1)) {
    throw new InvalidInputError(
      where,
      field,
      `is ${describeValue(v)}, expected a probability in [0, 1]`,
    );
  }
  return v;
}
