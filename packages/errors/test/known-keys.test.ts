import { describe, expect, expectTypeOf, it } from "vitest";
import { InvalidInputError, optionKeys, requireKnownKeys } from "../src/index.js";
import { editDistance, nearestKey } from "../src/known-keys.js";

const W = "@sched/x/f";

interface PassOptions {
  reservations?: number;
  machineOrder?: "first" | "best";
  seed?: number;
}
const PASS_KEYS = optionKeys<PassOptions>({ reservations: true, machineOrder: true, seed: true });

/** The message `fn` throws (an InvalidInputError), or `undefined`. */
function message(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(InvalidInputError);
    return (e as Error).message;
  }
  return undefined;
}

describe("requireKnownKeys", () => {
  it("returns undefined and objects with only known keys", () => {
    expect(requireKnownKeys(W, "options", undefined, PASS_KEYS)).toBeUndefined();
    const o = { reservations: 1, seed: 2 };
    expect(requireKnownKeys(W, "options", o, PASS_KEYS)).toBe(o);
    expect(requireKnownKeys(W, "options", {}, PASS_KEYS)).toEqual({});
  });

  it("names the unknown key, the nearest known one and the known keys", () => {
    expect(message(() => requireKnownKeys(W, "options", { reservation: 0 }, PASS_KEYS))).toBe(
      `${W}: options.reservation is not a known key (did you mean \`reservations\`?), expected one of reservations, machineOrder, seed`,
    );
    expect(message(() => requireKnownKeys(W, "options", { sed: 3 }, PASS_KEYS))).toContain(
      "options.sed is not a known key (did you mean `seed`?)",
    );
    expect(
      message(() => requireKnownKeys(W, "options", { machineorder: "first" }, PASS_KEYS)),
    ).toContain("(did you mean `machineOrder`?)");
    expect(message(() => requireKnownKeys(W, "spec", { name: "WL-2" }, PASS_KEYS))).toBe(
      `${W}: spec.name is not a known key, expected one of reservations, machineOrder, seed`,
    );
  });

  it("accepts an unknown key whose value is undefined (a spread that clears a key)", () => {
    expect(
      message(() => requireKnownKeys(W, "options", { ...{ seed: 1 }, sed: undefined }, PASS_KEYS)),
    ).toBeUndefined();
    expect(message(() => requireKnownKeys(W, "options", { sed: null }, PASS_KEYS))).toContain(
      "options.sed",
    );
  });

  it("refuses null, arrays and primitives as the options object", () => {
    for (const [v, d] of [
      [null, "null"],
      [[], "an array"],
      [3, "3"],
      ["a", '"a"'],
    ] as const) {
      expect(message(() => requireKnownKeys(W, "options", v as never, PASS_KEYS))).toBe(
        `${W}: options is ${d}, expected an object`,
      );
    }
  });

  it("says so when a type has no options at all", () => {
    const NONE = optionKeys<Record<never, never>>({});
    expect(message(() => requireKnownKeys(W, "options", { a: 1 }, NONE))).toBe(
      `${W}: options.a is not a known key, expected no keys`,
    );
  });

  it("checks an object against each list it is given", () => {
    const OTHER = optionKeys<{ other?: number }>({ other: true });
    const o = { seed: 1 };
    expect(requireKnownKeys(W, "options", o, PASS_KEYS)).toBe(o);
    expect(requireKnownKeys(W, "options", o, PASS_KEYS)).toBe(o);
    expect(message(() => requireKnownKeys(W, "options", o, OTHER))).toContain("options.seed");
  });

  it("ignores symbol and inherited keys", () => {
    const o = Object.create({ inherited: 1 }) as Record<string | symbol, unknown>;
    o[Symbol("s")] = 1;
    o.seed = 2;
    expect(() => requireKnownKeys(W, "options", o, PASS_KEYS)).not.toThrow();
  });

  it("optionKeys lists every key of the interface, in order (a missing or extra key is a type error)", () => {
    expect(PASS_KEYS.keys).toEqual(["reservations", "machineOrder", "seed"]);
    // @ts-expect-error a key of PassOptions is missing
    optionKeys<PassOptions>({ reservations: true, machineOrder: true });
    // @ts-expect-error a key that PassOptions lacks
    optionKeys<PassOptions>({ reservations: true, machineOrder: true, seed: true, extra: true });
    expectTypeOf(requireKnownKeys(W, "o", { seed: 1 } as PassOptions, PASS_KEYS)).toEqualTypeOf<
      PassOptions | undefined
    >();
  });
});

describe("nearestKey", () => {
  it("prefers a case-insensitive match, then the nearest within the limit, then a long prefix", () => {
    expect(nearestKey("nodelimit", ["timeLimit", "nodeLimit"])).toBe("nodeLimit");
    expect(nearestKey("preempt", ["preemptive", "deadline"])).toBe("preemptive");
    expect(nearestKey("matching", ["matcher", "variant"])).toBe("matcher");
    expect(nearestKey("name", ["workload", "seed"])).toBeUndefined();
    expect(nearestKey("x", ["y", "z"])).toBe("y");
  });

  it("editDistance counts insertions, deletions and substitutions", () => {
    expect(editDistance("kitten", "sitting")).toBe(3);
    expect(editDistance("", "abc")).toBe(3);
    expect(editDistance("abc", "abc")).toBe(0);
  });
});

describe("optionKeys records compose", () => {
  it("a type that extends another lists the base's keys by spreading its record", () => {
    interface More extends PassOptions {
      readonly name?: string;
    }
    const MORE = optionKeys<More>({ ...PASS_KEYS.record, name: true });
    expect(MORE.keys).toEqual(["reservations", "machineOrder", "seed", "name"]);
    // @ts-expect-error the spread base lacks `name`
    optionKeys<More>({ ...PASS_KEYS.record });
  });
});
