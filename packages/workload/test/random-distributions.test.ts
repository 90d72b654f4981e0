import { InvalidInputError } from "@sched/core";
import { Random } from "@sched/random";
import { describe, expect, it } from "vitest";
import { gammaCdf, ks1, mean, variance } from "./stats.js";

function draw(n: number, f: () => number): number[] {
  const out: number[] = [];
  for (let i = 0; i < n; i++) out.push(f());
  return out;
}

describe("Random", () => {
  it("repeats the same sequence for the same seed and stream", () => {
    const a = new Random(42, "sizes");
    const b = new Random(42, "sizes");
    expect(draw(100, () => a.uint32())).toEqual(draw(100, () => b.uint32()));
  });

  it("gives different sequences for different seeds or streams", () => {
    const base = draw(20, () => new Random(1, "a").next());
    const x = new Random(1, "a");
    const y = new Random(1, "b");
    const z = new Random(2, "a");
    const xs = draw(20, () => x.next());
    expect(xs).not.toEqual(draw(20, () => y.next()));
    expect(xs).not.toEqual(draw(20, () => z.next()));
    expect(base.every((v) => v === base[0])).toBe(true); // a fresh generator's first draw
    // seeds that differ only above 2^32 differ too
    expect(new Random(2 ** 40).next()).not.toBe(new Random(0).next());
  });

  it("draws uniforms with mean 1/2 and variance 1/12 (n = 200,000, within 5 standard errors)", () => {
    const rng = new Random(7);
    const n = 200_000;
    const xs = draw(n, () => rng.next());
    expect(Math.abs(mean(xs) - 0.5)).toBeLessThan(5 * Math.sqrt(1 / 12 / n));
    expect(Math.abs(variance(xs) - 1 / 12)).toBeLessThan(5 * Math.sqrt(1 / 180 / n));
    expect(Math.min(...xs)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...xs)).toBeLessThan(1);
  });

  it("draws each of 10 integer values about equally often (chi-square, 9 df, < 30)", () => {
    const rng = new Random(11);
    const counts = new Array<number>(10).fill(0);
    const n = 100_000;
    for (let i = 0; i < n; i++) counts[rng.integer(0, 9)]!++;
    const e = n / 10;
    const chi = counts.reduce((s, c) => s + (c - e) ** 2 / e, 0);
    expect(chi).toBeLessThan(30); // p ~ 0.0005 for 9 degrees of freedom
  });

  it("draws standard normals and exponentials with the right moments", () => {
    const rng = new Random(3);
    const n = 100_000;
    const z = draw(n, () => rng.normal());
    expect(Math.abs(mean(z))).toBeLessThan(5 / Math.sqrt(n));
    expect(Math.abs(variance(z) - 1)).toBeLessThan(5 * Math.sqrt(2 / n));
    const e = draw(n, () => rng.exponential(4));
    expect(Math.abs(mean(e) - 4)).toBeLessThan((5 * 4) / Math.sqrt(n));
  });

  for (const [shape, scale] of [
    [0.5, 2],
    [1, 1],
    [4.2, 0.94],
    [10.2303, 0.4871],
    [312, 0.03],
  ] as const) {
    it(`draws gamma(${shape}, ${scale}) with mean shape*scale and variance shape*scale^2`, () => {
      const rng = new Random(5, `gamma ${shape}`);
      const n = 60_000;
      const xs = draw(n, () => rng.gamma(shape, scale));
      const m = shape * scale;
      const v = shape * scale * scale;
      expect(Math.min(...xs)).toBeGreaterThan(0);
      expect(Math.abs(mean(xs) - m)).toBeLessThan(5 * Math.sqrt(v / n));
      // the sample variance's standard error: sqrt((mu4 - v^2) / n), mu4 = 3 v^2 (1 + 2 / shape)
      const se = Math.sqrt((3 * v * v * (1 + 2 / shape) - v * v) / n);
      expect(Math.abs(variance(xs) - v)).toBeLessThan(5 * se);
    });
  }

  it("rejects a seed that is not a safe integer", () => {
    expect(() => new Random(1.5)).toThrow(InvalidInputError);
    expect(() => new Random(Number.NaN)).toThrow(
      "@sched/random/Random: seed is NaN, expected a safe integer",
    );
  });
});

describe("Random.gamma against the exact CDF", () => {
  for (const [shape, scale] of [
    [0.7, 1],
    [4.2, 0.94],
    [312, 0.03],
    [8.1737, 3.9631],
  ] as const) {
    it(`gamma(${shape}, ${scale}): one-sample KS below the 0.1% critical value (n = 20,000)`, () => {
      const rng = new Random(9, `ks ${shape}`);
      const n = 20_000;
      const xs = draw(n, () => rng.gamma(shape, scale));
      expect(ks1(xs, (x) => gammaCdf(shape, scale, x))).toBeLessThan(1.949 / Math.sqrt(n));
    });
  }
});

describe("the test oracle gammaCdf", () => {
  it("matches closed forms: exponential and Erlang-2", () => {
    for (const x of [0.1, 1, 2.5, 10]) {
      expect(gammaCdf(1, 2, x)).toBeCloseTo(1 - Math.exp(-x / 2), 12);
      expect(gammaCdf(2, 1, x)).toBeCloseTo(1 - Math.exp(-x) * (1 + x), 12);
    }
    expect(gammaCdf(312, 0.03, 312 * 0.03)).toBeCloseTo(0.5, 1);
  });
});

describe("Random.hyperExponential", () => {
  for (const cv of [1, 3.5]) {
    it(`has the requested mean 14.06 and CV ${cv}`, () => {
      const rng = new Random(12, `h2 ${cv}`);
      const n = 400_000;
      const xs = draw(n, () => rng.hyperExponential(14.06, cv));
      const m = mean(xs);
      const sd = Math.sqrt(variance(xs));
      // the mean's standard error is cv * mean / sqrt(n); the CV estimate is noisier (heavy tail)
      expect(Math.abs(m - 14.06)).toBeLessThan((5 * cv * 14.06) / Math.sqrt(n));
      expect(Math.abs(sd / m - cv) / cv).toBeLessThan(0.05);
    });
  }
});
