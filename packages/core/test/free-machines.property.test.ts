import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { FreeMachines } from "../src/free-machines.js";

/** One operation on the set: a machine or a range added or deleted, then a look-up. */
const op = fc.record({
  kind: fc.constantFrom("add", "delete", "addRange", "deleteRange"),
  a: fc.nat(),
  b: fc.nat(),
  from: fc.nat(),
});

/** The lowest index >= `from` set in `bits`, or -1: the definition, by a scan. */
function scan(bits: Uint8Array, from: number): number {
  for (let m = from; m < bits.length; m++) if (bits[m] === 1) return m;
  return -1;
}

/** The lowest index in `from .. limit - 1` not set in `bits`, or `limit`: the definition. */
function runEnd(bits: Uint8Array, from: number, limit: number): number {
  for (let m = from; m < limit; m++) if (bits[m] !== 1) return m;
  return limit;
}

describe("FreeMachines", () => {
  it("next(from) is the lowest member at or after from, and runEnd(from, limit) the first non-member before limit, after any adds and deletes", () => {
    // Sizes around word and level boundaries (32, 1024, 32768 machines: 1 to 4 levels).
    const size = fc.oneof(
      fc.integer({ min: 1, max: 70 }),
      fc.integer({ min: 1000, max: 1100 }),
      fc.integer({ min: 32_760, max: 32_800 }),
    );
    fc.assert(
      fc.property(size, fc.array(op, { maxLength: 40 }), (n, ops) => {
        const set = new FreeMachines(n);
        const bits = new Uint8Array(n);
        for (const o of ops) {
          const m = o.a % n;
          if (o.kind === "add" || o.kind === "delete") {
            if (o.kind === "add") set.add(m);
            else set.delete(m);
            bits[m] = o.kind === "add" ? 1 : 0;
          } else {
            // ranges of up to 100 machines, or the whole set
            const end = o.b % 7 === 0 ? n : Math.min(n, m + (o.b % 100));
            const start = o.b % 7 === 0 ? 0 : m;
            if (o.kind === "addRange") set.addRange(start, end);
            else set.deleteRange(start, end);
            bits.fill(o.kind === "addRange" ? 1 : 0, start, end);
          }
          const from = o.from % (n + 2);
          expect(set.next(from)).toBe(scan(bits, from));
          // the end of the run of members from a point, below a limit
          const start = o.from % n;
          const limit = start + ((o.a + o.b) % (n - start + 1));
          expect(set.runEnd(start, limit)).toBe(runEnd(bits, start, limit));
        }
        // every member in order, and the answer past the last one
        let m = set.next(0);
        let expected = scan(bits, 0);
        while (expected !== -1) {
          expect(m).toBe(expected);
          m = set.next(m + 1);
          expected = scan(bits, expected + 1);
        }
        expect(m).toBe(-1);
      }),
      { numRuns: 100 },
    );
  });
});
