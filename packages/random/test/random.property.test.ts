import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { Random } from "../src/index.js";

const seed = fc.integer({ min: Number.MIN_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER });

describe("Random (properties)", () => {
  it("the same (seed, name) gives the same sequence", () => {
    fc.assert(
      fc.property(seed, fc.string(), (s, name) => {
        const a = new Random(s, name);
        const b = new Random(s, name);
        for (let i = 0; i < 20; i++) expect(a.uint32()).toBe(b.uint32());
      }),
    );
  });

  it("different (seed, name) pairs give different sequences (no two of 16 draws equal in order)", () => {
    fc.assert(
      fc.property(seed, fc.string(), seed, fc.string(), (s1, n1, s2, n2) => {
        fc.pre(s1 !== s2 || n1 !== n2);
        const a = new Random(s1, n1);
        const b = new Random(s2, n2);
        const xs = Array.from({ length: 16 }, () => a.uint32());
        const ys = Array.from({ length: 16 }, () => b.uint32());
        expect(xs).not.toEqual(ys);
      }),
    );
  });

  it("integer(lo, hi) stays in [lo, hi] and reaches both ends", () => {
    fc.assert(
      fc.property(
        seed,
        fc.integer({ min: -1000, max: 1000 }),
        fc.integer({ min: 0, max: 5 }),
        (s, lo, w) => {
          const r = new Random(s, "int");
          const seen = new Set<number>();
          for (let i = 0; i < 200; i++) {
            const x = r.integer(lo, lo + w);
            expect(Number.isInteger(x) && x >= lo && x <= lo + w).toBe(true);
            seen.add(x);
          }
          expect(seen.size).toBe(w + 1);
        },
      ),
    );
  });

  it("shuffle(items) permutes in place and returns the same array", () => {
    fc.assert(
      fc.property(seed, fc.array(fc.integer()), (s, items) => {
        const copy = [...items];
        const out = new Random(s).shuffle(copy);
        expect(out).toBe(copy);
        expect([...out].sort((x, y) => x - y)).toEqual([...items].sort((x, y) => x - y));
      }),
    );
  });

  it("uniform(lo, hi) stays in [lo, hi)", () => {
    fc.assert(
      fc.property(
        seed,
        fc.double({ min: -1e6, max: 1e6, noNaN: true }),
        fc.double({ min: 1e-3, max: 1e6, noNaN: true }),
        (s, lo, w) => {
          const x = new Random(s).uniform(lo, lo + w);
          expect(x >= lo && x < lo + w).toBe(true);
        },
      ),
    );
  });
});
