import { InvalidInputError } from "@sched/core";

/**
 * `value` when it is iterable (an array, a generator, ...); otherwise an `InvalidInputError`
 * naming `where` and `field` (a `for … of` over it would throw a bare `TypeError`). Internal.
 */
export function requireIterable<T>(
  where: string,
  field: string,
  value: Iterable<T>,
  what: string,
): Iterable<T> {
  if (typeof (value as { [Symbol.iterator]?: unknown } | null)?.[Symbol.iterator] !== "function") {
    throw new InvalidInputError(
      where,
      field,
      `is ${value === null ? "null" : typeof value}, expected an iterable of ${what}`,
    );
  }
  return value;
}
