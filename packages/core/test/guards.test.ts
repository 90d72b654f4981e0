import { describe, expect, it } from "vitest";
import {
  createSimulation,
  identicalPool,
  LimitExceededError,
  PolicyError,
  type Scheduler,
  simulate,
  simulateStream,
} from "../src/index.js";
import { greedy, job } from "./helpers.js";

/** Starts what fits (greedy), then asks to be woken a second later, forever. */
function wakesForever(): Scheduler {
  const inner = greedy("wakes-forever");
  return {
    name: "wakes-forever",
    schedule(ctx) {
      inner.schedule(ctx);
      ctx.wakeAt(ctx.view.now + 1);
    },
  };
}

/** Never starts anything, and wakes itself forever. */
const idleForever: Scheduler = {
  name: "idle-forever",
  schedule(ctx) {
    ctx.wakeAt(ctx.view.now + 1);
  },
};

function thrown(run: () => unknown): Error {
  try {
    run();
  } catch (error) {
    return error as Error;
  }
  throw new Error("expected the run to throw");
}

describe("simulate: no hang by default", () => {
  it("stops a policy that wakes itself forever once no job moves, naming it, the time and the jobs", () => {
    // Jobs 1 and 2 run; job 3 (4 cores on 2 machines) is rejected; then the policy wakes alone.
    const jobs = [job({ id: 1 }), job({ id: 2, submit: 3 }), job({ id: 3, submit: 5, cores: 4 })];
    const error = thrown(() => simulate(jobs, identicalPool(2), wakesForever()));
    expect(error).toBeInstanceOf(LimitExceededError);
    // Last progress at t=13 (job 2 ends), then 100 000 calls at t=14..100013 without any.
    expect(error.message).toMatch(
      /^@sched\/core\/simulate: policy "wakes-forever" made no progress in 100000 schedule calls in a row .* at t=100014; none waiting, none running; .*options\.maxStalledEvents/,
    );
  });

  it("stops it the same way in a streamed run, and with no job left at all", () => {
    const error = thrown(() => simulateStream([job({ id: 1 })], identicalPool(1), wakesForever()));
    expect(error).toBeInstanceOf(LimitExceededError);
    expect(error.message).toContain('@sched/core/simulateStream: policy "wakes-forever"');
    expect(error.message).toContain("none waiting, none running");
    const sim = createSimulation(identicalPool(1), idleForever);
    sim.push([job({ id: 7 })]);
    const pushed = thrown(() => sim.end());
    expect(pushed.message).toContain("1 job waiting (id 7)");
    // The simulation is over once it failed.
    expect(() => sim.push([job({ id: 8, submit: 1 })])).toThrow(/failed earlier/);
  });

  it("lets options.maxStalledEvents set the bound", () => {
    const error = thrown(() =>
      simulate([job({ id: 1 })], identicalPool(1), idleForever, { maxStalledEvents: 10 }),
    );
    // The arrival at 0 is progress; the calls at 1..10 are not; the 11th stops the run.
    expect(error.message).toContain("no progress in 10 schedule calls in a row");
    expect(error.message).toContain("at t=11; 1 job waiting (id 1), none running;");
    // The option that sets the bound, for a front end to name in its own words.
    expect((error as LimitExceededError).limit).toBe("options.maxStalledEvents");
    expect(() =>
      simulate([job({ id: 1 })], identicalPool(1), idleForever, { maxStalledEvents: 0 }),
    ).toThrow(/options\.maxStalledEvents is 0, expected a number >= 1/);
  });

  it("does not count a policy that polls while a job runs as stalled", () => {
    // One job of 300 000 s: the policy wakes every second while it runs (300 000 calls, more
    // than the stall bound), then stops waking once nothing is left.
    let calls = 0;
    const poller: Scheduler = {
      name: "poller",
      schedule(ctx) {
        calls++;
        greedy().schedule(ctx);
        if (ctx.view.running.length > 0) ctx.wakeAt(ctx.view.now + 1);
      },
    };
    const trace = simulate([job({ id: 1, runtime: 300_000 })], identicalPool(1), poller);
    expect(trace.records[0]!.outcome).toBe("completed");
    expect(calls).toBeGreaterThan(300_000);
  });

  it("has a default event budget that grows with the jobs read", () => {
    // A policy that wakes every microsecond while its job of 1e9 s runs makes progress (the job
    // runs), so only the budget stops it: 1e6 + 1000 events for 1 job read.
    const zeno: Scheduler = {
      name: "zeno",
      schedule(ctx) {
        for (const w of ctx.view.waiting) ctx.start(w.job.id, [{ machine: 0, cores: 1 }]);
        ctx.wakeAt(ctx.view.now + 1e-6);
      },
    };
    const error = thrown(() => simulate([job({ id: 1, runtime: 1e9 })], identicalPool(1), zeno));
    expect(error).toBeInstanceOf(LimitExceededError);
    expect(error.message).toContain(
      'policy "zeno" did not finish within the default budget of options.maxEvents (1000000 + 1000 per job read: 1001000) events',
    );
    expect(error.message).toContain("none waiting, 1 job running (id 1)");
    expect((error as LimitExceededError).limit).toBe("options.maxEvents");
    expect(() =>
      simulate([job({ id: 1 })], identicalPool(1), idleForever, { maxEvents: 5 }),
    ).toThrow(/did not finish within options\.maxEvents \(5\) events, at t=5;/);
  });
});

describe("simulate: a policy's own exception", () => {
  it("is wrapped in a PolicyError naming the policy, the time and the jobs, with the cause kept", () => {
    const buggy: Scheduler = {
      name: "buggy",
      schedule(ctx) {
        if (ctx.view.now >= 20) {
          const w = ctx.view.waiting[0]!;
          ctx.start(w.job.id, [{ machine: 0, cores: 1 }]);
          (null as unknown as { x: number }).x;
        }
        greedy().schedule(ctx);
      },
    };
    const jobs = [job({ id: 1 }), job({ id: 5, submit: 20 })];
    const error = thrown(() => simulate(jobs, identicalPool(1), buggy));
    expect(error).toBeInstanceOf(PolicyError);
    const e = error as PolicyError;
    expect(e.policy).toBe("buggy");
    expect(e.time).toBe(20);
    expect(e.jobIds).toEqual([5]);
    expect(e.cause).toBeInstanceOf(TypeError);
    expect(e.message).toMatch(
      /^@sched\/core\/simulate: policy "buggy" threw at t=20, after acting on job 5, 1 arrived \(5\): TypeError: Cannot read properties of null/,
    );
  });

  it("wraps a throw from reset and a thrown non-Error; leaves the engine's typed errors as they are", () => {
    const badReset: Scheduler = {
      name: "bad-reset",
      reset() {
        throw new RangeError("no");
      },
      schedule() {},
    };
    expect(() => simulate([job({ id: 1 })], identicalPool(1), badReset)).toThrow(
      /policy "bad-reset" threw in reset\(platform\), before the run: RangeError: no/,
    );
    const throwsString: Scheduler = {
      name: "strings",
      schedule() {
        throw "oops";
      },
    };
    expect(() => simulate([job({ id: 2, submit: 4 })], identicalPool(1), throwsString)).toThrow(
      /policy "strings" threw at t=4, 1 arrived \(2\): oops$/,
    );
    const overbooks: Scheduler = {
      name: "overbooks",
      schedule(ctx) {
        ctx.start(1, [{ machine: 0, cores: 2 }]);
      },
    };
    expect(() => simulate([job({ id: 1 })], identicalPool(1), overbooks)).toThrow(
      /^@sched\/core\/simulate: job 1: /,
    );
  });
});
