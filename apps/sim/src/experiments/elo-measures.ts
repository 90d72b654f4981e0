import type { ScheduleTrace } from "@sched/core";

/** Per-window sums of a run: jobs grouped by submission order into `windows` equal windows. */
export interface WindowTotals {
  /** Sum over the window's completed jobs of their execution time (end - start), seconds. */
  readonly totalExecution: Float64Array;
  /** Sum over the window's completed jobs of end - submit, seconds. */
  readonly totalResponse: Float64Array;
  /** Completed jobs of the window. */
  readonly completed: Float64Array;
  /** Latest completion of the window's jobs. */
  readonly lastEnd: Float64Array;
}

/** The window of job number `index` (0-based, submission order) among `jobs` cut into `windows`. */
export function windowOf(index: number, jobs: number, windows: number): number {
  return Math.min(windows - 1, Math.floor((index * windows) / jobs));
}

/**
 * The paper's "total job execution time" and the response time of a run, per window of jobs
 * (one window: the whole set). Execution time is the time a job spent running on its machine
 * (the sum of its intervals), so it measures where jobs were placed, not how long they queued.
 * Jobs are numbered by their position in `trace.records`, which core keeps in submission order.
 */
export function windowTotals(trace: ScheduleTrace, windows: number): WindowTotals {
  const out: WindowTotals = {
    totalExecution: new Float64Array(windows),
    totalResponse: new Float64Array(windows),
    completed: new Float64Array(windows),
    lastEnd: new Float64Array(windows),
  };
  const n = trace.records.length;
  trace.records.forEach((r, i) => {
    if (r.outcome !== "completed" || r.end === null) return;
    const w = windowOf(i, n, windows);
    let busy = 0;
    for (const iv of r.intervals) busy += iv.end - iv.start;
    out.totalExecution[w]! += busy;
    out.totalResponse[w]! += r.end - r.job.submit;
    out.completed[w]! += 1;
    if (r.end > out.lastEnd[w]!) out.lastEnd[w] = r.end;
  });
  return out;
}

/**
 * Spearman's rank correlation of `a` and `b` (ties get their mean rank); 0 when either is
 * constant.
 */
export function spearman(a: ArrayLike<number>, b: ArrayLike<number>): number {
  const ranks = (x: ArrayLike<number>): Float64Array => {
    const idx = Array.from({ length: x.length }, (_, i) => i).sort((i, j) => x[i]! - x[j]!);
    const r = new Float64Array(x.length);
    for (let i = 0; i < idx.length; ) {
      let j = i;
      while (j + 1 < idx.length && x[idx[j + 1]!] === x[idx[i]!]) j++;
      for (let k = i; k <= j; k++) r[idx[k]!] = (i + j) / 2;
      i = j + 1;
    }
    return r;
  };
  const ra = ranks(a);
  const rb = ranks(b);
  const n = ra.length;
  const mean = (n - 1) / 2;
  let num = 0;
  let da = 0;
  let db = 0;
  for (let i = 0; i < n; i++) {
    num += (ra[i]! - mean) * (rb[i]! - mean);
    da += (ra[i]! - mean) ** 2;
    db += (rb[i]! - mean) ** 2;
  }
  return da === 0 || db === 0 ? 0 : num / Math.sqrt(da * db);
}
