import { InvalidInputError, type Job, type Platform } from "@sched/core";
import { onLine } from "./deadline.js";
import { firstAtLeast } from "./first-at-least.js";
import type { HeuristicContext } from "./heuristic.js";
import { REFRESH_TOLERANCE, SHIFT_HORIZON, uniformShift } from "./incremental.js";
import {
  DEFERRED_ROWS,
  type DeferredRows,
  type MatrixInput,
  type MatrixUpdate,
  matrixContext,
  ROWS_CLEARED,
  Scratch,
  type SourceWithCore,
  UNCHECKED_UPDATE,
} from "./matrix.js";
import { checkMatrixInput, countEligible, KNOWN_ELIGIBLE } from "./matrix-checks.js";
import { eligibilityRow } from "./minimal-requirements.js";
import {
  type HeuristicConstants,
  type HeuristicReadings,
  PAPER_READINGS,
} from "./paper-heuristics.js";
import { repeatSum } from "./repeat-sum.js";

/**
 * {@link PaperIncrementalMatrix}'s costs-only update (see its `[UNCHECKED_COSTS]`). Internal.
 */
export const UNCHECKED_COSTS: unique symbol = Symbol("@sched/convergent/uncheckedCosts");

/**
 * {@link PaperIncrementalMatrix}'s ranking of the waiting jobs (see its `[UNCHECKED_RANK]`).
 * Internal.
 */
export const UNCHECKED_RANK: unique symbol = Symbol("@sched/convergent/uncheckedRank");

/** A job in the system as {@link PaperIncrementalMatrix}'s `[UNCHECKED_RANK]` reads it. */
export interface RankedJob {
  readonly job: Job;
  readonly progress: number;
}

/** A running job as `[UNCHECKED_RANK]` reads it: its first machine is its previous one. */
export interface RankedRunningJob extends RankedJob {
  readonly allocation: readonly { readonly machine: number }[];
}

/** Per-job data that never changes while the job is in the system (same platform). */
interface JobStatic {
  readonly job: Job;
  readonly eligible: Uint8Array;
  readonly count: number;
  /** Slowest and fastest eligible speeds (0 when none). */
  readonly slowest: number;
  readonly fastest: number;
  /** The Input heuristic's row (0 on ineligible machines). */
  readonly input: Float64Array;
  /** Mean of `input` over the eligible machines. */
  readonly inputMean: number;
  /** The largest `Math.abs` of `input`'s entries (0 when none is eligible). */
  readonly inputAbsMax: number;
  /** Mean of 1 / speed over the eligible machines. */
  readonly invSpeedMean: number;
  /** Indices (in the platform's license list) of the licenses the job asks for, by name. */
  readonly licenseIndex: Int32Array;
  /** Copies asked for, same order. */
  readonly licenseCopies: Float64Array;
  /**
   * The sum of their sizes when every one is an integer and that sum is at most
   * `Number.MAX_SAFE_INTEGER` (see `wholeTotal`), else `Infinity`.
   */
  readonly licenseTotal: number;
  /** The eligible machines, ascending. */
  readonly columns: Int32Array;
  /**
   * Every eligible machine has the same speed and the same `input` entry (a platform of
   * identical machines, a job without input files): outside equation (1), every entry of the
   * row is then the same, and `#rowSum` adds it up without reading the row.
   */
  readonly uniform: boolean;
  /** The last `[UNCHECKED_RANK]` call that read it (to drop the statics of jobs gone). */
  seen: number;
}

const SOURCE = "@sched/convergent/matrixSource";

/** Options of {@link PaperIncrementalMatrix}. */
export interface PaperMatrixOptions {
  /** The seven heuristics' constants, every one given. */
  readonly constants: Required<HeuristicConstants>;
  /**
   * The heuristics' readings (Deadline, Wait minimization's `SupRemaining`).
   * @defaultValue {@link PAPER_READINGS}
   */
  readonly readings?: Required<HeuristicReadings>;
  /**
   * `true`: rows are kept across events (the incremental variants, with `tolerance` and
   * `horizon`); `false`: every row is computed from scratch at every update and no shift is
   * applied, which is the from-scratch matrix of `buildMatrix` up to rounding (the terms are
   * added in another order): the non-incremental variants and `convergentPriority`.
   * @defaultValue `true`
   */
  readonly incremental?: boolean;
  /** @defaultValue {@link REFRESH_TOLERANCE} (ignored unless `incremental`) */
  readonly tolerance?: number;
  /** @defaultValue {@link SHIFT_HORIZON} (ignored unless `incremental`) */
  readonly horizon?: number;
}

/** A stored row and the parameters it was computed with. */
interface StoredRow {
  readonly values: Float64Array;
  /**
   * The per-job data it was computed from (`values` is 0 outside its `columns`). A job whose
   * requirements changed (another job object under the same id) has new data, even when it
   * shares its arrays with others (see `#staticOf`).
   */
  readonly of: JobStatic;
  /**
   * A time-dependent row's (`dl` 3) values on `columns`, in their order (contiguous, for the
   * entry-by-entry comparison at the next event); null for the others.
   */
  readonly packed: Float64Array | null;
  /**
   * Row of the scratch matrix it was written to by the last unchecked update (-1: none); the
   * layout (`#layoutRows`) says whether that row still holds it.
   */
  at: number;
  readonly mean: number;
  /** Row scalar (base + licenses + WM + anti-aging) plus the shift. */
  readonly scs: number;
  /** Wait minimization's coefficient of 1 / speed: `WM · work / Sup`. */
  readonly alpha: number;
  readonly prev: number;
  /** Deadline state: 0 none, 1 all Min, 2 all late (Max), 3 time-dependent. */
  readonly dl: number;
}

/**
 * The incremental Job-Machine matrix specialised to the paper's seven heuristics (what
 * `convergent` uses when the heuristics are `paperHeuristics(constants)` with nothing added).
 * Same contract and guarantee as {@link IncrementalMatrix} with the same tolerance, but most
 * rows cost O(1) per event instead of O(|M|): a row of `P` is
 * `s_i + Input_{i,m} - α_i / BM_m + Deadline_{i,m} + [m = prev_i] Δ_ov` on its eligible machines
 * (`s_i` = base + `LI w(i)/max w` + `WM` + `AA (now - submit_i)`, `α_i = WM · work_i / Sup`,
 * `Sup` the matrix's or, with `waitSup: "row"`, the row's `SupRemaining`),
 * and its deadline part does not depend on the clock while `f1` is `Min` on every eligible
 * machine or the job is late on every one. Such a row is kept when `s_i` and `α_i` moved less
 * than the tolerance allows for its smallest entry, and recomputed otherwise; rows whose
 * deadline part moves with the clock are recomputed and compared entry by entry.
 *
 * Internal (used by the `convergent` scheduler).
 */
export class PaperIncrementalMatrix implements SourceWithCore {
  readonly tolerance: number;
  readonly horizon: number;
  readonly #c: Required<HeuristicConstants>;
  /** `f1` after the deadline (`Max`, or `Min` as printed). */
  readonly #late: number;
  /** The deadline update of a job late everywhere (`d_i = 0`): `Max`, or 0. */
  readonly #allLate: number;
  /**
   * The deadline update of a job with `f1 = Min` on every eligible machine: `Min` when
   * `Max > Min` (equation (1) with `d_i > 0`); otherwise `d_i <= 0` and the `allLate` reading
   * applies (0, or the urgency shared equally: `Min`), as in `deadlineHeuristic`.
   */
  readonly #allMin: number;
  readonly #allLateZero: boolean;
  /** Wait minimization's `SupRemaining` per row (`readings.waitSup: "row"`), not the matrix's. */
  readonly #rowSup: boolean;
  #stored = new Map<number, StoredRow>();
  #static = new Map<number, JobStatic>();
  #base = Number.NaN;
  #scratch = new Scratch();
  #platform: Platform | undefined;
  #speed = new Float64Array(0);
  #uplink = new Float64Array(0);
  #licenseIndex = new Map<string, number>();
  #offer = new Float64Array(0);
  /**
   * What the scratch matrix holds after the last unchecked update, minus the rows its caller
   * cleared ({@link ROWS_CLEARED}), so that the next unchecked update rewrites only the rows
   * that do not hold their value already: the buffer it describes (null: nothing known, e.g.
   * after a public `update`, whose caller may write anything into the matrix), and per row the
   * stored row it holds (incremental; undefined: unknown) or the eligible columns of the row
   * written there (from scratch: every other entry of the row is 0, cleared or not).
   */
  #layoutBuffer: ArrayBufferLike | null = null;
  #layoutRows: (StoredRow | undefined)[] = [];
  /** Incremental: 1 where the row is 0 (cleared, or deferred) instead of its stored row. */
  #layoutZero = new Uint8Array(0);
  #layoutCols: (Int32Array | undefined)[] = [];
  /** `#update`'s row scratch: the row computed, and the deadline heuristic's `f1` (see there). */
  #buffer = new Float64Array(0);
  #f = new Float64Array(0);
  /** The columns of `#buffer` the last row written there left nonzero (null: all 0). */
  #bufferColumns: Int32Array | null = null;
  /** The rows the last unchecked update left at 0 ({@link DEFERRED_ROWS}). */
  #deferred: DeferredRows | undefined;
  // `[UNCHECKED_RANK]`'s buffers, kept between calls (grown, never shrunk), and its call count.
  #rankCall = 0;
  /** `#static`'s size at which `[UNCHECKED_RANK]` drops the statics of jobs gone. */
  #rankSweepAt = 0;
  /**
   * The per-job data of the rows of this call and of the last one (running jobs, then waiting
   * ones: `#rankPrevRunning` and `#rankPrevRows` of the last), swapped at every call.
   */
  #rankStatics: JobStatic[] = [];
  #rankPrev: JobStatic[] = [];
  #rankPrevRunning = 0;
  #rankPrevRows = 0;
  #rankWork = new Float64Array(0);
  #rankW = new Float64Array(0);
  #rankLicensed: number[] = [];
  #rankF = new Float64Array(0);
  /**
   * The per-job data of jobs with neither input files nor licenses, by their eligibility row (a
   * row of `eligibilityRow`, shared by a class of cores; see `#staticOf`).
   */
  #staticByRow = new WeakMap<Uint8Array, JobStatic>();

  /** Whether rows are kept across events (see {@link PaperMatrixOptions.incremental}). */
  readonly incremental: boolean;
  /** `!incremental`: every row from scratch, no shift. */
  readonly fresh: boolean;

  constructor(options: PaperMatrixOptions) {
    const constants = options.constants;
    const readings = options.readings ?? PAPER_READINGS;
    this.#c = constants;
    this.#late = readings.deadlineLate === "min" ? constants.deadlineMin : constants.deadlineMax;
    this.#allLateZero = readings.deadlineAllLate === "zero";
    this.#rowSup = readings.waitSup === "row";
    // Late on every eligible machine: f1 = late everywhere; equation (1) then gives `late` on
    // each machine when late = Min (d_i > 0), and Max or 0 when late = Max (d_i = 0).
    this.#allMin =
      constants.deadlineMax > constants.deadlineMin || !this.#allLateZero
        ? constants.deadlineMin
        : 0;
    this.#allLate =
      readings.deadlineLate === "min"
        ? this.#allMin
        : this.#allLateZero
          ? 0
          : constants.deadlineMax;
    this.incremental = options.incremental ?? true;
    this.fresh = !this.incremental;
    this.tolerance = this.incremental ? (options.tolerance ?? REFRESH_TOLERANCE) : 0;
    this.horizon = options.horizon ?? SHIFT_HORIZON;
  }

  reset(): void {
    this.#stored = new Map();
    this.#static = new Map();
    this.#staticByRow = new WeakMap();
    this.#base = Number.NaN;
    this.#forgetLayout();
  }

  #forgetLayout(): void {
    this.#layoutBuffer = null;
    this.#layoutRows = [];
    this.#layoutZero = new Uint8Array(0);
    this.#layoutCols = [];
    this.#deferred = undefined;
  }

  /** See {@link ROWS_CLEARED}: those rows of the scratch matrix are 0 now (null: unknown). */
  [ROWS_CLEARED](rows: readonly number[] | null): void {
    if (rows === null) {
      this.#forgetLayout();
      return;
    }
    const zero = this.#layoutZero;
    for (const p of rows) if (p < zero.length) zero[p] = 1;
  }

  /** See {@link DEFERRED_ROWS}. */
  [DEFERRED_ROWS](): DeferredRows | undefined {
    return this.#deferred;
  }

  #staticOf(job: Job, eligible: Uint8Array): JobStatic {
    let s = this.#static.get(job.id);
    if (s !== undefined && s.job === job) return s;
    // A job with neither input files nor licenses: its data follows from its eligibility row
    // and the platform alone (its Input row is the constant `Input` on the eligible machines),
    // so a job with the same row of `eligibilityRow` (never written; shared by the jobs of a
    // class of cores) shares it, arrays included (never written either).
    const byRow =
      job.input === undefined && job.licenses === undefined && KNOWN_ELIGIBLE.has(eligible);
    if (byRow) {
      const shape = this.#staticByRow.get(eligible);
      if (shape !== undefined) {
        s = { ...shape, job, seen: 0 };
        this.#static.set(job.id, s);
        return s;
      }
    }
    const cols = eligible.length;
    const speed = this.#speed;
    let count = 0;
    let slowest = Number.POSITIVE_INFINITY;
    let fastest = 0;
    let inv = 0;
    for (let m = 0; m < cols; m++) {
      if (eligible[m] !== 1) continue;
      count++;
      if (speed[m]! < slowest) slowest = speed[m]!;
      if (speed[m]! > fastest) fastest = speed[m]!;
      inv += 1 / speed[m]!;
    }
    // Input heuristic row (same formula as inputHeuristic, default bandwidth 1).
    const t = new Float64Array(cols);
    let sum = 0;
    const up = this.#uplink;
    for (let m = 0; m < cols; m++) {
      if (eligible[m] !== 1) continue;
      let x = 0;
      if (job.input !== undefined)
        for (const d of job.input)
          if (d.machine !== m) x += d.size / Math.min(up[d.machine] as number, up[m] as number);
      t[m] = x;
      sum += x;
    }
    const input = new Float64Array(cols);
    let inputSum = 0;
    let inputAbsMax = 0;
    for (let m = 0; m < cols; m++) {
      if (eligible[m] !== 1) continue;
      input[m] = sum > 0 ? this.#c.input * (1 - t[m]! / sum) : this.#c.input;
      inputSum += input[m]!;
      inputAbsMax = Math.max(inputAbsMax, Math.abs(input[m]!)); // NaN stays NaN
    }
    const columns = new Int32Array(count);
    for (let m = 0, k = 0; m < cols; m++) if (eligible[m] === 1) columns[k++] = m;
    let uniform = true;
    for (let k = 1; k < count && uniform; k++) {
      const m = columns[k]!;
      const m0 = columns[0]!;
      uniform = speed[m] === speed[m0] && input[m] === input[m0];
    }
    const index: number[] = [];
    const copies: number[] = [];
    if (job.licenses !== undefined)
      for (const name of Object.keys(job.licenses).sort()) {
        const l = this.#licenseIndex.get(name);
        if (l === undefined) continue;
        index.push(l);
        copies.push(job.licenses[name] as number);
      }
    s = {
      job,
      eligible: eligible.slice(),
      count,
      slowest: count === 0 ? 0 : slowest,
      fastest,
      input,
      inputMean: count === 0 ? 0 : inputSum / count,
      inputAbsMax,
      invSpeedMean: count === 0 ? 0 : inv / count,
      licenseIndex: Int32Array.from(index),
      licenseCopies: Float64Array.from(copies),
      licenseTotal: wholeTotal(copies),
      columns,
      uniform,
      seen: 0,
    };
    this.#static.set(job.id, s);
    if (byRow) this.#staticByRow.set(eligible, s);
    return s;
  }

  #setPlatform(platform: Platform): void {
    if (this.#platform === platform) return;
    this.#platform = platform;
    this.#static = new Map();
    this.#stored = new Map();
    this.#forgetLayout();
    this.#staticByRow = new WeakMap();
    this.#rankPrevRows = 0;
    this.#rankPrevRunning = 0;
    const cols = platform.machines.length;
    this.#speed = Float64Array.from(platform.machines, (m) => m.speed);
    this.#licenseIndex = new Map(platform.licenses.map((l, k) => [l.name, k]));
    this.#offer = Float64Array.from(platform.licenses, (l) =>
      l.kind === "floating" ? l.copies : l.copies * (l.machines?.length ?? 0),
    );
    this.#uplink = new Float64Array(cols);
    for (let m = 0; m < cols; m++) {
      const cluster = platform.clusters[platform.machines[m]!.cluster];
      const link = cluster?.link === undefined ? undefined : platform.links[cluster.link];
      this.#uplink[m] = link === undefined ? 1 : link.bandwidth;
    }
  }

  /**
   * Writes row `st.job`'s eligible entries into `out[o + m]` (the ineligible ones are left
   * alone: the caller zeroes them) and returns their sum: `s_i + Input_{i,m} - α_i / BM_m`,
   * plus the deadline part for state `dl` (0 none, 1 all Min, 2 late everywhere, 3 equation
   * (1)), plus
   * the overhead on `prev`, floored at `shift + 1e-9`.
   */
  #rowInto(
    out: Float64Array,
    o: number,
    st: JobStatic,
    scs: number,
    alpha: number,
    prev: number,
    dl: number,
    now: number,
    workI: number,
    f: Float64Array,
    shift: number,
  ): number {
    const { deadlineMin: dMin, deadlineMax: dMax, deadlineK: dK, overhead: cOv } = this.#c;
    const speed = this.#speed;
    const idx = st.columns;
    const n = idx.length;
    const inp = st.input;
    if (dl !== 3) {
      // One pass: the entry, the overhead on `prev`, the floor and the sum, in the order (and
      // with the roundings) of the two passes of the deadline case below.
      const add = dl === 1 ? this.#allMin : this.#allLate;
      let sum = 0;
      for (let k = 0; k < n; k++) {
        const m = idx[k]!;
        let x = scs + inp[m]! - alpha / speed[m]!;
        if (dl !== 0) x += add;
        if (m === prev) x += cOv;
        if (!(x - shift >= 1e-9)) x = shift + 1e-9;
        out[o + m] = x;
        sum += x;
      }
      return sum;
    }
    // Equation (1) over the eligible machines, then the row as above.
    let urgency = 0;
    let d = 0;
    const dead = st.job.deadline as number;
    for (let k = 0; k < n; k++) {
      const m = idx[k]!;
      const x = workI / speed[m]!;
      const ext = now + x;
      const t = dead - dK * x;
      let v: number;
      if (ext > dead) v = this.#late;
      else if (ext <= t) v = dMin;
      else v = onLine(((dMax - dMin) / (dead - t)) * (ext - t) + dMin, dMin, dMax);
      f[m] = v;
      urgency += v;
      d += dMax - v;
    }
    let sum = 0;
    for (let k = 0; k < n; k++) {
      const m = idx[k]!;
      let x =
        scs +
        inp[m]! -
        alpha / speed[m]! +
        (d > 0 ? (urgency * (dMax - f[m]!)) / d : this.#allLateZero ? 0 : urgency / n);
      if (m === prev) x += cOv;
      if (!(x - shift >= 1e-9)) x = shift + 1e-9;
      out[o + m] = x;
      sum += x;
    }
    return sum;
  }

  /**
   * The sum {@link #rowInto} returns with `shift` 0, nothing written but `f`: the same entries
   * in the same order, with the same roundings (`x - 0` is `x`). `[UNCHECKED_RANK]`'s rows.
   */
  #rowSum(
    st: JobStatic,
    scs: number,
    alpha: number,
    prev: number,
    dl: number,
    now: number,
    workI: number,
    f: Float64Array,
  ): number {
    const { deadlineMin: dMin, deadlineMax: dMax, deadlineK: dK, overhead: cOv } = this.#c;
    const speed = this.#speed;
    const idx = st.columns;
    const n = idx.length;
    const inp = st.input;
    if (dl !== 3) {
      const add = dl === 1 ? this.#allMin : this.#allLate;
      if (st.uniform && n > 0) {
        // Every entry is the same but `prev`'s: the loop below adds them up in O(log n) steps,
        // exactly (see `repeatSum`), with `prev`'s entry in its place.
        const m0 = idx[0]!;
        let x0 = scs + inp[m0]! - alpha / speed[m0]!;
        if (dl !== 0) x0 += add;
        let x = x0;
        if (!(x >= 1e-9)) x = 1e-9; // (NaN too, as below)
        const kp = prev < 0 ? -1 : placeOf(idx, prev);
        if (kp < 0) return repeatSum(0, x, n);
        let xp = x0 + cOv;
        if (!(xp >= 1e-9)) xp = 1e-9;
        return repeatSum(repeatSum(0, x, kp) + xp, x, n - kp - 1);
      }
      let sum = 0;
      for (let k = 0; k < n; k++) {
        const m = idx[k]!;
        let x = scs + inp[m]! - alpha / speed[m]!;
        if (dl !== 0) x += add;
        if (m === prev) x += cOv;
        if (!(x >= 1e-9)) x = 1e-9;
        sum += x;
      }
      return sum;
    }
    let urgency = 0;
    let d = 0;
    const dead = st.job.deadline as number;
    for (let k = 0; k < n; k++) {
      const m = idx[k]!;
      const x = workI / speed[m]!;
      const ext = now + x;
      const t = dead - dK * x;
      let v: number;
      if (ext > dead) v = this.#late;
      else if (ext <= t) v = dMin;
      else v = onLine(((dMax - dMin) / (dead - t)) * (ext - t) + dMin, dMin, dMax);
      f[m] = v;
      urgency += v;
      d += dMax - v;
    }
    let sum = 0;
    for (let k = 0; k < n; k++) {
      const m = idx[k]!;
      let x =
        scs +
        inp[m]! -
        alpha / speed[m]! +
        (d > 0 ? (urgency * (dMax - f[m]!)) / d : this.#allLateZero ? 0 : urgency / n);
      if (m === prev) x += cOv;
      if (!(x >= 1e-9)) x = 1e-9;
      sum += x;
    }
    return sum;
  }

  update(input: MatrixInput): MatrixUpdate & { readonly costs: Float64Array } {
    checkMatrixInput(SOURCE, "input", input);
    // The caller may write anything into the matrix: the next update rewrites every row.
    this.#forgetLayout();
    const u = this.#update(input, null, false);
    this.#forgetLayout();
    const { rows, cols, weights, context, changedRows, costs, shift } = u;
    return { matrix: { rows, cols, weights, context: context! }, changedRows, costs, shift };
  }

  /**
   * {@link update} without the checks of `input`, for a caller whose only write into the
   * matrix is clearing rows it then reports ({@link ROWS_CLEARED}): the next unchecked update
   * rewrites only the rows of the scratch matrix that do not hold their value already. The
   * context's `eligible` and `eligibleCount` are assembled when first read (the planner reads
   * neither; `input.eligibility` is called for the rows whose per-job data is not cached).
   */
  [UNCHECKED_UPDATE](input: MatrixInput): MatrixUpdate & { readonly costs: Float64Array } {
    const u = this.#update(input, null, true);
    const { rows, cols, weights, context, changedRows, costs, shift } = u;
    return { matrix: { rows, cols, weights, context: context! }, changedRows, costs, shift };
  }

  /**
   * The row means of {@link update} (`costs`), and nothing else: no matrix is written and no
   * eligibility matrix is assembled (a job's eligibility row is read, through
   * `input.eligibility`, only when its per-job data is not cached). For a from-scratch source
   * (`incremental: false`) only; the same numbers as `update(input).costs`, bit for bit (the
   * same row computation, into a one-row buffer). `input` is not checked. Internal: what
   * `convergentPriority` ranks jobs with.
   */
  [UNCHECKED_COSTS](input: MatrixInput): Float64Array {
    if (!this.fresh)
      throw new Error("@sched/convergent: UNCHECKED_COSTS is for a from-scratch source only");
    return this.#update(input, new Float64Array(input.platform.machines.length), false).costs;
  }

  /**
   * The costs of {@link UNCHECKED_COSTS} for the waiting rows only, bit for bit, without its
   * input: the rows are `running` and `waiting` (a running job's previous machine is its
   * allocation's first, a waiting job has none), and `out[k]` receives waiting job k's cost.
   * `[UNCHECKED_COSTS]` reads the rows sorted by submit time, then id; here they are read in
   * the given order, which changes nothing: of the terms shared by the rows, `SupRemaining` and
   * the largest license weight are maxima, and the license requests (rho) are summed over the
   * rows that ask for a license sorted as there (stably: running jobs first on a tie), unless
   * the copies asked for are integers adding up to a safe integer (every partial sum exact, so
   * any order gives the same sums: the usual case, left unsorted). The
   * running jobs' rows are computed only to see that their sums are finite (skipped when a
   * bound on their entries shows it).
   *
   * @returns false when a row's sum is not finite: the caller then gets the error (the first
   * such row's, in the sorted order) from `[UNCHECKED_COSTS]` on the sorted rows; `out` is then
   * incomplete. From-scratch source only; nothing is checked. Internal: `convergentPriority`.
   */
  [UNCHECKED_RANK](
    now: number,
    platform: Platform,
    running: readonly RankedRunningJob[],
    waiting: readonly RankedJob[],
    out: Float64Array,
  ): boolean {
    if (!this.fresh)
      throw new Error("@sched/convergent: UNCHECKED_RANK is for a from-scratch source only");
    this.#setPlatform(platform);
    const call = ++this.#rankCall;
    const c = this.#c;
    const { base: cBase, waitMinimization: cWM, antiAging: cAA, licenses: cLI } = c;
    const { deadlineK: dK, overhead: cOv } = c;
    const nR = running.length;
    const rows = nR + waiting.length;
    const cols = platform.machines.length;
    if (this.#rankWork.length < rows) {
      const n = Math.max(rows, 2 * this.#rankWork.length, 64);
      this.#rankWork = new Float64Array(n);
      this.#rankW = new Float64Array(n);
    }
    if (this.#rankF.length !== cols) this.#rankF = new Float64Array(cols);
    const work = this.#rankWork;
    const w = this.#rankW;
    const f = this.#rankF;
    const statics = this.#rankStatics;
    const licensed = this.#rankLicensed;
    licensed.length = 0;
    const store = this.#static;
    const ref = platform.referenceSpeed;
    let sup = 0;
    // The copies asked for by all the rows: while a safe integer, every sum of some of them is
    // exact, whatever the order of its terms.
    let copies = 0;
    // A job's per-job data is looked for first in the last call's list (running or waiting) at
    // the place after the last one found there, or a few places on (jobs left), then by id.
    const prev = this.#rankPrev;
    let p = 0;
    let end = this.#rankPrevRunning;
    for (let i = 0; i < rows; i++) {
      if (i === nR) {
        p = this.#rankPrevRunning;
        end = this.#rankPrevRows;
      }
      const r = i < nR ? running[i]! : waiting[i - nR]!;
      const job = r.job;
      let st: JobStatic | undefined;
      for (let k = p, last = Math.min(end, p + 4); k < last; k++) {
        if (prev[k]!.job === job) {
          st = prev[k]!;
          p = k + 1;
          break;
        }
      }
      if (st === undefined) {
        st = store.get(job.id);
        if (st === undefined || st.job !== job)
          st = this.#staticOf(job, eligibilityRow(job, platform));
      }
      st.seen = call;
      statics[i] = st;
      const wk = job.estimate * (1 - r.progress) * (job.benchmark ?? ref);
      work[i] = wk;
      if (st.count > 0) {
        const x = wk / st.slowest;
        if (x > sup) sup = x;
      }
      if (st.licenseIndex.length > 0) {
        licensed.push(i);
        copies += st.licenseTotal;
      }
    }
    this.#rankPrev = statics;
    this.#rankStatics = prev;
    this.#rankPrevRunning = nR;
    this.#rankPrevRows = rows;
    // License weights, as in #update: rho summed over the licensed rows in the sorted order
    // (any order when the sums are exact: integers, within the safe range).
    let maxW = 0;
    if (licensed.length > 0) {
      if (licensed.length > 1 && !(copies <= Number.MAX_SAFE_INTEGER))
        licensed.sort((a, b) => {
          const ja = statics[a]!.job;
          const jb = statics[b]!.job;
          return ja.submit - jb.submit || ja.id - jb.id || a - b;
        });
      const lcount = platform.licenses.length;
      const rho = new Float64Array(lcount);
      for (let k = 0; k < licensed.length; k++) {
        const { licenseIndex: li, licenseCopies: lc } = statics[licensed[k]!]!;
        for (let q = 0; q < li.length; q++) rho[li[q]!]! += lc[q]!;
      }
      const offer = this.#offer;
      for (let l = 0; l < lcount; l++)
        rho[l] = rho[l] === 0 ? 0 : offer[l] === 0 ? Number.POSITIVE_INFINITY : rho[l]! / offer[l]!;
      for (let k = 0; k < licensed.length; k++) {
        const i = licensed[k]!;
        let crit = 0;
        let nonCrit = 0;
        const { licenseIndex: li, licenseCopies: lc } = statics[i]!;
        for (let q = 0; q < li.length; q++) {
          const r = rho[li[q]!]!;
          if (!Number.isFinite(r)) continue;
          if (r > 1) crit += lc[q]! * r;
          else nonCrit += lc[q]! * r;
        }
        w[i] = lcount * crit + nonCrit;
        if (w[i]! > maxW) maxW = w[i]!;
      }
    }
    const shift = 0;
    const rowSup = this.#rowSup;
    for (let i = 0; i < rows; i++) {
      const st = statics[i]!;
      const count = st.count;
      if (count === 0) {
        // no eligible machine: a sum of no entries (0)
        if (i >= nR) out[i - nR] = 0;
        continue;
      }
      const job = st.job;
      const wk = work[i]!;
      const lic = maxW > 0 && st.licenseIndex.length > 0 && w[i] !== 0 ? (cLI * w[i]!) / maxW : 0;
      const aging = cAA * (now - job.submit);
      const scs = cBase + lic + cWM + aging + shift;
      const supI = rowSup ? wk / st.slowest : sup;
      const alpha = supI > 0 ? (cWM * wk) / supI : 0;
      const deadline = job.deadline;
      let dl = 0;
      if (deadline !== undefined) {
        if (now <= deadline - (1 + dK) * (wk / st.slowest)) dl = 1;
        else if (now + wk / st.fastest > deadline) dl = 2;
        else dl = 3;
      }
      if (i >= nR) {
        const sum = this.#rowSum(st, scs, alpha, -1, dl, now, wk, f);
        if (!Number.isFinite(sum)) return false;
        out[i - nR] = sum / count;
        continue;
      }
      // A running job's row: only whether its sum is finite matters. Its entries are at most
      // |scs| + |Input| + |alpha| / slowest + |deadline update| + |overhead| in size, outside
      // equation (1): far below the largest double, their sum is finite.
      if (dl !== 3) {
        const add = dl === 0 ? 0 : dl === 1 ? this.#allMin : this.#allLate;
        const bound =
          Math.abs(scs) +
          st.inputAbsMax +
          Math.abs(alpha) / st.slowest +
          Math.abs(add) +
          Math.abs(cOv);
        if (bound * count < 1e300) continue;
      }
      const m = running[i]!.allocation[0]?.machine ?? -1;
      const prev = m >= 0 && st.eligible[m] === 1 ? m : -1;
      const sum = this.#rowSum(st, scs, alpha, prev, dl, now, wk, f);
      if (!Number.isFinite(sum)) return false;
    }
    // Drop the per-job data of the jobs gone, once the store has doubled since the last sweep.
    if (store.size > this.#rankSweepAt) {
      for (const [id, st] of store) if (st.seen !== call) store.delete(id);
      this.#rankSweepAt = 2 * store.size + 16;
    }
    return true;
  }

  /**
   * `rowBuffer` null: {@link update} (`unchecked`: its unchecked form, which keeps the layout
   * of the scratch matrix and assembles the eligibility matrix lazily); else costs only, each
   * row computed into `rowBuffer`.
   */
  #update(
    input: MatrixInput,
    rowBuffer: Float64Array | null,
    unchecked: boolean,
  ): {
    rows: number;
    cols: number;
    weights: Float64Array;
    /** null when `rowBuffer` is given */
    context: HeuristicContext | null;
    changedRows: number[];
    costs: Float64Array;
    shift: number;
  } {
    const { platform } = input;
    this.#setPlatform(platform);
    const c = this.#c;
    const { base: cBase, waitMinimization: cWM, antiAging: cAA, licenses: cLI } = c;
    const { deadlineK: dK } = c;
    const jobs = input.jobs;
    const cols = platform.machines.length;
    const rows = jobs.length;
    const context: HeuristicContext | null =
      rowBuffer !== null
        ? null
        : unchecked
          ? lazyContext(input)
          : matrixContext(input, this.#scratch, SOURCE);
    const eligible = context === null || unchecked ? null : context.eligible;
    const previous =
      context !== null ? context.previous : (input.previous ?? new Int32Array(rows).fill(-1));
    const now = input.now;
    let rebased = false;
    if (!this.fresh && (!(now - this.#base <= this.horizon / 2) || now < this.#base)) {
      this.#base = now;
      rebased = true;
    }
    const shift = this.fresh ? 0 : uniformShift(c.antiAging, this.#base, this.horizon, now);
    const rel = this.tolerance;
    const slack = 1e-9 * (1 + Math.abs(shift));

    // Per-plan quantities: statics, remaining work, SupRemaining, license weights.
    const statics: JobStatic[] = new Array(rows);
    const work = new Float64Array(rows);
    let sup = 0;
    const ref = platform.referenceSpeed;
    // rho_l = requested copies / offer (licenseRho), by license index: the requests are summed
    // here, license by license in row order; `licensed` lists the rows asking for one.
    const lcount = platform.licenses.length;
    const rho = new Float64Array(lcount);
    const licensed: number[] = [];
    for (let i = 0; i < rows; i++) {
      const r = jobs[i]!;
      const st =
        eligible !== null
          ? this.#staticOf(r.job, eligible.subarray(i * cols, (i + 1) * cols))
          : this.#staticOrRead(input, i, cols);
      statics[i] = st;
      work[i] = r.job.estimate * (1 - r.progress) * (r.job.benchmark ?? ref);
      if (st.count > 0) {
        const x = work[i]! / st.slowest;
        if (x > sup) sup = x;
      }
      const { licenseIndex: li, licenseCopies: lc } = st;
      if (li.length > 0) {
        licensed.push(i);
        for (let q = 0; q < li.length; q++) rho[li[q]!]! += lc[q]!;
      }
    }
    const offer = this.#offer;
    for (let l = 0; l < lcount; l++)
      rho[l] = rho[l] === 0 ? 0 : offer[l] === 0 ? Number.POSITIVE_INFINITY : rho[l]! / offer[l]!;
    // w(i) = LI's weight; 0 for a row asking for no license (lcount * 0 + 0)
    const w = new Float64Array(rows);
    let maxW = 0;
    for (const i of licensed) {
      let crit = 0;
      let nonCrit = 0;
      const { licenseIndex: li, licenseCopies: lc } = statics[i]!;
      for (let q = 0; q < li.length; q++) {
        const r = rho[li[q]!]!;
        if (!Number.isFinite(r)) continue;
        if (r > 1) crit += lc[q]! * r;
        else nonCrit += lc[q]! * r;
      }
      w[i] = lcount * crit + nonCrit;
      if (w[i]! > maxW) maxW = w[i]!;
    }

    const next = new Map<number, StoredRow>();
    const weights = rowBuffer === null ? this.#scratch.weights(rows * cols) : new Float64Array(0);
    // The layout of the matrix before this update, when known (see #layoutBuffer), and after.
    const known = unchecked && weights.buffer === this.#layoutBuffer;
    const wasRows = known ? this.#layoutRows : [];
    const wasZero = known ? this.#layoutZero : new Uint8Array(0);
    const nowZero = new Uint8Array(unchecked && !this.fresh ? rows : 0);
    const wasCols = known ? this.#layoutCols : [];
    // Rows left at 0 (cleared at the last event, in place or moved there by a copy).
    const deferred: number[] = [];
    // Nothing is known of the matrix until this update completes (it may throw half-way).
    if (rowBuffer === null) this.#forgetLayout();
    const nowRows: (StoredRow | undefined)[] = unchecked && !this.fresh ? new Array(rows) : [];
    const nowCols: (Int32Array | undefined)[] = unchecked && this.fresh ? new Array(rows) : [];
    // Pending copy of rows within the matrix (rows that moved up since the last update): `run`
    // rows from row `runFrom` to row `runTo`. Flushed before any other write.
    let runTo = 0;
    let runFrom = 0;
    let run = 0;
    // One row's scratch, kept between updates (two arrays of 131,072 entries per event, on a
    // machine that size, were most of the garbage): `f` is written before it is read, and
    // `#bufferColumns` says which entries of `buffer` the last row left nonzero.
    if (this.#buffer.length !== cols) {
      this.#buffer = new Float64Array(cols);
      this.#f = new Float64Array(cols);
      this.#bufferColumns = null;
    }
    const buffer = this.#buffer;
    const f = this.#f;
    const costs = new Float64Array(rows);
    const changedRows: number[] = [];
    // Fresh mode keeps no rows: the ids of this update, to drop the statics of jobs gone.
    const live = new Set<number>();
    for (let i = 0; i < rows; i++) {
      const r = jobs[i]!;
      const st = statics[i]!;
      const id = r.job.id;
      const lic = maxW > 0 && w[i] !== 0 ? (cLI * w[i]!) / maxW : 0;
      const aging = cAA * (now - r.job.submit);
      const scs = cBase + lic + cWM + aging + shift;
      // SupRemaining: the matrix's, or with waitSup "row" this job's on its slowest machine.
      const supI = this.#rowSup ? (st.count > 0 ? work[i]! / st.slowest : 0) : sup;
      const alpha = supI > 0 ? (cWM * work[i]!) / supI : 0;
      const prev = previous[i]! >= 0 && st.eligible[previous[i]!] === 1 ? previous[i]! : -1;
      // deadline state
      const deadline = r.job.deadline;
      let dl = 0;
      if (deadline !== undefined && st.count > 0) {
        if (now <= deadline - (1 + dK) * (work[i]! / st.slowest)) dl = 1;
        else if (now + work[i]! / st.fastest > deadline) dl = 2;
        else dl = 3;
      }
      if (this.fresh) {
        // Every row from scratch, straight into the matrix (shift 0).
        live.add(id);
        let sum: number;
        if (rowBuffer !== null) {
          // `#rowInto` reads back only the eligible entries it wrote: no need to clear
          sum = this.#rowInto(rowBuffer, 0, st, scs, alpha, prev, dl, now, work[i]!, f, 0);
        } else {
          const o = i * cols;
          // Entries outside the row's eligible columns are 0 already when the row written there
          // last had the same columns (whether cleared since or not).
          if (wasCols[i] !== st.columns) weights.fill(0, o, o + cols);
          sum = this.#rowInto(weights, o, st, scs, alpha, prev, dl, now, work[i]!, f, 0);
          if (unchecked) nowCols[i] = st.columns;
          changedRows.push(i);
        }
        if (!Number.isFinite(sum)) overflow(id, sum);
        costs[i] = st.count === 0 ? 0 : sum / st.count;
        continue;
      }
      // A row kept for this id was computed for the job as it was then: after its requirements
      // changed (another job object under the same id, so its per-job data was computed again),
      // the row is computed anew, whatever the drift.
      const kept = rebased ? undefined : this.#stored.get(id);
      const old = kept !== undefined && kept.of === st ? kept : undefined;
      let row: StoredRow | undefined;
      if (old !== undefined && dl !== 3 && old.dl === dl && old.prev === prev) {
        // O(1): only the row scalars moved.
        const invSlow = st.count > 0 ? 1 / st.slowest : 0;
        const dlMin = dl === 0 ? 0 : dl === 1 ? this.#allMin : this.#allLate;
        const low = scs - shift - alpha * invSlow + dlMin;
        const drift = Math.abs(scs - old.scs) + Math.abs(alpha - old.alpha) * invSlow;
        // (Neither row may have an entry at the floor, `shift + 1e-9`: a floored entry does
        // not follow the shift, so it would drift by the anti-aging rate while the scalars
        // stay put. `low` bounds the fresh row's entries from below, `low - drift` the old's.)
        if (drift <= slack + rel * low && low - drift >= 1e-9) row = old;
      }
      if (row === undefined) {
        // Compute the fresh row (plus shift) into `buffer`, 0 outside the row's columns (the
        // unchecked update zeroes only the entries the last row written there left; the public
        // one, the plain computation it is tested against, all of them).
        const bufferColumns = this.#bufferColumns;
        if (!unchecked) buffer.fill(0);
        else if (bufferColumns !== st.columns && bufferColumns !== null) {
          for (let k = 0; k < bufferColumns.length; k++) buffer[bufferColumns[k]!] = 0;
        }
        // (set before the row is written: a row that throws half-way wrote only there)
        this.#bufferColumns = st.columns;
        const sum = this.#rowInto(buffer, 0, st, scs, alpha, prev, dl, now, work[i]!, f, shift);
        if (!Number.isFinite(sum)) overflow(id, sum);
        if (old !== undefined && dl === 3 && old.dl === 3 && old.prev === prev) {
          // entry by entry (unchecked: only the eligible ones, both rows being 0 on the others:
          // a kept row has the job's current columns, see `old`; the public update compares
          // all of them)
          let keep = true;
          if (unchecked) {
            const idx = st.columns;
            const v = old.packed as Float64Array; // old.dl === 3
            for (let k = 0; k < idx.length; k++) {
              const x = buffer[idx[k]!]!;
              const o = v[k]!;
              if (x > 0 ? !(o > 0) || Math.abs(x - o) > slack + rel * (x - shift) : o > 0) {
                keep = false;
                break;
              }
            }
          } else {
            const v = old.values;
            for (let m = 0; m < cols; m++) {
              const x = buffer[m]!;
              const o = v[m]!;
              if (x > 0 ? !(o > 0) || Math.abs(x - o) > slack + rel * (x - shift) : o > 0) {
                keep = false;
                break;
              }
            }
          }
          if (keep) row = old;
        }
        if (row === undefined) {
          let packed: Float64Array | null = null;
          if (dl === 3) {
            const idx = st.columns;
            packed = new Float64Array(idx.length);
            for (let k = 0; k < idx.length; k++) packed[k] = buffer[idx[k]!]!;
          }
          row = {
            values: buffer.slice(),
            packed,
            of: st,
            at: -1,
            mean: st.count === 0 ? 0 : sum / st.count,
            scs,
            alpha,
            prev,
            dl,
          };
          changedRows.push(i);
        }
      }
      next.set(id, row);
      // Row i of the matrix: nothing to write when it holds `row` already, a copy within the
      // matrix when `row` is intact further down (moved up: rows above it left), else `row`.
      // (A row beyond this matrix's end is beyond the view `weights` too: written from `row`.)
      // A row cleared at the last event is "intact" as zeros: moved as such, and deferred.
      const p = row.at;
      if (p >= 0 && p < wasRows.length && p < rows && wasRows[p] === row) {
        const zero = wasZero[p] === 1;
        if (zero) {
          nowZero[i] = 1;
          deferred.push(i);
        }
        if (p !== i) {
          if (p > i && run > 0 && runTo + run === i && runFrom + run === p) {
            run++;
          } else {
            if (run > 0) weights.copyWithin(runTo * cols, runFrom * cols, (runFrom + run) * cols);
            run = 0;
            if (p > i) {
              runTo = i;
              runFrom = p;
              run = 1;
            } else if (zero) {
              weights.fill(0, i * cols, (i + 1) * cols);
            } else {
              weights.set(row.values, i * cols);
            }
          }
        }
      } else {
        if (run > 0) weights.copyWithin(runTo * cols, runFrom * cols, (runFrom + run) * cols);
        run = 0;
        weights.set(row.values, i * cols);
      }
      if (unchecked) {
        nowRows[i] = row;
        row.at = i;
      }
      costs[i] = row.mean === 0 ? 0 : row.mean - shift;
    }
    if (run > 0) weights.copyWithin(runTo * cols, runFrom * cols, (runFrom + run) * cols);
    if (unchecked) {
      this.#layoutBuffer = weights.buffer;
      this.#layoutRows = nowRows;
      this.#layoutZero = nowZero;
      this.#layoutCols = nowCols;
      if (deferred.length > 0)
        this.#deferred = {
          rows: deferred,
          mask: nowZero,
          restore(i: number): void {
            if (nowZero[i] !== 1) return;
            weights.set((nowRows[i] as StoredRow).values, i * cols);
            nowZero[i] = 0;
          },
        };
    }
    if (!this.fresh) this.#stored = next;
    // The jobs of this update: the rows kept for the next one, or (fresh) the ids seen.
    const current = this.fresh ? live : next;
    for (const id of this.#static.keys()) if (!current.has(id)) this.#static.delete(id);
    return { rows, cols, weights, context, changedRows, costs, shift };
  }

  /** Row `i`'s per-job data: cached, or computed from `input.eligibility` (checked). */
  #staticOrRead(input: MatrixInput, i: number, cols: number): JobStatic {
    const job = input.jobs[i]!.job;
    const s = this.#static.get(job.id);
    if (s !== undefined && s.job === job) return s;
    if (input.eligibility === undefined)
      return this.#staticOf(job, eligibilityRow(job, input.platform));
    const e = input.eligibility(input.jobs[i]!, i);
    countEligible(e, i, cols, SOURCE);
    return this.#staticOf(job, e);
  }
}

/** The place of `m` in the ascending `columns`, or -1. */
function placeOf(columns: Int32Array, m: number): number {
  const k = firstAtLeast(columns, m);
  return k < columns.length && columns[k] === m ? k : -1;
}

/**
 * The sum of the sizes of `copies` when they are integers and it is a safe integer (then every
 * sum of some of them is exact, in any order), else `Infinity`.
 */
function wholeTotal(copies: readonly number[]): number {
  let t = 0;
  for (const c of copies) {
    if (!Number.isInteger(c)) return Number.POSITIVE_INFINITY;
    t += Math.abs(c);
  }
  return t <= Number.MAX_SAFE_INTEGER ? t : Number.POSITIVE_INFINITY;
}

/**
 * The context of an unchecked update: `eligible` and `eligibleCount` are assembled (from
 * `input.eligibility`, as `matrixContext` does) when first read.
 */
function lazyContext(input: MatrixInput): HeuristicContext {
  const { now, platform, jobs } = input;
  const previous = input.previous ?? new Int32Array(jobs.length).fill(-1);
  let built: HeuristicContext | undefined;
  const full = (): HeuristicContext => {
    built ??= matrixContext(input, undefined, SOURCE);
    return built;
  };
  return {
    now,
    platform,
    jobs,
    cols: platform.machines.length,
    previous,
    get eligible() {
      return full().eligible;
    },
    get eligibleCount() {
      return full().eligibleCount;
    },
  };
}

/**
 * A row whose entries sum to a non-finite number: constants so large (1e308) that the
 * heuristics' sum overflows. Refused here, naming the constants, instead of by the matcher as
 * a matrix entry the caller never wrote. The check costs one test per rebuilt row (its sum is
 * computed anyway).
 */
function overflow(id: number, sum: number): never {
  throw new InvalidInputError(
    SOURCE,
    "options.constants",
    `make job ${id}'s row of the matrix sum to ${sum}: the heuristics' values overflow a double, expected constants of ordinary size (the paper's are 0.02 to 10)`,
  );
}
