import { describe, expect, it } from "vitest";
import {
  checkSchedule,
  createJob,
  InvalidInputError,
  identicalPool,
  type Scheduler,
  simulate,
  simulateStream,
  traceToJSON,
  validateJobs,
} from "../src/index.js";

// Defects the options fuzz suite found (options-fuzz.property.test.ts), one example each.
const idle: Scheduler = { name: "idle", schedule() {} };

describe("core: hostile values end in an InvalidInputError naming the place", () => {
  it("validateJobs(non-iterable) names jobs (was a raw TypeError: specs is not iterable)", () => {
    expect(() => validateJobs(5 as never)).toThrow(
      "@sched/core/validateJobs: jobs is 5, expected an iterable of jobs (an array)",
    );
    expect(() => validateJobs("" as never)).toThrow(/jobs is "", expected an iterable/);
  });

  it("simulate refuses a string as the jobs (the empty string ran as no jobs)", () => {
    expect(() => simulate("" as never, identicalPool(1), idle)).toThrow(
      "@sched/core/simulate: jobs is a string, expected an iterable of jobs",
    );
  });

  it("simulateStream refuses an array as options.metrics (was read as { tau: default })", () => {
    expect(() => simulateStream([], identicalPool(1), idle, { metrics: [] as never })).toThrow(
      "@sched/core/simulateStream: options.metrics is an array, expected true, false or { tau }",
    );
  });

  it("simulate names a scheduler whose name is not a string (was accepted into the trace)", () => {
    expect(() => simulate([], identicalPool(1), { ...idle, name: 5 as never })).toThrow(
      "@sched/core/simulate: scheduler.name is 5, expected a string",
    );
  });

  it("boolean options are booleans (were read for their truthiness)", () => {
    const trace = simulate(
      [createJob({ id: 1, submit: 0, runtime: 1, cores: 1 })],
      identicalPool(1),
      {
        name: "ff",
        schedule(ctx) {
          for (const w of ctx.view.waiting) ctx.start(w.job.id, [{ machine: 0, cores: 1 }]);
        },
      },
    );
    expect(() => checkSchedule(trace, { deadlinesAreHard: 1 as never })).toThrow(
      "@sched/core/checkSchedule: options.deadlinesAreHard is 1, expected true or false",
    );
    expect(() => traceToJSON(trace, { timings: "no" as never })).toThrow(InvalidInputError);
    expect(() => traceToJSON(trace, { timings: "no" as never })).toThrow(
      '@sched/core/traceToJSON: options.timings is "no", expected true or false',
    );
    expect(() => traceToJSON(undefined as never)).toThrow(/trace is undefined, expected an object/);
  });
});
