import { InvalidInputError } from "@sched/core";
import { preMatch } from "@sched/knapsack";
import { type ExactMatching, imfs, type Matching, mfs, mis } from "@sched/matching";
import type { JobMachineMatrix } from "./matrix.js";
import { rowMeans } from "./matrix.js";

/** The matching algorithm: the paper's MIS (greedy), MFS (exact), IMFS (incremental, exact here). */
export type Matcher = "mis" | "mfs" | "imfs";

/** The previous plan, for IMFS. */
export interface PreviousPlan {
  /** Job id of each row of the previous matrix. */
  readonly rowIds: readonly number[];
  /** The previous exact matching (from `mfs` or `imfs`). */
  readonly matching: ExactMatching;
}

/** Options of {@link makePlan}. */
export interface PlanOptions {
  /** @defaultValue `"imfs"` */
  readonly matcher?: Matcher;
  /** Knapsack solver of the pre-matching. @defaultValue `"greedy"` */
  readonly knapsack?: "greedy" | "exact";
  /** Previous plan; `imfs` falls back to `mfs` without one. @defaultValue none */
  readonly previous?: PreviousPlan | undefined;
}

/** A scheduling plan: which machine each job of the matrix should be on. */
export interface Plan {
  /** Job id of each row. */
  readonly rowIds: readonly number[];
  /** Machine of each row, or -1 (not scheduled now). */
  readonly rowToCol: Int32Array;
  /** Ids of the jobs the pre-matching cleared (license conflicts), in row order. */
  readonly cleared: readonly number[];
  /** The critical licenses (`ρ_l > 1` over floating licenses), sorted by name. */
  readonly critical: readonly string[];
  /** The matrix after clearing, as matched. */
  readonly weights: Float64Array;
  /** The matching (with its state when exact). */
  readonly matching: Matching | ExactMatching;
}

const WHERE = "@sched/convergent/makePlan";

/**
 * Clustering & pre-matching, then matching (sections 4.2 and 5): jobs asking for critical
 * floating licenses are clustered and one multidimensional knapsack per cluster
 * (`@sched/knapsack`'s `preMatch`, costs `c_i` = mean of the positive entries of row `i`)
 * chooses those that can hold their licenses together; the others' rows are cleared. Then
 * `@sched/matching` finds the job-machine associations. Node-locked licenses never conflict
 * here: a machine runs one job at a time, and the minimal requirements already demand enough
 * copies on the machine.
 *
 * Complexity: O(|N| x |M|) plus the knapsack (greedy: O(c·n·(c + log n)) per cluster) plus the
 * matcher (MIS O(E log E), MFS O(s² l), IMFS a few searches after a small change).
 *
 * @throws InvalidInputError on an unknown matcher or knapsack.
 * @example
 * ```ts
 * const plan = makePlan(buildMatrix({ now, platform, jobs }, paperHeuristics()), { matcher: "mfs" });
 * plan.rowToCol; // Int32Array [3, -1, 0]
 * ```
 */
export function makePlan(matrix: JobMachineMatrix, options: PlanOptions = {}): Plan {
  const matcher = options.matcher ?? "imfs";
  if (matcher !== "mis" && matcher !== "mfs" && matcher !== "imfs") {
    throw new InvalidInputError(
      WHERE,
      "options.matcher",
      `is ${String(matcher)}, expected "mis", "mfs" or "imfs"`,
    );
  }
  const solver = options.knapsack ?? "greedy";
  if (solver !== "greedy" && solver !== "exact") {
    throw new InvalidInputError(
      WHERE,
      "options.knapsack",
      `is ${String(solver)}, expected "greedy" or "exact"`,
    );
  }
  const { rows, cols, context } = matrix;
  const weights = Float64Array.from(matrix.weights);
  const rowIds = context.jobs.map((r) => r.job.id);

  // Clustering & pre-matching over floating licenses.
  const copies: Record<string, number> = {};
  let anyFloating = false;
  for (const l of context.platform.licenses) {
    if (l.kind === "floating") {
      copies[l.name] = l.copies;
      anyFloating = true;
    }
  }
  let cleared: readonly number[] = [];
  let critical: readonly string[] = [];
  if (anyFloating) {
    // Only jobs asking for a floating license can be cleared; skip the knapsack altogether
    // when no license is critical (every request fits at once).
    const demand: Record<string, number> = {};
    const members: number[] = [];
    const jobs: { id: number; licenses: Record<string, number> }[] = [];
    for (let i = 0; i < rows; i++) {
      const req = context.jobs[i].job.licenses;
      if (req === undefined) continue;
      let floating: Record<string, number> | undefined;
      for (const name in req) {
        if (!(name in copies) || !((req[name] as number) > 0)) continue;
        floating ??= {};
        floating[name] = req[name] as number;
        demand[name] = (demand[name] ?? 0) + (req[name] as number);
      }
      if (floating !== undefined) {
        members.push(i);
        jobs.push({ id: rowIds[i], licenses: floating });
      }
    }
    let anyCritical = false;
    for (const name in demand)
      if ((demand[name] as number) > (copies[name] as number)) anyCritical = true;
    if (anyCritical) {
      const means = rowMeans(weights, rows, cols);
      const result = preMatch(
        { jobs, copies, costs: Float64Array.from(members, (i) => means[i]) },
        { solver },
      );
      cleared = result.clear;
      critical = result.critical;
      if (cleared.length > 0) {
        const gone = new Set(cleared);
        for (const i of members) if (gone.has(rowIds[i])) weights.fill(0, i * cols, (i + 1) * cols);
      }
    }
  }

  const input = { rows, cols, weights };
  let matching: Matching | ExactMatching;
  if (matcher === "mis") {
    matching = mis(input);
  } else if (matcher === "mfs" || options.previous === undefined) {
    matching = mfs(input);
  } else {
    const prev = options.previous;
    const index = new Map<number, number>();
    prev.rowIds.forEach((id, i) => {
      index.set(id, i);
    });
    const rowOrigin = new Int32Array(rows);
    for (let i = 0; i < rows; i++) rowOrigin[i] = index.get(rowIds[i]) ?? -1;
    matching =
      prev.matching.state.cols === cols ? imfs(input, prev.matching, { rowOrigin }) : mfs(input);
  }
  return { rowIds, rowToCol: matching.rowToCol, cleared, critical, weights, matching };
}
