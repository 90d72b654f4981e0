import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { greedyPicks } from "../src/min-min.js";
import { greedyPicks as oracle } from "./greedy-oracle.js";

// The greedy of minMin / maxMin / firstMapped against the previous implementation (eager
// re-bests, kept in greedy-oracle.ts): the same picks in the same order, on the same machines,
// at the same times, byte for byte, ties included. Small integer times force ties between tasks
// and between machines; Infinity marks ineligible pairs; times near the largest double make
// completion times overflow to Infinity mid-run; up to 9 machines, of which a task remembers 2,
// exercise the rescans.

const HUGE = Number.MAX_VALUE / 2;

const instance = fc
  .tuple(fc.integer({ min: 0, max: 30 }), fc.integer({ min: 1, max: 9 }))
  .chain(([n, m]) =>
    fc.record({
      n: fc.constant(n),
      m: fc.constant(m),
      etc: fc.array(
        fc.oneof(
          { weight: 8, arbitrary: fc.integer({ min: 0, max: 6 }) },
          { weight: 2, arbitrary: fc.constant(Number.POSITIVE_INFINITY) },
          { weight: 1, arbitrary: fc.constant(HUGE) },
        ),
        { minLength: n * m, maxLength: n * m },
      ),
      ready: fc.array(fc.integer({ min: 0, max: 5 }), { minLength: m, maxLength: m }),
      wanted: fc.option(fc.array(fc.boolean(), { minLength: m, maxLength: m }), { nil: null }),
      largest: fc.boolean(),
    }),
  );

type Instance = {
  n: number;
  m: number;
  etc: number[];
  ready: number[];
  wanted: boolean[] | null;
  largest: boolean;
};

/** Both greedies on one instance, each on its own copy of the ready times. */
function both({ n, m, etc, ready, wanted, largest }: Instance) {
  const w = wanted === null ? null : Uint8Array.from(wanted, (b) => (b ? 1 : 0));
  const readyNew = Float64Array.from(ready);
  const readyOld = Float64Array.from(ready);
  const got = greedyPicks(n, m, Float64Array.from(etc), readyNew, largest, w);
  const want = oracle(n, m, Float64Array.from(etc), readyOld, largest, w);
  return { got, want, readyNew, readyOld };
}

describe("greedyPicks (Min-Min / Max-Min) against the previous implementation", () => {
  it("picks the same tasks, in the same order, on the same machines, at the same times", () => {
    fc.assert(
      fc.property(instance, (inst) => {
        const { got, want, readyNew, readyOld } = both(inst);
        expect(got.order).toEqual(want.order);
        expect(Array.from(got.machineOf)).toEqual(Array.from(want.machineOf));
        expect(Array.from(got.start)).toEqual(Array.from(want.start));
        expect(Array.from(got.end)).toEqual(Array.from(want.end));
        expect(Array.from(readyNew)).toEqual(Array.from(readyOld));
      }),
      { numRuns: 1500 },
    );
  });

  it("does so on instances where every task shares its best machines (a farm of equal machines)", () => {
    // rows that differ only by a per-task size: every task prefers the same machines, so every
    // pick makes many keys stale at once
    const farm = fc
      .tuple(fc.integer({ min: 1, max: 40 }), fc.integer({ min: 2, max: 12 }))
      .chain(([n, m]) =>
        fc.record({
          n: fc.constant(n),
          m: fc.constant(m),
          sizes: fc.array(fc.integer({ min: 1, max: 4 }), { minLength: n, maxLength: n }),
          speeds: fc.array(fc.integer({ min: 1, max: 3 }), { minLength: m, maxLength: m }),
          ready: fc.array(fc.integer({ min: 0, max: 3 }), { minLength: m, maxLength: m }),
          wanted: fc.option(fc.array(fc.boolean(), { minLength: m, maxLength: m }), { nil: null }),
          largest: fc.boolean(),
        }),
      );
    fc.assert(
      fc.property(farm, ({ n, m, sizes, speeds, ready, wanted, largest }) => {
        const etc = sizes.flatMap((s) => speeds.map((v) => s * (4 - v)));
        const { got, want, readyNew, readyOld } = both({
          n,
          m,
          etc,
          ready,
          wanted,
          largest,
        });
        expect(got.order).toEqual(want.order);
        expect(Array.from(got.machineOf)).toEqual(Array.from(want.machineOf));
        expect(Array.from(readyNew)).toEqual(Array.from(readyOld));
      }),
      { numRuns: 500 },
    );
  });
});
