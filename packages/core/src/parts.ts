import type { AllocationPart, Platform } from "./types.js";

/**
 * Shared frozen allocation parts, one per (platform, machine, cores), built on first use.
 * Allocation parts are immutable, so allocations may share them: on a pool of single-core
 * machines a 64-core job's allocation is then one array of 64 shared parts instead of 64 new
 * objects, which the trace keeps alive for the whole run. Internal (not exported).
 */
const tables = new WeakMap<Platform, PartTable>();

/**
 * The shared parts of one platform: one-core parts in one flat array by machine (on a pool of
 * single-core machines every part is one, and a job of thousands of cores then reads one
 * contiguous array rather than a row per machine), the others in a sparse row per machine,
 * indexed by cores. Internal.
 */
export interface PartTable {
  readonly ones: (AllocationPart | undefined)[];
  readonly rows: ((AllocationPart | undefined)[] | undefined)[];
  /** Every entry of `ones` is built (see {@link builtOnes}). */
  onesBuilt: boolean;
}

/** The part table of `platform`. O(1). */
export function partTable(platform: Platform): PartTable {
  let table = tables.get(platform);
  if (table === undefined) {
    const n = platform.machines.length;
    table = {
      ones: new Array<AllocationPart | undefined>(n).fill(undefined),
      rows: new Array<(AllocationPart | undefined)[] | undefined>(n).fill(undefined),
      onesBuilt: false,
    };
    tables.set(platform, table);
  }
  return table;
}

/**
 * The table's one-core parts, every one built (on the first call; O(machines) then, O(1) after):
 * for slices of neighbouring machines' parts.
 */
export function builtOnes(table: PartTable): readonly AllocationPart[] {
  if (!table.onesBuilt) {
    const ones = table.ones;
    for (let m = 0; m < ones.length; m++) {
      if (ones[m] === undefined) ones[m] = Object.freeze({ machine: m, cores: 1 });
    }
    table.onesBuilt = true;
  }
  return table.ones as readonly AllocationPart[];
}

/**
 * The frozen part `{ machine, cores }`: shared when `machine` is a machine of the table's
 * platform and `1 <= cores <= its cores` (`maxCores`), a fresh frozen object otherwise.
 */
export function frozenPart(
  table: PartTable,
  machine: number,
  cores: number,
  maxCores: number,
): AllocationPart {
  if (cores === 1 && machine >= 0 && machine < table.ones.length && Number.isInteger(machine)) {
    // every machine has at least one core
    let one = table.ones[machine];
    if (one === undefined) {
      one = Object.freeze({ machine, cores: 1 });
      table.ones[machine] = one;
    }
    return one;
  }
  const rows = table.rows;
  if (
    !(machine >= 0 && machine < rows.length && Number.isInteger(machine)) ||
    !(cores >= 1 && cores <= maxCores && Number.isInteger(cores))
  ) {
    return Object.freeze({ machine, cores });
  }
  let row = rows[machine];
  if (row === undefined) {
    row = [];
    rows[machine] = row;
  }
  let part = row[cores];
  if (part === undefined) {
    part = Object.freeze({ machine, cores });
    row[cores] = part;
  }
  return part;
}

/**
 * The runs of an allocation made of one-core parts on neighbouring machines, kept on the frozen
 * array `firstFitAllocation` builds (a non-enumerable property under a symbol no other package
 * sees): `[first, end)` machine ranges, in the parts' order, `runs[2 i]` and `runs[2 i + 1]`.
 * The ledger, the machine usage and the metrics then work on the ranges with typed arrays
 * instead of reading thousands of part objects (an SWF machine of 100,000 processors is that
 * many single-core machines). Internal.
 */
export const RUNS: unique symbol = Symbol("runs");

/** Allocations of fewer parts get no {@link RUNS}: reading the parts costs less than the look-up. */
export const RUNS_MIN_PARTS = 16;

/** The {@link RUNS} of `allocation`, or `undefined`. O(1). */
export function runsOf(allocation: readonly AllocationPart[]): Int32Array | undefined {
  return (allocation as { readonly [RUNS]?: Int32Array })[RUNS];
}

/**
 * Allocations known to be frozen arrays of frozen parts (built by `firstFitAllocation` or kept
 * by the engine), so the engine keeps them without re-checking every part: the last
 * {@link RECENT} recorded, by identity (a policy starts a job with the allocation it just built,
 * found at the first comparison: the ring is read from the latest). A ring of strong references
 * rather than a WeakSet: a `WeakSet.add` per allocation cost more than the check it saves.
 * Internal.
 */
const RECENT = 16;
const recent: (readonly AllocationPart[] | null)[] = new Array<readonly AllocationPart[] | null>(
  RECENT,
).fill(null);
let recentNext = 0;

/** Records `allocation` (which must be deeply frozen) as such. */
export function markDeepFrozen(allocation: readonly AllocationPart[]): void {
  recent[recentNext] = allocation;
  recentNext = (recentNext + 1) % RECENT;
}

/**
 * True when `allocation` is one of the last allocations {@link markDeepFrozen} recorded, latest
 * first. O(1).
 */
export function isKnownDeepFrozen(allocation: readonly AllocationPart[]): boolean {
  let i = recentNext;
  for (let k = 0; k < RECENT; k++) {
    i = i === 0 ? RECENT - 1 : i - 1;
    if (recent[i] === allocation) return true;
  }
  return false;
}
