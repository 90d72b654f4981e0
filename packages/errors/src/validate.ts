import { InvalidInputError } from "./errors.js";

/**
 * Checks of one value each, shared by every @sched package: each returns the value when it is
 * valid and otherwise throws an {@link InvalidInputError} naming `where` (the function,
 * `@sched/<package>/<function>`) and `field` (the argument, option or record field, in the
 * caller's words), with what the value was and what was expected:
 * `@sched/core/createJob: spec.cores is 0, expected an integer >= 1`.
 */

/**
 * How a value reads in an error message: a number as written (`NaN`, `Infinity`), a string
 * quoted, `null`, `an array`, a `Date` with its time (`a Date (2026-11-27T21:35:00.000Z)`, or
 * `an invalid Date`: a time given as a Date where a number is expected), or the type's name.
 *
 * @example
 * ```ts
 * describeValue(Number.NaN); // "NaN"
 * describeValue("4"); // "\"4\""
 * describeValue(new Date(0)); // "a Date (1970-01-01T00:00:00.000Z)"
 * ```
 */
export function describeValue(value: unknown): string {
  if (typeof value === "number") return Number.isNaN(value) ? "NaN" : String(value);
  if (typeof value === "string") return JSON.stringify(value);
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (value instanceof Date) {
    const ms = value.getTime();
    return Number.isNaN(ms) ? "an invalid Date" : `a Date (${value.toISOString()})`;
  }
  return typeof value;
}

/**
 * `value` when it is a finite number.
 *
 * @throws InvalidInputError `<where>: <field> is <value>, expected a finite number`.
 * @example
 * ```ts
 * requireFinite("@sched/elo/rate", "options.k", 32); // 32
 * ```
 */
export function requireFinite(where: string, field: string, value: unknown): number {
  if (typeof value !== "number" || !Number.isFinite(value)) {
    throw new InvalidInputError(
      where,
      field,
      `is ${describeValue(value)}, expected a finite number`,
    );
  }
  return value;
}

/**
 * `value` when it is a finite number > 0.
 *
 * @throws InvalidInputError `<where>: <field> is <value>, expected a finite number > 0`.
 */
export function requirePositive(where: string, field: string, value: unknown): number {
  if (typeof value !== "number" || !Number.isFinite(value) || value <= 0) {
    throw new InvalidInputError(
      where,
      field,
      `is ${describeValue(value)}, expected a finite number > 0`,
    );
  }
  return value;
}

/**
 * `value` when it is a finite number >= 0.
 *
 * @throws InvalidInputError `<where>: <field> is <value>, expected a finite number >= 0`.
 */
export function requireNonNegative(where: string, field: string, value: unknown): number {
  if (typeof value !== "number" || !Number.isFinite(value) || value < 0) {
    throw new InvalidInputError(
      where,
      field,
      `is ${describeValue(value)}, expected a finite number >= 0`,
    );
  }
  return value;
}

/**
 * `value` when it is a safe integer >= `min`.
 *
 * @throws InvalidInputError `<where>: <field> is <value>, expected an integer >= <min>`.
 * @example
 * ```ts
 * requireInteger("@sched/core/createJob", "spec.cores", 0, 1); // throws: spec.cores is 0, expected an integer >= 1
 * ```
 */
export function requireInteger(where: string, field: string, value: unknown, min: number): number {
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < min) {
    throw new InvalidInputError(
      where,
      field,
      `is ${describeValue(value)}, expected an integer >= ${min}`,
    );
  }
  return value;
}

/**
 * `value` when it is a safe integer (of any sign: an id, a seed).
 *
 * @throws InvalidInputError `<where>: <field> is <value>, expected an integer`.
 */
export function requireAnyInteger(where: string, field: string, value: unknown): number {
  if (typeof value !== "number" || !Number.isSafeInteger(value)) {
    throw new InvalidInputError(where, field, `is ${describeValue(value)}, expected an integer`);
  }
  return value;
}

/**
 * `value` when it is an object (not `null`, not an array).
 *
 * @throws InvalidInputError `<where>: <field> is <value>, expected an object`.
 */
export function requireObject(where: string, field: string, value: unknown): object {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new InvalidInputError(where, field, `is ${describeValue(value)}, expected an object`);
  }
  return value;
}

/**
 * `value` when it is an array.
 *
 * @throws InvalidInputError `<where>: <field> is <value>, expected an array`.
 */
export function requireArray(where: string, field: string, value: unknown): readonly unknown[] {
  if (!Array.isArray(value)) {
    throw new InvalidInputError(where, field, `is ${describeValue(value)}, expected an array`);
  }
  return value;
}

/**
 * `value` when it is `true` or `false`: nothing else, not `null`, not `0` or `1`, not the string
 * `"false"` (which a truthiness test would read as `true`). To let `undefined` mean a default, pass
 * `value ?? fallback` (which also reads `null` as the default) or check `value === undefined`
 * first, as with {@link requireOneOf}.
 *
 * @throws InvalidInputError `<where>: <field> is <value>, expected true or false`.
 * @example
 * ```ts
 * requireBoolean("@sched/workload/swfToJobs", "options.clean", "false");
 * // throws: options.clean is "false", expected true or false
 * ```
 */
export function requireBoolean(where: string, field: string, value: unknown): boolean {
  if (value !== true && value !== false) {
    throw new InvalidInputError(where, field, `is ${describeValue(value)}, expected true or false`);
  }
  return value;
}

/**
 * The choices as a message lists them, each quoted: `"a" or "b"`, or `one of "a", "b", "c"`.
 *
 * @example
 * ```ts
 * describeChoices(["fill", "drop"]); // "\"fill\" or \"drop\""
 * ```
 */
export function describeChoices(choices: readonly string[]): string {
  const quoted = choices.map((c) => JSON.stringify(c));
  if (quoted.length === 2) return `${quoted[0]} or ${quoted[1]}`;
  if (quoted.length === 1) return quoted[0] as string;
  return `one of ${quoted.join(", ")}`;
}

/**
 * `value` when it is one of `choices` (strings compared exactly: no trimming, no case folding).
 *
 * @throws InvalidInputError `<where>: <field> is <value>, expected "a" or "b"` (two choices),
 * or `expected one of "a", "b", "c"`.
 * @example
 * ```ts
 * requireOneOf("@sched/knapsack/mkpGreedy", "options.strategy", "fil", ["fill", "drop"]);
 * // throws: options.strategy is "fil", expected "fill" or "drop"
 * ```
 */
export function requireOneOf<const T extends string>(
  where: string,
  field: string,
  value: unknown,
  choices: readonly T[],
): T {
  if (typeof value !== "string" || !(choices as readonly string[]).includes(value)) {
    throw new InvalidInputError(
      where,
      field,
      `is ${describeValue(value)}, expected ${describeChoices(choices)}`,
    );
  }
  return value as T;
}
