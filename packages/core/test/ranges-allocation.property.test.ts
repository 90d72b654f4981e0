import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  computeMetrics,
  createJob,
  createPlatform,
  createSimulation,
  identicalPool,
  type JobRecord,
  type Platform,
  rangesAllocation,
  type Scheduler,
  simulate,
} from "../src/index.js";
import { runsOf } from "../src/parts.js";
import { briefRecords, plain, untimed } from "./helpers.js";

// `rangesAllocation` builds one core per machine of the given ranges in the form
// `firstFitAllocation` returns (frozen shared parts, with their runs from 16 parts on), which
// the engine, its ledger and the metrics read by ranges. It must be the parts a policy would
// push one by one, and a run started with it must give what the plain parts give.

/** Ascending disjoint ranges (`[first, end)` pairs) over `n` machines, from cut points. */
const arbRanges = (n: number) =>
  fc
    .uniqueArray(fc.integer({ min: 0, max: n }), { minLength: 2, maxLength: Math.min(n + 1, 24) })
    .map((cuts) => {
      const sorted = cuts.sort((a, b) => a - b);
      const out: number[] = [];
      // pairs of neighbouring cuts: [c0, c1), [c2, c3), ... (an odd last cut is dropped)
      for (let i = 0; i + 1 < sorted.length; i += 2) out.push(sorted[i]!, sorted[i + 1]!);
      return out;
    })
    .filter((r) => r.length >= 2);

/** One-core machines, or machines of several cores (one core each is taken). */
const arbPlatform = fc.oneof(
  fc.integer({ min: 1, max: 120 }).map((n) => identicalPool(n)),
  fc
    .array(fc.integer({ min: 1, max: 4 }), { minLength: 1, maxLength: 60 })
    .map((cores) => createPlatform({ machines: cores.map((c) => ({ cores: c })) })),
);

describe("rangesAllocation", () => {
  it("is one frozen core per machine of the ranges, in order, with its runs from 16 parts on", () => {
    fc.assert(
      fc.property(
        arbPlatform.chain((p) => fc.tuple(fc.constant(p), arbRanges(p.machines.length))),
        ([platform, ranges]) => {
          const a = rangesAllocation(platform, ranges);
          const want: { machine: number; cores: number }[] = [];
          for (let r = 0; r < ranges.length; r += 2) {
            for (let m = ranges[r]!; m < ranges[r + 1]!; m++) want.push({ machine: m, cores: 1 });
          }
          expect(plain(a)).toEqual(want);
          expect(Object.isFrozen(a)).toBe(true);
          for (const part of a) expect(Object.isFrozen(part)).toBe(true);
          const runs = runsOf(a);
          if (want.length >= 16) expect(Array.from(runs ?? [])).toEqual(ranges);
          else expect(runs).toBeUndefined();
          // a typed array of ranges gives the same
          expect(plain(rangesAllocation(platform, Int32Array.from(ranges)))).toEqual(want);
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
          const ranges: number[] = [];
          for (const m of picked) {
            if (ranges.length > 0 && ranges[ranges.length - 1] === m)
              ranges[ranges.length - 1] = m + 1;
            else ranges.push(m, m + 1);
          }
          const a = rangesAllocation(view.platform, ranges);
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
        const a = rangesAllocation(ctx.view.platform, [0, 10, 15, 25]);
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
    expect(plain(rangesAllocation(identicalPool(8), [1, 3, 5, 6]))).toEqual([
      { machine: 1, cores: 1 },
      { machine: 2, cores: 1 },
      { machine: 5, cores: 1 },
    ]);
  });

  it("refuses ranges that are not ascending, disjoint pairs of machine indices, naming them", () => {
    const p = identicalPool(8);
    const bad: [unknown, RegExp][] = [
      [[], /ranges is .* expected an array of \[first, end\) machine pairs/],
      [[1, 2, 3], /of length 3/],
      ["0,2", /ranges is "0,2"/],
      [[2, 2], /ranges\[0\.\.1\] is \[2, 2\), expected integers with 0 <= first < end <= 8/],
      [[0, 9], /ranges\[0\.\.1\] is \[0, 9\)/],
      [[-1, 2], /ranges\[0\.\.1\] is \[-1, 2\)/],
      [[0, 4, 3, 6], /ranges\[2\.\.3\] is \[3, 6\), expected integers with 4 <= first/],
      [[0, 1.5], /ranges\[0\.\.1\] is \[0, 1\.5\)/],
      [[0, Number.NaN], /ranges\[0\.\.1\] is \[0, NaN\)/],
    ];
    for (const [ranges, words] of bad) {
      expect(() => rangesAllocation(p, ranges as number[])).toThrow(words);
      expect(() => rangesAllocation(p, ranges as number[])).toThrow(
        /@sched\/core\/rangesAllocation/,
      );
    }
    expect(() => rangesAllocation({} as Platform, [0, 1])).toThrow(/rangesAllocation.*platform/);
  });
});
