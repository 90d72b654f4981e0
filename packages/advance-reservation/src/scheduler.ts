import type {
  Allocation,
  AllocationPart,
  Job,
  Platform,
  Scheduler,
  SchedulingContext,
} from "@sched/core";
import { oneCoreAllocation } from "@sched/core";
import { describeValue, InvalidInputError, optionKeys, requireKnownKeys } from "@sched/errors";
import { admitOne, resolveAdmissionRule } from "./admission.js";
import { AvailRectList } from "./avail-rect-list.js";
import type { PeSelection } from "./pe-selection.js";
import { type AllocationPolicy, firstFit } from "./policies.js";

const WHERE = "@sched/advance-reservation/advanceReservation";
/**
 * Allocations of at least this many one-core parts are built by `oneCoreAllocation` (the engine
 * reads them by ranges; fewer parts it reads one by one at no loss).
 */
const ONE_CORE_FROM = 16;

/** Options of {@link advanceReservation}. */
export interface AdvanceReservationOptions {
  /**
   * How to choose among the feasible start times: one of the seven paper policies
   * (`firstFit`, `peBestFit`, `peWorstFit`, `durationBestFit`, `durationWorstFit`,
   * `peDurationBestFit`, `peDurationWorstFit`) or your own {@link AllocationPolicy}.
   * @defaultValue {@link firstFit}
   */
  readonly policy?: AllocationPolicy;
  /**
   * Clip rectangles at each request's deadline (see `FindAllocationOptions.clipToDeadline`).
   * @defaultValue true
   */
  readonly clipToDeadline?: boolean;
  /**
   * Which of the chosen rectangle's free PEs a reservation takes: `"lowest-index"`,
   * `"highest-index"`, `"soonest-reserved"` or `"latest-released"` (see
   * `FindAllocationOptions.peSelection`).
   * @defaultValue `"lowest-index"`
   */
  readonly peSelection?: PeSelection;
  /**
   * The scheduler's name in traces and reports.
   * @defaultValue `"AR-" + policy.name`, e.g. `"AR-PE_W"`
   */
  readonly name?: string;
}

/** The keys of {@link AdvanceReservationOptions}, all of them (checked by the compiler). */
const AR_KEYS = optionKeys<AdvanceReservationOptions>({
  policy: true,
  clipToDeadline: true,
  peSelection: true,
  name: true,
});

interface Booking {
  readonly job: Job;
  readonly start: number;
  readonly end: number;
  readonly pes: readonly number[];
  readonly allocation: Allocation;
}

/**
 * An admission-control scheduler for advance reservations with deadlines (the paper's meta-
 * scheduler), the engine's adapter over {@link admissionPass}: when a job arrives it decides it
 * by the same rule (`findAllocation` under the policy, on the reservations it holds), reserving
 * PEs for it or rejecting it with a reason. Accepted
 * jobs start at their reserved time on their reserved PEs (it sets a timer with `wakeAt`) and
 * their PEs are released when they complete; a job that ends early gives back the rest of its
 * reservation.
 *
 * The request of job `j` is `(tr, tdu, tdl, n)` = (`max(j.ready ?? j.submit, now)`, the
 * duration of `j.estimate` on the platform's slowest machine, `j.deadline ?? Infinity`,
 * `j.cores`): a job without a deadline has none; `deadline = ready + duration` is an immediate
 * deadline (one candidate start). PEs are the platform's cores, numbered machine by machine
 * (machine 0's cores first), so on `identicalPool(n)` PE `i` is machine `i`; the PEs of a
 * reservation become an allocation with one part per machine.
 *
 * Reservations are enforced: a job still running at the end of its reservation (its runtime
 * exceeded its estimate) is preempted and rejected then, so it never takes PEs reserved for
 * another job. Jobs that need licenses are rejected (the paper's model has none).
 *
 * Complexity per arrival: one `findAllocation` and one `addAllocation` (see
 * {@link AvailRectList}); per completion one `deleteAllocation`.
 *
 * @throws InvalidInputError when `options.policy` has no `compare` function, `options.clipToDeadline`
 * is not a boolean or `options.peSelection` is not one of its four values.
 *
 * @example
 * ```ts
 * const trace = simulate(jobs, identicalPool(1024), advanceReservation({ policy: peWorstFit }));
 * trace.records.filter((r) => r.outcome === "rejected").length; // rejected requests
 * ```
 */
export function advanceReservation(options: AdvanceReservationOptions = {}): Scheduler {
  requireKnownKeys(WHERE, "options", options, AR_KEYS);
  const rule = resolveAdmissionRule(WHERE, options);
  const name = options.name ?? `AR-${rule.policy.name}`;
  if (typeof name !== "string") {
    throw new InvalidInputError(
      WHERE,
      "options.name",
      `is ${describeValue(name)}, expected a string`,
    );
  }

  let platform: Platform | null = null;
  let list: AvailRectList | null = null;
  /** First PE of each machine. */
  let offsets: number[] = [];
  /** Machine of each PE. */
  let machineOf: Int32Array = new Int32Array(0);
  /** Index of the slowest machine (lowest index among equals). */
  let slowest = 0;
  /** Accepted jobs not started yet, by (start, id). */
  let pending: Booking[] = [];
  /** Started jobs by id. */
  let running = new Map<number, Booking>();
  /** Timers already requested. */
  let timers = new Set<number>();

  function init(p: Platform): void {
    platform = p;
    list = null;
    offsets = [];
    let total = 0;
    for (const m of p.machines) {
      offsets.push(total);
      total += m.cores;
    }
    machineOf = new Int32Array(total);
    slowest = 0;
    for (let i = 0; i < p.machines.length; i++) {
      const m = p.machines[i]!;
      machineOf.fill(i, offsets[i]!, offsets[i]! + m.cores);
      if (m.speed < p.machines[slowest]!.speed) slowest = i;
    }
    pending = [];
    running = new Map();
    timers = new Set();
  }

  function wake(ctx: SchedulingContext, t: number): void {
    if (t > ctx.view.now && !timers.has(t)) {
      timers.add(t);
      ctx.wakeAt(t);
    }
  }

  function admit(ctx: SchedulingContext, structure: AvailRectList, job: Job): void {
    if (job.licenses !== undefined && Object.keys(job.licenses).length > 0) {
      ctx.reject(job.id, "needs licenses, which advance reservation does not handle");
      return;
    }
    const request = {
      id: job.id,
      tr: job.ready ?? job.submit,
      tdu: ctx.view.duration(job, [{ machine: slowest, cores: 1 }], job.estimate),
      tdl: job.deadline ?? Number.POSITIVE_INFINITY,
      n: job.cores,
    };
    const decision = admitOne(structure, ctx.view.now, request, rule);
    if (!decision.accepted) {
      ctx.reject(job.id, decision.reason);
      return;
    }
    const booking: Booking = {
      job,
      start: decision.start,
      end: decision.end,
      pes: decision.pes,
      allocation: allocationOfPes(platform as Platform, machineOf, decision.pes),
    };
    // Insert by (start, id) so starts happen in a documented order.
    let lo = 0;
    let hi = pending.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const other = pending[mid]!;
      if (other.start < booking.start || (other.start === booking.start && other.job.id < job.id)) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    const i = lo;
    pending.splice(i, 0, booking);
    wake(ctx, booking.start);
  }

  return {
    name,
    reset(p: Platform): void {
      init(p);
    },
    schedule(ctx: SchedulingContext): void {
      const view = ctx.view;
      if (platform !== view.platform) init(view.platform);
      const now = view.now;
      if (list === null) list = new AvailRectList(machineOf.length, { origin: now });
      const structure = list;
      timers.delete(now);
      // 1. Completions give back the unused rest of their reservation.
      for (const job of ctx.completed) {
        const b = running.get(job.id);
        if (b === undefined) continue;
        running.delete(job.id);
        if (now < b.end) structure.deleteAllocation(now, b.end, b.pes);
      }
      structure.advanceTo(now);
      // 2. Jobs still running at the end of their reservation overran their estimate.
      // Only a timer (set at each reservation's end) can reveal one. Deleting the visited entry
      // while iterating a Map is safe.
      if (ctx.woken) {
        for (const b of running.values()) {
          if (b.end <= now) {
            running.delete(b.job.id);
            ctx.preempt(b.job.id);
            ctx.reject(b.job.id, `ran past the end of its reservation at ${b.end}`);
          }
        }
      }
      // 3. Admission control, in queue order.
      for (const job of ctx.arrived) admit(ctx, structure, job);
      // 4. Reservations that begin now.
      let k = 0;
      while (k < pending.length && pending[k]!.start <= now) {
        const b = pending[k]!;
        ctx.start(b.job.id, b.allocation);
        running.set(b.job.id, b);
        wake(ctx, b.end);
        k++;
      }
      if (k > 0) pending.splice(0, k);
    },
  };
}

/**
 * The allocation of the PEs `pes` (increasing, so a machine's PEs are adjacent): one part per
 * machine, in PE order, `machineOf[pe]` the machine of each PE. Internal (exported for the
 * tests).
 */
export function allocationOfPes(
  platform: Platform,
  machineOf: Int32Array,
  pes: readonly number[],
): Allocation {
  if (pes.length >= ONE_CORE_FROM) {
    // One PE per machine (one-core machines): the same parts, built by `oneCoreAllocation`,
    // which the engine reads by ranges of neighbouring machines instead of part by part.
    const machines = new Int32Array(pes.length);
    let last = -1;
    for (let i = 0; i < pes.length && last !== -2; i++) {
      const machine = machineOf[pes[i]!]!;
      machines[i] = machine;
      last = machine > last ? machine : -2;
    }
    if (last !== -2) return oneCoreAllocation(platform, machines);
  }
  const parts: AllocationPart[] = [];
  let i = 0;
  while (i < pes.length) {
    const machine = machineOf[pes[i]!]!;
    let j = i + 1;
    while (j < pes.length && machineOf[pes[j]!] === machine) j++;
    parts.push({ machine, cores: j - i });
    i = j;
  }
  return parts;
}
