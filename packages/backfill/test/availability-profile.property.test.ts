import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { AvailabilityProfile } from "../src/availability-profile.js";
import { UncheckedProfile } from "../src/profile.js";
import { ArrayProfile, reference } from "./support/array-profile.js";

// Valid calls of every public method, in random order, on the checked AvailabilityProfile, on the
// unchecked structure the schedulers use (the code of the class before the checks were added) and
// on the plain-array oracle: the checks refuse none of them, and every answer and every profile is
// the same in all three.

const INF = Number.POSITIVE_INFINITY;
/** Times on a coarse grid (ends often meet breakpoints), some fractional. */
const timeArb = fc.oneof(
  fc.integer({ min: -5, max: 60 }),
  fc.integer({ min: -20, max: 240 }).map((t) => t / 4),
);
const lenArb = fc.oneof(
  { weight: 6, arbitrary: fc.integer({ min: 1, max: 30 }) },
  { weight: 1, arbitrary: fc.constant(0.25) },
  { weight: 1, arbitrary: fc.constant(INF) },
);
const durationArb = fc.oneof(
  { weight: 6, arbitrary: fc.integer({ min: 1, max: 25 }) },
  { weight: 1, arbitrary: fc.constantFrom(0, 0.5, INF) },
);
const amountArb = fc.integer({ min: 0, max: 10 });
const changesArb = fc.array(fc.record({ time: timeArb, amount: fc.integer({ min: -4, max: 6 }) }), {
  maxLength: 8,
});

const stepArb = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      kind: fc.constant("add" as const),
      a: timeArb,
      len: lenArb,
      delta: fc.integer({ min: -4, max: 4 }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("trim" as const), a: timeArb }) },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant("load" as const),
      sorted: fc.boolean(),
      origin: timeArb,
      free: fc.integer({ min: -2, max: 12 }),
      changes: changesArb,
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("clone" as const) }) },
  {
    weight: 6,
    arbitrary: fc.record({
      kind: fc.constant("query" as const),
      t: timeArb,
      len: fc.oneof(fc.constant(0), lenArb),
      amount: amountArb,
      duration: durationArb,
      from: fc.oneof(fc.constant(0), timeArb),
      limit: fc.oneof(timeArb, fc.constant(INF)),
      gap: fc.integer({ min: 0, max: 10 }),
    }),
  },
);

/** The oracle's segment holding `t` (0 before the origin). */
function indexIn(segs: readonly [number, number][], t: number): number {
  let i = 0;
  while (i + 1 < segs.length && segs[i + 1]![0] <= t) i++;
  return i;
}

/** The oracle's smallest amount over `[start, end)` (the amount at `start` when empty). */
function minIn(segs: readonly [number, number][], start: number, end: number): number {
  const i = indexIn(segs, start);
  let m = segs[i]![1];
  for (let k = i + 1; k < segs.length && segs[k]![0] < end; k++) m = Math.min(m, segs[k]![1]);
  return m;
}

describe("AvailabilityProfile (valid calls: the same results as before the checks)", () => {
  it("every method answers as the unchecked structure and the plain-array oracle do", () => {
    fc.assert(
      fc.property(
        timeArb,
        fc.integer({ min: 0, max: 12 }),
        fc.array(stepArb, { minLength: 10, maxLength: 60 }),
        (origin, base, steps) => {
          let p = new AvailabilityProfile(origin, base);
          let u = new UncheckedProfile(origin, base);
          let o = new ArrayProfile(origin, base);
          for (const s of steps) {
            if (s.kind === "add") {
              p.add(s.a, s.a + s.len, s.delta);
              u.add(s.a, s.a + s.len, s.delta);
              o.add(s.a, s.a + s.len, s.delta);
            } else if (s.kind === "trim") {
              p.trimBefore(s.a);
              u.trimBefore(s.a);
              o.trimBefore(s.a);
            } else if (s.kind === "load") {
              let changes = s.changes;
              if (s.sorted) {
                // Distinct times, ascending: what loadSorted requires.
                const seen = new Set<number>();
                changes = changes
                  .filter((c) => !seen.has(c.time) && seen.add(c.time))
                  .sort((x, y) => x.time - y.time);
              }
              const times = changes.map((c) => c.time);
              const amounts = changes.map((c) => c.amount);
              if (s.sorted) {
                p.loadSorted(s.origin, s.free, times, amounts, changes.length);
                u.loadSorted(s.origin, s.free, times, amounts, changes.length);
              } else if (changes.length % 2 === 0) {
                p.load(s.origin, s.free, times, amounts, changes.length);
                u.load(s.origin, s.free, times, amounts, changes.length);
              } else {
                p = AvailabilityProfile.fromReleases(s.origin, s.free, changes);
                u = new UncheckedProfile(s.origin, s.free);
                u.load(s.origin, s.free, times, amounts, changes.length);
              }
              o = new ArrayProfile(s.origin, s.free);
              for (const c of changes) o.add(c.time, INF, c.amount);
            } else if (s.kind === "clone") {
              // Go on with the clones; a change to the originals must not reach them.
              const [p0, u0] = [p, u];
              p = p.clone();
              u = u.clone();
              p0.add(p0.origin, p0.origin + 1, 1);
              u0.add(u0.origin, u0.origin + 1, 1);
            } else {
              const segs = o.segs;
              const end = s.t + s.len;
              expect(p.indexAt(s.t)).toBe(indexIn(segs, s.t));
              expect(u.indexAt(s.t)).toBe(indexIn(segs, s.t));
              expect(p.valueAt(s.t)).toBe(segs[indexIn(segs, s.t)]![1]);
              expect(u.valueAt(s.t)).toBe(segs[indexIn(segs, s.t)]![1]);
              const min = minIn(segs, s.t, end);
              expect(p.minOver(s.t, end)).toBe(min);
              expect(u.minOver(s.t, end)).toBe(min);
              expect(p.nonNegative(s.t, end)).toBe(min >= 0);
              expect(u.nonNegative(s.t, end)).toBe(min >= 0);
              expect(p.fits(s.t, end, s.amount)).toBe(min >= s.amount);
              expect(u.fits(s.t, end, s.amount)).toBe(min >= s.amount);
              const q = { amount: s.amount, duration: s.duration, from: s.from, limit: s.limit };
              const open = reference(segs, { ...q, limit: INF }, INF, 0);
              expect(p.earliestStart(s.amount, s.duration, s.from)).toBe(open);
              expect(u.earliestStart(s.amount, s.duration, s.from)).toBe(open);
              const bounded = reference(segs, q, INF, 0);
              expect(p.earliestStart(s.amount, s.duration, s.from, s.limit)).toBe(bounded);
              expect(u.earliestStart(s.amount, s.duration, s.from, s.limit)).toBe(bounded);
              // Holding `own` over [ownStart, ownStart + duration), with limit <= ownStart.
              if (s.limit !== INF && s.duration !== INF) {
                const ownStart = s.limit + s.gap;
                const own = Math.min(s.amount, 4);
                const ownEnd = ownStart + Math.max(s.duration, 1);
                for (const x of [p, u, o]) x.add(ownStart, ownEnd, -own);
                const held = reference(
                  o.segs,
                  { ...q, duration: ownEnd - ownStart },
                  ownStart,
                  own,
                );
                const d = ownEnd - ownStart;
                expect(p.earliestStartBefore(s.amount, d, s.from, s.limit, ownStart, own)).toBe(
                  held,
                );
                expect(u.earliestStartBefore(s.amount, d, s.from, s.limit, ownStart, own)).toBe(
                  held,
                );
                for (const x of [p, u, o]) x.add(ownStart, ownEnd, own);
              }
            }
            const segs = o.segs;
            expect(p.toArray()).toEqual(segs);
            expect(u.toArray()).toEqual(segs);
            expect(p.size).toBe(segs.length);
            expect(p.origin).toBe(segs[0]![0]);
            for (let i = 0; i < segs.length; i++) {
              expect(p.time(i)).toBe(segs[i]![0]);
              expect(p.free(i)).toBe(segs[i]![1]);
            }
          }
        },
      ),
      { numRuns: 200 },
    );
  });
});
