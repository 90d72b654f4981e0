import { describe, expect, it } from "vitest";
import {
  checkSchedule,
  createJob,
  createPlatform,
  type JobRecord,
  type ScheduleTrace,
} from "../src/index.js";

const platform = createPlatform({
  machines: [{ cores: 2 }, { cores: 1, speed: 2 }],
  licenses: [
    { name: "f", copies: 1 },
    { name: "n", kind: "node-locked", copies: 1, machines: [1] },
  ],
});
const trace = (records: JobRecord[], horizon?: number): ScheduleTrace => ({
  scheduler: "hand",
  platform,
  records,
  stats: { events: 0, decisions: 0, schedulerMs: 0 },
  ...(horizon === undefined ? {} : { horizon }),
});
const done = (
  id: number,
  intervals: [number, number, { machine: number; cores: number }[]][],
  extra: Record<string, unknown> = {},
): JobRecord => {
  const cores = intervals[0]?.[2].reduce((s, p) => s + p.cores, 0) ?? 1;
  return {
    job: createJob({ id, submit: 0, runtime: 10, cores, ...extra }),
    intervals: intervals.map(([start, end, allocation]) => ({ start, end, allocation })),
    end: intervals.length > 0 ? intervals[intervals.length - 1]![1] : null,
    outcome: "completed",
  };
};
const kinds = (t: ScheduleTrace, options = {}) =>
  checkSchedule(t, options).map((v) => [v.kind, v.jobId]);

describe("checkSchedule", () => {
  it("accepts a valid schedule, preemption across machine speeds included", () => {
    // Job 2: 4 s on m0 (40 % of 10 s), then 3 s on m1 (speed 2: 6 s of work).
    const t = trace([
      done(1, [[0, 10, [{ machine: 0, cores: 1 }]]]),
      done(2, [
        [0, 4, [{ machine: 0, cores: 1 }]],
        [4, 7, [{ machine: 1, cores: 1 }]],
      ]),
      done(3, [[4, 14, [{ machine: 0, cores: 1 }]]]),
    ]);
    expect(checkSchedule(t)).toEqual([]);
  });

  it("accepts an empty last interval only where a completed job's rest of work was below the clock's resolution", () => {
    // Preempted a hair before the end of its 10 s of work and restarted at once: the rest of its
    // work ends at the restart time once rounded.
    const nearEnd = 10 - 10 * Number.EPSILON;
    const rest = done(1, [
      [0, nearEnd, [{ machine: 0, cores: 1 }]],
      [nearEnd, nearEnd, [{ machine: 0, cores: 1 }]],
    ]);
    expect(checkSchedule(trace([rest]))).toEqual([]);
    // Not last, a job's only interval, or not completed: still a record error.
    const middle = done(2, [
      [0, 5, [{ machine: 0, cores: 1 }]],
      [5, 5, [{ machine: 0, cores: 1 }]],
      [5, 10, [{ machine: 0, cores: 1 }]],
    ]);
    expect(kinds(trace([middle]))).toContainEqual(["record", 2]);
    const only = done(3, [[4, 4, [{ machine: 0, cores: 1 }]]]);
    expect(kinds(trace([only]))).toContainEqual(["record", 3]);
    const unfinished: JobRecord = { ...rest, end: null, outcome: "unfinished" };
    expect(kinds(trace([unfinished]))).toContainEqual(["record", 1]);
  });

  it("reports over-capacity with the job that overflowed, the machine and the time", () => {
    const t = trace([
      done(1, [[0, 10, [{ machine: 0, cores: 2 }]]]),
      done(2, [[5, 15, [{ machine: 0, cores: 1 }]]]),
    ]);
    expect(checkSchedule(t)).toEqual([
      {
        kind: "capacity",
        jobId: 2,
        time: 5,
        message: "job 2: machine 0: 3 cores in use at 5, capacity 2",
      },
    ]);
  });

  it("lets one job end exactly when another starts", () => {
    const t = trace([
      done(1, [[0, 10, [{ machine: 0, cores: 2 }]]]),
      done(2, [[10, 20, [{ machine: 0, cores: 2 }]]]),
    ]);
    expect(checkSchedule(t)).toEqual([]);
  });

  it("reports floating and node-locked license overuse, and licenses used where unusable", () => {
    const t = trace([
      done(1, [[0, 10, [{ machine: 0, cores: 1 }]]], { licenses: { f: 1 } }),
      done(2, [[0, 10, [{ machine: 0, cores: 1 }]]], { licenses: { f: 1 } }),
      done(3, [[0, 5, [{ machine: 1, cores: 1 }]]], { licenses: { n: 1 } }),
      done(4, [[5, 15, [{ machine: 0, cores: 1 }]]], { licenses: { n: 1 } }),
      done(5, [[5, 10, [{ machine: 1, cores: 1 }]]], { licenses: { ghost: 1 } }),
    ]);
    expect(kinds(t)).toEqual([
      ["license", 2],
      ["capacity", 4],
      ["license", 4],
      ["license", 5],
    ]);
  });

  it("reports starts before submit and before ready time", () => {
    const early = done(1, [[0, 10, [{ machine: 0, cores: 1 }]]]);
    const t = trace([
      { ...early, job: createJob({ id: 1, submit: 3, runtime: 10, cores: 1 }) },
      done(2, [[0, 10, [{ machine: 0, cores: 1 }]]], { ready: 2 }),
    ]);
    expect(kinds(t)).toEqual([
      ["start-before-submit", 1],
      ["start-before-ready", 2],
    ]);
  });

  it("reports work not conserved, overlapping intervals, bad allocations, unknown machines", () => {
    const t = trace([
      done(1, [[0, 9, [{ machine: 0, cores: 1 }]]]),
      done(2, [
        [0, 6, [{ machine: 0, cores: 1 }]],
        [5, 9, [{ machine: 1, cores: 1 }]],
      ]),
      {
        ...done(3, [[20, 30, [{ machine: 0, cores: 1 }]]]),
        job: createJob({ id: 3, submit: 0, runtime: 10, cores: 2 }),
      },
      done(4, [[40, 50, [{ machine: 9, cores: 1 }]]]),
    ]);
    expect(kinds(t)).toEqual([
      ["overlap", 2],
      ["work", 1],
      ["work", 2],
      ["allocation", 3],
      ["unknown-machine", 4],
      ["allocation", 4],
    ]);
  });

  it("reports lost jobs unless the run was cut by a horizon", () => {
    const waiting: JobRecord = {
      job: createJob({ id: 1, submit: 0, runtime: 1, cores: 1 }),
      intervals: [],
      end: null,
      outcome: "unfinished",
    };
    expect(kinds(trace([waiting]))).toEqual([["lost", 1]]);
    expect(kinds(trace([waiting], 100))).toEqual([]);
  });

  it("reports late admitted deadline jobs only when deadlines are hard", () => {
    const t = trace([
      done(1, [[0, 10, [{ machine: 0, cores: 1 }]]], { deadline: 8 }),
      {
        job: createJob({ id: 2, submit: 0, runtime: 1, cores: 1, deadline: 1 }),
        intervals: [],
        end: 3,
        outcome: "rejected",
        reason: "late",
      },
    ]);
    expect(kinds(t)).toEqual([]);
    expect(checkSchedule(t, { deadlinesAreHard: true })).toEqual([
      {
        kind: "deadline-missed",
        jobId: 1,
        time: 10,
        message: "job 1: was admitted with deadline 8 and ended at 10",
      },
    ]);
  });

  it("reports what a lenient check would let pass (each a fault once injected in the checker)", () => {
    // An overflow at 15 on machine 0, and a hand-over at 10 on the same machine that is not one:
    // releases come before acquisitions at equal times, so only job 3 is reported.
    const handOver = trace([
      done(1, [[0, 10, [{ machine: 0, cores: 2 }]]]),
      done(2, [[10, 20, [{ machine: 0, cores: 2 }]]]),
      done(3, [[15, 25, [{ machine: 0, cores: 1 }]]]),
    ]);
    expect(kinds(handOver)).toEqual([["capacity", 3]]);
    // half a second before the ready time is before it
    expect(
      kinds(trace([done(1, [[1.5, 11.5, [{ machine: 0, cores: 1 }]]], { ready: 2 })])),
    ).toEqual([["start-before-ready", 1]]);
    // one machine listed twice for a 2-core job
    expect(
      kinds(
        trace([
          done(1, [
            [
              0,
              10,
              [
                { machine: 0, cores: 1 },
                { machine: 0, cores: 1 },
              ],
            ],
          ]),
        ]),
      ),
    ).toEqual([["allocation", 1]]);
    // hard deadlines: a job admitted with deadline 5 and still waiting at the horizon (20)
    const late: JobRecord = {
      job: createJob({ id: 1, submit: 0, runtime: 1, cores: 1, deadline: 5 }),
      intervals: [],
      end: null,
      outcome: "unfinished",
    };
    expect(checkSchedule(trace([late], 20), { deadlinesAreHard: true })).toEqual([
      {
        kind: "deadline-missed",
        jobId: 1,
        time: 20,
        message: "job 1: was admitted with deadline 5 and was still unfinished at 20",
      },
    ]);
    // a floating license usable on machine 0 only, used by a job on machines 0 and 1
    const restricted: ScheduleTrace = {
      ...trace([]),
      platform: createPlatform({
        machines: [{}, {}],
        licenses: [{ name: "g", copies: 2, machines: [0] }],
      }),
      records: [
        done(
          1,
          [
            [
              0,
              10,
              [
                { machine: 0, cores: 1 },
                { machine: 1, cores: 1 },
              ],
            ],
          ],
          { licenses: { g: 1 } },
        ),
      ],
    };
    expect(checkSchedule(restricted).map((v) => v.message)).toEqual([
      "job 1: uses floating license g on machine 1, where it is not usable",
    ]);
  });

  it("reports records that contradict themselves", () => {
    const r = done(1, [[0, 10, [{ machine: 0, cores: 1 }]]]);
    expect(kinds(trace([{ ...r, end: 12 }]))).toEqual([["record", 1]]);
    expect(kinds(trace([r, r]))).toEqual([["record", 1]]);
  });

  it("uses the given execution model for work", () => {
    const t = trace([done(1, [[0, 11, [{ machine: 0, cores: 1 }]]])]);
    expect(kinds(t)).toEqual([["work", 1]]);
    expect(
      kinds(t, {
        executionModel: { duration: (_j: unknown, _a: unknown, _p: unknown, s: number) => s + 1 },
      }),
    ).toEqual([]);
  });
});
