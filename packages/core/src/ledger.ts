import { ConstraintViolationError, describeValue, InvalidInputError } from "@sched/errors";
import { FreeMachines } from "./free-machines.js";
import { mostCores, requireResourceFields } from "./job.js";
import { runsOf } from "./parts.js";
import { requirePlatform } from "./platform.js";
import type { Allocation, Job, Platform } from "./types.js";

const WHERE = "@sched/core/ResourceLedger";

/** The key of `ResourceLedger`'s unchecked give-back (see there). Internal. */
export const GIVE_TAKEN: unique symbol = Symbol("giveTaken");

/**
 * The key of `ResourceLedger`'s free cores per machine, read-only, for the engine's first fit
 * (see `firstFitAllocation`). Internal.
 */
export const FREE_CORES: unique symbol = Symbol("freeCores");

/**
 * The key of `ResourceLedger`'s end of a run of machines with a free core (see there), for the
 * engine's first fit on a platform of one-core machines. Internal.
 */
export const FREE_RUN_END: unique symbol = Symbol("freeRunEnd");

/** The key of `ResourceLedger`'s "every machine has one core". Internal. */
export const ONE_CORE: unique symbol = Symbol("oneCore");

/**
 * The ledger behind each view the engine builds, so `firstFitAllocation` on such a view reads
 * the ledger's arrays rather than calling the view per machine. Internal.
 */
export const LEDGER_OF_VIEW = new WeakMap<object, ResourceLedger>();

/** A query's argument is not a number (or is NaN). */
function notANumber(method: string, field: string, value: unknown): never {
  throw new InvalidInputError(
    `${WHERE}.${method}`,
    field,
    `is ${describeValue(value)}, expected a number (a machine index)`,
  );
}

/**
 * The resource ledger: free cores per machine, free copies of each floating license (one
 * pool), free copies of each node-locked license per machine. `take` checks an allocation
 * against it and throws before changing anything; `give` returns what `take` took.
 *
 * Rules: an allocation is a non-empty list of parts on distinct, existing machines, each of
 * at least one core, summing to `job.cores` (a moldable job, one with `maxParallelism` above
 * `cores`, may take any total from `job.cores` to `job.maxParallelism`; see {@link maxCoresOf}). A floating license must be usable on every machine
 * of the allocation and draws on the shared pool; a node-locked license is taken on the
 * allocation's FIRST machine (where the job's master process runs), from that machine's copies.
 *
 * Complexity: `take`/`give` O(parts + licenses) (O(ranges + machines / 32) for an allocation
 * with `RUNS` on single-core machines); `freeCores`, `totalFreeCores`, `freeLicenses` O(1);
 * `nextFreeMachine` O(log32 machines) (see `FreeMachines`).
 *
 * @example
 * ```ts
 * const ledger = new ResourceLedger(identicalPool(4));
 * ledger.take(job, [{ machine: 0, cores: 1 }, { machine: 1, cores: 1 }]);
 * ledger.totalFreeCores; // 2
 * ```
 */
export class ResourceLedger {
  readonly platform: Platform;
  private readonly free: Int32Array;
  private total: number;
  /** The machines with a free core, for {@link ResourceLedger.nextFreeMachine}. */
  private readonly withFree: FreeMachines;
  private readonly floating = new Map<string, { free: number; allowed: Uint8Array | null }>();
  private readonly nodeLocked = new Map<string, Int32Array>();
  private readonly stamp: Int32Array;
  private stampValue = 0;
  /** Every machine has one core. */
  private readonly oneCore: boolean;

  constructor(platform: Platform) {
    requirePlatform(WHERE, "platform", platform);
    this.platform = platform;
    const n = platform.machines.length;
    this.oneCore = platform.machines.every((m) => m.cores === 1);
    this.free = new Int32Array(n);
    let total = 0;
    for (let m = 0; m < n; m++) {
      const c = platform.machines[m]!.cores;
      this.free[m] = c;
      total += c;
    }
    this.total = total;
    // every machine has at least one core
    this.withFree = new FreeMachines(n);
    this.withFree.addRange(0, n);
    this.stamp = new Int32Array(n);
    for (const l of platform.licenses) {
      if (l.kind === "floating") {
        let allowed: Uint8Array | null = null;
        if (l.machines !== undefined) {
          allowed = new Uint8Array(n);
          for (const m of l.machines) allowed[m] = 1;
        }
        this.floating.set(l.name, { free: l.copies, allowed });
      } else {
        const perMachine = new Int32Array(n);
        for (const m of l.machines ?? []) perMachine[m] = l.copies;
        this.nodeLocked.set(l.name, perMachine);
      }
    }
  }

  /**
   * Free cores on machine `m` (0 for a number that is not a machine of the platform).
   * @throws InvalidInputError when `m` is not a number, or NaN.
   */
  freeCores(m: number): number {
    if (typeof m !== "number" || Number.isNaN(m)) notANumber("freeCores", "machine", m);
    return this.free[m] ?? 0;
  }

  /** The free cores per machine, the ledger's own array: not to be written. Internal. */
  get [FREE_CORES](): Int32Array {
    return this.free;
  }

  /**
   * Every machine of the platform has one core: then a machine has a free core exactly when
   * it is idle, and {@link FREE_RUN_END} finds where a run of them ends. Internal.
   */
  get [ONE_CORE](): boolean {
    return this.oneCore;
  }

  /**
   * The first machine at or after `from` with no free core, or `limit` when every machine from
   * `from` to `limit - 1` (`limit` at most the machine count) has one; 32 machines a step.
   * `from` an integer >= 0, unchecked. Internal.
   */
  [FREE_RUN_END](from: number, limit: number): number {
    return this.withFree.runEnd(from, limit);
  }

  /** Free cores on all machines. */
  get totalFreeCores(): number {
    return this.total;
  }

  /**
   * Free copies of `license` usable on machine `m` (0 when unknown or not usable there).
   * @throws InvalidInputError when `license` is not a string, or `m` not a number (or NaN).
   */
  freeLicenses(license: string, m: number): number {
    if (typeof license !== "string") {
      throw new InvalidInputError(
        `${WHERE}.freeLicenses`,
        "license",
        `is ${describeValue(license)}, expected a license name (a string)`,
      );
    }
    if (typeof m !== "number" || Number.isNaN(m)) notANumber("freeLicenses", "machine", m);
    const f = this.floating.get(license);
    if (f !== undefined) {
      if (m < 0 || m >= this.free.length) return 0;
      return f.allowed === null || f.allowed[m] === 1 ? f.free : 0;
    }
    const nl = this.nodeLocked.get(license);
    return nl === undefined ? 0 : (nl[m] ?? 0);
  }

  /**
   * The lowest machine index >= `from` with a free core, or -1. O(log32 machines).
   * @throws InvalidInputError when `from` is not a number, or NaN.
   */
  nextFreeMachine(from: number): number {
    if (typeof from !== "number" || Number.isNaN(from)) notANumber("nextFreeMachine", "from", from);
    if (from >= this.free.length) return -1;
    // (the lowest index >= a fractional `from` is the next integer)
    return this.withFree.next(from > 0 ? Math.ceil(from) : 0);
  }

  /**
   * Throws a ConstraintViolationError (naming the job and the resource) when `allocation`
   * cannot be given to `job` now; otherwise does nothing.
   */
  check(job: Job, allocation: Allocation, where: string): void {
    if (typeof where !== "string") {
      throw new InvalidInputError(
        WHERE,
        "where",
        `is ${describeValue(where)}, expected a string (the caller's name, for the messages)`,
      );
    }
    requireResourceFields(where, "job", job, true);
    const id = job.id;
    if (!Array.isArray(allocation) || allocation.length === 0) {
      throw new ConstraintViolationError(where, id, "allocation", "is empty or not an array");
    }
    const runs = runsOf(allocation);
    const sum =
      runs !== undefined && this.runsFree(runs)
        ? allocation.length
        : this.checkParts(allocation, id, where);
    this.checkTotalAndLicenses(job, allocation, sum, where);
  }

  /**
   * Whether every machine of `runs` (see `RUNS`: one-core parts on distinct machines of this
   * platform, which `firstFitAllocation` vouches for) has a free core. O(machines in the runs),
   * on typed arrays. False sends the check to the parts, which name what is wrong.
   */
  private runsFree(runs: Int32Array): boolean {
    const free = this.free;
    if (runs.length === 0 || runs[runs.length - 1]! > free.length) return false;
    for (let r = 0; r < runs.length; r += 2) {
      const end = runs[r + 1]!;
      for (let m = runs[r]!; m < end; m++) if (free[m]! < 1) return false;
    }
    return true;
  }

  /** The part-by-part checks of {@link ResourceLedger.check}; returns the cores the parts give. */
  private checkParts(allocation: Allocation, id: number, where: string): number {
    const n = this.free.length;
    const stamp = ++this.stampValue;
    let sum = 0;
    for (let i = 0; i < allocation.length; i++) {
      const part = allocation[i]!;
      const m = part?.machine;
      if (typeof m !== "number" || !Number.isInteger(m) || m < 0 || m >= n) {
        throw new ConstraintViolationError(
          where,
          id,
          `machine ${String(m)}`,
          `allocation[${i}] names no machine of the platform (it has ${n})`,
        );
      }
      const c = part.cores;
      if (typeof c !== "number" || !Number.isInteger(c) || c < 1) {
        throw new ConstraintViolationError(
          where,
          id,
          `machine ${m} cores`,
          `allocation[${i}].cores is ${describeValue(c)}, expected an integer >= 1`,
        );
      }
      if (this.stamp[m] === stamp) {
        throw new ConstraintViolationError(
          where,
          id,
          `machine ${m}`,
          "appears twice in the allocation; merge the parts",
        );
      }
      this.stamp[m] = stamp;
      if (c > this.free[m]!) {
        throw new ConstraintViolationError(
          where,
          id,
          `machine ${m} cores`,
          `needs ${c} cores, ${this.free[m]} of ${this.platform.machines[m]!.cores} are free`,
        );
      }
      sum += c;
    }
    return sum;
  }

  /** The rest of {@link ResourceLedger.check}: the cores in total, then the licenses. */
  private checkTotalAndLicenses(
    job: Job,
    allocation: Allocation,
    sum: number,
    where: string,
  ): void {
    const id = job.id;
    const most = mostCores(job);
    if (sum < job.cores || sum > most) {
      throw new ConstraintViolationError(
        where,
        id,
        "allocation",
        most === job.cores
          ? `gives ${sum} cores, the job needs ${job.cores}`
          : `gives ${sum} cores, the moldable job takes ${job.cores} to ${most}`,
      );
    }
    const licenses = job.licenses;
    if (licenses === undefined) return;
    const first = allocation[0]!.machine;
    for (const name in licenses) {
      const copies = licenses[name]!;
      const f = this.floating.get(name);
      if (f !== undefined) {
        if (f.allowed !== null) {
          for (let i = 0; i < allocation.length; i++) {
            const m = allocation[i]!.machine;
            if (f.allowed[m] !== 1) {
              throw new ConstraintViolationError(
                where,
                id,
                `license ${name}`,
                `is not usable on machine ${m}`,
              );
            }
          }
        }
        if (copies > f.free) {
          throw new ConstraintViolationError(
            where,
            id,
            `license ${name}`,
            `needs ${copies} copies, ${f.free} are free`,
          );
        }
        continue;
      }
      const nl = this.nodeLocked.get(name);
      if (nl === undefined) {
        throw new ConstraintViolationError(
          where,
          id,
          `license ${name}`,
          "is not a license of the platform",
        );
      }
      if (copies > nl[first]!) {
        throw new ConstraintViolationError(
          where,
          id,
          `license ${name}`,
          `needs ${copies} node-locked copies on machine ${first} (the allocation's first), ${nl[first]} are free there`,
        );
      }
    }
  }

  /** The checks of {@link ResourceLedger.give}, before anything changes. */
  private checkGive(allocation: Allocation): void {
    const at = `${WHERE}.give`;
    if (!Array.isArray(allocation) || allocation.length === 0) {
      throw new InvalidInputError(
        at,
        "allocation",
        `is ${describeValue(allocation)}, expected a non-empty array of parts`,
      );
    }
    const n = this.free.length;
    const stamp = ++this.stampValue;
    const machines = this.platform.machines;
    for (let i = 0; i < allocation.length; i++) {
      const part = allocation[i];
      const m = part?.machine;
      if (typeof m !== "number" || !Number.isInteger(m) || m < 0 || m >= n) {
        throw new InvalidInputError(
          at,
          `allocation[${i}].machine`,
          `is ${describeValue(m)}, expected a machine index (the platform has ${n})`,
        );
      }
      const c = part!.cores;
      if (typeof c !== "number" || !Number.isInteger(c) || c < 1) {
        throw new InvalidInputError(
          at,
          `allocation[${i}].cores`,
          `is ${describeValue(c)}, expected an integer >= 1`,
        );
      }
      if (this.stamp[m] === stamp) {
        throw new InvalidInputError(at, `allocation[${i}].machine`, `is ${m}, a second time`);
      }
      this.stamp[m] = stamp;
      if (this.free[m]! + c > machines[m]!.cores) {
        throw new InvalidInputError(
          at,
          `allocation[${i}].cores`,
          `is ${c}, but machine ${m} has ${this.free[m]} of ${machines[m]!.cores} cores free: more than was taken`,
        );
      }
    }
  }

  /**
   * Adds `sign * cores` to the free cores of every part's machine; a machine whose free cores
   * turn 0 (or turn positive) leaves (or enters) the machines with a free core. Parts in any
   * order.
   */
  private addParts(allocation: Allocation, sign: number): void {
    const runs = runsOf(allocation);
    if (runs !== undefined) {
      this.addRuns(runs, sign);
      return;
    }
    const free = this.free;
    const withFree = this.withFree;
    let delta = 0;
    for (let i = 0; i < allocation.length; i++) {
      const part = allocation[i]!;
      const m = part.machine;
      const d = sign * part.cores;
      const before = free[m]!;
      const after = before + d;
      free[m] = after;
      delta += d;
      if (before === 0) withFree.add(m);
      else if (after === 0) withFree.delete(m);
    }
    this.total += delta;
  }

  /**
   * {@link ResourceLedger.addParts} of an allocation given as `RUNS` (one core on each machine of
   * each range): on single-core machines each range is filled (every machine goes from 1 free
   * core to 0, or back) and enters or leaves the machines with a free core a word at a time.
   */
  private addRuns(runs: Int32Array, sign: number): void {
    const free = this.free;
    const withFree = this.withFree;
    let delta = 0;
    for (let r = 0; r < runs.length; r += 2) {
      const start = runs[r]!;
      const end = runs[r + 1]!;
      if (this.oneCore) {
        // (a range of one machine, as scattered picks give: no `fill` call)
        if (sign < 0) {
          if (end - start === 1) free[start] = 0;
          else free.fill(0, start, end);
          withFree.deleteRange(start, end);
        } else {
          if (end - start === 1) free[start] = 1;
          else free.fill(1, start, end);
          withFree.addRange(start, end);
        }
      } else {
        for (let m = start; m < end; m++) {
          const before = free[m]!;
          const after = before + sign;
          free[m] = after;
          if (before === 0) withFree.add(m);
          else if (after === 0) withFree.delete(m);
        }
      }
      delta += sign * (end - start);
    }
    this.total += delta;
  }

  /**
   * Checks (see {@link ResourceLedger.check}) and takes the allocation's resources for `job`.
   * @throws InvalidInputError when a field of `job` the ledger reads (`id`, `cores`,
   * `maxParallelism`, `licenses`) is invalid or `where` not a string;
   * ConstraintViolationError (naming the job and the resource) when the allocation cannot be
   * given now.
   */
  take(job: Job, allocation: Allocation, where = WHERE): void {
    this.check(job, allocation, where);
    this.addParts(allocation, -1);
    const licenses = job.licenses;
    if (licenses === undefined) return;
    const first = allocation[0]!.machine;
    for (const name in licenses) {
      const f = this.floating.get(name);
      if (f !== undefined) f.free -= licenses[name]!;
      else {
        const nl = this.nodeLocked.get(name)!;
        nl[first] = nl[first]! - licenses[name]!;
      }
    }
  }

  /**
   * Returns what {@link ResourceLedger.take} took for `job` on `allocation`. Checked only as far
   * as it is cheap, O(parts): the allocation must be one `take` could have accepted (parts of
   * at least one core on distinct machines of the platform), and no machine may end with more
   * free cores than it has (what was never taken cannot be given back).
   * @throws InvalidInputError when `job` or the allocation is malformed, or gives back more
   * cores than a machine has; nothing is changed then.
   */
  give(job: Job, allocation: Allocation): void {
    requireResourceFields(`${WHERE}.give`, "job", job, true);
    this.checkGive(allocation);
    this[GIVE_TAKEN](job, allocation);
  }

  /**
   * {@link ResourceLedger.give} without its checks, for an owner that gives back exactly what
   * `take` accepted for `job`, once (the engine, for its running jobs: `give`'s O(parts) checks
   * cannot fail there). Internal: not exported from the package.
   */
  [GIVE_TAKEN](job: Job, allocation: Allocation): void {
    this.addParts(allocation, 1);
    const licenses = job.licenses;
    if (licenses === undefined) return;
    const first = allocation[0]!.machine;
    for (const name in licenses) {
      const f = this.floating.get(name);
      if (f !== undefined) f.free += licenses[name]!;
      else {
        const nl = this.nodeLocked.get(name)!;
        nl[first] = nl[first]! + licenses[name]!;
      }
    }
  }
}
