import { describeValue, InvalidInputError } from "@sched/errors";
import type { MatchingInput } from "./types.js";

/**
 * Checks the shape of a {@link MatchingInput}: `rows` and `cols` non-negative safe integers,
 * `weights` array-like of length `rows * cols`. The entries are checked by
 * {@link validateInput} (or by a caller that reads them anyway, with {@link badEntry}).
 * @throws {InvalidInputError} naming the offending field
 */
export function validateShape(where: string, input: MatchingInput): void {
  if (input === null || typeof input !== "object") {
    throw new InvalidInputError(
      where,
      "matrix",
      "is not an object, expected { rows, cols, weights }",
    );
  }
  const { rows, cols, weights } = input;
  for (const [name, value] of [
    ["rows", rows],
    ["cols", cols],
  ] as const) {
    if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 0) {
      throw new InvalidInputError(
        where,
        `matrix.${name}`,
        `is ${describeValue(value)}, expected a non-negative integer`,
      );
    }
  }
  if (
    weights === null ||
    typeof weights !== "object" ||
    typeof (weights as { length?: unknown }).length !== "number"
  ) {
    throw new InvalidInputError(
      where,
      "matrix.weights",
      `is ${describeValue(weights)}, expected a Float64Array (or an array of numbers)`,
    );
  }
  if (weights.length !== rows * cols) {
    throw new InvalidInputError(
      where,
      "matrix.weights",
      `has length ${weights.length}, expected rows * cols = ${rows * cols}`,
    );
  }
}

/** Whether a weight is acceptable: a finite number, or `-Infinity` (not eligible). */
export function isValidWeight(w: unknown): boolean {
  return typeof w === "number" && (w <= Number.MAX_VALUE || w === Number.NEGATIVE_INFINITY);
}

/** The error for the invalid entry `k` (NaN, `+Infinity` or not a number). */
export function badEntry(where: string, input: MatchingInput, k: number): InvalidInputError {
  const w = input.weights[k];
  const i = Math.floor(k / input.cols);
  const j = k - i * input.cols;
  return new InvalidInputError(
    where,
    `matrix.weights[${k}] (row ${i}, col ${j})`,
    `is ${describeValue(w)}, expected a finite number (<= 0 means not eligible)`,
  );
}

/**
 * Checks a {@link MatchingInput} completely and returns the largest eligible weight (0 when
 * none).
 * @throws {InvalidInputError} when `rows`/`cols` are not non-negative safe integers, `weights`
 *   is missing or has the wrong length, or an entry is NaN or `+Infinity`.
 */
export function validateInput(where: string, input: MatchingInput): number {
  validateShape(where, input);
  const { weights } = input;
  let max = 0;
  for (let k = 0; k < weights.length; k++) {
    const w = weights[k]!;
    // typeof first: comparing a symbol or a bigint mix throws a raw TypeError
    if (typeof w !== "number") {
      throw badEntry(where, input, k);
    } else if (!(w <= Number.MAX_VALUE)) {
      if (!isValidWeight(w)) throw badEntry(where, input, k);
    } else if (w > max) {
      max = w;
    }
  }
  return max;
}
