import {
  type Interval,
  InvalidInputError,
  identicalPool,
  type Job,
  type JobRecord,
  MetricSums,
  type Outcome,
  type Platform,
  type Simulation,
  type SimulationSummary,
} from "@sched/core";

/**
 * The policies the pooled kernel runs: `@sched/backfill`'s `easy()` and `fcfs()` with their
 * default options (FCFS queue order, no license, any machines).
 */
export type PooledPolicy = "easy" | "fcfs";

/**
 * Jobs as columns (struct of arrays): job `i < count` is `id[i]`, submitted at `submit[i]`,
 * running `runtime[i]` with estimate `estimate[i]` on `cores[i]` processors.
 */
export interface JobColumns {
  readonly id: Float64Array;
  readonly submit: Float64Array;
  readonly runtime: Float64Array;
  readonly estimate: Float64Array;
  readonly cores: Float64Array;
  /** Jobs in the columns (each array holds at least this many). */
  readonly count: number;
}

/** A simulation of the pooled kernel: `Simulation`'s `push` and `end`, and `pushColumns`. */
export interface PooledSimulation extends Simulation {
  /**
   * `push` of the jobs in `columns` (rigid jobs, without the optional fields of a `Job`), read
   * from the arrays, which may be reused once it returns.
   * @throws as `push`.
   */
  pushColumns(columns: JobColumns): void;
}

/** Options of {@link createPooledSimulation}. */
export interface PooledSimulationOptions {
  /** The policy, as `easy()` or `fcfs()` of `@sched/backfill` with default options. */
  readonly policy: PooledPolicy;
  /** Processors of the pool: `identicalPool(procs)` (single-core machines of speed 1). */
  readonly procs: number;
  /**
   * Called with each job's record once it and every job read before it have ended (input order),
   * as `createSimulation`'s `onRecord`. The record object is reused from call to call: read it
   * during the call, do not keep it.
   * @defaultValue none
   */
  readonly onRecord?: (record: JobRecord) => void;
}

const WHERE = "sched-sim/createPooledSimulation";

const WAITING = 0;
const RUNNING = 1;
const COMPLETED = 2;
const REJECTED = 3;

const NO_INTERVALS: readonly Interval[] = Object.freeze([]);
const NO_ALLOCATION = Object.freeze([]);

/** A record object reused for every `onRecord` call (fields rewritten each time). */
interface ScratchRecord {
  job: { id: number; submit: number; runtime: number; estimate: number; cores: number };
  intervals: readonly Interval[];
  end: number | null;
  outcome: Outcome;
  /** Always present (undefined unless rejected), so the object keeps one shape. */
  reason: string | undefined;
}

/**
 * Whether the pooled kernel models `job`: no ready time, deadline, licences or benchmark (what
 * {@link createPooledSimulation} refuses). A native workload's runs check each job with it and
 * go to the general engine at the first that fails (`run --engine auto`, a sweep's run).
 */
export function pooledModels(job: Job): boolean {
  return (
    job.ready === undefined &&
    job.deadline === undefined &&
    job.licenses === undefined &&
    job.benchmark === undefined
  );
}

/**
 * EASY backfilling or FCFS on one pool of `procs` identical single-core machines, simulated on
 * typed arrays: the same schedule, records (in the same order), event and decision counts and
 * metrics (bit for bit) as `createSimulation(identicalPool(procs), easy() | fcfs(), { onRecord })`
 * of `@sched/core` and `@sched/backfill`, for rigid jobs without ready times, deadlines,
 * licenses or benchmarks (the jobs an SWF trace gives). Property tests compare the two on random
 * traces full of ties; `docs` of the CLI (`--engine`) say when `sched-sim run` uses it.
 *
 * What it replicates, and how:
 * - the engine's loop: at each time, the completions, then the arrivals (input order), then one
 *   scheduling pass; the clock never passes the last submit read while the input is open;
 * - the queue in (submit, id) order; jobs wider than the pool rejected when they arrive
 *   ("needs N cores, the platform has P");
 * - EASY: jobs start in queue order while they fit the free cores; the first that does not gets
 *   the reservation at the earliest time its cores are free for its estimate in the plan (running
 *   jobs give their cores back at start + estimate, or now once past it); later jobs start when
 *   they fit now and in the plan for their estimate (the reservation held), else are passed by;
 *   FCFS stops at the first job that does not fit;
 * - the metrics of `@sched/core` (`tau` 10 s): its `MetricSums`, fed in input order as its
 *   engine feeds them (so every formula is core's), and its machine usage (busy processors over
 *   min(processors, jobs in the system), integrated over the change points in time order; a
 *   sweep of its own, on the kernel's counters, rather than core's per-machine `UsageTracker`).
 *
 * Memory: the jobs from the oldest one not yet ended to the last one read (typed arrays), plus
 * the queue, the running jobs and the plan. Time: O(Q + R) per scheduling pass for Q waiting and
 * R running jobs, O(log R) per completion.
 *
 * @throws InvalidInputError naming the job (its position in the input) when a job is not a
 * valid rigid job (finite submit >= the previous one, runtime and estimate > 0, cores an integer
 * >= 1) or uses a feature the kernel does not model (ready time, deadline, licenses, benchmark);
 * or when `procs` is not an integer >= 1.
 */
export function createPooledSimulation(options: PooledSimulationOptions): PooledSimulation {
  const sim = new PooledKernel(options);
  return {
    push: (jobs) => sim.push(jobs),
    pushColumns: (columns) => sim.pushColumns(columns),
    end: () => sim.end(),
  };
}

/** The number fields of {@link PooledKernel} that hold fractions (see its constructor). */
const FRACTIONAL_FIELDS = [
  "now",
  "lastSubmit",
  "schedulerMs",
  "uTime",
  "uPrevTime",
  "uPrevShare",
  "uWeighted",
  "uCovered",
  "busy",
] as const;

/** The integer fields of {@link PooledKernel} that change (see its constructor). */
const INTEGER_FIELDS = [
  "base",
  "cap",
  "read",
  "arrived",
  "emitted",
  "qlen",
  "rlen",
  "hlen",
  "events",
  "decisions",
  "inSystem",
] as const;

/** The flags and typed arrays of {@link PooledKernel} that change (see its constructor). */
const FLAG_FIELDS = ["closed", "done", "failed", "uChanged"] as const;
const FLOAT_ARRAY_FIELDS = [
  "id",
  "submit",
  "runtime",
  "estimate",
  "cores",
  "start",
  "finish",
  "runEst",
  "runCores",
  "heapTime",
] as const;
const INT_ARRAY_FIELDS = ["queue", "runJob", "heapJob"] as const;

class PooledKernel {
  private readonly procs: number;
  private readonly easy: boolean;
  private readonly onRecord: ((record: JobRecord) => void) | null;
  private readonly scratch: ScratchRecord;
  private readonly oneInterval: { start: number; end: number; allocation: typeof NO_ALLOCATION };
  private readonly intervalList: Interval[];

  // Jobs, struct of arrays, indexed by `k - base` for the k-th job read (k from 0).
  private base = 0;
  private cap = 1024;
  private id = new Float64Array(this.cap);
  private submit = new Float64Array(this.cap);
  private runtime = new Float64Array(this.cap);
  private estimate = new Float64Array(this.cap);
  private cores = new Float64Array(this.cap);
  private start = new Float64Array(this.cap);
  private finish = new Float64Array(this.cap);
  private status = new Uint8Array(this.cap);
  /** Jobs read. */
  private read = 0;
  /** Jobs arrived (the next to arrive is `arrived`). */
  private arrived = 0;
  /** Records passed on (the next is `emitted`). */
  private emitted = 0;
  private lastSubmit = Number.NEGATIVE_INFINITY;
  private closed = false;
  private done = false;
  private failed = false;

  // The waiting queue: job numbers k in (submit, id) order.
  // Room for 1024 from the start: its growth runs in `arrive` after V8 has compiled it without
  // feedback for it, and would deoptimize it (KTH-SP2's queue reaches a few hundred jobs).
  private queue = new Int32Array(1024);
  private qlen = 0;
  // Jobs arrived in the current batch that are wider than the pool (rejected by the pass).
  private wide: number[] = [];

  // Running jobs sorted by estimated end: that end, cores, job number.
  private runEst = new Float64Array(64);
  private runCores = new Float64Array(64);
  private runJob = new Int32Array(64);
  private rlen = 0;
  private busy = 0;

  // Completions: a binary heap of (end time, job number).
  private heapTime = new Float64Array(64);
  private heapJob = new Int32Array(64);
  private hlen = 0;

  private now = 0;
  private events = 0;
  private decisions = 0;
  private schedulerMs = 0;

  /** The metrics' sums, fed as records are passed on (as the engine's metrics feed them). */
  private readonly sums: MetricSums;

  // Machine usage (`UsageTracker` on single-core machines: active machines = busy processors).
  private uTime = Number.NaN;
  private uChanged = false;
  private inSystem = 0;
  private uPrevTime = Number.NaN;
  private uPrevShare = -1;
  private uWeighted = 0;
  private uCovered = 0;

  constructor(options: PooledSimulationOptions) {
    const procs = options?.procs;
    if (typeof procs !== "number" || !Number.isInteger(procs) || procs < 1) {
      throw new InvalidInputError(
        WHERE,
        "options.procs",
        `is ${String(procs)}, expected an integer >= 1`,
      );
    }
    if (options.policy !== "easy" && options.policy !== "fcfs") {
      throw new InvalidInputError(
        WHERE,
        "options.policy",
        `is ${JSON.stringify(options.policy)}, expected "easy" or "fcfs"`,
      );
    }
    const onRecord = options.onRecord ?? null;
    if (onRecord !== null && typeof onRecord !== "function") {
      throw new InvalidInputError(WHERE, "options.onRecord", "is not a function");
    }
    // V8 fixes a field's representation at its first store, and takes a field that was never
    // stored again for a constant; a later store that widens the representation (a fraction into
    // an integer field) or changes such a "constant" changes the object's hidden class, which
    // deoptimizes every method compiled against it (measured: each kernel method compiled two or
    // three times in a run). So every field that will change changes here, before any method
    // runs, and the fields that will hold fractions hold one.
    for (const key of FRACTIONAL_FIELDS) {
      const initial = this[key];
      this[key] = 0.5;
      this[key] = initial;
    }
    for (const key of INTEGER_FIELDS) {
      const initial = this[key];
      this[key] = initial + 1;
      this[key] = initial;
    }
    for (const key of FLAG_FIELDS) {
      const initial = this[key];
      this[key] = !initial;
      this[key] = initial;
    }
    for (const key of FLOAT_ARRAY_FIELDS) this[key] = this[key].slice();
    for (const key of INT_ARRAY_FIELDS) this[key] = this[key].slice();
    this.status = this.status.slice();
    this.procs = procs;
    this.sums = new MetricSums(procs);
    this.easy = options.policy === "easy";
    this.onRecord = onRecord;
    this.oneInterval = { start: 0, end: 0, allocation: NO_ALLOCATION };
    this.intervalList = [this.oneInterval];
    this.scratch = {
      job: { id: 0, submit: 0, runtime: 0, estimate: 0, cores: 0 },
      intervals: NO_INTERVALS,
      end: null,
      outcome: "completed",
      reason: undefined,
    };
  }

  // ---- input ---------------------------------------------------------------------------------

  push(jobs: Iterable<Job>): void {
    this.guard();
    try {
      if (Array.isArray(jobs)) {
        const list = jobs as readonly Job[];
        for (let i = 0; i < list.length; i++) this.add(list[i]!);
      } else {
        if (jobs === null || typeof jobs !== "object" || !(Symbol.iterator in Object(jobs))) {
          throw new InvalidInputError(WHERE, "push(jobs)", "is not an iterable of jobs");
        }
        for (const job of jobs) this.add(job);
      }
      this.loop();
    } catch (error) {
      this.failed = true;
      throw error;
    }
  }

  pushColumns(columns: JobColumns): void {
    this.guard();
    try {
      const { id, submit, runtime, estimate, cores, count } = columns;
      for (let i = 0; i < count; i++) {
        this.addFields(id[i]!, submit[i]!, runtime[i]!, estimate[i]!, cores[i]!);
      }
      this.loop();
    } catch (error) {
      this.failed = true;
      throw error;
    }
  }

  end(): SimulationSummary {
    this.guard();
    this.closed = true;
    try {
      this.loop();
    } catch (error) {
      this.failed = true;
      throw error;
    }
    // The last change point (the loop, closed, has run to the end).
    this.closeUsage();
    this.done = true;
    return this.summary();
  }

  private guard(): void {
    if (this.done)
      throw new InvalidInputError(WHERE, "simulation", "has ended already; start a new one");
    if (this.failed) {
      throw new InvalidInputError(
        WHERE,
        "simulation",
        "failed earlier (see the error it threw); start a new one",
      );
    }
  }

  private add(job: Job): void {
    if (job === null || typeof job !== "object") {
      throw new InvalidInputError(WHERE, `jobs[${this.read}]`, "is not a job");
    }
    if (!pooledModels(job)) {
      throw new InvalidInputError(
        WHERE,
        `jobs[${this.read}]`,
        "has a ready time, deadline, licenses or benchmark, which the pooled kernel does not model; use the general engine",
      );
    }
    this.addFields(job.id, job.submit, job.runtime, job.estimate, job.cores);
  }

  /** Checks one job's fields (as `add` names them) and stores them. */
  private addFields(
    id: number,
    submit: number,
    runtime: number,
    estimate: number,
    cores: number,
  ): void {
    // One test for the valid case; the message only for an invalid job.
    if (
      !(
        Number.isSafeInteger(id) &&
        typeof submit === "number" &&
        typeof runtime === "number" &&
        typeof estimate === "number" &&
        submit >= this.lastSubmit &&
        submit <= Number.MAX_VALUE &&
        runtime > 0 &&
        runtime <= Number.MAX_VALUE &&
        estimate > 0 &&
        estimate <= Number.MAX_VALUE &&
        Number.isSafeInteger(cores) &&
        cores >= 1
      )
    ) {
      this.invalid(id, submit, runtime, estimate, cores);
    }
    let s = this.read - this.base;
    if (s === this.cap) s = this.makeRoom();
    this.id[s] = id;
    this.submit[s] = submit;
    this.runtime[s] = runtime;
    this.estimate[s] = estimate;
    this.cores[s] = cores;
    this.status[s] = WAITING;
    this.lastSubmit = submit;
    this.read++;
  }

  /** The error for the job `addFields` found invalid: the first field that is. */
  private invalid(
    id: unknown,
    submit: unknown,
    runtime: unknown,
    estimate: unknown,
    cores: unknown,
  ): never {
    const at = `jobs[${this.read}]`;
    if (typeof id !== "number" || !Number.isSafeInteger(id)) {
      throw new InvalidInputError(WHERE, `${at}.id`, `is ${String(id)}, expected a safe integer`);
    }
    if (typeof submit !== "number" || !Number.isFinite(submit)) {
      throw new InvalidInputError(
        WHERE,
        `${at}.submit`,
        `is ${String(submit)}, expected a finite number`,
      );
    }
    if (!(submit >= this.lastSubmit)) {
      throw new InvalidInputError(
        WHERE,
        `${at} (job ${id}).submit`,
        `is ${submit}, before the previous job's submit ${this.lastSubmit}; jobs must be sorted by submit`,
      );
    }
    if (typeof runtime !== "number" || !(runtime > 0) || !Number.isFinite(runtime)) {
      throw new InvalidInputError(
        WHERE,
        `${at}.runtime`,
        `is ${String(runtime)}, expected a finite number > 0`,
      );
    }
    if (typeof estimate !== "number" || !(estimate > 0) || !Number.isFinite(estimate)) {
      throw new InvalidInputError(
        WHERE,
        `${at}.estimate`,
        `is ${String(estimate)}, expected a finite number > 0`,
      );
    }
    throw new InvalidInputError(
      WHERE,
      `${at}.cores`,
      `is ${String(cores)}, expected an integer >= 1`,
    );
  }

  /** Room for the next job read (the arrays are full): its slot. */
  private makeRoom(): number {
    // Drop the jobs already passed on; grow when more than half is still live.
    const drop = this.emitted - this.base;
    const live = this.read - this.emitted;
    const cap = live * 2 > this.cap ? this.cap * 2 : this.cap;
    const move = <T extends Float64Array | Uint8Array>(a: T, make: (n: number) => T): T => {
      if (cap === this.cap) {
        a.copyWithin(0, drop, drop + live);
        return a;
      }
      const b = make(cap);
      b.set(a.subarray(drop, drop + live));
      return b;
    };
    const f64 = (n: number) => new Float64Array(n);
    this.id = move(this.id, f64);
    this.submit = move(this.submit, f64);
    this.runtime = move(this.runtime, f64);
    this.estimate = move(this.estimate, f64);
    this.cores = move(this.cores, f64);
    this.start = move(this.start, f64);
    this.finish = move(this.finish, f64);
    this.status = move(this.status, (n) => new Uint8Array(n));
    this.cap = cap;
    this.base += drop;
    return this.read - this.base;
  }

  // ---- the loop (the engine's, for this case) ------------------------------------------------

  /** {@link PooledKernel.run}, its time added to `schedulerMs`. */
  private loop(): void {
    // `process.hrtime`, not `performance.now()`: the latter loads `perf_hooks` on first use.
    const t0 = process.hrtime.bigint();
    try {
      this.run();
    } finally {
      this.schedulerMs += Number(process.hrtime.bigint() - t0) / 1e6;
    }
  }

  /**
   * The engine's loop. No clock is read per decision: `schedulerMs` (wall clock, reported
   * apart from the deterministic outputs) is the time of the whole loop, passes and bookkeeping.
   */
  private run(): void {
    for (;;) {
      const tHeap = this.hlen === 0 ? Number.POSITIVE_INFINITY : this.heapTime[0]!;
      const tArrival =
        this.arrived < this.read
          ? this.submit[this.arrived - this.base]!
          : Number.POSITIVE_INFINITY;
      const t = Math.min(tHeap, tArrival);
      // While more input may come, a time is processed only once a later submit was read.
      if (!this.closed && !(this.lastSubmit > t)) return;
      if (t === Number.POSITIVE_INFINITY) break;
      this.now = t;
      if (t !== this.uTime) {
        this.closeUsage();
        this.uTime = t;
      }
      let happened = false;
      while (this.hlen > 0 && this.heapTime[0] === t) {
        const k = this.popCompletion();
        this.events++;
        this.complete(k, t);
        happened = true;
      }
      while (this.arrived < this.read && this.submit[this.arrived - this.base] === t) {
        this.events++;
        this.arrive(this.arrived++);
        happened = true;
      }
      if (happened) {
        if (this.wide.length > 0) this.rejectWide();
        if (this.easy) this.easyPass();
        else this.fcfsPass();
        this.decisions++;
      }
    }
  }

  private arrive(k: number): void {
    const s = k - this.base;
    this.inSystem++;
    this.uChanged = true;
    if (this.cores[s]! > this.procs) {
      this.wide.push(k);
      return;
    }
    // Queue order: submit, then id. Arrivals come in submit order, so only ties move.
    let q = this.qlen;
    if (q === this.queue.length) this.queue = grownInt32(this.queue);
    const queue = this.queue;
    const submit = this.submit[s]!;
    const id = this.id[s]!;
    const base = this.base;
    while (q > 0) {
      const p = queue[q - 1]! - base;
      const ps = this.submit[p]!;
      if (ps < submit || (ps === submit && this.id[p]! < id)) break;
      queue[q] = queue[q - 1]!;
      q--;
    }
    queue[q] = k;
    this.qlen++;
  }

  /** The pass's rejections: arrived jobs wider than the pool. */
  private rejectWide(): void {
    const wide = this.wide;
    for (let i = 0; i < wide.length; i++) {
      const s = wide[i]! - this.base;
      this.status[s] = REJECTED;
      this.finish[s] = this.now;
      this.inSystem--;
      this.uChanged = true;
    }
    wide.length = 0;
    this.emitEnded();
  }

  private startJob(k: number): void {
    const s = k - this.base;
    const now = this.now;
    const c = this.cores[s]!;
    this.status[s] = RUNNING;
    this.start[s] = now;
    this.busy += c;
    // The engine's times: now + (1 - progress) * duration, progress 0, speed 1.
    const estEnd = now + 1 * this.estimate[s]!;
    this.insertRunning(estEnd, c, k);
    this.pushCompletion(now + 1 * this.runtime[s]!, k);
  }

  private complete(k: number, t: number): void {
    const s = k - this.base;
    this.status[s] = COMPLETED;
    this.finish[s] = t;
    this.busy -= this.cores[s]!;
    this.inSystem--;
    this.uChanged = true;
    this.removeRunning(k);
    this.emitEnded();
  }

  // ---- the policies --------------------------------------------------------------------------

  /** `fcfs()`: start in queue order while the head fits the free cores. */
  private fcfsPass(): void {
    const queue = this.queue;
    let i = 0;
    for (; i < this.qlen; i++) {
      const k = queue[i]!;
      if (this.cores[k - this.base]! > this.procs - this.busy) break;
      this.startJob(k);
    }
    if (i > 0) {
      for (let j = i; j < this.qlen; j++) queue[j - i] = queue[j]!;
      this.qlen -= i;
    }
  }

  /**
   * `easy()`: `reservationDepth` of `@sched/backfill` with k = 1 in FCFS order. Jobs start in
   * queue order while they fit the free cores; the first that does not gets the reservation, and
   * each later job that fits the free cores starts when it fits the plan for its estimate.
   *
   * The plan is not built: on one pool it is decided by two numbers. Before the reservation it
   * is P(t), the free cores now plus the cores of every running job whose estimated end is at or
   * before t (now for a job past its estimate): non-decreasing. The reservation of the head job
   * (c cores for its estimate) is at `shadow`, the first of now and the release times where
   * P >= c (P never decreases, so the whole window fits from there), and takes c from
   * [shadow, shadow + estimate). A job started by the pass takes its cores over
   * [now, now + estimate). Over [now, shadow) the plan is non-decreasing (releases add, the starts
   * only end there), and so it is from shadow on, up to the end of the reservation, after which
   * it is higher again; its minimum over [now, now + d) is therefore its value now, which the
   * free cores bound (a job that fits them fits there), or, when the window reaches shadow
   * (now + d > shadow), its value at shadow: `extra` = P(shadow) - c less the cores of the jobs
   * started since whose window reaches shadow. So a job of c' <= free cores fits the plan exactly
   * when now + d <= shadow or c' <= extra: the textbook EASY test, equal to the profile's.
   */
  private easyPass(): void {
    const queue = this.queue;
    const qlen = this.qlen;
    const now = this.now;
    const base = this.base;
    const cores = this.cores;
    const estimate = this.estimate;
    let free = this.procs - this.busy;
    let reserved = false;
    let shadow = 0;
    let extra = 0;
    let kept = 0;
    let i = 0;
    for (; i < qlen; i++) {
      const k = queue[i]!;
      const s = k - base;
      const c = cores[s]!;
      if (c > free) {
        if (reserved) {
          // With no core free and the reservation made, no later job can start.
          if (free === 0) break;
        } else {
          reserved = true;
          // The reservation: the first time the plan has c cores.
          const est = this.runEst;
          const rc = this.runCores;
          const n = this.rlen;
          let level = free;
          let j = 0;
          while (j < n && est[j]! <= now) level += rc[j++]!;
          shadow = now;
          while (level < c) {
            // j < n: with every running job's cores back, the whole pool is free (>= c).
            shadow = est[j]!;
            while (j < n && est[j] === shadow) level += rc[j++]!;
          }
          extra = level - c;
        }
        queue[kept++] = k;
        continue;
      }
      if (reserved) {
        const end = now + estimate[s]!;
        if (shadow < end) {
          if (c > extra) {
            queue[kept++] = k;
            continue;
          }
          extra -= c;
        }
      }
      this.startJob(k);
      free = this.procs - this.busy;
    }
    if (kept < i) {
      for (let j = i; j < qlen; j++) queue[kept + j - i] = queue[j]!;
      this.qlen = kept + (qlen - i);
    }
  }

  // ---- running jobs and completions ----------------------------------------------------------

  // The running list is short (the jobs of one pool): plain loops move it, cheaper than
  // `copyWithin` calls at these lengths.
  private insertRunning(estEnd: number, c: number, k: number): void {
    if (this.rlen === this.runEst.length) {
      this.runEst = grownFloat64(this.runEst);
      this.runCores = grownFloat64(this.runCores);
      this.runJob = grownInt32(this.runJob);
    }
    const est = this.runEst;
    const rc = this.runCores;
    const rj = this.runJob;
    let i = this.rlen;
    while (i > 0 && est[i - 1]! > estEnd) {
      est[i] = est[i - 1]!;
      rc[i] = rc[i - 1]!;
      rj[i] = rj[i - 1]!;
      i--;
    }
    est[i] = estEnd;
    rc[i] = c;
    rj[i] = k;
    this.rlen++;
  }

  private removeRunning(k: number): void {
    const est = this.runEst;
    const rc = this.runCores;
    const rj = this.runJob;
    const n = --this.rlen;
    let i = 0;
    while (rj[i] !== k) i++;
    for (; i < n; i++) {
      est[i] = est[i + 1]!;
      rc[i] = rc[i + 1]!;
      rj[i] = rj[i + 1]!;
    }
  }

  private pushCompletion(t: number, k: number): void {
    if (this.hlen === this.heapTime.length) {
      this.heapTime = grownFloat64(this.heapTime);
      this.heapJob = grownInt32(this.heapJob);
    }
    const ht = this.heapTime;
    const hj = this.heapJob;
    let i = this.hlen++;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (ht[p]! <= t) break;
      ht[i] = ht[p]!;
      hj[i] = hj[p]!;
      i = p;
    }
    ht[i] = t;
    hj[i] = k;
  }

  private popCompletion(): number {
    const ht = this.heapTime;
    const hj = this.heapJob;
    const top = hj[0]!;
    const n = --this.hlen;
    if (n > 0) {
      const t = ht[n]!;
      const k = hj[n]!;
      let i = 0;
      for (;;) {
        let c = 2 * i + 1;
        if (c >= n) break;
        if (c + 1 < n && ht[c + 1]! < ht[c]!) c++;
        if (ht[c]! >= t) break;
        ht[i] = ht[c]!;
        hj[i] = hj[c]!;
        i = c;
      }
      ht[i] = t;
      hj[i] = k;
    }
    return top;
  }

  // ---- records and metrics -------------------------------------------------------------------

  /** Passes on the records at the head of the input order that have ended. */
  private emitEnded(): void {
    while (this.emitted < this.arrived) {
      const s = this.emitted - this.base;
      const status = this.status[s]!;
      if (status !== COMPLETED && status !== REJECTED) return;
      this.emit(s, status);
      this.emitted++;
    }
  }

  /**
   * The record of slot `s` added to the metrics' sums (one interval: `addCompletedRun`, the call
   * core's engine makes for such a record), then passed to `onRecord`.
   */
  private emit(s: number, status: number): void {
    const submit = this.submit[s]!;
    const cores = this.cores[s]!;
    const end = this.finish[s]!;
    const sums = this.sums;
    let start = 0;
    if (status === COMPLETED) {
      start = this.start[s]!;
      sums.addCompletedRun(submit, start, end, cores);
    } else {
      sums.addRejected(submit, end);
    }
    const onRecord = this.onRecord;
    if (onRecord === null) return;
    const r = this.scratch;
    const job = r.job;
    job.id = this.id[s]!;
    job.submit = submit;
    job.runtime = this.runtime[s]!;
    job.estimate = this.estimate[s]!;
    job.cores = cores;
    r.end = end;
    if (status === COMPLETED) {
      this.oneInterval.start = start;
      this.oneInterval.end = end;
      r.intervals = this.intervalList;
      r.outcome = "completed";
      r.reason = undefined;
    } else {
      r.intervals = NO_INTERVALS;
      r.outcome = "rejected";
      r.reason = `needs ${cores} cores, the platform has ${this.procs}`;
    }
    onRecord(r as unknown as JobRecord);
  }

  /** Closes the changes at the usage clock's time: one change point when something changed. */
  private closeUsage(): void {
    if (Number.isNaN(this.uTime) || !this.uChanged) return;
    this.uChanged = false;
    const t = this.uTime;
    if (this.uPrevShare >= 0) {
      const start = this.uPrevTime;
      if (t > start) {
        this.uWeighted += this.uPrevShare * (t - start);
        this.uCovered += t - start;
      }
    }
    this.uPrevTime = t;
    const inSystem = this.inSystem;
    this.uPrevShare = inSystem > 0 ? Math.min(this.busy / Math.min(this.procs, inSystem), 1) : -1;
  }

  private summary(): SimulationSummary {
    const stats = { events: this.events, decisions: this.decisions, schedulerMs: this.schedulerMs };
    const machineUsage = this.uCovered > 0 ? this.uWeighted / this.uCovered : Number.NaN;
    const metrics = this.sums.metrics({ machineUsage, stats });
    const procs = this.procs;
    let platform: Platform | undefined;
    return {
      scheduler: this.easy ? "easy" : "fcfs",
      // `identicalPool(procs)`, built when first read: `sched-sim run` never reads it, and
      // building it (a frozen machine per processor, checked) is cold code its run can skip.
      get platform(): Platform {
        platform ??= identicalPool(procs);
        return platform;
      },
      jobs: metrics.jobs,
      stats,
      metrics,
    };
  }
}

function grownFloat64(a: Float64Array): Float64Array<ArrayBuffer> {
  const b = new Float64Array(a.length * 2);
  b.set(a);
  return b;
}

function grownInt32(a: Int32Array): Int32Array<ArrayBuffer> {
  const b = new Int32Array(a.length * 2);
  b.set(a);
  return b;
}
