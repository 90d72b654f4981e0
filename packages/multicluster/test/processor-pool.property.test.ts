import { Random } from "@sched/random";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ProcessorPool } from "../src/processor-pool.js";
import { type BaselineSelection, choosePoolBaseline, shuffledRanks } from "../src/space-sharing.js";
import { plainChoice } from "./plain-baseline.js";

// The core path keeps its pool of available processors as a ProcessorPool (flags, bits and
// per-block counts) and draws the adaptive baseline's random processors by a sparse partial
// Fisher-Yates shuffle of ranks. Both must give what the plain definitions give: the list of
// available processors in index order, and chooseBaseline's shuffle of that list, drawing the
// same numbers from the same stream.

// Sizes across word (32) and block (1,024) boundaries; availability from none to all, in runs
// (whole words and blocks empty or full) or scattered.
const layouts = fc.integer({ min: 1, max: 4200 }).chain((P) =>
  fc.record({
    P: fc.constant(P),
    density: fc.integer({ min: 0, max: 100 }),
    runs: fc.boolean(),
    seed: fc.nat(),
  }),
);

function flagsOf(c: { P: number; density: number; runs: boolean; seed: number }): Uint8Array {
  const layout = new Random(c.seed, "test/layout");
  const flags = new Uint8Array(c.P);
  let on = layout.integer(0, 99) < c.density;
  for (let p = 0; p < c.P; p++) {
    if (c.runs) {
      if (layout.integer(0, 299) === 0) on = !on;
      flags[p] = on ? 1 : 0;
    } else flags[p] = layout.integer(0, 99) < c.density ? 1 : 0;
  }
  return flags;
}

/** A pool holding `flags`, reached through set calls that also add and remove others. */
function poolOf(flags: Uint8Array, seed: number): ProcessorPool {
  const pool = new ProcessorPool(flags.length);
  const r = new Random(seed, "test/churn");
  for (let p = 0; p < flags.length; p++) if (r.integer(0, 2) === 0) pool.set(p, 1);
  for (let p = 0; p < flags.length; p++) pool.set(p, flags[p]!);
  return pool;
}

describe("ProcessorPool", () => {
  it("counts, lists the first available ones and finds those of given ranks as the plain list does", () => {
    fc.assert(
      fc.property(layouts, fc.nat(), fc.integer({ min: 0, max: 5000 }), (c, seed, want) => {
        const flags = flagsOf(c);
        const pool = poolOf(flags, seed);
        const free: number[] = [];
        for (let p = 0; p < c.P; p++) if (flags[p]) free.push(p);
        expect(pool.count).toBe(free.length);
        expect(Array.from(pool.flags)).toEqual(Array.from(flags));
        expect(pool.firstAvailable(want)).toEqual(free.slice(0, want));
        // ranks: an increasing subset of 0..n-1 (every k-th, from a random start)
        const r = new Random(seed, "test/ranks");
        const ranks: number[] = [];
        const step = 1 + r.integer(0, 40);
        for (let k = r.integer(0, 40); k < free.length; k += step) ranks.push(k);
        const out = new Array<number>(ranks.length);
        pool.select(Int32Array.from(ranks), ranks.length, out);
        expect(out).toEqual(ranks.map((k) => free[k]));
        // take (the decision's removal of the chosen ones) then as the plain list without them
        const taken = free.filter((_, k) => k % step === 0);
        pool.take(taken);
        const rest = free.filter((_, k) => k % step !== 0);
        expect(pool.count).toBe(rest.length);
        expect(pool.firstAvailable(c.P)).toEqual(rest);
        for (const p of taken) expect(pool.flags[p]).toBe(0);
        const all = Int32Array.from(rest, (_, k) => k);
        const found = new Array<number>(rest.length);
        pool.select(all, all.length, found);
        expect(found).toEqual(rest);
      }),
      { numRuns: 200 },
    );
  });
});

describe("shuffledRanks", () => {
  it("is the plain partial shuffle of 0..n-1, from the same draws, call after call", () => {
    // several calls in a row: positions kept by a previous call (its stamp) must not leak
    const calls = fc.array(
      fc.record({ n: fc.integer({ min: 1, max: 3000 }), count: fc.integer({ min: 0, max: 3000 }) }),
      { minLength: 1, maxLength: 6 },
    );
    fc.assert(
      fc.property(calls, fc.nat(), (cs, seed) => {
        const a = new Random(seed, "baseline/selection");
        const b = new Random(seed, "baseline/selection");
        for (const { n, count } of cs) {
          const plain = Array.from({ length: n }, (_, j) => j);
          for (let i = 0; i < count && i < n - 1; i++) {
            const k = b.integer(i, n - 1);
            const x = plain[i]!;
            plain[i] = plain[k]!;
            plain[k] = x;
          }
          const c = Math.min(count, n);
          const out = new Int32Array(c);
          shuffledRanks(n, count, a, out);
          expect(Array.from(out)).toEqual(plain.slice(0, c));
        }
        expect(a.next()).toBe(b.next());
      }),
      { numRuns: 200 },
    );
  });
});

describe("choosePoolBaseline", () => {
  it("chooses what the plain partial shuffle chooses, from the same draws", () => {
    const cases = fc.record({
      layout: layouts,
      // few (the sparse shuffle: at most a 32nd of the pool) or any number (the list's)
      count: fc.oneof(fc.integer({ min: 1, max: 64 }), fc.integer({ min: 1, max: 4200 })),
      // "last": one speed but for the last processor (a one-speed check that skips it fails)
      speeds: fc.constantFrom("one", "two", "last"),
      selection: fc.constantFrom<BaselineSelection>("random", "random", "fastest", "lowest-index"),
      seed: fc.nat(),
    });
    fc.assert(
      fc.property(cases, (c) => {
        const flags = flagsOf(c.layout);
        const pool = poolOf(flags, c.seed);
        const speeds = Array.from({ length: c.layout.P }, (_, p) =>
          c.speeds === "two" ? 1 + (p % 2) : c.speeds === "last" && p === c.layout.P - 1 ? 3 : 2,
        );
        const a = new Random(c.seed, "baseline/selection");
        const b = new Random(c.seed, "baseline/selection");
        // the core path asks for at most the pool; beyond it, the plain list's min(count, n)
        const got = choosePoolBaseline(pool, speeds, c.count, c.selection, a);
        expect(got).toEqual(plainChoice(flags, speeds, c.count, c.selection, b));
        expect(a.next()).toBe(b.next());
        // the pool is left as it was
        expect(Array.from(pool.flags)).toEqual(Array.from(flags));
      }),
      { numRuns: 300 },
    );
  });

  it("a run of calls, each taking its choice out of the pool, chooses what the plain one does", () => {
    // the shuffle's kept positions are stamped per call: stale ones from a previous call must not leak
    fc.assert(
      fc.property(
        layouts,
        fc.nat(),
        fc.array(fc.integer({ min: 1, max: 600 }), { minLength: 1, maxLength: 12 }),
        (c, seed, counts) => {
          const flags = flagsOf(c);
          const pool = poolOf(flags, seed);
          const a = new Random(seed, "baseline/selection");
          const b = new Random(seed, "baseline/selection");
          for (const count of counts) {
            const got = choosePoolBaseline(pool, [1], count, "random", a);
            const want = plainChoice(flags, [1], count, "random", b);
            expect(got).toEqual(want);
            for (const m of got) {
              pool.set(m, 0);
              flags[m] = 0;
            }
          }
          expect(a.next()).toBe(b.next());
        },
      ),
      { numRuns: 150 },
    );
  });
});
