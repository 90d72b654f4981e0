import { describeValue, InvalidInputError } from "@sched/errors";
import {
  FREE_CORES,
  FREE_RUN_END,
  LEDGER_OF_VIEW,
  ONE_CORE,
  type ResourceLedger,
} from "./ledger.js";
import {
  builtOnes,
  frozenPart,
  markDeepFrozen,
  type PartTable,
  partTable,
  RUNS,
  RUNS_MIN_PARTS,
} from "./parts.js";
import { requirePlatform } from "./platform.js";
import type { SchedulerView } from "./scheduler.js";
import type { Allocation, AllocationPart, Platform } from "./types.js";

/**
 * First fit: takes free cores machine by machine, lowest machine index first, until `cores`
 * are gathered; `null` when fewer than `cores` are free in total. The allocation may span
 * several machines (FCFS/EASY on a pool of identical single-core machines). It does not look
 * at licenses. The result is frozen (the engine then keeps it without copying).
 *
 * Complexity: O(1) when not enough cores are free; otherwise O(k + r log32 machines) with the
 * engine's view (k = machines used, r = runs of neighbouring machines among them: one
 * `nextFreeMachine` call each).
 *
 * @throws InvalidInputError when `view` is not an object or `cores` not an integer.
 *
 * @example
 * ```ts
 * // free cores: m0 1, m1 0, m2 4
 * firstFitAllocation(view, 3); // [{ machine: 0, cores: 1 }, { machine: 2, cores: 2 }]
 * firstFitAllocation(view, 6); // null
 * ```
 */
export function firstFitAllocation(view: SchedulerView, cores: number): Allocation | null {
  if (typeof view !== "object" || view === null) {
    throw new InvalidInputError(
      "@sched/core/firstFitAllocation",
      "view",
      `is ${describeValue(view)}, expected a scheduler view`,
    );
  }
  if (typeof cores !== "number" || !Number.isInteger(cores)) {
    throw new InvalidInputError(
      "@sched/core/firstFitAllocation",
      "cores",
      `is ${describeValue(cores)}, expected an integer (null for fewer than 1)`,
    );
  }
  if (cores < 1 || view.totalFreeCores < cores) return null;
  // on the engine's own view: the same walk on the ledger's arrays
  const ledger = LEDGER_OF_VIEW.get(view);
  if (ledger !== undefined) return firstFitOnLedger(ledger, cores, partTable(view.platform));
  const parts: AllocationPart[] = [];
  let need = cores;
  const machines = view.platform.machines;
  const n = machines.length;
  const table = partTable(view.platform);
  let m = view.nextFreeMachine(0);
  let free = m >= 0 ? view.freeCores(m) : 0;
  // The runs of neighbouring machines (first, end), while every part is of one core; only for a
  // job that could get RUNS_MIN_PARTS parts (no array for the usual few-core job).
  const runs: number[] | null = cores >= RUNS_MIN_PARTS ? [] : null;
  let ones = true;
  let first = m;
  while (need > 0 && m >= 0) {
    const take = Math.min(need, free);
    // (a one-core part needs no look at the machine: every machine has a core)
    parts.push(frozenPart(table, m, take, take === 1 ? 1 : machines[m]!.cores));
    if (take !== 1) ones = false;
    need -= take;
    if (need === 0 || m + 1 >= n) break;
    // The next machine when it has a free core (free machines come in runs on a pool of
    // single-core machines: a 16,384-core job then costs no tree walk per part), else a walk.
    free = view.freeCores(m + 1);
    if (free > 0) m++;
    else {
      runs?.push(first, m + 1);
      m = view.nextFreeMachine(m + 1);
      first = m;
      free = m >= 0 ? view.freeCores(m) : 0;
    }
  }
  if (need !== 0) return null;
  if (runs !== null && ones && parts.length >= RUNS_MIN_PARTS) {
    runs.push(first, m + 1);
    Object.defineProperty(parts, RUNS, { value: Int32Array.from(runs) });
  }
  Object.freeze(parts);
  markDeepFrozen(parts);
  return parts;
}

/**
 * The machine ranges `[first, end)` of one {@link firstFitOnLedger} call, two entries a range;
 * reused from call to call (the walk calls nothing that could start another), grown as needed.
 */
let rangeScratch = new Int32Array(64);

/**
 * {@link firstFitAllocation} on the engine's ledger (at least `cores` free): the same parts in
 * the same order, from the ledger's free cores per machine read in place, one `nextFreeMachine`
 * per run of machines with a free core. The walk notes the runs first; the parts follow from
 * them: on a pool of single-core machines (every part of one core) a run is a slice of the
 * platform's shared one-core parts (one copy, not a push per part), and an allocation of
 * {@link RUNS_MIN_PARTS} parts or more keeps its runs as its `RUNS`.
 */
function firstFitOnLedger(
  ledger: ResourceLedger,
  cores: number,
  table: PartTable,
): Allocation | null {
  const free = ledger[FREE_CORES];
  const n = free.length;
  let ranges = rangeScratch;
  let count = 0;
  // every part is of one core (a machine with more free cores gives one only as the last part)
  let allOnes = true;
  let need = cores;
  // One-core machines: a run of machines with a free core found 32 machines a step.
  const oneCore = ledger[ONE_CORE];
  let m = ledger.nextFreeMachine(0);
  while (m >= 0) {
    const first = m;
    if (oneCore) {
      m = ledger[FREE_RUN_END](m, Math.min(n, m + need));
      need -= m - first;
    } else {
      while (m < n && need > 0) {
        const f = free[m]!;
        if (f === 0) break;
        if (f !== 1 && need !== 1) allOnes = false;
        need -= Math.min(f, need);
        m++;
      }
    }
    if (count + 2 > ranges.length) {
      const grown = new Int32Array(ranges.length * 2);
      grown.set(ranges);
      ranges = grown;
      rangeScratch = grown;
    }
    ranges[count++] = first;
    ranges[count++] = m;
    if (need === 0 || m >= n) break;
    m = ledger.nextFreeMachine(m);
  }
  if (need !== 0) return null;
  let parts: AllocationPart[];
  if (allOnes) {
    parts = onesOfRanges(table, ranges, count);
  } else {
    const machines = ledger.platform.machines;
    parts = [];
    need = cores;
    for (let r = 0; r < count; r += 2) {
      const end = ranges[r + 1]!;
      for (let k = ranges[r]!; k < end; k++) {
        const f = free[k]!;
        const take = Math.min(f, need);
        parts.push(frozenPart(table, k, take, take === 1 ? 1 : machines[k]!.cores));
        need -= take;
      }
    }
  }
  Object.freeze(parts);
  markDeepFrozen(parts);
  return parts;
}

/** Up to this many entries of ranges (half as many ranges), `onesOfRanges` slices them. */
const SLICED_RANGES = 16;

/**
 * The platform's shared one-core parts of the machines of `ranges` (`[first, end)` pairs, the
 * first `count` entries), in order: a slice per range for a few ranges (one copy per run, not a
 * push per part), one copy per part for many, and their `RUNS` when there are
 * {@link RUNS_MIN_PARTS} parts or more. Not frozen yet.
 */
function onesOfRanges(table: PartTable, ranges: Int32Array, count: number): AllocationPart[] {
  const ones = builtOnes(table);
  let parts: AllocationPart[];
  if (count <= SLICED_RANGES) {
    // a few ranges (a first fit's runs): a slice each, one copy per run
    parts = ones.slice(ranges[0]!, ranges[1]!);
    for (let r = 2; r < count; r += 2) parts = parts.concat(ones.slice(ranges[r]!, ranges[r + 1]!));
  } else {
    // many (scattered machines): one copy per part, not a slice and a concat per range
    let total = 0;
    for (let r = 0; r < count; r += 2) total += ranges[r + 1]! - ranges[r]!;
    parts = new Array<AllocationPart>(total);
    let k = 0;
    for (let r = 0; r < count; r += 2) {
      const end = ranges[r + 1]!;
      for (let m = ranges[r]!; m < end; m++) parts[k++] = ones[m]!;
    }
  }
  if (parts.length >= RUNS_MIN_PARTS) {
    Object.defineProperty(parts, RUNS, { value: ranges.slice(0, count) });
  }
  return parts;
}

/**
 * One core on each of `machines` (distinct, ascending), in that order: the parts
 * `{ machine, cores: 1 }` a policy that picks single cores by machine would push one by one,
 * frozen, in the form {@link firstFitAllocation} returns (the platform's shared parts; from 16
 * parts on, the ranges of neighbouring machines they cover ride along). The engine, its ledger
 * and the metrics read such an allocation range by range, not part by part. That matters on the
 * largest machines (an SWF machine of 131,072 processors is that many one-core machines; a job
 * there takes thousands of them).
 *
 * Complexity: O(parts).
 *
 * @throws InvalidInputError when `platform` is not a valid platform, or `machines` is not a
 *   non-empty array (or typed array) of machine indices of the platform in strictly ascending
 *   order.
 *
 * @example
 * ```ts
 * oneCoreAllocation(identicalPool(8), [1, 2, 5]);
 * // [{ machine: 1, cores: 1 }, { machine: 2, cores: 1 }, { machine: 5, cores: 1 }]
 * ```
 */
export function oneCoreAllocation(platform: Platform, machines: ArrayLike<number>): Allocation {
  const where = "@sched/core/oneCoreAllocation";
  requirePlatform(where, "platform", platform);
  const isArray =
    Array.isArray(machines) || (ArrayBuffer.isView(machines) && !(machines instanceof DataView));
  if (!isArray || machines.length === 0) {
    throw new InvalidInputError(
      where,
      "machines",
      `is ${isArray ? "empty" : describeValue(machines)}, expected a non-empty array of machine indices, ascending`,
    );
  }
  const n = platform.machines.length;
  let ranges = new Int32Array(16);
  let count = 0;
  let last = -1;
  for (let i = 0; i < machines.length; i++) {
    const m = machines[i];
    if (typeof m !== "number" || !Number.isInteger(m) || m <= last || m >= n) {
      throw new InvalidInputError(
        where,
        `machines[${i}]`,
        `is ${describeValue(m)}, expected a machine index from ${last + 1} to ${n - 1} (the platform's ${n} machines, each once, ascending)`,
      );
    }
    if (m === last + 1 && count > 0) {
      ranges[count - 1] = m + 1;
    } else {
      if (count + 2 > ranges.length) {
        const grown = new Int32Array(ranges.length * 2);
        grown.set(ranges);
        ranges = grown;
      }
      ranges[count++] = m;
      ranges[count++] = m + 1;
    }
    last = m;
  }
  const parts = onesOfRanges(partTable(platform), ranges, count);
  Object.freeze(parts);
  markDeepFrozen(parts);
  return parts;
}
