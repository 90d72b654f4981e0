import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  checkSchedule,
  createJob,
  createPlatform,
  defaultExecutionModel,
  type ExecutionModel,
  identicalPool,
  type RunningSetEntry,
  type Scheduler,
  simulate,
} from "../src/index.js";
import { arbJobs, arbPlatform } from "../src/testing/index.js";
import { chaos, greedy } from "./helpers.js";

/** The default model with a `slowdowns` hook that returns `factor(set)` for every job. */
function rateModel(factor: (set: readonly RunningSetEntry[], i: number) => number): ExecutionModel {
  return {
    name: "rate",
    duration: defaultExecutionModel.duration,
    slowdowns(running) {
      return running.map((_, i) => factor(running, i));
    },
  };
}

/** The records without run statistics (`schedulerMs` is wall-clock). */
function recordsOf(trace: ReturnType<typeof simulate>) {
  return trace.records.map((r) => ({
    id: r.job.id,
    outcome: r.outcome,
    end: r.end,
    intervals: r.intervals.map((iv) => [iv.start, iv.end, iv.allocation]),
  }));
}

/**
 * A shared link of bandwidth `bw` used by every job running on machine 0 or 1 (each demands
 * `demand`): eq. 5-7 of the OAS paper with sigma = 0, SAT = bw / total demand, slowdown
 * max(1, 1 / SAT). Jobs on machine 2 and up do not use it.
 */
function sharedLink(bw: number, demand: number): ExecutionModel {
  const onLink = (e: RunningSetEntry) => e.allocation.some((p) => p.machine <= 1);
  return rateModel((set, i) => {
    if (!onLink(set[i]!)) return 1;
    const total = set.filter(onLink).length * demand;
    return Math.max(1, total / bw);
  });
}

/** Starts every waiting job on the machine its `partition` field names, at once. */
const pinned: Scheduler = {
  name: "pinned",
  schedule(ctx) {
    for (const w of ctx.view.waiting) {
      ctx.start(w.job.id, [{ machine: w.job.partition ?? 0, cores: w.job.cores }]);
    }
  },
};

describe("contention (ExecutionModel.slowdowns)", () => {
  it("hand case: two jobs sharing a saturated link (eq. 5-7, sigma 0)", () => {
    // bw 150, each job demands 100: alone SAT = 1.5 (no slowdown), together SAT = 0.75 -> 4/3.
    const platform = identicalPool(3);
    const jobs = [
      createJob({ id: 1, submit: 0, runtime: 100, cores: 1, partition: 0 }),
      createJob({ id: 2, submit: 50, runtime: 100, cores: 1, partition: 1 }),
      createJob({ id: 3, submit: 60, runtime: 10, cores: 1, partition: 2 }),
    ];
    const model = sharedLink(150, 100);
    const trace = simulate(jobs, platform, pinned, { executionModel: model });
    const end = trace.records.map((r) => r.end!);
    // Job 1: 0.5 done at 50, the other 0.5 at rate 1 / (100 * 4/3): 66.67 s -> 116.67.
    expect(end[0]).toBeCloseTo(50 + 200 / 3, 10);
    // Job 2: 0.5 done by 116.67 at the shared rate, then 50 s alone -> 166.67.
    expect(end[1]).toBeCloseTo(116 + 2 / 3 + 50, 10);
    // Job 3 runs off the link: untouched.
    expect(end[2]).toBe(70);
    expect(checkSchedule(trace, { executionModel: model })).toEqual([]);
    // The same trace under the fixed model breaks work conservation (the check can fail).
    const fixed = checkSchedule(trace, { executionModel: defaultExecutionModel });
    expect(fixed.map((v) => [v.kind, v.jobId])).toEqual([
      ["work", 1],
      ["work", 2],
    ]);
  });

  it("progress, estimatedEnd and preemption follow the piecewise rate", () => {
    const platform = identicalPool(3);
    const jobs = [
      createJob({ id: 1, submit: 0, runtime: 100, estimate: 200, cores: 1, partition: 0 }),
      createJob({ id: 2, submit: 50, runtime: 100, cores: 1, partition: 1 }),
    ];
    const seen: [number, number, number, number][] = [];
    const policy: Scheduler = {
      name: "pinned-then-preempt",
      schedule(ctx) {
        const v = ctx.view;
        for (const w of v.waiting) {
          if (w.preemptions === 0) {
            ctx.start(w.job.id, [{ machine: w.job.partition ?? 0, cores: 1 }]);
          }
        }
        if (v.now === 50) ctx.wakeAt(80);
        if (ctx.woken) {
          for (const r of v.running) seen.push([v.now, r.job.id, r.progress, r.estimatedEnd]);
          ctx.preempt(2);
        }
      },
    };
    const model = sharedLink(100, 100); // together: slowdown 2
    const trace = simulate(jobs, platform, policy, { executionModel: model });
    // At 80: job 1 did 0.5 + 30 / 200 = 0.65; job 2 did 30 / 200 = 0.15.
    expect(seen[0]![0]).toBe(80);
    expect(seen[0]![2]).toBeCloseTo(0.65, 12);
    // Its estimatedEnd at the shared rate, set at 50: 50 + 0.5 * 200 * 2 = 250.
    expect(seen[0]![3]).toBeCloseTo(250, 10);
    expect(seen[1]![2]).toBeCloseTo(0.15, 12);
    // Job 2 preempted at 80 (never resumed: unfinished, the run is lost); job 1 alone again:
    // 0.35 left at rate 1/100 -> ends at 115.
    expect(trace.records[0]!.end).toBeCloseTo(115, 10);
    expect(trace.records[1]!.outcome).toBe("unfinished");
  });

  it("property: slowdowns that are always 1 give exactly the fixed-duration run", () => {
    const one = rateModel(() => 1);
    fc.assert(
      fc.property(
        arbPlatform({ maxMachines: 5 }).chain((p) =>
          fc.tuple(fc.constant(p), arbJobs(p, { maxJobs: 15 }), fc.boolean()),
        ),
        ([platform, jobs, preempting]) => {
          const policy = preempting ? chaos() : greedy();
          const a = simulate(jobs, platform, policy, { maxEvents: 10_000 });
          const b = simulate(jobs, platform, policy, { maxEvents: 10_000, executionModel: one });
          expect(recordsOf(b)).toEqual(recordsOf(a));
          expect(checkSchedule(b, { executionModel: one })).toEqual([]);
        },
      ),
      { numRuns: 60 },
    );
  });

  it("property: a constant slowdown c equals the fixed model scaled by c (to rounding)", () => {
    fc.assert(
      fc.property(
        arbPlatform({ maxMachines: 4, licenses: false }).chain((p) =>
          fc.tuple(
            fc.constant(p),
            arbJobs(p, { maxJobs: 12, licenses: false }),
            fc.constantFrom(0.5, 1.5, 3),
          ),
        ),
        ([platform, jobs, c]) => {
          const scaled: ExecutionModel = {
            duration: (j, a, p, s) => defaultExecutionModel.duration(j, a, p, s) * c,
          };
          const rate = rateModel(() => c);
          const a = recordsOf(simulate(jobs, platform, greedy(), { executionModel: scaled }));
          const b = recordsOf(simulate(jobs, platform, greedy(), { executionModel: rate }));
          expect(b.map((r) => r.id)).toEqual(a.map((r) => r.id));
          for (let i = 0; i < a.length; i++) {
            expect(b[i]!.outcome).toBe(a[i]!.outcome);
            expect(b[i]!.end! / a[i]!.end!).toBeCloseTo(1, 9);
          }
        },
      ),
      { numRuns: 40 },
    );
  });

  it("property: work is conserved under set-dependent slowdowns (checked by piecewise integration)", () => {
    // A slowdown that depends on the set: 1 + 0.25 per other job on the same machine's cluster
    // of machines {0,1} vs the rest, plus a per-job term.
    const busy = rateModel((set, i) => {
      const side = (e: RunningSetEntry) => (e.allocation[0]!.machine <= 1 ? 0 : 1);
      const mine = side(set[i]!);
      const others = set.filter((e, k) => k !== i && side(e) === mine).length;
      return 1 + 0.25 * others + (set[i]!.job.id % 3) * 0.1;
    });
    fc.assert(
      fc.property(
        arbPlatform({ maxMachines: 5 }).chain((p) =>
          fc.tuple(fc.constant(p), arbJobs(p, { maxJobs: 15 }), fc.boolean()),
        ),
        ([platform, jobs, preempting]) => {
          const policy = preempting ? chaos() : greedy();
          const trace = simulate(jobs, platform, policy, {
            maxEvents: 10_000,
            executionModel: busy,
          });
          expect(checkSchedule(trace, { executionModel: busy })).toEqual([]);
          // Deterministic: the same run gives the same bytes.
          const again = simulate(jobs, platform, policy, {
            maxEvents: 10_000,
            executionModel: busy,
          });
          expect(recordsOf(again)).toEqual(recordsOf(trace));
          // Slowdowns >= 1 never make a job end earlier than its fixed duration allows.
          for (const r of trace.records) {
            if (r.outcome !== "completed" || r.intervals.length !== 1) continue;
            const iv = r.intervals[0]!;
            const d = defaultExecutionModel.duration(r.job, iv.allocation, platform, r.job.runtime);
            expect(iv.end - iv.start).toBeGreaterThanOrEqual(d * (1 - 1e-12));
          }
        },
      ),
      { numRuns: 60 },
    );
  });

  it("a shifted end is reported as a work violation under the contention model", () => {
    const platform = identicalPool(3);
    const jobs = [
      createJob({ id: 1, submit: 0, runtime: 100, cores: 1, partition: 0 }),
      createJob({ id: 2, submit: 50, runtime: 100, cores: 1, partition: 1 }),
    ];
    const model = sharedLink(150, 100);
    const trace = simulate(jobs, platform, pinned, { executionModel: model });
    const r = trace.records[1]!;
    const iv = r.intervals[0]!;
    const bad = {
      ...trace,
      records: [
        trace.records[0]!,
        { ...r, end: iv.end + 1, intervals: [{ ...iv, end: iv.end + 1 }] },
      ],
    };
    expect(checkSchedule(bad, { executionModel: model }).map((v) => [v.kind, v.jobId])).toEqual([
      ["work", 2],
    ]);
  });

  it("bad slowdowns throw InvalidInputError naming the job", () => {
    const platform = identicalPool(2);
    const jobs = [createJob({ id: 7, submit: 0, runtime: 10, cores: 1 })];
    const nan = rateModel(() => Number.NaN);
    expect(() => simulate(jobs, platform, greedy(), { executionModel: nan })).toThrow(
      /slowdowns returned NaN for job 7/,
    );
    const short: ExecutionModel = { duration: defaultExecutionModel.duration, slowdowns: () => [] };
    expect(() => simulate(jobs, platform, greedy(), { executionModel: short })).toThrow(
      /0 values for 1 running jobs/,
    );
    const notFn = { duration: defaultExecutionModel.duration, slowdowns: 3 } as never;
    expect(() => simulate(jobs, platform, greedy(), { executionModel: notFn })).toThrow(
      /slowdowns.*is not a function/,
    );
  });

  it("calls slowdowns as a method of the model (a class instance reading its own fields)", () => {
    class Halved implements ExecutionModel {
      readonly name = "halved";
      readonly factor = 2;
      duration(...args: Parameters<ExecutionModel["duration"]>): number {
        return defaultExecutionModel.duration(...args);
      }
      slowdowns(running: readonly RunningSetEntry[]): number[] {
        return running.map(() => this.factor);
      }
    }
    const jobs = [createJob({ id: 1, submit: 0, runtime: 10, cores: 1 })];
    const trace = simulate(jobs, identicalPool(1), greedy(), { executionModel: new Halved() });
    expect(trace.records[0]!.end).toBe(20);
  });

  it("asks the model only when the running set changed", () => {
    let calls = 0;
    const counting: ExecutionModel = {
      duration: defaultExecutionModel.duration,
      slowdowns(running) {
        calls++;
        return running.map(() => 1);
      },
    };
    const platform = createPlatform({ machines: [{ cores: 2 }] });
    const jobs = [
      createJob({ id: 1, submit: 0, runtime: 10, cores: 1 }),
      createJob({ id: 2, submit: 5, runtime: 100, cores: 2 }), // waits for job 1
    ];
    const wake: Scheduler = {
      name: "greedy-with-timer",
      schedule(ctx) {
        greedy().schedule(ctx);
        if (ctx.view.now === 0) ctx.wakeAt(3); // a batch where nothing starts or ends
      },
    };
    simulate(jobs, platform, wake, { executionModel: counting });
    // Changes: start 1 (t=0), end 1 + start 2 (t=10); end 2 leaves an empty set (no call).
    expect(calls).toBe(2);
  });
});
