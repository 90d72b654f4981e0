import {
  type Allocation,
  type InputData,
  InvalidInputError,
  type Job,
  type LicenseRequest,
  type Platform,
  ResourceLedger,
  SchedError,
  validatePlatform,
} from "@sched/core";
import {
  describeValue,
  type OptionKeys,
  optionKeys,
  refuseMisspeltKeys,
  requireKnownKeys,
} from "@sched/errors";
import type { MatrixJob } from "./heuristic.js";
import {
  type ConvergentOptions,
  PASS_KEYS,
  type ResolvedConvergentOptions,
  resolveOptions,
  samePlanning,
} from "./options.js";
import { type PlannerActions, PlannerCore, type WaitingRow } from "./planner.js";

const WHERE = "@sched/convergent/convergentPass";

/** A waiting job, as {@link convergentPass} reads it. */
export interface ConvergentQueuedJob {
  readonly id: number;
  /** Cores it needs, all on one machine (an integer >= 1). */
  readonly cores: number;
  /** Its estimated run time at its benchmark (a duration > 0): the paper's `Estimated_i`. */
  readonly estimate: number;
  /** When it was submitted (anti-aging counts from it; rows are ordered by it, then by id). */
  readonly submit: number;
  /** It may not start before this time. @defaultValue `submit` */
  readonly ready?: number;
  /** Its deadline (the Deadline heuristic). @defaultValue none */
  readonly deadline?: number;
  /** License copies it needs while it runs, by license name. @defaultValue none */
  readonly licenses?: LicenseRequest;
  /** Its input data: `size` bytes on machine `machine` (the Input heuristic). @defaultValue none */
  readonly input?: readonly InputData[];
  /** The benchmark `estimate` refers to (`BM_ref`). @defaultValue the platform's reference speed */
  readonly benchmark?: number;
  /** Fraction of its work already done (a preempted job), in [0, 1). @defaultValue `0` */
  readonly progress?: number;
}

/** A running job, as {@link convergentPass} reads it: a queued job's fields plus its machine. */
export interface ConvergentRunningJob extends Omit<ConvergentQueuedJob, "progress"> {
  /** The machine it runs on (one job per machine). */
  readonly machine: number;
  /** Fraction of its work done now, in [0, 1]. @defaultValue `0` */
  readonly progress?: number;
}

/**
 * The state of a computing farm at one instant, as {@link convergentPass} reads it. Times
 * (`now`, `submit`, `ready`, `deadline`) are instants and `estimate` a duration, in one unit
 * (the paper's: seconds). Free cores and free license copies are what the platform has minus
 * what the running jobs hold (a floating license from its pool, a node-locked one on the job's
 * machine), or `freeLicenses` for floating licenses.
 */
export interface ConvergentState {
  /** The current time. */
  readonly now: number;
  /** The machines (cores, speed), clusters, links and licenses, as `createPlatform` builds them. */
  readonly platform: Platform;
  readonly running: readonly ConvergentRunningJob[];
  /** The waiting jobs, in queue order (rejections are listed in it). */
  readonly queue: readonly ConvergentQueuedJob[];
  /**
   * Free copies of floating licenses now, by name, as a license server reports them: copies
   * held outside the running jobs of `state` (other users, interactive sessions) count as
   * taken when the planned jobs start. The plan itself (the Licenses heuristic, the knapsack)
   * is over the platform's copies, as in the paper.
   * @defaultValue the platform's copies minus those the running jobs hold
   */
  readonly freeLicenses?: Readonly<Record<string, number>>;
  /**
   * The `memory` the previous decision returned: the previous plan (the overhead heuristic's
   * associations, the incremental matrix and IMFS's matching) and the license clustering. With
   * it, a chain of calls decides exactly as the `convergent()` scheduler does event by event;
   * without it, the call is a first decision (no previous plan). A memory is used once: pass
   * the one the latest decision returned.
   * @defaultValue none: a first decision
   */
  readonly memory?: ConvergentMemory;
}

/** The keys of {@link ConvergentState}, all of them (checked by the compiler). */
const STATE_KEYS = optionKeys<ConvergentState>({
  now: true,
  platform: true,
  running: true,
  queue: true,
  freeLicenses: true,
  memory: true,
});

/**
 * The fields of the records of a state, all of them (checked by the compiler): a record may carry
 * fields of the caller's own, but not a near miss of a field it lacks (`dedline`).
 */
const QUEUED_KEYS = optionKeys<ConvergentQueuedJob>({
  id: true,
  cores: true,
  estimate: true,
  submit: true,
  ready: true,
  deadline: true,
  licenses: true,
  input: true,
  benchmark: true,
  progress: true,
});
const RUNNING_KEYS = optionKeys<ConvergentRunningJob>({ ...QUEUED_KEYS.record, machine: true });
const INPUT_KEYS = optionKeys<InputData>({ size: true, machine: true });

/** What {@link convergentPass} decided. */
export interface ConvergentDecision {
  /** Ids of the jobs to start now, in the order to start them (after the preemptions). */
  readonly start: readonly number[];
  /** The allocation of each job of `start` (same index): one machine, all its cores. */
  readonly allocations: readonly Allocation[];
  /**
   * Ids of the running jobs to preempt (progress kept), before the starts: the plan moves
   * them to another machine or leaves them out. Only with preemption.
   */
  readonly preempted: readonly number[];
  /** The preempted jobs that start again now on another machine (in `start` too): migrations. */
  readonly migrated: readonly number[];
  /** Jobs no machine can ever run (cores on one machine, licenses): drop them from the queue. */
  readonly rejected: readonly { readonly id: number; readonly reason: string }[];
  /**
   * The plan: the machine of every job (running or ready) the matching associated with one,
   * by submit time then id. A planned job whose machine is busy or whose licenses are taken
   * waits for the next decision.
   */
  readonly assignments: readonly { readonly id: number; readonly machine: number }[];
  /** Jobs the license pre-matching (the knapsack over critical floating licenses) cleared. */
  readonly cleared: readonly number[];
  /** The critical floating licenses (more copies asked for than exist), sorted by name. */
  readonly critical: readonly string[];
  /** Call again at this time even if nothing happens: a queued job becomes ready. */
  readonly wakeAt?: number;
  /** Give it back as `state.memory` at the next call. */
  readonly memory: ConvergentMemory;
}

/** Options of {@link convergentPass}: the scheduler's options but its name. */
export type ConvergentPassOptions = Omit<ConvergentOptions, "name">;

/**
 * What a chain of {@link convergentPass} calls keeps between decisions (the planner's memory),
 * opaque: take it from a decision and give it to the next call, once.
 */
export interface ConvergentMemory {
  readonly kind: "convergent-memory";
}

/** What a memory holds (kept out of the opaque object). */
interface ConvergentMemoryContents {
  readonly core: PlannerCore;
  readonly platform: Platform;
  readonly text: string;
  readonly jobs: Map<number, Job>;
  spent: boolean;
}

const heldBy = new WeakMap<ConvergentMemory, ConvergentMemoryContents>();

/**
 * The planner, platform and jobs `memory` holds, checked for a call with `options` (the caller
 * marks it used once the state is read).
 */
function checkMemory(
  memory: unknown,
  options: ResolvedConvergentOptions,
): ConvergentMemoryContents {
  const held =
    typeof memory === "object" && memory !== null
      ? heldBy.get(memory as ConvergentMemory)
      : undefined;
  if (held === undefined) fail("state.memory", "is not a memory returned by convergentPass");
  if (held.spent)
    fail(
      "state.memory",
      "was already given to a call: pass the memory the latest decision returned",
    );
  if (!samePlanning(held.core.options, options))
    fail("state.memory", "was made with other options: pass the same options at every call");
  return held;
}

/** A new memory holding `held`. */
function memoryOf(held: Omit<ConvergentMemoryContents, "spent">): ConvergentMemory {
  const memory: ConvergentMemory = Object.freeze({ kind: "convergent-memory" });
  heldBy.set(memory, { ...held, spent: false });
  return memory;
}

function fail(field: string, message: string): never {
  throw new InvalidInputError(WHERE, field, message);
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function finite(field: string, v: unknown): number {
  if (typeof v !== "number" || !Number.isFinite(v))
    fail(field, `is ${describeValue(v)}, expected a finite number`);
  return v;
}

function positive(field: string, v: unknown): number {
  if (typeof v !== "number" || !Number.isFinite(v) || !(v > 0))
    fail(field, `is ${describeValue(v)}, expected a finite number > 0`);
  return v;
}

function integer(field: string, v: unknown, min: number): number {
  if (typeof v !== "number" || !Number.isSafeInteger(v) || v < min)
    fail(field, `is ${describeValue(v)}, expected an integer >= ${min}`);
  return v;
}

function fraction(field: string, v: unknown, closed: boolean): number {
  if (v === undefined) return 0;
  if (typeof v !== "number" || !(v >= 0) || !(closed ? v <= 1 : v < 1))
    fail(field, `is ${describeValue(v)}, expected a number in [0, 1${closed ? "]" : ")"}`);
  return v;
}

/**
 * The job of a plain record, validated; the previous call's Job object when every field is the
 * same (so the planner's per-job caches stay valid).
 */
function jobOf(
  field: string,
  raw: ConvergentQueuedJob | ConvergentRunningJob,
  known: OptionKeys,
  machines: number,
  previous: Job | undefined,
): Job {
  if (!isObject(raw)) fail(field, `is ${describeValue(raw)}, expected a job object`);
  refuseMisspeltKeys(WHERE, field, raw, known);
  const id = integer(`${field}.id`, raw.id, 0);
  const submit = finite(`${field}.submit`, raw.submit);
  const estimate = positive(`${field}.estimate`, raw.estimate);
  const cores = integer(`${field}.cores`, raw.cores, 1);
  const ready = raw.ready === undefined ? undefined : finite(`${field}.ready`, raw.ready);
  const deadline =
    raw.deadline === undefined ? undefined : finite(`${field}.deadline`, raw.deadline);
  const benchmark =
    raw.benchmark === undefined ? undefined : positive(`${field}.benchmark`, raw.benchmark);
  let licenses: LicenseRequest | undefined;
  if (raw.licenses !== undefined) {
    if (!isObject(raw.licenses)) fail(`${field}.licenses`, "is not an object of copies by name");
    const copy: Record<string, number> = {};
    for (const [name, n] of Object.entries(raw.licenses))
      copy[name] = integer(`${field}.licenses[${JSON.stringify(name)}]`, n, 1);
    licenses = copy;
  }
  let input: InputData[] | undefined;
  if (raw.input !== undefined) {
    if (!Array.isArray(raw.input)) fail(`${field}.input`, "is not an array");
    input = raw.input.map((d, k) => {
      if (!isObject(d)) fail(`${field}.input[${k}]`, "is not an object { size, machine }");
      refuseMisspeltKeys(WHERE, `${field}.input[${k}]`, d, INPUT_KEYS);
      const size = d.size;
      if (typeof size !== "number" || !Number.isFinite(size) || size < 0)
        fail(
          `${field}.input[${k}].size`,
          `is ${describeValue(size)}, expected a finite number >= 0`,
        );
      const machine = integer(`${field}.input[${k}].machine`, d.machine, 0);
      if (machine >= machines)
        fail(
          `${field}.input[${k}].machine`,
          `is ${machine}, expected a machine index below ${machines}`,
        );
      return { size, machine };
    });
  }
  if (
    previous !== undefined &&
    previous.submit === submit &&
    previous.estimate === estimate &&
    previous.cores === cores &&
    previous.ready === ready &&
    previous.deadline === deadline &&
    previous.benchmark === benchmark &&
    sameRecord(previous.licenses, licenses) &&
    sameInput(previous.input, input)
  )
    return previous;
  const job: { -readonly [K in keyof Job]: Job[K] } = {
    id,
    submit,
    runtime: estimate,
    estimate,
    cores,
  };
  if (ready !== undefined) job.ready = ready;
  if (deadline !== undefined) job.deadline = deadline;
  if (licenses !== undefined) job.licenses = Object.freeze(licenses);
  if (input !== undefined) job.input = Object.freeze(input.map((d) => Object.freeze(d)));
  if (benchmark !== undefined) job.benchmark = benchmark;
  return Object.freeze(job);
}

function sameRecord(a: LicenseRequest | undefined, b: LicenseRequest | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  const ka = Object.keys(a);
  if (ka.length !== Object.keys(b).length) return false;
  return ka.every((k) => a[k] === b[k]);
}

function sameInput(
  a: readonly InputData[] | undefined,
  b: readonly InputData[] | undefined,
): boolean {
  if (a === undefined || b === undefined) return a === b;
  return (
    a.length === b.length &&
    a.every(
      (d, k) => d.size === (b[k] as InputData).size && d.machine === (b[k] as InputData).machine,
    )
  );
}

/**
 * One decision of the Convergent Scheduler (Capannini et al., SC'07) on a plain state, with no
 * engine: the Job-Machine matrix over the running and ready queued jobs (the seven heuristics,
 * or yours), the license pre-matching, the matching (MIS, MFS or IMFS), and what to do now: the
 * running jobs to preempt or migrate, the queued jobs to start on their machine, the jobs to
 * reject. The `convergent()` scheduler is a thin adapter over the same planner, so a chain of
 * calls that passes each decision's `memory` to the next decides exactly as a simulation does
 * (a property test compares them event by event).
 *
 * For a live loop: call it at every event (a job submitted or completed, `wakeAt`) with the
 * farm's state, apply `preempted`, then start `start` in order on `allocations`, drop
 * `rejected`, and pass `memory` back. `state` is not mutated.
 *
 * Complexity: that of one plan, O(|N| x |M|) per heuristic plus the pre-matching plus the
 * matcher, and O(|N| + |M|) to read the state.
 *
 * @throws InvalidInputError naming the field of `state` (e.g. `state.queue[2].cores`,
 *   `state.running[0].machine`) or the option that is invalid, a running job that does not fit
 *   its machine, a duplicated id, or a memory already used.
 * @example
 * ```ts
 * const platform = createPlatform({ machines: [{ cores: 4, speed: 1 }, { cores: 2, speed: 2 }] });
 * const d = convergentPass({
 *   now: 0, platform, running: [],
 *   queue: [{ id: 1, cores: 4, estimate: 100, submit: 0 }, { id: 2, cores: 2, estimate: 50, submit: 0 }],
 * });
 * d.start; // [1, 2]: job 1 on machine 0 (the only one with 4 cores), job 2 on machine 1
 * ```
 */
export function convergentPass(
  state: ConvergentState,
  options: ConvergentPassOptions = {},
): ConvergentDecision {
  if (!isObject(state)) fail("state", `is ${describeValue(state)}, expected an object`);
  requireKnownKeys(WHERE, "options", options, PASS_KEYS);
  requireKnownKeys(WHERE, "state", state, STATE_KEYS);
  const resolved = resolveOptions(WHERE, { ...(options as ConvergentOptions), name: "convergent" });
  const now = finite("state.now", state.now);
  if (!isObject(state.platform)) fail("state.platform", "is missing, expected a platform");
  if (!Array.isArray(state.running)) fail("state.running", "is not an array");
  if (!Array.isArray(state.queue)) fail("state.queue", "is not an array");

  // The memory's planner, kept when the platform is the memory's (the same object, or equal
  // field by field); another platform starts from scratch (the planner's rows are per machine).
  const held = state.memory === undefined ? undefined : checkMemory(state.memory, resolved);
  let platform = state.platform as Platform;
  let text: string | undefined;
  if (held !== undefined && held.platform !== platform) {
    text = platformText(platform);
    if (text === held.text) platform = held.platform;
  }
  const kept = held !== undefined && held.platform === platform;
  if (kept) {
    text = held.text;
  } else {
    try {
      validatePlatform(platform, WHERE);
    } catch (e) {
      if (e instanceof SchedError) throw e;
      fail("state.platform", `is invalid: ${String(e)}`);
    }
    text ??= platformText(platform);
  }
  const knownJobs = kept ? held.jobs : new Map<number, Job>();
  const cols = platform.machines.length;

  // The jobs, validated, with the ledger of what the running ones hold.
  const ids = new Set<number>();
  const jobs = new Map<number, Job>();
  const ledger = new ResourceLedger(platform);
  const busy = new Int32Array(cols).fill(-1);
  const running: MatrixJob[] = [];
  const machineOf = new Map<number, number>();
  // index loops, not forEach: a hole is an undefined job, refused, not skipped
  for (let i = 0; i < state.running.length; i++) {
    const raw = state.running[i] as ConvergentRunningJob;
    const field = `state.running[${i}]`;
    const job = jobOf(field, raw, RUNNING_KEYS, cols, knownJobs.get(raw?.id));
    if (ids.has(job.id)) fail(`${field}.id`, `is ${job.id}, which another job of state has`);
    ids.add(job.id);
    const machine = integer(`${field}.machine`, raw.machine, 0);
    if (machine >= cols)
      fail(`${field}.machine`, `is ${machine}, expected a machine index below ${cols}`);
    if (busy[machine] !== -1)
      fail(
        `${field}.machine`,
        `is ${machine}, where job ${busy[machine]} runs too (one job per machine)`,
      );
    busy[machine] = job.id;
    const progress = fraction(`${field}.progress`, raw.progress, true);
    try {
      ledger.take(job, [{ machine, cores: job.cores }]);
    } catch (e) {
      fail(field, `does not fit machine ${machine}: ${e instanceof Error ? e.message : String(e)}`);
    }
    jobs.set(job.id, job);
    machineOf.set(job.id, machine);
    running.push({ job, progress, machine });
  }
  const waiting: WaitingRow[] = [];
  for (let i = 0; i < state.queue.length; i++) {
    const raw = state.queue[i] as ConvergentQueuedJob;
    const field = `state.queue[${i}]`;
    const job = jobOf(field, raw, QUEUED_KEYS, cols, knownJobs.get(raw?.id));
    if (ids.has(job.id)) fail(`${field}.id`, `is ${job.id}, which another job of state has`);
    ids.add(job.id);
    const progress = fraction(`${field}.progress`, raw.progress, false);
    jobs.set(job.id, job);
    waiting.push({ job, progress });
  }
  // Floating copies held outside the running jobs, from the free counts given.
  const outside = new Map<string, number>();
  if (state.freeLicenses !== undefined) {
    if (!isObject(state.freeLicenses))
      fail("state.freeLicenses", "is not an object of free copies by license name");
    for (const [name, value] of Object.entries(state.freeLicenses)) {
      const field = `state.freeLicenses[${JSON.stringify(name)}]`;
      const license = platform.licenses.find((l) => l.name === name);
      if (license === undefined || license.kind !== "floating")
        fail(field, "is not a floating license of state.platform");
      const free = integer(field, value, 0);
      const pool = ledger.freeLicenses(name, license.machines?.[0] ?? 0);
      if (free > pool)
        fail(
          field,
          `is ${free}, more than the ${pool} copies the platform has beside the running jobs'`,
        );
      outside.set(name, pool - free);
    }
  }
  // Jobs gone since the previous call; jobs whose fields changed (their cached eligibility is
  // stale, their previous machine still counts).
  const gone: number[] = [];
  const changed: number[] = [];
  for (const [id, job] of knownJobs) {
    const current = jobs.get(id);
    if (current === undefined) gone.push(id);
    else if (current !== job) changed.push(id);
  }
  // The state is read: the memory is used from here on.
  let core: PlannerCore;
  if (held === undefined) {
    core = new PlannerCore(resolved);
  } else {
    held.spent = true;
    core = held.core;
    core.observe(resolved.onPreMatch);
    if (!kept) core.reset();
  }
  core.forgetEligibility(changed);

  const start: number[] = [];
  const allocations: Allocation[] = [];
  const preempted: number[] = [];
  const rejected: { id: number; reason: string }[] = [];
  const act: PlannerActions = {
    freeCores: (m) => ledger.freeCores(m),
    freeLicenses: (name, m) => ledger.freeLicenses(name, m) - (outside.get(name) ?? 0),
    reject(id, reason) {
      rejected.push({ id, reason });
    },
    preempt(id) {
      const job = jobs.get(id) as Job;
      ledger.give(job, [{ machine: machineOf.get(id) as number, cores: job.cores }]);
      preempted.push(id);
    },
    start(id, machine, cores) {
      const allocation = [{ machine, cores }];
      ledger.take(jobs.get(id) as Job, allocation);
      start.push(id);
      allocations.push(allocation);
    },
  };
  const memoryJobs = new Map(jobs);
  const step = core.step(now, platform, running, waiting, gone, act);
  for (const r of rejected) memoryJobs.delete(r.id);
  let wakeAt = Number.POSITIVE_INFINITY;
  for (const w of waiting) {
    const at = w.job.ready ?? w.job.submit;
    if (at > now && at < wakeAt && memoryJobs.has(w.job.id)) wakeAt = at;
  }
  const assignments: { id: number; machine: number }[] = [];
  if (step !== undefined) {
    const { rows, plan } = step;
    for (let i = 0; i < rows.length; i++) {
      const m = plan.rowToCol[i] as number;
      if (m >= 0) assignments.push({ id: (rows[i] as MatrixJob).job.id, machine: m });
    }
  }
  const restarted = new Set(start);
  return {
    start,
    allocations,
    preempted,
    migrated: preempted.filter((id) => restarted.has(id)),
    rejected,
    assignments,
    cleared: step?.plan.cleared ?? [],
    critical: step?.plan.critical ?? [],
    ...(wakeAt === Number.POSITIVE_INFINITY ? {} : { wakeAt }),
    memory: memoryOf({ core, platform, text, jobs: memoryJobs }),
  };
}

/** The platform as text: two platforms are the same farm when their texts are equal. */
function platformText(platform: Platform): string {
  return JSON.stringify(platform);
}
