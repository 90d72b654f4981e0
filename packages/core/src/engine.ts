import {
  ConstraintViolationError,
  InvalidInputError,
  LimitExceededError,
  PolicyError,
  SchedError,
} from "@sched/errors";
import { EventQueue } from "./events.js";
import {
  defaultExecutionModel,
  type ExecutionModel,
  type RunningSetEntry,
  slowestSpeed,
  uniformSpeed,
} from "./execution.js";
import { IdSet } from "./id-set.js";
import { checkJob, hasOnlyJobFields, isValidJobSpec, refuseMisspeltJobKeys } from "./job.js";
import { GIVE_TAKEN, LEDGER_OF_VIEW, ResourceLedger } from "./ledger.js";
import { UsageTracker } from "./machine-usage.js";
import { type Metrics, MetricsAccumulator } from "./metrics.js";
import { frozenPart, isKnownDeepFrozen, markDeepFrozen, partTable } from "./parts.js";
import type {
  RunningJob,
  Scheduler,
  SchedulerView,
  SchedulingContext,
  WaitingJob,
} from "./scheduler.js";
import type { Interval, JobRecord, Outcome, RunStats, ScheduleTrace } from "./trace.js";
import type { Allocation, AllocationPart, Job, Platform } from "./types.js";
import { WaitingQueue } from "./waiting-queue.js";

/** The engine's settings, resolved and checked (see `SimulateOptions`). Internal. */
export interface EngineOptions {
  /** Where errors come from: `@sched/core/simulate`, … */
  readonly where: string;
  readonly until: number;
  /** The event budget, or null for the default derived from the jobs read. */
  readonly maxEvents: number | null;
  /** Schedule calls in a row without progress before the run stops. */
  readonly maxStalledEvents: number;
  readonly model: ExecutionModel;
  /** The model's `slowdowns` hook bound to it, or null (fixed durations). */
  readonly slowdowns:
    | ((running: readonly RunningSetEntry[], platform: Platform) => ArrayLike<number>)
    | null;
  /** Keep every record for the trace (else each record is dropped once emitted). */
  readonly keepRecords: boolean;
  /** Called with each record, in input order, as soon as it and every earlier one ended. */
  readonly onRecord: ((record: JobRecord) => void) | null;
  /** Accumulate the metrics online with this `tau`, or null. */
  readonly metricsTau: number | null;
}

/** The default event budget: this many events, plus {@link EVENTS_PER_JOB} per job read. */
export const BASE_EVENT_BUDGET = 1_000_000;
/** The default event budget grows by this many events per job read. */
export const EVENTS_PER_JOB = 1_000;
/** Default bound on schedule calls in a row in which no job arrived, ran, ended or was rejected. */
export const DEFAULT_MAX_STALLED_EVENTS = 100_000;

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

/** Ids up to this far beyond the dense window's end still go into it (padding the gap). */
const DENSE_GAP = 1024;

/**
 * The states of the jobs that are waiting or running, by id. Ids that fall in a sliding window
 * `[base, base + slots.length + gap)` (sequential ids such as SWF job numbers) live in an array
 * indexed by `id - base`, the others in a Map; a set and a delete per job then cost two array
 * stores instead of two hash-table updates. The window's dead prefix is cut once it is more
 * than half of it, so the array spans the jobs in flight, not every id of the run. The window
 * holds at most 4 slots per job in the table (plus the gap), whatever the ids.
 */
class StateTable {
  private slots: (JobState | undefined)[] = [];
  private base = 0;
  /** Slots before this index are empty. */
  private low = 0;
  private size = 0;
  private readonly sparse = new Map<number, JobState>();

  get(id: number): JobState | undefined {
    const i = id - this.base;
    if (i >= 0 && i < this.slots.length) {
      const state = this.slots[i];
      if (state !== undefined) return state;
    }
    return this.sparse.size === 0 ? undefined : this.sparse.get(id);
  }

  /** `id` must not be in the table. */
  set(id: number, state: JobState): void {
    const slots = this.slots;
    if (this.size === 0 && this.sparse.size === 0 && slots.length > 0) {
      // Empty table: restart the window at this id.
      slots.length = 0;
      this.base = id;
      this.low = 0;
    }
    const i = id - this.base;
    const bound = Math.min(slots.length, 4 * this.size) + DENSE_GAP;
    this.size++;
    if (Number.isInteger(i) && i >= 0 && i < bound) {
      while (slots.length <= i) slots.push(undefined);
      slots[i] = state;
      if (i < this.low) this.low = i;
    } else {
      this.sparse.set(id, state);
    }
  }

  delete(id: number): void {
    const slots = this.slots;
    const i = id - this.base;
    this.size--;
    if (i >= 0 && i < slots.length && slots[i] !== undefined) {
      slots[i] = undefined;
      if (i === this.low) {
        let low = i + 1;
        while (low < slots.length && slots[low] === undefined) low++;
        this.low = low;
        if (low > DENSE_GAP && low * 2 > slots.length) {
          // Cut the empty prefix: one move of the live part, amortised O(1) per job.
          slots.copyWithin(0, low);
          slots.length -= low;
          this.base += low;
          this.low = 0;
        }
      }
    } else {
      this.sparse.delete(id);
    }
  }

  /** Every state in the table. O(window + sparse entries). */
  list(): JobState[] {
    const out: JobState[] = [];
    for (let i = this.low; i < this.slots.length; i++) {
      const state = this.slots[i];
      if (state !== undefined) out.push(state);
    }
    for (const state of this.sparse.values()) out.push(state);
    return out;
  }
}

const COMPLETION = 0;
const TIMER = 1;
const READY = 2;

/**
 * The intervals of a record that has none yet: one shared empty array until the first interval
 * (never pushed to; each record still holding it gets an array of its own when it is emitted or
 * the trace is built).
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

/** The global `performance`, read once: in Node each read of the global goes through a getter. */
const timer = performance;

/** At most this many job ids are listed in an error message. */
const IDS_IN_MESSAGE = 5;

function listIds(ids: readonly number[], total: number): string {
  const shown = ids.slice(0, IDS_IN_MESSAGE).join(", ");
  return total > IDS_IN_MESSAGE ? `${shown}, ...` : shown;
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

/** How a run ended, for `simulate`'s trace and a streamed run's summary. Internal. */
export interface EngineResult {
  readonly scheduler: string;
  readonly platform: Platform;
  /** Every record, in input order (empty unless records are kept). */
  readonly records: readonly JobRecord[];
  /** Records emitted or kept: one per job read (and not after the horizon). */
  readonly jobs: number;
  readonly stats: RunStats;
  readonly horizon?: number;
  /** The metrics accumulated online, when asked for. */
  readonly metrics?: Metrics;
}

/**
 * The discrete-event loop behind `simulate`, `simulateStream` and `createSimulation`. Jobs come
 * from sources given one after another (`feed`); the loop runs as far as the jobs read so far
 * allow: while the input is open it never processes a time at or after the last submit read
 * (more jobs may arrive then), so a run fed in chunks is the run fed all at once. `close` marks
 * the end of the input and runs to the end. Internal (not exported from the package).
 */
export class Engine {
  private readonly ledger: ResourceLedger;
  private readonly clock = new Clock();
  /** Completions, timers and ready times; the payload is the job's state (null for timers). */
  private readonly heap = new EventQueue<JobState>();
  private readonly states = new StateTable();
  private readonly ids = new IdSet();
  /** Records in input order from `recordsHead` (earlier ones emitted and dropped, unless kept). */
  private records: MutableRecord[] = [];
  private recordsHead = 0;
  /** Jobs arrived (one record each). */
  private arrivals = 0;
  /** Whether ended records are handed on as they end (to `onRecord` or the metrics). */
  private readonly emitting: boolean;
  private readonly waiting = new WaitingQueue<WaitingEntry>();
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
  private runningFrozen = false;
  private events = 0;
  private decisions = 0;
  private schedulerMs = 0;
  /** Jobs arrived, completed or rejected since the last schedule call (progress). */
  private progressed = false;
  /** Schedule calls in a row without progress. */
  private stalled = 0;
  /** Time of the previous batch of events. */
  private lastBatch = Number.NEGATIVE_INFINITY;
  /** The job the policy last acted on in the current call, for error messages. */
  private lastActedOn: number | null = null;
  /** The current source when it is a plain array (read by index), else null. */
  private jobArray: readonly unknown[] | null = null;
  /** The current source's iterator when it is not a plain array. */
  private iterator: Iterator<Job> | null = null;
  private arrayIndex = 0;
  /** The current source has no more jobs. */
  private sourceDone = true;
  /** No source will follow the current one. */
  private inputClosed = false;
  /** Jobs read and checked, not yet arrived, in input order from `aheadHead`. */
  private readonly ahead: Job[] = [];
  private aheadHead = 0;
  /** Jobs read from every source. */
  private read = 0;
  private lastSubmit = Number.NEGATIVE_INFINITY;
  /** The run ended (no event left, or the horizon passed): further jobs are not read. */
  private ended = false;
  private horizon: number | undefined;
  private failure: unknown = null;
  /** `finish` was called. */
  private finished = false;
  /** Speed of every machine when they all have the same one, else NaN. */
  private readonly uniformSpeed: number;
  private readonly usage: UsageTracker | null;
  private readonly metrics: MetricsAccumulator | null;
  private readonly view: SchedulerView;
  private readonly ctx: SchedulingContext;

  constructor(
    private readonly platform: Platform,
    private readonly scheduler: Scheduler,
    private readonly opts: EngineOptions,
  ) {
    this.ledger = new ResourceLedger(platform);
    this.uniformSpeed = uniformSpeed(platform);
    if (opts.metricsTau !== null) {
      this.metrics = new MetricsAccumulator(opts.metricsTau, platform.totalCores, platform);
      this.usage = new UsageTracker(
        platform.machines.length,
        platform.machines.every((m) => m.cores === 1),
      );
    } else {
      this.metrics = null;
      this.usage = null;
    }
    this.emitting = opts.onRecord !== null || this.metrics !== null;
    const engine = this;
    const ledger = this.ledger;
    const clock = this.clock;
    const waiting = this.waiting;
    this.view = {
      get now() {
        return clock.now;
      },
      platform,
      get waiting(): readonly WaitingJob[] {
        return waiting.array(engine.inCall);
      },
      get waitingCount(): number {
        return waiting.count(engine.inCall);
      },
      waitingAt: (index: number) => waiting.at(index, engine.inCall),
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
    LEDGER_OF_VIEW.set(this.view, ledger);
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
    try {
      scheduler.reset?.(platform);
    } catch (error) {
      throw this.policyFailure(error, "reset");
    }
  }

  // ---- input ---------------------------------------------------------------------------------

  /**
   * Reads `jobs` (sorted by submit, after every job fed before) and runs the loop as far as the
   * jobs read so far allow; with `last`, the input ends with them and the run goes to its end.
   */
  feed(jobs: Iterable<Job>, last: boolean): void {
    this.guard();
    if (!this.ended) {
      // Plain arrays are read by index: the same elements in the same order as their iterator,
      // without an iterator result object per job.
      if (Array.isArray(jobs) && jobs[Symbol.iterator] === ARRAY_ITERATOR) {
        this.jobArray = jobs;
        this.iterator = null;
        this.arrayIndex = 0;
      } else {
        this.jobArray = null;
        this.iterator = jobs[Symbol.iterator]();
      }
      this.sourceDone = false;
    }
    if (last) this.inputClosed = true;
    this.pump();
  }

  /** Ends the input (when not ended yet) and the run; returns what the run produced. */
  finish(): EngineResult {
    this.guard();
    if (!this.inputClosed) {
      this.inputClosed = true;
      this.pump();
    }
    this.finished = true;
    try {
      return this.result();
    } catch (error) {
      this.failure = error;
      throw error;
    }
  }

  private guard(): void {
    if (this.finished) {
      throw new InvalidInputError(
        this.opts.where,
        "simulation",
        "has ended already; start a new one",
      );
    }
    if (this.failure !== null) {
      throw new InvalidInputError(
        this.opts.where,
        "simulation",
        "failed earlier (see the error it threw); start a new one",
      );
    }
  }

  private pump(): void {
    try {
      this.loop();
    } catch (error) {
      this.failure = error;
      throw error;
    }
  }

  /** The next job of the input, read and checked, or null when none is available (yet). */
  private peek(): Job | null {
    if (this.aheadHead < this.ahead.length) return this.ahead[this.aheadHead]!;
    if (this.sourceDone) return null;
    return this.readOne() ? this.ahead[this.aheadHead]! : null;
  }

  /** Takes the job `peek` returned. */
  private take(): Job {
    const ahead = this.ahead;
    const job = ahead[this.aheadHead++]!;
    if (this.aheadHead === ahead.length) {
      clear(ahead);
      this.aheadHead = 0;
    } else if (this.aheadHead > 1024 && this.aheadHead * 2 > ahead.length) {
      // While the input is open the buffer is rarely empty: drop the taken prefix (one move of
      // the rest, amortised O(1) per job), or it would keep every job read.
      ahead.copyWithin(0, this.aheadHead);
      ahead.length -= this.aheadHead;
      this.aheadHead = 0;
    }
    return job;
  }

  /** Reads one job from the current source into `ahead`; false when the source has no more. */
  private readOne(): boolean {
    let value: unknown;
    const array = this.jobArray;
    if (array !== null) {
      if (this.arrayIndex >= array.length) {
        this.endSource();
        return false;
      }
      value = array[this.arrayIndex++];
    } else {
      const r = this.iterator!.next();
      if (r.done) {
        this.endSource();
        return false;
      }
      value = r.value;
    }
    const where = this.opts.where;
    // Every job goes through a predicate that builds no message (about 10-20 ns); only an
    // invalid job runs the full check, which names the field.
    let job: Job;
    if (isValidJobSpec(value, false)) {
      job = value as Job;
      if (!hasOnlyJobFields(job)) refuseMisspeltJobKeys(where, `jobs[${this.read}]`, job);
    } else job = checkJob(where, value as Job, `jobs[${this.read}]`, false);
    if (job.submit < this.lastSubmit) {
      throw new InvalidInputError(
        where,
        `jobs[${this.read}] (job ${job.id}).submit`,
        `is ${job.submit}, before the previous job's submit ${this.lastSubmit}; jobs must be sorted by submit`,
      );
    }
    if (!this.ids.add(job.id)) {
      throw new InvalidInputError(
        where,
        `jobs[${this.read}].id`,
        `is ${job.id}, a duplicate job id`,
      );
    }
    this.lastSubmit = job.submit;
    this.read++;
    this.ahead.push(job);
    return true;
  }

  private endSource(): void {
    this.sourceDone = true;
    this.jobArray = null;
    this.iterator = null;
  }

  /**
   * While the input is open, whether every job submitted at or before `t` has been read: true
   * once a job submitted after `t` was read (reading on if needed).
   */
  private readPast(t: number): boolean {
    while (!(this.lastSubmit > t)) {
      if (this.sourceDone || !this.readOne()) return false;
    }
    return true;
  }

  // ---- the view's arrays -------------------------------------------------------------------

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
      throw new InvalidInputError(this.opts.where, verb, "was called outside a schedule call");
    }
  }

  /**
   * The error of a default-model duration that is 0 or not finite: `runtime * benchmark /
   * slowest speed` under- or overflowed a double. It names what the caller set, the job's
   * `benchmark` or else the platform's `referenceSpeed` (no execution model was given).
   */
  private badDuration(job: Job, alloc: Allocation, full: number): InvalidInputError {
    const own = job.benchmark !== undefined;
    const bm = own ? job.benchmark! : this.platform.referenceSpeed;
    const slowest = slowestSpeed(alloc, this.platform);
    return new InvalidInputError(
      this.opts.where,
      own ? `job ${job.id}.benchmark` : "platform.referenceSpeed",
      `is ${bm}: job ${job.id}'s duration runtime x ${own ? "benchmark" : "referenceSpeed"} / slowest speed = ${job.runtime} x ${bm} / ${slowest} is ${String(full)} in double precision, expected a finite number > 0 (scale ${own ? "the benchmarks" : "referenceSpeed"} and the machines' speeds together)`,
    );
  }

  private start(jobId: number, allocation: Allocation): void {
    this.requireInCall("start");
    this.lastActedOn = jobId;
    const state = this.states.get(jobId);
    if (state === undefined || state.status !== WAITING) {
      throw this.violation(jobId, "job state", this.describeState(jobId, state));
    }
    const now = this.clock.now;
    const job = state.job;
    if (now < state.earliest) {
      throw this.violation(
        jobId,
        "ready time",
        `cannot start at ${now}, before its ready time ${state.earliest}`,
      );
    }
    this.ledger.take(job, allocation, this.opts.where);
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
      if (isDefault) throw this.badDuration(job, alloc, full);
      throw new InvalidInputError(
        this.opts.where,
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
    this.waiting.remove(state.wEntry!);
    state.wEntry = null;
    state.status = RUNNING;
    state.rEntry = entry;
    state.version++;
    this.insertRunning(entry);
    this.runningChanged = true;
    this.usage?.take(alloc);
    this.heap.push(now + (1 - p0) * full, COMPLETION, state, state.version);
  }

  private preempt(jobId: number): void {
    this.requireInCall("preempt");
    this.lastActedOn = jobId;
    const state = this.states.get(jobId);
    if (state === undefined || state.status !== RUNNING) {
      throw this.violation(jobId, "job state", this.describeState(jobId, state));
    }
    const now = this.clock.now;
    const r = state.rEntry!;
    const progress = r.progressAt(now);
    r.finalProgress = progress;
    r.removed = true;
    this.runningRemoved++;
    this.runningChanged = true;
    this.ledger[GIVE_TAKEN](state.job, r.allocation);
    if (now > r.start) {
      addInterval(state.record, { start: r.start, end: now, allocation: r.allocation });
      this.usage?.ended();
    }
    this.usage?.release(r.allocation);
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
    this.lastActedOn = jobId;
    const state = this.states.get(jobId);
    if (state === undefined || state.status !== WAITING) {
      throw this.violation(
        jobId,
        "job state",
        `${this.describeState(jobId, state)}; only waiting jobs can be rejected`,
      );
    }
    if (typeof reason !== "string") {
      throw new InvalidInputError(this.opts.where, "reject(reason)", "is not a string");
    }
    this.waiting.remove(state.wEntry!);
    state.wEntry = null;
    state.status = DONE;
    state.version++;
    const rec = state.record;
    rec.end = this.clock.now;
    rec.outcome = "rejected";
    rec.reason = reason;
    this.states.delete(jobId);
    this.progressed = true;
    this.usage?.leave();
    if (this.emitting) this.emitEnded();
  }

  private wakeAt(t: number): void {
    this.requireInCall("wakeAt");
    if (typeof t !== "number" || !(t > this.clock.now) || !Number.isFinite(t)) {
      throw new InvalidInputError(
        this.opts.where,
        "wakeAt(t)",
        `got ${String(t)}, expected a finite time after now (${this.clock.now})`,
      );
    }
    this.heap.push(t, TIMER, null, 0);
  }

  private describeState(jobId: number, state: JobState | undefined): string {
    if (state === undefined) {
      return this.ids.has(jobId) ? "has already ended" : "has not arrived (unknown job id)";
    }
    if (state.status === RUNNING) return "is running, not waiting";
    if (state.status === WAITING) return "is waiting, not running";
    return "has already ended";
  }

  private violation(jobId: number, resource: string, detail: string): ConstraintViolationError {
    return new ConstraintViolationError(this.opts.where, jobId, resource, detail);
  }

  // ---- guards ------------------------------------------------------------------------------

  private countEvent(): void {
    const budget = this.opts.maxEvents ?? BASE_EVENT_BUDGET + EVENTS_PER_JOB * this.read;
    if (++this.events > budget) {
      const what =
        this.opts.maxEvents === null
          ? `the default budget of options.maxEvents (${BASE_EVENT_BUDGET} + ${EVENTS_PER_JOB} per job read: ${budget})`
          : `options.maxEvents (${budget})`;
      throw new LimitExceededError(
        this.opts.where,
        `policy "${this.scheduler.name}" did not finish within ${what} events, at t=${this.clock.now}; ${this.jobsNow()}; does it keep setting timers (wakeAt) or preempting? Raise options.maxEvents if the run is meant to be that long`,
        { limit: "options.maxEvents" },
      );
    }
  }

  /** After a schedule call: counts calls in a row in which no job made progress. */
  private checkStall(): void {
    if (this.progressed) {
      this.progressed = false;
      this.stalled = 0;
      return;
    }
    if (++this.stalled > this.opts.maxStalledEvents) {
      throw new LimitExceededError(
        this.opts.where,
        `policy "${this.scheduler.name}" made no progress in ${this.opts.maxStalledEvents} schedule calls in a row (no job arrived, ran, completed or was rejected), at t=${this.clock.now}; ${this.jobsNow()}; it keeps waking itself (wakeAt) without starting a job (options.maxStalledEvents sets the bound)`,
        { limit: "options.maxStalledEvents" },
      );
    }
  }

  /** "2 jobs waiting (ids 4, 7), none running", for error messages. */
  private jobsNow(): string {
    const waiting = this.waiting.live().map((e) => e.job.id);
    for (const e of this.pendingWaiting) if (!e.removed) waiting.push(e.job.id);
    const running: number[] = [];
    for (const e of this.running) if (!e.removed) running.push(e.job.id);
    const part = (ids: number[], what: string) =>
      ids.length === 0
        ? `none ${what}`
        : `${ids.length} job${ids.length === 1 ? "" : "s"} ${what} (${ids.length === 1 ? "id" : "ids"} ${listIds(ids, ids.length)})`;
    return `${part(waiting, "waiting")}, ${part(running, "running")}`;
  }

  /** A policy's own exception (not one of ours), with the policy, the time and the jobs. */
  private policyFailure(error: unknown, phase: "reset" | "schedule"): unknown {
    if (error instanceof SchedError) return error;
    const detail = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    const jobs: number[] = [];
    if (this.lastActedOn !== null) jobs.push(this.lastActedOn);
    for (const list of [this.arrived, this.completed, this.ready]) {
      for (const j of list) if (!jobs.includes(j.id)) jobs.push(j.id);
    }
    const context =
      phase === "reset"
        ? "in reset(platform), before the run"
        : `at t=${this.clock.now}${this.lastActedOn === null ? "" : `, after acting on job ${this.lastActedOn}`}${
            this.arrived.length > 0
              ? `, ${this.arrived.length} arrived (${listIds(
                  this.arrived.map((j) => j.id),
                  this.arrived.length,
                )})`
              : ""
          }${
            this.completed.length > 0
              ? `, ${this.completed.length} completed (${listIds(
                  this.completed.map((j) => j.id),
                  this.completed.length,
                )})`
              : ""
          }${this.woken ? ", woken by its timer" : ""}`;
    return new PolicyError(
      this.opts.where,
      { policy: this.scheduler.name, time: this.clock.now, jobIds: jobs },
      `policy "${this.scheduler.name}" threw ${context}: ${detail}`,
      { cause: error },
    );
  }

  // ---- the loop ------------------------------------------------------------------------------

  private loop(): void {
    if (this.ended) return;
    const heap = this.heap;
    const until = this.opts.until;
    const usage = this.usage;
    for (;;) {
      // Drop stale completions at the top of the heap.
      let top = heap.top();
      while (top !== undefined && top.kind === COMPLETION && top.payload!.version !== top.version) {
        heap.pop();
        top = heap.top();
      }
      const tHeap = top === undefined ? Number.POSITIVE_INFINITY : top.time;
      const next = this.peek();
      const tArrival = next === null ? Number.POSITIVE_INFINITY : next.submit;
      const t = Math.min(tHeap, tArrival);
      // While more input may come, a time is processed only once a later submit was read: the
      // arrivals at `t` are then all known.
      // Past the horizon only a submit after it is needed.
      if (!this.inputClosed && !this.readPast(Math.min(t, until))) return;
      if (t === Number.POSITIVE_INFINITY) break;
      if (t > until) {
        this.horizon = until;
        break;
      }
      // Progress since the previous batch: a job ran while the clock moved.
      if (t > this.lastBatch && this.running.length > this.runningRemoved) this.progressed = true;
      this.lastBatch = t;
      this.clock.now = t;
      usage?.at(t);
      let happened = false;
      let timerFired = false;
      // Completions (and timers / ready times, whose effect is applied after the arrivals).
      for (let e = heap.top(); e !== undefined && e.time === t; e = heap.top()) {
        const kind = e.kind;
        const state = e.payload;
        const version = e.version;
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
          this.progressed = true;
          happened = true;
        }
      }
      // Arrivals.
      for (let job = this.peek(); job !== null && job.submit === t; job = this.peek()) {
        this.countEvent();
        this.arrive(this.take());
        happened = true;
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
    this.ended = true;
    // Jobs after the horizon are not read.
    this.endSource();
    clear(this.ahead);
    this.aheadHead = 0;
  }

  private arrive(job: Job): void {
    const record: MutableRecord = {
      job,
      intervals: NO_INTERVALS,
      end: null,
      outcome: "unfinished",
    };
    // A streamed run that passes records to no one keeps none.
    if (this.opts.keepRecords || this.emitting) this.records.push(record);
    this.arrivals++;
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
    this.waiting.insert(entry);
    this.arrived.push(job);
    this.progressed = true;
    this.usage?.enter();
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
    this.ledger[GIVE_TAKEN](state.job, r.allocation);
    const rec = state.record;
    addInterval(rec, { start: r.start, end: t, allocation: r.allocation });
    rec.end = t;
    rec.outcome = "completed";
    state.status = DONE;
    state.rEntry = null;
    state.progress = 1;
    this.states.delete(state.job.id);
    this.completed.push(state.job);
    this.progressed = true;
    const usage = this.usage;
    if (usage !== null) {
      usage.release(r.allocation);
      usage.leave();
    }
    if (this.emitting) this.emitEnded();
  }

  /** Emits the records at the head of the input order that have ended. */
  private emitEnded(): void {
    const records = this.records;
    let head = this.recordsHead;
    while (head < records.length && records[head]!.outcome !== "unfinished") {
      this.emit(records[head]!);
      head++;
    }
    this.recordsHead = head;
    if (!this.opts.keepRecords && head > 1024 && head * 2 > records.length) {
      // Drop the emitted prefix: one move of the rest, amortised O(1) per record.
      records.copyWithin(0, head);
      records.length -= head;
      this.recordsHead = 0;
    }
  }

  private emit(record: MutableRecord): void {
    if (record.intervals === NO_INTERVALS) record.intervals = [];
    this.metrics?.add(record);
    this.opts.onRecord?.(record);
  }

  private callScheduler(): void {
    this.inCall = true;
    this.waiting.beginCall();
    this.runningFrozen = false;
    this.lastActedOn = null;
    const t0 = timer.now();
    try {
      this.scheduler.schedule(this.ctx);
    } catch (error) {
      throw this.policyFailure(error, "schedule");
    } finally {
      this.schedulerMs += timer.now() - t0;
      this.inCall = false;
    }
    this.decisions++;
    for (let i = 0; i < this.pendingWaiting.length; i++) {
      const e = this.pendingWaiting[i]!;
      e.pending = false;
      // A job preempted and restarted (or rejected) in the same call has left already.
      if (!e.removed) this.waiting.insert(e);
    }
    clear(this.pendingWaiting);
    this.checkStall();
    clear(this.arrived);
    clear(this.completed);
    clear(this.ready);
    this.woken = false;
    // Amortised clean-up so removed entries do not pile up when the policy never reads a list.
    this.waiting.tidy();
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
    const where = this.opts.where;
    const factors = this.opts.slowdowns!(running, this.platform);
    if (factors === null || typeof factors !== "object" || factors.length !== running.length) {
      throw new InvalidInputError(
        where,
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
          where,
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

  private result(): EngineResult {
    const horizon = this.horizon;
    const usage = this.usage;
    if (horizon !== undefined) {
      usage?.at(horizon);
      for (const state of this.states.list()) {
        if (state.status === RUNNING) {
          const r = state.rEntry!;
          if (horizon > r.start) {
            addInterval(state.record, { start: r.start, end: horizon, allocation: r.allocation });
            usage?.ended();
          }
          usage?.release(r.allocation);
        }
      }
    }
    const records = this.records;
    if (this.emitting) {
      for (let i = this.recordsHead; i < records.length; i++) this.emit(records[i]!);
      this.recordsHead = records.length;
    } else {
      for (let i = 0; i < records.length; i++) {
        if (records[i]!.intervals === NO_INTERVALS) records[i]!.intervals = [];
      }
    }
    const stats = { events: this.events, decisions: this.decisions, schedulerMs: this.schedulerMs };
    let metrics: Metrics | undefined;
    const acc = this.metrics;
    if (acc !== null) {
      const { to } = acc.window(horizon);
      const machineUsage = usage!.finish(to, acc.unfinishedCount);
      metrics = acc.result(machineUsage, horizon, stats);
    }
    const result: {
      -readonly [K in keyof EngineResult]: EngineResult[K];
    } = {
      scheduler: this.scheduler.name,
      platform: this.platform,
      records: this.opts.keepRecords ? records : [],
      jobs: this.arrivals,
      stats,
    };
    if (horizon !== undefined) result.horizon = horizon;
    if (metrics !== undefined) result.metrics = metrics;
    if (!this.opts.keepRecords) this.records = [];
    return result;
  }

  /** The trace of a run whose records were kept. */
  trace(): ScheduleTrace {
    const r = this.finish();
    const trace: {
      scheduler: string;
      platform: Platform;
      records: readonly JobRecord[];
      stats: RunStats;
      horizon?: number;
    } = { scheduler: r.scheduler, platform: r.platform, records: r.records, stats: r.stats };
    if (r.horizon !== undefined) trace.horizon = r.horizon;
    return trace;
  }
}
