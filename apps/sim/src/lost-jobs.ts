import { type JobRecord, SchedError, type SimulationSummary } from "@sched/core";

/** How many ids of lost jobs a {@link LostJobsError} names. */
const NAMED_IDS = 5;

/**
 * A run that ended with jobs neither completed nor rejected although nothing cut it (no horizon,
 * no event budget): the engine stops when no event remains, and jobs still waiting then would
 * never start (core's `checkTrace` calls them "lost"). The library returns such a run as it is
 * (`simulate` gives the trace, with `unfinished` records); the command line refuses it, so a
 * policy that forgets jobs never ends in a table that looks like a result.
 */
export class LostJobsError extends SchedError {
  /** The policy's name. */
  readonly policy: string;
  /** How many jobs were left unfinished. */
  readonly lost: number;
  /** The first of them (at most five), in input order. */
  readonly jobIds: readonly number[];

  constructor(
    where: string,
    policy: string,
    lost: number,
    jobs: number,
    jobIds: readonly number[],
  ) {
    const ids =
      jobIds.length === 0
        ? ""
        : ` (${jobIds.length === 1 && lost === 1 ? "id" : "ids"} ${jobIds.join(", ")}${lost > jobIds.length ? ", ..." : ""})`;
    super(
      "LOST_JOBS",
      where,
      `policy "${policy}" left ${lost} of the ${jobs} ${jobs === 1 ? "job" : "jobs"} unfinished${ids}: ` +
        "the run ended with them waiting and nothing left to happen (no arrival, completion or timer), so they would never start. " +
        "A policy must start or reject every job it is given; one that waits for a time must set a timer (ctx.wakeAt) to be called again then",
    );
    this.policy = policy;
    this.lost = lost;
    this.jobIds = jobIds;
  }
}

/**
 * Notes the first {@link NAMED_IDS} unfinished records of a run as its records pass (a streamed
 * run's `onRecord`: unfinished jobs come last, at the end of the run), for a
 * {@link LostJobsError}'s message.
 */
export class LostJobsNote {
  /** The first unfinished ids seen, in input order. */
  readonly ids: number[] = [];

  /** Looks at one record (cheap: one string compare). */
  record(r: JobRecord): void {
    if (r.outcome === "unfinished" && this.ids.length < NAMED_IDS) this.ids.push(r.job.id);
  }
}

/** What {@link checkNoLostJobs} reads of a finished run. */
export interface RunEnd {
  /** The policy's name. */
  readonly scheduler: string;
  /** Jobs the run read. */
  readonly jobs: number;
  /** Jobs neither completed nor rejected at the end. */
  readonly unfinished: number;
  /** Set when the run was cut at a horizon (then unfinished jobs are not lost). */
  readonly horizon: number | undefined;
}

/**
 * Throws a {@link LostJobsError} (prefixed `where`) when `run` ended with unfinished jobs and no
 * horizon cut it; `ids` are the first of them, for the message. A run stopped by an event budget
 * never gets here (the engine throws).
 */
export function checkNoLostJobs(where: string, run: RunEnd, ids: readonly number[]): void {
  if (run.unfinished === 0 || run.horizon !== undefined) return;
  throw new LostJobsError(where, run.scheduler, run.unfinished, run.jobs, ids.slice(0, NAMED_IDS));
}

/** {@link checkNoLostJobs} for a streamed run's summary (`ids`: noted by a {@link LostJobsNote}). */
export function checkSummaryNoLostJobs(
  where: string,
  summary: SimulationSummary,
  ids: readonly number[],
): void {
  checkNoLostJobs(
    where,
    {
      scheduler: summary.scheduler,
      jobs: summary.jobs,
      unfinished: summary.metrics!.unfinished,
      horizon: summary.horizon,
    },
    ids,
  );
}

/** {@link checkNoLostJobs} for a whole trace (`simulate`'s): its records name the lost jobs. */
export function checkTraceNoLostJobs(
  where: string,
  trace: {
    readonly scheduler: string;
    readonly records: readonly JobRecord[];
    readonly horizon?: number;
  },
): void {
  if (trace.horizon !== undefined) return;
  const note = new LostJobsNote();
  let unfinished = 0;
  for (const r of trace.records) {
    if (r.outcome !== "unfinished") continue;
    unfinished++;
    note.record(r);
  }
  checkNoLostJobs(
    where,
    {
      scheduler: trace.scheduler,
      jobs: trace.records.length,
      unfinished,
      horizon: undefined,
    },
    note.ids,
  );
}
