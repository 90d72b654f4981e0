import { describe, expect, it } from "vitest";
import {
  createPlatform,
  createSimulation,
  InvalidInputError,
  identicalPool,
  type Job,
  LimitExceededError,
  PolicyError,
  type Scheduler,
  simulate,
} from "../src/index.js";
import { job, scripted } from "./helpers.js";

// The engine's deeper paths, one hand-worked case each: stale events, ready times, the stall
// guard and its message, the streamed input's reading ahead, a start refused for its duration,
// the running list during a call, the horizon, a policy's allocation and exception. Each case
// was added for a fault of session 32's mutation audit that no test caught.

/** What simulating job 1 (at 0) and job 2 (at 4) on one core under `policy` throws. */
function failureOf(policy: Scheduler): unknown {
  try {
    simulate([job({ id: 1 }), job({ id: 2, submit: 4 })], identicalPool(1), policy);
  } catch (e) {
    return e;
  }
  return undefined;
}

describe("simulate: stale events", () => {
  it("sets no horizon when only a preempted job's stale completion lies after until", () => {
    // Job 1 (10 s) starts at 0 on the slow machine (completion at 10), is moved at 2 to the fast
    // one and ends at 2 + 0.8 * 10 / 2 = 6. The old completion at 10 is stale: the run has no
    // work pending after 6, so it is not cut at until = 8.
    const platform = createPlatform({ machines: [{ speed: 1 }, { speed: 2 }] });
    const { policy } = scripted((ctx, call) => {
      if (call === 0) {
        ctx.start(1, [{ machine: 0, cores: 1 }]);
        ctx.wakeAt(2);
      }
      if (call === 1) {
        ctx.preempt(1);
        ctx.start(1, [{ machine: 1, cores: 1 }]);
      }
    });
    const trace = simulate([job({ id: 1 })], platform, policy, { until: 8 });
    expect(trace.records[0]!.end).toBe(6);
    expect(trace.records[0]!.outcome).toBe("completed");
    expect(trace.horizon).toBeUndefined();
  });
});

describe("simulate: ready times", () => {
  it("does not report a job rejected before its ready time in ctx.ready, nor call for it", () => {
    const { policy, seen: calls } = scripted((ctx, call) => {
      if (call === 0) ctx.reject(1, "not wanted");
    });
    const trace = simulate([job({ id: 1, ready: 7 })], identicalPool(1), policy);
    expect(calls.map(({ now, ready, woken }) => ({ now, ready, woken }))).toEqual([
      { now: 0, ready: [], woken: false },
    ]);
    expect(trace.stats.decisions).toBe(1);
    expect(trace.records[0]!.outcome).toBe("rejected");
  });

  it("counts a job reaching its ready time as progress for the stall guard", () => {
    // Calls at 0 (arrival: progress), 1 (own timer: no progress, 1 in a row), 5 (job 1's ready
    // time: progress). With maxStalledEvents 1 only a second call in a row without progress
    // would stop the run.
    const { policy, seen: calls } = scripted((ctx, call) => {
      if (call === 0) ctx.wakeAt(1);
      if (ctx.view.now >= 5 && ctx.view.isWaiting(1)) ctx.start(1, [{ machine: 0, cores: 1 }]);
    });
    const trace = simulate([job({ id: 1, ready: 5 })], identicalPool(1), policy, {
      maxStalledEvents: 1,
    });
    expect(calls.map((c) => c.now)).toEqual([0, 1, 5, 15]);
    expect(trace.records[0]!.end).toBe(15);
  });
});

describe("createSimulation: the input read ahead", () => {
  it("reads no job past the first one submitted after the horizon", () => {
    // Job 1 runs 0..10; until = 5. Once job 2 (submit 6) is read, the run knows that nothing
    // before the horizon is left to read: it ends there without pulling job 3.
    const pulled: number[] = [];
    function* input(): Generator<Job> {
      for (const [id, submit] of [
        [1, 0],
        [2, 6],
        [3, 7],
      ] as const) {
        pulled.push(id);
        yield job({ id, submit });
      }
    }
    const { policy } = scripted((ctx) => {
      if (ctx.view.isWaiting(1)) ctx.start(1, [{ machine: 0, cores: 1 }]);
    });
    const sim = createSimulation(identicalPool(1), policy, { metrics: false, until: 5 });
    sim.push(input());
    expect(pulled).toEqual([1, 2]);
    const summary = sim.end();
    expect(pulled).toEqual([1, 2]);
    expect(summary.horizon).toBe(5);
    expect(summary.jobs).toBe(1);
  });
});

describe("simulate: the guards' messages", () => {
  /** Never starts a job, and wakes itself every second. */
  const idle: Scheduler = {
    name: "idle",
    schedule(ctx) {
      ctx.wakeAt(ctx.view.now + 1);
    },
  };
  const stalledWith = (n: number): string => {
    const jobs = Array.from({ length: n }, (_, i) => job({ id: i + 1 }));
    try {
      simulate(jobs, identicalPool(1), idle, { maxStalledEvents: 2 });
    } catch (error) {
      expect(error).toBeInstanceOf(LimitExceededError);
      return (error as Error).message;
    }
    throw new Error("expected the run to stop");
  };

  it("lists up to five job ids, and marks more with an ellipsis", () => {
    expect(stalledWith(5)).toContain("; 5 jobs waiting (ids 1, 2, 3, 4, 5), none running;");
    expect(stalledWith(6)).toContain("; 6 jobs waiting (ids 1, 2, 3, 4, 5, ...), none running;");
  });
});

describe("simulate: a start refused for its duration", () => {
  it("leaves the cores free, so a policy that catches the refusal can start another job there", () => {
    // The model gives job 1 no time at all (0 s): its start is refused after the ledger took its
    // cores, which must be given back.
    const model = {
      duration: (j: Job, _a: unknown, _p: unknown, seconds: number) => (j.id === 1 ? 0 : seconds),
    };
    const free: number[] = [];
    const { policy } = scripted((ctx, call) => {
      if (call !== 0) return;
      expect(() => ctx.start(1, [{ machine: 0, cores: 2 }])).toThrow(InvalidInputError);
      free.push(ctx.view.freeCores(0), ctx.view.totalFreeCores);
      ctx.start(2, [{ machine: 0, cores: 2 }]);
      ctx.reject(1, "no duration");
    });
    const trace = simulate(
      [job({ id: 1, cores: 2 }), job({ id: 2, cores: 2 })],
      identicalPool(1, { cores: 2 }),
      policy,
      { executionModel: model },
    );
    expect(free).toEqual([2, 2]);
    expect(trace.records.map((r) => [r.outcome, r.end])).toEqual([
      ["rejected", 0],
      ["completed", 10],
    ]);
  });
});

describe("simulate: the running list during a call", () => {
  it("keeps a job preempted in the call in view.running until the call returns", () => {
    const seen: number[][] = [];
    const { policy } = scripted((ctx, call) => {
      const ids = () => ctx.view.running.map((r) => r.job.id);
      if (call === 0) {
        ctx.start(1, [{ machine: 0, cores: 1 }]);
        ctx.start(2, [{ machine: 1, cores: 1 }]);
        ctx.wakeAt(5);
      } else if (call === 1) {
        seen.push(ids());
        ctx.preempt(1);
        seen.push(ids());
        ctx.wakeAt(6);
      } else if (call === 2) {
        seen.push(ids());
        ctx.start(1, [{ machine: 0, cores: 1 }]);
      }
    });
    simulate([job({ id: 1 }), job({ id: 2 })], identicalPool(2), policy);
    expect(seen).toEqual([[1, 2], [1, 2], [2]]);
  });
});

describe("simulate: the horizon closes every running job's interval", () => {
  it("including a job whose id lies between ids that arrived before it", () => {
    // Jobs 0 and 2 arrive at 0; 0 ends at 5; 1 arrives at 6 and starts. At until = 8 jobs 1
    // and 2 run: each record gets its interval up to 8.
    const { policy } = scripted((ctx) => {
      for (const w of ctx.view.waiting) {
        const m = ctx.view.nextFreeMachine(0);
        if (m < 0) break;
        ctx.start(w.job.id, [{ machine: m, cores: 1 }]);
      }
    });
    const trace = simulate(
      [
        job({ id: 0, runtime: 5 }),
        job({ id: 2, runtime: 100 }),
        job({ id: 1, submit: 6, runtime: 100 }),
      ],
      identicalPool(2),
      policy,
      { until: 8 },
    );
    expect(trace.horizon).toBe(8);
    expect(
      trace.records.map((r) => [r.job.id, r.outcome, r.intervals.map((iv) => [iv.start, iv.end])]),
    ).toEqual([
      [0, "completed", [[0, 5]]],
      [2, "unfinished", [[0, 8]]],
      [1, "unfinished", [[6, 8]]],
    ]);
  });
});

describe("simulate: a policy's allocation", () => {
  it("is copied unless every part of it is frozen: a later change to an unfrozen part does not reach the trace", () => {
    const mine = { machine: 1, cores: 1 };
    const { policy } = scripted((ctx, call) => {
      if (call === 0) ctx.start(1, Object.freeze([Object.freeze({ machine: 0, cores: 1 }), mine]));
      else mine.machine = 0;
    });
    const trace = simulate(
      [job({ id: 1, cores: 2 }), job({ id: 2, submit: 3 })],
      identicalPool(2),
      policy,
    );
    const allocation = trace.records[0]!.intervals[0]!.allocation;
    expect(allocation).toEqual([
      { machine: 0, cores: 1 },
      { machine: 1, cores: 1 },
    ]);
    expect(allocation.every((p) => Object.isFrozen(p))).toBe(true);
  });
});

describe("simulate: a policy's own exception names the job it acted on in that call only", () => {
  it("names the job it acted on in the call, before the jobs that arrived", () => {
    const { policy } = scripted((ctx, call) => {
      if (call === 1) {
        ctx.reject(1, "too old");
        throw new RangeError("after a reject");
      }
    });
    const error = failureOf(policy);
    expect(error).toBeInstanceOf(PolicyError);
    expect((error as PolicyError).jobIds).toEqual([1, 2]);
    expect((error as Error).message).toMatch(
      /policy "scripted" threw at t=4, after acting on job 1, 1 arrived \(2\): RangeError: after a reject$/,
    );
  });

  it("does not name a job acted on in an earlier call", () => {
    const { policy } = scripted((ctx, call) => {
      if (call === 0) ctx.start(1, [{ machine: 0, cores: 1 }]);
      else throw new RangeError("late");
    });
    const error = failureOf(policy);
    expect(error).toBeInstanceOf(PolicyError);
    expect((error as PolicyError).jobIds).toEqual([2]);
    expect((error as Error).message).toMatch(
      /policy "scripted" threw at t=4, 1 arrived \(2\): RangeError: late$/,
    );
  });
});
