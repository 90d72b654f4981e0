import { optionKeys, requireBoolean, requireKnownKeys } from "@sched/errors";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { checkSchedule } from "../check.js";
import type { ExecutionModel } from "../execution.js";
import type { Scheduler } from "../scheduler.js";
import { simulate } from "../simulate.js";
import type { ScheduleTrace } from "../trace.js";
import type { Job, Platform } from "../types.js";
import {
  type ArbJobsOptions,
  type ArbPlatformOptions,
  arbJobs,
  arbPlatform,
} from "./arbitraries.js";

/** Options of {@link schedulerSpecs}. */
export interface SchedulerSpecsOptions {
  /** Restricts the generated platforms (shape, licenses, speeds). @defaultValue both shapes, all features */
  readonly platformOptions?: ArbPlatformOptions;
  /** Restricts the generated workloads (no licenses, no deadlines, …). @defaultValue all features */
  readonly jobsOptions?: ArbJobsOptions;
  /** Replaces the platform arbitrary. @defaultValue `arbPlatform(platformOptions)` */
  readonly platform?: fc.Arbitrary<Platform>;
  /** Replaces the workload arbitrary. @defaultValue `(p) => arbJobs(p, jobsOptions)` */
  readonly jobs?: (platform: Platform) => fc.Arbitrary<readonly Job[]>;
  /** fast-check runs per property. @defaultValue `40` */
  readonly numRuns?: number;
  /** Events allowed per run before it counts as not terminating. @defaultValue `100_000` */
  readonly maxEvents?: number;
  /** The execution model to simulate and check with. @defaultValue the default model */
  readonly executionModel?: ExecutionModel;
  /** Also require admitted deadline jobs to meet their deadline. @defaultValue `false` */
  readonly deadlinesAreHard?: boolean;
}

/** The keys of {@link SchedulerSpecsOptions}, all of them (checked by the compiler). */
const SPECS_KEYS = optionKeys<SchedulerSpecsOptions>({
  platformOptions: true,
  jobsOptions: true,
  platform: true,
  jobs: true,
  numRuns: true,
  maxEvents: true,
  executionModel: true,
  deadlinesAreHard: true,
});

/** The trace minus its wall-clock time, which is the one non-deterministic field. */
function deterministicPart(trace: ScheduleTrace): unknown {
  return {
    scheduler: trace.scheduler,
    records: trace.records,
    events: trace.stats.events,
    decisions: trace.stats.decisions,
    horizon: trace.horizon,
  };
}

/**
 * The conformance suite every scheduler passes: registers a vitest `describe` block with four
 * fast-check properties over random platforms and workloads: the trace passes `checkSchedule`,
 * no job is lost (each completed or rejected with a non-empty reason), two runs with fresh
 * instances give deep-equal traces (wall-clock time aside), and the run terminates within
 * `maxEvents` events. `factory` must return a fresh scheduler each call.
 *
 * @example
 * ```ts
 * // test/fcfs.property.test.ts
 * schedulerSpecs("fcfs", () => fcfs(), { jobsOptions: { licenses: false } });
 * ```
 */
export function schedulerSpecs(
  name: string,
  factory: () => Scheduler,
  options: SchedulerSpecsOptions = {},
): void {
  const where = "@sched/core/testing/schedulerSpecs";
  requireKnownKeys(where, "options", options, SPECS_KEYS);
  // checked here, not first by checkSchedule inside a property run
  const deadlinesAreHard = requireBoolean(
    where,
    "options.deadlinesAreHard",
    options.deadlinesAreHard ?? false,
  );
  const numRuns = options.numRuns ?? 40;
  const maxEvents = options.maxEvents ?? 100_000;
  const platforms = options.platform ?? arbPlatform(options.platformOptions);
  const jobsOf = options.jobs ?? ((p: Platform) => arbJobs(p, options.jobsOptions));
  const scenario = platforms.chain((platform) =>
    jobsOf(platform).map((jobs) => ({ platform, jobs })),
  );
  const run = (platform: Platform, jobs: readonly Job[]) =>
    simulate(
      jobs,
      platform,
      factory(),
      options.executionModel === undefined
        ? { maxEvents }
        : { maxEvents, executionModel: options.executionModel },
    );
  const checkOptions =
    options.executionModel === undefined
      ? { deadlinesAreHard }
      : { deadlinesAreHard, executionModel: options.executionModel };

  describe(`${name} conformance (schedulerSpecs)`, () => {
    it("produces a valid schedule: checkSchedule reports no violation", () => {
      fc.assert(
        fc.property(scenario, ({ platform, jobs }) => {
          const violations = checkSchedule(run(platform, jobs), checkOptions);
          expect(violations).toEqual([]);
        }),
        { numRuns },
      );
    });
    it("loses no job: every job is completed or rejected with a reason", () => {
      fc.assert(
        fc.property(scenario, ({ platform, jobs }) => {
          const trace = run(platform, jobs);
          expect(trace.records.length).toBe(jobs.length);
          for (const r of trace.records) {
            const ok =
              r.outcome === "completed" ||
              (r.outcome === "rejected" && typeof r.reason === "string" && r.reason.length > 0);
            expect(ok, `job ${r.job.id} ended ${r.outcome}`).toBe(true);
          }
        }),
        { numRuns },
      );
    });
    it("is deterministic: two runs give deep-equal traces", () => {
      fc.assert(
        fc.property(scenario, ({ platform, jobs }) => {
          expect(deterministicPart(run(platform, jobs))).toEqual(
            deterministicPart(run(platform, jobs)),
          );
        }),
        { numRuns },
      );
    });
    it(`terminates within ${maxEvents} events`, () => {
      fc.assert(
        fc.property(scenario, ({ platform, jobs }) => {
          const trace = run(platform, jobs);
          expect(trace.stats.events).toBeLessThanOrEqual(maxEvents);
        }),
        { numRuns },
      );
    });
  });
}
