import type { Platform, Scheduler, SchedulingContext } from "@sched/core";
import { checkMachineOrder, type MachineOrder } from "./allocation.js";
import { resolvePlacement } from "./backfill.js";
import { PlatformCache, readyTime, rejectImpossible } from "./context.js";

/** Options of {@link fcfs}. */
export interface FcfsOptions {
  /**
   * The order in which machines are tried when a job starts.
   * @defaultValue `"index"` (lowest machine index first)
   */
  readonly machineOrder?: MachineOrder;
  /**
   * Run every job on one machine: the first machine, in `machineOrder`, that has all its cores
   * and licenses free; a job that no single machine can host is rejected on arrival.
   * @defaultValue `false`
   */
  readonly singleMachine?: boolean;
  /**
   * Machine-exclusive (implies `singleMachine`): a job starts only on a machine that runs no
   * job, with at least its cores; see `BackfillOptions.exclusive`.
   * @defaultValue `false`
   */
  readonly exclusive?: boolean;
}

interface ResolvedFcfsOptions {
  readonly machineOrder: MachineOrder;
  readonly singleMachine: boolean;
  readonly exclusive: boolean;
}

function resolveOptions(options: FcfsOptions | undefined): ResolvedFcfsOptions {
  const machineOrder = checkMachineOrder(
    "@sched/backfill/fcfs",
    "options.machineOrder",
    options?.machineOrder ?? "index",
  );
  const { singleMachine, exclusive } = resolvePlacement("@sched/backfill/fcfs", options);
  return { machineOrder, singleMachine, exclusive };
}

/**
 * First-come first-served: jobs start in queue order (submit time, then id), strictly; when the
 * job at the head of the queue does not fit in the free cores (and licenses), or has not reached
 * its ready time, it waits, and nobody passes it. A job that could never run on the empty platform (more cores or license
 * copies than exist) is rejected on arrival with the reason, so it cannot block the queue
 * forever.
 *
 * Cores are taken from machines in `machineOrder` (lowest index first by default), spanning
 * machines when one is not enough (with `singleMachine`, all on one machine).
 *
 * Complexity per scheduling call: O(1 + started jobs x M) for M machines.
 *
 * @throws InvalidInputError when an option is invalid.
 * @example
 * const trace = simulate(jobs, identicalPool(100), fcfs());
 */
export function fcfs(options?: FcfsOptions): Scheduler {
  const opts = resolveOptions(options);
  const cache = new PlatformCache(opts.machineOrder);
  return {
    name: opts.exclusive ? "fcfs+excl" : opts.singleMachine ? "fcfs+single" : "fcfs",
    reset(p: Platform) {
      cache.clear();
      cache.prepare(p);
    },
    schedule(ctx: SchedulingContext) {
      const view = ctx.view;
      cache.prepare(view.platform);
      const rejected = rejectImpossible(ctx, opts.singleMachine);
      const now = view.now;
      // FCFS only looks at the head of the queue: read it through waitingAt/waitingCount when
      // the view has them (O(1) per job), so a long saturated queue is never copied; fall back
      // to the `waiting` array for hand-made views.
      const waiting =
        view.waitingAt === undefined || view.waitingCount === undefined ? view.waiting : null;
      const count = waiting === null ? view.waitingCount! : waiting.length;
      for (let i = 0; i < count; i++) {
        const job = (waiting === null ? view.waitingAt!(i)! : waiting[i]!).job;
        if (rejected?.has(job.id)) continue;
        if (readyTime(job) > now) break;
        const alloc = cache.allocate(view, job, opts.singleMachine, opts.exclusive);
        if (alloc === null) break;
        ctx.start(job.id, alloc);
      }
    },
  };
}
