import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { KeptIds } from "../src/kept-ids.js";

/** Ids from 0 to 2^53 − 1, crowded near small numbers and runs so that they repeat. */
const id = fc.oneof(
  fc.integer({ min: 0, max: 40 }),
  fc.integer({ min: 0, max: 5000 }),
  fc.maxSafeNat(),
  fc.constantFrom(0, 2 ** 32 - 1, 2 ** 32, 2 ** 32 + 1, 2 ** 52, Number.MAX_SAFE_INTEGER),
);
/** Sequences with increasing stretches (runs), shuffles and repeats. */
const ids = fc.oneof(
  fc.array(id, { maxLength: 3000 }),
  fc
    .tuple(fc.integer({ min: 0, max: 2 ** 40 }), fc.integer({ min: 1, max: 3000 }), fc.integer())
    .map(([start, n, seed]) => {
      // start .. start + n − 1 shuffled by an LCG, then a few of them again
      const out = Array.from({ length: n }, (_, i) => start + i);
      let s = seed >>> 0;
      for (let i = n - 1; i > 0; i--) {
        s = (Math.imul(s, 1103515245) + 12345) >>> 0;
        const k = s % (i + 1);
        [out[i], out[k]] = [out[k]!, out[i]!];
      }
      return [...out, ...out.slice(0, 5)];
    }),
);

describe("KeptIds", () => {
  it("add(id) is true exactly when the id was not added before (a Set as the oracle)", () => {
    fc.assert(
      fc.property(ids, (sequence) => {
        const kept = new KeptIds();
        const seen = new Set<number>();
        const wrong: number[] = [];
        for (const x of sequence) {
          if (kept.add(x) === seen.has(x)) wrong.push(x);
          seen.add(x);
        }
        expect(wrong).toEqual([]);
      }),
      { numRuns: 200 },
    );
  });

  it("holds ids in order in a few bytes, and shuffled ones in at most 11 bytes each (22 past 2^32)", () => {
    const n = 100_000;
    const inOrder = new KeptIds();
    for (let i = 1; i <= n; i++) inOrder.add(i);
    expect(inOrder.bytes).toBe(64 * 8);
    const shuffled = new KeptIds();
    let s = 7;
    const order = Array.from({ length: n }, (_, i) => i + 1);
    for (let i = n - 1; i > 0; i--) {
      s = (Math.imul(s, 1103515245) + 12345) >>> 0;
      const k = s % (i + 1);
      [order[i], order[k]] = [order[k]!, order[i]!];
    }
    let added = 0;
    for (const x of order) if (shuffled.add(x)) added++;
    for (const x of order) if (shuffled.add(x)) added++;
    expect(added).toBe(n);
    // runs (a few) and a table of 2^18 slots of 32 bits, 3/4 full at most
    expect(shuffled.bytes).toBeLessThanOrEqual(11 * n);
    // an id of 2^32 − 1 or more below the last run: the same table, of doubles
    expect(shuffled.add(2 ** 40)).toBe(true);
    const narrow = shuffled.bytes;
    expect(shuffled.add(2 ** 32 - 1)).toBe(true);
    expect(shuffled.add(2 ** 32 - 1)).toBe(false);
    expect(shuffled.bytes).toBeGreaterThan(narrow);
    expect(shuffled.bytes).toBeLessThanOrEqual(22 * n);
    let again = 0;
    for (const x of order) if (shuffled.add(x)) again++;
    expect(again).toBe(0);
  });
});
