import { describe, expect, it } from "vitest";
import {
  checkSchedule,
  computeMetrics,
  createJob,
  InvalidInputError,
  identicalPool,
  metricsOf,
  type Scheduler,
  simulate,
  traceFromJSON,
  traceToJSON,
  validatePlatform,
} from "../src/index.js";

// Traces and records given by callers (built by hand, or by their own scheduler) are checked at
// the public doors: a malformed one is an InvalidInputError naming the record and the field.
// Each example was a raw TypeError, a silently wrong result or a broken round trip before
// (found by the trace cases of options-fuzz.property.test.ts).

const firstFit: Scheduler = {
  name: "ff",
  schedule(ctx) {
    for (const w of ctx.view.waiting) {
      const m = ctx.view.nextFreeMachine(0);
      if (m >= 0 && ctx.view.freeCores(m) >= w.job.cores) {
        ctx.start(w.job.id, [{ machine: m, cores: w.job.cores }]);
      }
    }
  },
};

/** A trace as plain, loosely typed data (to break it field by field). */
interface HandTrace {
  platform: { machines: (Record<string, unknown> | undefined)[]; [key: string]: unknown };
  records: {
    job?: Record<string, unknown>;
    intervals?: { start: number; end: number; allocation: { machine: number }[] }[];
    outcome: string;
  }[];
  [key: string]: unknown;
}

/** A valid trace of two jobs on two 2-core machines, as plain mutable data. */
function handTrace(): HandTrace {
  const jobs = [
    createJob({ id: 1, submit: 0, runtime: 10, cores: 2 }),
    createJob({ id: 2, submit: 5, runtime: 10, cores: 1 }),
  ];
  const {
    format: _f,
    version: _v,
    ...rest
  } = JSON.parse(traceToJSON(simulate(jobs, identicalPool(2, { cores: 2 }), firstFit)));
  return rest;
}

const where = (fn: string, detail: string) => `@sched/core/${fn}: ${detail}`;

describe("computeMetrics and metricsOf: a malformed record names the record and the field", () => {
  it("a record without intervals (was a raw TypeError: reading 'length')", () => {
    const t = handTrace();
    delete t.records[1]!.intervals;
    expect(() => computeMetrics(t as never)).toThrow(
      where(
        "computeMetrics",
        "trace.records[1].intervals is undefined, expected an array of intervals",
      ),
    );
  });

  it("an outcome that is none of the three (was counted as unfinished, silently)", () => {
    const t = handTrace();
    t.records[0]!.outcome = "complete";
    expect(() => computeMetrics(t as never)).toThrow(
      where(
        "computeMetrics",
        'trace.records[0].outcome is "complete", expected "completed", "rejected" or "unfinished"',
      ),
    );
  });

  it("an allocation on a machine the platform lacks (was left out of machine usage, silently)", () => {
    const t = handTrace();
    t.records[0]!.intervals![0]!.allocation[0]!.machine = 7;
    expect(() => computeMetrics(t as never)).toThrow(
      where(
        "computeMetrics",
        "trace.records[0].intervals[0].allocation[0].machine is 7, expected a machine index of the platform (it has 2)",
      ),
    );
  });

  it("a machine index between two machines, an event count that is not an integer, an infinite horizon", () => {
    const t = handTrace();
    t.records[0]!.intervals![0]!.allocation[0]!.machine = 0.5;
    expect(() => computeMetrics(t as never)).toThrow(
      where(
        "computeMetrics",
        "trace.records[0].intervals[0].allocation[0].machine is 0.5, expected a machine index of the platform (it has 2)",
      ),
    );
    const counts = handTrace();
    (counts.stats as { events: number }).events = 1.5;
    expect(() => computeMetrics(counts as never)).toThrow(
      where("computeMetrics", "trace.stats.events is 1.5, expected an integer >= 0"),
    );
    // JSON has no Infinity: it would be written as null, which traceFromJSON refuses.
    const endless = { ...handTrace(), horizon: Number.POSITIVE_INFINITY };
    expect(() => traceToJSON(endless as never)).toThrow(
      where("traceToJSON", "trace.horizon is Infinity, expected a finite number (or absent)"),
    );
  });

  it("a job field of the wrong type, named from the record", () => {
    const t = handTrace();
    t.records[1]!.job!.cores = "1";
    expect(() => computeMetrics(t as never)).toThrow(
      where("computeMetrics", 'trace.records[1].job.cores is "1", expected an integer >= 1'),
    );
  });

  it("a platform with a machine missing (was a raw TypeError)", () => {
    const t = handTrace();
    t.platform.machines[1] = undefined;
    expect(() => computeMetrics(t as never)).toThrow(
      where("computeMetrics", "trace.platform.machines[1] is undefined, expected an object"),
    );
  });

  it("names computeMetrics, the function called (its option errors said metricsOf)", () => {
    expect(() => computeMetrics(handTrace() as never, { tau: 0 })).toThrow(
      where("computeMetrics", "options.tau is 0, expected a finite number > 0"),
    );
  });

  it("metricsOf refuses records that cannot be iterated (was a raw TypeError)", () => {
    expect(() => metricsOf(5 as never, { totalCores: 4 })).toThrow(
      where("metricsOf", "records is 5, expected an iterable of job records (an array)"),
    );
    expect(() => metricsOf([null] as never, { totalCores: 4 })).toThrow(
      where("metricsOf", "records[0] is null, expected a job record"),
    );
  });

  it("metricsOf refuses an infinite core count and a NaN horizon (were NaN metrics and ignored)", () => {
    const { records } = handTrace();
    expect(() => metricsOf(records as never, { totalCores: Infinity })).toThrow(
      where("metricsOf", "capacity.totalCores is Infinity, expected a finite number > 0"),
    );
    expect(() => metricsOf(records as never, { totalCores: 4 }, { horizon: Number.NaN })).toThrow(
      where("metricsOf", "options.horizon is NaN, expected a finite number"),
    );
  });

  it("a valid trace gives the same metrics as before", () => {
    const m = computeMetrics(handTrace() as never);
    expect([m.jobs, m.completed, m.meanWait, m.makespan]).toEqual([2, 2, 0, 15]);
  });
});

describe("checkSchedule: malformed is an input error, well-typed but invalid a violation", () => {
  it("a NaN start is an input error (was a record violation 'interval [NaN, 10]')", () => {
    const t = handTrace();
    t.records[0]!.intervals![0]!.start = Number.NaN;
    expect(() => checkSchedule(t as never)).toThrow(
      where(
        "checkSchedule",
        "trace.records[0].intervals[0].start is NaN, expected a finite number",
      ),
    );
  });

  it("a record without its job is an input error (was a raw TypeError: reading 'id')", () => {
    const t = handTrace();
    delete t.records[1]!.job;
    let error: unknown;
    try {
      checkSchedule(t as never);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(InvalidInputError);
    expect((error as Error).message).toBe(
      where("checkSchedule", "trace.records[1].job is undefined, expected a job object"),
    );
  });

  it("a reversed interval and an unknown machine stay reported violations", () => {
    const t = handTrace();
    const iv = t.records[0]!.intervals![0]!;
    [iv.start, iv.end] = [iv.end, iv.start];
    t.records[1]!.intervals![0]!.allocation[0]!.machine = 9;
    const kinds = checkSchedule(t as never).map((v) => v.kind);
    expect(kinds).toContain("record");
    expect(kinds).toContain("unknown-machine");
  });
});

describe("traceToJSON writes only what traceFromJSON reads back", () => {
  it("refuses a machine name that is not a string (was written, then refused on reading)", () => {
    const t = handTrace();
    t.platform.machines[0]!.name = 5;
    expect(() => traceToJSON(t as never)).toThrow(
      where("traceToJSON", "trace.platform.machines[0].name is 5, expected a string"),
    );
  });

  it("a trace read back without timings writes and reads back again (wrote schedulerMs: null)", () => {
    const once = traceFromJSON(traceToJSON(traceFromJSON(JSON.stringify(handTrace0()))));
    expect(Number.isNaN(once.stats.schedulerMs)).toBe(true);
    expect(traceFromJSON(traceToJSON(once)).records).toEqual(once.records);
  });
});

describe("validatePlatform checks every part of a platform built by hand", () => {
  it("a sparse machine list (was a raw TypeError: reading 'id')", () => {
    const p = identicalPool(2);
    // biome-ignore lint/suspicious/noSparseArray: the malformed input
    const machines = [, p.machines[1]] as never;
    expect(() => validatePlatform({ ...p, machines })).toThrow(
      where("validatePlatform", "platform.machines[0] is undefined, expected an object"),
    );
  });

  it("a machine's cluster the platform does not have, a license kind it does not know", () => {
    const p = identicalPool(2, { licenses: [{ name: "l", copies: 1 }] });
    expect(() =>
      validatePlatform({ ...p, machines: [p.machines[0]!, { ...p.machines[1]!, cluster: 3 }] }),
    ).toThrow("platform.machines[1].cluster is 3, but the platform has 1 clusters");
    expect(() =>
      validatePlatform({ ...p, licenses: [{ ...p.licenses[0]!, kind: "site" as never }] }),
    ).toThrow('platform.licenses[0].kind is "site", expected "floating" or "node-locked"');
  });
});

/** A trace document written without timings (`stats` without `schedulerMs`). */
function handTrace0(): unknown {
  const jobs = [createJob({ id: 1, submit: 0, runtime: 10, cores: 1 })];
  return JSON.parse(traceToJSON(simulate(jobs, identicalPool(1), firstFit), { timings: false }));
}

describe("simulate refuses a horizon no trace can write", () => {
  it("until: -Infinity (its trace's horizon was written as null, which traceFromJSON refuses)", () => {
    const jobs = [createJob({ id: 1, submit: 0, runtime: 10, cores: 1 })];
    expect(() => simulate(jobs, identicalPool(1), firstFit, { until: -Infinity })).toThrow(
      "@sched/core/simulate: options.until is -Infinity, expected a number > -Infinity (Infinity: no horizon)",
    );
    const cut = simulate(jobs, identicalPool(1), firstFit, { until: 5 });
    expect(traceFromJSON(traceToJSON(cut)).horizon).toBe(5);
  });
});
