import { type Platform, validatePlatform } from "@sched/core";
import {
  describeValue,
  InvalidInputError,
  optionKeys,
  refuseMisspeltKeys,
  requireArray,
  requireFinite,
  requireInteger,
  requireKnownKeys,
  requireObject,
  requirePositive,
} from "@sched/errors";
import {
  CompetitiveCore,
  type CompetitiveQueuedJob,
  type CoreOptions,
  type RatingEvent,
  resolveCoreOptions,
} from "./competitive-core.js";
import { NO_MACHINE } from "./eligibility.js";
import { TIER_LIST_KEYS, type TierSnapshot } from "./tier-list.js";

export type { CompetitiveQueuedJob } from "./competitive-core.js";

const WHERE = "@sched/elo/competitivePass";

/** A job that completed since the previous call, on the machine the pass started it on. */
export interface CompetitiveCompletion {
  readonly id: number;
  readonly machine: number;
}

/**
 * The state of the machines at one instant, as {@link competitivePass} reads it. Times (`now`,
 * `ready`) are instants and `estimate` a duration, in one unit.
 */
export interface CompetitiveState {
  /** The current time (the completions below happened at it, as the paper measures them). */
  readonly now: number;
  /** The machines (cores, speed) and licenses, as `createPlatform` of `@sched/core` builds them. */
  readonly platform: Platform;
  /** Jobs started by earlier calls of this chain that completed since the previous call. */
  readonly completed: readonly CompetitiveCompletion[];
  /** The waiting jobs, in queue order (a job seen for the first time is an arrival). */
  readonly queue: readonly CompetitiveQueuedJob[];
  /** The machines that run nothing now, by index. */
  readonly free: readonly number[];
  /**
   * Free copies of floating licenses now, by name, as a license server reports them.
   * @defaultValue the platform's copies minus those the jobs this chain started and that have
   *   not completed hold
   */
  readonly freeLicenses?: Readonly<Record<string, number>>;
  /**
   * The `memory` the previous decision returned (ratings, size range, placed jobs). Without it,
   * the call is the first of a chain: every machine at its base rating. Used once. The memory
   * keeps the first call's options (its `jobLevel` too); later calls must give equal values.
   * @defaultValue none: a first call
   */
  readonly memory?: CompetitiveMemory | undefined;
}

/** The keys of {@link CompetitiveState}, all of them (checked by the compiler). */
const STATE_KEYS = optionKeys<CompetitiveState>({
  now: true,
  platform: true,
  completed: true,
  queue: true,
  free: true,
  freeLicenses: true,
  memory: true,
});

/**
 * The fields of the records of a state, all of them (checked by the compiler): a record may carry
 * fields of the caller's own, but not a near miss of a field it lacks (`redy`).
 */
const QUEUED_KEYS = optionKeys<CompetitiveQueuedJob>({
  id: true,
  cores: true,
  estimate: true,
  benchmark: true,
  ready: true,
  licenses: true,
});
const COMPLETION_KEYS = optionKeys<CompetitiveCompletion>({ id: true, machine: true });

/** Opaque: what a chain of {@link competitivePass} calls keeps between calls. */
export interface CompetitiveMemory {
  readonly kind: "competitive-memory";
}

/** What {@link competitivePass} decided. */
export interface CompetitiveDecision {
  /** Jobs to start now, in order, each alone on `machine` (with `cores` of its cores). */
  readonly start: readonly { readonly id: number; readonly machine: number }[];
  /** Jobs no single machine can ever run: drop them from the queue. */
  readonly rejected: readonly { readonly id: number; readonly reason: string }[];
  /** The rating updates of `state.completed`, in its order. */
  readonly updates: readonly RatingEvent[];
  /** Every machine's rating and tier after the updates. */
  readonly snapshot: TierSnapshot;
  /**
   * Call again at this time even if nothing else happens: the earliest `ready` time after `now`
   * of a job still queued (one not started and not rejected), when a call could start a job this
   * one could not. Absent when there is none.
   */
  readonly wakeAt?: number;
  /** Give it back as `state.memory` at the next call. */
  readonly memory: CompetitiveMemory;
}

/** Options of {@link competitivePass}: those of `competitiveScheduler`, with `jobLevel` over queued jobs. */
export type CompetitivePassOptions = CoreOptions<CompetitiveQueuedJob>;

/** The keys of {@link CompetitivePassOptions}, all of them (checked by the compiler). Internal. */
export const COMPETITIVE_PASS_KEYS = optionKeys<CompetitivePassOptions>({
  maxSpeed: true,
  overhead: true,
  jobLevel: true,
  levelScale: true,
  tierSearch: true,
  ...TIER_LIST_KEYS.record,
});

interface CompetitiveMemoryContents {
  readonly core: CompetitiveCore<CompetitiveQueuedJob>;
  /** The chain's options but `jobLevel`, as a string: later calls must give the same. */
  readonly optionsKey: string;
  /** Ids of queued jobs already seen (arrived, not yet started). */
  readonly seen: Set<number>;
  /** `state.now` of the call that returned this memory: the next call's may not be earlier. */
  readonly now: number;
  spent: boolean;
}

const heldBy = new WeakMap<CompetitiveMemory, CompetitiveMemoryContents>();

function fail(field: string, message: string): never {
  throw new InvalidInputError(WHERE, field, message);
}

/**
 * The competitive matchmaking policy as one pure decision: from the state of the machines now
 * to the jobs to start now. It decides exactly as `competitiveScheduler` does at one event
 * (same code): completions update their machine's rating (measured `now - start`, the winning
 * condition of its tier, equation (1)); queued jobs seen for the first time widen the size
 * range, or are rejected when no single machine can run them; then, in queue order, each ready
 * job takes a free machine of its level's tier, else of the next best tier in `tierSearch` order
 * (by default the nearest faster tier, else the nearest slower), best rating first. A chain of calls, each given the previous `memory`, replays the
 * scheduler event by event. For a live loop: call it at every submission and completion, and at
 * `wakeAt` (the next ready time of a queued job).
 *
 * Complexity: O(machines + queue x tiers + completions x machines) (a completion moves its
 * machine to its new place in the rating order: O(machines) at worst).
 *
 * @throws InvalidInputError naming the state field (`state.queue[2].estimate`, `state.memory`,
 *   …) or option that is invalid.
 * @example
 * ```ts
 * let d = competitivePass({ now: 0, platform, completed: [], queue: [{ id: 1, cores: 1, estimate: 10 }], free: [0, 1] });
 * d = competitivePass({ now: 12, platform, completed: [{ id: 1, machine: 0 }], queue: [], free: [0, 1], memory: d.memory });
 * d.updates[0].ratingAfter; // machine 0's new rating
 * ```
 */
export function competitivePass(
  state: CompetitiveState,
  options: CompetitivePassOptions = {},
): CompetitiveDecision {
  requireKnownKeys(WHERE, "options", options, COMPETITIVE_PASS_KEYS);
  requireObject(WHERE, "state", state);
  requireKnownKeys(WHERE, "state", state, STATE_KEYS);
  const now = requireFinite(WHERE, "state.now", state.now);
  requireObject(WHERE, "state.platform", state.platform);
  const platform = validatePlatform(state.platform, WHERE);
  const n = platform.machines.length;
  const held = takeMemory(state.memory, platform, options);
  if (held !== undefined && now < held.now) {
    fail(
      "state.now",
      `is ${now}, before the time of the call that returned state.memory (${held.now}): the clock went backwards`,
    );
  }
  const core = held?.core ?? new CompetitiveCore(platform, resolveCoreOptions(options, WHERE));
  const seen = held?.seen ?? new Set<number>();

  const completed = requireArray(WHERE, "state.completed", state.completed);
  const queue = requireArray(WHERE, "state.queue", state.queue);
  const free = requireArray(WHERE, "state.free", state.free);
  const idle = new Uint8Array(n);
  // an index loop, not forEach: a hole in a sparse array is an undefined machine, not a skip
  for (let i = 0; i < free.length; i++) {
    const m = free[i];
    const at = `state.free[${i}]`;
    requireInteger(WHERE, at, m, 0);
    if ((m as number) >= n) fail(at, `is ${m}, expected a machine index in [0, ${n - 1}]`);
    if (idle[m as number] === 1) fail(at, `is ${m}, listed twice`);
    idle[m as number] = 1;
  }
  const done = new Set<number>();
  completed.forEach((c, i) => {
    const at = `state.completed[${i}]`;
    requireObject(WHERE, at, c);
    refuseMisspeltKeys(WHERE, at, c as object, COMPLETION_KEYS);
    const { id, machine } = c as CompetitiveCompletion;
    requireInteger(WHERE, `${at}.id`, id, Number.MIN_SAFE_INTEGER);
    const placed = core.placed.get(id);
    if (placed === undefined) {
      // Without memory the chain starts here, with nothing running: the likely mistake is the
      // memory left out, not the id.
      const hint =
        held === undefined
          ? ": state.memory is not given, so this call starts a chain with no job running (give each call the previous decision's memory)"
          : "";
      fail(`${at}.id`, `is ${id}, not a running job this chain started${hint}`);
    }
    if (done.has(id)) fail(`${at}.id`, `is ${id}, listed twice`);
    done.add(id);
    if (machine !== placed.machine) {
      fail(
        `${at}.machine`,
        `is ${describeValue(machine)}, but job ${id} was started on machine ${placed.machine}`,
      );
    }
  });
  // After the completions: a job that completed in this call may be queued again (resubmitted).
  const ids = new Set<number>();
  queue.forEach((job, i) => {
    checkQueued(job, `state.queue[${i}]`, ids);
    const id = (job as CompetitiveQueuedJob).id;
    if (core.placed.has(id) && !done.has(id)) {
      fail(
        `state.queue[${i}].id`,
        `is ${id}, a job this chain started that is still running (a resubmission goes with its completion in state.completed)`,
      );
    }
  });
  for (const [id, p] of core.placed) {
    if (!done.has(id) && idle[p.machine] === 1) {
      fail(
        "state.free",
        `lists machine ${p.machine}, which runs job ${id} (list its completion in state.completed)`,
      );
    }
  }
  if (state.freeLicenses !== undefined) floatingPool(state.freeLicenses, platform, core);
  // The state is valid: from here the memory's core changes, so the memory is used.
  if (held !== undefined) held.spent = true;

  const updates: RatingEvent[] = [];
  for (const c of completed as readonly CompetitiveCompletion[]) {
    updates.push(core.complete(c.id, now) as RatingEvent);
  }
  const pool = floatingPool(state.freeLicenses, platform, core);
  const rejected: { id: number; reason: string }[] = [];
  const waiting: CompetitiveQueuedJob[] = [];
  for (const job of queue as readonly CompetitiveQueuedJob[]) {
    if (!seen.has(job.id)) {
      if (!core.arrive(job)) {
        rejected.push({ id: job.id, reason: NO_MACHINE });
        continue;
      }
      seen.add(job.id);
    }
    waiting.push(job);
  }
  const start: { id: number; machine: number }[] = [];
  core.place(
    now,
    waiting,
    {
      idle: (m) => idle[m] === 1,
      next: (from) => {
        for (let m = from; m < n; m++) if (idle[m] === 1) return m;
        return -1;
      },
    },
    (job, m) => licensesFree(job, m, platform, pool),
    (job, machine) => {
      start.push({ id: job.id, machine });
      seen.delete(job.id);
      for (const name in job.licenses) {
        const have = pool.get(name);
        if (have !== undefined) pool.set(name, have - (job.licenses[name] as number));
      }
    },
  );
  // The next ready time of a job left waiting (a job started was ready; `waiting` holds no rejected one).
  let wakeAt = Number.POSITIVE_INFINITY;
  for (let i = 0; i < waiting.length; i++) {
    const ready = (waiting[i] as CompetitiveQueuedJob).ready;
    if (ready !== undefined && ready > now && ready < wakeAt) wakeAt = ready;
  }
  const memory: CompetitiveMemory = Object.freeze({ kind: "competitive-memory" as const });
  heldBy.set(memory, { core, optionsKey: optionsKey(options), seen, now, spent: false });
  const snapshot = core.list.snapshot();
  return wakeAt === Number.POSITIVE_INFINITY
    ? { start, rejected, updates, snapshot, memory }
    : { start, rejected, updates, snapshot, wakeAt, memory };
}

/** The core and seen set `memory` holds, checked (the caller marks it used); undefined without memory. */
function takeMemory(
  memory: unknown,
  platform: Platform,
  options: CompetitivePassOptions,
): CompetitiveMemoryContents | undefined {
  if (memory === undefined) return undefined;
  const held =
    typeof memory === "object" && memory !== null
      ? heldBy.get(memory as CompetitiveMemory)
      : undefined;
  if (held === undefined) fail("state.memory", "is not a memory returned by competitivePass");
  if (held.spent)
    fail("state.memory", "was already used: pass the memory the latest decision returned");
  if (held.core.platform !== platform) {
    fail("state.platform", "is not the platform of the call that returned state.memory");
  }
  if (optionsKey(options) !== held.optionsKey) {
    fail("options", "differ from those of the call that started the chain (state.memory)");
  }
  return held;
}

function optionsKey(options: CompetitivePassOptions): string {
  const { jobLevel: _ignored, ...rest } = options;
  return JSON.stringify(rest, Object.keys(rest).sort());
}

function checkQueued(job: unknown, at: string, ids: Set<number>): void {
  requireObject(WHERE, at, job);
  refuseMisspeltKeys(WHERE, at, job as object, QUEUED_KEYS);
  const j = job as CompetitiveQueuedJob;
  requireInteger(WHERE, `${at}.id`, j.id, Number.MIN_SAFE_INTEGER);
  if (ids.has(j.id)) fail(`${at}.id`, `is ${j.id}, listed twice in the queue`);
  ids.add(j.id);
  requireInteger(WHERE, `${at}.cores`, j.cores, 1);
  requirePositive(WHERE, `${at}.estimate`, j.estimate);
  if (j.benchmark !== undefined) requirePositive(WHERE, `${at}.benchmark`, j.benchmark);
  if (j.ready !== undefined) requireFinite(WHERE, `${at}.ready`, j.ready);
  if (j.licenses !== undefined) {
    requireObject(WHERE, `${at}.licenses`, j.licenses);
    for (const name in j.licenses) {
      requireInteger(WHERE, `${at}.licenses.${name}`, j.licenses[name], 1);
    }
  }
}

/** Free copies of each floating license now: `freeLicenses`, else the platform's minus what placed jobs hold. */
function floatingPool(
  given: Readonly<Record<string, number>> | undefined,
  platform: Platform,
  core: CompetitiveCore<CompetitiveQueuedJob>,
): Map<string, number> {
  const pool = new Map<string, number>();
  for (const l of platform.licenses) if (l.kind === "floating") pool.set(l.name, l.copies);
  if (given !== undefined) {
    requireObject(WHERE, "state.freeLicenses", given);
    for (const name in given) {
      const at = `state.freeLicenses.${name}`;
      if (!pool.has(name)) fail(at, "is not a floating license of the platform");
      pool.set(name, requireInteger(WHERE, at, given[name], 0));
    }
    return pool;
  }
  for (const p of core.placed.values()) {
    for (const name in p.licenses) {
      const have = pool.get(name);
      if (have !== undefined) pool.set(name, have - (p.licenses[name] as number));
    }
  }
  return pool;
}

/**
 * Whether `job`'s licenses are free on idle machine `m`: floating ones usable on `m` with enough
 * copies left in the pool, node-locked ones with enough copies on `m` (an idle machine holds none).
 */
function licensesFree(
  job: CompetitiveQueuedJob,
  m: number,
  platform: Platform,
  pool: Map<string, number>,
): boolean {
  for (const name in job.licenses) {
    const want = job.licenses[name] as number;
    const l = platform.licenses.find((x) => x.name === name);
    if (l === undefined) return false;
    if (l.kind === "floating") {
      if (l.machines !== undefined && !l.machines.includes(m)) return false;
      if ((pool.get(name) ?? 0) < want) return false;
    } else if (!(l.machines ?? []).includes(m) || l.copies < want) return false;
  }
  return true;
}
