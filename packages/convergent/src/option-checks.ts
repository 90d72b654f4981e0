import { InvalidInputError } from "@sched/core";
import { describeValue } from "@sched/errors";

/**
 * An option that must be a finite number `>= 0` (`> 0` when `positive`): `value`, or `fallback`
 * when it is `undefined`. Internal.
 *
 * @throws InvalidInputError naming `where` and `field` otherwise.
 */
export function finiteOption(
  where: string,
  field: string,
  value: unknown,
  fallback: number,
  positive: boolean,
): number {
  const v = value ?? fallback;
  if (typeof v !== "number" || !Number.isFinite(v) || !(positive ? v > 0 : v >= 0))
    throw new InvalidInputError(
      where,
      field,
      `is ${describeValue(v)}, expected a finite number ${positive ? ">" : ">="} 0`,
    );
  return v;
}

/**
 * An option that must be a finite number of any sign (a heuristic's weight, as the paper's
 * constants): `value`, or `fallback` when it is `undefined`. Internal.
 *
 * @throws InvalidInputError naming `where` and `field` otherwise.
 */
export function weightOption(
  where: string,
  field: string,
  value: unknown,
  fallback: number,
): number {
  const v = value ?? fallback;
  if (typeof v !== "number" || !Number.isFinite(v))
    throw new InvalidInputError(where, field, `is ${describeValue(v)}, expected a finite number`);
  return v;
}
