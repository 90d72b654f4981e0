import type { JobRecord } from "@sched/core";

/** Distinct reasons a {@link RejectionTally} keeps apart (the rest count as "other reasons"). */
const KEPT_REASONS = 64;
/** Reasons a {@link RejectionTally} note names, the most frequent first. */
const NAMED_REASONS = 3;

/**
 * Counts a run's rejected jobs by reason as its records pass, for a note on stderr: a policy
 * that rejects most of a trace (a one-job-per-machine policy on an SWF trace's single-core
 * machines) shows a table whose waits and slowdowns describe the few jobs it ran, and the
 * `rejected` column alone is easy to miss.
 */
export class RejectionTally {
  private readonly byReason = new Map<string, { count: number; first: number }>();
  private others = 0;
  /** Rejected jobs seen. */
  rejected = 0;

  /** Looks at one record (cheap unless it is a rejection). */
  record(r: JobRecord): void {
    if (r.outcome !== "rejected") return;
    this.rejected++;
    const reason = r.reason ?? "no reason given";
    const seen = this.byReason.get(reason);
    if (seen !== undefined) seen.count++;
    else if (this.byReason.size < KEPT_REASONS)
      this.byReason.set(reason, { count: 1, first: r.job.id });
    else this.others++;
  }

  /**
   * The note for stderr (one line, no prefix, no newline), or null when no job was rejected:
   * how many of `jobs`, and the most frequent reasons with the first job of each.
   */
  note(policy: string, jobs: number): string | null {
    if (this.rejected === 0) return null;
    const reasons = [...this.byReason.entries()].sort(
      (a, b) => b[1].count - a[1].count || a[1].first - b[1].first,
    );
    const named = reasons
      .slice(0, NAMED_REASONS)
      .map(
        ([reason, { count, first }]) =>
          `${count} ${JSON.stringify(reason)} (the first is job ${first})`,
      );
    const rest =
      reasons.slice(NAMED_REASONS).reduce((sum, [, { count }]) => sum + count, 0) + this.others;
    const more = rest > 0 ? `; ${rest} more for other reasons` : "";
    const share = this.rejected === jobs ? "all" : `${this.rejected} of the`;
    return (
      `${policy} rejected ${share} ${jobs} ${jobs === 1 ? "job" : "jobs"}: ${named.join("; ")}${more}. ` +
      "The metrics describe the jobs it ran (see the rejected column and jobs.csv's reason)"
    );
  }
}
