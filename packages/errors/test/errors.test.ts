import { describe, expect, it } from "vitest";
import {
  ConstraintViolationError,
  InvalidInputError,
  LimitExceededError,
  ParseError,
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
  });
});
