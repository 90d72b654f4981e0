import type { Job, Platform, SchedulerView, WaitingJob } from "@sched/core";
import { optionKeys, requireKnownKeys } from "@sched/errors";
import type { Heuristic, MatrixJob } from "./heuristic.js";
import { rowBuilder, Scratch } from "./matrix.js";
import { checkHeuristics } from "./matrix-checks.js";
import { eligibilityRow } from "./minimal-requirements.js";
import {
  type HeuristicConstants,
  type HeuristicReadings,
  resolveConstants,
  resolveReadings,
} from "./paper-heuristics.js";
import { PaperIncrementalMatrix, UNCHECKED_COSTS, UNCHECKED_RANK } from "./paper-incremental.js";

/** Options of {@link convergentPriority}. */
export interface ConvergentPriorityOptions {
  /**
   * The heuristics' constants.
   * @defaultValue the paper's (overhead 8)
   */
  readonly constants?: HeuristicConstants;
  /**
   * The heuristics' readings (Deadline, Wait minimization; see `HeuristicReadings`).
   * @defaultValue `{}` (`PAPER_READINGS`)
   */
  readonly readings?: HeuristicReadings;
  /**
   * Replaces the paper's heuristics (then `constants` and `readings` are ignored).
   * @defaultValue `paperHeuristics(constants)`
   */
  readonly heuristics?: readonly Heuristic[];
}

/** The keys of {@link ConvergentPriorityOptions}, all of them (checked by the compiler). Internal. */
export const PRIORITY_KEYS = optionKeys<ConvergentPriorityOptions>({
  constants: true,
  readings: true,
  heuristics: true,
});

interface Cache {
  readonly waiting: readonly WaitingJob[];
  readonly now: number;
  readonly byId: Map<number, number>;
}

/**
 * The priority of the paper's flexible backfilling (BF-rm, BF-unrm): the CS heuristics rank the
 * jobs. At each scheduling event the Job-Machine matrix is built over the jobs in the system
 * (waiting and running) and a waiting job's priority is the mean of its row's positive entries
 * (the same aggregate `c_i` the pre-matching values jobs with); 0 when no machine is eligible.
 * Higher runs first. Pass it to `@sched/backfill`'s `flexible({ priority, variant })`.
 *
 * The matrix is computed once per scheduling call (cached on the view's `waiting` array and
 * `now`), so ranking Q jobs costs one O(|N| x |M|) build, not Q. With the paper's heuristics
 * only the waiting jobs' rows are computed, from the view's lists as they are: the numbers of
 * the rows sorted by submit time then id, bit for bit.
 *
 * @returns `(job, view) => number`
 * @throws InvalidInputError on invalid constants (at construction).
 * @example
 * ```ts
 * const priority = convergentPriority();
 * simulate(jobs, platform, flexible({ priority, variant: "rm" }));
 * ```
 */
export function convergentPriority(
  options: ConvergentPriorityOptions = {},
): (job: WaitingJob, view: SchedulerView) => number {
  requireKnownKeys("@sched/convergent/convergentPriority", "options", options, PRIORITY_KEYS);
  if (options.heuristics !== undefined)
    checkHeuristics(
      "@sched/convergent/convergentPriority",
      "options.heuristics",
      options.heuristics,
    );
  // The paper's heuristics: the fused from-scratch rows (one pass per row) give the same means
  // as the generic row builder, which serves only heuristics given in `options.heuristics`.
  // constants and readings are checked even when heuristics make them unused
  const constants = resolveConstants(
    "@sched/convergent/convergentPriority",
    options.constants,
    "options.constants",
  );
  const readings = resolveReadings(
    "@sched/convergent/convergentPriority",
    options.readings,
    "options.readings",
  );
  const engine:
    | { readonly fused: PaperIncrementalMatrix }
    | { readonly heuristics: readonly Heuristic[] } =
    options.heuristics === undefined
      ? { fused: new PaperIncrementalMatrix({ constants, readings, incremental: false }) }
      : { heuristics: options.heuristics };
  let cache: Cache | undefined;
  const scratch = new Scratch();
  let eligibilityPlatform: Platform | undefined;
  let eligibilityRows = new WeakMap<Job, Uint8Array>();
  const fromScratch = (view: SchedulerView): Cache => {
    const rows: MatrixJob[] = [];
    for (const r of view.running)
      rows.push({ job: r.job, progress: r.progress, machine: r.allocation[0]?.machine ?? -1 });
    for (const w of view.waiting) rows.push({ job: w.job, progress: w.progress, machine: -1 });
    rows.sort((a, b) => a.job.submit - b.job.submit || a.job.id - b.job.id);
    const previous = new Int32Array(rows.length);
    for (let i = 0; i < rows.length; i++) previous[i] = rows[i]!.machine;
    const platform = view.platform;
    if (platform !== eligibilityPlatform) {
      eligibilityPlatform = platform;
      eligibilityRows = new WeakMap();
    }
    const input = {
      now: view.now,
      platform,
      jobs: rows,
      previous,
      eligibility: (r: MatrixJob) => {
        let e = eligibilityRows.get(r.job);
        if (e === undefined) {
          e = eligibilityRow(r.job, platform);
          eligibilityRows.set(r.job, e);
        }
        return e;
      },
    };
    const byId = new Map<number, number>();
    if ("fused" in engine) {
      const costs = engine.fused[UNCHECKED_COSTS](input);
      for (let i = 0; i < rows.length; i++)
        if (rows[i]!.machine < 0) byId.set(rows[i]!.job.id, costs[i] as number);
      return { waiting: view.waiting, now: view.now, byId };
    }
    const builder = rowBuilder(input, engine.heuristics, scratch);
    const cols = platform.machines.length;
    const row = new Float64Array(cols);
    // Only the waiting jobs are ranked: their rows alone are computed (each row of P depends on
    // all the jobs through the heuristics' global terms, which the builder has).
    for (let i = 0; i < rows.length; i++) {
      if (rows[i]!.machine >= 0) continue;
      builder.row(i, row, 0);
      let s = 0;
      let c = 0;
      for (let m = 0; m < cols; m++) {
        const v = row[m]!;
        if (v > 0) {
          s += v;
          c++;
        }
      }
      byId.set(rows[i]!.job.id, c === 0 ? 0 : s / c);
    }
    return { waiting: view.waiting, now: view.now, byId };
  };
  if ("fused" in engine) return rankFused(engine.fused, fromScratch);
  return (w: WaitingJob, view: SchedulerView): number => {
    if (
      cache === undefined ||
      cache.waiting !== view.waiting ||
      cache.now !== view.now ||
      !cache.byId.has(w.job.id)
    ) {
      cache = fromScratch(view);
    }
    return cache.byId.get(w.job.id) ?? 0;
  };
}

/**
 * The paper's heuristics' ranking: the costs of the waiting jobs computed at the first call of
 * a scheduling event (`PaperIncrementalMatrix`'s `[UNCHECKED_RANK]`: the numbers of the sorted
 * from-scratch computation, `fromScratch`, bit for bit) into an array by position in the view's
 * `waiting` as it was then, with the ids it held (the engine hands out the same array at every
 * event, changed in place), and found there by id (a policy ranks the queue in its order: the
 * search goes on from the last position found). The same answers, call by call, as
 * `fromScratch`'s cache by id: a new computation when the view's `waiting` array or clock
 * changed or the job was not waiting then, 0 for a job that is still not waiting.
 */
function rankFused(
  matrix: PaperIncrementalMatrix,
  fromScratch: (view: SchedulerView) => Cache,
): (job: WaitingJob, view: SchedulerView) => number {
  let waiting: readonly WaitingJob[] | undefined;
  let now = Number.NaN;
  let costs = new Float64Array(64);
  /** The ids of `waiting` when the costs were computed, the first `count`. */
  const ids: number[] = [];
  let count = 0;
  /** Set when a row's sum was not finite and `fromScratch` did not throw (never expected). */
  let byId: Map<number, number> | undefined;
  let cursor = 0;
  const rank = (view: SchedulerView): void => {
    const list = view.waiting;
    const n = list.length;
    if (costs.length < n) costs = new Float64Array(Math.max(n, 2 * costs.length));
    waiting = undefined;
    byId = undefined;
    count = 0;
    if (!matrix[UNCHECKED_RANK](view.now, view.platform, view.running, list, costs)) {
      // A row's sum is not finite: the sorted computation throws the error naming the job.
      byId = fromScratch(view).byId;
    }
    for (let k = 0; k < n; k++) ids[k] = list[k]!.job.id;
    count = n;
    waiting = list;
    now = view.now;
    cursor = 0;
  };
  /** Position of job `id` in the ranked list (-1: not there). */
  const find = (id: number): number => {
    for (let k = cursor; k < count; k++) {
      if (ids[k] === id) {
        cursor = k + 1;
        return k;
      }
    }
    for (let k = 0; k < cursor && k < count; k++) {
      if (ids[k] === id) {
        cursor = k + 1;
        return k;
      }
    }
    return -1;
  };
  const lookup = (id: number): number | undefined => {
    if (byId !== undefined) return byId.get(id);
    const k = find(id);
    return k < 0 ? undefined : (costs[k] as number);
  };
  return (w: WaitingJob, view: SchedulerView): number => {
    const id = w.job.id;
    if (waiting === undefined || waiting !== view.waiting || now !== view.now) rank(view);
    const p = lookup(id);
    if (p !== undefined) return p;
    rank(view);
    return lookup(id) ?? 0;
  };
}
