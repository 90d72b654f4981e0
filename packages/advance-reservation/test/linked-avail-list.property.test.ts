import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { AvailRectList, paperPolicies } from "../src/index.js";
import { LinkedAvailList } from "./linked-avail-list.js";

const request = fc.record({
  tr: fc.integer({ min: 0, max: 60 }),
  tdu: fc.integer({ min: 1, max: 20 }),
  slack: fc.integer({ min: 0, max: 30 }),
  n: fc.integer({ min: 1, max: 12 }),
  policy: fc.integer({ min: 0, max: paperPolicies.length - 1 }),
  release: fc.boolean(),
});

describe("AvailRectList against the plain linked list of the paper (the benchmark's baseline)", () => {
  it("holds the same records and finds the same allocations under every policy, clipped or not", () => {
    fc.assert(
      fc.property(fc.array(request, { maxLength: 25 }), (requests) => {
        const fast = new AvailRectList(12);
        const slow = new LinkedAvailList(12);
        const booked: { start: number; end: number; pes: readonly number[] }[] = [];
        for (const q of requests) {
          const tdl = q.tr + q.tdu + q.slack;
          const policy = paperPolicies[q.policy]!;
          for (const clip of [true, false]) {
            for (const p of paperPolicies) {
              const a = fast.findAllocation(q.tr, q.tdu, tdl, q.n, p, { clipToDeadline: clip });
              const b = slow.findAllocation(q.tr, q.tdu, tdl, q.n, p, clip);
              expect(b).toEqual(a === null ? null : { start: a.start, pes: a.pes });
            }
          }
          const r = fast.findAllocation(q.tr, q.tdu, tdl, q.n, policy);
          if (r !== null) {
            fast.addAllocation(r.start, r.end, r.pes);
            slow.addAllocation(r.start, r.end, r.pes);
            booked.push(r);
          }
          if (q.release && booked.length > 0) {
            const gone = booked.shift()!;
            fast.deleteAllocation(gone.start, gone.end, gone.pes);
            slow.deleteAllocation(gone.start, gone.end, gone.pes);
          }
          expect(slow.records()).toEqual(fast.records());
        }
      }),
      { numRuns: 150 },
    );
  });
});
