import { describe, expect, it } from "vitest";
import {
  type Allocation,
  ConstraintViolationError,
  createPlatform,
  firstFitAllocation,
  InvalidInputError,
  identicalPool,
  type Job,
  LimitExceededError,
  type Scheduler,
  type SchedulingContext,
  simulate,
} from "../src/index.js";
import { greedy, job, scripted } from "./helpers.js";

describe("simulate: same-time event order", () => {
  it("applies completions, then arrivals, then timers at t, then calls schedule once", () => {
    // Job 1 runs 0..10. Job 2 arrives at 10. A timer is set for 10. One call at t=10 sees all.
    const { policy, seen } = scripted((ctx, call) => {
      if (call === 0) {
        ctx.start(1, [{ machine: 0, cores: 1 }]);
        ctx.wakeAt(10);
      }
      if (call === 1) ctx.start(2, [{ machine: 0, cores: 1 }]);
    });
    const trace = simulate([job({ id: 1 }), job({ id: 2, submit: 10 })], identicalPool(1), policy);
    expect(seen.map((s) => s.now)).toEqual([0, 10, 20]);
    expect(seen[1]).toEqual({
      now: 10,
      arrived: [2],
      completed: [1],
      woken: true,
      ready: [],
      waiting: [2],
      running: [],
      free: 1,
    });
    // The completion freed the core for the arrival in the same pass.
    expect(trace.records[1]!.intervals[0]!.start).toBe(10);
  });

  it("lists same-time arrivals in queue order (submit, then id) whatever the input order", () => {
    const { policy, seen } = scripted(() => {});
    simulate([job({ id: 5 }), job({ id: 2 }), job({ id: 9 })], identicalPool(1), policy);
    expect(seen[0]!.arrived).toEqual([2, 5, 9]);
    expect(seen[0]!.waiting).toEqual([2, 5, 9]);
    // Two at once too (the engine sorts any batch of more than one).
    const two = scripted(() => {});
    simulate([job({ id: 7 }), job({ id: 4 })], identicalPool(1), two.policy);
    expect(two.seen[0]!.arrived).toEqual([4, 7]);
    expect(two.seen[0]!.waiting).toEqual([4, 7]);
  });

  it("does not call schedule when only a stale event (a preempted job's old completion) is due", () => {
    const { policy, seen } = scripted((ctx, call) => {
      if (call === 0) ctx.start(1, [{ machine: 0, cores: 1 }]);
      if (call === 1) ctx.preempt(1); // at t=2 (arrival of job 2); old completion at 10 is stale
      if (call === 1) ctx.wakeAt(20);
      if (call === 2) ctx.start(1, [{ machine: 0, cores: 1 }]);
    });
    const trace = simulate(
      [job({ id: 1 }), job({ id: 2, submit: 2, runtime: 1 })],
      identicalPool(1),
      {
        ...policy,
        schedule(ctx) {
          policy.schedule(ctx);
          if (ctx.view.now === 28 && ctx.view.waiting.length > 0) ctx.reject(2, "done testing");
        },
      },
    );
    expect(seen.map((s) => s.now)).toEqual([0, 2, 20, 28]);
    expect(trace.records[0]!.intervals.map((iv) => [iv.start, iv.end])).toEqual([
      [0, 2],
      [20, 28],
    ]);
  });

  it("wakes the policy at a job's ready time without a timer, reporting it in ctx.ready", () => {
    const { policy, seen } = scripted((ctx) => {
      if (ctx.view.now >= 7 && ctx.view.isWaiting(1)) ctx.start(1, [{ machine: 0, cores: 1 }]);
    });
    const trace = simulate([job({ id: 1, ready: 7 })], identicalPool(1), policy);
    expect(seen.map((s) => [s.now, s.ready, s.woken])).toEqual([
      [0, [], false],
      [7, [1], false],
      [17, [], false],
    ]);
    expect(trace.records[0]!.intervals[0]!.start).toBe(7);
  });
});

describe("simulate: the view", () => {
  it("keeps a waiting array stable during a call; started jobs leave it when the call returns", () => {
    const observed: number[][] = [];
    const policy: Scheduler = {
      name: "t",
      schedule(ctx) {
        const w = ctx.view.waiting;
        for (const entry of w) {
          const a = firstFitAllocation(ctx.view, entry.job.cores);
          if (a) ctx.start(entry.job.id, a);
        }
        observed.push(w.map((e) => e.job.id));
        expect(ctx.view.waiting).toBe(w);
        expect(w.every((e) => ctx.view.isWaiting(e.job.id) === !ctx.view.isRunning(e.job.id))).toBe(
          true,
        );
        observed.push(ctx.view.running.map((r) => r.job.id));
      },
    };
    simulate([job({ id: 1 }), job({ id: 2 }), job({ id: 3 })], identicalPool(2), policy);
    // Call at 0: all three listed, 1 and 2 started (and running at once); call at 10: only 3;
    // call at 20: nothing left.
    expect(observed).toEqual([[1, 2, 3], [1, 2], [3], [3], [], []]);
  });

  it("reports progress and estimatedEnd of running jobs on a machine of another speed", () => {
    const platform = createPlatform({ machines: [{ speed: 2 }], referenceSpeed: 1 });
    const seen: number[][] = [];
    const policy: Scheduler = {
      name: "t",
      schedule(ctx) {
        if (ctx.view.now === 0) {
          ctx.start(1, [{ machine: 0, cores: 1 }]);
          ctx.wakeAt(2);
        }
        for (const r of ctx.view.running) seen.push([ctx.view.now, r.progress, r.estimatedEnd]);
      },
    };
    // runtime 10 at speed 1 -> 5 s at speed 2; estimate 20 -> 10 s.
    const trace = simulate([job({ id: 1, estimate: 20 })], platform, policy);
    expect(seen).toEqual([
      [0, 0, 10],
      [2, 0.4, 10],
    ]);
    expect(trace.records[0]!.end).toBe(5);
  });

  it("view.duration and view.freeLicenses follow the platform", () => {
    const platform = createPlatform({
      machines: [{ speed: 4 }, { speed: 1 }],
      referenceSpeed: 2,
      licenses: [
        { name: "f", copies: 3 },
        { name: "n", kind: "node-locked", copies: 1, machines: [1] },
      ],
    });
    let checked = false;
    simulate([job({ id: 1 })], platform, {
      name: "t",
      schedule(ctx) {
        const j = ctx.view.waiting[0]!.job;
        expect(ctx.view.duration(j, [{ machine: 0, cores: 1 }], 10)).toBe(5);
        expect(
          ctx.view.duration(
            { ...j, cores: 2 },
            [
              { machine: 0, cores: 1 },
              { machine: 1, cores: 1 },
            ],
            10,
          ),
        ).toBe(20);
        expect(ctx.view.freeLicenses("f", 0)).toBe(3);
        expect(ctx.view.freeLicenses("n", 0)).toBe(0);
        expect(ctx.view.freeLicenses("n", 1)).toBe(1);
        expect(ctx.view.freeLicenses("nope", 1)).toBe(0);
        ctx.reject(1, "test over");
        checked = true;
      },
    });
    expect(checked).toBe(true);
  });
});

describe("simulate: preemption", () => {
  it("keeps progress and resumes on a machine of another speed", () => {
    // Machine 0 speed 1, machine 1 speed 2 (reference 1). Job 1: runtime 10.
    // Runs 0..4 on m0 (40 %), preempted at 4, resumes at 4 on m1: 6 s of work at speed 2 = 3 s.
    const platform = createPlatform({ machines: [{ speed: 1 }, { speed: 2 }] });
    const { policy } = scripted((ctx, call) => {
      if (call === 0) {
        ctx.start(1, [{ machine: 0, cores: 1 }]);
        ctx.wakeAt(4);
      }
      if (call === 1) {
        ctx.preempt(1);
        expect(ctx.view.isWaiting(1)).toBe(true);
        ctx.start(1, [{ machine: 1, cores: 1 }]);
        // The old entry stays listed until the call returns; the new one comes last.
        const r = ctx.view.running.findLast((x) => x.job.id === 1);
        expect(r?.progressAtStart).toBeCloseTo(0.4, 12);
      }
    });
    const trace = simulate([job({ id: 1 })], platform, policy);
    const rec = trace.records[0]!;
    expect(rec.outcome).toBe("completed");
    expect(rec.intervals.map((iv) => [iv.start, iv.end, iv.allocation[0]!.machine])).toEqual([
      [0, 4, 0],
      [4, 7, 1],
    ]);
    expect(rec.end).toBe(7);
  });

  it("plans a resumed job's estimated end from the work left, and lists running jobs by start, then id", () => {
    // Job 1: runtime 10, estimate 20, on machine 0 (speed 1) from 0; preempted at 4 (40 % done)
    // and resumed at once: its estimated end is 4 + 60 % of 20 = 16, not 4 + 20.
    // Jobs 3 and 2 start together at 4, 3 first: the view lists 1 (from 4, id 1), 2, then 3.
    const { policy, seen } = scripted((ctx, call) => {
      if (call === 0) {
        ctx.start(1, [{ machine: 0, cores: 1 }]);
        ctx.wakeAt(4);
      }
      if (call === 1) {
        ctx.preempt(1);
        ctx.start(1, [{ machine: 0, cores: 1 }]);
        ctx.start(3, [{ machine: 2, cores: 1 }]);
        ctx.start(2, [{ machine: 1, cores: 1 }]);
        ctx.wakeAt(5);
      }
      if (call === 2) {
        const r = ctx.view.running.find((x) => x.job.id === 1)!;
        expect(r.progressAtStart).toBeCloseTo(0.4, 12);
        expect(r.estimatedEnd).toBeCloseTo(16, 9);
      }
    });
    const jobs = [job({ id: 1, estimate: 20 }), job({ id: 2 }), job({ id: 3 })];
    simulate(jobs, identicalPool(3), policy);
    expect(seen[2]!.now).toBe(5);
    expect(seen[2]!.running).toEqual([1, 2, 3]);
  });

  it("records no empty interval for a job preempted in the call that started it", () => {
    const { policy } = scripted((ctx, call) => {
      if (call === 0) {
        ctx.start(1, [{ machine: 0, cores: 1 }]);
        ctx.preempt(1);
        ctx.wakeAt(1);
      }
      if (call === 1) ctx.start(1, [{ machine: 0, cores: 1 }]);
    });
    const rec = simulate([job({ id: 1 })], identicalPool(1), policy).records[0]!;
    expect(rec.intervals.map((iv) => [iv.start, iv.end])).toEqual([[1, 11]]);
  });

  it("returns a preempted job to its original queue position with its progress", () => {
    const waitingSeen: [number, number, number][][] = [];
    const { policy } = scripted((ctx, call) => {
      waitingSeen.push(ctx.view.waiting.map((w) => [w.job.id, w.progress, w.preemptions]));
      if (call === 0) ctx.start(1, [{ machine: 0, cores: 1 }]);
      if (call === 1) ctx.preempt(1); // at t=5, job 2 and 3 arrived
      if (call === 2) ctx.reject(1, "x");
      if (call === 2) ctx.reject(2, "x");
      if (call === 2) ctx.reject(3, "x");
    });
    simulate(
      [job({ id: 1 }), job({ id: 3, submit: 5 }), job({ id: 2, submit: 5 })],
      identicalPool(1),
      {
        ...policy,
        schedule(ctx) {
          policy.schedule(ctx);
          if (ctx.view.now === 5) ctx.wakeAt(6);
        },
      },
    );
    expect(waitingSeen).toEqual([
      [[1, 0, 0]],
      [
        [2, 0, 0],
        [3, 0, 0],
      ],
      [
        [1, 0.5, 1],
        [2, 0, 0],
        [3, 0, 0],
      ],
    ]);
  });
});

describe("simulate: verbs are checked", () => {
  const run = (act: (ctx: SchedulingContext) => void, jobs: Job[] = [job({ id: 1, cores: 2 })]) =>
    simulate(jobs, createPlatform({ machines: [{ cores: 2 }, { cores: 2 }] }), {
      name: "bad",
      schedule: act,
    });

  it("throws ConstraintViolationError naming the job and machine when cores are short", () => {
    let err: unknown;
    try {
      run(
        (ctx) => {
          ctx.start(1, [{ machine: 0, cores: 2 }]);
          ctx.start(2, [{ machine: 0, cores: 1 }]);
        },
        [job({ id: 1, cores: 2 }), job({ id: 2, cores: 1 })],
      );
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ConstraintViolationError);
    expect((err as ConstraintViolationError).jobId).toBe(2);
    expect((err as ConstraintViolationError).resource).toBe("machine 0 cores");
    expect((err as Error).message).toBe(
      "@sched/core/simulate: job 2: machine 0 cores: needs 1 cores, 0 of 2 are free",
    );
  });

  it("rejects allocations that do not sum to job.cores, repeat a machine or name no machine", () => {
    expect(() => run((ctx) => ctx.start(1, [{ machine: 0, cores: 1 }]))).toThrow(
      /job 1: allocation: gives 1 cores, the job needs 2/,
    );
    expect(() =>
      run((ctx) =>
        ctx.start(1, [
          { machine: 0, cores: 1 },
          { machine: 0, cores: 1 },
        ]),
      ),
    ).toThrow(/job 1: machine 0: appears twice/);
    expect(() => run((ctx) => ctx.start(1, [{ machine: 7, cores: 2 }]))).toThrow(
      /job 1: machine 7: allocation\[0\] names no machine/,
    );
    expect(() => run((ctx) => ctx.start(1, []))).toThrow(ConstraintViolationError);
  });

  it("refuses to start a job that is not waiting, or before its ready time", () => {
    expect(() => run((ctx) => ctx.start(42, [{ machine: 0, cores: 2 }]))).toThrow(
      /job 42: job state: has not arrived/,
    );
    expect(() =>
      run((ctx) => {
        ctx.start(1, [{ machine: 0, cores: 2 }]);
        ctx.start(1, [{ machine: 1, cores: 2 }]);
      }),
    ).toThrow(/job 1: job state: is running, not waiting/);
    expect(() =>
      run((ctx) => ctx.start(1, [{ machine: 0, cores: 2 }]), [job({ id: 1, cores: 2, ready: 3 })]),
    ).toThrow(/job 1: ready time: cannot start at 0, before its ready time 3/);
  });

  it("rejects only waiting jobs and preempts only running ones", () => {
    expect(() =>
      run((ctx) => {
        ctx.start(1, [{ machine: 0, cores: 2 }]);
        ctx.reject(1, "no");
      }),
    ).toThrow(/job 1: job state: is running, not waiting; only waiting jobs can be rejected/);
    expect(() => run((ctx) => ctx.preempt(1))).toThrow(/job 1: job state: is waiting, not running/);
  });

  it("wakeAt(t) with t <= now throws InvalidInputError", () => {
    expect(() => run((ctx) => ctx.wakeAt(0))).toThrow(InvalidInputError);
    expect(() => run((ctx) => ctx.wakeAt(Number.NaN))).toThrow(/wakeAt\(t\) got NaN/);
  });

  it("verbs called after the call returned throw", () => {
    let saved: SchedulingContext | null = null;
    simulate([job({ id: 1 })], identicalPool(1), {
      name: "t",
      schedule(ctx) {
        saved = ctx;
        ctx.reject(1, "x");
      },
    });
    expect(() => saved!.wakeAt(100)).toThrow(/wakeAt was called outside a schedule call/);
  });
});

describe("simulate: licenses", () => {
  const platform = createPlatform({
    machines: [{ cores: 2 }, { cores: 2 }],
    licenses: [
      { name: "float", copies: 1 },
      { name: "lock", kind: "node-locked", copies: 1, machines: [1] },
    ],
  });
  const run = (jobs: Job[], act: (ctx: SchedulingContext) => void) =>
    simulate(jobs, platform, { name: "t", schedule: act });

  it("takes floating copies from the shared pool", () => {
    expect(() =>
      run(
        [job({ id: 1, licenses: { float: 1 } }), job({ id: 2, licenses: { float: 1 } })],
        (ctx) => {
          ctx.start(1, [{ machine: 0, cores: 1 }]);
          ctx.start(2, [{ machine: 1, cores: 1 }]);
        },
      ),
    ).toThrow(/job 2: license float: needs 1 copies, 0 are free/);
  });

  it("takes node-locked copies on the allocation's first machine", () => {
    const trace = run([job({ id: 1, cores: 2, licenses: { lock: 1 } })], (ctx) => {
      if (ctx.view.now > 0) return;
      ctx.start(1, [
        { machine: 1, cores: 1 },
        { machine: 0, cores: 1 },
      ]);
      expect(ctx.view.freeLicenses("lock", 1)).toBe(0);
    });
    expect(trace.records[0]!.outcome).toBe("completed");
    expect(() =>
      run([job({ id: 1, cores: 2, licenses: { lock: 1 } })], (ctx) =>
        ctx.start(1, [
          { machine: 0, cores: 1 },
          { machine: 1, cores: 1 },
        ]),
      ),
    ).toThrow(
      "@sched/core/simulate: job 1: license lock: needs 1 node-locked copies on machine 0 (the allocation's first), 0 are free there",
    );
  });

  it("names an unknown license", () => {
    expect(() =>
      run([job({ id: 1, licenses: { ghost: 1 } })], (ctx) =>
        ctx.start(1, [{ machine: 0, cores: 1 }]),
      ),
    ).toThrow(/job 1: license ghost: is not a license of the platform/);
  });

  it("frees licenses at completion", () => {
    const trace = run(
      [job({ id: 1, licenses: { float: 1 } }), job({ id: 2, licenses: { float: 1 } })],
      (ctx) => {
        for (const w of ctx.view.waiting) {
          if (ctx.view.freeLicenses("float", 0) >= 1)
            ctx.start(w.job.id, [{ machine: 0, cores: 1 }]);
        }
      },
    );
    expect(trace.records.map((r) => r.intervals[0]!.start)).toEqual([0, 10]);
  });
});

describe("simulate: input, horizon and guards", () => {
  it("throws InvalidInputError naming the job when jobs are not sorted by submit", () => {
    expect(() =>
      simulate([job({ id: 1, submit: 5 }), job({ id: 2, submit: 3 })], identicalPool(1), greedy()),
    ).toThrow(
      "@sched/core/simulate: jobs[1] (job 2).submit is 3, before the previous job's submit 5; jobs must be sorted by submit",
    );
  });

  it("throws on a duplicate id and on an invalid job", () => {
    expect(() => simulate([job({ id: 1 }), job({ id: 1 })], identicalPool(1), greedy())).toThrow(
      /jobs\[1\].id is 1, a duplicate job id/,
    );
    expect(() =>
      simulate(
        [job({ id: 3 }), job({ id: 1 }), job({ id: 2 }), job({ id: 1 })],
        identicalPool(1),
        greedy(),
      ),
    ).toThrow(/jobs\[3\].id is 1, a duplicate job id/);
    expect(
      simulate([job({ id: 3 }), job({ id: 1 }), job({ id: 2 })], identicalPool(1), greedy())
        .records,
    ).toHaveLength(3);
    const bad = { id: 3, submit: 0, runtime: -1, estimate: 1, cores: 1 } as Job;
    expect(() => simulate([bad], identicalPool(1), greedy())).toThrow(
      "@sched/core/simulate: job 3.runtime is -1, expected a finite number > 0",
    );
  });

  it("consumes the jobs lazily: a generator is read once, and not past the horizon", () => {
    let produced = 0;
    function* gen(): Generator<Job> {
      for (let i = 0; ; i++) {
        produced++;
        yield job({ id: i, submit: i * 10, runtime: 5 });
      }
    }
    const trace = simulate(gen(), identicalPool(1), greedy(), { until: 95 });
    expect(trace.records).toHaveLength(10); // submits 0..90
    expect(produced).toBe(11); // one look-ahead job (submit 100) read, not recorded
    expect(trace.horizon).toBe(95);
  });

  it("marks jobs unfinished at the horizon and closes running intervals there", () => {
    const trace = simulate(
      [job({ id: 1, runtime: 100 }), job({ id: 2, submit: 1 })],
      identicalPool(1),
      greedy(),
      { until: 50 },
    );
    expect(
      trace.records.map((r) => [r.outcome, r.end, r.intervals.map((i) => [i.start, i.end])]),
    ).toEqual([
      ["unfinished", null, [[0, 50]]],
      ["unfinished", null, []],
    ]);
  });

  it("ends the run when the policy leaves jobs waiting and no event remains (they are lost)", () => {
    const trace = simulate([job({ id: 1 })], identicalPool(1), { name: "idle", schedule() {} });
    expect(trace.records[0]!.outcome).toBe("unfinished");
    expect(trace.horizon).toBeUndefined();
  });

  it("throws LimitExceededError beyond options.maxEvents", () => {
    const forever: Scheduler = {
      name: "forever",
      schedule(ctx) {
        ctx.wakeAt(ctx.view.now + 1);
      },
    };
    expect(() => simulate([job({ id: 1 })], identicalPool(1), forever, { maxEvents: 100 })).toThrow(
      LimitExceededError,
    );
  });

  it("uses a pluggable execution model", () => {
    const trace = simulate([job({ id: 1, runtime: 10 })], identicalPool(1), greedy(), {
      executionModel: { duration: (_j, _a, _p, seconds) => seconds + 1 },
    });
    expect(trace.records[0]!.end).toBe(11);
    expect(() =>
      simulate([job({ id: 1 })], identicalPool(1), greedy(), {
        executionModel: { duration: () => 0 },
      }),
    ).toThrow(/options.executionModel returned 0 for job 1/);
  });

  it("calls reset(platform) before the run and counts events and decisions", () => {
    const platform = identicalPool(2);
    let resetWith: unknown = null;
    const trace = simulate([job({ id: 1 }), job({ id: 2, submit: 3 })], platform, {
      ...greedy(),
      reset(p) {
        resetWith = p;
      },
    });
    expect(resetWith).toBe(platform);
    expect(trace.stats.events).toBe(4); // 2 arrivals + 2 completions
    expect(trace.stats.decisions).toBe(4); // t = 0, 3, 10, 13
    expect(trace.scheduler).toBe("greedy");
  });

  it("validates its options and the scheduler", () => {
    expect(() => simulate([], identicalPool(1), greedy(), { maxEvents: -1 })).toThrow(
      /options.maxEvents is -1/,
    );
    expect(() => simulate([], identicalPool(1), {} as Scheduler)).toThrow(
      /scheduler has no schedule/,
    );
    expect(simulate([], identicalPool(1), greedy()).records).toEqual([]);
    // A budget of 0 events is a number >= 0: a run without events keeps within it.
    expect(simulate([], identicalPool(1), greedy(), { maxEvents: 0 }).stats.events).toBe(0);
  });
});

describe("simulate: waitingAt and waitingCount", () => {
  it("returns undefined outside the queue and for non-integer indices", () => {
    const seen: unknown[] = [];
    simulate([job({ id: 1 }), job({ id: 2 })], identicalPool(1), {
      name: "probe",
      schedule(ctx) {
        const v = ctx.view;
        seen.push(
          v.waitingCount,
          v.waitingAt!(-1),
          v.waitingAt!(0.5),
          v.waitingAt!(v.waitingCount!),
        );
        seen.push(v.waitingAt!(0)?.job.id);
        const first = v.waitingAt!(0);
        if (first !== undefined && v.totalFreeCores > 0) {
          ctx.start(first.job.id, [{ machine: 0, cores: 1 }]);
        }
      },
    });
    expect(seen).toEqual([
      2,
      undefined,
      undefined,
      undefined,
      1, // t=0: both wait, 1 starts
      1,
      undefined,
      undefined,
      undefined,
      2, // t=10: 2 starts
      0,
      undefined,
      undefined,
      undefined,
      undefined, // t=20: empty queue
    ]);
  });
});

describe("simulate: recorded allocations", () => {
  it("are frozen copies of the policy's parts, sharing one frozen part per machine and core count", () => {
    const platform = createPlatform({ machines: [{ cores: 4 }, { cores: 4 }] });
    const mine: { machine: number; cores: number }[][] = [];
    const trace = simulate(
      [job({ id: 1, cores: 3 }), job({ id: 2, submit: 20, cores: 3 })],
      platform,
      {
        name: "mutable-parts",
        schedule(ctx) {
          for (const w of ctx.view.waiting) {
            const alloc = [
              { machine: 1, cores: 2 },
              { machine: 0, cores: 1 },
            ];
            mine.push(alloc);
            ctx.start(w.job.id, alloc);
          }
        },
      },
    );
    const [a, b] = trace.records.map((r) => r.intervals[0]!.allocation);
    expect(a).toEqual([
      { machine: 1, cores: 2 },
      { machine: 0, cores: 1 },
    ]);
    expect(Object.isFrozen(a)).toBe(true);
    expect(a!.every((p) => Object.isFrozen(p))).toBe(true);
    expect(a).not.toBe(mine[0]);
    expect(a![0]).not.toBe(mine[0]![0]);
    // Same machine and cores: the same frozen part object, in both allocations.
    expect(b![0]).toBe(a![0]);
    expect(b![1]).toBe(a![1]);
    // Changing the policy's array afterwards does not touch the trace.
    mine[0]![0]!.cores = 4;
    expect(a![0]!.cores).toBe(2);
    // firstFitAllocation hands out the same shared parts.
    let ff: Allocation | null = null;
    simulate([job({ id: 3, cores: 1 })], platform, {
      name: "ff",
      schedule(ctx) {
        ff = firstFitAllocation(ctx.view, 1);
      },
    });
    expect(ff).toEqual([{ machine: 0, cores: 1 }]);
    expect(ff![0]).toBe(a![1]);
  });
});

describe("simulate: preempt and restart in one call, before the queue is read", () => {
  it("keeps the waiting view exact afterwards", () => {
    const seen: number[][] = [];
    const trace = simulate(
      [job({ id: 1, runtime: 100 }), job({ id: 2, submit: 5 }), job({ id: 3, submit: 6 })],
      identicalPool(1),
      {
        name: "flip",
        schedule(ctx) {
          const v = ctx.view;
          if (v.now === 5) {
            // Preempt and resume job 1 at once, then look at the queue.
            ctx.preempt(1);
            ctx.start(1, [{ machine: 0, cores: 1 }]);
          }
          // At the first look, nothing listed is running (job 1 was resumed before it).
          seen.push(v.waiting.map((w) => w.job.id));
          for (const w of v.waiting) expect(v.isRunning(w.job.id)).toBe(false);
          expect(v.waitingCount).toBe(v.waiting.length);
          const head = v.waitingAt!(0);
          if (head !== undefined && v.totalFreeCores > 0) {
            ctx.start(head.job.id, [{ machine: 0, cores: 1 }]);
          }
        },
      },
    );
    expect(seen).toEqual([[1], [2], [2, 3], [2, 3], [3], []]);
    expect(trace.records.map((r) => r.end)).toEqual([100, 110, 120]);
  });
});
