import {
  createPlatform,
  InvalidInputError,
  type Job,
  type Scheduler,
  type SchedulingContext,
  simulate,
} from "@sched/core";
import { arbJobs, arbPlatform } from "@sched/core/testing";
import { convergentWorkload } from "@sched/workload";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { antiAgingHeuristic } from "../src/anti-aging.js";
import { convergent } from "../src/convergent.js";
import type { Heuristic } from "../src/heuristic.js";
import { minimalRequirementsHeuristic } from "../src/minimal-requirements.js";
import type { ConvergentOptions } from "../src/options.js";
import { paperHeuristics } from "../src/paper-heuristics.js";
import {
  type ConvergentDecision,
  type ConvergentMemory,
  type ConvergentQueuedJob,
  type ConvergentState,
  convergentPass,
} from "../src/pass.js";

// The pass and the engine's scheduler are one planner: at every scheduling event of a
// simulation, `convergentPass` on the plain state of that instant (chained on the memory of
// its previous decision) decides exactly what `convergent()` does (the same preemptions,
// starts in the same order on the same machines, rejections), and a simulation driven by the
// pass alone gives the same schedule.

/** A job's plain fields, as a live loop would give them. */
function plain(job: Job): Omit<ConvergentQueuedJob, "progress"> {
  return {
    id: job.id,
    cores: job.cores,
    estimate: job.estimate,
    submit: job.submit,
    ...(job.ready === undefined ? {} : { ready: job.ready }),
    ...(job.deadline === undefined ? {} : { deadline: job.deadline }),
    ...(job.licenses === undefined ? {} : { licenses: { ...job.licenses } }),
    ...(job.input === undefined ? {} : { input: job.input.map((d) => ({ ...d })) }),
    ...(job.benchmark === undefined ? {} : { benchmark: job.benchmark }),
  };
}

/** The plain state of an engine decision point. */
function stateOf(ctx: SchedulingContext, memory: ConvergentMemory | undefined): ConvergentState {
  const view = ctx.view;
  return {
    now: view.now,
    platform: view.platform,
    running: view.running.map((r) => ({
      ...plain(r.job),
      machine: r.allocation[0]?.machine as number,
      progress: r.progress,
    })),
    queue: view.waiting.map((w) => ({ ...plain(w.job), progress: w.progress })),
    ...(memory === undefined ? {} : { memory }),
  };
}

interface Acts {
  start: [number, unknown][];
  preempted: number[];
  rejected: number[];
}

/** What a decision asks the engine to do, in the engine's terms. */
function actsOf(d: ConvergentDecision): Acts {
  return {
    start: d.start.map((id, i) => [id, d.allocations[i]]),
    preempted: [...d.preempted],
    rejected: d.rejected.map((r) => r.id),
  };
}

/**
 * Runs `options`' scheduler in the engine; at every call the pass decides first on the plain
 * state (with its own chained memory) and every difference is recorded.
 */
function lockstep(options: ConvergentOptions): {
  scheduler: Scheduler;
  mismatches: unknown[];
  calls: () => number;
} {
  const inner = convergent(options);
  const mismatches: unknown[] = [];
  let memory: ConvergentMemory | undefined;
  let calls = 0;
  return {
    mismatches,
    calls: () => calls,
    scheduler: {
      name: inner.name,
      reset(p) {
        memory = undefined;
        calls = 0;
        inner.reset?.(p);
      },
      schedule(ctx) {
        calls++;
        const d = convergentPass(stateOf(ctx, memory), options);
        memory = d.memory;
        const got: Acts = { start: [], preempted: [], rejected: [] };
        inner.schedule({
          ...ctx,
          view: ctx.view,
          start(id, allocation) {
            got.start.push([id, allocation]);
            ctx.start(id, allocation);
          },
          preempt(id) {
            got.preempted.push(id);
            ctx.preempt(id);
          },
          reject(id, reason) {
            got.rejected.push(id);
            ctx.reject(id, reason);
          },
          wakeAt: (t) => ctx.wakeAt(t),
        });
        const want = actsOf(d);
        if (JSON.stringify(got) !== JSON.stringify(want))
          mismatches.push({ now: ctx.view.now, engine: got, pass: want });
      },
    },
  };
}

/** A scheduler that decides through the pass alone (what a live resource manager does). */
function viaPass(options: ConvergentOptions): Scheduler {
  let memory: ConvergentMemory | undefined;
  return {
    name: "via-pass",
    reset() {
      memory = undefined;
    },
    schedule(ctx) {
      const d = convergentPass(stateOf(ctx, memory), options);
      memory = d.memory;
      for (const r of d.rejected) ctx.reject(r.id, r.reason);
      for (const id of d.preempted) ctx.preempt(id);
      d.start.forEach((id, i) => {
        ctx.start(id, d.allocations[i] as readonly { machine: number; cores: number }[]);
      });
    },
  };
}

const farms = arbPlatform({ shape: "farm", maxMachines: 5 }).chain((platform) =>
  arbJobs(platform, { maxJobs: 14, singleMachine: true }).map((jobs) => ({ platform, jobs })),
);

const extra: Heuristic = antiAgingHeuristic({ weight: 0.05 });
const custom: readonly Heuristic[] = [
  minimalRequirementsHeuristic(),
  ...paperHeuristics().slice(1, 5),
];

const VARIANTS: readonly [string, ConvergentOptions][] = [
  ["CS_ip (imfs, preemption)", { matcher: "imfs", preemption: true }],
  ["CS_inp (imfs, no preemption)", { matcher: "imfs", preemption: false }],
  ["CS_nip (mfs, preemption)", { matcher: "mfs", preemption: true }],
  ["CS_ninp (mfs, no preemption)", { matcher: "mfs", preemption: false }],
  ["mis, preemption", { matcher: "mis", preemption: true }],
  ["mis, no preemption", { matcher: "mis", preemption: false }],
  ["imfs, refresh tolerance 0, exact knapsack", { refreshTolerance: 0, knapsack: "exact" }],
  ["imfs with an extra heuristic (generic incremental matrix)", { extraHeuristics: [extra] }],
  ["mfs with own heuristics (generic from-scratch matrix)", { matcher: "mfs", heuristics: custom }],
];

describe.each(VARIANTS)("convergentPass and convergent() agree: %s", (_name, options) => {
  it("event by event on random farms (licenses, deadlines, ready times)", () => {
    fc.assert(
      fc.property(farms, ({ platform, jobs }) => {
        const run = lockstep(options);
        const engine = simulate(jobs, platform, run.scheduler);
        expect(run.mismatches).toEqual([]);
        expect(run.calls()).toBeGreaterThan(0);
        const alone = simulate(jobs, platform, viaPass(options));
        expect(alone.records).toEqual(engine.records);
      }),
      { numRuns: 25 },
    );
  });
  it("event by event on the paper's workload (input data, benchmarks, floating licenses)", () => {
    const { platform, jobs } = convergentWorkload({ seed: 3, jobs: 50, machines: 8, licenses: 4 });
    const run = lockstep(options);
    simulate(jobs, platform, run.scheduler);
    expect(run.mismatches).toEqual([]);
    expect(run.calls()).toBeGreaterThan(40);
  });
});

describe("convergentPass input checks", () => {
  const platform = createPlatform({ machines: [{ cores: 2 }, { cores: 4, speed: 2 }] });
  const q = (id: number, over: object = {}) => ({ id, cores: 1, estimate: 10, submit: 0, ...over });
  const bad = (state: object, field: RegExp) => {
    expect(() => convergentPass(state as ConvergentState)).toThrow(InvalidInputError);
    expect(() => convergentPass(state as ConvergentState)).toThrow(field);
  };
  it("names the field of state that is invalid", () => {
    bad({ now: Number.NaN, platform, running: [], queue: [] }, /state\.now/);
    bad({ now: 0, running: [], queue: [] }, /state\.platform/);
    bad({ now: 0, platform, running: [], queue: [q(1, { cores: 0 })] }, /state\.queue\[0\]\.cores/);
    bad(
      { now: 0, platform, running: [], queue: [q(1), q(2, { estimate: -1 })] },
      /state\.queue\[1\]\.estimate/,
    );
    bad(
      { now: 0, platform, running: [], queue: [q(1, { progress: 1 })] },
      /state\.queue\[0\]\.progress/,
    );
    bad(
      { now: 0, platform, running: [], queue: [q(1, { licenses: { a: 0 } })] },
      /state\.queue\[0\]\.licenses\["a"\]/,
    );
    bad(
      { now: 0, platform, running: [], queue: [q(1, { input: [{ size: 1, machine: 2 }] })] },
      /state\.queue\[0\]\.input\[0\]\.machine/,
    );
    bad(
      { now: 0, platform, running: [{ ...q(1), machine: 2 }], queue: [] },
      /state\.running\[0\]\.machine is 2, expected a machine index below 2$/,
    );
    bad(
      { now: 0, platform, running: [], queue: [q(1, { input: [{ size: -1, machine: 0 }] })] },
      /state\.queue\[0\]\.input\[0\]\.size is -1, expected a finite number >= 0$/,
    );
    bad(
      {
        now: 0,
        platform,
        running: [
          { ...q(1), machine: 0 },
          { ...q(2), machine: 0 },
        ],
        queue: [],
      },
      /state\.running\[1\]\.machine.*one job per machine/,
    );
    bad(
      { now: 0, platform, running: [{ ...q(1, { cores: 3 }), machine: 0 }], queue: [] },
      /state\.running\[0\] does not fit machine 0/,
    );
    bad(
      { now: 0, platform, running: [{ ...q(1), machine: 0 }], queue: [q(1)] },
      /state\.queue\[0\]\.id/,
    );
    bad(
      { now: 0, platform, running: [], queue: [], memory: { kind: "convergent-memory" } },
      /state\.memory/,
    );
    expect(() =>
      convergentPass({ now: 0, platform, running: [], queue: [] }, { matcher: "x" as "mis" }),
    ).toThrow(/options\.matcher/);
  });
  // A user trial: a misspelt optional field (`dedline`) was ignored without a word.
  it("refuses a misspelt field of a job or input record; keeps the caller's own fields", () => {
    const s = { now: 0, platform, running: [], queue: [] };
    bad(
      { ...s, queue: [q(1, { dedline: 50 })] },
      /state\.queue\[0\]\.dedline is not a field \(did you mean `deadline`\?\)/,
    );
    bad(
      { ...s, queue: [q(1, { Ready: 5 })] },
      /state\.queue\[0\]\.Ready is not a field \(did you mean `ready`\?\)/,
    );
    bad(
      { ...s, running: [{ ...q(1), machin: 0 }] },
      /state\.running\[0\]\.machin is not a field \(did you mean `machine`\?\)/,
    );
    bad(
      { ...s, queue: [q(1, { input: [{ size: 1, machnie: 0 }] })] },
      /state\.queue\[0\]\.input\[0\]\.machnie is not a field \(did you mean `machine`\?\)/,
    );
    // a hole in the queue was skipped by forEach
    // biome-ignore lint/suspicious/noSparseArray: the hole is the case tested
    bad({ ...s, queue: [, q(1)] }, /state\.queue\[0\] is undefined, expected a job object/);
    const mine = { user: "ana", state: "PENDING", partition: "batch" };
    const plainState = { ...s, running: [{ ...q(1), machine: 0 }], queue: [q(2), q(3)] };
    const withMine = {
      ...s,
      running: [{ ...q(1), machine: 0, ...mine, state: "RUNNING" }],
      queue: [q(2, mine), q(3, mine)],
    };
    expect(convergentPass(withMine).start).toEqual(convergentPass(plainState).start);
  });

  it("uses a memory once, and only with the options it was made with", () => {
    const d = convergentPass({ now: 0, platform, running: [], queue: [q(1)] });
    const next = { now: 1, platform, running: [], queue: [], memory: d.memory };
    expect(() => convergentPass(next, { matcher: "mis" })).toThrow(/other options/);
    convergentPass(next);
    expect(() => convergentPass(next)).toThrow(/already given/);
  });
  it("keeps a memory unused when the state is invalid", () => {
    const d = convergentPass({ now: 0, platform, running: [], queue: [q(1)] });
    const running = [{ ...q(1), machine: 1 }];
    expect(() =>
      convergentPass({ now: 1, platform, running, queue: [q(2, { cores: 0 })], memory: d.memory }),
    ).toThrow(/state\.queue\[0\]\.cores/);
    expect(
      convergentPass({ now: 1, platform, running, queue: [q(2)], memory: d.memory }).start,
    ).toEqual([2]);
  });
  it("takes a platform equal field by field as the memory's, and starts afresh on another one", () => {
    const spec = { machines: [{ cores: 2 }, { cores: 4, speed: 2 }] };
    const a = createPlatform(spec);
    const d1 = convergentPass({ now: 0, platform: a, running: [], queue: [q(1), q(2)] });
    const running = d1.start.map((id, i) => ({
      ...q(id),
      machine: d1.allocations[i]?.[0]?.machine as number,
    }));
    const next = (p: typeof a, memory: ConvergentMemory) =>
      convergentPass({ now: 5, platform: p, running, queue: [q(3, { submit: 5 })], memory });
    const same = next(
      a,
      convergentPass({ now: 0, platform: a, running: [], queue: [q(1), q(2)] }).memory,
    );
    expect(next(createPlatform(spec), d1.memory)).toEqual({ ...same, memory: expect.anything() });
    const bigger = createPlatform({ machines: [...spec.machines, { cores: 1 }] });
    const d2 = convergentPass({
      now: 5,
      platform: bigger,
      running,
      queue: [q(3, { submit: 5 })],
      memory: same.memory,
    });
    expect(d2.start).toEqual([3]);
    expect(d2.allocations).toEqual([[{ machine: 2, cores: 1 }]]);
  });
  it("rereads a queued job whose fields changed (its eligibility is recomputed)", () => {
    const running = [
      { ...q(1, { cores: 4 }), machine: 1 },
      { ...q(2, { cores: 2 }), machine: 0 },
    ];
    const d = convergentPass({ now: 0, platform, running, queue: [q(3)] });
    expect(d.rejected).toEqual([]);
    const again = convergentPass({
      now: 1,
      platform,
      running,
      queue: [q(3, { cores: 5 })],
      memory: d.memory,
    });
    expect(again.rejected.map((r) => r.id)).toEqual([3]);
  });
  it("starts a job only when the license server has its copies free (freeLicenses)", () => {
    const withCad = createPlatform({
      machines: [{ cores: 2 }, { cores: 2 }],
      licenses: [{ name: "cad", copies: 2 }],
    });
    const state = {
      now: 0,
      platform: withCad,
      running: [{ ...q(1, { licenses: { cad: 1 } }), machine: 0 }],
      queue: [q(2, { licenses: { cad: 1 } })],
    };
    expect(convergentPass(state).start).toEqual([2]);
    expect(convergentPass({ ...state, freeLicenses: { cad: 1 } }).start).toEqual([2]);
    const held = convergentPass({ ...state, freeLicenses: { cad: 0 } });
    expect(held.start).toEqual([]);
    expect(held.assignments).toEqual([
      { id: 1, machine: 0 },
      { id: 2, machine: 1 },
    ]);
    bad(
      { ...state, freeLicenses: { cad: 2 } },
      /state\.freeLicenses\["cad"\] is 2, more than the 1/,
    );
    bad(
      { ...state, freeLicenses: { fem: 0 } },
      /state\.freeLicenses\["fem"\] is not a floating license/,
    );
    bad({ ...state, freeLicenses: { cad: -1 } }, /state\.freeLicenses\["cad"\]/);
  });
  it("does not mutate the state, and gives the same decision for the same state (deterministic)", () => {
    const state: ConvergentState = {
      now: 5,
      platform,
      running: [{ ...q(1, { cores: 2 }), machine: 0, progress: 0.5 }],
      queue: [q(2, { cores: 4 }), q(3, { ready: 9 }), q(4, { cores: 8 })],
    };
    const before = JSON.stringify(state);
    const a = convergentPass(state);
    const b = convergentPass(state);
    expect(JSON.stringify(state)).toBe(before);
    expect({ ...a, memory: 0 }).toEqual({ ...b, memory: 0 });
    expect(a.rejected).toEqual([{ id: 4, reason: expect.stringMatching(/minimal requirements/) }]);
    expect(a.wakeAt).toBe(9);
    expect(a.start).toEqual([2]);
    expect(a.allocations).toEqual([[{ machine: 1, cores: 4 }]]);
  });
});

describe("convergentPass: the fields it checks, and what a decision reports", () => {
  const platform = createPlatform({ machines: [{ cores: 2 }, { cores: 4, speed: 2 }] });
  const q = (id: number, over: object = {}) => ({ id, cores: 1, estimate: 10, submit: 0, ...over });
  const none = { now: 0, platform, running: [], queue: [] };
  it("takes id 0, a running job at progress 1; refuses a second job on job 0's machine, a benchmark of 0, a node-locked license in freeLicenses", () => {
    expect(convergentPass({ ...none, queue: [q(0)] }).start).toEqual([0]);
    const done = { ...q(1), machine: 1, progress: 1 };
    expect(convergentPass({ ...none, running: [done] }).preempted).toEqual([]);
    expect(() =>
      convergentPass({
        ...none,
        running: [
          { ...q(0), machine: 0 },
          { ...q(1), machine: 0 },
        ],
      }),
    ).toThrow(
      "@sched/convergent/convergentPass: state.running[1].machine is 0, where job 0 runs too (one job per machine)",
    );
    expect(() => convergentPass({ ...none, queue: [q(1, { benchmark: 0 })] })).toThrow(
      "@sched/convergent/convergentPass: state.queue[0].benchmark is 0, expected a finite number > 0",
    );
    const locked = createPlatform({
      machines: [{ cores: 2 }, { cores: 2 }],
      licenses: [{ name: "nl", kind: "node-locked", copies: 1, machines: [0] }],
    });
    expect(() => convergentPass({ ...none, platform: locked, freeLicenses: { nl: 0 } })).toThrow(
      '@sched/convergent/convergentPass: state.freeLicenses["nl"] is not a floating license of state.platform',
    );
  });
  it("wakeAt: the next ready time of a job still queued, after now (not a job ready now, not a rejected one)", () => {
    const d = convergentPass({
      ...none,
      now: 5,
      queue: [q(1, { ready: 5 }), q(2, { cores: 8, ready: 7 }), q(3, { ready: 9 })],
    });
    expect(d.start).toEqual([1]);
    expect(d.rejected.map((r) => r.id)).toEqual([2]);
    expect(d.wakeAt).toBe(9);
    const e = convergentPass({
      ...none,
      now: 5,
      queue: [q(1, { ready: 5 }), q(2, { cores: 8, ready: 7 })],
    });
    expect(e.start).toEqual([1]);
    expect(e.wakeAt).toBeUndefined();
  });
  it("lists the assignments by submit time, then id (a running job after a queued one of smaller id)", () => {
    const d = convergentPass({ ...none, running: [{ ...q(2), machine: 0 }], queue: [q(1)] });
    expect(d.assignments).toEqual([
      { id: 1, machine: 1 },
      { id: 2, machine: 0 },
    ]);
  });
  it("a preempted job that does not start again is not migrated", () => {
    // One machine: job 2, late everywhere (Deadline gives it Max = 10), outbids the running job 1
    // (overhead 8): job 1 is preempted and waits.
    const one = createPlatform({ machines: [{ cores: 1 }] });
    const d = convergentPass({
      now: 0,
      platform: one,
      running: [{ ...q(1), machine: 0 }],
      queue: [q(2, { deadline: 5 })],
    });
    expect(d.preempted).toEqual([1]);
    expect(d.start).toEqual([2]);
    expect(d.migrated).toEqual([]);
  });
});

describe("convergentPass reads a job anew when a field changed since the memory's call", () => {
  // Call 1 at time 0 sees the jobs before they are ready (they are kept in the memory); call 2
  // at time 10 gives them with one field changed. A memory that reused its job object would
  // plan with the field as it was.
  const q = (id: number, over: object = {}) => ({
    id,
    cores: 1,
    estimate: 10,
    submit: 0,
    ready: 10,
    ...over,
  });
  const chain = (
    platform: ConvergentState["platform"],
    before: object[],
    after: object[],
    over: object = {},
  ) => {
    const first = convergentPass({
      now: 0,
      platform,
      running: [],
      queue: before as ConvergentQueuedJob[],
      ...over,
    });
    expect(first.start).toEqual([]);
    return convergentPass({
      now: 10,
      platform,
      running: [],
      queue: after as ConvergentQueuedJob[],
      memory: first.memory,
      ...over,
    });
  };
  it("its input data moved to another machine: it starts where its data is now", () => {
    const two = createPlatform({ machines: [{ cores: 1 }, { cores: 1 }] });
    const at = (machine: number) => [q(1, { input: [{ size: 100, machine }] })];
    expect(chain(two, at(0), at(0)).allocations).toEqual([[{ machine: 0, cores: 1 }]]);
    expect(chain(two, at(0), at(1)).allocations).toEqual([[{ machine: 1, cores: 1 }]]);
  });
  it("its ready time moved later: it waits, and the decision wakes at the new time", () => {
    const one = createPlatform({ machines: [{ cores: 1 }] });
    const d = chain(one, [q(1)], [q(1, { ready: 20 })]);
    expect(d.start).toEqual([]);
    expect(d.wakeAt).toBe(20);
  });
  it("it asks for one more license, offered nowhere: it is rejected", () => {
    const lic = createPlatform({
      machines: [{ cores: 1 }],
      licenses: [
        { name: "cad", copies: 1 },
        { name: "gone", kind: "node-locked", copies: 1, machines: [] },
      ],
    });
    const d = chain(
      lic,
      [q(1, { licenses: { cad: 1 } })],
      [q(1, { licenses: { cad: 1, gone: 1 } })],
    );
    expect(d.rejected.map((r) => r.id)).toEqual([1]);
    expect(d.start).toEqual([]);
  });
  it("its deadline is new: the knapsack keeps it instead of the older job", () => {
    // One copy of cad for two jobs: the knapsack keeps the job of larger row mean. Job 1 is
    // older (anti-aging); job 2 with a deadline it misses everywhere gains Max = 10.
    const lic = createPlatform({
      machines: [{ cores: 1 }, { cores: 1 }],
      licenses: [{ name: "cad", copies: 1 }],
    });
    const jobs = (deadline: object) => [
      q(1, { licenses: { cad: 1 } }),
      q(2, { submit: 5, licenses: { cad: 1 }, ...deadline }),
    ];
    expect(chain(lic, jobs({}), jobs({})).cleared).toEqual([2]);
    expect(chain(lic, jobs({}), jobs({ deadline: 12 })).cleared).toEqual([1]);
  });
});

describe("convergentPass takes a memory only with options that plan alike", () => {
  const platform = createPlatform({ machines: [{ cores: 2 }, { cores: 4, speed: 2 }] });
  const own = paperHeuristics();
  const first = (options: ConvergentOptions) =>
    convergentPass(
      { now: 0, platform, running: [], queue: [{ id: 1, cores: 1, estimate: 10, submit: 0 }] },
      options,
    ).memory;
  const next = (memory: ConvergentMemory, options: ConvergentOptions) => () =>
    convergentPass({ now: 1, platform, running: [], queue: [], memory }, options);
  it("refuses another tolerance, readings, knapsack, constants or heuristic objects", () => {
    for (const [made, other] of [
      [{}, { refreshTolerance: 0 }],
      [{}, { readings: { waitSup: "row" } }],
      [{}, { knapsack: "exact" }],
      [{}, { constants: { base: 2 } }],
      [{ heuristics: own }, { heuristics: paperHeuristics() }],
      [{ heuristics: own }, { heuristics: [...own].reverse() }],
      [{ extraHeuristics: [own[1]!] }, { extraHeuristics: [own[2]!] }],
    ] as [ConvergentOptions, ConvergentOptions][]) {
      expect(next(first(made), other)).toThrow(
        "@sched/convergent/convergentPass: state.memory was made with other options: pass the same options at every call",
      );
    }
  });
  it("takes equal options given anew (constants by value, the same heuristic objects)", () => {
    for (const options of [
      { refreshTolerance: 0.05, readings: { waitSup: "global" }, knapsack: "greedy" },
      { constants: { base: 2 } },
      { heuristics: own },
      { extraHeuristics: [own[1]!] },
    ] as ConvergentOptions[]) {
      expect(next(first(options), { ...options })().start).toEqual([]);
    }
  });
});

describe("convergentPass after a job's license clearing is lifted", () => {
  it("plans the job as a first decision on the same state does (its row counts as changed)", () => {
    // One copy of cad. At 10 job 2 arrives while job 1 holds it: the knapsack clears job 2.
    // At 100 job 1 has left and job 2 is alone: its row before clearing did not move (it is the
    // longest job at both events, and the shift absorbs the aging), but its clearing was
    // lifted, so the plan is solved anew: the same as without the memory.
    const platform = createPlatform({
      machines: [{ cores: 1 }, { cores: 1 }],
      licenses: [{ name: "cad", copies: 1 }],
    });
    const j1 = { id: 1, cores: 1, estimate: 100, submit: 0, licenses: { cad: 1 } };
    const j2 = { id: 2, cores: 1, estimate: 500, submit: 10, licenses: { cad: 1 } };
    const a = convergentPass({ now: 0, platform, running: [], queue: [j1] });
    const running = [{ ...j1, machine: 0, progress: 0.1 }];
    const b = convergentPass({ now: 10, platform, running, queue: [j2], memory: a.memory });
    expect(b.cleared).toEqual([2]);
    const c = convergentPass({ now: 100, platform, running: [], queue: [j2], memory: b.memory });
    const first = convergentPass({ now: 100, platform, running: [], queue: [j2] });
    expect(c.cleared).toEqual([]);
    expect({ ...c, memory: 0 }).toEqual({ ...first, memory: 0 });
  });
});
