import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  type Allocation,
  computeMetrics,
  createJob,
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

// `firstFitAllocation` marks an allocation of one-core parts on neighbouring machines with its
// runs (parts.ts, RUNS), and the ledger, the machine usage and the metrics then read the runs
// instead of the parts. Each must give what the same parts give without the runs (a plain copy
// of the array): the same free cores, tree, errors, records and metrics.

/** Metrics without the wall-clock one (`schedulerMsPerDecision`), which differs run to run. */
const untimed = (m: object | undefined): object | undefined => {
  if (m === undefined) return undefined;
  const { schedulerMsPerDecision: _, ...rest } = m as { schedulerMsPerDecision?: number };
  return rest;
};

/** The same parts in a plain array (no runs). */
const plain = (a: Allocation): Allocation => a.map((p) => ({ machine: p.machine, cores: p.cores }));

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
        const brief = (records: readonly JobRecord[]) =>
          records.map((r) => [
            r.job.id,
            r.outcome,
            r.end,
            r.intervals.map((iv) => [iv.start, iv.end, plain(iv.allocation)]),
          ]);
        expect(brief(a.records)).toEqual(brief(b.records));
        expect(untimed(computeMetrics(a))).toEqual(untimed(computeMetrics(b)));
        const streamed = (copy: boolean) => {
          const records: JobRecord[] = [];
          const sim = createSimulation(platform, firstFit(copy), {
            onRecord: (r) => records.push(r),
            metrics: true,
          });
          sim.push(jobs);
          return { records: brief(records), metrics: untimed(sim.end().metrics) };
        };
        const sa = streamed(false);
        expect(sa).toEqual(streamed(true));
        expect(sa.metrics).toEqual(untimed(computeMetrics(a)));
      }),
      { numRuns: 100 },
    );
  });
});
