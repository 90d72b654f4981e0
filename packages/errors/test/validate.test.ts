import { describe, expect, it } from "vitest";
import {
  describeValue,
  InvalidInputError,
  requireAnyInteger,
  requireArray,
  requireBoolean,
  requireFinite,
  requireInteger,
  requireNonNegative,
  requireObject,
  requireOneOf,
  requirePositive,
} from "../src/index.js";

const W = "@sched/x/f";

/** The error `fn` throws, or `undefined`. */
function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (e) {
    return e;
  }
  return undefined;
}

describe("validation helpers", () => {
  it("describeValue reads a value as a message would", () => {
    expect(
      [Number.NaN, -1.5, Number.POSITIVE_INFINITY, "4", null, [], {}, undefined, true].map(
        describeValue,
      ),
    ).toEqual([
      "NaN",
      "-1.5",
      "Infinity",
      '"4"',
      "null",
      "an array",
      "object",
      "undefined",
      "boolean",
    ]);
  });

  it("describeValue shows a Date with its time, not as `object`", () => {
    const at = new Date(Date.UTC(2026, 10, 27, 21, 35));
    expect(describeValue(at)).toBe("a Date (2026-11-27T21:35:00.000Z)");
    expect(describeValue(new Date(Number.NaN))).toBe("an invalid Date");
    expect((thrown(() => requireFinite(W, "state.now", at)) as Error).message).toBe(
      `${W}: state.now is a Date (2026-11-27T21:35:00.000Z), expected a finite number`,
    );
  });

  it("each returns a valid value and names where, field, value and expectation otherwise", () => {
    expect(requireFinite(W, "a", -3)).toBe(-3);
    expect(requirePositive(W, "a", 0.5)).toBe(0.5);
    expect(requireNonNegative(W, "a", 0)).toBe(0);
    expect(requireInteger(W, "a", 3, 3)).toBe(3);
    expect(requireAnyInteger(W, "a", -7)).toBe(-7);
    const o = {};
    expect(requireObject(W, "a", o)).toBe(o);
    const a = [1];
    expect(requireArray(W, "a", a)).toBe(a);
    expect(requireOneOf(W, "a", "drop", ["fill", "drop"])).toBe("drop");
    expect(requireBoolean(W, "a", false)).toBe(false);
    expect(requireBoolean(W, "a", true)).toBe(true);
    const cases: [() => unknown, string][] = [
      [() => requireFinite(W, "opts.k", Number.NaN), "opts.k is NaN, expected a finite number"],
      [() => requirePositive(W, "opts.k", 0), "opts.k is 0, expected a finite number > 0"],
      [() => requireNonNegative(W, "x[2]", -1), "x[2] is -1, expected a finite number >= 0"],
      [
        () => requireNonNegative(W, "x[2]", Number.POSITIVE_INFINITY),
        "x[2] is Infinity, expected a finite number >= 0",
      ],
      [
        () => requirePositive(W, "opts.k", Number.POSITIVE_INFINITY),
        "opts.k is Infinity, expected a finite number > 0",
      ],
      [
        () => requireFinite(W, "opts.k", Number.NEGATIVE_INFINITY),
        "opts.k is -Infinity, expected a finite number",
      ],
      [() => requireInteger(W, "n", 2.5, 1), "n is 2.5, expected an integer >= 1"],
      [() => requireInteger(W, "n", 2 ** 53, 1), `n is ${2 ** 53}, expected an integer >= 1`],
      [() => requireAnyInteger(W, "seed", "1"), 'seed is "1", expected an integer'],
      [() => requireObject(W, "spec", []), "spec is an array, expected an object"],
      [() => requireArray(W, "list", null), "list is null, expected an array"],
      [
        () => requireOneOf(W, "opts.s", "fil", ["fill", "drop"]),
        'opts.s is "fil", expected "fill" or "drop"',
      ],
      [
        () => requireOneOf(W, "opts.o", "Fast", ["fast", "slow", "lowest-index"]),
        'opts.o is "Fast", expected one of "fast", "slow", "lowest-index"',
      ],
      [
        () => requireOneOf(W, "opts.o", 1, ["a", "b", "c"]),
        'opts.o is 1, expected one of "a", "b", "c"',
      ],
      [() => requireOneOf(W, "opts.o", null, ["only"]), 'opts.o is null, expected "only"'],
      // Not a string, though it prints as one of the choices.
      [() => requireOneOf(W, "opts.o", 1, ["1", "2"]), 'opts.o is 1, expected "1" or "2"'],
      [
        () => requireOneOf(W, "opts.s", ["fill"], ["fill", "drop"]),
        'opts.s is an array, expected "fill" or "drop"',
      ],
      [
        () => requireBoolean(W, "options.clean", "false"),
        'options.clean is "false", expected true or false',
      ],
      [() => requireBoolean(W, "options.clean", 0), "options.clean is 0, expected true or false"],
      [() => requireBoolean(W, "won", null), "won is null, expected true or false"],
      [() => requireBoolean(W, "won", undefined), "won is undefined, expected true or false"],
      [
        () => requireBoolean(W, "options.links", new Boolean(true)),
        "options.links is object, expected true or false",
      ],
    ];
    for (const [fn, message] of cases) {
      const e = thrown(fn);
      expect(e).toBeInstanceOf(InvalidInputError);
      expect((e as InvalidInputError).message).toBe(`${W}: ${message}`);
    }
  });
});
