import {
  InvalidInputError,
  type Job,
  type Platform,
  type Scheduler,
  type SchedulingContext,
} from "@sched/core";
import type { PreMatchResult } from "@sched/knapsack";
import type { ExactMatching } from "@sched/matching";
import type { Heuristic, MatrixJob } from "./heuristic.js";
import { IncrementalMatrix, REFRESH_TOLERANCE } from "./incremental.js";
import { buildMatrixInto, Scratch } from "./matrix.js";
import { meetsRequirements } from "./minimal-requirements.js";
import { OVERHEAD_NON_PREEMPTIVE, OVERHEAD_PREEMPTIVE } from "./overhead.js";
import {
  type HeuristicConstants,
  type HeuristicReadings,
  paperHeuristics,
  resolveConstants,
  resolveReadings,
} from "./paper-heuristics.js";
import { PaperIncrementalMatrix } from "./paper-incremental.js";
import {
  type Matcher,
  makePlan,
  type Plan,
  PlanMemory,
  type PreviousPlan,
  resolvePlanChoices,
} from "./plan.js";

/** Options of {@link convergent}. */
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
   * The readings of the Deadline heuristic the paper leaves open (`f1` after the deadline, a job
   * late everywhere); see {@link HeuristicReadings}.
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
   * was stored (see {@link IncrementalMatrix} and the README, Interpretation 13). 0 keeps the
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

const WHERE = "@sched/convergent/convergent";

interface Resolved {
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
}

function resolveOptions(options: ConvergentOptions): Resolved {
  if (options === null || typeof options !== "object")
    throw new InvalidInputError(WHERE, "options", `is ${String(options)}, expected an object`);
  const preemption = options.preemption ?? true;
  if (typeof preemption !== "boolean")
    throw new InvalidInputError(
      WHERE,
      "options.preemption",
      `is ${String(preemption)}, expected a boolean`,
    );
  const { matcher, knapsack } = resolvePlanChoices(WHERE, options);
  const checkList = (list: unknown, field: string): readonly Heuristic[] => {
    if (!Array.isArray(list))
      throw new InvalidInputError(WHERE, field, "is not an array, expected heuristics");
    list.forEach((h, i) => {
      if (h === null || typeof h !== "object" || typeof (h as Heuristic).apply !== "function")
        throw new InvalidInputError(WHERE, `${field}[${i}]`, "is not a heuristic { name, apply }");
    });
    return list as readonly Heuristic[];
  };
  let base: readonly Heuristic[];
  let paperConstants: Required<HeuristicConstants> | undefined;
  const readings = resolveReadings(WHERE, options.readings);
  if (options.heuristics !== undefined) {
    base = checkList(options.heuristics, "options.heuristics");
  } else {
    const constants = resolveConstants(WHERE, {
      overhead: preemption ? OVERHEAD_PREEMPTIVE : OVERHEAD_NON_PREEMPTIVE,
      ...options.constants,
    });
    base = paperHeuristics(constants, readings);
    paperConstants = constants;
  }
  if (options.onPreMatch !== undefined && typeof options.onPreMatch !== "function")
    throw new InvalidInputError(
      WHERE,
      "options.onPreMatch",
      `is ${typeof options.onPreMatch}, expected a function`,
    );
  const extra =
    options.extraHeuristics === undefined
      ? []
      : checkList(options.extraHeuristics, "options.extraHeuristics");
  const refreshTolerance = options.refreshTolerance ?? REFRESH_TOLERANCE;
  if (
    typeof refreshTolerance !== "number" ||
    !(refreshTolerance >= 0) ||
    !Number.isFinite(refreshTolerance)
  )
    throw new InvalidInputError(
      WHERE,
      "options.refreshTolerance",
      `is ${String(refreshTolerance)}, expected a finite number >= 0`,
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
  };
}

/** What a convergent scheduler has done so far (counts only: deterministic). */
export interface ConvergentStats {
  /** Scheduling plans computed. */
  readonly plans: number;
  /** Largest number of jobs (rows) in a plan. */
  readonly maxRows: number;
  /** Jobs cleared by the pre-matching, summed over plans. */
  readonly cleared: number;
  /** Preemptions (a migration counts one) issued. */
  readonly preemptions: number;
  /**
   * Rows of `P` recomputed and handed to the matching as changed, summed over plans
   * (incremental variants; 0 otherwise).
   */
  readonly refreshedRows: number;
}

/** A convergent scheduler: a core {@link Scheduler} with its counters. */
export interface ConvergentScheduler extends Scheduler {
  /** Counters since the last `reset`. */
  readonly stats: ConvergentStats;
}

/**
 * The Convergent Scheduler (Capannini et al., SC'07): at every scheduling event (submission,
 * completion, ready time) it builds the Job-Machine matrix over all jobs in the system (queued
 * and running) with the heuristics, clears the jobs that lose the license knapsack, matches
 * jobs to machines (one job per machine, one machine per job) and realises the plan: running
 * jobs the plan moves or drops are preempted (with preemption; progress is kept), and planned
 * jobs start on their machine when it is free and their licenses are available.
 *
 * Jobs run on ONE machine each (allocation `[{ machine, cores: job.cores }]`) and a machine
 * runs one job at a time, as in the paper. A job that no machine can ever run (more cores than
 * any machine, a license the platform cannot give it) is rejected on arrival.
 *
 * Complexity per plan: O(|N| x |M|) per heuristic plus pre-matching plus the matcher.
 *
 * @throws InvalidInputError on invalid options (at construction).
 * @example
 * ```ts
 * const trace = simulate(jobs, platform, convergent({ matcher: "imfs", preemption: true }));
 * ```
 */
export function convergent(options: ConvergentOptions = {}): ConvergentScheduler {
  const o = resolveOptions(options);
  let eligibility = new Map<number, Uint8Array>();
  let planned = new Map<number, number>();
  let previous: PreviousPlan | undefined;
  let stats = { plans: 0, maxRows: 0, cleared: 0, preemptions: 0, refreshedRows: 0 };
  const scratch = new Scratch();
  let memory = new PlanMemory();
  const incremental =
    o.matcher !== "imfs"
      ? undefined
      : o.paperConstants !== undefined
        ? new PaperIncrementalMatrix(
            o.paperConstants,
            o.refreshTolerance,
            undefined,
            false,
            o.readings,
          )
        : new IncrementalMatrix(o.refreshTolerance);
  // Non-incremental variants with the paper's heuristics: the same from-scratch matrix, from
  // the fused row computation (one pass per row instead of one per heuristic).
  const fused =
    incremental === undefined && o.paperConstants !== undefined
      ? new PaperIncrementalMatrix(o.paperConstants, 0, undefined, true, o.readings)
      : undefined;
  const observe = o.onPreMatch;

  const eligibilityOf = (job: Job, platform: Platform): Uint8Array => {
    let e = eligibility.get(job.id);
    if (e === undefined) {
      e = new Uint8Array(platform.machines.length);
      for (let m = 0; m < e.length; m++) if (meetsRequirements(job, platform, m)) e[m] = 1;
      eligibility.set(job.id, e);
    }
    return e;
  };

  return {
    name: o.name,
    get stats(): ConvergentStats {
      return { ...stats };
    },
    reset(): void {
      eligibility = new Map();
      planned = new Map();
      previous = undefined;
      incremental?.reset();
      fused?.reset();
      memory = new PlanMemory();
      stats = { plans: 0, maxRows: 0, cleared: 0, preemptions: 0, refreshedRows: 0 };
    },
    schedule(ctx: SchedulingContext): void {
      const { view } = ctx;
      const { platform, now } = view;
      for (const c of ctx.completed) {
        eligibility.delete(c.id);
        planned.delete(c.id);
      }
      // The jobs in the system: running, and waiting ones that may start now.
      const rows: MatrixJob[] = [];
      for (const r of view.running) {
        rows.push({ job: r.job, progress: r.progress, machine: r.allocation[0].machine });
      }
      for (const w of view.waiting) {
        const e = eligibilityOf(w.job, platform);
        if (e.indexOf(1) < 0) {
          ctx.reject(
            w.job.id,
            "no machine meets its minimal requirements (cores on one machine, licenses)",
          );
          eligibility.delete(w.job.id);
          continue;
        }
        if ((w.job.ready ?? w.job.submit) > now) continue;
        rows.push({ job: w.job, progress: w.progress, machine: -1 });
      }
      rows.sort((a, b) => a.job.submit - b.job.submit || a.job.id - b.job.id);
      if (rows.length === 0) return;
      const prevMachine = new Int32Array(rows.length);
      for (let i = 0; i < rows.length; i++) {
        const r = rows[i];
        prevMachine[i] = r.machine >= 0 ? r.machine : (planned.get(r.job.id) ?? -1);
      }
      const input = {
        now,
        platform,
        jobs: rows,
        previous: prevMachine,
        eligibility: (r: MatrixJob) => eligibilityOf(r.job, platform),
      };
      const hook =
        observe === undefined
          ? {}
          : { onPreMatch: (result: PreMatchResult) => observe({ now, result }) };
      let plan: Plan;
      if (incremental !== undefined) {
        const u = incremental.update(input, o.heuristics);
        stats.refreshedRows += u.changedRows.length;
        plan = makePlan(u.matrix, {
          matcher: o.matcher,
          knapsack: o.knapsack,
          previous,
          changedRows: u.changedRows,
          costs: u.costs,
          clearInPlace: true,
          memory,
          ...hook,
        });
      } else if (fused !== undefined) {
        const u = fused.update(input);
        plan = makePlan(u.matrix, {
          matcher: o.matcher,
          knapsack: o.knapsack,
          costs: u.costs,
          clearInPlace: true,
          memory,
          ...hook,
        });
      } else {
        plan = makePlan(buildMatrixInto(input, o.heuristics, scratch), {
          matcher: o.matcher,
          knapsack: o.knapsack,
          clearInPlace: true,
          memory,
          ...hook,
        });
      }
      stats.plans++;
      stats.maxRows = Math.max(stats.maxRows, rows.length);
      stats.cleared += plan.cleared.length;
      if (o.matcher === "imfs") {
        previous = {
          rowIds: plan.rowIds,
          matching: plan.matching as ExactMatching,
          cleared: plan.cleared,
        };
      }

      // Realise the plan.
      const cols = platform.machines.length;
      const occupant = new Int32Array(cols).fill(-1);
      for (const r of rows) if (r.machine >= 0) occupant[r.machine] = r.job.id;
      planned = new Map();
      if (o.preemption) {
        for (let i = 0; i < rows.length; i++) {
          const r = rows[i];
          if (r.machine >= 0 && plan.rowToCol[i] !== r.machine) {
            ctx.preempt(r.job.id);
            stats.preemptions++;
            occupant[r.machine] = -1;
          }
        }
      }
      for (let i = 0; i < rows.length; i++) {
        const r = rows[i];
        const m = plan.rowToCol[i];
        if (m < 0) continue;
        planned.set(r.job.id, m);
        if (r.machine === m || view.isRunning(r.job.id)) continue;
        if (occupant[m] !== -1 || view.freeCores(m) < r.job.cores) continue;
        if (!licensesFree(r.job, view.freeLicenses.bind(view), m)) continue;
        ctx.start(r.job.id, [{ machine: m, cores: r.job.cores }]);
        occupant[m] = r.job.id;
      }
    },
  };
}

function licensesFree(
  job: Job,
  free: (name: string, machine: number) => number,
  m: number,
): boolean {
  const req = job.licenses;
  if (req === undefined) return true;
  for (const name of Object.keys(req)) {
    const want = req[name] as number;
    if (want > 0 && free(name, m) < want) return false;
  }
  return true;
}
