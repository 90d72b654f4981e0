import { identicalPool, type Job, type Scheduler } from "@sched/core";
import { describe, expect, it } from "vitest";
import { replay } from "../src/experiments/oas.js";
import { LostJobsError } from "../src/lost-jobs.js";

const jobs: Job[] = [1, 2, 3].map((id) => ({ id, submit: 0, runtime: 10, estimate: 10, cores: 1 }));

/** Starts every job but `skip` at its first call, and never sets a timer. */
function forgetting(skip: number): Scheduler {
  return {
    name: "forgets",
    schedule(ctx) {
      // identicalPool(4): four one-core machines, one per job.
      let m = 0;
      for (const w of ctx.view.waiting) {
        if (w.job.id === skip) continue;
        ctx.start(w.job.id, [{ machine: ctx.view.platform.machines[m++]!.id, cores: 1 }]);
      }
    },
  };
}

describe("oas: a replayed schedule that leaves a job unstarted is a failed run", () => {
  it("throws LostJobsError naming the job, not a makespan over the jobs that ran", () => {
    const instance = { jobs, platform: identicalPool(4) };
    expect(() => replay(instance, forgetting(2))).toThrow(LostJobsError);
    expect(() => replay(instance, forgetting(2))).toThrow(
      /left 1 of the 3 jobs unfinished \(id 2\)/,
    );
  });

  it("returns the trace when every job ran", () => {
    const trace = replay({ jobs, platform: identicalPool(4) }, forgetting(-1));
    expect(trace.records.every((r) => r.outcome === "completed")).toBe(true);
  });
});
