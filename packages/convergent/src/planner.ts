import type { Job, Platform } from "@sched/core";
import type { PreMatchResult } from "@sched/knapsack";
import type { ExactMatching } from "@sched/matching";
import type { MatrixJob } from "./heuristic.js";
import { DEFERRED_ROWS, ROWS_CLEARED, type SourceWithCore, UNCHECKED_UPDATE } from "./matrix.js";
import { KNOWN_ELIGIBLE } from "./matrix-checks.js";
import { eligibilityRow } from "./minimal-requirements.js";
import { type ResolvedConvergentOptions, sourceOf } from "./options.js";
import { type Plan, PlanMemory, type PreviousPlan, planMatrix } from "./plan.js";

/** A waiting job as the planner reads it. */
export interface WaitingRow {
  readonly job: Job;
  /** Fraction of its work done (a preempted job), in [0, 1). */
  readonly progress: number;
}

/**
 * What the planner acts on while it realises a plan: the live free resources (they change as
 * it preempts and starts) and its three verbs. The engine's `SchedulingContext` in the
 * scheduler; a ledger built from the plain state in `convergentPass`.
 */
export interface PlannerActions {
  freeCores(machine: number): number;
  freeLicenses(license: string, machine: number): number;
  reject(id: number, reason: string): void;
  preempt(id: number): void;
  start(id: number, machine: number, cores: number): void;
}

/** One planning step's result (undefined when there was no job to plan). */
export interface PlanStep {
  /** The rows planned (running and ready waiting jobs, by submit time then id). */
  readonly rows: readonly MatrixJob[];
  readonly plan: Plan;
}

/** The reason given for a job no machine can ever run. */
export const NEVER_ELIGIBLE =
  "no machine meets its minimal requirements (cores on one machine, licenses)";

/**
 * The Convergent Scheduler's decision procedure, with what it keeps between scheduling events
 * (eligibility rows, the previous plan's machines and matching, the incremental matrix, the
 * license clustering, the counters): the ONE implementation behind the engine's `convergent()`
 * scheduler and the pure `convergentPass`. Internal.
 */
export class PlannerCore {
  readonly options: ResolvedConvergentOptions;
  readonly #source: SourceWithCore;
  /** Per job id: its eligibility row, and whether some machine is eligible. */
  #eligibility = new Map<number, { readonly row: Uint8Array; readonly any: boolean }>();
  #planned = new Map<number, number>();
  #previous: PreviousPlan | undefined;
  #memory = new PlanMemory();
  #observe: ResolvedConvergentOptions["onPreMatch"];
  #stats = { plans: 0, maxRows: 0, cleared: 0, preemptions: 0, refreshedRows: 0 };

  /** The counters since construction or the last `reset` (a copy). */
  get stats(): {
    plans: number;
    maxRows: number;
    cleared: number;
    preemptions: number;
    refreshedRows: number;
  } {
    return { ...this.#stats };
  }

  constructor(options: ResolvedConvergentOptions) {
    this.options = options;
    this.#source = sourceOf(options);
    this.#observe = options.onPreMatch;
  }

  /** Replaces the pre-matching observer (it only observes: the plans do not change). */
  observe(onPreMatch: ResolvedConvergentOptions["onPreMatch"]): void {
    this.#observe = onPreMatch;
  }

  /** Forgets everything kept between events. */
  reset(): void {
    this.#eligibility = new Map();
    this.#planned = new Map();
    this.#previous = undefined;
    this.#source.reset();
    this.#memory = new PlanMemory();
    this.#stats = { plans: 0, maxRows: 0, cleared: 0, preemptions: 0, refreshedRows: 0 };
  }

  /** Forgets the eligibility rows of jobs `ids` (their requirements changed). */
  forgetEligibility(ids: readonly number[]): void {
    for (const id of ids) this.#eligibility.delete(id);
  }

  #eligibilityOf(
    job: Job,
    platform: Platform,
  ): { readonly row: Uint8Array; readonly any: boolean } {
    let e = this.#eligibility.get(job.id);
    if (e === undefined) {
      const row = eligibilityRow(job, platform);
      // its count of eligible machines is known (a search for a 1 reads a whole row of 0s)
      e = { row, any: (KNOWN_ELIGIBLE.get(row) ?? row.indexOf(1) + 1) > 0 };
      this.#eligibility.set(job.id, e);
    }
    return e;
  }

  /**
   * One scheduling event: rejects the waiting jobs no machine can ever run, builds the
   * Job-Machine matrix over the running and ready waiting jobs, plans (pre-matching and
   * matching), and realises the plan through `act`: with preemption, the running jobs the plan
   * moves or drops are preempted first; then every planned job not running starts on its
   * machine when the machine is free (no other job, enough cores) and its licenses are free.
   *
   * @param running the running jobs, each with its machine (`machine >= 0`) and progress
   * @param waiting the waiting jobs in queue order (rejections follow it)
   * @param completed ids of the jobs that left since the previous event
   */
  step(
    now: number,
    platform: Platform,
    running: readonly MatrixJob[],
    waiting: readonly WaitingRow[],
    completed: readonly number[],
    act: PlannerActions,
  ): PlanStep | undefined {
    const o = this.options;
    const stats = this.#stats;
    for (const id of completed) {
      this.#eligibility.delete(id);
      this.#planned.delete(id);
    }
    // The jobs in the system: running, and waiting ones that may start now.
    const rows: MatrixJob[] = running.slice();
    for (const w of waiting) {
      if (!this.#eligibilityOf(w.job, platform).any) {
        act.reject(w.job.id, NEVER_ELIGIBLE);
        this.#eligibility.delete(w.job.id);
        continue;
      }
      if ((w.job.ready ?? w.job.submit) > now) continue;
      rows.push({ job: w.job, progress: w.progress, machine: -1 });
    }
    rows.sort((a, b) => a.job.submit - b.job.submit || a.job.id - b.job.id);
    if (rows.length === 0) return undefined;
    const prevMachine = new Int32Array(rows.length);
    for (let i = 0; i < rows.length; i++) {
      const r = rows[i]!;
      prevMachine[i] = r.machine >= 0 ? r.machine : (this.#planned.get(r.job.id) ?? -1);
    }
    const update = this.#source[UNCHECKED_UPDATE]({
      now,
      platform,
      jobs: rows,
      previous: prevMachine,
      eligibility: (r: MatrixJob) => this.#eligibilityOf(r.job, platform).row,
    });
    const observe = this.#observe;
    const incremental = o.matcher === "imfs";
    if (this.#source.incremental) stats.refreshedRows += update.changedRows.length;
    let plan: Plan;
    try {
      plan = planMatrix(
        update.matrix,
        {
          matcher: o.matcher,
          knapsack: o.knapsack,
          clearInPlace: true,
          memory: this.#memory,
          ...(incremental ? { previous: this.#previous, changedRows: update.changedRows } : {}),
          ...(update.costs === undefined ? {} : { costs: update.costs }),
          ...(observe === undefined
            ? {}
            : { onPreMatch: (result: PreMatchResult) => observe({ now, result }) }),
        },
        this.#source[DEFERRED_ROWS]?.(),
      );
    } catch (error) {
      // What the matrix holds is unknown: the source rewrites every row next time.
      this.#source[ROWS_CLEARED]?.(null);
      throw error;
    }
    // The pre-matching zeroed the cleared jobs' rows in the source's matrix: tell it.
    if (plan.cleared.length > 0 && this.#source[ROWS_CLEARED] !== undefined) {
      const gone = new Set(plan.cleared);
      const zeroed: number[] = [];
      for (let i = 0; i < rows.length; i++) if (gone.has(rows[i]!.job.id)) zeroed.push(i);
      this.#source[ROWS_CLEARED](zeroed);
    }
    stats.plans++;
    stats.maxRows = Math.max(stats.maxRows, rows.length);
    stats.cleared += plan.cleared.length;
    if (incremental) {
      this.#previous = {
        rowIds: plan.rowIds,
        matching: plan.matching as ExactMatching,
        cleared: plan.cleared,
      };
    }

    // Realise the plan.
    const cols = platform.machines.length;
    const occupant = new Int32Array(cols).fill(-1);
    for (const r of rows) if (r.machine >= 0) occupant[r.machine] = r.job.id;
    const planned = new Map<number, number>();
    this.#planned = planned;
    // Rows of running jobs that stay running (not preempted).
    const stays = new Uint8Array(rows.length);
    for (let i = 0; i < rows.length; i++) if ((rows[i] as MatrixJob).machine >= 0) stays[i] = 1;
    if (o.preemption) {
      for (let i = 0; i < rows.length; i++) {
        const r = rows[i]!;
        if (r.machine >= 0 && plan.rowToCol[i] !== r.machine) {
          act.preempt(r.job.id);
          stats.preemptions++;
          occupant[r.machine] = -1;
          stays[i] = 0;
        }
      }
    }
    for (let i = 0; i < rows.length; i++) {
      const r = rows[i]!;
      const m = plan.rowToCol[i]!;
      if (m < 0) continue;
      planned.set(r.job.id, m);
      if (r.machine === m || stays[i] === 1) continue;
      if (occupant[m] !== -1 || act.freeCores(m) < r.job.cores) continue;
      if (!licensesFree(r.job, act, m)) continue;
      act.start(r.job.id, m, r.job.cores);
      occupant[m] = r.job.id;
    }
    return { rows, plan };
  }
}

function licensesFree(job: Job, act: PlannerActions, m: number): boolean {
  const req = job.licenses;
  if (req === undefined) return true;
  for (const name of Object.keys(req)) {
    const want = req[name] as number;
    if (want > 0 && act.freeLicenses(name, m) < want) return false;
  }
  return true;
}
