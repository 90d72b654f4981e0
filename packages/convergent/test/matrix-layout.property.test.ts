import { createJob, createPlatform, type Job, type Platform } from "@sched/core";
import { arbJobs, arbPlatform } from "@sched/core/testing";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { MatrixJob } from "../src/heuristic.js";
import { IncrementalMatrix } from "../src/incremental.js";
import {
  buildMatrix,
  DEFERRED_ROWS,
  type MatrixInput,
  ROWS_CLEARED,
  rowMeans,
  UNCHECKED_UPDATE,
} from "../src/matrix.js";
import { eligibilityRow, meetsRequirements } from "../src/minimal-requirements.js";
import { PAPER_CONSTANTS, paperHeuristics } from "../src/paper-heuristics.js";
import { PaperIncrementalMatrix } from "../src/paper-incremental.js";
import { planMatrix } from "../src/plan.js";

// The unchecked update keeps its scratch matrix across events and rewrites only the rows that
// do not hold their value already (kept rows in place, kept rows moved up by a copy within the
// matrix, cleared rows reported through ROWS_CLEARED and left at 0 while they are cleared
// again (DEFERRED_ROWS, restored by the caller as the planner does); from scratch: the zeros
// outside a row's
// eligible columns). Against the public update, which writes every row of every event: the
// same matrix, costs and change list, bit for bit, along chains where rows leave, come back
// (rows move down and up), are cleared by the caller, change their requirements (a new job
// object under the same id: other eligible machines), and the clock moves. (The public update
// fills its row buffer with zeros and compares a time-dependent row entry by entry over all
// machines; the unchecked one zeroes what the previous row left and compares the eligible
// machines only when the stored row had the same ones: those are tested too.) And against the
// minimal requirements, at every event: an entry is 0 exactly where the machine is not
// eligible (a row kept for a job whose requirements changed would not be).

const chain = arbPlatform({ shape: "farm", maxMachines: 7 }).chain((platform) =>
  fc.tuple(
    fc.constant(platform),
    arbJobs(platform, { maxJobs: 16, singleMachine: true, readyTimes: false }),
    fc.array(
      fc.record({
        dt: fc.integer({ min: 0, max: 600 }),
        leave: fc.nat(),
        hide: fc.array(fc.nat(), { maxLength: 5 }),
        change: fc.option(fc.tuple(fc.nat(), fc.integer({ min: 1, max: 8 })), { nil: undefined }),
        running: fc.array(fc.nat(), { maxLength: 16 }),
        clear: fc.array(fc.nat({ max: 20 }), { maxLength: 4 }),
      }),
      { minLength: 1, maxLength: 14 },
    ),
  ),
);

type Event = {
  dt: number;
  leave: number;
  hide: number[];
  change: [number, number] | undefined;
  running: number[];
  clear: number[];
};

/** The inputs of the chain: jobs submitted by `now`, minus those gone and those hidden. */
function inputs(platform: Platform, original: readonly Job[], events: readonly Event[]) {
  const cols = platform.machines.length;
  const jobs = original.slice();
  const gone = new Set<number>();
  let now = jobs[0]?.submit ?? 0;
  const eligibility = (r: MatrixJob) => eligibilityRow(r.job, platform);
  return events.map((ev, k) => {
    now += ev.dt;
    if (ev.change !== undefined && jobs.length > 0) {
      // requirements changed: same id, another job object asking for another number of cores
      const at = ev.change[0] % jobs.length;
      jobs[at] = { ...(jobs[at] as Job), cores: ev.change[1] };
    }
    const present = jobs.filter((j) => j.submit <= now && !gone.has(j.id));
    if (present.length > 0 && ev.leave % 3 === 0)
      gone.add((present[ev.leave % present.length] as Job).id);
    const hidden = new Set(ev.hide.map((h) => present[h % Math.max(1, present.length)]?.id));
    const used = new Set<number>();
    const rows = present
      .filter((j) => !gone.has(j.id) && !hidden.has(j.id))
      .map((job, i): MatrixJob => {
        const m = (ev.running[i] ?? cols) % (cols + 1);
        if (m < cols && !used.has(m) && meetsRequirements(job, platform, m)) {
          used.add(m);
          return { job, progress: Math.min(0.9, 0.1 * (k + 1)), machine: m };
        }
        return { job, progress: 0, machine: -1 };
      });
    const previous = Int32Array.from(rows, (r) => r.machine);
    const input: MatrixInput = { now, platform, jobs: rows, previous, eligibility };
    return { input, clear: ev.clear };
  });
}

/** Runs the chain through both updates and compares every event bit for bit. */
function agree(
  make: () => PaperIncrementalMatrix,
  platform: Platform,
  jobs: readonly Job[],
  events: readonly Event[],
): void {
  const reused = make();
  const plain = make();
  // Jobs cleared at every event (as the pre-matching tends to), plus each event's own.
  const sticky = new Set(events[0]?.clear ?? []);
  for (const { input, clear } of inputs(platform, jobs, events)) {
    const got = reused[UNCHECKED_UPDATE](input);
    const want = plain.update(input);
    expect(got.matrix.rows).toBe(want.matrix.rows);
    expect(got.shift).toBe(want.shift);
    expect(got.changedRows).toEqual(want.changedRows);
    const g = got.matrix.weights;
    const w = want.matrix.weights;
    const rows = got.matrix.rows;
    const cols = got.matrix.cols;
    expect(g.length).toBe(w.length);
    input.jobs.forEach((r, i) => {
      const e = eligibilityRow(r.job, input.platform);
      for (let m = 0; m < cols; m++) expect(w[i * cols + m]! > 0).toBe(e[m] === 1);
    });
    // The caller's part, as the planner's: clear rows (in place), restore the deferred rows it
    // does not clear, and report the cleared ones.
    const ids = new Set([...sticky, ...clear]);
    const zeroed: number[] = [];
    input.jobs.forEach((r, i) => {
      if (ids.has(r.job.id)) zeroed.push(i);
    });
    const deferred = reused[DEFERRED_ROWS]();
    for (const i of deferred?.rows ?? []) {
      expect(g.subarray(i * cols, (i + 1) * cols).every((x) => x === 0)).toBe(true);
      if (!zeroed.includes(i)) deferred?.restore(i);
    }
    for (const i of zeroed) {
      if (deferred?.mask[i] !== 1) g.fill(0, i * cols, (i + 1) * cols);
      w.fill(0, i * cols, (i + 1) * cols);
    }
    for (let k = 0; k < w.length; k++) expect(Object.is(g[k], w[k])).toBe(true);
    expect(rows).toBe(input.jobs.length);
    for (let i = 0; i < want.costs.length; i++)
      expect(Object.is(got.costs[i], want.costs[i])).toBe(true);
    // the lazily assembled eligibility is the public update's
    expect(Array.from(got.matrix.context.eligible)).toEqual(
      Array.from(want.matrix.context.eligible),
    );
    expect(Array.from(got.matrix.context.eligibleCount)).toEqual(
      Array.from(want.matrix.context.eligibleCount),
    );
    reused[ROWS_CLEARED](zeroed);
  }
}

describe("PaperIncrementalMatrix's unchecked update (scratch matrix kept across events)", () => {
  it("incremental: the public update's matrix, costs and changed rows, bit for bit", () => {
    fc.assert(
      fc.property(
        chain,
        fc.constantFrom(0, 0.05, 0.5),
        fc.constantFrom(50, 500, 36_000),
        ([platform, jobs, events], tolerance, horizon) => {
          const make = () =>
            new PaperIncrementalMatrix({ constants: PAPER_CONSTANTS, tolerance, horizon });
          agree(make, platform, jobs, events);
        },
      ),
      { numRuns: 150 },
    );
  });

  it("from scratch: the public update's matrix and costs, bit for bit", () => {
    fc.assert(
      fc.property(chain, ([platform, jobs, events]) => {
        const make = () =>
          new PaperIncrementalMatrix({ constants: PAPER_CONSTANTS, incremental: false });
        agree(make, platform, jobs, events);
      }),
      { numRuns: 100 },
    );
  });
});

/**
 * Two speed-1 machines, of 1 and 2 cores: a job that goes from 1 core to 2 (same id) loses m0
 * and keeps m1, the case of a row whose job changed.
 */
function oneAndTwoCores() {
  return createPlatform({
    machines: [
      { cores: 1, speed: 1 },
      { cores: 2, speed: 1 },
    ],
    referenceSpeed: 1,
  });
}

describe("PaperIncrementalMatrix, a row whose job changed (same id, other requirements)", () => {
  it("is computed anew, not kept within the tolerance: 0 on the machine it lost", () => {
    // No deadline: the row's drift test alone would keep it (the clock and the queue did not
    // move), with its entry on m0, where the job asking for 2 cores cannot run.
    const platform = oneAndTwoCores();
    const before = createJob({ id: 0, submit: 0, runtime: 100, cores: 1 });
    const after = { ...before, cores: 2 };
    for (const unchecked of [false, true]) {
      const source = new PaperIncrementalMatrix({ constants: PAPER_CONSTANTS });
      for (const job of [before, after]) {
        const input: MatrixInput = { now: 0, platform, jobs: [{ job, progress: 0, machine: -1 }] };
        const got = unchecked ? source[UNCHECKED_UPDATE](input) : source.update(input);
        expect(got.changedRows).toEqual([0]);
        const w = got.matrix.weights;
        expect([w[0]! > 0, w[1]! > 0]).toEqual(job === before ? [true, true] : [false, true]);
      }
    }
  });

  it("is computed anew when time-dependent too (it was eligible on more)", () => {
    // dl = 3 (the deadline part moves with the clock) before and after: deadline 150, work 100
    // on speed-1 machines, k = 1.3. A tolerance so large that only the machine the job lost
    // (m0, 1 core, after the job asks for 2) can refuse the stored row.
    const platform = oneAndTwoCores();
    const before = createJob({ id: 0, submit: 0, runtime: 100, cores: 1, deadline: 150 });
    const after = { ...before, cores: 2 };
    const make = () => new PaperIncrementalMatrix({ constants: PAPER_CONSTANTS, tolerance: 1000 });
    const reused = make();
    const plain = make();
    for (const job of [before, after]) {
      const input: MatrixInput = { now: 0, platform, jobs: [{ job, progress: 0, machine: -1 }] };
      const got = reused[UNCHECKED_UPDATE](input);
      const want = plain.update(input);
      expect(got.changedRows).toEqual([0]);
      expect(Array.from(got.matrix.weights)).toEqual(Array.from(want.matrix.weights));
    }
  });
});

describe("IncrementalMatrix, a row whose job changed (same id, other requirements)", () => {
  it("is replaced when the job lost a machine, even with every other entry within the tolerance", () => {
    // The generic source keeps a row by comparing it with the fresh one entry by entry: an
    // entry now ineligible (0) where the stored row is > 0 must refuse it. Identical machines,
    // no deadline, no input: the entry on m1 does not move.
    const platform = oneAndTwoCores();
    const before = createJob({ id: 0, submit: 0, runtime: 100, cores: 1 });
    const after = { ...before, cores: 2 };
    const source = new IncrementalMatrix({ heuristics: paperHeuristics(), tolerance: 0.05 });
    for (const job of [before, after]) {
      const jobs = [{ job, progress: 0, machine: -1 }];
      const got = source.update({ now: 0, platform, jobs });
      const want = buildMatrix({ now: 0, platform, jobs }, paperHeuristics());
      expect(got.changedRows).toEqual([0]);
      expect(Array.from(got.matrix.weights, (v) => v > 0)).toEqual(
        Array.from(want.weights, (v) => v > 0),
      );
    }
  });
});

describe("planMatrix with deferred rows (left at 0 by the source)", () => {
  it("plans as with every row written: restores the kept ones, leaves the cleared ones at 0", () => {
    fc.assert(
      fc.property(
        arbPlatform({ shape: "farm", maxMachines: 6 }).chain((platform) =>
          fc.tuple(
            fc.constant(platform),
            arbJobs(platform, { maxJobs: 12, singleMachine: true, readyTimes: false }),
            fc.array(fc.boolean(), { maxLength: 12 }),
            fc.constantFrom("mis" as const, "mfs" as const),
          ),
        ),
        ([platform, jobs, defer, matcher]) => {
          const rows = jobs.map((job): MatrixJob => ({ job, progress: 0, machine: -1 }));
          const now = jobs[jobs.length - 1]?.submit ?? 0;
          const full = buildMatrix({ now, platform, jobs: rows }, paperHeuristics());
          const costs = rowMeans(full.weights, full.rows, full.cols);
          const { cols } = full;
          const plain = planMatrix(
            { ...full, weights: full.weights.slice() },
            { matcher, costs, clearInPlace: true },
          );
          const weights = full.weights.slice();
          const mask = new Uint8Array(full.rows);
          const later: number[] = [];
          for (let i = 0; i < full.rows; i++) {
            if (defer[i] !== true) continue;
            later.push(i);
            mask[i] = 1;
            weights.fill(0, i * cols, (i + 1) * cols);
          }
          const deferred = {
            rows: later,
            mask,
            restore(i: number) {
              weights.set(full.weights.subarray(i * cols, (i + 1) * cols), i * cols);
              mask[i] = 0;
            },
          };
          const got = planMatrix(
            { ...full, weights },
            { matcher, costs, clearInPlace: true },
            deferred,
          );
          expect(got.cleared).toEqual(plain.cleared);
          expect(Array.from(got.rowToCol)).toEqual(Array.from(plain.rowToCol));
          for (let k = 0; k < weights.length; k++)
            expect(Object.is(got.weights[k], plain.weights[k])).toBe(true);
        },
      ),
      { numRuns: 100 },
    );
  });
});

describe("PaperIncrementalMatrix's unchecked update after one that threw", () => {
  it("trusts nothing of the matrix the failed update was writing", () => {
    // base 1e308: a row on one machine is finite, a row on more overflows (refused). Job a
    // runs on m0 only (the license), c on m2 only (2 cores), `bad` on all three.
    const platform = createPlatform({
      machines: [{ cores: 1 }, { cores: 1 }, { cores: 2 }],
      licenses: [{ name: "L", copies: 1, machines: [0] }],
      referenceSpeed: 1,
    });
    const job = (id: number, cores: number, licenses?: Record<string, number>): MatrixJob => ({
      job: createJob({ id, submit: id, runtime: 100, cores, ...(licenses ? { licenses } : {}) }),
      progress: 0,
      machine: -1,
    });
    const [a, x, y, c, bad] = [job(0, 1, { L: 1 }), job(1, 2), job(4, 2), job(2, 2), job(3, 1)];
    const constants = { ...PAPER_CONSTANTS, base: 1e308 };
    const source = new PaperIncrementalMatrix({ constants });
    const plain = new PaperIncrementalMatrix({ constants });
    source[UNCHECKED_UPDATE]({ now: 10, platform, jobs: [a, x, y] }); // the same buffer next
    // writes c over a's row 0, then throws at `bad` before reaching a
    expect(() => source[UNCHECKED_UPDATE]({ now: 10, platform, jobs: [c, bad, a] })).toThrow(
      /overflow/,
    );
    const next: MatrixInput = { now: 10, platform, jobs: [a] };
    const got = source[UNCHECKED_UPDATE](next);
    const want = plain.update(next);
    expect(Array.from(got.matrix.weights)).toEqual(Array.from(want.matrix.weights));
  });
});

describe("PaperIncrementalMatrix from scratch, along a chain", () => {
  // A from-scratch source keeps only per-job data across events (a job's eligible machines,
  // Input row, license indices), which must be the job's as it is now: the chains change some
  // jobs' requirements under the same id (another job object), and jobs leave and come back.
  // At every event, the same matrix and costs, bit for bit, as a new source given that event
  // alone. (Fails when a job's cached data is used for another job object under its id.)
  it("gives at every event a new source's matrix and costs, bit for bit", () => {
    fc.assert(
      fc.property(chain, ([platform, jobs, events]) => {
        const make = () =>
          new PaperIncrementalMatrix({ constants: PAPER_CONSTANTS, incremental: false });
        const chained = make();
        for (const { input } of inputs(platform, jobs, events)) {
          const got = chained[UNCHECKED_UPDATE](input);
          const want = make()[UNCHECKED_UPDATE](input);
          const g = got.matrix.weights;
          const w = want.matrix.weights;
          expect(g.length).toBe(w.length);
          for (let k = 0; k < w.length; k++) expect(Object.is(g[k], w[k])).toBe(true);
          for (let i = 0; i < want.costs.length; i++)
            expect(Object.is(got.costs[i], want.costs[i])).toBe(true);
        }
      }),
      { numRuns: 150 },
    );
  });
});
