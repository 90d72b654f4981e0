import { InvalidInputError, validatePlatform } from "@sched/core";
import { describeValue, requireArray, requireFinite, requireObject } from "@sched/errors";

// The fields read here, as unknowns (this file imports nothing of the package: heuristic.ts
// calls it).
interface HeuristicFields {
  readonly name?: unknown;
  readonly apply?: unknown;
  readonly rows?: unknown;
  readonly uniformRate?: unknown;
}
interface RowFields {
  readonly job?: unknown;
  readonly progress?: unknown;
  readonly machine?: unknown;
}

/**
 * The checks of the matrix functions' caller input (`buildMatrix`, the sources' `update`,
 * `makePlan`), each error naming the function and the field. O(rows + machines): the jobs'
 * fields, not the matrix entries. Internal.
 */

function integer(where: string, field: string, v: unknown, min: number, max: number): number {
  if (typeof v !== "number" || !Number.isSafeInteger(v) || v < min || v > max)
    throw new InvalidInputError(
      where,
      field,
      `is ${describeValue(v)}, expected an integer in [${min}, ${max}]`,
    );
  return v;
}

function positive(where: string, field: string, v: unknown): void {
  if (typeof v !== "number" || !Number.isFinite(v) || !(v > 0))
    throw new InvalidInputError(
      where,
      field,
      `is ${describeValue(v)}, expected a finite number > 0`,
    );
}

/**
 * What the heuristics and the planner read of a job, checked (a `Job` as `createJob` makes it):
 * `id`, `submit`, `estimate`, `cores`, and when present `ready`, `deadline`, `benchmark`,
 * `licenses` and `input` (its machines below `machines`).
 */
export function checkJobOfRow(where: string, field: string, job: unknown, machines: number): void {
  requireObject(where, field, job);
  const j = job as Record<string, unknown>;
  integer(where, `${field}.id`, j.id, 0, Number.MAX_SAFE_INTEGER);
  requireFinite(where, `${field}.submit`, j.submit);
  positive(where, `${field}.estimate`, j.estimate);
  integer(where, `${field}.cores`, j.cores, 1, Number.MAX_SAFE_INTEGER);
  if (j.ready !== undefined) requireFinite(where, `${field}.ready`, j.ready);
  if (j.deadline !== undefined) requireFinite(where, `${field}.deadline`, j.deadline);
  if (j.benchmark !== undefined) positive(where, `${field}.benchmark`, j.benchmark);
  if (j.licenses !== undefined) {
    requireObject(where, `${field}.licenses`, j.licenses);
    for (const [name, n] of Object.entries(j.licenses as object))
      integer(where, `${field}.licenses[${JSON.stringify(name)}]`, n, 1, Number.MAX_SAFE_INTEGER);
  }
  if (j.input !== undefined) {
    requireArray(where, `${field}.input`, j.input).forEach((d, k) => {
      requireObject(where, `${field}.input[${k}]`, d);
      const { size, machine } = d as Record<string, unknown>;
      if (typeof size !== "number" || !Number.isFinite(size) || size < 0)
        throw new InvalidInputError(
          where,
          `${field}.input[${k}].size`,
          `is ${describeValue(size)}, expected a finite number >= 0`,
        );
      integer(where, `${field}.input[${k}].machine`, machine, 0, machines - 1);
    });
  }
}

/**
 * A `MatrixInput` (`{ now, platform, jobs, previous?, eligibility? }`), checked: `now` finite, a
 * valid platform, each row `{ job, progress in [0, 1], machine -1 or a machine index }`,
 * `previous` an Int32Array of one machine index or -1 per row, `eligibility` a function (what it
 * returns is checked where it is read).
 */
export function checkMatrixInput(where: string, field: string, input: unknown): void {
  requireObject(where, field, input);
  const i = input as Record<string, unknown>;
  requireFinite(where, `${field}.now`, i.now);
  validatePlatform(i.platform as never, where);
  const cols = (i.platform as { machines: readonly unknown[] }).machines.length;
  const rows = requireArray(where, `${field}.jobs`, i.jobs);
  for (let r = 0; r < rows.length; r++) checkRow(where, `${field}.jobs[${r}]`, rows[r], cols);
  const previous = i.previous;
  if (previous !== undefined) {
    if (!(previous instanceof Int32Array) || previous.length !== rows.length)
      throw new InvalidInputError(
        where,
        `${field}.previous`,
        `is ${previous instanceof Int32Array ? `an Int32Array of ${previous.length}` : describeValue(previous)}, expected an Int32Array of ${rows.length} (one per row of ${field}.jobs)`,
      );
    for (let r = 0; r < previous.length; r++)
      integer(where, `${field}.previous[${r}]`, previous[r], -1, cols - 1);
  }
  if (i.eligibility !== undefined && typeof i.eligibility !== "function")
    throw new InvalidInputError(
      where,
      `${field}.eligibility`,
      `is ${describeValue(i.eligibility)}, expected a function (row, index) => Uint8Array`,
    );
}

/**
 * Eligibility rows this package built itself (the planner's, one per job, never changed after),
 * with how many machines each marks: {@link countEligible} need not read them again. Internal.
 */
export const KNOWN_ELIGIBLE = new WeakMap<Uint8Array, number>();

/**
 * What `input.eligibility` returned for row `i`, checked: `cols` entries of 0 or 1. Returns how
 * many are 1.
 */
export function countEligible(e: unknown, i: number, cols: number, where: string): number {
  if (e instanceof Uint8Array && e.length === cols) {
    const known = KNOWN_ELIGIBLE.get(e);
    if (known !== undefined) return known;
  }
  if (!(e instanceof Uint8Array) || e.length !== cols)
    throw new InvalidInputError(
      where,
      "input.eligibility",
      `returned ${e instanceof Uint8Array ? `a Uint8Array of ${e.length}` : describeValue(e)} for row ${i}, expected a Uint8Array of ${cols} (one 0 or 1 per machine)`,
    );
  let c = 0;
  for (let m = 0; m < cols; m++) {
    const v = e[m] as number;
    if (v > 1)
      throw new InvalidInputError(
        where,
        "input.eligibility",
        `returned ${v} for row ${i}, machine ${m}, expected 0 or 1`,
      );
    c += v;
  }
  return c;
}

/**
 * A list of heuristics, checked: each an object with a string `name`, an `apply` function, and
 * when present a `rows` function and a finite `uniformRate`.
 */
export function checkHeuristics(where: string, field: string, heuristics: unknown): void {
  const list = requireArray(where, field, heuristics);
  for (let k = 0; k < list.length; k++) checkHeuristic(where, `${field}[${k}]`, list[k]);
}

/** One heuristic, checked (see {@link checkHeuristics}); `at` names it. */
export function checkHeuristic(where: string, at: string, heuristic: unknown): void {
  requireObject(where, at, heuristic);
  const h = heuristic as HeuristicFields;
  if (typeof h.name !== "string")
    throw new InvalidInputError(
      where,
      `${at}.name`,
      `is ${describeValue(h.name)}, expected a string`,
    );
  if (typeof h.apply !== "function")
    throw new InvalidInputError(
      where,
      `${at}.apply`,
      `is ${describeValue(h.apply)}, expected a function (context, p) => void`,
    );
  if (h.rows !== undefined && typeof h.rows !== "function")
    throw new InvalidInputError(
      where,
      `${at}.rows`,
      `is ${describeValue(h.rows)}, expected a function (context) => kernel`,
    );
  if (h.uniformRate !== undefined) requireFinite(where, `${at}.uniformRate`, h.uniformRate);
}

/** A machine index of `platform`, checked (the platform is checked first). */
export function checkMachineIndex(
  where: string,
  field: string,
  platform: unknown,
  m: unknown,
): void {
  validatePlatform(platform as never, where);
  const cols = (platform as { machines: readonly unknown[] }).machines.length;
  integer(where, field, m, 0, cols - 1);
}

/** A matrix row `{ job, progress, machine }` and a machine index `m` of `platform`, checked. */
export function checkRowOn(where: string, row: unknown, platform: unknown, m: unknown): void {
  checkMachineIndex(where, "m", platform, m);
  checkRow(where, "row", row, (platform as { machines: readonly unknown[] }).machines.length);
}

/**
 * A matrix row `{ job, progress in [0, 1], machine -1 or a machine index below `cols` }`,
 * checked; `at` names it.
 */
export function checkRow(where: string, at: string, row: unknown, cols: number): void {
  requireObject(where, at, row);
  const r = row as RowFields;
  checkJobOfRow(where, `${at}.job`, r.job, cols);
  const p = r.progress;
  if (typeof p !== "number" || !(p >= 0 && p <= 1))
    throw new InvalidInputError(
      where,
      `${at}.progress`,
      `is ${describeValue(p)}, expected a number in [0, 1]`,
    );
  integer(where, `${at}.machine`, r.machine, -1, cols - 1);
}
