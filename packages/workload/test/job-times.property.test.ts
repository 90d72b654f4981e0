import type { Job } from "@sched/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { jobTimeProblem, MAX_WORKLOAD_TIME } from "../src/job-times.js";

const job = (submit: number, runtime: number, extra: Partial<Job> = {}): Job => ({
  id: 1,
  submit,
  runtime,
  estimate: runtime,
  cores: 1,
  ...extra,
});

/** Exact arithmetic on doubles: every finite double is an integer times 2^-1074. */
const SCALE = 2n ** 1074n;
function exact(x: number): bigint {
  // x = mantissa * 2^exponent, with mantissa an integer below 2^53
  if (x === 0) return 0n;
  let e = Math.floor(Math.log2(Math.abs(x))) - 52;
  // log2 rounds: just below a power of two it may say the power itself
  if (2 ** (e + 52) > Math.abs(x)) e--;
  if (e < -1074) e = -1074;
  const mantissa = BigInt(x / 2 ** e);
  if (Number(mantissa) * 2 ** e !== x) throw new Error(`not exact: ${x}`);
  return e >= 0 ? mantissa * 2n ** BigInt(e) * SCALE : (mantissa * SCALE) / 2n ** BigInt(-e);
}

describe("jobTimeProblem", () => {
  it("accepts a job exactly when its end time holds the run time to one part in a million (exact oracle)", () => {
    const time = fc.oneof(
      fc.double({ min: 0, max: MAX_WORKLOAD_TIME, noNaN: true }),
      fc.integer({ min: 0, max: 2 ** 40 }),
      fc.constantFrom(0, 1e9, 1.7e9, 2 ** 52, 1e15, MAX_WORKLOAD_TIME - 100),
    );
    const span = fc.oneof(
      fc.double({ min: 1e-9, max: 1e9, noNaN: true }),
      fc.integer({ min: 1, max: 10 ** 7 }),
      fc.constantFrom(0.001, 0.1, 0.5, 1, 100),
    );
    fc.assert(
      fc.property(time, span, (submit, runtime) => {
        const problem = jobTimeProblem(job(submit + 0, runtime));
        const end = submit + runtime;
        const error = exact(end) - exact(submit) - exact(runtime);
        const abs = error < 0n ? -error : error;
        // |error| <= 1e-6 * runtime, in exact integers: 10^6 |error| <= runtime
        const holds = end <= MAX_WORKLOAD_TIME && abs * 1_000_000n <= exact(runtime);
        expect(problem === null).toBe(holds);
        if (problem !== null) expect(problem.field).toBe("runtime");
      }),
      { numRuns: 2000 },
    );
  });

  it("never absorbs: an accepted job ends after it starts; whole seconds below 2^53 always pass", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: MAX_WORKLOAD_TIME }),
        fc.integer({ min: 1, max: 2 ** 40 }),
        (submit, runtime) => {
          const problem = jobTimeProblem(job(submit, runtime));
          expect(problem === null).toBe(submit + runtime <= MAX_WORKLOAD_TIME);
          if (problem === null) expect(submit + runtime).toBeGreaterThan(submit);
        },
      ),
    );
  });

  it("orders ready and deadline after submit, and checks the run from the ready time", () => {
    expect(jobTimeProblem(job(10, 5, { ready: 9 }))?.field).toBe("ready");
    expect(jobTimeProblem(job(10, 5, { deadline: 9 }))?.field).toBe("deadline");
    expect(jobTimeProblem(job(10, 5, { ready: 10, deadline: 10 }))).toBeNull();
    expect(jobTimeProblem(job(0, 0.1, { ready: 1e15 }))).toEqual({
      field: "runtime",
      detail:
        "is 0.1, too short for ready 1000000000000000: a time that large moves in steps of 0.125 s, so the job would end 0.125 s after it starts",
    });
    expect(jobTimeProblem(job(-0, 5))).toBeNull();
    expect(jobTimeProblem(job(Number.NaN, 5))?.field).toBe("submit");
    expect(jobTimeProblem(job(0, 5, { deadline: Number.POSITIVE_INFINITY }))?.field).toBe(
      "deadline",
    );
  });
});
