import { InvalidInputError } from "@sched/errors";
import { describe, expect, it } from "vitest";
import { deriveSeed, Random } from "../src/index.js";

/** A Random whose xoshiro128** state is set by hand (the fields are private in TypeScript only). */
function withState(state: readonly [number, number, number, number]): Random {
  const r = new Random(0);
  const [a, b, c, d] = state;
  Object.assign(r as unknown as Record<string, number>, { a, b, c, d });
  return r;
}

describe("Random", () => {
  it("uint32() is xoshiro128**: the reference outputs from state (1, 2, 3, 4)", () => {
    // Computed by an independent Python transcription of Blackman and Vigna's C reference.
    const r = withState([1, 2, 3, 4]);
    const got = Array.from({ length: 8 }, () => r.uint32());
    expect(got).toEqual([
      11520, 0, 5927040, 70819200, 2031721883, 1637235492, 1287239034, 3734860849,
    ]);
  });

  it("pins the first numbers of (seed 1, stream '') and (seed 42, 'sizes'): a change moves every result", () => {
    const a = new Random(1);
    const b = new Random(42, "sizes");
    expect(Array.from({ length: 3 }, () => a.uint32())).toMatchInlineSnapshot(`
      [
        1265867355,
        3819724585,
        1431476679,
      ]
    `);
    expect(Array.from({ length: 3 }, () => b.next())).toMatchInlineSnapshot(`
      [
        0.25930294608447557,
        0.4947517010968133,
        0.17472834349719668,
      ]
    `);
  });

  it("next() is in [0, 1) and has 53-bit resolution", () => {
    const r = new Random(3, "unit");
    let odd = 0;
    let outside = 0;
    for (let i = 0; i < 10_000; i++) {
      const x = r.next();
      if (!(x >= 0 && x < 1)) outside++;
      if (Math.floor(x * 2 ** 53) % 2 === 1) odd++;
    }
    expect(outside).toBe(0);
    // the lowest of the 53 bits is random too
    expect(odd).toBeGreaterThan(4_500);
    expect(odd).toBeLessThan(5_500);
  });

  it("stream(name) is the stream `parent/name` and does not consume the parent's numbers", () => {
    const parent = new Random(9, "workload");
    const fresh = new Random(9, "workload");
    const child = parent.stream("sizes");
    expect(child.name).toBe("workload/sizes");
    expect(child.seed).toBe(9);
    expect(child.next()).toBe(new Random(9, "workload/sizes").next());
    expect(parent.next()).toBe(fresh.next());
    expect(new Random(9).stream("x").name).toBe("x");
  });

  it("rejects a seed that is not a safe integer and a name that is not a string, naming the argument", () => {
    for (const seed of [0.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 53]) {
      expect(() => new Random(seed)).toThrow(InvalidInputError);
      expect(() => new Random(seed)).toThrow(/@sched\/random\/Random: seed is/);
    }
    expect(() => new Random(1, 5 as unknown as string)).toThrow(
      /name is number, expected a string/,
    );
  });

  it("integer(lo, hi) rejects an empty or non-integer range", () => {
    const r = new Random(1);
    expect(() => r.integer(3, 2)).toThrow(/lo, hi are 3, 2/);
    expect(() => r.integer(0.5, 2)).toThrow(InvalidInputError);
  });

  it("the samplers refuse parameters outside their domain instead of returning garbage", () => {
    // Each of these returned a number before: a negative "exponential", NaN, a value above hi.
    const r = new Random(1);
    const bad: [() => unknown, string][] = [
      [
        () => r.exponential(-1),
        "@sched/random/Random.exponential: mean is -1, expected a finite number >= 0",
      ],
      [() => r.exponential(Number.NaN), "Random.exponential: mean is NaN"],
      [() => r.exponential(Number.POSITIVE_INFINITY), "Random.exponential: mean is Infinity"],
      [() => r.exponential("600" as never), 'Random.exponential: mean is "600"'],
      [
        () => r.uniform(5, 1),
        "@sched/random/Random.uniform: lo, hi are 5, 1, expected finite numbers with lo <= hi",
      ],
      [() => r.uniform(Number.NaN, 1), "Random.uniform: lo, hi are NaN, 1"],
      [
        () => r.chance(Number.NaN),
        "@sched/random/Random.chance: p is NaN, expected a number in [0, 1]",
      ],
      [() => r.chance("0.5" as never), 'Random.chance: p is "0.5"'],
      [
        () => r.hyperExponential(10, 0.5),
        "Random.hyperExponential: cv is 0.5, expected a finite number >= 1",
      ],
      [
        () => r.gamma(-1, 1),
        "@sched/random/Random.gamma: shape is -1, expected a finite number > 0",
      ],
      [() => r.gamma(Number.NaN, 1), "Random.gamma: shape is NaN"],
      [() => r.gamma(2, 0), "Random.gamma: scale is 0, expected a finite number > 0"],
      [
        () => r.shuffle(null as never),
        "@sched/random/Random.shuffle: items is null, expected an array",
      ],
    ];
    for (const [call, message] of bad) {
      expect(call).toThrow(InvalidInputError);
      expect(call).toThrow(message);
    }
    // A refused call draws nothing: the stream goes on as if it had not been made.
    expect(r.next()).toBe(new Random(1).next());
    expect([r.exponential(0), r.uniform(2, 2), r.chance(0), r.chance(1)]).toEqual([
      0,
      2,
      false,
      true,
    ]);
  });

  it("exponential, normal, gamma and hyperExponential have their stated means (10^5 draws)", () => {
    const r = new Random(11, "moments");
    const n = 100_000;
    const mean = (f: () => number): number => {
      let s = 0;
      for (let i = 0; i < n; i++) s += f();
      return s / n;
    };
    expect(mean(() => r.exponential(3))).toBeCloseTo(3, 1);
    expect(mean(() => r.normal())).toBeCloseTo(0, 1);
    expect(mean(() => r.gamma(2.5, 2))).toBeCloseTo(5, 1);
    expect(mean(() => r.gamma(0.5, 2))).toBeCloseTo(1, 1);
    expect(mean(() => r.hyperExponential(4, 2))).toBeCloseTo(4, 0);
    expect(mean(() => (r.chance(0.3) ? 1 : 0))).toBeCloseTo(0.3, 2);
  });
});

describe("deriveSeed", () => {
  it("is a safe integer in [0, 2^53), the same for the same pair, different for different pairs", () => {
    const seen = new Set<number>();
    for (let s = -50; s < 50; s++) {
      for (const name of ["", "a", "b", "workload/interArrival=4"]) {
        const d = deriveSeed(s, name);
        expect(Number.isSafeInteger(d) && d >= 0).toBe(true);
        expect(deriveSeed(s, name)).toBe(d);
        seen.add(d);
      }
    }
    expect(seen.size).toBe(400);
  });
});
