import { InvalidInputError, type Platform, validatePlatform } from "@sched/core";
import {
  describeValue,
  optionKeys,
  requireArray,
  requireBoolean,
  requireFinite,
  requireKnownKeys,
  requireObject,
  requireOneOf,
} from "@sched/errors";
import { LicenseClusters, type PreMatchResult, preMatch } from "@sched/knapsack";
import { type ExactMatching, imfs, type Matching, mfs, mis } from "@sched/matching";
import type { MatrixJob } from "./heuristic.js";
import type { DeferredRows, JobMachineMatrix } from "./matrix.js";
import { meansOf } from "./matrix.js";
import { checkJobOfRow } from "./matrix-checks.js";

/** The matching algorithm: the paper's MIS (greedy), MFS (exact), IMFS (incremental, exact here). */
export type Matcher = "mis" | "mfs" | "imfs";

/** The previous plan, for IMFS. */
export interface PreviousPlan {
  /** Job id of each row of the previous matrix. */
  readonly rowIds: readonly number[];
  /** The previous exact matching (from `mfs` or `imfs`). */
  readonly matching: ExactMatching;
  /**
   * The matrix the previous matching was computed for (the previous plan's `weights`). With
   * it, {@link makePlan} finds the rows that changed (exact comparison) and hands `imfs` a
   * truthful change hint, or solves from scratch with `mfs` when more than
   * {@link IMFS_MAX_CHANGED} of the rows changed or are new (both are exact). Without it,
   * `imfs` checks the whole matrix itself.
   * @defaultValue none
   */
  readonly weights?: Float64Array;
  /**
   * The ids the previous plan cleared (its `cleared`): needed with
   * {@link PlanOptions.changedRows}, which describes the matrices before clearing.
   * @defaultValue none
   */
  readonly cleared?: readonly number[];
}

/**
 * Largest fraction of changed or new rows for which {@link makePlan} re-solves from the
 * previous plan (`imfs`, with an exact change hint) when the previous weights are known; above
 * it, `mfs` from scratch is faster: on the paper's workload at 150 machines, `imfs` takes
 * 0.05-0.4 ms when no row changed against 1-7 ms for `mfs`, but 1.2-14 times as long as `mfs`
 * once half of the rows changed (each changed row fails IMFS's optimality check and costs a
 * search). Both are exact; only the time differs.
 */
export const IMFS_MAX_CHANGED = 0.1;

/** Options of {@link makePlan}. */
export interface PlanOptions {
  /** @defaultValue `"imfs"` */
  readonly matcher?: Matcher;
  /** Knapsack solver of the pre-matching. @defaultValue `"greedy"` */
  readonly knapsack?: "greedy" | "exact";
  /** Previous plan; `imfs` falls back to `mfs` without one. @defaultValue none */
  readonly previous?: PreviousPlan | undefined;
  /**
   * Change hint for IMFS, as the incremental scheduler knows it: the rows of `matrix.weights`
   * (before clearing) that may differ from their row in the previous plan's matrix before
   * clearing. A **promise**: every other kept row must be identical. {@link makePlan} adds the
   * rows whose clearing changed (needs `previous.cleared`) and the new rows, and hands the list
   * to `imfs` (or solves with `mfs` when more than {@link IMFS_MAX_CHANGED} of the rows are in
   * it). Ignored without `previous` or with another matcher.
   * @defaultValue none (the rows that changed are found by comparing with `previous.weights`)
   */
  readonly changedRows?: ArrayLike<number>;
  /**
   * The pre-matching's cost `c_i` of each row (same order as the rows).
   * @defaultValue the mean of each row's positive entries ({@link rowMeans})
   */
  readonly costs?: ArrayLike<number>;
  /**
   * Whether the pre-matching may zero the cleared rows in `matrix.weights` itself instead of a
   * copy (for a caller that owns the buffer: `Plan.weights` is then that buffer).
   * @defaultValue `false`
   */
  readonly clearInPlace?: boolean;
  /**
   * State kept across the plans of one scheduler (the license clustering, updated with the
   * jobs that arrived and left instead of rebuilt). Same results, up to ties between jobs in a
   * knapsack (clusters then list jobs in arrival order).
   * @defaultValue none (the clustering is rebuilt)
   */
  readonly memory?: PlanMemory;
  /**
   * Called with the pre-matching's result (every cluster's knapsack instance, its solution and
   * whether it is proven optimal) each time the knapsack runs, i.e. when some floating license
   * is critical. For studies of the knapsack (the paper's Table 1); it must not modify it.
   * @defaultValue none
   */
  readonly onPreMatch?: (result: PreMatchResult) => void;
}

/** The keys of {@link PlanOptions}, all of them (checked by the compiler). Internal. */
export const PLAN_KEYS = optionKeys<PlanOptions>({
  matcher: true,
  knapsack: true,
  previous: true,
  changedRows: true,
  costs: true,
  clearInPlace: true,
  memory: true,
  onPreMatch: true,
});

/**
 * What {@link makePlan} keeps across the plans of one scheduler when given it
 * ({@link PlanOptions.memory}): a `@sched/knapsack` `LicenseClusters` over the jobs asking for
 * floating licenses, updated with arrivals and departures.
 */
export class PlanMemory {
  #platform: Platform | undefined;
  #clusters: LicenseClusters | undefined;

  /**
   * The persistent clustering of `platform`'s floating licenses, synchronised with `jobs`
   * (removes the tracked jobs not in it, adds the others in order).
   */
  clustersFor(
    platform: Platform,
    copies: Readonly<Record<string, number>>,
    jobs: readonly { readonly id: number; readonly licenses: Readonly<Record<string, number>> }[],
  ): LicenseClusters {
    if (this.#platform !== platform || this.#clusters === undefined) {
      // A new clustering tracks no job yet: every job of the call is added to it below.
      this.#platform = platform;
      this.#clusters = new LicenseClusters(copies);
      this.#tracked.clear();
    }
    const lc = this.#clusters;
    const present = new Set<number>();
    for (const j of jobs) present.add(j.id);
    for (const id of [...this.#tracked]) {
      if (!present.has(id)) {
        lc.remove(id);
        this.#tracked.delete(id);
      }
    }
    for (const j of jobs) {
      if (!this.#tracked.has(j.id)) {
        lc.add(j);
        this.#tracked.add(j.id);
      }
    }
    return lc;
  }

  #tracked = new Set<number>();
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
 * The defaults of {@link makePlan}'s and the `convergent` scheduler's solver choices: the
 * incremental matcher (IMFS) and the paper's greedy MKP for the license pre-matching.
 */
export const PLAN_DEFAULTS: {
  readonly matcher: Matcher;
  readonly knapsack: "greedy" | "exact";
} = Object.freeze({ matcher: "imfs", knapsack: "greedy" });

/**
 * The matcher and knapsack solver of `options`, defaults filled (`"imfs"`, `"greedy"`) and
 * validated; errors name `where`. Shared by {@link makePlan} and the `convergent` scheduler.
 *
 * @throws InvalidInputError for an unknown matcher or solver.
 */
export function resolvePlanChoices(
  where: string,
  options: { readonly matcher?: Matcher; readonly knapsack?: "greedy" | "exact" },
): { matcher: Matcher; knapsack: "greedy" | "exact" } {
  const matcher = options.matcher ?? PLAN_DEFAULTS.matcher;
  if (matcher !== "mis" && matcher !== "mfs" && matcher !== "imfs") {
    throw new InvalidInputError(
      where,
      "options.matcher",
      `is ${describeValue(matcher)}, expected "mis", "mfs" or "imfs"`,
    );
  }
  const knapsack = options.knapsack ?? PLAN_DEFAULTS.knapsack;
  requireOneOf(where, "options.knapsack", knapsack, ["greedy", "exact"]);
  return { matcher, knapsack };
}

/** A job's request restricted to a platform's floating licenses (see {@link floatingAsk}). */
interface FloatingAsk {
  /**
   * Every floating license of the platform as a key, in the platform's order, with the copies
   * asked for (0: not asked for); what the knapsack gets as the job's licenses.
   */
  readonly floating: Readonly<Record<string, number>>;
  /** The licenses asked for (copies > 0), as indices into the platform's floating licenses. */
  readonly at: Int32Array;
  /** The copies asked for, same order. */
  readonly copies: Float64Array;
}

/** Per platform: its floating licenses (names and copies, in order) and the requests seen. */
interface FloatingOf {
  readonly names: readonly string[];
  /** The platform's numbers as they are (the records the knapsack gets are built from them). */
  readonly copies: readonly number[];
  readonly asks: WeakMap<object, FloatingAsk | null>;
}

const floatingCache = new WeakMap<Platform, FloatingOf>();

/** `platform`'s floating licenses in its order, with a cache of requests; computed once. */
function floatingOf(platform: Platform): FloatingOf {
  let f = floatingCache.get(platform);
  if (f === undefined) {
    const names: string[] = [];
    const copies: number[] = [];
    for (const l of platform.licenses) {
      if (l.kind === "floating") {
        names.push(l.name);
        copies.push(l.copies);
      }
    }
    f = { names, copies, asks: new WeakMap() };
    floatingCache.set(platform, f);
  }
  return f;
}

/**
 * A job's request restricted to the platform's floating licenses, or `null` when it asks for
 * none (copies > 0). Every record of one platform has ALL its floating licenses as keys, in the
 * platform's order, 0 for those not asked for ("does not ask for it" to the knapsack): one
 * object shape for all jobs keeps the knapsack's per-license lookups fast. Computed once per
 * (platform, request).
 */
function floatingAsk(of: FloatingOf, req: Readonly<Record<string, number>>): FloatingAsk | null {
  let ask = of.asks.get(req);
  if (ask === undefined) {
    const floating: Record<string, number> = {};
    const at: number[] = [];
    const copies: number[] = [];
    of.names.forEach((name, k) => {
      const want = req[name];
      if (want !== undefined && want > 0) {
        floating[name] = want;
        at.push(k);
        copies.push(want);
      } else {
        floating[name] = 0;
      }
    });
    ask =
      at.length === 0
        ? null
        : { floating, at: Int32Array.from(at), copies: Float64Array.from(copies) };
    of.asks.set(req, ask);
  }
  return ask;
}

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
 * @throws InvalidInputError on an unknown matcher or knapsack, or naming the field of `matrix`
 *   (`matrix.weights[4]`, `matrix.context.jobs[1].job.cores`, …) or of `options`
 *   (`options.changedRows[0]`, `options.previous.rowIds`, …) that is invalid.
 * @example
 * ```ts
 * const plan = makePlan(buildMatrix({ now, platform, jobs }, paperHeuristics()), { matcher: "mfs" });
 * plan.rowToCol; // Int32Array [3, -1, 0]
 * ```
 */
export function makePlan(matrix: JobMachineMatrix, options: PlanOptions = {}): Plan {
  requireKnownKeys(WHERE, "options", options, PLAN_KEYS);
  resolvePlanChoices(WHERE, options);
  checkPlanInput(matrix, options);
  return planMatrix(matrix, options);
}

/** `ArrayLike<number>` as the options take it: an array or a typed array. */
function arrayLike(field: string, v: unknown): ArrayLike<unknown> {
  if (!Array.isArray(v) && !(ArrayBuffer.isView(v) && !(v instanceof DataView)))
    throw new InvalidInputError(WHERE, field, `is ${describeValue(v)}, expected an array`);
  return v as ArrayLike<unknown>;
}

function integerIn(field: string, v: unknown, min: number, max: number): void {
  if (typeof v !== "number" || !Number.isSafeInteger(v) || v < min || v > max)
    throw new InvalidInputError(
      WHERE,
      field,
      `is ${describeValue(v)}, expected an integer in [${min}, ${max}]`,
    );
}

/**
 * {@link makePlan}'s matrix and options, checked (O(rows x cols): every entry of the weights).
 * The scheduler, whose matrix and options are valid by construction, calls {@link planMatrix}.
 */
function checkPlanInput(matrix: JobMachineMatrix, options: PlanOptions): void {
  requireObject(WHERE, "matrix", matrix);
  const { rows, cols, weights, context } = matrix;
  integerIn("matrix.rows", rows, 0, 2 ** 31 - 1);
  integerIn("matrix.cols", cols, 1, 2 ** 31 - 1);
  if (!(weights instanceof Float64Array) || weights.length !== rows * cols)
    throw new InvalidInputError(
      WHERE,
      "matrix.weights",
      `is ${weights instanceof Float64Array ? `a Float64Array of ${weights.length}` : describeValue(weights)}, expected a Float64Array of rows x cols = ${rows * cols}`,
    );
  for (let k = 0; k < weights.length; k++) {
    if (!Number.isFinite(weights[k]))
      throw new InvalidInputError(
        WHERE,
        `matrix.weights[${k}]`,
        `is ${weights[k]}, expected a finite number (> 0: eligible)`,
      );
  }
  requireObject(WHERE, "matrix.context", context);
  validatePlatform(context.platform, WHERE);
  if (context.platform.machines.length !== cols)
    throw new InvalidInputError(
      WHERE,
      "matrix.cols",
      `is ${cols}, but matrix.context.platform has ${context.platform.machines.length} machines`,
    );
  // the context's other fields, as buildMatrix makes them (makePlan reads none of them)
  integerIn("matrix.context.cols", context.cols, cols, cols);
  requireFinite(WHERE, "matrix.context.now", context.now);
  const sized = (field: string, v: unknown, type: "Uint8Array" | "Int32Array", n: number) => {
    const ok = type === "Uint8Array" ? v instanceof Uint8Array : v instanceof Int32Array;
    if (!ok || (v as ArrayLike<number>).length !== n)
      throw new InvalidInputError(
        WHERE,
        `matrix.context.${field}`,
        `is ${ok ? `a ${type} of ${(v as ArrayLike<number>).length}` : describeValue(v)}, expected a ${type} of ${n}`,
      );
  };
  sized("eligible", context.eligible, "Uint8Array", rows * cols);
  sized("eligibleCount", context.eligibleCount, "Int32Array", rows);
  sized("previous", context.previous, "Int32Array", rows);
  const jobs = requireArray(WHERE, "matrix.context.jobs", context.jobs);
  if (jobs.length !== rows)
    throw new InvalidInputError(
      WHERE,
      "matrix.context.jobs",
      `has ${jobs.length} rows, expected matrix.rows = ${rows}`,
    );
  for (let i = 0; i < rows; i++) {
    requireObject(WHERE, `matrix.context.jobs[${i}]`, jobs[i]);
    checkJobOfRow(WHERE, `matrix.context.jobs[${i}].job`, (jobs[i] as MatrixJob).job, cols);
  }
  const { previous, changedRows, costs, clearInPlace, memory, onPreMatch } = options;
  if (previous !== undefined) {
    requireObject(WHERE, "options.previous", previous);
    const ids = requireArray(WHERE, "options.previous.rowIds", previous.rowIds);
    for (let i = 0; i < ids.length; i++)
      integerIn(`options.previous.rowIds[${i}]`, ids[i], 0, Number.MAX_SAFE_INTEGER);
    const m = previous.matching;
    requireObject(WHERE, "options.previous.matching", m);
    if (typeof m.state !== "object" || m.state === null || typeof m.state.cols !== "number")
      throw new InvalidInputError(
        WHERE,
        "options.previous.matching",
        "has no state, expected the exact matching of a previous plan (from mfs or imfs)",
      );
    if (previous.weights !== undefined && !(previous.weights instanceof Float64Array))
      throw new InvalidInputError(
        WHERE,
        "options.previous.weights",
        `is ${describeValue(previous.weights)}, expected a Float64Array (the previous plan's weights)`,
      );
    if (previous.cleared !== undefined) {
      const cleared = requireArray(WHERE, "options.previous.cleared", previous.cleared);
      for (let i = 0; i < cleared.length; i++)
        integerIn(`options.previous.cleared[${i}]`, cleared[i], 0, Number.MAX_SAFE_INTEGER);
    }
  }
  if (changedRows !== undefined) {
    const list = arrayLike("options.changedRows", changedRows);
    for (let k = 0; k < list.length; k++)
      integerIn(`options.changedRows[${k}]`, list[k], 0, rows - 1);
  }
  if (costs !== undefined) {
    const list = arrayLike("options.costs", costs);
    if (list.length !== rows)
      throw new InvalidInputError(
        WHERE,
        "options.costs",
        `has ${list.length} entries, expected matrix.rows = ${rows} (one per row)`,
      );
    for (let k = 0; k < list.length; k++) requireFinite(WHERE, `options.costs[${k}]`, list[k]);
  }
  if (clearInPlace !== undefined) requireBoolean(WHERE, "options.clearInPlace", clearInPlace);
  if (memory !== undefined && !(memory instanceof PlanMemory))
    throw new InvalidInputError(
      WHERE,
      "options.memory",
      `is ${describeValue(memory)}, expected a PlanMemory`,
    );
  if (onPreMatch !== undefined && typeof onPreMatch !== "function")
    throw new InvalidInputError(
      WHERE,
      "options.onPreMatch",
      `is ${describeValue(onPreMatch)}, expected a function (result) => void`,
    );
}

/**
 * {@link makePlan} without the checks of its matrix and options. Internal: the scheduler's
 * planner calls it at every event with a matrix it built and options it resolved, and the
 * rows its source left at 0 (`deferred`, see `DEFERRED_ROWS`): each is restored unless the
 * pre-matching clears it (then it is 0 already).
 */
export function planMatrix(
  matrix: JobMachineMatrix,
  options: PlanOptions,
  deferred?: DeferredRows,
): Plan {
  const { matcher, knapsack: solver } = resolvePlanChoices(WHERE, options);
  const { rows, cols, context } = matrix;
  // Copied only when the pre-matching clears rows (the matrix itself is never modified).
  let weights = matrix.weights;
  const rowIds = context.jobs.map((r) => r.job.id);
  let restored = deferred === undefined;
  /** Writes the deferred rows of the jobs not in `gone` (once). */
  const restore = (gone: ReadonlySet<number> | null): void => {
    if (restored) return;
    restored = true;
    for (const i of (deferred as DeferredRows).rows)
      if (gone === null || !gone.has(rowIds[i] as number)) (deferred as DeferredRows).restore(i);
  };
  // Without the costs at hand they are read from the rows: every row first.
  if (options.costs === undefined) restore(null);

  // Clustering & pre-matching over floating licenses.
  const fl = floatingOf(context.platform);
  const nf = fl.names.length;
  let cleared: readonly number[] = [];
  let critical: readonly string[] = [];
  if (nf > 0) {
    const copies: Record<string, number> = {};
    for (let k = 0; k < nf; k++) copies[fl.names[k]!] = fl.copies[k]!;
    // Only jobs asking for a floating license can be cleared; skip the knapsack altogether
    // when no license is critical (every request fits at once).
    const demand = new Float64Array(nf); // copies requested, summed in row order
    const members: number[] = [];
    const asks: FloatingAsk[] = [];
    const jobs: { id: number; licenses: Readonly<Record<string, number>> }[] = [];
    for (let i = 0; i < rows; i++) {
      const req = context.jobs[i]!.job.licenses;
      if (req === undefined) continue;
      const ask = floatingAsk(fl, req);
      if (ask === null) continue;
      const { at, copies: want } = ask;
      for (let q = 0; q < at.length; q++) demand[at[q]!]! += want[q]!;
      members.push(i);
      asks.push(ask);
      jobs.push({ id: rowIds[i]!, licenses: ask.floating });
    }
    // Critical as the knapsack's clustering defines it: rho = requested / copies > 1.
    const isCritical = new Uint8Array(nf);
    let anyCritical = false;
    for (let k = 0; k < nf; k++) {
      if (demand[k]! / fl.copies[k]! > 1) {
        isCritical[k] = 1;
        anyCritical = true;
      }
    }
    if (anyCritical) {
      // Only jobs asking for a critical license are clustered (a job on no critical license is
      // in no cluster, and leaving it out changes no critical license's demand), so the
      // knapsack gets those alone: same clusters, same instances, same result.
      const clustered: typeof jobs = [];
      const costs: number[] = [];
      for (let k = 0; k < members.length; k++) {
        const at = asks[k]!.at;
        let on = false;
        for (let q = 0; q < at.length; q++) if (isCritical[at[q]!] === 1) on = true;
        if (!on) continue;
        const i = members[k] as number;
        clustered.push(jobs[k] as (typeof jobs)[number]);
        // c_i = rowMeans(weights, rows, cols)[i]
        costs.push(
          options.costs !== undefined
            ? (options.costs[i] as number)
            : (meansOf(weights.subarray(i * cols, (i + 1) * cols), 1, cols)[0] as number),
        );
      }
      const clusters = options.memory?.clustersFor(context.platform, copies, jobs);
      const result = preMatch(
        {
          jobs: clustered,
          copies,
          costs: Float64Array.from(costs),
          ...(clusters === undefined ? {} : { clusters }),
        },
        { solver },
      );
      options.onPreMatch?.(result);
      cleared = result.clear;
      critical = result.critical;
      if (cleared.length > 0) {
        const gone = new Set(cleared);
        restore(gone);
        if (options.clearInPlace !== true) weights = Float64Array.from(weights);
        const zero = deferred?.mask;
        for (const i of members)
          if (gone.has(rowIds[i]!) && zero?.[i] !== 1) weights.fill(0, i * cols, (i + 1) * cols);
      }
    }
  }
  restore(null);

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
    for (let i = 0; i < rows; i++) rowOrigin[i] = index.get(rowIds[i]!) ?? -1;
    if (prev.matching.state.cols !== cols) {
      matching = mfs(input);
    } else if (options.changedRows !== undefined && prev.cleared !== undefined) {
      const hint = new Uint8Array(rows);
      for (let k = 0; k < options.changedRows.length; k++)
        hint[options.changedRows[k] as number] = 1;
      const was = new Set(prev.cleared);
      const now = new Set(cleared);
      const changedRows: number[] = [];
      let fresh = 0;
      for (let i = 0; i < rows; i++) {
        if (rowOrigin[i]! < 0) fresh++;
        else if (hint[i] === 1 || was.has(rowIds[i] as number) !== now.has(rowIds[i] as number))
          changedRows.push(i);
      }
      matching =
        fresh + changedRows.length > IMFS_MAX_CHANGED * rows
          ? mfs(input)
          : imfs(input, prev.matching, { rowOrigin, changedRows });
    } else if (prev.weights === undefined || prev.weights.length !== prev.rowIds.length * cols) {
      matching = imfs(input, prev.matching, { rowOrigin });
    } else {
      const changedRows = changedLines(weights, prev.weights, rowOrigin, cols);
      let fresh = changedRows.length;
      for (let i = 0; i < rows; i++) if (rowOrigin[i]! < 0) fresh++;
      matching =
        fresh > IMFS_MAX_CHANGED * rows
          ? mfs(input)
          : imfs(input, prev.matching, { rowOrigin, changedRows });
    }
  }
  return { rowIds, rowToCol: matching.rowToCol, cleared, critical, weights, matching };
}

/**
 * The kept rows (origin >= 0) whose weights differ from their origin row in `before` (an entry
 * is unchanged when equal, or `<= 0` in both: ineligible in both). Exact comparison, so the
 * list is a truthful change hint for `imfs`.
 */
function changedLines(
  after: Float64Array,
  before: Float64Array,
  rowOrigin: Int32Array,
  cols: number,
): number[] {
  const out: number[] = [];
  for (let i = 0; i < rowOrigin.length; i++) {
    const o = rowOrigin[i] as number;
    if (o < 0) continue;
    const a = i * cols;
    const b = o * cols;
    for (let m = 0; m < cols; m++) {
      const x = after[a + m] as number;
      const y = before[b + m] as number;
      if (x !== y && (x > 0 || y > 0)) {
        out.push(i);
        break;
      }
    }
  }
  return out;
}
