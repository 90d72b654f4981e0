/**
 * The allocation policies of section 5: how `findAllocation` chooses among the maximum
 * availability rectangles of the feasible candidate start times.
 */

import { InvalidInputError } from "@sched/core";

/** How a value reads in a message: strings quoted. */
function show(value: unknown): string {
  return typeof value === "string" ? JSON.stringify(value) : String(value);
}

/**
 * The maximum availability rectangle of one feasible candidate start time (section 4.2): the
 * PEs free throughout `[start, start + duration)` (`freePEs` of them), stretched back to
 * `begin` and forward to `end` for as long as all of those PEs stay free.
 */
export interface AvailabilityRectangle {
  /** The candidate start time `ts`. */
  readonly start: number;
  /** `T_begin`: earliest time from which all the rectangle's PEs are free up to `start`; never before the structure's origin. */
  readonly begin: number;
  /** `T_end`: latest time until which all the rectangle's PEs stay free; `Infinity` when they are never reserved again. */
  readonly end: number;
  /** `|PE_free|`: how many PEs are free throughout `[start, start + duration)`. */
  readonly freePEs: number;
}

/**
 * A policy: a preference order on availability rectangles. `findAllocation` visits the
 * feasible candidates in increasing start time and keeps a candidate only when it is strictly
 * better than the best so far, so rectangles that compare equal go to the earliest start
 * (the paper's tie rule). Write your own and pass it to `findAllocation`; the structure does
 * not need to know it.
 *
 * @example
 * ```ts
 * // Prefer the rectangle that ends soonest.
 * const earliestEnd: AllocationPolicy = {
 *   name: "EarliestEnd",
 *   compare: (a, b) => (a.end < b.end ? -1 : a.end > b.end ? 1 : 0),
 * };
 * ```
 */
export interface AllocationPolicy {
  /** Short name shown in reports, e.g. `"PE_W"`. */
  readonly name: string;
  /**
   * Negative when `a` is preferred to `b`, positive when `b` is, 0 when they tie (NaN also
   * counts as a tie). Should be a consistent total preorder. The rectangles are fresh objects.
   * The package's policies check both arguments here (`InvalidInputError` naming `a.freePEs`
   * etc.); `findAllocation` calls them without the checks.
   */
  compare(a: AvailabilityRectangle, b: AvailabilityRectangle): number;
}

/** Three-way comparison of numbers that handles `Infinity` (where `a - b` would give NaN). */
function cmp(a: number, b: number): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * A policy that minimises (`"min"`) or maximises (`"max"`) a numeric score of the rectangle;
 * equal scores go to the earliest start. Scores may be `Infinity`. The policy's `compare` is a
 * checked door: it throws `InvalidInputError` naming `a` or `b` and the field on a malformed
 * rectangle (`b.freePEs is "3", expected an integer >= 1`) and on a score that is NaN or not a
 * number (`score(a) is NaN`). `findAllocation` calls the comparison without those checks, on
 * rectangles it built; there a NaN score counts as a tie, so keep them out.
 *
 * Complexity: one `score` call per comparison side.
 *
 * @example
 * ```ts
 * const fewestPEsFirst = scorePolicy("MyPolicy", (r) => r.freePEs, "min");
 * ```
 */
export function scorePolicy(
  name: string,
  score: (rectangle: AvailabilityRectangle) => number,
  direction: "min" | "max",
): AllocationPolicy {
  const where = "@sched/advance-reservation/scorePolicy";
  if (typeof name !== "string") {
    throw new InvalidInputError(where, "name", `is ${show(name)}, expected a string`);
  }
  if (typeof score !== "function") {
    throw new InvalidInputError(
      where,
      "score",
      `is ${show(score)}, expected a function (rectangle) => number`,
    );
  }
  if (direction !== "min" && direction !== "max") {
    // Anything but "min" used to mean "max", silently.
    throw new InvalidInputError(
      where,
      "direction",
      `is ${show(direction)}, expected "min" or "max"`,
    );
  }
  return buildScorePolicy(`${where}(${JSON.stringify(name)}).compare`, name, score, direction);
}

/**
 * The comparison `findAllocation` calls for each candidate: a policy's `compare` without the
 * checks of its public door when the package built the policy (`scorePolicy` and the seven
 * exported ones; their rectangles are well formed by construction), the policy's own `compare`
 * otherwise. Internal.
 */
const UNCHECKED = new WeakMap<AllocationPolicy, AllocationPolicy["compare"]>();

/**
 * `policy.compare` without the checks of the public door, for `findAllocation`'s inner loop
 * (internal; the policy itself was checked by `checkPolicy`). A policy the package did not
 * build is called as written.
 */
export function uncheckedCompare(policy: AllocationPolicy): AllocationPolicy["compare"] {
  return UNCHECKED.get(policy) ?? ((a, b) => policy.compare(a, b));
}

/**
 * A score policy whose public `compare` checks both rectangles and both scores, and whose unchecked comparison is registered for `findAllocation`.
 */
function buildScorePolicy(
  where: string,
  name: string,
  score: (rectangle: AvailabilityRectangle) => number,
  direction: "min" | "max",
): AllocationPolicy {
  const raw: AllocationPolicy["compare"] =
    direction === "min" ? (a, b) => cmp(score(a), score(b)) : (a, b) => cmp(score(b), score(a));
  const scored = (field: "a" | "b", r: AvailabilityRectangle): number => {
    const value = score(r);
    if (typeof value !== "number" || Number.isNaN(value)) {
      throw new InvalidInputError(
        where,
        `score(${field})`,
        `is ${show(value)}, expected a number (Infinity allowed)`,
      );
    }
    return value;
  };
  const policy: AllocationPolicy = {
    name,
    compare(a, b) {
      checkRectangle(where, "a", a);
      checkRectangle(where, "b", b);
      const sa = scored("a", a);
      const sb = scored("b", b);
      return direction === "min" ? cmp(sa, sb) : cmp(sb, sa);
    },
  };
  UNCHECKED.set(policy, raw);
  return policy;
}

/**
 * Throws unless `r` is a well-formed {@link AvailabilityRectangle}: `start` and `begin` finite
 * with `begin <= start`, `end` a number `>= start` (or `Infinity`), `freePEs` an integer `>= 1`
 * (`findAllocation` builds rectangles for requests of one PE or more; with 0 PEs the
 * PE-Duration area of an endless rectangle, `0 * Infinity`, would be NaN).
 */
function checkRectangle(where: string, field: string, r: AvailabilityRectangle): void {
  if (typeof r !== "object" || r === null || Array.isArray(r)) {
    throw new InvalidInputError(
      where,
      field,
      `is ${Array.isArray(r) ? "an array" : show(r)}, expected { start, begin, end, freePEs }`,
    );
  }
  const { start, begin, end, freePEs } = r;
  if (typeof start !== "number" || !Number.isFinite(start)) {
    throw new InvalidInputError(
      where,
      `${field}.start`,
      `is ${show(start)}, expected a finite number`,
    );
  }
  if (typeof begin !== "number" || !Number.isFinite(begin) || begin > start) {
    throw new InvalidInputError(
      where,
      `${field}.begin`,
      `is ${show(begin)}, expected a finite number <= ${field}.start (${start})`,
    );
  }
  if (typeof end !== "number" || Number.isNaN(end) || end < start) {
    throw new InvalidInputError(
      where,
      `${field}.end`,
      `is ${show(end)}, expected a number >= ${field}.start (${start}), or Infinity`,
    );
  }
  if (typeof freePEs !== "number" || !Number.isInteger(freePEs) || freePEs < 1) {
    throw new InvalidInputError(
      where,
      `${field}.freePEs`,
      `is ${show(freePEs)}, expected an integer >= 1`,
    );
  }
}

/**
 * Duration of a rectangle, `end - begin` (`Infinity` when it never closes): the Duration
 * policies' score.
 *
 * @throws InvalidInputError when the rectangle is not an object, `begin` is not finite, or
 *   `end` is NaN or before `begin`.
 */
export function rectangleDuration(r: AvailabilityRectangle): number {
  const where = "@sched/advance-reservation/rectangleDuration";
  if (typeof r !== "object" || r === null || Array.isArray(r)) {
    throw new InvalidInputError(
      where,
      "rectangle",
      `is ${Array.isArray(r) ? "an array" : show(r)}, expected { start, begin, end, freePEs }`,
    );
  }
  const { begin, end } = r;
  if (typeof begin !== "number" || !Number.isFinite(begin)) {
    throw new InvalidInputError(
      where,
      "rectangle.begin",
      `is ${show(begin)}, expected a finite number`,
    );
  }
  if (typeof end !== "number" || Number.isNaN(end) || end < begin) {
    throw new InvalidInputError(
      where,
      "rectangle.end",
      `is ${show(end)}, expected a number >= rectangle.begin (${begin}), or Infinity`,
    );
  }
  return duration(r);
}

/**
 * {@link rectangleDuration} without its checks. Internal: the Duration policies score every
 * rectangle `findAllocation` builds (well-formed by construction) with it.
 */
function duration(r: AvailabilityRectangle): number {
  return r.end - r.begin;
}

/** `|PE_free| * (end - begin)`, the PE-Duration policies' score. */
function area(r: AvailabilityRectangle): number {
  return r.freePEs * (r.end - r.begin);
}

/** Each of the package's policies' export and name, by its name and by the export's. */
const EXPORTED = new Map<string, { readonly exported: string; readonly name: string }>();

/**
 * The export and name of the package's policy called `name` (`"PE_W"` and `"peWorstFit"` both
 * give `{ exported: "peWorstFit", name: "PE_W" }`), or `undefined`: for the error of a policy
 * given as a string. Internal.
 */
export function policyExportNamed(
  name: string,
): { readonly exported: string; readonly name: string } | undefined {
  return EXPORTED.get(name);
}

/** The exports of the package's seven policies, in the paper's order. Internal. */
export function policyExports(): readonly string[] {
  return [...new Set([...EXPORTED.values()].map((p) => p.exported))];
}

/** One of the package's policies: its public `compare` names it, e.g. `firstFit.compare`. */
function builtIn(
  exported: string,
  name: string,
  score: (rectangle: AvailabilityRectangle) => number,
  direction: "min" | "max",
): AllocationPolicy {
  const entry = Object.freeze({ exported, name });
  EXPORTED.set(name, entry);
  EXPORTED.set(exported, entry);
  return buildScorePolicy(`@sched/advance-reservation/${exported}.compare`, name, score, direction);
}

/** First Fit (FF): the earliest feasible start time. */
export const firstFit: AllocationPolicy = builtIn("firstFit", "FF", (r) => r.start, "min");
/** PE Best Fit (PE_B): the feasible start whose rectangle has the fewest free PEs. */
export const peBestFit: AllocationPolicy = builtIn("peBestFit", "PE_B", (r) => r.freePEs, "min");
/** PE Worst Fit (PE_W): the feasible start whose rectangle has the most free PEs. */
export const peWorstFit: AllocationPolicy = builtIn("peWorstFit", "PE_W", (r) => r.freePEs, "max");
/** Duration Best Fit (Du_B): the feasible start whose rectangle is shortest (`end - begin`). */
export const durationBestFit: AllocationPolicy = builtIn(
  "durationBestFit",
  "Du_B",
  duration,
  "min",
);
/** Duration Worst Fit (Du_W): the feasible start whose rectangle is longest. */
export const durationWorstFit: AllocationPolicy = builtIn(
  "durationWorstFit",
  "Du_W",
  duration,
  "max",
);
/** PE-Duration Best Fit (PEDu_B): the smallest `freePEs * (end - begin)`. */
export const peDurationBestFit: AllocationPolicy = builtIn(
  "peDurationBestFit",
  "PEDu_B",
  area,
  "min",
);
/** PE-Duration Worst Fit (PEDu_W): the largest `freePEs * (end - begin)`. */
export const peDurationWorstFit: AllocationPolicy = builtIn(
  "peDurationWorstFit",
  "PEDu_W",
  area,
  "max",
);

/** The paper's seven policies, in the order of section 5's figures. */
export const paperPolicies: readonly AllocationPolicy[] = [
  firstFit,
  peBestFit,
  peWorstFit,
  durationBestFit,
  durationWorstFit,
  peDurationBestFit,
  peDurationWorstFit,
];
