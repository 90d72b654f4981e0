import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { UncheckedProfile } from "../src/profile.js";
import { ArrayProfile, reference } from "./support/array-profile.js";

// Times on a coarse grid (so that ends often fall on breakpoints, and intervals share them),
// some fractional; amounts integer, or fractional ones whose sums round.
const timeArb = fc.oneof(
  fc.integer({ min: 0, max: 40 }),
  fc.integer({ min: 0, max: 400 }).map((t) => t / 10),
);
const deltaArb = fc.oneof(
  fc.integer({ min: -4, max: 4 }),
  fc.constantFrom(0.1, 0.2, 0.3, -0.1, -0.3, 1e16, -1e16, 2 ** 53),
);
const stepArb = fc.oneof(
  {
    weight: 8,
    arbitrary: fc.record({
      kind: fc.constant("add" as const),
      a: timeArb,
      len: fc.oneof(timeArb, fc.constant(Number.POSITIVE_INFINITY)),
      delta: deltaArb,
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("trim" as const), a: timeArb }) },
);

describe("UncheckedProfile.add (against a plain array profile)", () => {
  it("add and trimBefore leave exactly the oracle's segments, after every step", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 8 }),
        fc.array(stepArb, { maxLength: 60 }),
        (base, steps) => {
          const p = new UncheckedProfile(0, base);
          const o = new ArrayProfile(0, base);
          for (const s of steps) {
            if (s.kind === "trim") {
              p.trimBefore(s.a);
              o.trimBefore(s.a);
            } else {
              const len = s.len === 0 ? 1 : s.len;
              p.add(s.a, s.a + len, s.delta);
              o.add(s.a, s.a + len, s.delta);
            }
            expect(p.toArray()).toEqual(o.segs);
          }
        },
      ),
      { numRuns: 400 },
    );
  });

  it("reservations given back and taken again (the moves of a compression) match the oracle", () => {
    // Many nested and adjacent intervals of the same size, moved earlier one after another:
    // every combination of split and merge at both ends, on profiles of dozens of segments.
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            start: fc.integer({ min: 0, max: 60 }),
            len: fc.integer({ min: 1, max: 25 }),
            cores: fc.integer({ min: 1, max: 4 }),
            by: fc.integer({ min: 0, max: 20 }),
          }),
          { minLength: 1, maxLength: 40 },
        ),
        (held) => {
          const p = new UncheckedProfile(0, 16);
          const o = new ArrayProfile(0, 16);
          for (const h of held) {
            p.add(h.start, h.start + h.len, -h.cores);
            o.add(h.start, h.start + h.len, -h.cores);
          }
          expect(p.toArray()).toEqual(o.segs);
          for (const h of held) {
            const to = Math.max(0, h.start - h.by);
            p.add(h.start, h.start + h.len, h.cores);
            o.add(h.start, h.start + h.len, h.cores);
            expect(p.toArray()).toEqual(o.segs);
            p.add(to, to + h.len, -h.cores);
            o.add(to, to + h.len, -h.cores);
            expect(p.toArray()).toEqual(o.segs);
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it("gives a breakpoint between two interior segments that rounding made equal back to one segment", () => {
    // 0.1 + 2^53 and 0.2 + 2^53 round to the same double: the two segments must merge.
    const p = new UncheckedProfile(0, 0);
    p.add(0, 10, 0.1);
    p.add(10, 20, 0.2);
    p.add(0, 20, 2 ** 53);
    const o = new ArrayProfile(0, 0);
    o.add(0, 10, 0.1);
    o.add(10, 20, 0.2);
    o.add(0, 20, 2 ** 53);
    expect(p.toArray()).toEqual(o.segs);
    expect(p.toArray()).toEqual([
      [0, 2 ** 53],
      [20, 0],
    ]);
  });

  it("searches interleaved with changes (the bounds of low runs kept between them) match the definition", () => {
    const step = fc.oneof(
      {
        weight: 6,
        arbitrary: fc.record({
          kind: fc.constant("add" as const),
          a: fc.integer({ min: 0, max: 80 }),
          len: fc.integer({ min: 1, max: 30 }),
          delta: fc.integer({ min: -3, max: 3 }),
        }),
      },
      {
        weight: 6,
        arbitrary: fc.record({
          kind: fc.constant("query" as const),
          amount: fc.oneof(fc.integer({ min: 1, max: 12 }), fc.constant(2.5)),
          duration: fc.integer({ min: 1, max: 25 }),
          // Mostly from the origin, where a search learns (and may use) the bound of a low run.
          from: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 60 })),
          limit: fc.integer({ min: 0, max: 90 }),
          gap: fc.integer({ min: 0, max: 10 }),
        }),
      },
      {
        weight: 1,
        arbitrary: fc.record({
          kind: fc.constant("trim" as const),
          a: fc.integer({ min: 0, max: 30 }),
        }),
      },
      {
        weight: 1,
        arbitrary: fc.record({
          kind: fc.constant("load" as const),
          free: fc.integer({ min: 0, max: 12 }),
        }),
      },
    );
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 12 }),
        fc.array(step, { minLength: 20, maxLength: 80 }),
        (base, steps) => {
          const p = new UncheckedProfile(0, base);
          let o = new ArrayProfile(0, base);
          for (const s of steps) {
            if (s.kind === "add") {
              p.add(s.a, s.a + s.len, s.delta);
              o.add(s.a, s.a + s.len, s.delta);
            } else if (s.kind === "trim") {
              p.trimBefore(s.a);
              o.trimBefore(s.a);
            } else if (s.kind === "load") {
              // A load keeps the object (and resets what it learnt); the oracle starts afresh.
              const segs = o.segs;
              const origin = segs[0]![0];
              p.load(origin, s.free, [origin + 5], [3], 1);
              o = new ArrayProfile(origin, s.free);
              o.add(origin + 5, Number.POSITIVE_INFINITY, 3);
            } else {
              const segs = o.segs;
              expect(p.earliestStart(s.amount, s.duration, s.from, s.limit)).toBe(
                reference(segs, s, Number.POSITIVE_INFINITY, 0),
              );
              expect(p.earliestStart(s.amount, s.duration, s.from)).toBe(
                reference(
                  segs,
                  { ...s, limit: Number.POSITIVE_INFINITY },
                  Number.POSITIVE_INFINITY,
                  0,
                ),
              );
              // Plain, then holding `own` over [ownStart, ownStart + duration) with limit <= ownStart.
              expect(
                p.earliestStartBefore(
                  s.amount,
                  s.duration,
                  s.from,
                  s.limit,
                  Number.POSITIVE_INFINITY,
                  0,
                ),
              ).toBe(reference(segs, s, Number.POSITIVE_INFINITY, 0));
              const ownStart = s.limit + s.gap;
              const own = Math.min(Math.ceil(s.amount), 4);
              p.add(ownStart, ownStart + s.duration, -own);
              o.add(ownStart, ownStart + s.duration, -own);
              expect(
                p.earliestStartBefore(s.amount, s.duration, s.from, s.limit, ownStart, own),
              ).toBe(reference(o.segs, s, ownStart, own));
              p.add(ownStart, ownStart + s.duration, own);
              o.add(ownStart, ownStart + s.duration, own);
            }
            expect(p.toArray()).toEqual(o.segs);
          }
        },
      ),
      { numRuns: 400 },
    );
  });

  it("a search that starts after the origin learns nothing about the time before it", () => {
    const p = new UncheckedProfile(0, 5);
    p.add(10, 20, -5);
    expect(p.earliestStartBefore(3, 2, 12, 100, Number.POSITIVE_INFINITY, 0)).toBe(20);
    expect(p.earliestStart(3, 2, 12)).toBe(20);
    expect(p.earliestStartBefore(3, 2, 0, 100, Number.POSITIVE_INFINITY, 0)).toBe(0);
    expect(p.earliestStart(3, 20, 0)).toBe(20);
  });
});
