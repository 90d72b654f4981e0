import {
  fitsMachine,
  type Job,
  type Platform,
  type Scheduler,
  type SchedulingContext,
} from "@sched/core";
import { requireKnownKeys } from "@sched/errors";
import { canStartNow, isIdle, isReady, NO_MACHINE } from "./eligibility.js";
import { jobSize } from "./expected-time.js";
import { HEURISTIC_KEYS, type HeuristicOptions, toldSpeeds } from "./heuristic-options.js";
import { firstMapped } from "./min-min.js";

/**
 * The Min-Min baseline as an online batch-mode scheduler (Maheswaran et al. 1999): at every
 * scheduling event, the waiting jobs whose ready time has come form the meta-task; {@link minMin}
 * maps them onto the machines, each machine ready when its running job is expected to end
 * (its start plus its expected time; now if that has passed) or now when idle. Every idle
 * machine then starts the first job mapped onto it; the other jobs stay waiting and are mapped
 * again at the next event. Expected times come from {@link expectedTime} with the told `speeds`;
 * a machine runs one job at a time. Jobs no single machine can run are rejected on arrival.
 *
 * Ties: as {@link minMin} (lowest machine index, then earliest in queue order).
 *
 * Complexity per `schedule` call, W waiting jobs and M machines: O(W M) to lay out their
 * expected times (each job's row is made once) and for the first best machines, then the
 * heuristic's picks (O(log W) each, plus, per job looked at again because its best machine was
 * taken: under Min-Min O(c + log W), c = M / 8 from 4 to 16 machines it remembers, O(M) for its
 * first two and when its remembered machines all were; under Max-Min O(M + log W)) only until
 * every idle machine has its first job.
 *
 * @throws InvalidInputError (at reset) when `speeds` does not fit the platform.
 * @example
 * ```ts
 * simulate(jobs, platform, minMinScheduler());
 * ```
 */
export function minMinScheduler(options: HeuristicOptions = {}): Scheduler {
  requireKnownKeys("@sched/elo/minMinScheduler", "options", options, HEURISTIC_KEYS);
  return batchScheduler("min-min", false, options, "@sched/elo/minMinScheduler");
}

/**
 * The Max-Min baseline: as {@link minMinScheduler} with {@link maxMin}, so the longest jobs are
 * mapped first.
 *
 * Complexity per `schedule` call: as {@link minMinScheduler}.
 *
 * @throws InvalidInputError (at reset) when `speeds` does not fit the platform.
 * @example
 * ```ts
 * simulate(jobs, platform, maxMinScheduler());
 * ```
 */
export function maxMinScheduler(options: HeuristicOptions = {}): Scheduler {
  requireKnownKeys("@sched/elo/maxMinScheduler", "options", options, HEURISTIC_KEYS);
  return batchScheduler("max-min", true, options, "@sched/elo/maxMinScheduler");
}

function batchScheduler(
  name: string,
  largest: boolean,
  options: HeuristicOptions,
  where: string,
): Scheduler {
  let platformSeen: Platform | null = null;
  let speeds: Float64Array = new Float64Array(0);
  const started = new Map<number, { machine: number; start: number; job: Job }>();
  // each waiting job's expected times on the machines that can run it (machines ascending),
  // made once: they depend only on the job, the platform and the told speeds
  const rows = new Map<number, { job: Job; cols: Int32Array; vals: Float64Array }>();
  const reset = (platform: Platform): void => {
    platformSeen = platform;
    speeds = toldSpeeds(options, platform, where);
    started.clear();
    rows.clear();
  };
  const rowOf = (
    job: Job,
    platform: Platform,
    m: number,
  ): { job: Job; cols: Int32Array; vals: Float64Array } => {
    const kept = rows.get(job.id);
    if (kept !== undefined && kept.job === job) return kept;
    const size = jobSize(job, platform);
    let count = 0;
    for (let j = 0; j < m; j++) if (fitsMachine(job, platform, j)) count++;
    const cols = new Int32Array(count);
    const vals = new Float64Array(count);
    let k = 0;
    for (let j = 0; j < m && k < count; j++) {
      if (!fitsMachine(job, platform, j)) continue;
      cols[k] = j;
      vals[k] = size / speeds[j]!;
      k++;
    }
    const row = { job, cols, vals };
    rows.set(job.id, row);
    return row;
  };
  return {
    name,
    reset,
    schedule(ctx: SchedulingContext): void {
      const { view } = ctx;
      const platform = view.platform;
      if (platformSeen !== platform) reset(platform);
      const now = view.now;
      const m = platform.machines.length;
      for (const job of ctx.completed) started.delete(job.id);
      for (const job of ctx.arrived) {
        let any = false;
        for (let j = 0; j < m && !any; j++) any = fitsMachine(job, platform, j);
        if (!any) ctx.reject(job.id, NO_MACHINE);
      }
      const idle = new Uint8Array(m);
      let idleCount = 0;
      for (let j = 0; j < m; j++) {
        if (isIdle(view, j)) {
          idle[j] = 1;
          idleCount++;
        }
      }
      if (idleCount === 0) return;
      const jobs: Job[] = [];
      for (const w of view.waiting) if (isReady(w.job, now)) jobs.push(w.job);
      if (jobs.length === 0) return;
      if (rows.size > 2 * view.waiting.length + 1024) {
        const kept = new Set(view.waiting.map((w) => w.job));
        for (const [id, r] of rows) if (!kept.has(r.job)) rows.delete(id);
      }
      const ready = new Float64Array(m).fill(now);
      for (const s of started.values()) {
        const end = s.start + jobSize(s.job, platform) / speeds[s.machine]!;
        if (end > ready[s.machine]!) ready[s.machine] = end;
      }
      // the jobs' lists, end to end (EtcLists)
      const lists: { cols: Int32Array; vals: Float64Array }[] = [];
      const offs = new Int32Array(jobs.length + 1);
      for (let i = 0; i < jobs.length; i++) {
        const row = rowOf(jobs[i]!, platform, m);
        lists.push(row);
        offs[i + 1] = offs[i]! + row.cols.length;
      }
      const cols = new Int32Array(offs[jobs.length]!);
      const vals = new Float64Array(offs[jobs.length]!);
      for (let i = 0; i < jobs.length; i++) {
        cols.set(lists[i]!.cols, offs[i]!);
        vals.set(lists[i]!.vals, offs[i]!);
      }
      const etc = { offs, cols, vals };
      // the mapping up to the pick that gives the last idle machine its first job: only the
      // first job mapped onto an idle machine may start now
      const mapping = firstMapped(jobs.length, m, etc, ready, largest, idle);
      const taken = new Uint8Array(m);
      for (const i of mapping.order) {
        const j = mapping.machineOf[i]!;
        if (taken[j] === 1) continue;
        taken[j] = 1; // only the first job mapped onto a machine may start now
        const job = jobs[i]!;
        if (!canStartNow(job, j, view)) continue;
        ctx.start(job.id, [{ machine: j, cores: job.cores }]);
        started.set(job.id, { machine: j, start: now, job });
        rows.delete(job.id);
      }
    },
  };
}
