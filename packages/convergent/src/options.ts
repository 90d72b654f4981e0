import { InvalidInputError } from "@sched/core";
import { describeValue, optionKeys, requireBoolean, requireKnownKeys } from "@sched/errors";
import type { PreMatchResult } from "@sched/knapsack";
import type { Heuristic } from "./heuristic.js";
import { REFRESH_TOLERANCE } from "./incremental.js";
import type { SourceWithCore } from "./matrix.js";
import { matrixSource } from "./matrix-source.js";
import { finiteOption } from "./option-checks.js";
import { OVERHEAD_NON_PREEMPTIVE, OVERHEAD_PREEMPTIVE } from "./overhead.js";
import {
  CONSTANT_KEYS,
  type HeuristicConstants,
  type HeuristicReadings,
  paperHeuristics,
  resolveConstants,
  resolveReadings,
} from "./paper-heuristics.js";
import { type Matcher, resolvePlanChoices } from "./plan.js";

/** Options of the `convergent` scheduler and of `convergentPass`. */
export interface ConvergentOptions {
  /**
   * Name of the scheduler (in traces and reports).
   * @defaultValue `"convergent"`
   */
  readonly name?: string;
  /**
   * Matching algorithm: `"mis"` (greedy), `"mfs"` (exact, rebuilt each plan: the paper's
   * non-incremental variants), `"imfs"` (exact, from the previous plan: the incremental ones).
   * @defaultValue `"imfs"`
   */
  readonly matcher?: Matcher;
  /**
   * Whether running jobs may be preempted (or migrated) when the new plan moves them. Without
   * preemption the overhead constant defaults to 800 and running jobs always keep their machine.
   * @defaultValue `true`
   */
  readonly preemption?: boolean;
  /**
   * The heuristics' constants (reweighting). Defaults: the paper's, with overhead 8 (preemption)
   * or 800 (none).
   * @defaultValue `{}`
   */
  readonly constants?: HeuristicConstants;
  /**
   * The readings of the heuristics the paper leaves open (`f1` after the deadline, a job late
   * everywhere, Wait minimization's `SupRemaining`); see {@link HeuristicReadings}.
   * @defaultValue `{}` (`PAPER_READINGS`)
   */
  readonly readings?: HeuristicReadings;
  /**
   * Replaces the paper's seven heuristics altogether (then `constants` and `readings` are
   * ignored). Eligibility
   * (minimal requirements) is always enforced.
   * @defaultValue `paperHeuristics(constants)`
   */
  readonly heuristics?: readonly Heuristic[];
  /**
   * Heuristics run after the others (user-defined ones).
   * @defaultValue `[]`
   */
  readonly extraHeuristics?: readonly Heuristic[];
  /**
   * Knapsack solver of the pre-matching.
   * @defaultValue `"greedy"`
   */
  readonly knapsack?: "greedy" | "exact";
  /**
   * Incremental variants (`matcher: "imfs"`) only: the Job-Machine matrix is kept across
   * events and a row is replaced only when one of its entries moved by more than this since it
   * was stored (see `IncrementalMatrix` and the README, Interpretation 13). 0 keeps the
   * matrix equal to the from-scratch one up to a uniform shift (and rounding), so the plan is
   * exactly as good as the non-incremental one.
   * @defaultValue {@link REFRESH_TOLERANCE} (0.05)
   */
  readonly refreshTolerance?: number;
  /**
   * Called after each plan's pre-matching with the time and the knapsack's result (see
   * `PlanOptions.onPreMatch`): the instances the paper's Table 1 is about. Observes only.
   * @defaultValue none
   */
  readonly onPreMatch?: (event: { readonly now: number; readonly result: PreMatchResult }) => void;
}

/** The keys every entry point takes: all but `name`, `matcher` and `preemption`. */
const SHARED_KEYS = optionKeys<Omit<ConvergentOptions, "name" | "matcher" | "preemption">>({
  constants: true,
  readings: true,
  heuristics: true,
  extraHeuristics: true,
  knapsack: true,
  refreshTolerance: true,
  onPreMatch: true,
});

/** The keys of {@link ConvergentOptions}, all of them (checked by the compiler). Internal. */
export const CONVERGENT_KEYS = optionKeys<ConvergentOptions>({
  name: true,
  matcher: true,
  preemption: true,
  ...SHARED_KEYS.record,
});

/** The keys of `convergentPass`'s options (no `name`). Internal. */
export const PASS_KEYS = optionKeys<Omit<ConvergentOptions, "name">>({
  matcher: true,
  preemption: true,
  ...SHARED_KEYS.record,
});

/** The keys of `convergentVariant`'s options (the variant fixes `matcher` and `preemption`). Internal. */
export const VARIANT_KEYS = optionKeys<Omit<ConvergentOptions, "matcher" | "preemption">>({
  name: true,
  ...SHARED_KEYS.record,
});

/** The options of a convergent planner, defaults filled and validated. Internal. */
export interface ResolvedConvergentOptions {
  readonly name: string;
  readonly matcher: Matcher;
  readonly preemption: boolean;
  readonly heuristics: readonly Heuristic[];
  readonly knapsack: "greedy" | "exact";
  readonly refreshTolerance: number;
  /** The constants when the heuristics are exactly the paper's seven (fused incremental path). */
  readonly paperConstants: Required<HeuristicConstants> | undefined;
  readonly readings: Required<HeuristicReadings>;
  readonly onPreMatch: ConvergentOptions["onPreMatch"];
  /**
   * What decides the plans, to compare two resolutions: the constants (when the paper's
   * heuristics are used), the readings, and the caller's own heuristic lists (by identity).
   */
  readonly identity: {
    readonly constants: Required<HeuristicConstants> | undefined;
    readonly heuristics: readonly Heuristic[] | undefined;
    readonly extra: readonly Heuristic[];
  };
}

/**
 * Whether two resolutions plan alike: same matcher, preemption, knapsack, tolerance,
 * constants and readings, and the same heuristic objects given by the caller. Internal.
 */
export function samePlanning(a: ResolvedConvergentOptions, b: ResolvedConvergentOptions): boolean {
  const sameList = (x: readonly Heuristic[] | undefined, y: readonly Heuristic[] | undefined) =>
    x === undefined || y === undefined
      ? x === y
      : x.length === y.length && x.every((h, i) => h === y[i]);
  return (
    a.matcher === b.matcher &&
    a.preemption === b.preemption &&
    a.knapsack === b.knapsack &&
    a.refreshTolerance === b.refreshTolerance &&
    JSON.stringify(a.identity.constants) === JSON.stringify(b.identity.constants) &&
    JSON.stringify(a.readings) === JSON.stringify(b.readings) &&
    sameList(a.identity.heuristics, b.identity.heuristics) &&
    sameList(a.identity.extra, b.identity.extra)
  );
}

/**
 * Fills the defaults of `options` and validates them; errors name `where` (the function the
 * caller called). Internal: shared by the scheduler and the pass.
 *
 * @throws InvalidInputError naming the invalid option.
 */
export function resolveOptions(
  where: string,
  options: ConvergentOptions,
): ResolvedConvergentOptions {
  if (options === null || typeof options !== "object")
    throw new InvalidInputError(
      where,
      "options",
      `is ${describeValue(options)}, expected an object`,
    );
  const preemption = requireBoolean(where, "options.preemption", options.preemption ?? true);
  const { matcher, knapsack } = resolvePlanChoices(where, options);
  const checkList = (list: unknown, field: string): readonly Heuristic[] => {
    if (!Array.isArray(list))
      throw new InvalidInputError(where, field, "is not an array, expected heuristics");
    list.forEach((h, i) => {
      if (h === null || typeof h !== "object" || typeof (h as Heuristic).apply !== "function")
        throw new InvalidInputError(where, `${field}[${i}]`, "is not a heuristic { name, apply }");
    });
    return list as readonly Heuristic[];
  };
  let base: readonly Heuristic[];
  let paperConstants: Required<HeuristicConstants> | undefined;
  const readings = resolveReadings(where, options.readings, "options.readings");
  if (options.heuristics !== undefined) {
    base = checkList(options.heuristics, "options.heuristics");
  } else {
    requireKnownKeys(where, "options.constants", options.constants, CONSTANT_KEYS);
    const constants = resolveConstants(
      where,
      {
        overhead: preemption ? OVERHEAD_PREEMPTIVE : OVERHEAD_NON_PREEMPTIVE,
        ...options.constants,
      },
      "options.constants",
    );
    base = paperHeuristics(constants, readings);
    paperConstants = constants;
  }
  if (options.onPreMatch !== undefined && typeof options.onPreMatch !== "function")
    throw new InvalidInputError(
      where,
      "options.onPreMatch",
      `is ${typeof options.onPreMatch}, expected a function`,
    );
  const extra =
    options.extraHeuristics === undefined
      ? []
      : checkList(options.extraHeuristics, "options.extraHeuristics");
  const refreshTolerance = finiteOption(
    where,
    "options.refreshTolerance",
    options.refreshTolerance,
    REFRESH_TOLERANCE,
    false,
  );
  return {
    paperConstants: extra.length === 0 ? paperConstants : undefined,
    readings,
    onPreMatch: options.onPreMatch,
    refreshTolerance,
    name: options.name ?? "convergent",
    matcher,
    preemption,
    heuristics: [...base, ...extra],
    knapsack,
    identity: { constants: paperConstants, heuristics: options.heuristics, extra },
  };
}

/**
 * The matrix source of resolved options: the fused computation of the paper's seven when the
 * heuristics are exactly those, the generic row builder otherwise; incremental exactly for the
 * `"imfs"` matcher. Internal.
 */
export function sourceOf(o: ResolvedConvergentOptions): SourceWithCore {
  // every source matrixSource makes has the unchecked update
  return (
    o.paperConstants !== undefined
      ? matrixSource({
          constants: o.paperConstants,
          readings: o.readings,
          incremental: o.matcher === "imfs",
          refreshTolerance: o.refreshTolerance,
        })
      : matrixSource({
          heuristics: o.heuristics,
          incremental: o.matcher === "imfs",
          refreshTolerance: o.refreshTolerance,
        })
  ) as SourceWithCore;
}
