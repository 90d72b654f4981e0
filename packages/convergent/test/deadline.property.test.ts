import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { deadlineDeltas, f1 } from "../src/deadline.js";

/** A job's Nxtime on 1..8 eligible machines, a clock and a deadline (seconds). */
const instance = fc.record({
  now: fc.integer({ min: 0, max: 10_000 }),
  slack: fc.integer({ min: -2000, max: 10_000 }),
  nxtime: fc.array(fc.integer({ min: 0, max: 6000 }), { minLength: 1, maxLength: 8 }),
  k: fc.constantFrom(1, 1.3, 2),
  late: fc.constantFrom("max" as const, "min" as const),
});

describe("f1 stays between Min and Max", () => {
  it("at Extime = Deadline, where the line's rounding gave 10.000000000000002 (a negative Δp of -1.8e-15 on that machine)", () => {
    // Found by the urgency-sum property below (seed 1562090088): now 2303, deadline 3152,
    // Nxtime [849, 0], k 1.3.
    const deadline = 3152;
    expect(f1({ extime: deadline, t: deadline - 1.3 * 849, deadline, min: 0.1, max: 10 })).toBe(10);
    const out = deadlineDeltas(2303, deadline, [849, 0], { k: 1.3 });
    expect(out[0]).toBe(0);
    expect(out[1]).toBeCloseTo(10.1, 12);
  });

  it("on random lines (either direction)", () => {
    fc.assert(
      fc.property(
        fc.double({ min: -1e6, max: 1e6, noNaN: true }),
        fc.double({ min: 1e-6, max: 1e6, noNaN: true }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.double({ min: -100, max: 100, noNaN: true }),
        fc.double({ min: -100, max: 100, noNaN: true }),
        (deadline, span, at, min, max) => {
          const t = deadline - span;
          const v = f1({ extime: t + at * span, t, deadline, min, max });
          expect(v).toBeGreaterThanOrEqual(Math.min(min, max));
          expect(v).toBeLessThanOrEqual(Math.max(min, max));
        },
      ),
      { numRuns: 2000 },
    );
  });
});

describe("deadlineDeltas (equation (1)) on random jobs", () => {
  it("hands out exactly the urgency sum of f1 over the machines (d_i > 0), never a negative value", () => {
    fc.assert(
      fc.property(instance, ({ now, slack, nxtime, k, late }) => {
        const deadline = now + slack;
        const out = deadlineDeltas(now, deadline, nxtime, { k, late });
        const min = 0.1;
        const max = 10;
        const f = nxtime.map((nx) =>
          f1({
            extime: now + nx,
            t: deadline - k * nx,
            deadline,
            min,
            max,
            late: late === "min" ? min : max,
          }),
        );
        const urgency = f.reduce((a, b) => a + b, 0);
        const total = Array.from(out).reduce((a, b) => a + b, 0);
        expect(total).toBeCloseTo(urgency, 9);
        for (const v of out) expect(v).toBeGreaterThanOrEqual(0);
      }),
    );
  });

  it("gives a faster machine (smaller Nxtime) at least as much as a slower one, under the default reading", () => {
    fc.assert(
      fc.property(instance, ({ now, slack, nxtime, k }) => {
        const deadline = now + slack;
        const out = deadlineDeltas(now, deadline, nxtime, { k });
        for (let a = 0; a < nxtime.length; a++) {
          for (let b = 0; b < nxtime.length; b++) {
            if ((nxtime[a] as number) < (nxtime[b] as number)) {
              expect(out[a] as number).toBeGreaterThanOrEqual((out[b] as number) - 1e-12);
            }
          }
        }
      }),
    );
  });
});
