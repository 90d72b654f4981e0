import {
  type Allocation,
  ConstraintViolationError,
  defaultExecutionModel,
  InvalidInputError,
  type Job,
  type Platform,
  type ResourceLedger,
  type RunningJob,
  type SchedulerView,
  type SchedulingContext,
  type WaitingJob,
} from "@sched/core";
import { readyTime } from "./context.js";

const WAITING = 0;
const RUNNING = 1;
const GONE = 2;

/**
 * A decision point over plain data: the `SchedulingContext` a strategy decides on when
 * `backfillPass` runs it, with the engine's rules for one call (a job started is running at
 * once and its resources are taken; a job preempted gives its resources back at once and stays
 * in `running` until the call ends; the `waiting` array is a snapshot) and the decisions
 * recorded instead of applied. Internal.
 *
 * Complexity: O(1) per query and per verb, plus the ledger's cost for `start` and `preempt`.
 */
export class PlainContext implements SchedulingContext {
  readonly view: SchedulerView;
  readonly arrived: readonly Job[];
  readonly completed: readonly Job[] = [];
  readonly woken = false;
  /** Ids started, in order, and their allocations. */
  readonly started: number[] = [];
  readonly allocations: Allocation[] = [];
  readonly rejected: { id: number; reason: string }[] = [];
  readonly preempted: number[] = [];
  /** The earliest time the strategy asked to be called again (NaN: none). */
  wake = Number.NaN;

  private readonly status = new Map<number, number>();
  private readonly jobs = new Map<number, Job>();
  private readonly progress = new Map<number, number>();
  private readonly runningById = new Map<number, RunningJob>();
  private readonly ledger: ResourceLedger;
  private readonly now: number;
  private readonly platform: Platform;
  private readonly where: string;

  /**
   * @param running the running jobs, whose allocations `ledger` already holds
   * @param waiting the queue, in queue order
   * @param arrived the queued jobs new since the previous decision, in queue order
   */
  constructor(
    now: number,
    platform: Platform,
    ledger: ResourceLedger,
    running: readonly RunningJob[],
    waiting: readonly WaitingJob[],
    arrived: readonly Job[],
    where: string,
  ) {
    this.now = now;
    this.platform = platform;
    this.ledger = ledger;
    this.arrived = arrived;
    this.where = where;
    const runningList = running.slice();
    for (const r of running) {
      this.status.set(r.job.id, RUNNING);
      this.runningById.set(r.job.id, r);
      this.jobs.set(r.job.id, r.job);
    }
    for (const w of waiting) {
      this.status.set(w.job.id, WAITING);
      this.jobs.set(w.job.id, w.job);
      this.progress.set(w.job.id, w.progress);
    }
    const status = this.status;
    const duration = (job: Job, allocation: Allocation, seconds: number, start?: number) =>
      defaultExecutionModel.duration(job, allocation, platform, seconds, start ?? now);
    this.view = {
      now,
      platform,
      waiting,
      waitingCount: waiting.length,
      waitingAt: (i: number) => waiting[i],
      running: runningList,
      freeCores: (m: number) => ledger.freeCores(m),
      get totalFreeCores() {
        return ledger.totalFreeCores;
      },
      freeLicenses: (name: string, m: number) => ledger.freeLicenses(name, m),
      duration,
      isWaiting: (id: number) => status.get(id) === WAITING,
      isRunning: (id: number) => status.get(id) === RUNNING,
      nextFreeMachine: (from: number) => ledger.nextFreeMachine(from),
    };
  }

  start(jobId: number, allocation: Allocation): void {
    const job = this.jobs.get(jobId);
    if (job === undefined || this.status.get(jobId) !== WAITING) {
      throw new ConstraintViolationError(this.where, jobId, "job state", "is not waiting");
    }
    if (readyTime(job) > this.now) {
      throw new ConstraintViolationError(
        this.where,
        jobId,
        "ready time",
        `cannot start at ${this.now}, before its ready time ${readyTime(job)}`,
      );
    }
    this.ledger.take(job, allocation, this.where);
    const p = this.progress.get(jobId) ?? 0;
    const estimated = defaultExecutionModel.duration(
      job,
      allocation,
      this.platform,
      job.estimate,
      this.now,
    );
    const entry: RunningJob = {
      job,
      allocation,
      start: this.now,
      progressAtStart: p,
      progress: p,
      estimatedEnd: this.now + (1 - p) * estimated,
    };
    (this.view.running as RunningJob[]).push(entry);
    this.runningById.set(jobId, entry);
    this.status.set(jobId, RUNNING);
    this.started.push(jobId);
    this.allocations.push(allocation);
  }

  preempt(jobId: number): void {
    const r = this.runningById.get(jobId);
    if (r === undefined || this.status.get(jobId) !== RUNNING) {
      throw new ConstraintViolationError(this.where, jobId, "job state", "is not running");
    }
    this.ledger.give(r.job, r.allocation);
    this.runningById.delete(jobId);
    this.status.set(jobId, WAITING);
    this.progress.set(jobId, r.progress);
    this.preempted.push(jobId);
  }

  reject(jobId: number, reason: string): void {
    if (this.status.get(jobId) !== WAITING) {
      throw new ConstraintViolationError(this.where, jobId, "job state", "is not waiting");
    }
    this.status.set(jobId, GONE);
    this.rejected.push({ id: jobId, reason });
  }

  wakeAt(t: number): void {
    if (!(t > this.now) || !Number.isFinite(t)) {
      throw new InvalidInputError(this.where, "wakeAt", `is ${t}, expected a finite time > now`);
    }
    if (!(t >= this.wake)) this.wake = t;
  }
}
