import type { Job, RunningJob, SchedulerView, WaitingJob } from "@sched/core";
import { arbJobs, arbPlatform } from "@sched/core/testing";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { MatrixJob } from "../src/heuristic.js";
import { eligibilityRow } from "../src/minimal-requirements.js";
import {
  type HeuristicConstants,
  type HeuristicReadings,
  PAPER_CONSTANTS,
} from "../src/paper-heuristics.js";
import { PaperIncrementalMatrix } from "../src/paper-incremental.js";
import { convergentPriority } from "../src/priority.js";
import { farm, job, rankingView } from "./helpers.js";

// convergentPriority ranks with the paper's heuristics through PaperIncrementalMatrix's
// [UNCHECKED_RANK] (rows in the view's order, costs of the waiting jobs only, per-job data kept
// between events). Its values must be those of the plain from-scratch computation: the rows
// sorted by submit time then id, the public `update` of a from-scratch matrix, bit for bit.

/** The waiting jobs' costs by id, computed plainly from scratch. */
function reference(
  view: SchedulerView,
  constants: Required<HeuristicConstants>,
  readings: Required<HeuristicReadings>,
): Map<number, number> {
  const rows: MatrixJob[] = [
    ...view.running.map((r) => ({
      job: r.job,
      progress: r.progress,
      machine: r.allocation[0]?.machine ?? -1,
    })),
    ...view.waiting.map((w) => ({ job: w.job, progress: w.progress, machine: -1 })),
  ].sort((a, b) => a.job.submit - b.job.submit || a.job.id - b.job.id);
  const matrix = new PaperIncrementalMatrix({ constants, readings, incremental: false });
  const { costs } = matrix.update({
    now: view.now,
    platform: view.platform,
    jobs: rows,
    previous: Int32Array.from(rows, (r) => r.machine),
    eligibility: (r) => eligibilityRow(r.job, view.platform),
  });
  const out = new Map<number, number>();
  rows.forEach((r, i) => {
    if (r.machine < 0) out.set(r.job.id, costs[i] as number);
  });
  return out;
}

/**
 * convergentPriority as it was before its ranking per event (2026-11-28): the costs of
 * `reference` cached by id on the view's `waiting` array and clock, computed anew for a job not
 * in the cache; 0 for a job still not there.
 */
function plainPriority(
  constants: Required<HeuristicConstants>,
  readings: Required<HeuristicReadings>,
): (w: WaitingJob, view: SchedulerView) => number {
  let cache: { waiting: readonly WaitingJob[]; now: number; byId: Map<number, number> } | undefined;
  return (w, view) => {
    if (
      cache === undefined ||
      cache.waiting !== view.waiting ||
      cache.now !== view.now ||
      !cache.byId.has(w.job.id)
    )
      cache = { waiting: view.waiting, now: view.now, byId: reference(view, constants, readings) };
    return cache.byId.get(w.job.id) ?? 0;
  };
}

const readingsArb = fc.record({
  deadlineLate: fc.constantFrom("max" as const, "min" as const),
  deadlineAllLate: fc.constantFrom("max" as const, "zero" as const),
  waitSup: fc.constantFrom("global" as const, "row" as const),
});

const constantsArb = fc.oneof(
  fc.constant(PAPER_CONSTANTS),
  fc
    .record({
      base: fc.constantFrom(1, 0.5),
      licenses: fc.constantFrom(0, 0.02, 3),
      antiAging: fc.constantFrom(0, 0.05, 1),
      overhead: fc.constantFrom(8, 0, 1e6),
    })
    .map((c) => ({ ...PAPER_CONSTANTS, ...c })),
);

const eventArb = fc.record({
  dt: fc.integer({ min: 0, max: 60 }),
  leave: fc.nat(),
  starts: fc.array(fc.nat(), { maxLength: 10 }),
  preempted: fc.nat(),
  // replace one present job's object by another with the same id (changed requirements)
  replace: fc.option(fc.nat(), { nil: undefined }),
  shuffle: fc.nat(),
  reverse: fc.boolean(),
});

// Many jobs on few machines, same-submit ties (gap 0..2), licenses, deadlines; some with input.
const scenario = fc.tuple(readingsArb, constantsArb).chain(([readings, constants]) =>
  arbPlatform({ maxMachines: 5 }).chain((platform) =>
    fc.record({
      readings: fc.constant(readings),
      constants: fc.constant(constants),
      platform: fc.constant(platform),
      jobs: arbJobs(platform, { maxJobs: 30, maxGap: 2, readyTimes: false }).chain((jobs) =>
        fc
          .array(fc.option(fc.integer({ min: 1, max: 800 }), { nil: undefined }), {
            minLength: jobs.length,
            maxLength: jobs.length,
          })
          .map((sizes) =>
            jobs.map((j, k): Job => {
              const size = sizes[k];
              return size === undefined || k % 2 === 0
                ? j
                : { ...j, input: [{ size, machine: size % platform.machines.length }] };
            }),
          ),
      ),
      events: fc.array(eventArb, { minLength: 1, maxLength: 15 }),
    }),
  ),
);

describe("convergentPriority (the paper's heuristics)", () => {
  it("equals the plain from-scratch ranking (Object.is) along chains of events: arrivals, starts, ends, same-submit ties, changed jobs, any call order", () => {
    fc.assert(
      fc.property(scenario, ({ readings, constants, platform, jobs, events }) => {
        const priority = convergentPriority({ constants, readings });
        // as the engine calls it: one waiting array, changed in place
        const inPlace = convergentPriority({ constants, readings });
        const plain = plainPriority(constants, readings);
        const queue: WaitingJob[] = [];
        const cols = platform.machines.length;
        const current = new Map<number, Job>(jobs.map((j) => [j.id, j]));
        const gone = new Set<number>();
        const runningIds = new Map<number, { machine: number; progress: number }>();
        let now = jobs[0]?.submit ?? 0;
        events.forEach((ev, e) => {
          now += ev.dt;
          const present = jobs.filter((j) => j.submit <= now && !gone.has(j.id)).map((j) => j.id);
          // a job leaves (ends, running or not)
          if (present.length > 0 && ev.leave % 2 === 0) {
            const id = present[ev.leave % present.length] as number;
            gone.add(id);
            runningIds.delete(id);
          }
          const alive = present.filter((id) => !gone.has(id));
          if (ev.replace !== undefined && alive.length > 0) {
            const id = alive[ev.replace % alive.length] as number;
            const j = current.get(id) as Job;
            current.set(id, { ...j, cores: 1, deadline: j.deadline ?? now + 100 });
          }
          // some jobs start (on their index's machine), one running job may be preempted
          for (const s of ev.starts) {
            const id = alive[s % Math.max(1, alive.length)];
            if (id !== undefined && !runningIds.has(id))
              runningIds.set(id, { machine: s % cols, progress: Math.min(0.95, 0.07 * (e + 1)) });
          }
          const runningList = [...runningIds.keys()].filter((id) => alive.includes(id));
          if (runningList.length > 0 && ev.preempted % 3 === 0)
            runningIds.delete(runningList[ev.preempted % runningList.length] as number);
          const running: RunningJob[] = [];
          const waiting: WaitingJob[] = [];
          for (const id of alive) {
            const j = current.get(id) as Job;
            const r = runningIds.get(id);
            if (r === undefined) {
              waiting.push({ job: j, progress: id % 4 === 0 ? 0.25 : 0, preemptions: 0 });
            } else {
              running.push({
                job: j,
                allocation: [{ machine: r.machine, cores: j.cores }],
                start: now,
                progressAtStart: 0,
                progress: r.progress,
                estimatedEnd: now + j.estimate,
              });
            }
          }
          // running jobs in any order; the queue in queue order, sometimes not
          const k = ev.shuffle % (running.length + 1);
          running.push(...running.splice(0, k));
          if (ev.shuffle % 5 === 0) waiting.reverse();
          const view = rankingView(platform, now, running, waiting);
          const expected = reference(view, constants, readings);
          const asked = ev.reverse ? [...waiting].reverse() : waiting;
          for (const w of asked) expect(priority(w, view)).toBe(expected.get(w.job.id));
          // a job not waiting (running, or made up) ranks 0
          for (const r of running) expect(priority({ ...r, preemptions: 0 }, view)).toBe(0);
          // the same waiting array later (an event where no job arrived or started)
          const later = rankingView(platform, now + 1 + ev.dt, running, waiting);
          const expectedLater = reference(later, constants, readings);
          for (const w of waiting) expect(priority(w, later)).toBe(expectedLater.get(w.job.id));
          // a new waiting array (same jobs, same clock as the first view): the same values
          const again = rankingView(platform, now, running, [...waiting]);
          for (const w of waiting) expect(priority(w, again)).toBe(expected.get(w.job.id));
          // The engine's way: the same array at every event, changed in place, and a second
          // call at the same clock after a job started, where the cache by id answered from the
          // first call's costs (and anew for a job it did not have).
          queue.length = 0;
          queue.push(...waiting);
          const first = rankingView(platform, now, running, queue);
          for (const w of asked) expect(inPlace(w, first)).toBe(plain(w, first));
          const started = queue[ev.leave % Math.max(1, queue.length)];
          if (started !== undefined && ev.starts.length > 0) {
            queue.splice(queue.indexOf(started), 1);
            const second = rankingView(
              platform,
              now,
              [
                ...running,
                {
                  job: started.job,
                  allocation: [{ machine: 0, cores: started.job.cores }],
                  start: now,
                  progressAtStart: 0,
                  progress: 0,
                  estimatedEnd: now + started.job.estimate,
                },
              ],
              queue,
            );
            for (const w of [...queue, started]) expect(inPlace(w, second)).toBe(plain(w, second));
          }
        });
      }),
      { numRuns: 200 },
    );
  });

  it("equals the plain ranking on many machines of one speed (rows of one repeated entry, summed without reading them), whatever their cores", () => {
    const manyMachines = fc.record({
      readings: readingsArb,
      constants: constantsArb,
      machines: fc.integer({ min: 1, max: 3000 }),
      cores: fc.array(fc.constantFrom(1, 2, 3, 4, 8, 16), { minLength: 1, maxLength: 4 }),
      speed: fc.oneof(
        fc.constantFrom(1, 2.5, 0.3),
        fc.double({ min: 0.01, max: 100, noNaN: true }),
      ),
      // one machine of another speed: no longer a row of one entry
      odd: fc.boolean(),
      jobs: fc.array(
        fc.record({
          cores: fc.integer({ min: 1, max: 20 }),
          runtime: fc.integer({ min: 1, max: 100_000 }),
          submit: fc.integer({ min: 0, max: 5_000 }),
          deadline: fc.option(fc.integer({ min: 1, max: 200_000 }), { nil: undefined }),
          running: fc.boolean(),
        }),
        { minLength: 1, maxLength: 25 },
      ),
      now: fc.integer({ min: 5_000, max: 50_000 }),
    });
    fc.assert(
      fc.property(manyMachines, (c) => {
        const platform = farm({
          machines: Array.from({ length: c.machines }, (_, m) => ({
            cores: c.cores[m % c.cores.length] as number,
            speed: c.odd && m === c.machines - 1 ? c.speed * 1.5 : c.speed,
          })),
        });
        const running: RunningJob[] = [];
        const waiting: WaitingJob[] = [];
        c.jobs.forEach((spec, id) => {
          const j = job({
            id,
            cores: spec.cores,
            runtime: spec.runtime,
            submit: spec.submit,
            ...(spec.deadline === undefined ? {} : { deadline: spec.submit + spec.deadline }),
          });
          if (spec.running && spec.cores <= Math.max(...c.cores))
            running.push({
              job: j,
              allocation: [{ machine: id % c.machines, cores: j.cores }],
              start: c.now,
              progressAtStart: 0,
              progress: 0.5,
              estimatedEnd: c.now + j.estimate,
            });
          else waiting.push({ job: j, progress: 0, preemptions: 0 });
        });
        const priority = convergentPriority({ constants: c.constants, readings: c.readings });
        for (const now of [c.now, c.now + 977]) {
          const view = rankingView(platform, now, running, waiting);
          const expected = reference(view, c.constants, c.readings);
          for (const w of waiting) expect(priority(w, view)).toBe(expected.get(w.job.id));
        }
      }),
      { numRuns: 60 },
    );
  });

  it("floors every entry at 1e-9 as the plain ranking does, on machines of one speed, with negative constants", () => {
    // Constants may be negative (only base must be > 0): an old job's anti-aging, a negative
    // wait minimization or input can take every entry below the floor. On identical machines
    // the row is one repeated entry, summed without reading the row: floored all the same.
    const negative = fc.record({
      readings: readingsArb,
      constants: fc
        .record({
          antiAging: fc.constantFrom(-1, -0.05, 0.02),
          waitMinimization: fc.constantFrom(4, -3),
          input: fc.constantFrom(3, -2),
          deadlineMin: fc.constantFrom(0.1, -5),
        })
        .map((c) => ({ ...PAPER_CONSTANTS, ...c })),
      machines: fc.integer({ min: 1, max: 300 }),
      speed: fc.constantFrom(1, 2.5, 0.3),
      jobs: fc.array(
        fc.record({
          runtime: fc.integer({ min: 1, max: 100_000 }),
          submit: fc.integer({ min: 0, max: 5_000 }),
          deadline: fc.option(fc.integer({ min: 1, max: 200_000 }), { nil: undefined }),
        }),
        { minLength: 1, maxLength: 8 },
      ),
      now: fc.integer({ min: 5_000, max: 50_000 }),
    });
    fc.assert(
      fc.property(negative, (c) => {
        const platform = farm({
          machines: Array.from({ length: c.machines }, () => ({ cores: 1, speed: c.speed })),
        });
        const waiting: WaitingJob[] = c.jobs.map((spec, id) => ({
          job: job({
            id,
            runtime: spec.runtime,
            submit: spec.submit,
            ...(spec.deadline === undefined ? {} : { deadline: spec.submit + spec.deadline }),
          }),
          progress: 0,
          preemptions: 0,
        }));
        const priority = convergentPriority({ constants: c.constants, readings: c.readings });
        const view = rankingView(platform, c.now, [], waiting);
        const expected = reference(view, c.constants, c.readings);
        for (const w of waiting) expect(priority(w, view)).toBe(expected.get(w.job.id));
      }),
      { numRuns: 80 },
    );
    // by hand: anti-aging -1, submitted 1,000 s ago: every entry is 1 + 4 + 3 - 4 - 1000 < 0
    const platform = farm({ machines: [{ speed: 1 }, { speed: 1 }, { speed: 1 }] });
    const w: WaitingJob = { job: job({ id: 1, submit: 0 }), progress: 0, preemptions: 0 };
    const view = rankingView(platform, 1000, [], [w]);
    const priority = convergentPriority({ constants: { ...PAPER_CONSTANTS, antiAging: -1 } });
    expect(priority(w, view)).toBe(1e-9);
  });

  it("names the job whose row overflows, a running one included (the sorted computation's error)", () => {
    const platform = farm();
    // anti-aging 1e300: the running job, submitted long ago, overflows; the waiting one does not
    const old = job({ id: 7, submit: 0, estimate: 10 });
    const fresh = job({ id: 3, submit: 1e10, estimate: 10 });
    const running: RunningJob[] = [
      {
        job: old,
        allocation: [{ machine: 0, cores: 1 }],
        start: 0,
        progressAtStart: 0,
        progress: 0.5,
        estimatedEnd: 10,
      },
    ];
    const view = rankingView(platform, 1e10, running, [
      { job: fresh, progress: 0, preemptions: 0 },
    ]);
    const constants = { ...PAPER_CONSTANTS, antiAging: 1e300 };
    const priority = convergentPriority({ constants });
    expect(() => priority(view.waiting[0] as WaitingJob, view)).toThrow(
      /options\.constants.*make job 7's row of the matrix sum to Infinity/,
    );
    // without the running job, the waiting one is ranked
    const alone = rankingView(platform, 1e10, [], [{ job: fresh, progress: 0, preemptions: 0 }]);
    expect(Number.isFinite(priority(alone.waiting[0] as WaitingJob, alone))).toBe(true);
  });
});

describe("convergentPriority's license weights", () => {
  it("sum the copies asked for in submit order when the sums round (beyond 2^53 in all)", () => {
    const platform = farm({ licenses: [{ name: "f", kind: "floating", copies: 2 ** 31 - 1 }] });
    // The total asked for passes 2^53, so its sums round: in submit order (a, b, c, d) the
    // waiting jobs' weights differ in their last bits from those of the view's order (c, d
    // running first), and so do their priorities.
    const most = Number.MAX_SAFE_INTEGER - 1;
    const a = job({ id: 1, submit: 1, estimate: 10, licenses: { f: 99 } });
    const b = job({ id: 2, submit: 2, estimate: 10, licenses: { f: 99 } });
    const c = job({ id: 3, submit: 5, estimate: 10, licenses: { f: most } });
    const d = job({ id: 4, submit: 6, estimate: 10, licenses: { f: most } });
    const running: RunningJob[] = [c, d].map((j) => ({
      job: j,
      allocation: [{ machine: 1, cores: 1 }],
      start: 6,
      progressAtStart: 0,
      progress: 0.5,
      estimatedEnd: 11,
    }));
    const waiting = [a, b].map((j) => ({ job: j, progress: 0, preemptions: 0 }));
    const view = rankingView(platform, 8, running, waiting);
    const constants = { ...PAPER_CONSTANTS, licenses: 1e15 };
    const readings = { deadlineLate: "max", deadlineAllLate: "max", waitSup: "global" } as const;
    const expected = reference(view, constants, readings);
    const priority = convergentPriority({ constants, readings });
    for (const w of waiting) expect(priority(w, view)).toBe(expected.get(w.job.id));
  });
});

describe("convergentPriority's per-job data", () => {
  it("checks a job as fitsMachine does, also when an earlier job had as many cores", () => {
    const platform = farm();
    const priority = convergentPriority();
    const first = { job: job({ id: 1, submit: 0 }), progress: 0, preemptions: 0 };
    const view = rankingView(platform, 5, [], [first]);
    expect(Number.isFinite(priority(first, view))).toBe(true);
    // same cores, a field fitsMachine refuses
    const bad = {
      job: { ...job({ id: 2, submit: 1 }), benchmark: -1 },
      progress: 0,
      preemptions: 0,
    };
    const next = rankingView(platform, 6, [], [first, bad]);
    expect(() => priority(bad, next)).toThrow(/job\.benchmark/);
  });
});

describe("convergentPriority at the edges of its per-row cases (hand-built, against the plain ranking)", () => {
  const w = (spec: Parameters<typeof job>[0]): WaitingJob => ({
    job: job(spec),
    progress: 0,
    preemptions: 0,
  });
  /** Every waiting job's priority along `views` (one ranking), Object.is the plain one's. */
  const agree = (
    views: SchedulerView[],
    constants = PAPER_CONSTANTS,
    readings: Required<HeuristicReadings> = {
      deadlineLate: "max",
      deadlineAllLate: "max",
      waitSup: "global",
    },
  ) => {
    const priority = convergentPriority({ constants, readings });
    for (const view of views) {
      const want = reference(view, constants, readings);
      for (const x of view.waiting) expect(priority(x, view)).toBe(want.get(x.job.id));
    }
  };
  it("a job due exactly when its slowest machine's k-overestimate says (f1 = Min), or when its fastest ends (late: min)", () => {
    // farm(): speeds 1, 2, 4. k = 1: Min everywhere iff now <= deadline - 2 * 10.
    // Deadline (and a tiny base) alone, Min 0.3, Max 7: equation (1) with f1 = Min on three machines rounds to
    // 0.29999999999999993, the constant case gives Min itself.
    const k1 = {
      ...PAPER_CONSTANTS,
      ...{ base: 2 ** -30, licenses: 0, input: 0, waitMinimization: 0, antiAging: 0 },
      ...{ deadlineK: 1, deadlineMin: 0.3, deadlineMax: 7 },
    };
    agree([rankingView(farm(), 10, [], [w({ id: 1, estimate: 10, deadline: 30 })])], k1);
    // late everywhere iff now + 40 / 4 > deadline: on time on m2 at deadline 20 exactly
    const min = { deadlineLate: "min", deadlineAllLate: "max", waitSup: "global" } as const;
    agree(
      [rankingView(farm(), 10, [], [w({ id: 1, estimate: 40, deadline: 20 })])],
      PAPER_CONSTANTS,
      min,
    );
  });
  it("a job no machine can run (a license offered nowhere): 0, and no other job's term moves", () => {
    const platform = farm({
      licenses: [{ name: "gone", kind: "node-locked", copies: 1, machines: [] }],
    });
    const a = w({ id: 1, estimate: 30 });
    const b = w({ id: 2, estimate: 50 });
    const nowhere = w({ id: 3, estimate: 90, licenses: { gone: 1 } });
    agree([rankingView(platform, 5, [], [a, b]), rankingView(platform, 6, [], [nowhere, b])]);
    expect(convergentPriority()(nowhere, rankingView(platform, 6, [], [nowhere, b]))).toBe(0);
  });
  it("a job asking for no license, at the place a licensed job had at the previous event", () => {
    const platform = farm({ licenses: [{ name: "cad", copies: 1 }] });
    const cad = (id: number) => w({ id, estimate: 10 * id, licenses: { cad: 1 } });
    agree([
      rankingView(platform, 5, [], [cad(1), cad(2)]),
      rankingView(platform, 6, [], [w({ id: 3, estimate: 30 }), cad(4)]),
    ]);
  });
});
