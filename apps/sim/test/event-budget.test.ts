import {
  createSimulation,
  firstFitAllocation,
  identicalPool,
  type Job,
  LimitExceededError,
  type Scheduler,
  simulate,
} from "@sched/core";
import { arbJobs } from "@sched/core/testing";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  countingScheduler,
  explainEventBudget,
  newPolicyActivity,
  type PolicyActivity,
} from "../src/event-budget.js";

/**
 * FCFS that also sets a timer at each arrival, preempts the first running job once when a timer
 * fires, and rejects jobs wider than the machine; it counts what it does itself.
 */
function busyPolicy(own: PolicyActivity): Scheduler {
  const preempted = new Set<number>();
  return {
    name: "busy",
    schedule(ctx) {
      const { view } = ctx;
      own.completed += ctx.completed.length;
      if (ctx.arrived.length > 0) {
        ctx.wakeAt(view.now + 1);
        own.timers++;
      }
      if (ctx.woken) {
        const victim = view.running.find((r) => !preempted.has(r.job.id));
        if (victim !== undefined) {
          preempted.add(victim.job.id);
          ctx.preempt(victim.job.id);
          own.preemptions++;
        }
      }
      for (let i = 0; i < view.waitingCount; i++) {
        const w = view.waitingAt(i)!;
        if (w.job.cores > view.platform.totalCores) {
          ctx.reject(w.job.id, "too wide");
          own.rejected++;
          continue;
        }
        if ((w.job.ready ?? 0) > view.now) continue;
        const a = firstFitAllocation(view, w.job.cores);
        if (a === null) break;
        ctx.start(w.job.id, a);
      }
    },
  };
}

describe("countingScheduler", () => {
  it("counts exactly what the policy does, and changes nothing of the run", () => {
    const platform = identicalPool(4);
    const total = newPolicyActivity();
    fc.assert(
      fc.property(arbJobs(identicalPool(6), { maxJobs: 12 }), (jobs: Job[]) => {
        const own = newPolicyActivity();
        const plain = simulate(jobs, platform, busyPolicy(newPolicyActivity()));
        const activity = newPolicyActivity();
        const counted = simulate(jobs, platform, countingScheduler(busyPolicy(own), activity));
        expect(counted.records).toEqual(plain.records);
        expect(activity).toEqual(own);
        for (const k of ["timers", "preemptions", "rejected"] as const) total[k] += activity[k];
        // Every completion is followed by a scheduling call, so a finished run saw them all.
        expect(activity.completed).toBe(
          counted.records.filter((r) => r.outcome === "completed").length,
        );
      }),
      { seed: 7, numRuns: 60 },
    );
    // The cases exercised every count.
    expect(total.timers).toBeGreaterThan(0);
    expect(total.preemptions).toBeGreaterThan(0);
    expect(total.rejected).toBeGreaterThan(0);
  });
});

describe("explainEventBudget", () => {
  const jobs: Job[] = [1, 2, 3].map((id) => ({
    id,
    submit: id * 10,
    runtime: 100,
    estimate: 100,
    cores: 1,
  })) as Job[];

  function exhausted(policy: Scheduler, activity: PolicyActivity, maxEvents: number): unknown {
    const sim = createSimulation(identicalPool(1), countingScheduler(policy, activity), {
      maxEvents,
    });
    try {
      sim.push(jobs);
      sim.end();
    } catch (error) {
      return explainEventBudget(error, activity, jobs.length);
    }
    throw new Error("the budget was not exhausted");
  }

  it("says a policy that set no timer nor preempted made only arrivals and completions", () => {
    const activity = newPolicyActivity();
    const e = exhausted(busyPolicy(newPolicyActivity()), activity, 1) as LimitExceededError;
    expect(e).toBeInstanceOf(LimitExceededError);
    expect(e.limit).toBe("options.maxEvents");
    expect(e.message).toContain(
      "; by its last scheduling call 0 of the 3 jobs read had completed and 0 had been rejected; it set 1 timer (wakeAt) and made 0 preemptions; does it keep doing so? Raise options.maxEvents",
    );
    const fcfsLike: Scheduler = {
      name: "plain",
      schedule(ctx) {
        const w = ctx.view.waitingAt(0);
        const a = w === undefined ? null : firstFitAllocation(ctx.view, w.job.cores);
        if (w !== undefined && a !== null) ctx.start(w.job.id, a);
      },
    };
    const f = exhausted(fcfsLike, newPolicyActivity(), 4) as LimitExceededError;
    expect(f.message).toContain(
      "at t=210; 1 job waiting (id 3), 1 job running (id 2); by its last scheduling call 1 of the 3 jobs read had completed and 0 had been rejected; it set no timer (wakeAt) and preempted no job, so every event so far was a job's arrival or completion, at most 2 per job (6 for the 3 jobs read). Raise options.maxEvents",
    );
    expect(f.message).not.toContain("does it keep");
  });

  it("leaves every other error as it is", () => {
    const other = new LimitExceededError("x", "y", { limit: "options.maxStalledEvents" });
    expect(explainEventBudget(other, newPolicyActivity(), 3)).toBe(other);
    const plain = new Error("z");
    expect(explainEventBudget(plain, newPolicyActivity(), 3)).toBe(plain);
  });
});
