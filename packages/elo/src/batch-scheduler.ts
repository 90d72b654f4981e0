import {
  eligibleMachines,
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
import { type MachineClasses, machineClasses } from "./machine-classes.js";
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
 * Complexity per `schedule` call, W ready waiting jobs, M machines, E expected times of those
 * jobs on machines that can run them (at most W M): O(W) when W is 0 (the machines are not
 * looked at), else O(M + E) to lay out the expected times (each job's are made once, O(M)) and
 * for the first best machines, then the heuristic's picks (O(log W) each, plus, per job looked
 * at again because its best machine was taken, O(1 + log W) and now and then a scan of its own
 * expected times: see `greedyPicks`) only until every idle machine has its first job. On a
 * platform of few classes of machines (told speed and cores alike, at most one class per 8
 * machines) and jobs without licenses, an event whose lists can be short maps on them instead:
 * of each class a job fits, the first W machines ready now and those ready later (R, the
 * machines whose started job is expected to end after now), in O(R + running jobs + W L) for
 * lists of L machines when L = C W + R (C classes) is under a quarter of M, with no pass over
 * the machines (the idle ones counted from the running jobs). An arriving job asking for more
 * cores than any one machine has is rejected in O(1), others in O(M) at most.
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
  let mostCores = 0; // of any one machine: a job asking for more fits none
  const started = new Map<number, { machine: number; start: number; job: Job }>();
  // each waiting job's expected times on the machines that can run it (machines ascending),
  // made once: they depend only on the job, the platform and the told speeds
  const rows = new Map<number, { job: Job; cols: Int32Array; vals: Float64Array }>();
  // where an event lays the lists out (longer than needed: the greedy reads up to offs[W])
  let colsBuffer = new Int32Array(0);
  let valsBuffer = new Float64Array(0);
  // the machines by class (told speed and cores), for the events whose lists can be short
  let classes: MachineClasses | null = null;
  // per-event marks and values by machine (valid where the mark is the event's), and buffers
  let call = 0;
  let busyMark = new Uint32Array(0);
  let lateMark = new Uint32Array(0);
  let readyAt = new Float64Array(0);
  const reset = (platform: Platform): void => {
    platformSeen = platform;
    speeds = toldSpeeds(options, platform, where);
    classes = machineClasses(platform, speeds);
    const n = platform.machines.length;
    call = 0;
    busyMark = new Uint32Array(n);
    lateMark = new Uint32Array(n);
    readyAt = new Float64Array(n);
    mostCores = 0;
    for (const machine of platform.machines) mostCores = Math.max(mostCores, machine.cores);
    started.clear();
    rows.clear();
  };
  const rowOf = (
    job: Job,
    platform: Platform,
  ): { job: Job; cols: Int32Array; vals: Float64Array } => {
    const kept = rows.get(job.id);
    if (kept !== undefined && kept.job === job) return kept;
    const size = jobSize(job, platform);
    const cols = Int32Array.from(eligibleMachines(job, platform));
    const vals = new Float64Array(cols.length);
    for (let k = 0; k < cols.length; k++) vals[k] = size / speeds[cols[k]!]!;
    const row = { job, cols, vals };
    rows.set(job.id, row);
    return row;
  };
  /**
   * The event on short lists, when they are short: each job's list holds, of each class it fits,
   * the first `W` machines ready now (W = jobs.length) and the machines ready later (those whose
   * started job is expected to end after now). The mapping picks what it picks on the whole
   * lists: a machine left out is ready now, as are the class's first W, which come before it
   * with the same expected time; the mapping takes at most W - 1 machines before its last look
   * at a job, so one of those W is still ready now then, and comes first. The machines are
   * numbered in the lists by their order (ties go to the lower index as before), and the idle
   * ones counted from the running jobs (the others have all their cores free). False, having
   * done nothing, when the lists would not be under a quarter of the machines: the plain way
   * then.
   */
  const shortEvent = (ctx: SchedulingContext, jobs: readonly Job[]): boolean => {
    const { view } = ctx;
    const platform = view.platform;
    const now = view.now;
    const m = platform.machines.length;
    const { classOf, members, cores } = classes!;
    const n = jobs.length;
    if (call === 0xffffffff) {
      call = 0;
      busyMark.fill(0);
      lateMark.fill(0);
    }
    const mark = ++call;
    let busy = 0;
    for (const r of view.running) {
      for (const part of r.allocation) {
        const j = part.machine;
        if (busyMark[j] !== mark && !isIdle(view, j)) {
          busyMark[j] = mark;
          busy++;
        }
      }
    }
    const idleCount = m - busy;
    if (idleCount === 0) return true;
    // the ready times of the machines with a started job (the plain way's, by the same max)
    const late: number[] = [];
    for (const s of started.values()) {
      const j = s.machine;
      const end = s.start + jobSize(s.job, platform) / speeds[j]!;
      if (lateMark[j] !== mark) {
        lateMark[j] = mark;
        readyAt[j] = now;
        late.push(j);
      }
      if (end > readyAt[j]!) readyAt[j] = end;
    }
    let fewest = Number.POSITIVE_INFINITY;
    for (const job of jobs) if (job.cores < fewest) fewest = job.cores;
    let length = late.length;
    for (let c = 0; c < members.length; c++) {
      if (cores[c]! >= fewest) length += Math.min(n, members[c]!.length);
    }
    if (length * 4 > m) return false;
    // the machines of the lists: of each class, the first n ready now, and those ready later
    const picked: number[] = [];
    for (let c = 0; c < members.length; c++) {
      if (cores[c]! < fewest) continue;
      const of = members[c]!;
      let count = 0;
      for (let k = 0; k < of.length && count < n; k++) {
        const j = of[k]!;
        if (lateMark[j] === mark && readyAt[j]! > now) continue;
        picked.push(j);
        count++;
      }
    }
    for (const j of late) if (readyAt[j]! > now && cores[classOf[j]!]! >= fewest) picked.push(j);
    const used = Int32Array.from(picked).sort();
    const u = used.length;
    const ready = new Float64Array(u);
    const wanted = new Uint8Array(u);
    for (let k = 0; k < u; k++) {
      const j = used[k]!;
      ready[k] = lateMark[j] === mark ? readyAt[j]! : now;
      wanted[k] = busyMark[j] === mark ? 0 : 1;
    }
    const offs = new Int32Array(n + 1);
    if (colsBuffer.length < n * u) {
      const size = Math.max(n * u, 2 * colsBuffer.length);
      colsBuffer = new Int32Array(size);
      valsBuffer = new Float64Array(size);
    }
    let p = 0;
    for (let i = 0; i < n; i++) {
      const job = jobs[i]!;
      const size = jobSize(job, platform);
      for (let k = 0; k < u; k++) {
        const j = used[k]!;
        if (cores[classOf[j]!]! < job.cores) continue;
        colsBuffer[p] = k;
        valsBuffer[p] = size / speeds[j]!;
        p++;
      }
      offs[i + 1] = p;
    }
    const etc = { offs, cols: colsBuffer, vals: valsBuffer };
    const mapping = firstMapped(n, u, etc, ready, largest, wanted, idleCount);
    const taken = new Uint8Array(u);
    for (const i of mapping.order) {
      const k = mapping.machineOf[i]!;
      if (taken[k] === 1) continue;
      taken[k] = 1; // only the first job mapped onto a machine may start now
      const j = k < 0 ? k : used[k]!;
      const job = jobs[i]!;
      if (!canStartNow(job, j, view)) continue;
      ctx.start(job.id, [{ machine: j, cores: job.cores }]);
      started.set(job.id, { machine: j, start: now, job });
      rows.delete(job.id);
    }
    return true;
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
        if (job.cores > mostCores) {
          // Wider than every machine: it fits none. One call still checks the job, so an
          // invalid one is an error here as on the per-machine path, never a rejection.
          fitsMachine(job, platform, 0);
        } else {
          for (let j = 0; j < m && !any; j++) any = fitsMachine(job, platform, j);
        }
        if (!any) ctx.reject(job.id, NO_MACHINE);
      }
      // the ready waiting jobs first: most events of a lightly loaded run have none, and then
      // the machines need not be looked at
      const jobs: Job[] = [];
      for (const w of view.waiting) if (isReady(w.job, now)) jobs.push(w.job);
      if (jobs.length === 0) return;
      if (classes !== null && jobs.every((job) => job.licenses === undefined)) {
        if (shortEvent(ctx, jobs)) return;
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
      if (rows.size > 2 * view.waiting.length + 1024) {
        const kept = new Set(view.waiting.map((w) => w.job));
        for (const [id, r] of rows) if (!kept.has(r.job)) rows.delete(id);
      }
      const ready = new Float64Array(m).fill(now);
      for (const s of started.values()) {
        const end = s.start + jobSize(s.job, platform) / speeds[s.machine]!;
        if (end > ready[s.machine]!) ready[s.machine] = end;
      }
      // the jobs' lists, end to end (EtcLists), in buffers kept from event to event
      const lists: { cols: Int32Array; vals: Float64Array }[] = [];
      const offs = new Int32Array(jobs.length + 1);
      for (let i = 0; i < jobs.length; i++) {
        const row = rowOf(jobs[i]!, platform);
        lists.push(row);
        offs[i + 1] = offs[i]! + row.cols.length;
      }
      if (colsBuffer.length < offs[jobs.length]!) {
        const length = Math.max(offs[jobs.length]!, 2 * colsBuffer.length);
        colsBuffer = new Int32Array(length);
        valsBuffer = new Float64Array(length);
      }
      for (let i = 0; i < jobs.length; i++) {
        colsBuffer.set(lists[i]!.cols, offs[i]!);
        valsBuffer.set(lists[i]!.vals, offs[i]!);
      }
      const etc = { offs, cols: colsBuffer, vals: valsBuffer };
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
