import type { Job, Platform } from "@sched/core";
import { checkRowOn } from "./matrix-checks.js";

/** A job of the system `N` as the heuristics see it: one row of the Job-Machine matrix. */
export interface MatrixJob {
  /** The job. */
  readonly job: Job;
  /** Fraction of its work already done, in [0, 1] (kept across preemptions). */
  readonly progress: number;
  /** Machine it is running on now, or -1 when it is queued. */
  readonly machine: number;
}

/**
 * What every heuristic reads: the jobs in the system (rows), the machines (columns), the
 * eligible pairs fixed by the minimal requirements, and the previous plan.
 */
export interface HeuristicContext {
  /** Wall clock (`Now` / `Wallclock` in the paper). */
  readonly now: number;
  /** The platform: machines are the matrix columns. */
  readonly platform: Platform;
  /** The jobs in the system, queued and running: the matrix rows. */
  readonly jobs: readonly MatrixJob[];
  /** Number of columns (`platform.machines.length`). */
  readonly cols: number;
  /** `eligible[i * cols + m]` is 1 when machine `m` is in `M_Aff_i`, else 0. */
  readonly eligible: Uint8Array;
  /** `|M_Aff_i|` per row. */
  readonly eligibleCount: Int32Array;
  /** Machine associated with row `i` in the previous scheduling plan, or -1. */
  readonly previous: Int32Array;
}

/**
 * A heuristic of the convergent scheduling framework: it reads the context and ADDS its update
 * values `Δp_{i,m}` to the Job-Machine matrix `p` (row-major, `jobs.length x cols`). Built-in
 * heuristics only touch eligible entries; the scheduler clears the ineligible ones afterwards
 * anyway, and floors eligible entries at a tiny positive value so that they stay eligible.
 *
 * @example
 * ```ts
 * // favour machine 0 for every job by 5
 * const preferFirst: Heuristic = {
 *   name: "prefer-first",
 *   apply(ctx, p) {
 *     for (let i = 0; i < ctx.jobs.length; i++)
 *       if (ctx.eligible[i * ctx.cols] === 1) p[i * ctx.cols] += 5;
 *   },
 * };
 * ```
 */
export interface Heuristic {
  /** Name, for reports and error messages. */
  readonly name: string;
  /** Adds `Δp_{i,m}` to `p` in place. Must be deterministic. */
  apply(ctx: HeuristicContext, p: Float64Array): void;
  /**
   * Optional row-by-row form of {@link Heuristic.apply}: given the context, returns a kernel
   * that adds row `i`'s update values to `out[offset .. offset + cols)`. When every heuristic
   * has one, {@link buildMatrix} builds `P` one row at a time (one pass over each row with all
   * heuristics, in order: the same sums, bit for bit, as `apply` one heuristic after the
   * other), and the incremental scheduler can recompute single rows. Must add exactly what
   * `apply` adds.
   */
  rows?(ctx: HeuristicContext): RowKernel;
  /**
   * Optional: this heuristic adds `uniformRate * now` (plus terms that do not depend on `now`)
   * to EVERY eligible entry: a shift common to all eligible entries, which changes no
   * maximum-cardinality maximum-weight matching. The incremental scheduler leaves it out of
   * its change detection (see the README, Interpretation 13). Anti-aging: `AA`.
   */
  readonly uniformRate?: number;
}

/**
 * A heuristic's update values for one row: adds `Δp_{i,m}` for `m` in `0 .. cols-1` to
 * `out[offset + m]`.
 */
export type RowKernel = (i: number, out: Float64Array, offset: number) => void;

/** A heuristic that has its row form. */
export type RowHeuristic = Heuristic & { rows(ctx: HeuristicContext): RowKernel };

/** `apply` in terms of a row kernel: runs it on every row of `p`. */
export function applyRows(ctx: HeuristicContext, p: Float64Array, kernel: RowKernel): void {
  for (let i = 0; i < ctx.jobs.length; i++) kernel(i, p, i * ctx.cols);
}

/**
 * Seconds job `job` still needs on machine `m` if its estimate is right: the paper's
 * `Nxtime_{i,m} = Remaining_{i,m} = Estimated_i * (1 - Progress_i) * BM_ref / BM_m`, with
 * `BM_ref = job.benchmark ?? platform.referenceSpeed` and `BM_m = machine.speed` (core's default
 * execution model).
 *
 * Complexity: O(1).
 *
 * @example
 * ```ts
 * // estimate 100 at benchmark 2, half done, on a machine of speed 4
 * remainingTime({ job, progress: 0.5, machine: -1 }, platform, 0); // 100 * 0.5 * 2 / 4 = 25
 * ```
 */
export function remainingTime(row: MatrixJob, platform: Platform, m: number): number {
  checkRowOn("@sched/convergent/remainingTime", row, platform, m);
  const bench = row.job.benchmark ?? platform.referenceSpeed;
  const speed = (platform.machines[m] as { speed: number }).speed;
  return (row.job.estimate * (1 - row.progress) * bench) / speed;
}

/**
 * `Estimated_i (1 - Progress_i) BM_ref` of each row: {@link remainingTime} is this over the
 * machine's speed. Lets heuristics compute `Remaining_{i,m}` with one division.
 *
 * Complexity: O(|N|).
 */
export function remainingWork(ctx: HeuristicContext): Float64Array {
  const out = new Float64Array(ctx.jobs.length);
  const ref = ctx.platform.referenceSpeed;
  for (let i = 0; i < out.length; i++) {
    const row = ctx.jobs[i]!;
    out[i] = row.job.estimate * (1 - row.progress) * (row.job.benchmark ?? ref);
  }
  return out;
}

/** The speed of each machine, as a typed array. */
export function machineSpeeds(platform: Platform): Float64Array {
  return Float64Array.from(platform.machines, (m) => m.speed);
}

const workCache = new WeakMap<HeuristicContext, Float64Array>();
const speedCache = new WeakMap<Platform, Float64Array>();

/**
 * {@link remainingWork} computed once per context and shared by the built-in heuristics
 * (read-only: callers must not modify it). Internal.
 */
export function sharedRemainingWork(ctx: HeuristicContext): Float64Array {
  let w = workCache.get(ctx);
  if (w === undefined) {
    w = remainingWork(ctx);
    workCache.set(ctx, w);
  }
  return w;
}

/** {@link machineSpeeds} computed once per platform (read-only). Internal. */
export function sharedMachineSpeeds(platform: Platform): Float64Array {
  let s = speedCache.get(platform);
  if (s === undefined) {
    s = machineSpeeds(platform);
    speedCache.set(platform, s);
  }
  return s;
}
