import type { Scheduler } from "@sched/core";
import { requireKnownKeys } from "@sched/errors";
import { jobSize } from "./expected-time.js";
import { HEURISTIC_KEYS, type HeuristicOptions, toldSpeeds } from "./heuristic-options.js";
import { queueScheduler } from "./machine-queues.js";
import { mct } from "./mct.js";

/**
 * The MCT (minimum completion time) baseline as an online scheduler: each arriving job, in queue
 * order, is bound to the machine where it is expected to complete first ({@link mct}), counting
 * what that machine is expected to be busy with: the expected rest of its running job, then the
 * jobs already queued on it. Expected times come from {@link expectedTime} with the told
 * `speeds`; a machine runs one job at a time, its queue in FIFO order.
 *
 * Complexity: O(machines) per arriving job plus O(machines) per `schedule` call.
 *
 * @throws InvalidInputError (at reset) when `speeds` does not fit the platform.
 * @example
 * ```ts
 * simulate(jobs, platform, mctScheduler());
 * ```
 */
export function mctScheduler(options: HeuristicOptions = {}): Scheduler {
  const where = "@sched/elo/mctScheduler";
  requireKnownKeys(where, "options", options, HEURISTIC_KEYS);
  let speeds: Float64Array = new Float64Array(0);
  return queueScheduler("mct", {
    reset(platform) {
      speeds = toldSpeeds(options, platform, where);
    },
    choose(jobs, eligible, state, now) {
      const { platform, queued, running } = state;
      const m = platform.machines.length;
      const ready = new Float64Array(m);
      for (let j = 0; j < m; j++) {
        const r = running[j];
        let t = r == null ? now : Math.max(now, r.start + jobSize(r.job, platform) / speeds[j]!);
        for (const q of queued[j]!) t += jobSize(q, platform) / speeds[j]!;
        ready[j] = t;
      }
      const etc = new Float64Array(jobs.length * m).fill(Number.POSITIVE_INFINITY);
      jobs.forEach((job, i) => {
        const size = jobSize(job, platform);
        for (const j of eligible[i]!) etc[i * m + j] = size / speeds[j]!;
      });
      return Array.from(mct({ tasks: jobs.length, machines: m, etc, ready }).machineOf);
    },
  });
}
