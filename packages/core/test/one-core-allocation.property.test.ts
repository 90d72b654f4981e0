import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  computeMetrics,
  createJob,
  createPlatform,
  createSimulation,
  identicalPool,
  type JobRecord,
  oneCoreAllocation,
  type Platform,
  type Scheduler,
  simulate,
} from "../src/index.js";
import { runsOf } from "../src/parts.js";
import { briefRecords, plain, untimed } from "./helpers.js";

// `oneCoreAllocation` builds one core on each of the given machines in the form
// `firstFitAllocation` returns (frozen shared parts, with the ranges of neighbouring machines
// from 16 parts on), which the engine, its ledger and the metrics read by ranges. It must be the
// parts a policy would push one by one, and a run started with it must give what the plain parts
// give.

/** Distinct machines of `n`, ascending (up to all of them). */
const arbMachines = (n: number) =>
  fc
    .uniqueArray(fc.integer({ min: 0, max: n - 1 }), { minLength: 1, maxLength: n, size: "max" })
    .map((ms) => ms.sort((a, b) => a - b));

/** The ranges `[first, end)` of neighbouring machines of an ascending list, as pairs. */
const rangesOf = (machines: readonly number[]): number[] => {
  const out: number[] = [];
  for (const m of machines) {
    if (out.length > 0 && out[out.length - 1] === m) out[out.length - 1] = m + 1;
    else out.push(m, m + 1);
  }
  return out;
};

/** One-core machines, or machines of several cores (one core each is taken). */
const arbPlatform = fc.oneof(
  fc.integer({ min: 1, max: 120 }).map((n) => identicalPool(n)),
  fc
    .array(fc.integer({ min: 1, max: 4 }), { minLength: 1, maxLength: 60 })
    .map((cores) => createPlatform({ machines: cores.map((c) => ({ cores: c })) })),
);

describe("oneCoreAllocation", () => {
  it("is one frozen core on each machine, in order, with its ranges from 16 parts on", () => {
    fc.assert(
      fc.property(
        arbPlatform.chain((p) => fc.tuple(fc.constant(p), arbMachines(p.machines.length))),
        ([platform, machines]) => {
          const a = oneCoreAllocation(platform, machines);
          const want = machines.map((m) => ({ machine: m, cores: 1 }));
          expect(plain(a)).toEqual(want);
          expect(Object.isFrozen(a)).toBe(true);
          for (const part of a) expect(Object.isFrozen(part)).toBe(true);
          const runs = runsOf(a);
          if (want.length >= 16) expect(Array.from(runs ?? [])).toEqual(rangesOf(machines));
          else expect(runs).toBeUndefined();
          // a typed array gives the same
          expect(plain(oneCoreAllocation(platform, Int32Array.from(machines)))).toEqual(want);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("a run started with it gives the records and metrics of the same parts pushed one by one", () => {
    const arbJobs = fc.array(
      fc.record({
        submit: fc.integer({ min: 0, max: 200 }),
        runtime: fc.integer({ min: 1, max: 100 }),
        cores: fc.integer({ min: 1, max: 60 }),
        skip: fc.integer({ min: 2, max: 5 }),
      }),
      { minLength: 1, maxLength: 30 },
    );
    // Picks one core on each of the first free machines, passing over every skip-th one (so
    // the picks fall in several ranges), and starts the job on them, built either way.
    const picker = (skips: Map<number, number>, byRanges: boolean): Scheduler => ({
      name: byRanges ? "ranges" : "parts",
      schedule(ctx) {
        const view = ctx.view;
        for (const w of view.waiting) {
          const skip = skips.get(w.job.id)!;
          const picked: number[] = [];
          for (let m = 0; m < view.platform.machines.length && picked.length < w.job.cores; m++) {
            if (view.freeCores(m) > 0 && m % skip !== skip - 1) picked.push(m);
          }
          if (picked.length < w.job.cores) continue;
          const a = oneCoreAllocation(view.platform, picked);
          ctx.start(w.job.id, byRanges ? a : plain(a));
        }
      },
    });
    fc.assert(
      fc.property(arbPlatform, arbJobs, (platform: Platform, specs) => {
        const n = platform.machines.length;
        const skips = new Map<number, number>();
        const jobs = specs
          .filter((s) => s.cores <= n)
          .sort((x, y) => x.submit - y.submit)
          .map((s, i) => {
            skips.set(i + 1, s.skip);
            return createJob({ id: i + 1, submit: s.submit, runtime: s.runtime, cores: s.cores });
          });
        const a = simulate(jobs, platform, picker(skips, true));
        const b = simulate(jobs, platform, picker(skips, false));
        expect(briefRecords(a.records)).toEqual(briefRecords(b.records));
        expect(untimed(computeMetrics(a))).toEqual(untimed(computeMetrics(b)));
        const streamed = (byRanges: boolean) => {
          const records: JobRecord[] = [];
          const sim = createSimulation(platform, picker(skips, byRanges), {
            onRecord: (r) => records.push(r),
            metrics: true,
          });
          sim.push(jobs);
          return { records: briefRecords(records), metrics: untimed(sim.end().metrics) };
        };
        expect(streamed(true)).toEqual(streamed(false));
      }),
      { numRuns: 120 },
    );
  });

  it("the engine refuses it on a busy machine with the words it has for the parts", () => {
    const platform = identicalPool(40);
    const wide = (id: number) => createJob({ id, submit: 0, runtime: 10, cores: 20 });
    const twice = (byRanges: boolean): Scheduler => ({
      name: "twice",
      schedule(ctx) {
        // machines 0-9 and 15-24
        const machines = [...Array(20).keys()].map((k) => (k < 10 ? k : k + 5));
        const a = oneCoreAllocation(ctx.view.platform, machines);
        ctx.start(1, a);
        // the same machines again: machine 0 is busy
        ctx.start(2, byRanges ? a : plain(a));
      },
    });
    const message = (byRanges: boolean) => {
      try {
        simulate([wide(1), wide(2)], platform, twice(byRanges));
      } catch (e) {
        return String(e);
      }
      return "";
    };
    expect(message(true)).toMatch(/machine 0/);
    expect(message(true)).toBe(message(false));
  });

  it("gives the README's example", () => {
    expect(plain(oneCoreAllocation(identicalPool(8), [1, 2, 5]))).toEqual([
      { machine: 1, cores: 1 },
      { machine: 2, cores: 1 },
      { machine: 5, cores: 1 },
    ]);
  });

  it("refuses machines that are not distinct machine indices in ascending order, naming them", () => {
    const p = identicalPool(8);
    const bad: [unknown, RegExp][] = [
      [[], /machines is empty, expected a non-empty array of machine indices, ascending/],
      ["0,2", /machines is "0,2"/],
      [new DataView(new ArrayBuffer(8)), /machines is .*expected a non-empty array/],
      [[2, 2], /machines\[1\] is 2, expected a machine index from 3 to 7/],
      [[3, 1], /machines\[1\] is 1, expected a machine index from 4 to 7/],
      [
        [0, 8],
        /machines\[1\] is 8, expected a machine index from 1 to 7 \(the platform's 8 machines, each once, ascending\)/,
      ],
      [[-1], /machines\[0\] is -1/],
      [[1.5], /machines\[0\] is 1\.5/],
      [[Number.NaN], /machines\[0\] is NaN/],
    ];
    for (const [machines, words] of bad) {
      expect(() => oneCoreAllocation(p, machines as number[])).toThrow(words);
      expect(() => oneCoreAllocation(p, machines as number[])).toThrow(
        /@sched\/core\/oneCoreAllocation/,
      );
    }
    expect(() => oneCoreAllocation({} as Platform, [0])).toThrow(/oneCoreAllocation.*platform/);
  });
});
