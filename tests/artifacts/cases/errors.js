// @ts-check
import { InvalidInputError, SchedError } from "@sched/errors";

/** One typed error, as a plain object. */
export async function compute() {
  const e = new InvalidInputError("@sched/knapsack/mkpExact", "weights[1][3]", "is NaN");
  return {
    name: e.name,
    code: e.code,
    message: e.message,
    field: e.field,
    isSchedError: e instanceof SchedError,
  };
}
