import { runsOf } from "./parts.js";
import type { JobRecord } from "./trace.js";
import type { Allocation } from "./types.js";

/**
 * The convergent paper's machine usage is the time average, over the instants of the window
 * `[from, to]` where at least one job is in the system, of `min(1, active machines / min(machines,
 * jobs in the system))`. Both counts are piecewise constant: they change only at "change points"
 * (a machine going from idle to busy or back, a job entering or leaving the system). This file
 * holds the one integrator of that average and its two feeders: {@link machineUsageOf} (from the
 * records of a trace, sorted) and {@link UsageTracker} (online, from the engine's events in time
 * order). Both give the integrator the same change points with the same counts in the same
 * order, so the two results are equal bit for bit (a property test compares them).
 */

/**
 * Sums `min(1, active / min(machines, inSystem)) * length` and `length` over the segments
 * between consecutive change points, clipped to `[from, to]`, skipping segments with no job in
 * the system. `to` (the window's end) is known only at the end of an online run, so segments
 * that end after the largest end seen so far (`reach`) wait in a small buffer and are clipped at
 * `finish`. Internal.
 */
class UsageIntegrator {
  private weighted = 0;
  private covered = 0;
  private prevTime = Number.NaN;
  /** min(1, ratio) of the segment after the previous point, or -1 when no job is in the system. */
  private prevShare = -1;
  /** The window's end is at least this. */
  private safe = Number.NEGATIVE_INFINITY;
  /** Segments (start, end, share) that end after `safe`, in time order. */
  private pending = new Float64Array(48);
  private pendingLength = 0;
  private pendingHead = 0;

  constructor(
    private readonly machines: number,
    private readonly from: number,
  ) {}

  /** The window's end is at least `t`: segments ending by then are added. */
  reach(t: number): void {
    if (!(t > this.safe)) return;
    this.safe = t;
    const p = this.pending;
    while (this.pendingHead < this.pendingLength && p[this.pendingHead * 3 + 1]! <= t) {
      const i = this.pendingHead * 3;
      this.add(p[i]!, p[i + 1]!, p[i + 2]!);
      this.pendingHead++;
    }
    if (this.pendingHead === this.pendingLength) {
      this.pendingHead = 0;
      this.pendingLength = 0;
    }
  }

  /** A change point at `t` (after the previous one), with the counts after every change at `t`. */
  point(t: number, active: number, inSystem: number): void {
    const share = this.prevShare;
    if (share >= 0) {
      const start = this.prevTime;
      if (this.pendingHead === this.pendingLength && t <= this.safe) this.add(start, t, share);
      else this.defer(start, t, share);
    }
    this.prevTime = t;
    this.prevShare = inSystem > 0 ? Math.min(active / Math.min(this.machines, inSystem), 1) : -1;
  }

  /** The average over the window ending at `to`; NaN when no job was ever in the system in it. */
  finish(to: number): number {
    const p = this.pending;
    for (let k = this.pendingHead; k < this.pendingLength; k++) {
      const lo = Math.max(p[k * 3]!, this.from);
      const hi = Math.min(p[k * 3 + 1]!, to);
      if (hi > lo) {
        this.weighted += p[k * 3 + 2]! * (hi - lo);
        this.covered += hi - lo;
      }
    }
    this.pendingHead = this.pendingLength = 0;
    return this.covered > 0 ? this.weighted / this.covered : Number.NaN;
  }

  private add(start: number, end: number, share: number): void {
    const lo = Math.max(start, this.from);
    if (end > lo) {
      this.weighted += share * (end - lo);
      this.covered += end - lo;
    }
  }

  private defer(start: number, end: number, share: number): void {
    if ((this.pendingLength + 1) * 3 > this.pending.length) {
      const live = this.pendingLength - this.pendingHead;
      const grown = new Float64Array(Math.max(48, live * 6));
      grown.set(this.pending.subarray(this.pendingHead * 3, this.pendingLength * 3));
      this.pending = grown;
      this.pendingHead = 0;
      this.pendingLength = live;
    }
    const i = this.pendingLength * 3;
    this.pending[i] = start;
    this.pending[i + 1] = end;
    this.pending[i + 2] = share;
    this.pendingLength++;
  }
}

/**
 * Machine usage of the records of a trace over `[from, to]`. A job is in the system from its
 * submit to its end (unfinished: to `to`); a machine is active while some interval's allocation
 * uses it (its busy periods are the union of its intervals: touching intervals merge, empty
 * ones are skipped). NaN when no job is in the system within the window. Internal: the
 * `machineUsage` of `metricsOf`.
 *
 * Complexity: O(R + P log P) for R records and P interval parts.
 */
export function machineUsageOf(
  records: readonly JobRecord[],
  machines: number,
  from: number,
  to: number,
): number {
  const n = records.length;
  const enter = new Float64Array(n);
  const leave = new Float64Array(n);
  // Interval parts per machine, in one array (counted, then filled: no array per machine).
  const partsOf = new Int32Array(machines + 1);
  for (let i = 0; i < n; i++) {
    for (const iv of records[i]!.intervals) {
      if (!(iv.end > iv.start)) continue;
      for (const part of iv.allocation) {
        const m = part.machine;
        if (m >= 0 && m < machines && Number.isInteger(m)) partsOf[m + 1]!++;
      }
    }
  }
  for (let m = 0; m < machines; m++) partsOf[m + 1]! += partsOf[m]!;
  const total = partsOf[machines]!;
  const starts = new Float64Array(total);
  const ends = new Float64Array(total);
  const fill = partsOf.slice(0, machines);
  for (let i = 0; i < n; i++) {
    const r = records[i]!;
    enter[i] = r.job.submit;
    leave[i] = r.end ?? to;
    for (const iv of r.intervals) {
      if (!(iv.end > iv.start)) continue;
      for (const part of iv.allocation) {
        const m = part.machine;
        if (m >= 0 && m < machines && Number.isInteger(m)) {
          const k = fill[m]!++;
          starts[k] = iv.start;
          ends[k] = iv.end;
        }
      }
    }
  }
  enter.sort();
  leave.sort();
  // Busy periods per machine: sweep its sorted starts and ends; the machine goes up when its
  // count leaves 0 and down when it returns to 0. At equal times starts come first, so touching
  // intervals merge into one busy period.
  const upTimes: number[] = [];
  const downTimes: number[] = [];
  for (let m = 0; m < machines; m++) {
    const lo = partsOf[m]!;
    const hi = partsOf[m + 1]!;
    if (hi === lo) continue;
    const s = starts.subarray(lo, hi).sort();
    const e = ends.subarray(lo, hi).sort();
    const k = hi - lo;
    let i = 0;
    let j = 0;
    let count = 0;
    while (i < k || j < k) {
      if (i < k && s[i]! <= e[j]!) {
        if (count++ === 0) upTimes.push(s[i]!);
        i++;
      } else {
        if (--count === 0) downTimes.push(e[j]!);
        j++;
      }
    }
  }
  const up = Float64Array.from(upTimes).sort();
  const down = Float64Array.from(downTimes).sort();
  const sweep = new UsageIntegrator(machines, from);
  sweep.reach(to);
  let a = 0;
  let b = 0;
  let c = 0;
  let d = 0;
  let active = 0;
  let inSystem = 0;
  const INF = Number.POSITIVE_INFINITY;
  for (;;) {
    const t = Math.min(
      a < up.length ? up[a]! : INF,
      b < down.length ? down[b]! : INF,
      c < n ? enter[c]! : INF,
      d < n ? leave[d]! : INF,
    );
    if (t === INF) break;
    while (a < up.length && up[a] === t) {
      active++;
      a++;
    }
    while (b < down.length && down[b] === t) {
      active--;
      b++;
    }
    while (c < n && enter[c] === t) {
      inSystem++;
      c++;
    }
    while (d < n && leave[d] === t) {
      inSystem--;
      d++;
    }
    sweep.point(t, active, inSystem);
  }
  return sweep.finish(to);
}

/**
 * Machine usage online, fed by the engine in time order: `at(t)` when the clock moves, then the
 * changes at `t` (`enter`, `leave`, `take`, `release`, `ended`). Per machine it keeps the number
 * of running intervals and nets the changes at one time (a machine freed and taken again at `t`
 * has not changed; one taken and freed at `t` neither), so its change points are those of
 * {@link machineUsageOf} on the finished trace. Memory: O(machines), plus the change points since
 * the last end (usually a handful). Internal.
 *
 * On a platform of single-core machines (`oneCore`: an SWF machine as the engine models it) a
 * machine is busy exactly while one running interval holds it: a take turns each of its
 * machines busy and a release idle. The active count then moves by the machines taken minus
 * those released, and a machine has changed over one time exactly when it was turned an odd
 * number of times. The tracker keeps only the machine ranges turned at the current time (an
 * allocation's `RUNS`, or its parts as ranges of neighbours) and tests that parity on their
 * sorted ends: O(ranges log ranges) per time instead of O(machines turned), with the same change
 * points and counts.
 */
export class UsageTracker {
  private readonly count: Int32Array;
  private readonly before: Int32Array;
  /** The step in which a machine was last touched (0: never). */
  private readonly stamp: Int32Array;
  /** Machines touched at the current time (`touchedCount` of them). */
  private readonly touched: Int32Array;
  private touchedCount = 0;
  private step = 1;
  private active = 0;
  private inSystem = 0;
  private time = Number.NaN;
  private changed = false;
  private readonly sweep: UsageIntegrator;
  /** Single-core machines: ranges are kept instead of counts per machine. */
  private readonly oneCore: boolean;
  /** oneCore: machines taken minus machines released at the current time. */
  private net = 0;
  /** oneCore: the ends (first, end) of the machine ranges turned at the current time. */
  private ends = new Int32Array(64);
  private endsCount = 0;

  constructor(machines: number, oneCore = false) {
    this.oneCore = oneCore;
    const perMachine = oneCore ? 0 : machines;
    this.count = new Int32Array(perMachine);
    this.before = new Int32Array(perMachine);
    this.stamp = new Int32Array(perMachine);
    this.touched = new Int32Array(perMachine);
    // The first change point is the first arrival, at the first submit: no clipping at `from`.
    this.sweep = new UsageIntegrator(machines, Number.NEGATIVE_INFINITY);
  }

  /** The clock is at `t` (>= the previous time): closes the previous time's changes. */
  at(t: number): void {
    if (t === this.time) return;
    this.close();
    this.time = t;
  }

  /** A job entered the system now. */
  enter(): void {
    this.inSystem++;
    this.changed = true;
  }

  /** A job left the system now (completed or rejected). */
  leave(): void {
    this.inSystem--;
    this.changed = true;
    this.sweep.reach(this.time);
  }

  /** An execution interval ended now (a preemption, or the horizon). */
  ended(): void {
    this.sweep.reach(this.time);
  }

  /** An interval on `allocation` started now. */
  take(allocation: Allocation): void {
    this.add(allocation, 1);
  }

  /** An interval on `allocation` ended now. */
  release(allocation: Allocation): void {
    this.add(allocation, -1);
  }

  /** Counts `delta` on each machine of `allocation` (by its `RUNS` when it has them). */
  private add(allocation: Allocation, delta: number): void {
    const runs = runsOf(allocation);
    if (this.oneCore) {
      // one machine per part, each of one core
      this.net += delta * allocation.length;
      if (runs !== undefined) {
        for (let r = 0; r < runs.length; r += 2) this.turn(runs[r]!, runs[r + 1]!);
        return;
      }
      for (let i = 0; i < allocation.length; i++) {
        const m = allocation[i]!.machine;
        this.turn(m, m + 1);
      }
      return;
    }
    if (runs === undefined) {
      for (let i = 0; i < allocation.length; i++) this.touch(allocation[i]!.machine, delta);
      return;
    }
    for (let r = 0; r < runs.length; r += 2) {
      const end = runs[r + 1]!;
      for (let m = runs[r]!; m < end; m++) this.touch(m, delta);
    }
  }

  /**
   * Ends the run: the jobs still in the system leave at `to` (the window's end, at least every
   * end seen) when `to` is not before now; returns the machine usage.
   */
  finish(to: number, stillInSystem: number): number {
    if (stillInSystem > 0 && !(to < this.time)) {
      this.at(to);
      this.inSystem -= stillInSystem;
      this.changed = true;
    }
    this.close();
    return this.sweep.finish(to);
  }

  /** oneCore: machines `[first, end)` were turned now (a range that follows the last one extends it). */
  private turn(first: number, end: number): void {
    const k = this.endsCount;
    if (k > 0 && this.ends[k - 1] === first) {
      // [a, first) then [first, end): the same parity as [a, end)
      this.ends[k - 1] = end;
      return;
    }
    if (k + 2 > this.ends.length) {
      const grown = new Int32Array(this.ends.length * 2);
      grown.set(this.ends);
      this.ends = grown;
    }
    this.ends[k] = first;
    this.ends[k + 1] = end;
    this.endsCount = k + 2;
  }

  /** oneCore: some machine was turned an odd number of times now (some end occurs an odd number of times). */
  private someTurnedOdd(): boolean {
    const e = this.ends.subarray(0, this.endsCount).sort();
    for (let i = 0; i < e.length; ) {
      let j = i + 1;
      while (j < e.length && e[j] === e[i]) j++;
      if (((j - i) & 1) === 1) return true;
      i = j;
    }
    return false;
  }

  private touch(m: number, delta: number): void {
    if (this.stamp[m] !== this.step) {
      this.stamp[m] = this.step;
      this.before[m] = this.count[m]!;
      this.touched[this.touchedCount++] = m;
    }
    this.count[m]! += delta;
  }

  private close(): void {
    if (Number.isNaN(this.time)) return;
    if (this.endsCount > 0) {
      // oneCore
      if (this.net !== 0) {
        this.active += this.net;
        this.changed = true;
      } else if (this.someTurnedOdd()) this.changed = true;
      this.net = 0;
      this.endsCount = 0;
    }
    const touched = this.touched;
    for (let i = 0; i < this.touchedCount; i++) {
      const m = touched[i]!;
      const b = this.before[m]!;
      const c = this.count[m]!;
      if (b === 0 && c > 0) {
        this.active++;
        this.changed = true;
      } else if (b > 0 && c === 0) {
        this.active--;
        this.changed = true;
      }
    }
    this.touchedCount = 0;
    this.step++;
    if (this.changed) {
      this.sweep.point(this.time, this.active, this.inSystem);
      this.changed = false;
    }
  }
}
