import { describe, expect, it } from "vitest";
import {
  ConstraintViolationError,
  InvalidInputError,
  LimitExceededError,
  ParseError,
  PolicyError,
  SchedError,
} from "../src/index.js";

describe("@sched/errors", () => {
  it("InvalidInputError names where and the field", () => {
    const e = new InvalidInputError("@sched/knapsack/mkpExact", "weights[3]", "is NaN");
    expect(e).toBeInstanceOf(SchedError);
    expect(e).toBeInstanceOf(Error);
    expect(e.message).toBe("@sched/knapsack/mkpExact: weights[3] is NaN");
    expect(e.code).toBe("INVALID_INPUT");
    expect(e.field).toBe("weights[3]");
    expect(e.name).toBe("InvalidInputError");
  });

  it("ParseError names the source, the line and the field", () => {
    const e = new ParseError(
      "@sched/workload/parseSwf",
      { source: "kth.swf", line: 12, field: "run time (field 4)" },
      '"abc" is not a number',
    );
    expect(e.message).toBe(
      '@sched/workload/parseSwf: kth.swf:12 run time (field 4): "abc" is not a number',
    );
    expect(e.line).toBe(12);
    expect(new ParseError("w", { source: "x" }, "empty").message).toBe("w: x: empty");
  });

  it("ConstraintViolationError names the job and the resource", () => {
    const e = new ConstraintViolationError(
      "@sched/core/engine",
      7,
      "machine 2 cores",
      "needs 4, 1 free",
    );
    expect(e.message).toBe("@sched/core/engine: job 7: machine 2 cores: needs 4, 1 free");
    expect(e.jobId).toBe(7);
    expect(e.code).toBe("CONSTRAINT_VIOLATION");
  });

  it("LimitExceededError keeps the cause", () => {
    const cause = new Error("inner");
    const e = new LimitExceededError("x", "too many events", { cause });
    expect(e.cause).toBe(cause);
    expect(e.code).toBe("LIMIT_EXCEEDED");
    expect(e.limit).toBeUndefined();
  });

  it("LimitExceededError names the option that sets the limit when given, without changing the message", () => {
    const e = new LimitExceededError("x", "stopped (options.n sets the bound)", {
      limit: "options.n",
    });
    expect(e.limit).toBe("options.n");
    expect(e.message).toBe("x: stopped (options.n sets the bound)");
  });

  it("PolicyError names the policy, the time and the jobs, and keeps the cause", () => {
    const cause = new TypeError("x is undefined");
    const e = new PolicyError(
      "@sched/core/simulate",
      { policy: "mine", time: 40, jobIds: [5, 6] },
      'policy "mine" threw at t=40: TypeError: x is undefined',
      { cause },
    );
    expect(e.message).toBe(
      '@sched/core/simulate: policy "mine" threw at t=40: TypeError: x is undefined',
    );
    expect([e.policy, e.time, e.jobIds, e.cause, e.code]).toEqual([
      "mine",
      40,
      [5, 6],
      cause,
      "POLICY",
    ]);
    expect(e).toBeInstanceOf(SchedError);
  });
});
