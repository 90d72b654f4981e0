import {
  eligibleMachines,
  type Job,
  type Platform,
  type Scheduler,
  type SchedulingContext,
} from "@sched/core";
import { canStartNow, NO_MACHINE } from "./eligibility.js";

/**
 * Immediate-mode mapping: each arriving job is bound to one machine for good and waits in that
 * machine's FIFO queue; an idle machine starts the head of its queue when it can (ready time
 * reached, licenses free). Random assignment and MCT differ only in `choose`. @internal
 */
export interface QueueChooser {
  reset(platform: Platform): void;
  /**
   * Binds each job of `jobs` (arrival order; every job has at least one eligible machine,
   * `eligible[i]` ascending) to a machine; `queued[m]` is the job ids waiting on m, `running[m]`
   * the job running on m (or null) with its start.
   */
  choose(
    jobs: readonly Job[],
    eligible: readonly (readonly number[])[],
    state: QueueState,
    now: number,
  ): number[];
}

/** What a chooser may read. @internal */
export interface QueueState {
  readonly platform: Platform;
  readonly queued: readonly (readonly Job[])[];
  readonly running: readonly ({ readonly job: Job; readonly start: number } | null)[];
}

/** Builds a queue-based scheduler. @internal */
export function queueScheduler(name: string, chooser: QueueChooser): Scheduler {
  let platformSeen: Platform | null = null;
  let queued: Job[][] = [];
  let running: ({ job: Job; start: number } | null)[] = [];
  const where = new Map<number, number>();

  const reset = (platform: Platform): void => {
    platformSeen = platform;
    queued = platform.machines.map(() => []);
    running = platform.machines.map(() => null);
    where.clear();
    chooser.reset(platform);
  };

  return {
    name,
    reset,
    schedule(ctx: SchedulingContext): void {
      const { view } = ctx;
      const platform = view.platform;
      if (platformSeen !== platform) reset(platform);
      for (const job of ctx.completed) {
        const m = where.get(job.id);
        if (m === undefined) continue;
        where.delete(job.id);
        running[m] = null;
      }
      const jobs: Job[] = [];
      const eligible: number[][] = [];
      for (const job of ctx.arrived) {
        const ms = eligibleMachines(job, platform);
        if (ms.length === 0) ctx.reject(job.id, NO_MACHINE);
        else {
          jobs.push(job);
          eligible.push(ms);
        }
      }
      if (jobs.length > 0) {
        const chosen = chooser.choose(jobs, eligible, { platform, queued, running }, view.now);
        for (let i = 0; i < jobs.length; i++) {
          queued[chosen[i]!]!.push(jobs[i]!);
          where.set(jobs[i]!.id, chosen[i]!);
        }
      }
      for (let m = 0; m < queued.length; m++) {
        const head = queued[m]![0];
        if (head === undefined || running[m] !== null) continue;
        if (!canStartNow(head, m, view)) continue;
        ctx.start(head.id, [{ machine: m, cores: head.cores }]);
        queued[m]!.shift();
        running[m] = { job: head, start: view.now };
      }
    },
  };
}
