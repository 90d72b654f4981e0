import { readFileSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { deriveSeed, Random } from "../src/index.js";

// What the README and the doc comments say each method is, checked on the numbers themselves:
// a sampler is its formula on the stream's next() (a change of formula or of the draws it takes
// moves every workload built on it), the ends of next() reach the ends of the ranges, and each
// method takes the README's number of 32-bit draws.

type State = [number, number, number, number];

/** The xoshiro128** state (the fields are private in TypeScript only). */
function stateOf(r: Random): State {
  const s = r as unknown as Record<"a" | "b" | "c" | "d", number>;
  return [s.a >>> 0, s.b >>> 0, s.c >>> 0, s.d >>> 0];
}

/** A Random whose state is set by hand. */
function withState(state: readonly [number, number, number, number]): Random {
  const r = new Random(0);
  const [a, b, c, d] = state;
  Object.assign(r as unknown as Record<string, number>, { a, b, c, d });
  return r;
}

/** The inverse of an odd number modulo 2^32 (Newton's iteration doubles the good bits). */
function inverse(x: number): number {
  let y = x;
  for (let i = 0; i < 5; i++) y = Math.imul(y, 2 - Math.imul(x, y));
  return y >>> 0;
}

/**
 * A state whose next two uint32() are both `out`: xoshiro128**'s output is
 * rotl(b * 5, 7) * 9, so b is solved for `out`; with c = a the first step leaves b as it is.
 */
function stateGiving(out: number): Random {
  const x = Math.imul(out, inverse(9)) >>> 0;
  const b = Math.imul(((x >>> 7) | (x << 25)) >>> 0, inverse(5)) >>> 0;
  return withState([0x12345678, b, 0x12345678, 0x9abcdef0]);
}

/** Two copies of one stream: one for the method, one to compute what it should give. */
const twins = (seed: number, name: string): [Random, Random] => [
  new Random(seed, name),
  new Random(seed, name),
];

const seed = fc.integer({ min: Number.MIN_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER });

describe("the ends of next()", () => {
  it("next() is 0 when both draws are 0, and 1 - 2^-53 when both are 2^32 - 1", () => {
    const low = stateGiving(0);
    expect([low.uint32(), low.uint32()]).toEqual([0, 0]);
    const high = stateGiving(0xffffffff);
    expect([high.uint32(), high.uint32()]).toEqual([0xffffffff, 0xffffffff]);
    expect(stateGiving(0).next()).toBe(0);
    expect(stateGiving(0xffffffff).next()).toBe(1 - 2 ** -53);
  });

  it("at next() = 0: integer and uniform give lo, chance(0) is false, exponential 0, normal and gamma finite", () => {
    const low = stateGiving;
    for (const [lo, hi] of [
      [0, 0],
      [1, 8],
      [-5, 5],
      [0, 2 ** 53 - 1],
    ] as const) {
      expect(low(0).integer(lo, hi)).toBe(lo);
      expect(low(0).uniform(lo, hi)).toBe(lo);
    }
    expect(low(0).chance(0)).toBe(false);
    expect(low(0).chance(2 ** -60)).toBe(true);
    expect(low(0).exponential(5) === 0).toBe(true);
    expect(Number.isFinite(low(0).normal())).toBe(true);
    const g = low(0).gamma(0.5, 1);
    expect(Number.isFinite(g) && g >= 0).toBe(true);
  });

  it("at next() = 1 - 2^-53: integer gives hi (the last value of the range), uniform stays below hi, chance(1) is true", () => {
    const high = () => stateGiving(0xffffffff);
    for (const [lo, hi] of [
      [0, 0],
      [1, 8],
      [-5, 5],
      [0, 2 ** 31],
      [0, 2 ** 53 - 1],
      [-(2 ** 52), 2 ** 52 - 1],
    ] as const) {
      expect(high().integer(lo, hi)).toBe(hi);
    }
    for (const [lo, hi] of [
      [0, 1],
      [1, 8],
      [-5, 5],
      [100, 1000],
    ] as const) {
      expect(high().uniform(lo, hi)).toBeLessThan(hi);
    }
    expect(high().chance(1)).toBe(true);
    expect(high().chance(1 - 2 ** -53)).toBe(false);
  });
});

describe("each sampler is its formula on the stream's next()", () => {
  it("uniform, integer, chance, normal (Box-Muller), exponential (inversion), hyperExponential (balanced means)", () => {
    fc.assert(
      fc.property(
        seed,
        fc.string({ maxLength: 6 }),
        fc.double({ min: -1e6, max: 1e6, noNaN: true }),
        fc.double({ min: 0, max: 1e6, noNaN: true }),
        fc.integer({ min: -1000, max: 1000 }),
        fc.integer({ min: 0, max: 2 ** 40 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.double({ min: 1e-3, max: 1e4, noNaN: true }),
        fc.double({ min: 1, max: 10, noNaN: true }),
        (s, name, lo, width, ilo, iwidth, p, mean, cv) => {
          const [a, b] = twins(s, name);
          expect(a.uniform(lo, lo + width)).toBe(lo + (lo + width - lo) * b.next());
          expect(a.integer(ilo, ilo + iwidth)).toBe(ilo + Math.floor(b.next() * (iwidth + 1)));
          expect(a.chance(p)).toBe(b.next() < p);
          const u = 1 - b.next();
          const v = b.next();
          expect(a.normal()).toBe(Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v));
          expect(a.exponential(mean)).toBe(-mean * Math.log(1 - b.next()));
          // Two phases with probabilities q and 1 - q and means mean / 2q and mean / 2(1 - q)
          // (each carries half the mean), q fitted to the CV.
          const c2 = cv * cv;
          const q = 0.5 * (1 + Math.sqrt((c2 - 1) / (c2 + 1)));
          const phase = b.next() < q ? mean / (2 * q) : mean / (2 * (1 - q));
          expect(a.hyperExponential(mean, cv)).toBe(-phase * Math.log(1 - b.next()));
        },
      ),
      { numRuns: 300 },
    );
  });

  it("hyperExponential's phases: mean and CV of the two-phase mixture are the requested ones (exact, from its formula)", () => {
    for (const cv of [1, 1.5, 3.5, 10]) {
      const c2 = cv * cv;
      const q = 0.5 * (1 + Math.sqrt((c2 - 1) / (c2 + 1)));
      const m1 = 1 / (2 * q);
      const m2 = 1 / (2 * (1 - q));
      const mean = q * m1 + (1 - q) * m2;
      const second = q * 2 * m1 * m1 + (1 - q) * 2 * m2 * m2;
      expect(mean).toBeCloseTo(1, 12);
      expect(Math.sqrt(second - mean * mean)).toBeCloseTo(cv, 9);
    }
  });

  it("gamma below shape 1 is gamma(shape + 1) * U^(1/shape), U drawn first", () => {
    fc.assert(
      fc.property(
        seed,
        fc.double({ min: 0.01, max: 0.99, noNaN: true }),
        fc.double({ min: 0.01, max: 100, noNaN: true }),
        (s, shape, scale) => {
          const [a, b] = twins(s, "gamma");
          const u = 1 - b.next();
          expect(a.gamma(shape, scale)).toBe(b.gamma(shape + 1, scale) * u ** (1 / shape));
        },
      ),
      { numRuns: 200 },
    );
  });

  it("gamma from shape 1 is Marsaglia and Tsang's method: the same numbers as its plain acceptance test (no squeeze)", () => {
    /** Marsaglia and Tsang (ACM TOMS 2000), without the quick acceptance (a speed-up only). */
    const plain = (r: Random, shape: number, scale: number): number => {
      const d = shape - 1 / 3;
      const c = 1 / Math.sqrt(9 * d);
      for (;;) {
        let x: number;
        let v: number;
        do {
          x = r.normal();
          v = 1 + c * x;
        } while (v <= 0);
        v = v * v * v;
        const u = r.next();
        if (Math.log(u) < 0.5 * x * x + d * (1 - v + Math.log(v))) return d * v * scale;
      }
    };
    for (const shape of [1, 1.5, 4.2, 30]) {
      const [a, b] = twins(8, `mt ${shape}`);
      for (let i = 0; i < 3000; i++) expect(a.gamma(shape, 2)).toBe(plain(b, shape, 2));
    }
  });

  it("shuffle is Fisher-Yates from the end, and gives each order of 3 items about equally often", () => {
    fc.assert(
      fc.property(seed, fc.array(fc.integer(), { maxLength: 20 }), (s, items) => {
        const [a, b] = twins(s, "shuffle");
        const want = [...items];
        for (let i = want.length - 1; i > 0; i--) {
          const j = Math.floor(b.next() * (i + 1));
          [want[i], want[j]] = [want[j]!, want[i]!];
        }
        expect(a.shuffle([...items])).toEqual(want);
      }),
      { numRuns: 200 },
    );
    const r = new Random(4, "orders");
    const counts = new Map<string, number>();
    const n = 6000;
    for (let k = 0; k < n; k++) {
      const key = r.shuffle([0, 1, 2]).join("");
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    expect(counts.size).toBe(6);
    const chi = [...counts.values()].reduce((sum, c) => sum + (c - n / 6) ** 2 / (n / 6), 0);
    expect(chi).toBeLessThan(20.5); // 5 degrees of freedom, p = 0.001
  });
});

describe("zero is +0, and wide integer ranges reach every integer", () => {
  it("exponential gives +0, never -0, at next() = 0; it and hyperExponential at mean 0", () => {
    expect(Object.is(stateGiving(0).exponential(5), 0)).toBe(true);
    const r = new Random(9, "zero");
    for (let i = 0; i < 20; i++) {
      expect(Object.is(r.exponential(0), 0)).toBe(true);
      expect(Object.is(r.hyperExponential(0, 2), 0)).toBe(true);
    }
  });

  it("integer over more than 2^53 integers: in range, both parities, both halves, and each try 3 draws", () => {
    const { MIN_SAFE_INTEGER: min, MAX_SAFE_INTEGER: max } = Number;
    // [min, max] (2^54 - 1 integers, odd lo) and [-1, max] (2^53 + 1, the narrowest wide range)
    for (const [lo, hi] of [
      [min, max],
      [-1, max],
      [-(2 ** 40), max - 7],
    ] as const) {
      const r = new Random(4, `wide ${lo}`);
      const parity = [0, 0];
      const half = [0, 0];
      const mid = lo / 2 + hi / 2;
      for (let i = 0; i < 2000; i++) {
        const x = r.integer(lo, hi);
        expect(Number.isSafeInteger(x) && x >= lo && x <= hi, `${x}`).toBe(true);
        parity[Math.abs(x % 2)]!++;
        half[x < mid ? 0 : 1]!++;
      }
      // 53 random bits alone give one parity only on [min, max]; each count is 1000 +- 22 (sd)
      for (const count of [...parity, ...half]) {
        expect(count, `${lo}..${hi}: ${parity} ${half}`).toBeGreaterThan(850);
      }
    }
    // a try is next() and the top bit of one more draw; [-1, max] keeps a try unless it is past max
    const a = new Random(5, "tries");
    const b = new Random(5, "tries");
    let rejected = 0;
    for (let i = 0; i < 50; i++) {
      let expected: number;
      for (;;) {
        expected = -1 + 2 * (b.next() * 2 ** 53) + (b.uint32() >>> 31);
        if (expected <= max) break;
        rejected++;
      }
      expect(a.integer(-1, max)).toBe(expected);
    }
    expect(rejected).toBeGreaterThan(0);
  });
});

describe("the draws of each method, as the README's table says", () => {
  /** How many uint32() draws `call` took: the fresh stream's state after k draws equals its. */
  const drawsOf = (call: (r: Random) => unknown, name = "draws"): number => {
    const used = new Random(3, name);
    call(used);
    const target = stateOf(used).join();
    const fresh = new Random(3, name);
    for (let k = 0; k <= 64; k++) {
      if (stateOf(fresh).join() === target) return k;
      fresh.uint32();
    }
    return Number.NaN;
  };
  const calls: Record<string, (r: Random) => unknown> = {
    "uint32()": (r) => r.uint32(),
    "next()": (r) => r.next(),
    "uniform(lo, hi)": (r) => r.uniform(1, 8),
    "integer(lo, hi)": (r) => r.integer(1, 8),
    "chance(p)": (r) => r.chance(0.5),
    "normal()": (r) => r.normal(),
    "exponential(mean)": (r) => r.exponential(600),
    "hyperExponential(mean, cv)": (r) => r.hyperExponential(600, 3.5),
    "stream(name)": (r) => r.stream("x"),
  };

  it("every method of the table, with the number of draws in its last column", () => {
    const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8");
    // three cells a row (method, what it is, draws): a row with a cell more or less is missed
    const rows = [...readme.matchAll(/^\| `([^`]+)` \| [^|]+ \| ([^|]+) \|$/gm)].map(
      (m) => [m[1]!, m[2]!.trim()] as const,
    );
    expect(rows.map(([method]) => method)).toEqual([
      ...Object.keys(calls).slice(0, -1),
      "gamma(shape, scale)",
      "shuffle(items)",
      "stream(name)",
    ]);
    for (const [method, draws] of rows) {
      if (method === "gamma(shape, scale)") {
        expect(draws).toBe("≥ 6");
        // shape >= 1: a normal (4) and a uniform (2) per try; below 1, one uniform more
        for (const [shape, least] of [
          [2.5, 6],
          [0.5, 8],
        ] as const) {
          for (let s = 0; s < 20; s++) {
            const k = drawsOf((r) => r.gamma(shape, 1), `gamma ${s}`);
            expect(k).toBeGreaterThanOrEqual(least);
          }
        }
      } else if (method === "shuffle(items)") {
        expect(draws).toBe("2 · (n − 1)");
        for (const n of [0, 1, 2, 5, 9]) {
          const items = Array.from({ length: n }, (_, i) => i);
          expect(
            drawsOf((r) => r.shuffle(items)),
            `n = ${n}`,
          ).toBe(2 * Math.max(0, n - 1));
        }
      } else {
        expect(drawsOf(calls[method]!), method).toBe(Number(draws));
      }
    }
  });
});

describe("the stream's starting state", () => {
  it("depends on the seed's high word: seeds 2^32 apart, and a negative seed, start elsewhere", () => {
    const first = (s: number) => new Random(s, "hi").uint32();
    const seeds = [5, 5 + 2 ** 32, 5 - 2 ** 32, 5 + 2 ** 52, -5, 2 ** 32 - 1, -1];
    expect(new Set(seeds.map(first)).size).toBe(seeds.length);
  });

  it("pins the first numbers of negative seeds, seeds past 32 bits and a name past the BMP: a change moves every result", () => {
    const firsts = (s: number, name: string) => {
      const r = new Random(s, name);
      return [r.uint32(), r.uint32()];
    };
    expect([
      firsts(-1, ""),
      firsts(-(2 ** 40), "sizes"),
      firsts(Number.MAX_SAFE_INTEGER, "x"),
      firsts(Number.MIN_SAFE_INTEGER, "x"),
      firsts(7, "\u{1F600}"),
      firsts(7, "\uD83D"),
    ]).toMatchInlineSnapshot(`
      [
        [
          134760580,
          1614845454,
        ],
        [
          4220939428,
          64005106,
        ],
        [
          2114252942,
          3539667113,
        ],
        [
          1882038427,
          1784090567,
        ],
        [
          759807728,
          4198254343,
        ],
        [
          2164740826,
          52900024,
        ],
      ]
    `);
  });

  it("deriveSeed(seed, name) is (a >>> 11) * 2^32 + b for the first two lanes a, b of the stream's state", () => {
    fc.assert(
      fc.property(seed, fc.string({ maxLength: 8 }), (s, name) => {
        const [a, b] = stateOf(new Random(s, name));
        expect(deriveSeed(s, name)).toBe((a >>> 11) * 4294967296 + b);
      }),
      { numRuns: 300 },
    );
  });
});
