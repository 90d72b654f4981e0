import {
  type Allocation,
  InvalidInputError,
  identicalPool,
  type Job,
  type LicenseRequest,
  MAX_RESOURCE_COUNT,
  type Platform,
  ResourceLedger,
  type RunningJob,
  SchedError,
  validatePlatform,
  type WaitingJob,
  whyNeverFits,
} from "@sched/core";
import { describeValue, optionKeys, refuseMisspeltKeys, requireKnownKeys } from "@sched/errors";
import { PlainContext } from "./plain-context.js";
import { type PolicyOptions, strategyFor } from "./select.js";
import type { Reservation } from "./strategy.js";

const WHERE = "@sched/backfill/backfillPass";

/** A waiting job, as {@link backfillPass} reads it. */
export interface QueuedJob {
  readonly id: number;
  /** Cores it needs (an integer >= 1). */
  readonly cores: number;
  /** Its estimated run time: a duration (> 0), at the platform's reference speed. */
  readonly estimate: number;
  /**
   * When it was submitted, at most `now`. Every queue order breaks ties by it, then by id; EDF lets only jobs
   * submitted at `now` (or listed in `arrived`) preempt.
   * @defaultValue `-Infinity` (ties by id)
   */
  readonly submit?: number;
  /** It may not start before this time. @defaultValue none */
  readonly ready?: number;
  /** Its deadline (EDF, and the `"deadline"` order). @defaultValue none */
  readonly deadline?: number;
  /** Its user priority (the `"user-priority"` order; higher first). @defaultValue none */
  readonly priority?: number;
  /** License copies it needs, by license name (platform form). @defaultValue none */
  readonly licenses?: LicenseRequest;
  /** Its benchmark (the platform form's speed model). @defaultValue the reference speed */
  readonly benchmark?: number;
  /** The fraction of its work already done (a preempted job), in [0, 1). @defaultValue `0` */
  readonly progress?: number;
}

/** A running job, as {@link backfillPass} reads it. */
export interface RunningJobState {
  readonly id: number;
  readonly cores: number;
  /**
   * When the plan gets its cores back: a time, its estimated end (before `now` for a job
   * running past its estimate: its cores count as coming back now).
   */
  readonly end: number;
  /**
   * When it started, at most `now` and at most `end` (EDF preempts the latest started first among
   * equal deadlines). @defaultValue `now`
   */
  readonly start?: number;
  /**
   * When it was submitted (EDF with a finite `undatedFactor` orders a job without deadline by
   * `submit + undatedFactor × estimate`). @defaultValue `start`
   */
  readonly submit?: number;
  /** Its estimate (see `submit`). @defaultValue `end - start` */
  readonly estimate?: number;
  /** Its deadline (EDF preempts only jobs with a later one). @defaultValue none */
  readonly deadline?: number;
  /** License copies it holds (platform form). @defaultValue none */
  readonly licenses?: LicenseRequest;
  /** Where it runs: required in the platform form, ignored in the pool form. */
  readonly allocation?: Allocation;
}

/**
 * The state of a cluster at one instant, as {@link backfillPass} reads it: the pool form
 * (`cores`: that many interchangeable cores) or the platform form (`platform`: machines with
 * cores and speeds, licenses, as `@sched/core`'s `createPlatform` builds it); exactly one of
 * the two (a state with neither or both is a type error, and refused at run time). Times
 * (`now`, `end`, `submit`, `ready`, `deadline`, reservation times) are instants and estimates
 * are durations, in one unit.
 */
export type BackfillState = BackfillStateFields & (BackfillPoolForm | BackfillPlatformForm);

/** The pool form of a {@link BackfillState}: one machine of `cores` interchangeable cores. */
export interface BackfillPoolForm {
  /** Pool form: the number of cores of the pool (all of them, free or not). */
  readonly cores: number;
  /** Not in the pool form. */
  readonly platform?: undefined;
}

/** The platform form of a {@link BackfillState}: machines and licenses. */
export interface BackfillPlatformForm {
  /** Platform form: the machines and licenses. */
  readonly platform: Platform;
  /** Not in the platform form. */
  readonly cores?: undefined;
}

/** The fields of a {@link BackfillState} common to both forms. */
export interface BackfillStateFields {
  /** The current time. */
  readonly now: number;
  readonly running: readonly RunningJobState[];
  /** The waiting jobs in queue order (the FCFS order; other orders sort it). */
  readonly queue: readonly QueuedJob[];
  /**
   * The reservations the previous call returned, unchanged, for the policies that keep theirs
   * between decisions: conservative keeps every one (and reserves, at this call, every queued
   * job that has none), BF-unrm (`keepReservations`) lets their jobs go first. Other policies
   * ignore them. Reservations of jobs no longer queued are ignored.
   * @defaultValue none: a first decision
   */
  readonly reservations?: readonly Reservation[] | undefined;
  /**
   * Ids of the queued jobs that arrived since the previous call (EDF lets only those preempt).
   * @defaultValue the queued jobs whose `submit` is `now`
   */
  readonly arrived?: readonly number[] | undefined;
  /**
   * Ids of the jobs that completed since the previous call (so in neither `running` nor
   * `queue`). Conservative compresses its reservations (moves them earlier where capacity came
   * back) when it is not empty; without it, at every call, which gives another schedule than the
   * engine's `conservative()`.
   * @defaultValue unknown: conservative compresses
   */
  readonly completed?: readonly number[] | undefined;
}

/** The keys of {@link BackfillState}, all of them (checked by the compiler). */
const STATE_KEYS = optionKeys<BackfillState>({
  now: true,
  cores: true,
  platform: true,
  running: true,
  queue: true,
  reservations: true,
  arrived: true,
  completed: true,
});

/**
 * The fields of the records of a state, all of them (checked by the compiler): a record may carry
 * other keys of the caller's own, but not a near miss of a field it lacks (`deadlin`). Internal
 * (`QUEUED_KEYS` is exported for the bench of the check, not from the package).
 */
export const QUEUED_KEYS = optionKeys<QueuedJob>({
  id: true,
  cores: true,
  estimate: true,
  submit: true,
  ready: true,
  deadline: true,
  priority: true,
  licenses: true,
  benchmark: true,
  progress: true,
});
const RUNNING_KEYS = optionKeys<RunningJobState>({
  id: true,
  cores: true,
  end: true,
  start: true,
  submit: true,
  estimate: true,
  deadline: true,
  licenses: true,
  allocation: true,
});
const RESERVATION_KEYS = optionKeys<Reservation>({ id: true, time: true, machine: true });

/** What {@link backfillPass} decided. */
export interface BackfillDecision {
  /** Ids of the jobs to start now, in the order to start them. */
  readonly start: readonly number[];
  /** The allocation of each job of `start` (same index): machine and cores. */
  readonly allocations: readonly Allocation[];
  /** The reservations that exist after this decision, in the order they were made. */
  readonly reservations: readonly Reservation[];
  /** Jobs that can never run on this platform, with the reason: drop them from the queue. */
  readonly rejected: readonly { readonly id: number; readonly reason: string }[];
  /** Ids of running jobs to preempt (EDF), before the starts (a preempted job may restart). */
  readonly preempted: readonly number[];
  /**
   * Call again at this time even if nothing else happens: the earliest time after `now` at which
   * a call could start a job this one could not, a queued job's `ready` time or a reservation's
   * start (conservative), whichever comes first. Absent when there is none: until the next
   * submission or completion, calling again would decide nothing new.
   */
  readonly wakeAt?: number;
}

/** Options of {@link backfillPass}: a policy of the package and its options. */
export type BackfillPassOptions = PolicyOptions;

function fail(field: string, message: string): never {
  throw new InvalidInputError(WHERE, field, message);
}

function requireTime(field: string, value: unknown): number {
  if (typeof value !== "number" || !Number.isFinite(value)) {
    fail(field, `is ${describeValue(value)}, expected a finite number`);
  }
  return value;
}

function requireId(field: string, value: unknown): number {
  if (typeof value !== "number" || !Number.isInteger(value)) {
    fail(field, `is ${describeValue(value)}, expected an integer`);
  }
  return value;
}

function requireCores(field: string, value: unknown, max = Number.POSITIVE_INFINITY): number {
  if (typeof value !== "number" || !Number.isInteger(value) || value < 1) {
    fail(field, `is ${describeValue(value)}, expected an integer >= 1`);
  }
  if (value > max) fail(field, `is ${value}, expected at most ${max} (2^31 - 1)`);
  return value;
}

/**
 * The plan may reach the latest time the state names plus every queued estimate (each job
 * queued after all the others). Every estimate must still count there: past about 2^53 s the
 * spacing of doubles exceeds short estimates (at 1e308 it is about 1e292 s), and a job would be
 * planned to end when it starts. Names the largest term, the one that carries the plan so far.
 */
function requirePlannable(
  latest: { at: string; time: number },
  estimates: readonly { at: string; estimate: number }[],
): void {
  let horizon = latest.time;
  let largest = { at: latest.at, value: latest.time };
  for (const { at, estimate } of estimates) {
    horizon += estimate;
    if (estimate > largest.value) largest = { at: `${at}.estimate`, value: estimate };
  }
  for (const { at, estimate } of estimates) {
    if (horizon + estimate > horizon && Number.isFinite(horizon + estimate)) continue;
    // Within 2^53 s the estimate itself is too short; beyond, the largest term is too large.
    if (Number.isFinite(horizon) && horizon <= Number.MAX_SAFE_INTEGER) {
      fail(
        `${at}.estimate`,
        `is ${estimate}, below the spacing of doubles at ${horizon} s (as late as the plan may reach): a job would end when it starts`,
      );
    }
    fail(
      largest.at,
      `is ${largest.value}: with it the plan may reach ${horizon} s, where ${at}.estimate (${estimate} s) is below the spacing of doubles (times and estimates up to about 2^53 s plan exactly)`,
    );
  }
}

function optionalTime(field: string, value: unknown): number | undefined {
  return value === undefined ? undefined : requireTime(field, value);
}

function requireArray<T>(field: string, value: unknown): readonly T[] {
  if (!Array.isArray(value)) fail(field, `is ${describeValue(value)}, expected an array`);
  return value as readonly T[];
}

function requireIds(field: string, value: unknown): readonly number[] {
  const ids = requireArray<unknown>(field, value);
  for (let i = 0; i < ids.length; i++) requireId(`${field}[${i}]`, ids[i]);
  return ids as readonly number[];
}

/** A Job for the strategies, with only the fields that are set. */
function jobOf(fields: {
  id: number;
  cores: number;
  estimate: number;
  submit: number;
  ready?: number | undefined;
  deadline?: number | undefined;
  priority?: number | undefined;
  licenses?: LicenseRequest | undefined;
  benchmark?: number | undefined;
}): Job {
  const job: { -readonly [K in keyof Job]: Job[K] } = {
    id: fields.id,
    submit: fields.submit,
    runtime: fields.estimate,
    estimate: fields.estimate,
    cores: fields.cores,
  };
  if (fields.ready !== undefined) job.ready = fields.ready;
  if (fields.deadline !== undefined) job.deadline = fields.deadline;
  if (fields.priority !== undefined) job.priority = fields.priority;
  if (fields.licenses !== undefined) job.licenses = fields.licenses;
  if (fields.benchmark !== undefined) job.benchmark = fields.benchmark;
  return job;
}

/**
 * One backfilling decision on a plain state: which queued jobs to start now, and the
 * reservations that exist after it. The policies of the package as pure functions: FCFS
 * (`{ reservations: 0 }` or `{ policy: "fcfs" }`), EASY (`{ reservations: 1 }`, the default),
 * any depth k, conservative (`{ reservations: Infinity }`), flexible backfilling
 * (`{ policy: "flexible", priority, variant }`), any queue order (`order`, including
 * `"deadline"`), and EDF with preemption (`{ policy: "edf" }`); with `singleMachine` or
 * `exclusive` on the platform form. The engine's schedulers (`easy()`, `conservative()`, …) run
 * the same strategies on the engine's view, so a pass and a simulation decide alike.
 *
 * For a live loop: call it at every event (a job submitted or completed) and at `wakeAt` (which
 * covers queued jobs' ready times and reservations' starts) with the cluster's state, start
 * `start` in order on `allocations`, drop `rejected`, preempt `preempted` first; pass `reservations` back at the next call (conservative
 * and BF-unrm remember through it), with `completed` and `arrived` when known.
 *
 * The pool form is one machine of `cores` cores. Planned durations are estimates at the
 * platform's reference speed on its slowest machine (each job's machine with `singleMachine`);
 * reservation times are never before `now` or a job's `ready`. `state` is not mutated.
 *
 * Complexity: O((Q + R) log(Q + R)) to read the state and build the plan, then the strategy's
 * cost (see `backfill`); conservative re-checks every reservation when it compresses, O(Q x S).
 *
 * @throws InvalidInputError naming the field of `state` (e.g. `state.queue[2].cores`) or the
 * option that is invalid, or a running job's allocation that does not fit the platform.
 * @example
 * backfillPass(
 *   { now: 100, cores: 8, running: [{ id: 1, cores: 6, end: 160 }],
 *     queue: [{ id: 2, cores: 8, estimate: 50 }, { id: 3, cores: 2, estimate: 60 }] },
 *   { reservations: 1 },
 * ); // start [3] (it ends by 160), reservations [{ id: 2, time: 160 }]
 */
export function backfillPass(
  state: BackfillState,
  options?: BackfillPassOptions,
): BackfillDecision {
  if (typeof state !== "object" || state === null) fail("state", "is not an object");
  requireKnownKeys(WHERE, "state", state, STATE_KEYS);
  const strategy = strategyFor(options, WHERE);
  const now = requireTime("state.now", state.now);
  let platform: Platform;
  const pool = state.platform === undefined;
  if (pool) {
    if (state.cores === undefined) fail("state.cores", "is missing: give cores or platform");
    platform = identicalPool(1, {
      cores: requireCores("state.cores", state.cores, MAX_RESOURCE_COUNT),
    });
  } else {
    if (state.cores !== undefined) fail("state.cores", "is set beside state.platform: give one");
    try {
      platform = validatePlatform(state.platform as Platform, WHERE);
    } catch (e) {
      if (e instanceof SchedError) throw e;
      fail("state.platform", `is invalid: ${String(e)}`);
    }
  }

  /** Where each job of the state is given (`state.running[i]`, `state.queue[i]`): ids are distinct. */
  const givenAt = new Map<number, string>();
  /** The latest time the state names (now, a running job's end, a reservation), and where. */
  let latest = { at: "state.now", time: now };
  const ledger = new ResourceLedger(platform);
  const running: RunningJob[] = [];
  const runningIn = requireArray<RunningJobState>("state.running", state.running);
  for (let i = 0; i < runningIn.length; i++) {
    const at = `state.running[${i}]`;
    const r = runningIn[i];
    if (typeof r !== "object" || r === null) fail(at, "is not an object");
    refuseMisspeltKeys(WHERE, at, r, RUNNING_KEYS);
    const id = requireId(`${at}.id`, r.id);
    const other = givenAt.get(id);
    if (other !== undefined) fail(`${at}.id`, `is ${id}, already the id of ${other}`);
    givenAt.set(id, at);
    const cores = requireCores(`${at}.cores`, r.cores);
    const end = requireTime(`${at}.end`, r.end);
    if (end > latest.time) latest = { at: `${at}.end`, time: end };
    const givenStart = optionalTime(`${at}.start`, r.start);
    if (givenStart !== undefined) {
      // A start after now is a clock gone backwards (or a job not started yet); an end before
      // the start is no interval. Both would be planned silently as something else.
      if (givenStart > now) {
        fail(
          `${at}.start`,
          `is ${givenStart}, after state.now (${now}): a running job started by now`,
        );
      }
      if (end < givenStart) fail(`${at}.end`, `is ${end}, before its start (${givenStart})`);
    }
    const start = givenStart ?? now;
    const job = jobOf({
      id,
      cores,
      estimate: optionalTime(`${at}.estimate`, r.estimate) ?? Math.max(end - start, 0),
      submit: optionalTime(`${at}.submit`, r.submit) ?? start,
      deadline: optionalTime(`${at}.deadline`, r.deadline),
      licenses: r.licenses,
    });
    let allocation: Allocation;
    if (pool) {
      allocation = [{ machine: 0, cores }];
    } else {
      if (r.allocation === undefined) {
        fail(
          `${at}.allocation`,
          "is missing: in the platform form a running job gives where it runs, the decision's allocations[i] for start[i]",
        );
      }
      allocation = r.allocation;
    }
    try {
      ledger.take(job, allocation, WHERE);
    } catch (e) {
      if (!(e instanceof SchedError)) throw e;
      fail(at, `does not fit the platform beside the jobs before it: ${e.message}`);
    }
    running.push({
      job,
      allocation,
      start,
      progressAtStart: 0,
      progress: 0,
      estimatedEnd: end,
    });
  }

  const queueIn = requireArray<QueuedJob>("state.queue", state.queue);
  const estimates: { at: string; estimate: number }[] = [];
  const waiting: WaitingJob[] = [];
  const rejected: { id: number; reason: string }[] = [];
  for (let i = 0; i < queueIn.length; i++) {
    const at = `state.queue[${i}]`;
    const q = queueIn[i];
    if (typeof q !== "object" || q === null) fail(at, "is not an object");
    refuseMisspeltKeys(WHERE, at, q, QUEUED_KEYS);
    const id = requireId(`${at}.id`, q.id);
    const other = givenAt.get(id);
    if (other !== undefined) fail(`${at}.id`, `is ${id}, already the id of ${other}`);
    givenAt.set(id, at);
    const submit = optionalTime(`${at}.submit`, q.submit);
    if (submit !== undefined && submit > now) {
      fail(
        `${at}.submit`,
        `is ${submit}, after state.now (${now}): a job is queued once submitted (a later earliest start is \`ready\`)`,
      );
    }
    const estimate = requireTime(`${at}.estimate`, q.estimate);
    if (!(estimate > 0)) fail(`${at}.estimate`, `is ${estimate}, expected a duration > 0`);
    estimates.push({ at, estimate });
    const progress = q.progress ?? 0;
    if (typeof progress !== "number" || !(progress >= 0 && progress < 1)) {
      fail(`${at}.progress`, `is ${describeValue(progress)}, expected a number in [0, 1)`);
    }
    const job = jobOf({
      id,
      cores: requireCores(`${at}.cores`, q.cores),
      estimate,
      submit: submit ?? Number.NEGATIVE_INFINITY,
      ready: optionalTime(`${at}.ready`, q.ready),
      deadline: optionalTime(`${at}.deadline`, q.deadline),
      priority: optionalTime(`${at}.priority`, q.priority),
      licenses: q.licenses,
      benchmark: q.benchmark,
    });
    const why = whyNeverFits(job, platform, { singleMachine: strategy.singleMachine });
    if (why !== null) rejected.push({ id, reason: why });
    else waiting.push({ job, progress, preemptions: 0 });
  }

  const previous = requireArray<Reservation>("state.reservations", state.reservations ?? []);
  const reservedAt = new Map<number, number>();
  for (let i = 0; i < previous.length; i++) {
    const p = previous[i]!;
    if (typeof p !== "object" || p === null) {
      fail(`state.reservations[${i}]`, `is ${describeValue(p)}, expected an object`);
    }
    refuseMisspeltKeys(WHERE, `state.reservations[${i}]`, p, RESERVATION_KEYS);
    const id = requireId(`state.reservations[${i}].id`, p.id);
    const other = reservedAt.get(id);
    if (other !== undefined) {
      fail(
        `state.reservations[${i}].id`,
        `is ${id}, already the id of state.reservations[${other}]`,
      );
    }
    reservedAt.set(id, i);
    requireTime(`state.reservations[${i}].time`, p.time);
    if (p.time > latest.time) latest = { at: `state.reservations[${i}].time`, time: p.time };
    if (strategy.singleMachine && p.time !== undefined) {
      const m = p.machine;
      if (typeof m !== "number" || !Number.isInteger(m) || m < 0 || m >= platform.machines.length) {
        fail(
          `state.reservations[${i}].machine`,
          `is ${describeValue(m)}, expected the machine (0 to ${platform.machines.length - 1}) the previous call returned`,
        );
      }
    }
  }
  requirePlannable(latest, estimates);
  const arrivedIds =
    state.arrived === undefined ? null : new Set(requireIds("state.arrived", state.arrived));
  const completed =
    state.completed === undefined ? undefined : requireIds("state.completed", state.completed);
  if (completed !== undefined) {
    for (let i = 0; i < completed.length; i++) {
      const at = givenAt.get(completed[i]!);
      if (at !== undefined) {
        fail(
          `state.completed[${i}]`,
          `is ${completed[i]}, the id of ${at}: a job that completed is neither running nor queued`,
        );
      }
    }
  }
  const arrived: Job[] = [];
  for (const w of waiting) {
    if (arrivedIds === null ? w.job.submit === now : arrivedIds.has(w.job.id)) arrived.push(w.job);
  }

  strategy.reset(platform);
  strategy.resume(previous, completed === undefined || completed.length > 0);
  const ctx = new PlainContext(now, platform, ledger, running, waiting, arrived, WHERE);
  strategy.decide(ctx);
  const decision: {
    -readonly [K in keyof BackfillDecision]: BackfillDecision[K];
  } = {
    start: ctx.started,
    allocations: ctx.allocations,
    reservations: strategy.reservations(),
    rejected: rejected.concat(ctx.rejected),
    preempted: ctx.preempted,
  };
  const wake = nextWake(now, ctx.wake, waiting, ctx.rejected);
  if (!Number.isNaN(wake)) decision.wakeAt = wake;
  return decision;
}

/**
 * The earliest time after `now` at which a call could start a job this one could not: the
 * strategy's own timer (`timer`, NaN for none: conservative's next reservation) or the ready
 * time of a job still queued (not rejected; a started job was ready), whichever comes first;
 * NaN when there is neither. O(Q).
 */
function nextWake(
  now: number,
  timer: number,
  waiting: readonly WaitingJob[],
  rejected: readonly { readonly id: number }[],
): number {
  let wake = timer;
  const gone = rejected.length === 0 ? null : new Set(rejected.map((r) => r.id));
  for (let i = 0; i < waiting.length; i++) {
    const job = waiting[i]!.job;
    const ready = job.ready;
    // submit <= now, so the job's ready time is to come iff `ready` is after now
    if (ready === undefined || !(ready > now) || ready >= wake || gone?.has(job.id)) continue;
    wake = ready;
  }
  return wake;
}
