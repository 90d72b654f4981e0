import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { AvailabilityProfile } from "../src/availability-profile.js";
import { UncheckedProfile } from "../src/profile.js";

/** The naive model: free amount at time t = base + sum of the deltas whose interval holds t. */
interface Op {
  start: number;
  end: number;
  delta: number;
}

function naiveAt(base: number, ops: readonly Op[], t: number): number {
  let v = base;
  for (const o of ops) if (o.start <= t && t < o.end) v += o.delta;
  return v;
}

const opArb = fc
  .record({
    start: fc.integer({ min: 0, max: 50 }),
    len: fc.integer({ min: 1, max: 30 }),
    delta: fc.integer({ min: -5, max: 5 }),
  })
  .map(({ start, len, delta }) => ({ start, end: start + len, delta }));

// The reference reads the segments and tries every candidate (from, then each breakpoint
// after it) in turn: the definition, with no skipping.
function scanReference(
  segs: [number, number][],
  amount: number,
  duration: number,
  from: number,
  limit: number,
  freeAt: (i: number) => number,
): number {
  const cands = [Math.max(from, segs[0]![0])];
  for (const [t] of segs) if (t > cands[0]!) cands.push(t);
  for (const t of cands) {
    if (t >= limit) return Number.POSITIVE_INFINITY;
    let ok = true;
    for (let i = 0; i < segs.length && ok; i++) {
      const s0 = segs[i]![0];
      const s1 = i + 1 < segs.length ? segs[i + 1]![0] : Number.POSITIVE_INFINITY;
      // Segment i overlaps [t, t + duration) (the one holding t always counts).
      if (s1 > t && (s0 < t + duration || s0 <= t) && freeAt(i) < amount) ok = false;
    }
    if (ok) return t;
  }
  return Number.POSITIVE_INFINITY;
}

/**
 * A profile of hundreds of segments: 32 free from 0, then 300 seeded changes of -4 to +2 over
 * [0, 3300), with a search after every 50th when `interleave` (so the block maxima are refreshed
 * lazily between changes). Returns it and the seeded generator, for more draws.
 */
function seededProfile(
  seed: number,
  interleave: boolean,
): { p: AvailabilityProfile; rnd: (n: number) => number } {
  let x = seed;
  const rnd = (n: number) => {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    return (x >>> 8) % n;
  };
  const p = new AvailabilityProfile(0, 32);
  for (let i = 0; i < 300; i++) {
    const start = rnd(3000);
    p.add(start, start + 1 + rnd(300), rnd(7) - 4);
    if (interleave && i % 50 === 49) p.earliestStart(1 + rnd(30), 1 + rnd(200), rnd(1000));
  }
  return { p, rnd };
}

describe("AvailabilityProfile (properties)", () => {
  it("after any sequence of adds, valueAt equals the naive sum at every integer time", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 20 }),
        fc.array(opArb, { maxLength: 25 }),
        (base, ops) => {
          const p = new AvailabilityProfile(0, base);
          for (const o of ops) p.add(o.start, o.end, o.delta);
          for (let t = 0; t <= 90; t++) expect(p.valueAt(t)).toBe(naiveAt(base, ops, t));
          // breakpoints strictly increasing, neighbours distinct (merged)
          const segs = p.toArray();
          for (let i = 1; i < segs.length; i++) {
            expect(segs[i]![0]).toBeGreaterThan(segs[i - 1]![0]);
            expect(segs[i]![1]).not.toBe(segs[i - 1]![1]);
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it("earliestStart is the least integer start that fits (brute force over integer profiles)", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 10 }),
        fc.array(opArb, { maxLength: 15 }),
        fc.integer({ min: 0, max: 12 }),
        fc.integer({ min: 1, max: 20 }),
        fc.integer({ min: 0, max: 40 }),
        (base, ops, amount, duration, from) => {
          const p = new AvailabilityProfile(0, base);
          for (const o of ops) p.add(o.start, o.end, o.delta);
          // integer breakpoints: checking integer times covers every segment.
          const fitsAt = (s: number) => {
            for (let t = s; t < s + duration; t++) if (naiveAt(base, ops, t) < amount) return false;
            return true;
          };
          let expected = Number.POSITIVE_INFINITY;
          for (let s = from; s <= 100; s++) {
            if (fitsAt(s)) {
              expected = s;
              break;
            }
          }
          expect(p.earliestStart(amount, duration, from)).toBe(expected);
          if (expected !== Number.POSITIVE_INFINITY) {
            expect(p.fits(expected, expected + duration, amount)).toBe(true);
          }
          expect(p.fits(from, from + duration, amount)).toBe(fitsAt(from));
        },
      ),
      { numRuns: 300 },
    );
  });

  it("earliestStart with a limit, and earliestStartBefore on a held interval, match brute force", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 10 }),
        fc.array(opArb, { maxLength: 15 }),
        fc.integer({ min: 1, max: 12 }),
        fc.integer({ min: 1, max: 20 }),
        fc.integer({ min: 0, max: 40 }),
        fc.integer({ min: 0, max: 60 }),
        fc.integer({ min: 0, max: 60 }),
        (base, ops, amount, duration, from, a, b) => {
          const ownStart = Math.max(a, b);
          const limit = Math.min(a, b);
          const fitsAt = (s: number) => {
            for (let t = s; t < s + duration; t++) if (naiveAt(base, ops, t) < amount) return false;
            return true;
          };
          let expected = Number.POSITIVE_INFINITY;
          for (let s = from; s < limit; s++) {
            if (fitsAt(s)) {
              expected = s;
              break;
            }
          }
          const p = new AvailabilityProfile(0, base);
          for (const o of ops) p.add(o.start, o.end, o.delta);
          expect(p.earliestStart(amount, duration, from, limit)).toBe(expected);
          // The same profile holding `amount` over [ownStart, ownStart + duration): the scan
          // counts it as given back without changing the profile.
          p.add(ownStart, ownStart + duration, -amount);
          const before = p.toArray();
          expect(p.earliestStartBefore(amount, duration, from, limit, ownStart, amount)).toBe(
            expected,
          );
          expect(p.toArray()).toEqual(before);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("on profiles of hundreds of segments (whole blocks skipped), searches equal a plain scan of the segments", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 2 ** 31 - 1 }),
        fc.array(
          fc.record({
            amount: fc.integer({ min: 0, max: 40 }),
            duration: fc.integer({ min: 1, max: 400 }),
            from: fc.integer({ min: 0, max: 3000 }),
            limit: fc.integer({ min: 0, max: 4000 }),
            gap: fc.integer({ min: 0, max: 300 }),
          }),
          { minLength: 1, maxLength: 10 },
        ),
        (seed, queries) => {
          const { p, rnd } = seededProfile(seed, true);
          if (rnd(2) === 0) p.trimBefore(rnd(200));
          for (const q of queries) {
            const segs = p.toArray();
            expect(p.earliestStart(q.amount, q.duration, q.from, q.limit)).toBe(
              scanReference(segs, q.amount, q.duration, q.from, q.limit, (i) => segs[i]![1]),
            );
            expect(p.earliestStart(q.amount, q.duration, q.from)).toBe(
              scanReference(
                segs,
                q.amount,
                q.duration,
                q.from,
                Number.POSITIVE_INFINITY,
                (i) => segs[i]![1],
              ),
            );
            // A held interval of `own` at [ownStart, ownStart + duration), limit <= ownStart.
            const ownStart = q.limit + q.gap;
            const own = Math.min(q.amount, 5);
            p.add(ownStart, ownStart + q.duration, -own);
            const held = p.toArray();
            expect(
              p.earliestStartBefore(q.amount, q.duration, q.from, q.limit, ownStart, own),
            ).toBe(
              scanReference(held, q.amount, q.duration, q.from, q.limit, (i) =>
                held[i]![0] >= ownStart ? held[i]![1] + own : held[i]![1],
              ),
            );
            p.add(ownStart, ownStart + q.duration, own);
          }
        },
      ),
      { numRuns: 150 },
    );
  });

  it("keeps its block maxima exact when a change raises the free amount inside a block it read", () => {
    // The block maxima are computed lazily by a search and must be marked stale from the block
    // a change touches on: a stale maximum below the block's real one would make a search skip
    // a block that has enough free.
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 2 ** 31 - 1 }),
        fc.array(
          fc.record({
            start: fc.integer({ min: 0, max: 3000 }),
            len: fc.integer({ min: 1, max: 60 }),
            delta: fc.integer({ min: -10, max: 40 }),
            amount: fc.integer({ min: 1, max: 70 }),
            duration: fc.integer({ min: 1, max: 60 }),
            from: fc.integer({ min: 0, max: 2000 }),
          }),
          { minLength: 1, maxLength: 40 },
        ),
        (seed, changes) => {
          const { p } = seededProfile(seed, false);
          for (const c of changes) {
            // A search for more than any segment has reads (and computes) every block maximum.
            expect(p.earliestStart(10_000, 1, 0)).toBe(Number.POSITIVE_INFINITY);
            p.add(c.start, c.start + c.len, c.delta);
            const segs = p.toArray();
            expect(p.earliestStart(c.amount, c.duration, c.from)).toBe(
              scanReference(
                segs,
                c.amount,
                c.duration,
                c.from,
                Number.POSITIVE_INFINITY,
                (i) => segs[i]![1],
              ),
            );
          }
        },
      ),
      { numRuns: 100 },
    );
  });
});

describe("AvailabilityProfile.nonNegative (properties)", () => {
  it("equals a plain scan of the segments (minOver >= 0) after adds, trims, clones and loads", () => {
    // The reference: every segment overlapping [start, end) (the one holding start, or the
    // first one for a start before the origin, always counts) has a non-negative amount.
    const scan = (segs: [number, number][], from: number, end: number): boolean => {
      const start = Math.max(from, segs[0]![0]);
      for (let i = 0; i < segs.length; i++) {
        const s0 = segs[i]![0];
        const s1 = i + 1 < segs.length ? segs[i + 1]![0] : Number.POSITIVE_INFINITY;
        if (s1 > start && (s0 < end || s0 <= start) && segs[i]![1] < 0) return false;
      }
      return true;
    };
    const step = fc.oneof(
      opArb.map((o) => ({ kind: "add" as const, ...o })),
      fc.integer({ min: 0, max: 40 }).map((t) => ({ kind: "trim" as const, t })),
      fc.constant({ kind: "clone" as const }),
    );
    fc.assert(
      fc.property(
        fc.integer({ min: -3, max: 10 }),
        fc.array(
          fc.record({
            time: fc.integer({ min: 0, max: 60 }),
            amount: fc.integer({ min: -6, max: 6 }),
          }),
          { maxLength: 8 },
        ),
        fc.array(step, { maxLength: 30 }),
        fc.array(fc.tuple(fc.integer({ min: 0, max: 90 }), fc.integer({ min: 0, max: 40 })), {
          minLength: 1,
          maxLength: 8,
        }),
        (base, releases, steps, windows) => {
          let p = AvailabilityProfile.fromReleases(0, base, releases);
          const check = () => {
            const segs = p.toArray();
            for (const [start, len] of windows) {
              const want = scan(segs, start, start + len);
              expect(p.nonNegative(start, start + len)).toBe(want);
              expect(p.minOver(start, start + len) >= 0).toBe(want);
            }
          };
          check();
          for (const s of steps) {
            if (s.kind === "add") p.add(s.start, s.end, s.delta);
            else if (s.kind === "trim") p.trimBefore(s.t);
            else p = p.clone();
            check();
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe("UncheckedProfile's end sentinel", () => {
  it("keeps room for its end sentinel at every size a load or a change gives (the scans stop on it)", () => {
    // earliestStartBefore steps to the sentinel segment (time and amount Infinity) after the
    // last one instead of testing the index: a buffer grown to exactly the segment count would
    // drop it, and a scan past the last segment would run on forever. Loads of 1 to 140 changes
    // reach every doubling of the buffers, and so do runs of adds.
    const sentinel = (p: UncheckedProfile) => {
      const { times, amounts } = p as unknown as { times: Float64Array; amounts: Float64Array };
      return [times.length > p.size, times[p.size], amounts[p.size]];
    };
    const ok = [true, Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY];
    for (let count = 0; count <= 140; count++) {
      const times = Float64Array.from({ length: count }, (_, i) => i + 1);
      const amounts = Float64Array.from({ length: count }, (_, i) => (i % 2 === 0 ? -1 : 2));
      const loaded = new UncheckedProfile(0, 4);
      loaded.load(0, 4, times, amounts, count);
      expect(sentinel(loaded), `load of ${count}`).toEqual(ok);
      const sorted = new UncheckedProfile(0, 4);
      sorted.loadSorted(0, 4, times, amounts, count);
      expect(sentinel(sorted), `loadSorted of ${count}`).toEqual(ok);
      const added = new UncheckedProfile(0, 4);
      for (let i = 0; i < count; i++) added.add(2 * i + 1, 2 * i + 2, -1);
      expect(sentinel(added), `${count} adds`).toEqual(ok);
      // and the scan that reads it: a window that fits only in the last segment
      expect(added.earliestStartBefore(4, 5, 0, 1e9, 1e9, 0)).toBe(count === 0 ? 0 : 2 * count);
    }
  });
});
