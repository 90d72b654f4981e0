import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { EventQueue } from "../src/events.js";
import { createJob, identicalPool, type Job, simulate } from "../src/index.js";
import { arbJobs, arbPlatform } from "../src/testing/index.js";
import { chaos } from "./helpers.js";

describe("EventQueue (the engine's event heap, on heap-js)", () => {
  it("pops in (time, push order) order, like a stable sort, under interleaved pushes and pops", () => {
    const op = fc.oneof(
      fc.record({ push: fc.integer({ min: 0, max: 20 }), kind: fc.integer({ min: 0, max: 2 }) }),
      fc.constant({ pop: true as const }),
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 300 }), (ops) => {
        const q = new EventQueue<{ n: number }>();
        const oracle: { time: number; seq: number; kind: number; n: number }[] = [];
        let seq = 0;
        for (const o of ops) {
          if ("push" in o) {
            const payload = { n: seq };
            q.push(o.push, o.kind, payload, seq * 2);
            oracle.push({ time: o.push, seq, kind: o.kind, n: seq });
            seq++;
          } else if (oracle.length > 0) {
            oracle.sort((a, b) => a.time - b.time || a.seq - b.seq);
            const want = oracle.shift()!;
            expect(q.topTime()).toBe(want.time);
            expect(q.topKind()).toBe(want.kind);
            expect(q.topVersion()).toBe(want.seq * 2);
            expect(q.topPayload()!.n).toBe(want.n);
            q.pop();
          }
          expect(q.size).toBe(oracle.length);
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe("job input paths", () => {
  it("an array and a generator of the same jobs give the same trace", () => {
    fc.assert(
      fc.property(
        arbPlatform().chain((platform) => arbJobs(platform).map((jobs) => ({ platform, jobs }))),
        ({ platform, jobs }) => {
          const a = simulate(jobs, platform, chaos());
          const b = simulate(
            (function* () {
              yield* jobs;
            })(),
            platform,
            chaos(),
          );
          expect(b.records).toEqual(a.records);
          expect(b.stats.events).toBe(a.stats.events);
        },
      ),
      { numRuns: 60 },
    );
  });

  it("finds job states by id whatever the ids (sequential, huge, descending, fractional-free)", () => {
    const ids = [5, 3, 1e12, 2 ** 40 + 1, 0, 4000, 2, 1_000_000];
    const jobs: Job[] = ids.map((id, i) => createJob({ id, submit: i, runtime: 10, cores: 1 }));
    const seen: string[] = [];
    const trace = simulate(jobs, identicalPool(2), {
      name: "probe",
      schedule(ctx) {
        const view = ctx.view;
        for (const j of ctx.arrived) {
          seen.push(`${j.id}:${view.isWaiting(j.id)}:${view.isRunning(j.id)}`);
        }
        for (const w of view.waiting) {
          if (view.freeCores(0) > 0) ctx.start(w.job.id, [{ machine: 0, cores: 1 }]);
          else if (view.freeCores(1) > 0) ctx.start(w.job.id, [{ machine: 1, cores: 1 }]);
          if (view.isWaiting(w.job.id)) continue;
          expect(view.isRunning(w.job.id)).toBe(true);
        }
        expect(view.isWaiting(123_456)).toBe(false);
        expect(view.isRunning(-1)).toBe(false);
        expect(view.isRunning(Number.NaN)).toBe(false);
      },
    });
    expect(seen).toEqual(ids.map((id) => `${id}:true:false`));
    expect(trace.records.map((r) => r.outcome)).toEqual(ids.map(() => "completed"));
    expect(trace.records.map((r) => r.job.id)).toEqual(ids);
  });
});
