import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  complementInto,
  count,
  disjoint,
  highest,
  lowest,
  popcount32,
  subset,
  toArray,
  wordsFor,
} from "../src/pe-set.js";

/** A PE count and a subset of its PEs, as a sorted array and as a bitset. */
const setArb = fc
  .integer({ min: 1, max: 100 })
  .chain((pes) =>
    fc.tuple(
      fc.constant(pes),
      fc.uniqueArray(fc.integer({ min: 0, max: pes - 1 }), { maxLength: pes }),
      fc.uniqueArray(fc.integer({ min: 0, max: pes - 1 }), { maxLength: pes }),
    ),
  );

function bits(pes: number, members: readonly number[]): Uint32Array {
  const set = new Uint32Array(wordsFor(pes));
  for (const p of members) set[p >>> 5]! |= 1 << (p & 31);
  return set;
}

describe("pe-set bitsets agree with plain arrays", () => {
  it("popcount32 counts the bits of any 32-bit word", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 0xffffffff }), (x) => {
        expect(popcount32(x)).toBe(x.toString(2).replace(/0/g, "").length);
      }),
    );
  });

  it("toArray, count, lowest, highest, complement, disjoint and subset match their array definitions", () => {
    fc.assert(
      fc.property(setArb, ([pes, a, b]) => {
        const sa = [...a].sort((x, y) => x - y);
        const A = bits(pes, a);
        const B = bits(pes, b);
        expect(toArray(A)).toEqual(sa);
        expect(count(A)).toBe(a.length);
        expect(lowest(A, 3)).toEqual(sa.slice(0, 3));
        expect(highest(A, 3)).toEqual(sa.slice(Math.max(sa.length - 3, 0)));
        expect(highest(A, pes)).toEqual(sa);
        const C = new Uint32Array(A.length);
        complementInto(C, A, pes);
        expect(toArray(C)).toEqual(
          Array.from({ length: pes }, (_, i) => i).filter((p) => !a.includes(p)),
        );
        expect(disjoint(A, B)).toBe(!a.some((p) => b.includes(p)));
        expect(subset(A, B)).toBe(a.every((p) => b.includes(p)));
      }),
      { numRuns: 300 },
    );
  });

  it("lowest takes whole words of ones at once, with the same answer (sets made of runs, any n)", () => {
    const runsArb = fc
      .integer({ min: 1, max: 3000 })
      .chain((pes) =>
        fc.tuple(
          fc.constant(pes),
          fc.array(fc.tuple(fc.nat({ max: pes - 1 }), fc.nat({ max: 300 })), { maxLength: 4 }),
          fc.uniqueArray(fc.nat({ max: pes - 1 }), { maxLength: 20 }),
          fc.nat({ max: pes + 40 }),
        ),
      );
    fc.assert(
      fc.property(runsArb, ([pes, runs, scattered, n]) => {
        const members = new Set(scattered);
        for (const [from, length] of runs) {
          for (let p = from; p < Math.min(pes, from + length); p++) members.add(p);
        }
        const sa = [...members].sort((x, y) => x - y);
        const A = bits(pes, sa);
        expect(lowest(A, n)).toEqual(sa.slice(0, n));
        expect(lowest(A, 32 * Math.floor(n / 32))).toEqual(sa.slice(0, 32 * Math.floor(n / 32)));
        expect(toArray(A)).toEqual(sa);
      }),
      { numRuns: 300 },
    );
  });
});
