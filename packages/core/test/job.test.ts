import { describe, expect, it } from "vitest";
import {
  createJob,
  InvalidInputError,
  identicalPool,
  type Scheduler,
  simulate,
  traceFromJSON,
  traceToJSON,
  validateJobs,
} from "../src/index.js";

describe("createJob", () => {
  it("defaults estimate to runtime and freezes the job", () => {
    const j = createJob({ id: 1, submit: 0, runtime: 60, cores: 4 });
    expect(j).toEqual({ id: 1, submit: 0, runtime: 60, estimate: 60, cores: 4 });
    expect(Object.isFrozen(j)).toBe(true);
  });

  it("keeps optional fields and copies nested ones", () => {
    const licenses = { matlab: 2 };
    const j = createJob({
      id: 2,
      submit: 5,
      runtime: 10,
      estimate: 20,
      cores: 1,
      deadline: 100,
      ready: 7,
      licenses,
      input: [{ size: 1e6, machine: 0 }],
      benchmark: 300,
      user: 3,
      priority: 1.5,
    });
    expect(j.licenses).toEqual({ matlab: 2 });
    expect(j.licenses).not.toBe(licenses);
    expect(j.deadline).toBe(100);
    expect(j.input).toEqual([{ size: 1e6, machine: 0 }]);
  });

  it("drops keys set to undefined", () => {
    const j = createJob({ id: 1, submit: 0, runtime: 1, cores: 1, deadline: undefined } as never);
    expect("deadline" in j).toBe(false);
  });

  it.each([
    [{ id: -1, submit: 0, runtime: 1, cores: 1 }, "spec.id is -1, expected an integer >= 0"],
    [{ id: 7, submit: 0, runtime: 1, cores: 0 }, "job 7.cores is 0, expected an integer >= 1"],
    [{ id: 7, submit: Number.NaN, runtime: 1, cores: 1 }, "job 7.submit is NaN"],
    [
      { id: 7, submit: 0, runtime: 0, cores: 1 },
      "job 7.runtime is 0, expected a finite number > 0",
    ],
    [{ id: 7, submit: 0, runtime: 1, estimate: -3, cores: 1 }, "job 7.estimate is -3"],
    [{ id: 7, submit: 0, runtime: 1, cores: 1, licenses: { a: 0 } }, 'job 7.licenses["a"] is 0'],
    [{ id: 7, submit: 0, runtime: 1, cores: 1, deadline: Infinity }, "job 7.deadline is Infinity"],
    [
      { id: 7, submit: 0, runtime: 1, cores: 1, input: [{ size: 1, machine: -1 }] },
      "job 7.input[0].machine is -1",
    ],
  ])("throws InvalidInputError naming the job id and field: %j", (spec, message) => {
    expect(() => createJob(spec as never)).toThrow(InvalidInputError);
    expect(() => createJob(spec as never)).toThrow(`@sched/core/createJob: ${message}`);
  });
});

describe("validateJobs", () => {
  it("builds every job in input order", () => {
    const jobs = validateJobs([
      { id: 2, submit: 5, runtime: 1, cores: 1 },
      { id: 1, submit: 0, runtime: 2, cores: 1 },
    ]);
    expect(jobs.map((j) => [j.id, j.estimate])).toEqual([
      [2, 1],
      [1, 2],
    ]);
  });

  it("names duplicate ids and bad fields", () => {
    expect(() =>
      validateJobs([
        { id: 1, submit: 0, runtime: 1, cores: 1 },
        { id: 1, submit: 0, runtime: 1, cores: 1 },
      ]),
    ).toThrow("@sched/core/validateJobs: jobs[1].id is 1, a duplicate job id");
    expect(() => validateJobs([{ id: 4, submit: 0, runtime: 1, cores: 1.5 }])).toThrow(
      "@sched/core/validateJobs: job 4.cores is 1.5, expected an integer >= 1",
    );
  });
});

describe("built jobs (createJob, validateJobs, traceFromJSON)", () => {
  it("are frozen copies in the spec's key order, estimate last when the spec has none", () => {
    const a = createJob({ cores: 1, id: 1, submit: 0, runtime: 5, user: 3 });
    expect(Object.keys(a)).toEqual(["cores", "id", "submit", "runtime", "user", "estimate"]);
    const b = createJob({ id: 2, estimate: undefined, submit: 0, runtime: 5, cores: 1 } as never);
    expect(Object.keys(b)).toEqual(["id", "estimate", "submit", "runtime", "cores"]);
    expect(b.estimate).toBe(5);
    const c = createJob({ id: 3, submit: 0, licenses: { x: 1 }, runtime: 5, cores: 1 });
    expect(Object.keys(c)).toEqual(["id", "submit", "licenses", "runtime", "cores", "estimate"]);
    expect(Object.isFrozen(c.licenses)).toBe(true);
    const [d] = validateJobs([{ id: 4, submit: 0, runtime: 5, cores: 1 }]);
    expect(Object.isFrozen(d)).toBe(true);
    const trace = simulate([a], identicalPool(1), {
      name: "noop-start",
      schedule(ctx) {
        for (const w of ctx.view.waiting) ctx.start(w.job.id, [{ machine: 0, cores: 1 }]);
      },
    });
    const back = traceFromJSON(traceToJSON(trace)).records[0]!.job;
    expect(back).toEqual(a);
    expect(Object.isFrozen(back)).toBe(true);
  });

  it("still checks plain job objects in simulate, with the same message as before", () => {
    const policy = { name: "idle", schedule() {} };
    const bad = { id: 3, submit: 0, runtime: 5, estimate: 5, cores: 0 };
    expect(() => simulate([bad], identicalPool(1), policy)).toThrow(
      "@sched/core/simulate: job 3.cores is 0, expected an integer >= 1",
    );
    const good = createJob({ id: 4, submit: 0, runtime: 5, cores: 1 });
    expect(() =>
      simulate([good, { ...good, id: 5, runtime: Number.NaN }], identicalPool(1), policy),
    ).toThrow("@sched/core/simulate: job 5.runtime is NaN, expected a finite number > 0");
  });
});

describe("a misspelt job field", () => {
  // A job may carry fields of its own (kept as they are), but a near miss of a field it lacks
  // was kept too, and silently ignored: `dedline: 5` gave a job without a deadline.
  const base = { id: 1, submit: 0, runtime: 10, cores: 1 };

  it("is refused by createJob, validateJobs and simulate, naming it and the field meant", () => {
    expect(() => createJob({ ...base, dedline: 5 } as never)).toThrow(
      "@sched/core/createJob: spec.dedline is not a field (did you mean `deadline`?)",
    );
    expect(() => validateJobs([createJob(base), { ...base, id: 2, redy: 3 } as never])).toThrow(
      /jobs\[1\]\.redy is not a field \(did you mean `ready`\?\)/,
    );
    const idle: Scheduler = { name: "idle", schedule: () => [] };
    expect(() =>
      simulate([{ ...base, estimate: 10, Deadline: 4 } as never], identicalPool(1), idle),
    ).toThrow(/jobs\[0\]\.Deadline is not a field \(did you mean `deadline`\?\)/);
  });

  it("leaves a caller's own fields alone (far from every field, or beside the field itself)", () => {
    const job = createJob({ ...base, state: "PENDING", tag: "x" } as never) as unknown as Record<
      string,
      unknown
    >;
    expect(job.state).toBe("PENDING");
    expect(job.tag).toBe("x");
    const trace = simulate(
      [{ ...base, estimate: 10, deadline: 20, deadlines: [1] } as never],
      identicalPool(1),
      { name: "idle", schedule: () => [] },
    );
    expect(trace.records.map((r) => r.job.id)).toEqual([1]);
  });
});
