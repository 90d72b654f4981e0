import type { Job, ScheduleTrace } from "@sched/core";

/** The advance-reservation paper's metrics of a run, and the load it carried. */
export interface ArMetrics {
  /** Jobs not rejected / all jobs (section 6.1); NaN for an empty trace. */
  readonly acceptanceRate: number;
  /**
   * Mean over completed jobs of `(end - ready) / (end - start)`: the paper's slowdown, waiting
   * counted from the ready time (core's `meanSlowdown` counts from submission). NaN when none
   * completed.
   */
  readonly meanSlowdown: number;
  /**
   * Work requested / capacity over the arrival span: the sum of `cores x runtime` of every
   * request (accepted or not) over `pes x (last submit - first submit)`. Above 1 the machine
   * cannot serve every request even with perfect packing.
   */
  readonly offeredLoad: number;
  /**
   * Work done / capacity over the run: the sum of `cores x (end - start)` of the completed jobs
   * over `pes x (last end - first submit)`.
   */
  readonly utilization: number;
}

/** Work requested by `jobs` over the capacity of `pes` PEs during their arrival span. */
export function offeredLoad(jobs: readonly Job[], pes: number): number {
  if (jobs.length < 2) return Number.NaN;
  let first = Number.POSITIVE_INFINITY;
  let last = Number.NEGATIVE_INFINITY;
  let work = 0;
  for (const j of jobs) {
    if (j.submit < first) first = j.submit;
    if (j.submit > last) last = j.submit;
    work += j.cores * j.runtime;
  }
  return last > first ? work / (pes * (last - first)) : Number.NaN;
}

/**
 * The paper's acceptance rate and slowdown of a trace (section 6.1), the offered load of its
 * requests and the utilization of the `pes` PEs.
 *
 * Complexity: O(records).
 *
 * @example
 * ```ts
 * // One PE; job 0 runs [0, 10) (deadline 10), job 1 (ready 5) runs [10, 20), job 2 (2 PEs) is rejected.
 * arMetrics(trace, 1); // { acceptanceRate: 2 / 3, meanSlowdown: (1 + 1.5) / 2, … }
 * ```
 */
export function arMetrics(trace: ScheduleTrace, pes: number): ArMetrics {
  let accepted = 0;
  let completed = 0;
  let sum = 0;
  let busy = 0;
  let first = Number.POSITIVE_INFINITY;
  let lastEnd = Number.NEGATIVE_INFINITY;
  for (const r of trace.records) {
    if (r.job.submit < first) first = r.job.submit;
    if (r.outcome === "rejected") continue;
    accepted++;
    if (r.outcome !== "completed" || r.intervals.length === 0) continue;
    const start = r.intervals[0]!.start;
    const end = r.end as number;
    const ready = r.job.ready ?? r.job.submit;
    completed++;
    sum += (end - ready) / (end - start);
    for (const iv of r.intervals) busy += r.job.cores * (iv.end - iv.start);
    if (end > lastEnd) lastEnd = end;
  }
  const n = trace.records.length;
  return {
    acceptanceRate: n > 0 ? accepted / n : Number.NaN,
    meanSlowdown: completed > 0 ? sum / completed : Number.NaN,
    offeredLoad: offeredLoad(
      trace.records.map((r) => r.job),
      pes,
    ),
    utilization: lastEnd > first ? busy / (pes * (lastEnd - first)) : Number.NaN,
  };
}
