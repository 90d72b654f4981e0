import { describe, expect, expectTypeOf, it, vi } from "vitest";
import * as one from "../src/index.js";

// A second, independent copy of the module (what a CommonJS `require` next to an ES module
// `import` gives): same source, distinct classes. The built CJS/ESM pair is tested in
// tests/artifacts/test/dual-package.test.ts.
vi.resetModules();
const two: typeof one = await import("../src/index.js?copy=2" as string);

/** One instance of each class, made by `lib`. */
function samples(lib: typeof one) {
  return {
    SchedError: new lib.SchedError("CUSTOM", "w", "d"),
    InvalidInputError: new lib.InvalidInputError("w", "f", "d"),
    ParseError: new lib.ParseError("w", { source: "s" }, "d"),
    ConstraintViolationError: new lib.ConstraintViolationError("w", 1, "r", "d"),
    LimitExceededError: new lib.LimitExceededError("w", "d"),
    PolicyError: new lib.PolicyError("w", { policy: "p", time: 0, jobIds: [] }, "d"),
  };
}
type Name = keyof ReturnType<typeof samples>;
const NAMES = Object.keys(samples(one)) as Name[];

describe("error identity across copies of @sched/errors", () => {
  it("the two copies are distinct classes (the hazard is real)", () => {
    expect(two.SchedError).not.toBe(one.SchedError);
  });

  it("an error from one copy is instanceof the other copy's class exactly when it would be within one copy", () => {
    for (const [maker, checker] of [
      [one, two],
      [two, one],
      [one, one],
    ] as const) {
      const made = samples(maker);
      for (const madeAs of NAMES) {
        for (const checkedAs of NAMES) {
          const expected = checkedAs === "SchedError" || checkedAs === madeAs;
          expect(made[madeAs] instanceof checker[checkedAs], `${madeAs} vs ${checkedAs}`).toBe(
            expected,
          );
        }
        expect(made[madeAs] instanceof Error).toBe(true);
      }
    }
  });

  it("a class derived by a user keeps the ordinary rule, and its errors are still SchedErrors everywhere", () => {
    class MineOne extends one.InvalidInputError {}
    class MineTwo extends two.InvalidInputError {}
    const e = new MineTwo("w", "f", "d");
    expect(e instanceof MineTwo).toBe(true);
    expect(e instanceof MineOne).toBe(false);
    expect(e instanceof one.InvalidInputError).toBe(true);
    expect(e instanceof one.SchedError).toBe(true);
    expect(e instanceof one.ParseError).toBe(false);
    expect(new one.InvalidInputError("w", "f", "d") instanceof MineOne).toBe(false);
    // A class derived from the user's own class: the ordinary rule reaches up the chain.
    class Deeper extends MineTwo {}
    const d = new Deeper("w", "f", "d");
    expect(d instanceof Deeper).toBe(true);
    expect(d instanceof MineTwo).toBe(true);
    expect(d instanceof two.InvalidInputError).toBe(true);
    expect(d instanceof one.SchedError).toBe(true);
    expect(d instanceof MineOne).toBe(false);
  });

  it("values that only look like errors are not instances", () => {
    for (const v of [
      null,
      undefined,
      0,
      "SchedError",
      {},
      new Error("x"),
      { name: "SchedError" },
    ]) {
      expect(v instanceof one.SchedError).toBe(false);
    }
    // The brand is a hidden, read-only property under a registry symbol.
    const e = new one.ParseError("w", { source: "s", line: 3 }, "d");
    expect(Object.getOwnPropertyDescriptor(e, Symbol.for("@sched/errors/classes"))).toEqual({
      value: ["ParseError", "SchedError"],
      enumerable: false,
      writable: false,
      configurable: false,
    });
    expect(Object.keys(e)).not.toContain(Symbol.for("@sched/errors/classes"));
  });

  it("instanceof still narrows the type", () => {
    const e: unknown = new two.InvalidInputError("w", "f", "d");
    if (e instanceof one.InvalidInputError) {
      expectTypeOf(e).toEqualTypeOf<one.InvalidInputError>();
      expect(e.field).toBe("f");
    } else {
      expect.unreachable("not narrowed");
    }
  });
});
