import {
  type Job,
  type JobRecord,
  type Platform,
  type RunningJob,
  type Scheduler,
  type SchedulingContext,
  simulate,
} from "@sched/core";
import { arbJobs, arbPlatform } from "@sched/core/testing";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  type BackfillDecision,
  type BackfillPassOptions,
  type BackfillState,
  backfillPass,
} from "../../src/pass.js";
import type { Reservation } from "../../src/strategy.js";

/**
 * The end a policy's plan gives a running job. Pooled conservative holds the interval it
 * planned (the estimate on the slowest machine) until the job completes; every other policy
 * plans with the engine's estimated end.
 */
export function plannedEnd(
  options: BackfillPassOptions | undefined,
): (r: RunningJob, ctx: SchedulingContext) => number {
  const o = (options ?? {}) as { policy?: string; reservations?: number; singleMachine?: boolean };
  const pooledConservative =
    !o.singleMachine &&
    !(o as { exclusive?: boolean }).exclusive &&
    (o.policy === "conservative" ||
      ((o.policy === undefined || o.policy === "backfill") &&
        o.reservations === Number.POSITIVE_INFINITY));
  if (!pooledConservative) return (r) => r.estimatedEnd;
  return (r, ctx) => {
    const machines = ctx.view.platform.machines;
    let slowest = 0;
    for (let m = 1; m < machines.length; m++)
      if (machines[m]!.speed < machines[slowest]!.speed) slowest = m;
    return (
      r.start + ctx.view.duration(r.job, [{ machine: slowest, cores: r.job.cores }], r.job.estimate)
    );
  };
}

/**
 * The plain state of an engine decision point, as a live loop would give it to `backfillPass`:
 * the view's queue and running jobs (ends by `endOf`), the reservations of the previous
 * decision, and the arrivals and completions of this batch.
 */
export function stateOf(
  ctx: SchedulingContext,
  previous: readonly Reservation[],
  endOf: (r: RunningJob, ctx: SchedulingContext) => number,
): BackfillState {
  const view = ctx.view;
  return {
    now: view.now,
    platform: view.platform,
    running: view.running.map((r) => ({
      id: r.job.id,
      cores: r.job.cores,
      end: endOf(r, ctx),
      start: r.start,
      submit: r.job.submit,
      estimate: r.job.estimate,
      ...(r.job.deadline === undefined ? {} : { deadline: r.job.deadline }),
      ...(r.job.licenses === undefined ? {} : { licenses: r.job.licenses }),
      allocation: r.allocation,
    })),
    queue: view.waiting.map((w) => ({
      id: w.job.id,
      cores: w.job.cores,
      estimate: w.job.estimate,
      submit: w.job.submit,
      progress: w.progress,
      ...(w.job.ready === undefined ? {} : { ready: w.job.ready }),
      ...(w.job.deadline === undefined ? {} : { deadline: w.job.deadline }),
      ...(w.job.priority === undefined ? {} : { priority: w.job.priority }),
      ...(w.job.licenses === undefined ? {} : { licenses: w.job.licenses }),
      ...(w.job.benchmark === undefined ? {} : { benchmark: w.job.benchmark }),
    })),
    reservations: previous,
    arrived: ctx.arrived.map((j) => j.id),
    completed: ctx.completed.map((j) => j.id),
  };
}

/** Applies a pass's decision through the engine's verbs, in the pass's order. */
export function apply(ctx: SchedulingContext, d: BackfillDecision): void {
  for (const r of d.rejected) ctx.reject(r.id, r.reason);
  for (const id of d.preempted) ctx.preempt(id);
  for (let i = 0; i < d.start.length; i++) ctx.start(d.start[i]!, d.allocations[i]!);
}

/**
 * Whether a reservation of the decision is not after `now`: its job could not start at its time
 * (a running job past its estimate, or machines or licenses the pooled plan does not see).
 * Conservative then plans it again at the first call after, and its schedule depends on when that
 * call comes: the engine calls at every ready time and at every timer it was ever given, the
 * earlier ones included.
 */
export function missedReservation(d: BackfillDecision, now: number): boolean {
  return d.reservations.some((r) => r.time <= now);
}

/**
 * The times a loop asks to be called at after decision `d` at `now`: `d.wakeAt`, and with
 * `reservationTimers` the earliest reservation after `now` too, which is the timer the engine's
 * conservative sets (the engine keeps every timer, where `wakeAt` may report an earlier ready
 * time instead).
 */
export function callTimes(d: BackfillDecision, now: number, reservationTimers: boolean): number[] {
  const times = d.wakeAt === undefined ? [] : [d.wakeAt];
  if (reservationTimers) {
    let next = Number.POSITIVE_INFINITY;
    for (const r of d.reservations) if (r.time > now && r.time < next) next = r.time;
    if (next !== Number.POSITIVE_INFINITY) times.push(next);
  }
  return times;
}

/**
 * An engine scheduler that decides through `backfillPass` alone: at every call it builds the
 * plain state from the view, calls the pass and applies its decision, and sets a timer at each
 * of its {@link callTimes} not set before. What a live resource manager would do with the pass.
 */
export function viaPass(
  name: string,
  options: BackfillPassOptions | undefined,
  { reservationTimers = false, seen = { missed: false } }: LoopOptions = {},
): Scheduler {
  const endOf = plannedEnd(options);
  let previous: readonly Reservation[] = [];
  const set = new Set<number>();
  return {
    name,
    reset() {
      previous = [];
      set.clear();
    },
    schedule(ctx: SchedulingContext) {
      const d = backfillPass(stateOf(ctx, previous, endOf), options);
      apply(ctx, d);
      if (missedReservation(d, ctx.view.now)) seen.missed = true;
      previous = d.reservations;
      for (const t of callTimes(d, ctx.view.now, reservationTimers)) {
        if (!set.has(t)) ctx.wakeAt(t);
        set.add(t);
      }
    },
  };
}

/** How a pass-driven loop runs. */
export interface LoopOptions {
  /** Also call at the earliest reservation of each decision ({@link callTimes}). @defaultValue false */
  readonly reservationTimers?: boolean;
  /** Set to true when a decision had a missed reservation ({@link missedReservation}). */
  readonly seen?: { missed: boolean };
}

/**
 * A live loop whose only events are submissions, completions and the pass's `wakeAt`: the engine
 * runs the jobs without their ready times (so it never calls at one; its timers are the pass's
 * `wakeAt`, see {@link viaPass}), and the pass gets each queued job's `ready` back from the
 * workload. A job waits for its ready time only because the pass says so, and is started after it
 * only because `wakeAt` brought a call. Records are keyed by id (the engine's jobs lack `ready`).
 */
export function wakeOnlyRecords(
  jobs: readonly Job[],
  platform: Platform,
  options: BackfillPassOptions | undefined,
  loop: LoopOptions = {},
): KeyedRecord[] {
  const readyOf = new Map<number, number>();
  const bare = jobs.map((j) => {
    if (j.ready === undefined) return j;
    readyOf.set(j.id, j.ready);
    const { ready: _ready, ...rest } = j;
    return rest;
  });
  const inner = viaPass("wake-only", options, loop);
  const withReady: Scheduler = {
    name: inner.name,
    reset: (p) => inner.reset?.(p),
    schedule(ctx: SchedulingContext) {
      // the engine's view has the jobs without `ready`: give each waiting job its own back
      const waiting = ctx.view.waiting.map((w) => {
        const ready = readyOf.get(w.job.id);
        return ready === undefined ? w : { ...w, job: { ...w.job, ready } };
      });
      inner.schedule({ ...ctx, view: { ...ctx.view, waiting } } as SchedulingContext);
    },
  };
  return byId(simulate(bare, platform, withReady).records);
}

/** A record without its job, with the job's id. */
export type KeyedRecord = Omit<JobRecord, "job"> & { readonly id: number };

/** A trace's records without their job, with its id: comparable across copies of the jobs. */
export function byId(records: readonly JobRecord[]): KeyedRecord[] {
  return records.map(({ job, ...rest }) => ({ id: job.id, ...rest }));
}

/** Where a scheduler's own decision and the pass's differed at one call. */
export interface Mismatch {
  readonly now: number;
  readonly what: string;
  readonly engine: unknown;
  readonly pass: unknown;
}

/**
 * Wraps an engine scheduler so that, at every call, `backfillPass` decides first on the plain
 * state of that instant (chained on its own previous reservations), then the scheduler decides
 * and acts; every difference (starts and their order, allocations, rejections, preemptions,
 * reservations after the call) is recorded.
 */
export function lockstep(
  inner: Scheduler & { reservations?: () => Map<number, number> },
  options: BackfillPassOptions | undefined,
): { scheduler: Scheduler; mismatches: Mismatch[]; calls: () => number } {
  const endOf = plannedEnd(options);
  const mismatches: Mismatch[] = [];
  let previous: readonly Reservation[] = [];
  let calls = 0;
  const scheduler: Scheduler = {
    name: inner.name,
    reset(p) {
      previous = [];
      calls = 0;
      mismatches.length = 0;
      inner.reset?.(p);
    },
    schedule(ctx: SchedulingContext) {
      calls++;
      const want = backfillPass(stateOf(ctx, previous, endOf), options);
      const got = {
        start: [] as number[],
        allocations: [] as unknown[],
        rejected: [] as { id: number; reason: string }[],
        preempted: [] as number[],
      };
      inner.schedule({
        view: ctx.view,
        arrived: ctx.arrived,
        completed: ctx.completed,
        woken: ctx.woken,
        ready: ctx.ready,
        start(id, allocation) {
          got.start.push(id);
          got.allocations.push(allocation);
          ctx.start(id, allocation);
        },
        preempt(id) {
          got.preempted.push(id);
          ctx.preempt(id);
        },
        reject(id, reason) {
          got.rejected.push({ id, reason });
          ctx.reject(id, reason);
        },
        wakeAt(t) {
          ctx.wakeAt(t);
        },
      });
      const now = ctx.view.now;
      const differ = (what: string, engine: unknown, pass: unknown) => {
        if (JSON.stringify(engine) !== JSON.stringify(pass))
          mismatches.push({ now, what, engine, pass });
      };
      differ("start", got.start, want.start);
      differ("allocations", got.allocations, want.allocations);
      differ("rejected", got.rejected, want.rejected);
      differ("preempted", got.preempted, want.preempted);
      if (inner.reservations !== undefined) {
        differ(
          "reservations",
          [...inner.reservations()],
          want.reservations.map((r) => [r.id, r.time]),
        );
      }
      previous = want.reservations;
    },
  };
  return { scheduler, mismatches, calls: () => calls };
}

/**
 * The pass half of the conformance suite: on random platforms and workloads (core's
 * arbitraries: pools and farms, licenses, deadlines, ready times, under- and over-estimates),
 * `backfillPass` decides what `factory()`'s scheduler decides at every event (`lockstep`), and a
 * simulation driven by the pass alone (`viaPass`) gives the scheduler's schedule, record for
 * record.
 */
export function passSpecs(
  name: string,
  factory: () => Scheduler,
  options: BackfillPassOptions,
  numRuns = 40,
): void {
  const timers = setsTimers(options);
  const scenario = arbPlatform().chain((platform: Platform) =>
    arbJobs(platform).map((jobs) => ({ platform, jobs })),
  );
  describe(`${name} through backfillPass`, () => {
    it("decides at every event what the engine's scheduler decides", () => {
      fc.assert(
        fc.property(scenario, ({ platform, jobs }) => {
          const probe = lockstep(factory(), options);
          simulate(jobs, platform, probe.scheduler);
          expect(probe.calls()).toBeGreaterThan(0);
          expect(probe.mismatches).toEqual([]);
        }),
        { numRuns },
      );
    });
    it("alone, gives the engine's schedule", () => {
      fc.assert(
        fc.property(scenario, ({ platform, jobs }) => {
          const engine = simulate(jobs, platform, factory());
          const loop = viaPass(engine.scheduler, options, { reservationTimers: timers });
          const pass = simulate(jobs, platform, loop);
          expect(pass.records).toEqual(engine.records);
          expect(pass.stats.decisions).toBe(engine.stats.decisions);
        }),
        { numRuns },
      );
    });
  });
}

/**
 * Whether the policy sets timers (conservative, pooled or per machine): its `wakeAt` is then its
 * next reservation or an earlier ready time, which hides the timer behind it, where the engine
 * keeps every timer it was given. Its schedule can then differ from the engine's when a
 * reservation is missed (see {@link missedReservation}), and it makes fewer calls.
 */
export function setsTimers(options: BackfillPassOptions | undefined): boolean {
  const o = (options ?? {}) as { policy?: string; reservations?: number };
  return (
    o.policy === "conservative" ||
    ((o.policy === undefined || o.policy === "backfill") &&
      o.reservations === Number.POSITIVE_INFINITY)
  );
}

/**
 * A live loop that follows `wakeAt` alone: on random platforms and workloads with ready times
 * (and jobs past their estimates), the pass called only at submissions, completions and its
 * `wakeAt` ({@link wakeOnlyRecords}) completes, rejects and leaves waiting the jobs the engine
 * does, and gives the engine's schedule record for record, unless the policy sets timers and a
 * reservation was missed. Such a policy gives the engine's schedule, and makes its calls, when
 * the loop also calls at each decision's earliest reservation ({@link callTimes}).
 */
export function wakeOnlySpecs(
  name: string,
  factory: () => Scheduler,
  options: BackfillPassOptions,
  numRuns = 40,
): void {
  const timers = setsTimers(options);
  const scenario = arbPlatform().chain((platform: Platform) =>
    arbJobs(platform).map((jobs) => ({ platform, jobs })),
  );
  describe(`${name} through backfillPass, called only at submissions, completions and wakeAt (no ready-time events)`, () => {
    it("runs every job the engine runs, and gives the engine's schedule", () => {
      fc.assert(
        fc.property(scenario, ({ platform, jobs }) => {
          const engine = byId(simulate(jobs, platform, factory()).records);
          const seen = { missed: false };
          const records = wakeOnlyRecords(jobs, platform, options, { seen });
          expect(records.map((r) => [r.id, r.outcome])).toEqual(
            engine.map((r) => [r.id, r.outcome]),
          );
          if (!(timers && seen.missed)) expect(records).toEqual(engine);
        }),
        { numRuns },
      );
    });
    if (timers) {
      it("and at each decision's earliest reservation, gives the engine's schedule", () => {
        fc.assert(
          fc.property(scenario, ({ platform, jobs }) => {
            const engine = byId(simulate(jobs, platform, factory()).records);
            const records = wakeOnlyRecords(jobs, platform, options, { reservationTimers: true });
            expect(records).toEqual(engine);
          }),
          { numRuns },
        );
      });
    }
  });
}
