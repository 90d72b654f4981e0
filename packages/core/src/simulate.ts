import { ConstraintViolationError, InvalidInputError, LimitExceededError } from "@sched/errors";
import { EventQueue } from "./events.js";
import {
  defaultExecutionModel,
  type ExecutionModel,
  type RunningSetEntry,
  slowestSpeed,
  uniformSpeed,
} from "./execution.js";
import { checkJob, isValidJobSpec } from "./job.js";
import { ResourceLedger } from "./ledger.js";
import { frozenPart, isKnownDeepFrozen, markDeepFrozen, partTable } from "./parts.js";
import { validatePlatform } from "./platform.js";
import type {
  RunningJob,
  Scheduler,
  SchedulerView,
  SchedulingContext,
  WaitingJob,
} from "./scheduler.js";
import type { Interval, JobRecord, Outcome, ScheduleTrace } from "./trace.js";
import type { Allocation, AllocationPart, Job, Platform } from "./types.js";

/** Options of {@link simulate}. */
export interface SimulateOptions {
  /**
   * Horizon: events after this time are not processed. Jobs still waiting or running then are
   * `unfinished` (running jobs' last interval ends at `until`); jobs submitted after it are
   * never read from the iterable and are not in the trace.
   * @defaultValue `Infinity` (run until no event remains)
   */
  readonly until?: number;
  /**
   * Guard against a policy that never lets the run end: more events (arrivals, completions,
   * timer batches, ready times) than this throws LimitExceededError.
   * @defaultValue `Infinity`
   */
  readonly maxEvents?: number;
  /** How long a job runs on an allocation. @defaultValue {@link defaultExecutionModel} */
  readonly executionModel?: ExecutionModel;
}

interface ResolvedOptions {
  until: number;
  maxEvents: number;
  model: ExecutionModel;
  /** The model's `slowdowns` hook bound to it, or null (fixed durations). */
  slowdowns:
    | ((running: readonly RunningSetEntry[], platform: Platform) => ArrayLike<number>)
    | null;
}

const WHERE = "@sched/core/simulate";

function resolveOptions(options: SimulateOptions): ResolvedOptions {
  const until = options.until ?? Number.POSITIVE_INFINITY;
  if (typeof until !== "number" || Number.isNaN(until)) {
    throw new InvalidInputError(WHERE, "options.until", `is ${String(until)}, expected a number`);
  }
  const maxEvents = options.maxEvents ?? Number.POSITIVE_INFINITY;
  if (typeof maxEvents !== "number" || Number.isNaN(maxEvents) || maxEvents < 0) {
    throw new InvalidInputError(
      WHERE,
      "options.maxEvents",
      `is ${String(maxEvents)}, expected a number >= 0`,
    );
  }
  const model = options.executionModel ?? defaultExecutionModel;
  if (typeof model !== "object" || model === null || typeof model.duration !== "function") {
    throw new InvalidInputError(
      WHERE,
      "options.executionModel",
      "has no duration(job, allocation, platform, seconds) function",
    );
  }
  if (model.slowdowns !== undefined && typeof model.slowdowns !== "function") {
    throw new InvalidInputError(
      WHERE,
      "options.executionModel.slowdowns",
      "is not a function (leave it out for fixed durations)",
    );
  }
  const slowdowns = model.slowdowns === undefined ? null : model.slowdowns.bind(model);
  return { until, maxEvents, model, slowdowns };
}

/** Arrays up to this length are left-trimmed by V8's `shift` in O(1). */
const SHIFT_LIMIT = 16_000;

const WAITING = 0;
const RUNNING = 1;
const DONE = 2;

interface MutableRecord {
  job: Job;
  intervals: Interval[];
  end: number | null;
  outcome: Outcome;
  reason?: string;
}

class WaitingEntry implements WaitingJob {
  removed = false;
  /** Preempted in the current call and not yet in the queue array (it enters when the call returns). */
  pending = false;
  constructor(
    readonly job: Job,
    readonly progress: number,
    readonly preemptions: number,
  ) {}
}

class Clock {
  now = 0;
}

/** A constant-rate stretch of a running job: from `start`, with `progress` done, at `1 / (fullDuration * slowdown)`. */
interface Segment {
  start: number;
  progress: number;
  slowdown: number;
}

class RunningEntry implements RunningJob {
  removed = false;
  /** Progress frozen when the entry was removed. */
  finalProgress = 0;
  /**
   * The current constant-rate segment (contention models), or null while the job runs at its
   * full rate since `start` (always, without a `slowdowns` hook): no segment object, and no
   * three number fields boxed per start, for the common case.
   */
  segment: Segment | null = null;
  constructor(
    readonly job: Job,
    readonly allocation: Allocation,
    readonly start: number,
    readonly progressAtStart: number,
    public estimatedEnd: number,
    /** Duration of the whole job (progress 0 to 1) on this allocation. */
    readonly fullDuration: number,
    /** Duration of the whole job if its estimate were exact. */
    readonly estimatedFull: number,
    private readonly clock: Clock,
  ) {}
  get progress(): number {
    if (this.removed) return this.finalProgress;
    return this.progressAt(this.clock.now);
  }
  /** Progress at time `t` of the current segment, at most 1. */
  progressAt(t: number): number {
    const seg = this.segment;
    // With no segment this is the segment formula with slowdown 1 (x * 1 === x exactly).
    const p =
      seg === null
        ? this.progressAtStart + (t - this.start) / this.fullDuration
        : seg.progress + (t - seg.start) / (this.fullDuration * seg.slowdown);
    return Math.min(p, 1);
  }
}

interface JobState {
  job: Job;
  record: MutableRecord;
  status: number;
  progress: number;
  preemptions: number;
  wEntry: WaitingEntry | null;
  rEntry: RunningEntry | null;
  /** Bumped at every start/preempt so stale completion events are skipped. */
  version: number;
  earliest: number;
}

/**
 * The states of the jobs that are waiting or running, by id. Ids that are small integers (below
 * the table's length plus {@link DENSE_GAP}, and below 4 per job added plus the gap: sequential
 * ids such as SWF job numbers) live in an array indexed by id, the others in a Map; a set and a delete per job then cost two array
 * stores instead of two hash-table updates (and the Map's rehashing garbage).
 */
class StateTable {
  private readonly dense: (JobState | undefined)[] = [];
  private readonly sparse = new Map<number, JobState>();
  private added = 0;

  get(id: number): JobState | undefined {
    if (typeof id === "number" && id >= 0 && id < this.dense.length) {
      const state = this.dense[id];
      if (state !== undefined) return state;
    }
    return this.sparse.size === 0 ? undefined : this.sparse.get(id);
  }

  /** `id` must not be in the table. */
  set(id: number, state: JobState): void {
    const dense = this.dense;
    // The array stays within 4 slots per job ever added (plus the gap), whatever the ids.
    const bound = Math.min(dense.length, 4 * this.added) + DENSE_GAP;
    this.added++;
    if (Number.isInteger(id) && id >= 0 && id < bound) {
      while (dense.length <= id) dense.push(undefined);
      dense[id] = state;
    } else {
      this.sparse.set(id, state);
    }
  }

  delete(id: number): void {
    if (id >= 0 && id < this.dense.length && this.dense[id] !== undefined) {
      this.dense[id] = undefined;
    } else {
      this.sparse.delete(id);
    }
  }

  /** Every state in the table. O(largest dense id + sparse entries). */
  list(): JobState[] {
    const out: JobState[] = [];
    for (const state of this.dense) if (state !== undefined) out.push(state);
    for (const state of this.sparse.values()) out.push(state);
    return out;
  }
}

/** Ids up to this far beyond the dense table's end still go into it (padding the gap). */
const DENSE_GAP = 1024;

const COMPLETION = 0;
const TIMER = 1;
const READY = 2;

/**
 * The intervals of a record that has none yet: one shared empty array until the first interval
 * (never pushed to; `finish` gives each record still holding it an array of its own).
 */
const NO_INTERVALS: Interval[] = [];

/** Appends `interval` to `rec`; a record's first interval gets an array of exactly one slot. */
function addInterval(rec: MutableRecord, interval: Interval): void {
  if (rec.intervals === NO_INTERVALS) rec.intervals = [interval];
  else rec.intervals.push(interval);
}

/** Empties `a` keeping its storage (`a.length = 0` frees it, so the next push reallocates). */
function clear(a: unknown[]): void {
  while (a.length > 0) a.pop();
}

const ARRAY_ITERATOR = Array.prototype[Symbol.iterator];

function queueBefore(a: Job, b: Job): boolean {
  return a.submit < b.submit || (a.submit === b.submit && a.id < b.id);
}

/**
 * A private frozen copy of a policy's allocation (kept as is when already deeply frozen), made
 * of shared frozen parts. Called after the ledger accepted the allocation.
 */
function copyAllocation(allocation: Allocation, platform: Platform): Allocation {
  if (isKnownDeepFrozen(allocation)) return allocation;
  if (Object.isFrozen(allocation)) {
    let frozen = true;
    for (let i = 0; i < allocation.length && frozen; i++) frozen = Object.isFrozen(allocation[i]);
    if (frozen) {
      markDeepFrozen(allocation);
      return allocation;
    }
  }
  const table = partTable(platform);
  const machines = platform.machines;
  const parts: AllocationPart[] = new Array(allocation.length);
  for (let i = 0; i < allocation.length; i++) {
    const p = allocation[i]!;
    parts[i] = frozenPart(table, p.machine, p.cores, machines[p.machine]!.cores);
  }
  Object.freeze(parts);
  markDeepFrozen(parts);
  return parts;
}

/**
 * Runs `scheduler` over `jobs` on `platform`: the discrete-event loop. Returns the schedule
 * trace (one record per job read, in input order) and run statistics.
 *
 * Event order: at each time t the engine applies, together, every completion at t (in the order
 * they were scheduled), then every arrival at t (in queue order: submit, then id), then every
 * timer (`wakeAt`) and ready time at t, and then calls `scheduler.schedule` ONCE (not at all when
 * nothing happened at t). Jobs are read lazily from `jobs`, which must be sorted by submit.
 * Preempted jobs keep their progress (fraction of work done) and return to the queue at their
 * original position (submit, id); they may resume on any allocation. Durations come from the
 * execution model (default: runtime * benchmark(job) / slowest speed of the allocation); a
 * model with a `slowdowns` hook is rate-based: after every batch in which the running set
 * changed the engine asks it for each running job's slowdown and reschedules the completions
 * of the jobs whose slowdown changed (see {@link ExecutionModel}).
 * The run ends when no event remains (jobs still waiting are then `unfinished`: a policy that
 * leaves jobs waiting with nothing pending has lost them) or at `options.until`.
 *
 * Complexity: O(E log E) heap work for E events plus the policy's own work; the view's
 * `waiting`/`running` arrays are maintained incrementally, `totalFreeCores` is O(1). A job
 * leaving the head of the queue costs amortised O(1) and `waitingAt`/`waitingCount` are O(1),
 * but the first read of `view.waiting` in a call after the head moved costs O(queue) on
 * queues longer than about 16k jobs. Each job read is checked by an allocation-free predicate
 * (messages are built only for an invalid job).
 *
 * @throws InvalidInputError when a job is invalid, an id repeats, the jobs are not sorted by
 * submit (naming the job), an option is invalid, or `wakeAt` gets a time <= now.
 * @throws ConstraintViolationError (from the policy's verbs) naming the job and the resource.
 * @throws LimitExceededError when more than `options.maxEvents` events occur.
 *
 * @example
 * ```ts
 * const greedy: Scheduler = {
 *   name: "greedy",
 *   schedule(ctx) {
 *     for (const w of ctx.view.waiting) {
 *       const a = firstFitAllocation(ctx.view, w.job.cores);
 *       if (a) ctx.start(w.job.id, a);
 *     }
 *   },
 * };
 * const trace = simulate([createJob({ id: 1, submit: 0, runtime: 10, cores: 2 })], identicalPool(2), greedy);
 * trace.records[0]; // { job, intervals: [{ start: 0, end: 10, allocation: [...] }], end: 10, outcome: "completed" }
 * ```
 */
export function simulate(
  jobs: Iterable<Job>,
  platform: Platform,
  scheduler: Scheduler,
  options: SimulateOptions = {},
): ScheduleTrace {
  const opts = resolveOptions(options);
  validatePlatform(platform, WHERE);
  if (
    typeof scheduler !== "object" ||
    scheduler === null ||
    typeof scheduler.schedule !== "function"
  ) {
    throw new InvalidInputError(WHERE, "scheduler", "has no schedule(ctx) function");
  }
  if (jobs === null || typeof (jobs as Iterable<Job>)[Symbol.iterator] !== "function") {
    throw new InvalidInputError(WHERE, "jobs", "is not iterable");
  }
  scheduler.reset?.(platform);
  return new Engine(jobs, platform, scheduler, opts).run();
}

class Engine {
  private readonly ledger: ResourceLedger;
  private readonly clock = new Clock();
  /** Completions, timers and ready times; the payload is the job's state (null for timers). */
  private readonly heap = new EventQueue<JobState>();
  private readonly states = new StateTable();
  private seenIds: Set<number> | null = null;
  private maxId = -1;
  private readonly records: MutableRecord[] = [];
  private readonly waiting: WaitingEntry[] = [];
  private waitingRemoved = 0;
  private waitingHead = 0;
  private readonly running: RunningEntry[] = [];
  private runningRemoved = 0;
  private readonly pendingWaiting: WaitingEntry[] = [];
  private readonly arrived: Job[] = [];
  private readonly completed: Job[] = [];
  private readonly ready: Job[] = [];
  private woken = false;
  /** A job started, was preempted or completed since the slowdowns were last asked for. */
  private runningChanged = false;
  private inCall = false;
  private waitingFrozen = false;
  private runningFrozen = false;
  private events = 0;
  private decisions = 0;
  private schedulerMs = 0;
  /** The input when it is a plain array (read by index), else null. */
  private readonly jobArray: readonly unknown[] | null;
  /** The input's iterator when it is not a plain array. */
  private readonly iterator: Iterator<Job> | null;
  /** Speed of every machine when they all have the same one, else NaN. */
  private readonly uniformSpeed: number;
  private nextJob: Job | null = null;
  private readIndex = 0;
  private lastSubmit = Number.NEGATIVE_INFINITY;
  private readonly view: SchedulerView;
  private readonly ctx: SchedulingContext;

  constructor(
    jobs: Iterable<Job>,
    private readonly platform: Platform,
    private readonly scheduler: Scheduler,
    private readonly opts: ResolvedOptions,
  ) {
    this.ledger = new ResourceLedger(platform);
    // Plain arrays are read by index: the same elements in the same order as their iterator,
    // without an iterator result object per job.
    if (Array.isArray(jobs) && jobs[Symbol.iterator] === ARRAY_ITERATOR) {
      this.jobArray = jobs;
      this.iterator = null;
    } else {
      this.jobArray = null;
      this.iterator = jobs[Symbol.iterator]();
    }
    this.uniformSpeed = uniformSpeed(platform);
    const engine = this;
    const ledger = this.ledger;
    const clock = this.clock;
    this.view = {
      get now() {
        return clock.now;
      },
      platform,
      get waiting(): readonly WaitingJob[] {
        return engine.readWaiting();
      },
      get waitingCount(): number {
        return engine.waitingCount();
      },
      waitingAt: (index: number) => engine.waitingAt(index),
      get running(): readonly RunningJob[] {
        return engine.readRunning();
      },
      freeCores: (m: number) => ledger.freeCores(m),
      get totalFreeCores() {
        return ledger.totalFreeCores;
      },
      freeLicenses: (license: string, m: number) => ledger.freeLicenses(license, m),
      duration: (job: Job, allocation: Allocation, seconds: number, start?: number) =>
        opts.model.duration(job, allocation, platform, seconds, start ?? clock.now),
      isWaiting: (jobId: number) => engine.states.get(jobId)?.status === WAITING,
      isRunning: (jobId: number) => engine.states.get(jobId)?.status === RUNNING,
      nextFreeMachine: (from: number) => ledger.nextFreeMachine(from),
    };
    const view = this.view;
    this.ctx = {
      view,
      get arrived() {
        return engine.arrived;
      },
      get completed() {
        return engine.completed;
      },
      get woken() {
        return engine.woken;
      },
      get ready() {
        return engine.ready;
      },
      start: (jobId: number, allocation: Allocation) => engine.start(jobId, allocation),
      preempt: (jobId: number) => engine.preempt(jobId),
      reject: (jobId: number, reason: string) => engine.reject(jobId, reason),
      wakeAt: (t: number) => engine.wakeAt(t),
    };
  }

  // ---- the view's arrays -------------------------------------------------------------------

  /**
   * The waiting queue is `waiting[waitingHead..]`: entries before `waitingHead` are dead (left
   * the queue) and are trimmed lazily; `waitingRemoved` counts dead entries at or after
   * `waitingHead` (marked `removed`, still in place). Removing the head is O(1): the next
   * preparation moves `waitingHead` past it, and the dead prefix is trimmed when it exceeds half
   * of the array (one move of the live half, amortised O(1) per removal) or when a policy reads
   * `view.waiting`, which must be a real array starting at the queue's head.
   */
  private prepareWaiting(): void {
    if (this.inCall && this.waitingFrozen) return;
    if (this.waitingRemoved > 0) this.dropRemovedWaiting();
    if (this.inCall) this.waitingFrozen = true;
  }

  private readWaiting(): readonly WaitingJob[] {
    this.prepareWaiting();
    // Entries before the head are dead even during a call: trimming them keeps the snapshot.
    if (this.waitingHead > 0) this.trimWaitingHead();
    return this.waiting;
  }

  private waitingAt(index: number): WaitingJob | undefined {
    this.prepareWaiting();
    if (!(index >= 0) || !Number.isInteger(index)) return undefined;
    return this.waiting[this.waitingHead + index];
  }

  private waitingCount(): number {
    this.prepareWaiting();
    return this.waiting.length - this.waitingHead;
  }

  /** Moves the head past a dead prefix (each entry is passed once); returns the new head. */
  private skipDeadWaitingPrefix(): number {
    const w = this.waiting;
    let h = this.waitingHead;
    while (this.waitingRemoved > 0 && h < w.length && w[h]!.removed) {
      h++;
      this.waitingRemoved--;
    }
    this.waitingHead = h;
    return h;
  }

  /** Moves the head past dead entries and compacts dead entries after it. */
  private dropRemovedWaiting(): void {
    const w = this.waiting;
    const h = this.skipDeadWaitingPrefix();
    if (this.waitingRemoved > 0) {
      let j = h;
      for (let i = h; i < w.length; i++) {
        const e = w[i]!;
        if (!e.removed) w[j++] = e;
      }
      w.length = j;
      this.waitingRemoved = 0;
    }
    this.maybeTrimWaitingHead();
  }

  /** Trims the dead prefix when it is cheap (short array) or more than half of the array. */
  private maybeTrimWaitingHead(): void {
    const h = this.waitingHead;
    if (h > 0 && (this.waiting.length <= SHIFT_LIMIT || h * 2 >= this.waiting.length)) {
      this.trimWaitingHead();
    }
  }

  private trimWaitingHead(): void {
    const w = this.waiting;
    const h = this.waitingHead;
    if (w.length <= SHIFT_LIMIT || h <= 8) {
      // shift() lets V8 left-trim the backing store in O(1) below ~16k entries; above, each
      // shift is one move of the array, still the fastest way to drop a few entries.
      for (let i = 0; i < h; i++) w.shift();
    } else {
      // One move of the live part instead of one per dropped entry.
      w.splice(0, h);
    }
    this.waitingHead = 0;
  }

  private readRunning(): readonly RunningJob[] {
    if (this.inCall && this.runningFrozen) return this.running;
    if (this.runningRemoved > 0) this.compactRunning();
    if (this.inCall) this.runningFrozen = true;
    return this.running;
  }

  private compactRunning(): void {
    const r = this.running;
    let j = 0;
    for (let i = 0; i < r.length; i++) {
      const e = r[i]!;
      if (!e.removed) r[j++] = e;
    }
    r.length = j;
    this.runningRemoved = 0;
  }

  private insertWaiting(entry: WaitingEntry): void {
    const w = this.waiting;
    const job = entry.job;
    // Fast path: after the tail (arrivals).
    if (w.length === this.waitingHead || queueBefore(w[w.length - 1]!.job, job)) {
      w.push(entry);
      return;
    }
    let lo = this.waitingHead;
    let hi = w.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (queueBefore(w[mid]!.job, job)) lo = mid + 1;
      else hi = mid;
    }
    w.splice(lo, 0, entry);
  }

  private insertRunning(entry: RunningEntry): void {
    const r = this.running;
    let i = r.length;
    while (i > 0) {
      const prev = r[i - 1]!;
      if (prev.start < entry.start || (prev.start === entry.start && prev.job.id < entry.job.id)) {
        break;
      }
      i--;
    }
    if (i === r.length) r.push(entry);
    else r.splice(i, 0, entry);
  }

  // ---- verbs ---------------------------------------------------------------------------------

  private requireInCall(verb: string): void {
    if (!this.inCall) {
      throw new InvalidInputError(WHERE, verb, "was called outside a schedule call");
    }
  }

  private start(jobId: number, allocation: Allocation): void {
    this.requireInCall("start");
    const state = this.states.get(jobId);
    if (state === undefined || state.status !== WAITING) {
      throw violation(jobId, "job state", this.describeState(jobId, state));
    }
    const now = this.clock.now;
    const job = state.job;
    if (now < state.earliest) {
      throw violation(
        jobId,
        "ready time",
        `cannot start at ${now}, before its ready time ${state.earliest}`,
      );
    }
    this.ledger.take(job, allocation, WHERE);
    const alloc = copyAllocation(allocation, this.platform);
    const model = this.opts.model;
    const isDefault = model === defaultExecutionModel;
    let full: number;
    let estimated = 0;
    if (isDefault) {
      // The default model's formula, with the allocation's slowest speed found once for both
      // durations (and not at all on a platform whose machines share one speed).
      const bm = job.benchmark ?? this.platform.referenceSpeed;
      const slowest = !Number.isNaN(this.uniformSpeed)
        ? this.uniformSpeed
        : slowestSpeed(alloc, this.platform);
      full = (job.runtime * bm) / slowest;
      estimated = (job.estimate * bm) / slowest;
    } else {
      full = model.duration(job, alloc, this.platform, job.runtime, now);
    }
    if (!(full > 0) || !Number.isFinite(full)) {
      this.ledger.give(job, alloc);
      throw new InvalidInputError(
        WHERE,
        "options.executionModel",
        `returned ${String(full)} for job ${jobId}, expected a finite number > 0`,
      );
    }
    if (!isDefault) {
      estimated = model.duration(job, alloc, this.platform, job.estimate, now);
    }
    const p0 = state.progress;
    const entry = new RunningEntry(
      job,
      alloc,
      now,
      p0,
      now + (1 - p0) * estimated,
      full,
      estimated,
      this.clock,
    );
    // Leave the waiting queue.
    const w = state.wEntry!;
    w.removed = true;
    // Only entries in the queue array count (a job preempted in this call is not there yet).
    if (!w.pending) this.waitingRemoved++;
    state.wEntry = null;
    state.status = RUNNING;
    state.rEntry = entry;
    state.version++;
    this.insertRunning(entry);
    this.runningChanged = true;
    this.heap.push(now + (1 - p0) * full, COMPLETION, state, state.version);
  }

  private preempt(jobId: number): void {
    this.requireInCall("preempt");
    const state = this.states.get(jobId);
    if (state === undefined || state.status !== RUNNING) {
      throw violation(jobId, "job state", this.describeState(jobId, state));
    }
    const now = this.clock.now;
    const r = state.rEntry!;
    const progress = r.progressAt(now);
    r.finalProgress = progress;
    r.removed = true;
    this.runningRemoved++;
    this.runningChanged = true;
    this.ledger.give(state.job, r.allocation);
    if (now > r.start) {
      addInterval(state.record, { start: r.start, end: now, allocation: r.allocation });
    }
    state.rEntry = null;
    state.status = WAITING;
    state.progress = progress;
    state.preemptions++;
    state.version++;
    const entry = new WaitingEntry(state.job, progress, state.preemptions);
    entry.pending = true;
    state.wEntry = entry;
    this.pendingWaiting.push(entry);
  }

  private reject(jobId: number, reason: string): void {
    this.requireInCall("reject");
    const state = this.states.get(jobId);
    if (state === undefined || state.status !== WAITING) {
      throw violation(
        jobId,
        "job state",
        `${this.describeState(jobId, state)}; only waiting jobs can be rejected`,
      );
    }
    if (typeof reason !== "string") {
      throw new InvalidInputError(WHERE, "reject(reason)", "is not a string");
    }
    const w = state.wEntry!;
    w.removed = true;
    // Only entries in the queue array count (a job preempted in this call is not there yet).
    if (!w.pending) this.waitingRemoved++;
    state.wEntry = null;
    state.status = DONE;
    state.version++;
    const rec = state.record;
    rec.end = this.clock.now;
    rec.outcome = "rejected";
    rec.reason = reason;
    this.states.delete(jobId);
  }

  private wakeAt(t: number): void {
    this.requireInCall("wakeAt");
    if (typeof t !== "number" || !(t > this.clock.now) || !Number.isFinite(t)) {
      throw new InvalidInputError(
        WHERE,
        "wakeAt(t)",
        `got ${String(t)}, expected a finite time after now (${this.clock.now})`,
      );
    }
    this.heap.push(t, TIMER, null, 0);
  }

  private describeState(jobId: number, state: JobState | undefined): string {
    if (state === undefined) {
      return this.wasRead(jobId) ? "has already ended" : "has not arrived (unknown job id)";
    }
    if (state.status === RUNNING) return "is running, not waiting";
    if (state.status === WAITING) return "is waiting, not running";
    return "has already ended";
  }

  // ---- the loop ------------------------------------------------------------------------------

  private pullNext(): void {
    let value: unknown;
    const array = this.jobArray;
    if (array !== null) {
      if (this.readIndex >= array.length) {
        this.nextJob = null;
        return;
      }
      value = array[this.readIndex];
    } else {
      const r = this.iterator!.next();
      if (r.done) {
        this.nextJob = null;
        return;
      }
      value = r.value;
    }
    // Every job goes through a predicate that builds no message (about 10-20 ns, less than the
    // WeakSet lookup that used to let createJob/validateJobs jobs skip the check); only an
    // invalid job runs the full check, which names the field.
    const job = isValidJobSpec(value, false)
      ? (value as Job)
      : checkJob(WHERE, value as Job, `jobs[${this.readIndex}]`, false);
    if (job.submit < this.lastSubmit) {
      throw new InvalidInputError(
        WHERE,
        `jobs[${this.readIndex}] (job ${job.id}).submit`,
        `is ${job.submit}, before the previous job's submit ${this.lastSubmit}; jobs must be sorted by submit`,
      );
    }
    this.checkNewId(job.id);
    this.lastSubmit = job.submit;
    this.readIndex++;
    this.nextJob = job;
  }

  /**
   * Duplicate-id check. Fast path: ids that keep increasing (SWF traces) need no set; the set
   * of every id read is built the first time an id does not exceed the largest so far.
   */
  private checkNewId(id: number): void {
    if (id > this.maxId) {
      this.maxId = id;
      this.seenIds?.add(id);
      return;
    }
    if (this.seenIds === null) {
      this.seenIds = new Set<number>();
      for (const r of this.records) this.seenIds.add(r.job.id);
      if (this.nextJob !== null) this.seenIds.add(this.nextJob.id);
    }
    if (this.seenIds.has(id)) {
      throw new InvalidInputError(
        WHERE,
        `jobs[${this.readIndex}].id`,
        `is ${id}, a duplicate job id`,
      );
    }
    this.seenIds.add(id);
  }

  /** Whether job `id` was read from the input. */
  private wasRead(id: number): boolean {
    if (this.seenIds !== null) return this.seenIds.has(id);
    if (id > this.maxId) return false;
    for (const r of this.records) if (r.job.id === id) return true;
    return false;
  }

  private countEvent(): void {
    if (++this.events > this.opts.maxEvents) {
      throw new LimitExceededError(
        WHERE,
        `more than ${this.opts.maxEvents} events (options.maxEvents) by t=${this.clock.now}; does the policy keep setting timers?`,
      );
    }
  }

  run(): ScheduleTrace {
    const heap = this.heap;
    const until = this.opts.until;
    let horizon: number | undefined;
    this.pullNext();
    for (;;) {
      // Drop stale completions at the top of the heap.
      while (
        heap.size > 0 &&
        heap.topKind() === COMPLETION &&
        heap.topPayload()!.version !== heap.topVersion()
      ) {
        heap.pop();
      }
      const tHeap = heap.size === 0 ? Number.POSITIVE_INFINITY : heap.topTime();
      const tArrival = this.nextJob === null ? Number.POSITIVE_INFINITY : this.nextJob.submit;
      const t = Math.min(tHeap, tArrival);
      if (t === Number.POSITIVE_INFINITY) break;
      if (t > until) {
        horizon = until;
        break;
      }
      this.clock.now = t;
      let happened = false;
      let timerFired = false;
      // Completions (and timers / ready times, whose effect is applied after the arrivals).
      while (heap.size > 0 && heap.topTime() === t) {
        const kind = heap.topKind();
        const state = heap.topPayload();
        const version = heap.topVersion();
        heap.pop();
        if (kind === COMPLETION) {
          if (state!.version === version) {
            this.countEvent();
            this.complete(state!, t);
            happened = true;
          }
        } else if (kind === TIMER) {
          timerFired = true;
        } else if (state!.status === WAITING && state!.version === version) {
          this.countEvent();
          this.ready.push(state!.job);
          happened = true;
        }
      }
      // Arrivals.
      while (this.nextJob !== null && this.nextJob.submit === t) {
        this.countEvent();
        this.arrive(this.nextJob);
        happened = true;
        this.pullNext();
      }
      if (this.arrived.length > 1) this.arrived.sort((a, b) => a.id - b.id);
      // Timers.
      if (timerFired) {
        this.countEvent();
        this.woken = true;
        happened = true;
      }
      if (happened) this.callScheduler();
    }
    return this.finish(horizon);
  }

  private arrive(job: Job): void {
    const record: MutableRecord = {
      job,
      intervals: NO_INTERVALS,
      end: null,
      outcome: "unfinished",
    };
    this.records.push(record);
    const entry = new WaitingEntry(job, 0, 0);
    const earliest = job.ready !== undefined && job.ready > job.submit ? job.ready : job.submit;
    const state: JobState = {
      job,
      record,
      status: WAITING,
      progress: 0,
      preemptions: 0,
      wEntry: entry,
      rEntry: null,
      version: 0,
      earliest,
    };
    this.states.set(job.id, state);
    this.insertWaiting(entry);
    this.arrived.push(job);
    if (earliest > job.submit) {
      this.heap.push(earliest, READY, state, 0);
    }
  }

  private complete(state: JobState, t: number): void {
    const r = state.rEntry!;
    r.finalProgress = 1;
    r.removed = true;
    this.runningRemoved++;
    this.runningChanged = true;
    this.ledger.give(state.job, r.allocation);
    const rec = state.record;
    addInterval(rec, { start: r.start, end: t, allocation: r.allocation });
    rec.end = t;
    rec.outcome = "completed";
    state.status = DONE;
    state.rEntry = null;
    state.progress = 1;
    this.states.delete(state.job.id);
    this.completed.push(state.job);
  }

  private callScheduler(): void {
    this.inCall = true;
    this.waitingFrozen = false;
    this.runningFrozen = false;
    const t0 = performance.now();
    try {
      this.scheduler.schedule(this.ctx);
    } finally {
      this.schedulerMs += performance.now() - t0;
      this.inCall = false;
    }
    this.decisions++;
    for (let i = 0; i < this.pendingWaiting.length; i++) {
      const e = this.pendingWaiting[i]!;
      e.pending = false;
      // A job preempted and restarted (or rejected) in the same call has left already.
      if (!e.removed) this.insertWaiting(e);
    }
    clear(this.pendingWaiting);
    clear(this.arrived);
    clear(this.completed);
    clear(this.ready);
    this.woken = false;
    // Amortised clean-up so removed entries do not pile up when the policy never reads a list.
    if (this.waitingRemoved > 0) {
      // Cheap part first: the dead prefix.
      const h = this.skipDeadWaitingPrefix();
      if (this.waitingRemoved > 32 && this.waitingRemoved * 2 > this.waiting.length - h) {
        this.dropRemovedWaiting();
      } else {
        this.maybeTrimWaitingHead();
      }
    }
    if (this.runningRemoved > 32 && this.runningRemoved * 2 > this.running.length) {
      this.compactRunning();
    }
    if (this.runningChanged && this.opts.slowdowns !== null) this.updateRates();
  }

  /**
   * Contention models: asks the model for the slowdown of every running job given the new
   * running set, and for each job whose slowdown changed closes its segment (keeping the
   * progress made at the old rate), opens a new one at the new rate and moves its completion
   * event (the old one becomes stale through the version). Jobs whose slowdown is unchanged keep
   * their segment and event untouched, so a model whose slowdowns are always 1 gives exactly the
   * fixed-duration run.
   *
   * Complexity: O(R) plus the model's work and O(log E) per moved completion, for R running jobs.
   */
  private updateRates(): void {
    this.runningChanged = false;
    if (this.runningRemoved > 0) this.compactRunning();
    const running = this.running;
    if (running.length === 0) return;
    const factors = this.opts.slowdowns!(running, this.platform);
    if (factors === null || typeof factors !== "object" || factors.length !== running.length) {
      throw new InvalidInputError(
        WHERE,
        "options.executionModel.slowdowns",
        `returned ${factors === null || typeof factors !== "object" ? String(factors) : `${factors.length} values`} for ${running.length} running jobs, expected one per job`,
      );
    }
    const now = this.clock.now;
    for (let i = 0; i < running.length; i++) {
      const e = running[i]!;
      const f = factors[i]!;
      if (!(f > 0) || !Number.isFinite(f)) {
        throw new InvalidInputError(
          WHERE,
          "options.executionModel.slowdowns",
          `returned ${String(f)} for job ${e.job.id}, expected a finite number > 0`,
        );
      }
      const seg = e.segment;
      if (f === (seg === null ? 1 : seg.slowdown)) continue;
      const p = e.progressAt(now);
      if (seg === null) e.segment = { start: now, progress: p, slowdown: f };
      else {
        seg.start = now;
        seg.progress = p;
        seg.slowdown = f;
      }
      e.estimatedEnd = now + (1 - p) * e.estimatedFull * f;
      const state = this.states.get(e.job.id)!;
      state.version++;
      this.heap.push(now + (1 - p) * e.fullDuration * f, COMPLETION, state, state.version);
    }
  }

  private finish(horizon: number | undefined): ScheduleTrace {
    const records = this.records;
    for (let i = 0; i < records.length; i++) {
      if (records[i]!.intervals === NO_INTERVALS) records[i]!.intervals = [];
    }
    if (horizon !== undefined) {
      for (const state of this.states.list()) {
        if (state.status === RUNNING) {
          const r = state.rEntry!;
          if (horizon > r.start) {
            addInterval(state.record, { start: r.start, end: horizon, allocation: r.allocation });
          }
        }
      }
    }
    const trace: {
      scheduler: string;
      platform: Platform;
      records: readonly JobRecord[];
      stats: { events: number; decisions: number; schedulerMs: number };
      horizon?: number;
    } = {
      scheduler: this.scheduler.name,
      platform: this.platform,
      records: this.records,
      stats: { events: this.events, decisions: this.decisions, schedulerMs: this.schedulerMs },
    };
    if (horizon !== undefined) trace.horizon = horizon;
    return trace;
  }
}

function violation(jobId: number, resource: string, detail: string): ConstraintViolationError {
  return new ConstraintViolationError(WHERE, jobId, resource, detail);
}
