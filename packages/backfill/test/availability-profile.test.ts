import { InvalidInputError } from "@sched/errors";
import { describe, expect, it } from "vitest";
import { AvailabilityProfile } from "../src/availability-profile.js";

// Every public method of AvailabilityProfile with each bad argument: a valid call, then that
// call with one argument replaced. Each must throw an InvalidInputError naming the method (in
// `where` and at the start of the message) and the argument (`field`), saying what the value was
// and what was expected, and leave the profile as it was.

/** [0, 10) 4, [10, 20) 2, [20, ∞) 4. */
function sample(): AvailabilityProfile {
  return AvailabilityProfile.fromReleases(0, 4, [
    { time: 10, amount: -2 },
    { time: 20, amount: 2 },
  ]);
}

type Call = (p: AvailabilityProfile, args: unknown[]) => unknown;

interface Bad {
  /** Which argument is replaced. */
  readonly arg: number;
  /** The field the error must name (defaults to the argument's name). */
  readonly field?: string;
  readonly values: readonly unknown[];
  /** What the message must say was expected. */
  readonly expected: string;
}

interface MethodCase {
  readonly method: string;
  readonly names: readonly string[];
  readonly valid: readonly unknown[];
  readonly call: Call;
  readonly bad: readonly Bad[];
}

// biome-ignore lint/suspicious/noExplicitAny: the calls pass wrong types on purpose
const any = (v: unknown): any => v;
const NaN_ = Number.NaN;
const INF = Number.POSITIVE_INFINITY;
const notTime = [NaN_, INF, -INF, "5", null, undefined];
const notAmount = [NaN_, INF, 2.5, 2 ** 53, "2"];

const CASES: readonly MethodCase[] = [
  {
    method: "fromReleases",
    names: ["origin", "free", "releases"],
    valid: [0, 4, [{ time: 5, amount: 1 }]],
    call: (_p, a) => AvailabilityProfile.fromReleases(any(a[0]), any(a[1]), any(a[2])),
    bad: [
      { arg: 0, field: "origin", values: notTime, expected: "a finite time" },
      { arg: 1, field: "free", values: notAmount, expected: "an integer" },
      { arg: 2, values: [null, 3, "x"], expected: "an array" },
      {
        arg: 2,
        field: "releases[1]",
        values: [[{ time: 1, amount: 1 }, null]],
        expected: "an object { time, amount }",
      },
      {
        arg: 2,
        field: "releases[0].time",
        values: [[{ time: NaN_, amount: 1 }], [{ time: INF, amount: 1 }], [{ amount: 1 }]],
        expected: "a finite time",
      },
      {
        arg: 2,
        field: "releases[0].amount",
        values: [[{ time: 1, amount: 1.5 }], [{ time: 1, amount: NaN_ }], [{ time: 1 }]],
        expected: "an integer",
      },
    ],
  },
  ...(["load", "loadSorted"] as const).map(
    (method): MethodCase => ({
      method,
      names: ["origin", "free", "times", "amounts", "count"],
      valid: [0, 4, [5, 7], [1, -2], 2],
      call: (p, a) => p[method](any(a[0]), any(a[1]), any(a[2]), any(a[3]), any(a[4])),
      bad: [
        { arg: 0, values: notTime, expected: "a finite time" },
        { arg: 1, values: notAmount, expected: "an integer" },
        { arg: 2, values: [null, 5, undefined], expected: "an array or typed array of numbers" },
        { arg: 3, values: [null, 5, undefined], expected: "an array or typed array of numbers" },
        {
          arg: 4,
          values: [-1, 1.5, 3, NaN_, INF, "2"],
          expected: "an integer from 0 to 2 (the shorter array's length)",
        },
        {
          arg: 2,
          field: "times[1]",
          values: [
            [5, NaN_],
            [5, INF],
          ],
          expected: "a finite time",
        },
        {
          arg: 3,
          field: "amounts[1]",
          values: [[1, 0.5], [1, NaN_], new Float64Array([1, INF])],
          expected: "an integer",
        },
      ],
    }),
  ),
  {
    method: "time",
    names: ["i"],
    valid: [2],
    call: (p, a) => p.time(any(a[0])),
    bad: [{ arg: 0, values: [-1, 3, 0.5, NaN_, INF, "0"], expected: "an integer from 0 to 2" }],
  },
  {
    method: "free",
    names: ["i"],
    valid: [0],
    call: (p, a) => p.free(any(a[0])),
    bad: [{ arg: 0, values: [-1, 3, 1.5, NaN_, -INF, null], expected: "an integer from 0 to 2" }],
  },
  {
    method: "indexAt",
    names: ["t"],
    valid: [15],
    call: (p, a) => p.indexAt(any(a[0])),
    bad: [{ arg: 0, values: notTime, expected: "a finite time" }],
  },
  {
    method: "valueAt",
    names: ["t"],
    valid: [-3],
    call: (p, a) => p.valueAt(any(a[0])),
    bad: [{ arg: 0, values: notTime, expected: "a finite time" }],
  },
  ...(["minOver", "nonNegative"] as const).map(
    (method): MethodCase => ({
      method,
      names: ["start", "end"],
      valid: [5, 5],
      call: (p, a) => p[method](any(a[0]), any(a[1])),
      bad: [
        { arg: 0, values: notTime, expected: "a finite time" },
        { arg: 1, values: [NaN_, 4.5, -INF, "9"], expected: "a time >= start (5)" },
      ],
    }),
  ),
  {
    method: "fits",
    names: ["start", "end", "amount"],
    valid: [0, INF, 2],
    call: (p, a) => p.fits(any(a[0]), any(a[1]), any(a[2])),
    bad: [
      { arg: 0, values: notTime, expected: "a finite time" },
      { arg: 1, values: [NaN_, -1, -INF], expected: "a time >= start (0)" },
      { arg: 2, values: [...notAmount, -1], expected: "an integer >= 0" },
    ],
  },
  {
    method: "earliestStart",
    names: ["amount", "duration", "from", "limit"],
    valid: [3, 5, 0, 100],
    call: (p, a) => p.earliestStart(any(a[0]), any(a[1]), any(a[2]), any(a[3])),
    bad: [
      { arg: 0, values: [...notAmount, -1], expected: "an integer >= 0" },
      { arg: 1, values: [NaN_, -1, -INF, "5"], expected: "a duration >= 0, or Infinity" },
      { arg: 2, values: notTime, expected: "a finite time" },
      { arg: 3, values: [NaN_, "100", null], expected: "a time, or Infinity" },
    ],
  },
  {
    method: "earliestStartBefore",
    names: ["amount", "duration", "from", "limit", "ownStart", "own"],
    valid: [3, 5, 0, 30, 40, 2],
    call: (p, a) =>
      p.earliestStartBefore(any(a[0]), any(a[1]), any(a[2]), any(a[3]), any(a[4]), any(a[5])),
    bad: [
      { arg: 0, values: [...notAmount, -1], expected: "an integer >= 0" },
      { arg: 1, values: [NaN_, -1, -INF], expected: "a duration >= 0, or Infinity" },
      { arg: 2, values: notTime, expected: "a finite time" },
      { arg: 3, values: [NaN_, undefined], expected: "a time, or Infinity" },
      { arg: 4, values: [NaN_, 29, -INF, undefined], expected: "a time >= limit (30)" },
      { arg: 5, values: [...notAmount, -1], expected: "an integer >= 0" },
    ],
  },
  {
    method: "add",
    names: ["start", "end", "delta"],
    valid: [10, 15, -1],
    call: (p, a) => p.add(any(a[0]), any(a[1]), any(a[2])),
    bad: [
      { arg: 0, values: notTime, expected: "a finite time" },
      { arg: 1, values: [NaN_, 10, 5, -INF, "15"], expected: "a time > start (10)" },
      { arg: 2, values: notAmount, expected: "an integer" },
    ],
  },
  {
    method: "trimBefore",
    names: ["t"],
    valid: [12],
    call: (p, a) => p.trimBefore(any(a[0])),
    bad: [{ arg: 0, values: notTime, expected: "a finite time" }],
  },
];

/** How the message shows a value, written here independently of @sched/errors. */
function shown(v: unknown): string {
  if (typeof v === "number") return String(v);
  if (typeof v === "string") return JSON.stringify(v);
  if (v === null) return "null";
  if (Array.isArray(v)) return "an array";
  return typeof v;
}

/** The element of `value` that `path` (`[1]`, `[0].time`) names. */
function at(path: string, value: unknown): unknown {
  let v = value;
  for (const [, index, key] of path.matchAll(/\[(\d+)\]|\.(\w+)/g)) {
    v = (v as Record<string, unknown>)[(index ?? key)!];
  }
  return v;
}

describe("AvailabilityProfile refuses bad arguments, naming the method and the argument", () => {
  for (const c of CASES) {
    it(`${c.method}(${c.names.join(", ")}): the valid call runs`, () => {
      expect(() => c.call(sample(), [...c.valid])).not.toThrow();
    });
    for (const b of c.bad) {
      const field = b.field ?? c.names[b.arg]!;
      for (const value of b.values) {
        const v = field.includes("[") ? at(field.slice(field.indexOf("[")), value) : value;
        it(`${c.method}: ${field} = ${shown(v)} (${b.expected})`, () => {
          const p = sample();
          const before = p.toArray();
          const args = [...c.valid];
          args[b.arg] = value;
          let error: unknown;
          try {
            c.call(p, args);
          } catch (e) {
            error = e;
          }
          expect(error).toBeInstanceOf(InvalidInputError);
          const e = error as InvalidInputError;
          const where = `@sched/backfill/AvailabilityProfile.${c.method}`;
          expect(e.where).toBe(where);
          expect(e.field).toBe(field);
          expect(e.message).toBe(`${where}: ${field} is ${shown(v)}, expected ${b.expected}`);
          expect(p.toArray()).toEqual(before);
        });
      }
    }
  }

  it("the constructor names the argument", () => {
    for (const [origin, free, field] of [
      [NaN_, 1, "origin"],
      [INF, 1, "origin"],
      ["0", 1, "origin"],
      [0, 1.5, "free"],
      [0, NaN_, "free"],
      [0, -INF, "free"],
    ] as const) {
      expect(() => new AvailabilityProfile(any(origin), any(free))).toThrow(InvalidInputError);
      expect(() => new AvailabilityProfile(any(origin), any(free))).toThrow(
        new RegExp(`^@sched/backfill/AvailabilityProfile: ${field} is `),
      );
    }
  });

  it("loadSorted refuses times out of order or repeated, naming the first", () => {
    const p = sample();
    expect(() => p.loadSorted(0, 4, [5, 9, 9], [1, 1, 1], 3)).toThrow(
      "@sched/backfill/AvailabilityProfile.loadSorted: times[2] is 9, expected a time > times[1] (9)",
    );
    expect(() => p.loadSorted(0, 4, [5, 3], [1, 1], 2)).toThrow(/times\[1\] is 3/);
    // Only the first `count` entries are read.
    p.loadSorted(0, 4, [5, 3], [1, 1], 1);
    expect(p.toArray()).toEqual([
      [0, 4],
      [5, 5],
    ]);
  });
});

describe("AvailabilityProfile accepts the edges of its domain", () => {
  it("infinite ends and limits, empty windows, zero amounts, negative free and deltas", () => {
    const p = sample();
    expect(p.fits(12, 12, 2)).toBe(true);
    expect(p.minOver(12, 12)).toBe(2);
    expect(p.minOver(0, INF)).toBe(2);
    expect(p.nonNegative(0, INF)).toBe(true);
    expect(p.earliestStart(4, INF, 0)).toBe(20);
    expect(p.earliestStart(0, 0, 3)).toBe(3);
    expect(p.earliestStart(4, 1, 0, -INF)).toBe(INF);
    expect(p.earliestStartBefore(4, 5, 0, INF, INF, 0)).toBe(0);
    p.add(-5, 3, -6);
    expect(p.valueAt(0)).toBe(-2);
    expect(p.nonNegative(0, 1)).toBe(false);
    p.add(25, INF, -1);
    expect(p.valueAt(1e12)).toBe(3);
    p.trimBefore(-100);
    expect(p.origin).toBe(0);
    expect(p.time(p.size - 1)).toBe(25);
    expect(p.free(0)).toBe(-2);
    const q = new AvailabilityProfile(-7, -3);
    expect(q.clone().toArray()).toEqual([[-7, -3]]);
    q.load(1, 0, new Float64Array([2, 2]), new Int32Array([1, -1]), 2);
    expect(q.toArray()).toEqual([[1, 0]]);
  });

  it("a clone is an AvailabilityProfile that checks its arguments too", () => {
    const c = sample().clone();
    expect(c).toBeInstanceOf(AvailabilityProfile);
    expect(() => c.add(1, 0, 1)).toThrow(/AvailabilityProfile\.add: end is 0/);
    c.add(0, 1, -4);
    expect(c.toArray()).toEqual([
      [0, 0],
      [1, 4],
      [10, 2],
      [20, 4],
    ]);
  });
});
