import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Job } from "../src/index.js";
import { type QueueEntry, WaitingQueue } from "../src/waiting-queue.js";

class Entry implements QueueEntry {
  removed = false;
  pending = false;
  constructor(readonly job: Job) {}
}

const before = (a: Entry, b: Entry) => a.job.submit - b.job.submit || a.job.id - b.job.id;

/**
 * One schedule call: reads (whole array, one index, the count) interleaved with starts (a live
 * entry leaves) and preemptions (a job re-enters at its place when the call returns, unless it
 * is restarted in the same call). Indices are taken modulo what exists.
 */
const callOp = fc.oneof(
  {
    arbitrary: fc.record({ read: fc.constantFrom("array", "at", "count"), index: fc.nat() }),
    weight: 2,
  },
  { arbitrary: fc.record({ start: fc.nat(), head: fc.nat({ max: 2 }) }), weight: 5 },
  { arbitrary: fc.record({ preempt: fc.nat() }), weight: 1 },
  { arbitrary: fc.record({ restart: fc.nat() }), weight: 1 },
);

/** Steps: arrivals (up to `maxArrive` at a time) and calls; `check` reads outside the call. */
const steps = (maxArrive: number) =>
  fc.array(
    fc.oneof(
      {
        arbitrary: fc.record({
          arrive: fc.integer({ min: 1, max: maxArrive }),
          gap: fc.nat({ max: 2 }),
          check: fc.boolean(),
        }),
        weight: 2,
      },
      {
        arbitrary: fc.record({ call: fc.array(callOp, { maxLength: 60 }), check: fc.boolean() }),
        weight: 3,
      },
    ),
    { maxLength: 60 },
  );

describe("WaitingQueue (the engine's waiting queue, head offset and trims)", () => {
  it("shows the live entries in queue order, with one snapshot per call, on short and long arrays", () => {
    fc.assert(
      fc.property(
        // Short queues (calls remove most of them) and long ones (long dead prefixes).
        fc.oneof(steps(25), steps(60)),
        fc.constantFrom(4, 16, 16_000),
        fc.constantFrom(2, 32),
        (script, shiftLimit, compactAbove) => {
          const q = new WaitingQueue<Entry>(shiftLimit, compactAbove);
          let live: Entry[] = [];
          let nextId = 0;
          let submit = 0;
          const outside = () => {
            expect(q.count(false)).toBe(live.length);
            expect([...q.array(false)]).toEqual(live);
            expect(q.at(live.length, false)).toBeUndefined();
            // Nothing before the head, even while dead entries still sit there.
            expect(q.at(-1, false)).toBeUndefined();
          };
          for (const s of script) {
            if ("arrive" in s) {
              for (let k = 0; k < s.arrive; k++) {
                submit += k % 3 === 0 ? s.gap : 0;
                const e = new Entry({ id: nextId++, submit, runtime: 1, estimate: 1, cores: 1 });
                q.insert(e);
                live.push(e);
              }
              if (s.check) outside();
              continue;
            }
            q.beginCall();
            let snapshot: Entry[] | null = null;
            const pending: Entry[] = [];
            for (const op of s.call) {
              if ("read" in op) {
                snapshot ??= [...live];
                if (op.read === "array") expect([...q.array(true)]).toEqual(snapshot);
                else if (op.read === "count") expect(q.count(true)).toBe(snapshot.length);
                else {
                  const i = snapshot.length === 0 ? 0 : op.index % (snapshot.length + 1);
                  expect(q.at(i, true)).toBe(snapshot[i]);
                  expect(q.at(-1 - i, true)).toBeUndefined();
                }
              } else if ("start" in op) {
                if (live.length === 0) continue;
                // Mostly near the head (FCFS-like, the dead prefix grows), else anywhere.
                const e = live[op.head > 0 ? 0 : op.start % live.length]!;
                q.remove(e);
                live = live.filter((x) => x !== e);
              } else if ("preempt" in op) {
                // A job that was running re-enters at its submit and id (older ids included).
                const e = new Entry({
                  id: nextId++,
                  submit: op.preempt % (submit + 1),
                  runtime: 1,
                  estimate: 1,
                  cores: 1,
                });
                e.pending = true;
                pending.push(e);
              } else if (pending.length > 0) {
                const e = pending[op.restart % pending.length]!;
                if (!e.removed) q.remove(e);
              }
            }
            for (const e of pending) {
              e.pending = false;
              if (!e.removed) {
                q.insert(e);
                live.push(e);
              }
            }
            live.sort(before);
            q.tidy();
            // Reads outside calls tidy the array too, so some steps skip them.
            if (s.check) outside();
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
