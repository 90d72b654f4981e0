import type { Allocation, Job, Platform } from "./types.js";

/** One execution interval of a job. */
export interface Interval {
  readonly start: number;
  readonly end: number;
  readonly allocation: Allocation;
}

/** How a job's life ended. `unfinished`: still waiting or running when the simulation stopped. */
export type Outcome = "completed" | "rejected" | "unfinished";

/** Everything that happened to one job. */
export interface JobRecord {
  readonly job: Job;
  readonly intervals: readonly Interval[];
  /** Completion (or rejection) time; `null` when unfinished. */
  readonly end: number | null;
  readonly outcome: Outcome;
  /** Rejection reason. */
  readonly reason?: string;
}

/** Statistics of a run that are not part of the schedule. */
export interface RunStats {
  readonly events: number;
  /** `schedule` calls. */
  readonly decisions: number;
  /** Wall-clock milliseconds spent inside `schedule`: NOT deterministic, reported apart. */
  readonly schedulerMs: number;
}

/** The result of a run: a record per job, in input order. */
export interface ScheduleTrace {
  readonly scheduler: string;
  readonly platform: Platform;
  readonly records: readonly JobRecord[];
  readonly stats: RunStats;
  /**
   * Set when the run was cut at `options.until` with work still pending: jobs `unfinished` then
   * are not lost, and running jobs' last interval ends at this time. Absent otherwise.
   */
  readonly horizon?: number;
}
