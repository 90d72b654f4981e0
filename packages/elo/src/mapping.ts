import { InvalidInputError } from "@sched/core";
import { describeValue } from "@sched/errors";

/**
 * A static mapping problem of heterogeneous computing: `tasks` independent tasks, `machines`
 * machines, and the expected time to compute (ETC) of each task on each machine.
 */
export interface MappingProblem {
  readonly tasks: number;
  readonly machines: number;
  /**
   * Row-major `tasks x machines` matrix: `etc[t * machines + m]` is task `t`'s expected time on
   * machine `m`, a number >= 0, or `Infinity` when `t` cannot run on `m`.
   */
  readonly etc: Float64Array | readonly number[];
  /**
   * When each machine becomes free (its ready time).
   * @defaultValue all 0
   */
  readonly ready?: Float64Array | readonly number[];
}

/** The result of a mapping heuristic. */
export interface Mapping {
  /** Each task's machine, or -1 when no machine can run it. */
  readonly machineOf: Int32Array;
  /** The tasks in the order the heuristic mapped them (unmappable tasks left out). */
  readonly order: Int32Array;
  /** Each task's expected start and completion time (NaN when unmapped). */
  readonly start: Float64Array;
  readonly end: Float64Array;
  /** The largest completion time over tasks and machine ready times (0 for no machines). */
  readonly makespan: number;
}

/** Validates a {@link MappingProblem} and copies its ready times. @internal */
export function readProblem(
  problem: MappingProblem,
  where: string,
): { n: number; m: number; etc: Float64Array | readonly number[]; ready: Float64Array } {
  if (typeof problem !== "object" || problem === null) {
    throw new InvalidInputError(
      where,
      "problem",
      `is ${problem === null ? "null" : typeof problem}, expected { tasks, machines, etc }`,
    );
  }
  const { tasks: n, machines: m, etc } = problem;
  if (!Number.isInteger(n) || n < 0) {
    throw new InvalidInputError(
      where,
      "problem.tasks",
      `is ${describeValue(n)}, expected an integer >= 0`,
    );
  }
  if (!Number.isInteger(m) || m < 0) {
    throw new InvalidInputError(
      where,
      "problem.machines",
      `is ${describeValue(m)}, expected an integer >= 0`,
    );
  }
  if (!Array.isArray(etc) && !(etc instanceof Float64Array)) {
    throw new InvalidInputError(
      where,
      "problem.etc",
      `is ${describeValue(etc)}, expected an array or Float64Array of tasks * machines times`,
    );
  }
  if (etc.length !== n * m) {
    throw new InvalidInputError(
      where,
      "problem.etc",
      `has length ${etc.length}, expected tasks * machines = ${n * m}`,
    );
  }
  for (let i = 0; i < etc.length; i++) {
    const v: unknown = etc[i];
    if (typeof v !== "number" || !(v >= 0)) {
      throw new InvalidInputError(
        where,
        `problem.etc[${i}]`,
        `is ${describeValue(v)}, expected a number >= 0 or Infinity`,
      );
    }
  }
  const ready = new Float64Array(m);
  if (problem.ready !== undefined) {
    if (!Array.isArray(problem.ready) && !(problem.ready instanceof Float64Array)) {
      throw new InvalidInputError(
        where,
        "problem.ready",
        `is ${describeValue(problem.ready)}, expected an array or Float64Array of machines times`,
      );
    }
    if (problem.ready.length !== m) {
      throw new InvalidInputError(
        where,
        "problem.ready",
        `has length ${problem.ready.length}, expected machines = ${m}`,
      );
    }
    for (let j = 0; j < m; j++) {
      const v: unknown = problem.ready[j];
      if (typeof v !== "number" || !Number.isFinite(v)) {
        throw new InvalidInputError(
          where,
          `problem.ready[${j}]`,
          `is ${describeValue(v)}, expected a finite number`,
        );
      }
      ready[j] = v;
    }
  }
  return { n, m, etc, ready };
}

/** Builds the {@link Mapping} record. @internal */
export function finishMapping(
  machineOf: Int32Array,
  order: number[],
  start: Float64Array,
  end: Float64Array,
  ready: Float64Array,
): Mapping {
  let makespan = 0;
  for (const r of ready) if (r > makespan) makespan = r;
  return { machineOf, order: Int32Array.from(order), start, end, makespan };
}
