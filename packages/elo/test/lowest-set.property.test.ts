import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { LowestSet } from "../src/lowest-set.js";

// `LowestSet` (the MCT scheduler's clean machines of a class) against a plain array of booleans.
// Sizes span one word, two summary levels (33 to 1,024 members) and three (past 32,768), so
// that `first` has to go through every level; sets are built full or empty, and operations are
// single adds and deletes or whole runs of them, so that words empty out (a summary bit must
// clear) and fill again.

type Op =
  | { readonly kind: "add" | "delete"; readonly at: number }
  | { readonly kind: "addRun" | "deleteRun"; readonly at: number; readonly length: number };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constantFrom("add" as const, "delete" as const), at: fc.nat() }),
  fc.record({
    kind: fc.constantFrom("addRun" as const, "deleteRun" as const),
    at: fc.nat(),
    length: fc.integer({ min: 1, max: 200 }),
  }),
);

const sizeArb = fc.oneof(
  fc.integer({ min: 1, max: 70 }),
  fc.integer({ min: 990, max: 1100 }),
  fc.integer({ min: 32_760, max: 33_000 }),
);

describe("LowestSet against a plain set", () => {
  it("first() is the lowest member and has() the membership after any adds and deletes", () => {
    fc.assert(
      fc.property(
        sizeArb,
        fc.boolean(),
        fc.array(opArb, { maxLength: 40 }),
        fc.nat(),
        (size, full, ops, spread) => {
          const set = new LowestSet(size, full);
          const plain = new Array<boolean>(size).fill(full);
          const lowest = (): number => plain.indexOf(true);
          // Operations land near a few anchors (word and summary-word boundaries) or anywhere.
          const anchors = [0, 31, 32, 1023, 1024, 32_767, 32_768, size - 1];
          const place = (at: number): number => {
            const anchor = anchors[(at + spread) % anchors.length] as number;
            const p = at % 3 === 0 ? at % size : anchor + ((at >> 2) % 40) - 20;
            return Math.min(size - 1, Math.max(0, p));
          };
          expect(set.first()).toBe(lowest());
          for (const op of ops) {
            const from = place(op.at);
            const to = "length" in op ? Math.min(size, from + op.length) : from + 1;
            for (let i = from; i < to; i++) {
              // add and delete are called only to change membership (as the scheduler does)
              if ((op.kind === "add" || op.kind === "addRun") && !plain[i]) {
                set.add(i);
                plain[i] = true;
              } else if ((op.kind === "delete" || op.kind === "deleteRun") && plain[i]) {
                set.delete(i);
                plain[i] = false;
              }
            }
            expect(set.first()).toBe(lowest());
            expect(set.has(from)).toBe(plain[from]);
          }
          const has = Array.from({ length: size }, (_, i) => set.has(i));
          expect(has).toEqual(plain);
        },
      ),
      { numRuns: 100 },
    );
  });

  it("finds a member of a later word once every lower member is deleted (examples)", () => {
    const two = new LowestSet(100, false);
    two.add(5);
    two.add(70);
    two.delete(5);
    expect(two.first()).toBe(70);
    const three = new LowestSet(40_000, true);
    for (let i = 0; i < 33_000; i++) three.delete(i);
    expect(three.first()).toBe(33_000);
    three.add(1024);
    expect(three.first()).toBe(1024);
  });
});
