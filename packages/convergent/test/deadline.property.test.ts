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
