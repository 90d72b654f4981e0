import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  type Allocation,
  computeMetrics,
  createJob,
  createPlatform,
  createSimulation,
  firstFitAllocation,
  identicalPool,
  type Job,
  type JobRecord,
  ResourceLedger,
  type Scheduler,
  simulate,
} from "../src/index.js";
import { UsageTracker } from "../src/machine-usage.js";
import { makeView } from "../src/testing/index.js";
import { briefRecords, plain, untimed } from "./helpers.js";

// `firstFitAllocation` marks an allocation of one-core parts on neighbouring machines with its
// runs (parts.ts, RUNS), and the ledger, the machine usage and the metrics then read the runs
// instead of the parts. Each must give what the same parts give without the runs (a plain copy
// of the array): the same free cores, tree, errors, records and metrics.

describe("allocations with runs (wide jobs on single-core machines)", () => {
  it("the ledger takes, gives back and refuses them as it does their parts", () => {
    const op = fc.record({
      cores: fc.integer({ min: 1, max: 60 }),
      give: fc.nat(),
      stale: fc.boolean(),
    });
    fc.assert(
      fc.property(
        fc.integer({ min: 16, max: 90 }),
        fc.array(op, { minLength: 1, maxLength: 40 }),
        (n, ops) => {
          const platform = identicalPool(n);
          const a = new ResourceLedger(platform);
          const b = new ResourceLedger(platform);
          const held: { job: Job; alloc: Allocation }[] = [];
          ops.forEach((o, i) => {
            const job = createJob({ id: i, submit: 0, runtime: 1, cores: o.cores });
            const view = makeView(platform, {
              freeCores: platform.machines.map((_, m) => a.freeCores(m)),
            });
            const alloc = firstFitAllocation(
              { ...view, nextFreeMachine: (f: number) => a.nextFreeMachine(f) },
              o.cores,
            );
            if (alloc !== null) {
              if (o.stale && held.length > 0) {
                // Taken while the machines it names are busy: both refuse, with the same words.
                const busy = held[0]!;
                const again = createJob({
                  id: 1000 + i,
                  submit: 0,
                  runtime: 1,
                  cores: busy.job.cores,
                });
                let ea = "";
                let eb = "";
                try {
                  a.take(again, busy.alloc);
                } catch (e) {
                  ea = String(e);
                }
                try {
                  b.take(again, plain(busy.alloc));
                } catch (e) {
                  eb = String(e);
                }
                expect(ea).not.toBe("");
                expect(ea).toBe(eb);
              }
              a.take(job, alloc);
              b.take(job, plain(alloc));
              held.push({ job, alloc });
            } else if (held.length > 0) {
              const k = o.give % held.length;
              const { job: j, alloc: back } = held[k]!;
              held.splice(k, 1);
              a.give(j, back);
              b.give(j, plain(back));
            }
            expect(a.totalFreeCores).toBe(b.totalFreeCores);
            for (let m = 0; m <= n; m++) {
              expect(a.freeCores(m)).toBe(b.freeCores(m));
              expect(a.nextFreeMachine(m)).toBe(b.nextFreeMachine(m));
            }
          });
        },
      ),
      { numRuns: 150 },
    );
  });

  it("the online machine usage counts them per machine as it counts their parts", () => {
    // Internal state compared directly: with wide jobs the metric itself is capped at 1.
    const counts = (t: UsageTracker) => {
      const s = t as unknown as { count: Int32Array; active: number };
      return { count: [...s.count], active: s.active };
    };
    fc.assert(
      fc.property(
        fc.integer({ min: 16, max: 90 }),
        fc.array(fc.record({ cores: fc.integer({ min: 1, max: 60 }), release: fc.nat() }), {
          minLength: 1,
          maxLength: 30,
        }),
        (n, ops) => {
          const platform = identicalPool(n);
          const ledger = new ResourceLedger(platform);
          const a = new UsageTracker(n);
          const b = new UsageTracker(n);
          const held: { job: Job; alloc: Allocation }[] = [];
          ops.forEach((o, i) => {
            a.at(i);
            b.at(i);
            const job = createJob({ id: i, submit: 0, runtime: 1, cores: o.cores });
            const view = makeView(platform, {
              freeCores: platform.machines.map((_, m) => ledger.freeCores(m)),
            });
            const alloc = firstFitAllocation(view, o.cores);
            if (alloc !== null) {
              ledger.take(job, alloc);
              a.take(alloc);
              b.take(plain(alloc));
              held.push({ job, alloc });
            } else if (held.length > 0) {
              const { job: j, alloc: back } = held.splice(o.release % held.length, 1)[0]!;
              ledger.give(j, back);
              a.release(back);
              b.release(plain(back));
            }
            a.at(i + 0.5);
            b.at(i + 0.5);
            expect(counts(a)).toEqual(counts(b));
          });
        },
      ),
      { numRuns: 150 },
    );
  });

  it("simulations give the same records and metrics (machine usage included) as with the parts alone", () => {
    const arbJobs = fc.array(
      fc.record({
        submit: fc.integer({ min: 0, max: 200 }),
        runtime: fc.integer({ min: 1, max: 100 }),
        cores: fc.integer({ min: 1, max: 64 }),
      }),
      { minLength: 1, maxLength: 30 },
    );
    const firstFit = (copy: boolean): Scheduler => ({
      name: copy ? "first-fit-copied" : "first-fit",
      schedule(ctx) {
        for (const w of ctx.view.waiting) {
          const a = firstFitAllocation(ctx.view, w.job.cores);
          if (a === null) break;
          ctx.start(w.job.id, copy ? plain(a) : a);
        }
      },
    });
    fc.assert(
      fc.property(fc.integer({ min: 16, max: 96 }), arbJobs, (n, specs) => {
        const platform = identicalPool(n);
        const jobs = specs
          .filter((s) => s.cores <= n)
          .sort((x, y) => x.submit - y.submit)
          .map((s, i) => createJob({ id: i + 1, ...s }));
        // Kept (simulate, computeMetrics) and streamed (the engine's online machine usage).
        const a = simulate(jobs, platform, firstFit(false));
        const b = simulate(jobs, platform, firstFit(true));
        expect(briefRecords(a.records)).toEqual(briefRecords(b.records));
        expect(untimed(computeMetrics(a))).toEqual(untimed(computeMetrics(b)));
        const streamed = (copy: boolean) => {
          const records: JobRecord[] = [];
          const sim = createSimulation(platform, firstFit(copy), {
            onRecord: (r) => records.push(r),
            metrics: true,
          });
          sim.push(jobs);
          return { records: briefRecords(records), metrics: untimed(sim.end().metrics) };
        };
        const sa = streamed(false);
        expect(sa).toEqual(streamed(true));
        expect(sa.metrics).toEqual(untimed(computeMetrics(a)));
      }),
      { numRuns: 100 },
    );
  });

  it("on single-core machines the tracker of ranges gives the change points the tracker of counts gives", () => {
    // The engine's tracker on single-core machines keeps the machine ranges turned at each time
    // and tests their parity; the other counts per machine. Same points (time, active, jobs in
    // the system), in the same order, and the same usage. Several takes and releases share a
    // time: a machine given back and taken again then has not changed, and neither has one
    // taken and given back (an interval of no length).
    const points = (t: UsageTracker) => {
      const log: number[][] = [];
      const sweep = (t as unknown as { sweep: { point: (...a: number[]) => void } }).sweep;
      const point = sweep.point.bind(sweep);
      sweep.point = (time, active, inSystem) => {
        log.push([time, active, inSystem]);
        point(time, active, inSystem);
      };
      return log;
    };
    const step = fc.record({
      /** take a new job; give one back; or give one back and take a job of its size at once */
      kind: fc.constantFrom("take", "release", "swap"),
      cores: fc.integer({ min: 1, max: 40 }),
      release: fc.nat(),
      /** this step at the previous step's time */
      same: fc.boolean(),
      /** the allocation as a plain copy (no runs) */
      copy: fc.boolean(),
    });
    fc.assert(
      fc.property(
        fc.integer({ min: 16, max: 80 }),
        fc.array(step, { minLength: 1, maxLength: 40 }),
        (n, steps) => {
          const platform = identicalPool(n);
          const ledger = new ResourceLedger(platform);
          const ranges = new UsageTracker(n, true);
          const counts = new UsageTracker(n, false);
          const logA = points(ranges);
          const logB = points(counts);
          const held: { job: Job; alloc: Allocation }[] = [];
          let time = 0;
          let id = 0;
          const both = (f: (t: UsageTracker) => void) => {
            f(ranges);
            f(counts);
          };
          // Jobs in the system throughout (as queued jobs are): a point then comes from the
          // machines alone, not from a job entering or leaving.
          both((t) => {
            t.at(0);
            for (let j = 0; j < 1000; j++) t.enter();
          });
          const take = (cores: number, copy: boolean): boolean => {
            const view = makeView(platform, {
              freeCores: platform.machines.map((_, m) => ledger.freeCores(m)),
            });
            const found = firstFitAllocation(view, cores);
            if (found === null) return false;
            const alloc = copy ? plain(found) : found;
            const job = createJob({ id: id++, submit: 0, runtime: 1, cores });
            ledger.take(job, alloc);
            both((t) => t.take(alloc));
            held.push({ job, alloc });
            return true;
          };
          for (const s of steps) {
            if (!s.same) time++;
            both((t) => t.at(time));
            if (s.kind === "take" || held.length === 0) {
              take(s.cores, s.copy);
              continue;
            }
            const { job, alloc } = held.splice(s.release % held.length, 1)[0]!;
            ledger.give(job, alloc);
            both((t) => t.release(alloc));
            // as many machines taken at once: the same ones, some of them, or others below
            if (s.kind === "swap") take(alloc.length, !s.copy);
          }
          expect(ranges.finish(time + 1, 1000)).toBe(counts.finish(time + 1, 1000));
          expect(logA).toEqual(logB);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("firstFitAllocation on the engine's view (the ledger read in place) gives the parts and runs of the view's own answers", () => {
    // A scheduler asks both: the engine's view, and a plain object that answers through the
    // engine's view (so not the engine's: the walk by `freeCores` and `nextFreeMachine`).
    const arbPlatform = fc.oneof(
      fc.integer({ min: 16, max: 96 }).map((n) => identicalPool(n)),
      fc
        .array(fc.integer({ min: 1, max: 4 }), { minLength: 8, maxLength: 48 })
        .map((cores) => createPlatform({ machines: cores.map((c) => ({ cores: c })) })),
    );
    const arbJobs = fc.array(
      fc.record({
        submit: fc.integer({ min: 0, max: 100 }),
        runtime: fc.integer({ min: 1, max: 60 }),
        cores: fc.integer({ min: 1, max: 48 }),
        probe: fc.integer({ min: 16, max: 64 }),
      }),
      { minLength: 1, maxLength: 25 },
    );
    fc.assert(
      fc.property(arbPlatform, arbJobs, (platform, specs) => {
        const sorted = [...specs].sort((x, y) => x.submit - y.submit);
        const jobs = sorted.map((s, i) =>
          createJob({
            id: i + 1,
            submit: s.submit,
            runtime: s.runtime,
            cores: Math.min(s.cores, platform.totalCores),
          }),
        );
        const probes = new Map(jobs.map((j, i) => [j.id, sorted[i]!.probe]));
        const runsKey = Object.getOwnPropertySymbols(
          firstFitAllocation(makeView(identicalPool(16)), 16)!,
        )[0]!;
        const runs = (a: Allocation | null) =>
          a === null ? null : [...((a as unknown as Record<symbol, Int32Array>)[runsKey] ?? [])];
        let asked = 0;
        const scheduler: Scheduler = {
          name: "first-fit-compared",
          schedule(ctx) {
            const v = ctx.view;
            const other = {
              platform: v.platform,
              get totalFreeCores() {
                return v.totalFreeCores;
              },
              freeCores: (m: number) => v.freeCores(m),
              nextFreeMachine: (m: number) => v.nextFreeMachine(m),
            } as unknown as typeof v;
            for (const w of v.waiting) {
              for (const cores of [probes.get(w.job.id)!, w.job.cores]) {
                const a = firstFitAllocation(v, cores);
                const b = firstFitAllocation(other, cores);
                expect(a === null ? null : plain(a)).toEqual(b === null ? null : plain(b));
                expect(runs(a)).toEqual(runs(b));
                asked++;
              }
              const a = firstFitAllocation(v, w.job.cores);
              if (a === null) break;
              ctx.start(w.job.id, a);
            }
          },
        };
        simulate(jobs, platform, scheduler);
        expect(asked).toBeGreaterThan(0);
      }),
      { numRuns: 150 },
    );
  });
});
