import { describe, expect, it } from "vitest";
import { createJob, createPlatform, type Scheduler, simulate } from "../src/index.js";

// A default-model duration that under- or overflows a double is blamed on what the caller set
// (the platform's referenceSpeed, or the job's benchmark), not on an execution model they never
// gave (the message said `options.executionModel returned 0`).
const startAll: Scheduler = {
  name: "start-all",
  schedule(ctx) {
    for (const w of ctx.view.waiting) ctx.start(w.job.id, [{ machine: 0, cores: w.job.cores }]);
  },
};

describe("simulate: a default duration of 0 or Infinity names referenceSpeed or benchmark", () => {
  it("names platform.referenceSpeed when runtime x referenceSpeed / speed underflows", () => {
    const platform = createPlatform({ machines: [{ speed: 1e30 }], referenceSpeed: 1e-300 });
    const jobs = [createJob({ id: 1, submit: 0, runtime: 1, cores: 1 })];
    expect(() => simulate(jobs, platform, startAll)).toThrow(
      "@sched/core/simulate: platform.referenceSpeed is 1e-300: job 1's duration runtime x referenceSpeed / slowest speed = 1 x 1e-300 / 1e+30 is 0 in double precision, expected a finite number > 0 (scale referenceSpeed and the machines' speeds together)",
    );
  });

  it("names the job's benchmark when it is the job's own", () => {
    const platform = createPlatform({ machines: [{ speed: 1e-300 }] });
    const jobs = [createJob({ id: 4, submit: 0, runtime: 1e10, cores: 1, benchmark: 1e300 })];
    expect(() => simulate(jobs, platform, startAll)).toThrow(
      /job 4\.benchmark is 1e\+300: job 4's duration .* is Infinity in double precision/,
    );
  });

  it("still runs on a tiny but representable referenceSpeed", () => {
    const platform = createPlatform({ machines: [{ speed: 1 }], referenceSpeed: 1e-300 });
    const jobs = [createJob({ id: 1, submit: 0, runtime: 1, cores: 1 })];
    expect(simulate(jobs, platform, startAll).records[0]!.end).toBe(1e-300);
  });
});
