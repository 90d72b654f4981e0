import {
  describeValue,
  InvalidInputError,
  optionKeys,
  requireBoolean,
  requireKnownKeys,
} from "@sched/errors";
import { defaultExecutionModel, type ExecutionModel } from "./execution.js";
import { mostCores } from "./job.js";
import type { JobRecord, ScheduleTrace } from "./trace.js";
import { checkRecord, checkTrace } from "./trace-check.js";
import type { Allocation, Job, License, Platform } from "./types.js";

/** The invariants {@link checkSchedule} checks. */
export type ViolationKind =
  /** More cores in use on a machine than it has. */
  | "capacity"
  /** More license copies in use than exist, or a license used where it is not usable / unknown. */
  | "license"
  /** An interval starts before the job's submit time. */
  | "start-before-submit"
  /** An interval starts before the job's ready time. */
  | "start-before-ready"
  /** A completed job whose intervals do not add up to exactly its work (fraction != 1). */
  | "work"
  /** With `deadlinesAreHard`: a job with a deadline, not rejected, that ended (or was cut) after it. */
  | "deadline-missed"
  /** A job unfinished although the run was not cut by a horizon. */
  | "lost"
  /** Two intervals of one job overlap. */
  | "overlap"
  /** An allocation whose cores do not add up to `job.cores` (a moldable job: outside `job.cores .. job.maxParallelism`), a repeated machine or a part < 1 core. */
  | "allocation"
  /** An allocation part on a machine the platform does not have. */
  | "unknown-machine"
  /** A record that contradicts itself: empty or reversed interval, end != last interval end, duplicate id. */
  | "record";

/** One violated invariant. */
export interface Violation {
  readonly kind: ViolationKind;
  readonly jobId: number;
  /** When it happens (the offending interval's start, the job's end, …), seconds. */
  readonly time: number;
  readonly message: string;
}

/** Options of {@link checkSchedule}. */
export interface CheckOptions {
  /** Report `deadline-missed` for admitted jobs that end after their deadline. @defaultValue `false` */
  readonly deadlinesAreHard?: boolean;
  /**
   * The execution model the run used (for work conservation; with a `slowdowns` hook the
   * piecewise rates are integrated over the trace). @defaultValue {@link defaultExecutionModel}
   */
  readonly executionModel?: ExecutionModel;
  /** Relative tolerance on work fractions and times. @defaultValue `1e-9` */
  readonly tolerance?: number;
}

/** The keys of {@link CheckOptions}, all of them (checked by the compiler). */
const CHECK_KEYS = optionKeys<CheckOptions>({
  deadlinesAreHard: true,
  executionModel: true,
  tolerance: true,
});

const WHERE = "@sched/core/checkSchedule";

/**
 * Every violated invariant of a schedule trace, not just the first: capacity per machine over
 * time, license copies over time (floating pool; node-locked per machine, on the allocation's
 * first machine), starts before submit or ready time, work not conserved across preemptions,
 * late admitted deadline jobs (with `deadlinesAreHard`), lost jobs, overlapping intervals,
 * allocations that do not give `job.cores` cores (moldable jobs: `job.cores` to
 * `job.maxParallelism`), unknown machines. An empty array means valid.
 * Violations are sorted by time, then job id, then kind.
 *
 * Complexity: O(I log I) for I interval parts.
 *
 * @throws InvalidInputError when an option is invalid, or when the trace is malformed rather
 * than invalid: a field missing or of the wrong type, a time that is not a finite number (e.g.
 * `trace.records[12].intervals[0].start is NaN, expected a finite number`). A well-typed record
 * that breaks an invariant (a reversed interval, an unknown machine, a part of 0 cores) is a
 * violation in the result, not an error.
 *
 * @example
 * ```ts
 * checkSchedule(simulate(jobs, platform, policy)); // []
 * ```
 */
export function checkSchedule(trace: ScheduleTrace, options: CheckOptions = {}): Violation[] {
  requireKnownKeys(WHERE, "options", options, CHECK_KEYS);
  const hard = requireBoolean(WHERE, "options.deadlinesAreHard", options.deadlinesAreHard ?? false);
  const model = options.executionModel ?? defaultExecutionModel;
  const tol = options.tolerance ?? 1e-9;
  if (typeof tol !== "number" || !(tol >= 0) || !Number.isFinite(tol)) {
    throw new InvalidInputError(
      WHERE,
      "options.tolerance",
      `is ${describeValue(tol)}, expected a finite number >= 0`,
    );
  }
  if (typeof model?.duration !== "function") {
    throw new InvalidInputError(WHERE, "options.executionModel", "has no duration function");
  }
  if (model.slowdowns !== undefined && typeof model.slowdowns !== "function") {
    throw new InvalidInputError(WHERE, "options.executionModel.slowdowns", "is not a function");
  }
  // Types only: a well-typed record that breaks an invariant is a violation, reported below.
  checkTrace(WHERE, "trace", trace);
  // Contention models: the work of each interval depends on what ran alongside it, so it is
  // integrated after every record has been read.
  const contention = model.slowdowns !== undefined;
  const rateIntervals: RateInterval[] = [];
  const deferred: { record: JobRecord; slack: number; first: number; count: number }[] = [];
  const platform = trace.platform;
  const nMachines = platform.machines.length;
  const out: Violation[] = [];
  const add = (kind: ViolationKind, jobId: number, time: number, message: string) => {
    out.push({ kind, jobId, time, message: `job ${jobId}: ${message}` });
  };
  const near = (a: number, b: number) =>
    Math.abs(a - b) <= tol * Math.max(1, Math.abs(a), Math.abs(b));
  const seen = new Set<number>();
  const licenses = new Map<string, License>();
  for (const l of platform.licenses) licenses.set(l.name, l);

  // Sweep events, as parallel arrays: time, delta (+ at start, - at end), resource key, job.
  const evTime: number[] = [];
  const evDelta: number[] = [];
  const evKey: number[] = [];
  const evJob: number[] = [];
  const keyNames: string[] = [];
  const keyCapacity: number[] = [];
  const keyIndex = new Map<string, number>();
  // Keys 0..machines-1 are the machines' cores; license keys follow.
  for (const m of platform.machines) {
    keyIndex.set(`machine ${m.id}`, m.id);
    keyNames.push(`machine ${m.id}`);
    keyCapacity.push(m.cores);
  }
  const seenStamp = new Int32Array(nMachines);
  let stamp = 0;
  const keyOf = (name: string, capacity: number) => {
    let k = keyIndex.get(name);
    if (k === undefined) {
      k = keyNames.length;
      keyIndex.set(name, k);
      keyNames.push(name);
      keyCapacity.push(capacity);
    }
    return k;
  };
  const use = (key: number, start: number, end: number, amount: number, jobId: number) => {
    evTime.push(start, end);
    evDelta.push(amount, -amount);
    evKey.push(key, key);
    evJob.push(jobId, jobId);
  };

  const records = trace.records;
  for (let index = 0; index < records.length; index++) {
    const r = records[index]!;
    // each record's shape as it is read (one pass), any finite machine number (an unknown
    // machine is a violation)
    checkRecord(WHERE, "trace.records", index, r, -1);
    const job = r.job;
    const id = job.id;
    if (seen.has(id)) add("record", id, job.submit, "appears in more than one record");
    seen.add(id);
    checkRecordShape(r, add, near);
    const ivs =
      r.intervals.length < 2
        ? r.intervals
        : [...r.intervals].sort((a, b) => a.start - b.start || a.end - b.end);
    const earliest = job.ready !== undefined && job.ready > job.submit ? job.ready : job.submit;
    let work = 0;
    let allValid = true;
    const first = rateIntervals.length;
    // Rounding slack: times carry absolute errors of ~eps * |t|, which become relative errors of
    // ~eps * |t| / duration in a work fraction.
    let slack = tol;
    for (let i = 0; i < ivs.length; i++) {
      const iv = ivs[i]!;
      if (i > 0 && iv.start < ivs[i - 1]!.end && !near(iv.start, ivs[i - 1]!.end)) {
        add(
          "overlap",
          id,
          iv.start,
          `interval [${iv.start}, ${iv.end}] overlaps [${ivs[i - 1]!.start}, ${ivs[i - 1]!.end}]`,
        );
      }
      if (iv.start < job.submit) {
        add(
          "start-before-submit",
          id,
          iv.start,
          `starts at ${iv.start}, before its submit time ${job.submit}`,
        );
      } else if (iv.start < earliest) {
        add(
          "start-before-ready",
          id,
          iv.start,
          `starts at ${iv.start}, before its ready time ${earliest}`,
        );
      }
      let cores = 0;
      let valid = iv.allocation.length > 0;
      stamp++;
      for (const part of iv.allocation) {
        const m = part.machine;
        if (!Number.isInteger(m) || m < 0 || m >= nMachines) {
          add(
            "unknown-machine",
            id,
            iv.start,
            `allocation uses machine ${m}, the platform has ${nMachines}`,
          );
          valid = false;
          continue;
        }
        if (seenStamp[m] === stamp) {
          add("allocation", id, iv.start, `allocation lists machine ${m} twice`);
          valid = false;
        }
        seenStamp[m] = stamp;
        if (!Number.isInteger(part.cores) || part.cores < 1) {
          add("allocation", id, iv.start, `allocation gives ${part.cores} cores on machine ${m}`);
          valid = false;
          continue;
        }
        cores += part.cores;
        use(m, iv.start, iv.end, part.cores, id);
      }
      const most = mostCores(job);
      if (cores < job.cores || cores > most) {
        add(
          "allocation",
          id,
          iv.start,
          most === job.cores
            ? `allocation gives ${cores} cores, the job needs ${job.cores}`
            : `allocation gives ${cores} cores, the moldable job takes ${job.cores} to ${most}`,
        );
        valid = false;
      }
      if (job.licenses !== undefined && iv.allocation.length > 0) {
        checkLicenses(job.licenses, iv, licenses, id, add, keyOf, use);
      }
      if (!valid) allValid = false;
      if (valid && iv.end > iv.start) {
        const d = model.duration(job, iv.allocation, platform, job.runtime, iv.start);
        if (contention) {
          rateIntervals.push({
            job,
            allocation: iv.allocation,
            start: iv.start,
            end: iv.end,
            duration: d,
            work: 0,
            slack: 0,
          });
          slack += tol;
        } else {
          work += (iv.end - iv.start) / d;
          slack += tol + (8 * Number.EPSILON * Math.max(Math.abs(iv.start), Math.abs(iv.end))) / d;
        }
      }
    }
    if (contention) {
      if (r.outcome === "completed" && allValid) {
        deferred.push({ record: r, slack, first, count: rateIntervals.length - first });
      }
    } else if (r.outcome === "completed" && allValid && Math.abs(work - 1) > slack) {
      add(
        "work",
        id,
        r.end ?? job.submit,
        `completed with ${work} of its work done (expected exactly 1)`,
      );
    }
    if (r.outcome === "unfinished" && trace.horizon === undefined) {
      add("lost", id, job.submit, "is unfinished although the run was not cut by a horizon");
    }
    if (hard && job.deadline !== undefined && r.outcome !== "rejected") {
      const end = r.outcome === "completed" ? r.end : trace.horizon;
      if (end !== null && end !== undefined && end > job.deadline && !near(end, job.deadline)) {
        add(
          "deadline-missed",
          id,
          end,
          `was admitted with deadline ${job.deadline} and ${r.outcome === "completed" ? "ended" : "was still unfinished"} at ${end}`,
        );
      }
    }
  }

  if (contention && rateIntervals.length > 0) {
    integrateContention(rateIntervals, model, platform);
    for (const d of deferred) {
      let work = 0;
      let slack = d.slack;
      for (let i = d.first; i < d.first + d.count; i++) {
        work += rateIntervals[i]!.work;
        slack += rateIntervals[i]!.slack;
      }
      if (Math.abs(work - 1) > slack) {
        const job = d.record.job;
        add(
          "work",
          job.id,
          d.record.end ?? job.submit,
          `completed with ${work} of its work done (expected exactly 1)`,
        );
      }
    }
  }

  // Sweep: at equal times, releases before acquisitions. Only resources that overflow at all
  // (found by a payload-free pass per resource) get the detailed sort that names the jobs.
  const order = overflowingEvents(evTime, evDelta, evKey, keyCapacity);
  order.sort((a, b) => evTime[a]! - evTime[b]! || evDelta[a]! - evDelta[b]!);
  const level = new Float64Array(keyNames.length);
  const reported = new Set<string>();
  for (const e of order) {
    const k = evKey[e]!;
    level[k] = level[k]! + evDelta[e]!;
    if (evDelta[e]! > 0 && level[k]! > keyCapacity[k]!) {
      const jobId = evJob[e]!;
      const tag = `${k}:${jobId}`;
      if (reported.has(tag)) continue;
      reported.add(tag);
      const name = keyNames[k]!;
      const isMachine = name.startsWith("machine ");
      add(
        isMachine ? "capacity" : "license",
        jobId,
        evTime[e]!,
        `${name}: ${level[k]} ${isMachine ? "cores" : "copies"} in use at ${evTime[e]}, capacity ${keyCapacity[k]}`,
      );
    }
  }
  const rank: Record<ViolationKind, number> = {
    record: 0,
    "unknown-machine": 1,
    allocation: 2,
    overlap: 3,
    "start-before-submit": 4,
    "start-before-ready": 5,
    capacity: 6,
    license: 7,
    work: 8,
    "deadline-missed": 9,
    lost: 10,
  };
  return out.sort((a, b) => a.time - b.time || a.jobId - b.jobId || rank[a.kind] - rank[b.kind]);
}

/** A valid interval of positive length, for {@link integrateContention}. */
interface RateInterval {
  readonly job: Job;
  readonly allocation: Allocation;
  readonly start: number;
  readonly end: number;
  /** The model's duration of the whole job on this allocation (fixed at the start). */
  readonly duration: number;
  /** Work fraction done in the interval, and its rounding slack (filled by the integration). */
  work: number;
  slack: number;
}

/**
 * Integrates piecewise rates: between consecutive interval ends/starts the set of running
 * intervals is constant; the model's `slowdowns` for that set (ordered by start time, then job
 * id, as the engine orders `running`) gives each interval's rate `1 / (duration * slowdown)`.
 *
 * Complexity: O(B * A + I log I) plus the model's work, for B breakpoints, A intervals running
 * at once and I intervals.
 */
function integrateContention(ivs: RateInterval[], model: ExecutionModel, platform: Platform): void {
  const order = ivs.map((_, i) => i);
  order.sort((a, b) => ivs[a]!.start - ivs[b]!.start || ivs[a]!.job.id - ivs[b]!.job.id);
  const times = new Float64Array(ivs.length * 2);
  ivs.forEach((iv, i) => {
    times[2 * i] = iv.start;
    times[2 * i + 1] = iv.end;
  });
  times.sort();
  let active: RateInterval[] = [];
  let next = 0;
  for (let b = 0; b < times.length; b++) {
    const t = times[b]!;
    if (b > 0 && t === times[b - 1]) continue;
    active = active.filter((iv) => iv.end > t);
    while (next < order.length && ivs[order[next]!]!.start <= t) active.push(ivs[order[next++]!]!);
    let u = t;
    for (let c = b + 1; c < times.length; c++) {
      if (times[c]! > t) {
        u = times[c]!;
        break;
      }
    }
    if (u === t || active.length === 0) continue;
    const factors = model.slowdowns!(active, platform);
    for (let i = 0; i < active.length; i++) {
      const iv = active[i]!;
      const f = factors[i]!;
      const rateTime = iv.duration * f;
      iv.work += (u - t) / rateTime;
      iv.slack += (8 * Number.EPSILON * Math.max(Math.abs(t), Math.abs(u))) / rateTime;
    }
  }
}

/**
 * Indices of the events of every resource whose level exceeds its capacity at some time. Per
 * resource: sort its event times (native typed-array sort), add each event's delta at its
 * time's rank, and scan the prefix sums. The level after all changes at a time is what
 * matters: within one time, releases come first, so any overflow shows in that level.
 */
function overflowingEvents(
  evTime: readonly number[],
  evDelta: readonly number[],
  evKey: readonly number[],
  keyCapacity: readonly number[],
): number[] {
  const nKeys = keyCapacity.length;
  const nEvents = evTime.length;
  const offsets = new Int32Array(nKeys + 1);
  for (let e = 0; e < nEvents; e++) offsets[evKey[e]! + 1]!++;
  for (let k = 0; k < nKeys; k++) offsets[k + 1] = offsets[k + 1]! + offsets[k]!;
  const cursor = offsets.slice(0, nKeys);
  const grouped = new Int32Array(nEvents);
  for (let e = 0; e < nEvents; e++) grouped[cursor[evKey[e]!]!++] = e;
  const out: number[] = [];
  for (let k = 0; k < nKeys; k++) {
    const lo = offsets[k]!;
    const hi = offsets[k + 1]!;
    const times = new Float64Array(hi - lo);
    for (let i = lo; i < hi; i++) times[i - lo] = evTime[grouped[i]!]!;
    times.sort();
    let distinct = 0;
    for (let i = 0; i < times.length; i++) {
      if (distinct === 0 || times[i] !== times[distinct - 1]) times[distinct++] = times[i]!;
    }
    const diff = new Float64Array(distinct);
    for (let i = lo; i < hi; i++) {
      const e = grouped[i]!;
      const t = evTime[e]!;
      let a = 0;
      let b = distinct - 1;
      while (a < b) {
        const mid = (a + b) >>> 1;
        if (times[mid]! < t) a = mid + 1;
        else b = mid;
      }
      diff[a] = diff[a]! + evDelta[e]!;
    }
    let level = 0;
    let overflow = false;
    for (let r = 0; r < distinct && !overflow; r++) {
      level += diff[r]!;
      if (level > keyCapacity[k]!) overflow = true;
    }
    if (overflow) for (let i = lo; i < hi; i++) out.push(grouped[i]!);
  }
  return out;
}

type Add = (kind: ViolationKind, jobId: number, time: number, message: string) => void;

function checkRecordShape(r: JobRecord, add: Add, near: (a: number, b: number) => boolean): void {
  const id = r.job.id;
  let lastEnd = Number.NEGATIVE_INFINITY;
  const n = r.intervals.length;
  for (let i = 0; i < n; i++) {
    const iv = r.intervals[i]!;
    // A completed job restarted when the rest of its work was below the clock's resolution
    // (start + remaining === start) ends at its restart: its last interval is empty, and valid.
    const restEnd =
      i === n - 1 && r.outcome === "completed" && iv.end === iv.start && r.end === iv.end && n > 1;
    if (!(iv.end > iv.start) && !restEnd) {
      add("record", id, iv.start, `interval [${iv.start}, ${iv.end}] is empty or reversed`);
    }
    if (iv.end > lastEnd) lastEnd = iv.end;
  }
  if (r.outcome === "completed") {
    if (r.intervals.length === 0) add("record", id, r.job.submit, "is completed but never ran");
    else if (r.end === null || !near(r.end, lastEnd)) {
      add(
        "record",
        id,
        lastEnd,
        `is completed at ${String(r.end)} but its last interval ends at ${lastEnd}`,
      );
    }
  } else if (r.outcome === "rejected") {
    if (r.end === null) add("record", id, r.job.submit, "is rejected with no rejection time");
    else if (r.end < lastEnd && !near(r.end, lastEnd)) {
      add("record", id, r.end, `is rejected at ${r.end} but ran until ${lastEnd}`);
    }
  } else if (r.end !== null) {
    add("record", id, r.end, "is unfinished but has an end time");
  }
}

function checkLicenses(
  request: Readonly<Record<string, number>>,
  iv: { start: number; end: number; allocation: readonly { machine: number; cores: number }[] },
  licenses: Map<string, License>,
  id: number,
  add: Add,
  keyOf: (name: string, capacity: number) => number,
  use: (key: number, start: number, end: number, amount: number, jobId: number) => void,
): void {
  const first = iv.allocation[0]!.machine;
  for (const name in request) {
    const copies = request[name]!;
    const l = licenses.get(name);
    if (l === undefined) {
      add("license", id, iv.start, `uses license ${name}, which the platform does not have`);
      continue;
    }
    if (l.kind === "floating") {
      if (l.machines !== undefined) {
        for (const part of iv.allocation) {
          if (!l.machines.includes(part.machine)) {
            add(
              "license",
              id,
              iv.start,
              `uses floating license ${name} on machine ${part.machine}, where it is not usable`,
            );
          }
        }
      }
      use(keyOf(`license ${name}`, l.copies), iv.start, iv.end, copies, id);
    } else {
      if (!(l.machines ?? []).includes(first)) {
        add(
          "license",
          id,
          iv.start,
          `uses node-locked license ${name} on machine ${first}, which has no copy`,
        );
        continue;
      }
      use(keyOf(`license ${name} on machine ${first}`, l.copies), iv.start, iv.end, copies, id);
    }
  }
}
