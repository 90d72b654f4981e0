import {
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
 * An engine scheduler that decides through `backfillPass` alone: at every call it builds the
 * plain state from the view, calls the pass and applies its decision (and its timer, once per
 * new time, as the engine's schedulers do). What a live resource manager would do with the pass.
 */
export function viaPass(name: string, options: BackfillPassOptions | undefined): Scheduler {
  const endOf = plannedEnd(options);
  let previous: readonly Reservation[] = [];
  let wake = Number.NaN;
  return {
    name,
    reset() {
      previous = [];
      wake = Number.NaN;
    },
    schedule(ctx: SchedulingContext) {
      const d = backfillPass(stateOf(ctx, previous, endOf), options);
      apply(ctx, d);
      previous = d.reservations;
      if (d.wakeAt !== undefined && d.wakeAt !== wake) {
        ctx.wakeAt(d.wakeAt);
        wake = d.wakeAt;
      }
    },
  };
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
          const pass = simulate(jobs, platform, viaPass(engine.scheduler, options));
          expect(pass.records).toEqual(engine.records);
          expect(pass.stats.decisions).toBe(engine.stats.decisions);
        }),
        { numRuns },
      );
    });
  });
}
