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
