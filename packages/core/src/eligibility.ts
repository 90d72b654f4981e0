import {
  describeValue,
  InvalidInputError,
  optionKeys,
  requireBoolean,
  requireKnownKeys,
} from "@sched/errors";
import { requireResourceFields } from "./job.js";
import { requirePlatform } from "./platform.js";
import type { SchedulerView } from "./scheduler.js";
import type { Job, Platform } from "./types.js";

/**
 * Eligibility: can a job run on a machine, and are the licenses it needs free there now. One
 * definition for every policy, the same rules as the engine's resource ledger (`ResourceLedger`):
 *
 * - a floating license is usable on the machines it lists (every machine when it lists none)
 *   and draws on one pool of `copies`;
 * - a node-locked license has `copies` on each machine it lists and none elsewhere; a job takes
 *   its node-locked copies on its allocation's FIRST machine;
 * - a license the platform does not have can never be served.
 *
 * So a job fits machine `m` alone when `m` has `job.cores` cores, every floating license it
 * asks for is usable on `m` with at least the requested copies in total, and every node-locked
 * license it asks for has at least the requested copies on `m`. Exactly then the engine accepts
 * the allocation `[{ machine: m, cores: job.cores }]` on the empty platform.
 */

/** A platform license resolved for look-ups: its kind, copies and the machines where it is usable. */
interface IndexedLicense {
  readonly floating: boolean;
  readonly copies: number;
  /** 1 on the machines where the license is usable; `null` for every machine (floating only). */
  readonly usable: Uint8Array | null;
}

const indexes = new WeakMap<Platform, Map<string, IndexedLicense>>();

/** The platform's licenses by name with a machine mask, built once per platform (platforms are immutable). */
function licenseIndex(platform: Platform): Map<string, IndexedLicense> {
  let index = indexes.get(platform);
  if (index === undefined) {
    index = new Map();
    const n = platform.machines.length;
    for (const l of platform.licenses) {
      let usable: Uint8Array | null = null;
      if (l.machines !== undefined || l.kind === "node-locked") {
        usable = new Uint8Array(n);
        for (const m of l.machines ?? []) if (m >= 0 && m < n) usable[m] = 1;
      }
      index.set(l.name, { floating: l.kind === "floating", copies: l.copies, usable });
    }
    indexes.set(platform, index);
  }
  return index;
}

const largestMachines = new WeakMap<Platform, number>();
const coresOfMachines = new WeakMap<Platform, Int32Array>();

/** The cores of each machine of the platform, in one typed array made once per platform. */
function machineCores(platform: Platform): Int32Array {
  let cores = coresOfMachines.get(platform);
  if (cores === undefined) {
    cores = Int32Array.from(platform.machines, (m) => m.cores);
    coresOfMachines.set(platform, cores);
  }
  return cores;
}

/** The most cores of one machine of the platform, found once per platform (platforms are immutable). */
function largestMachine(platform: Platform): number {
  let largest = largestMachines.get(platform);
  if (largest === undefined) {
    largest = 0;
    for (const m of platform.machines) if (m.cores > largest) largest = m.cores;
    largestMachines.set(platform, largest);
  }
  return largest;
}

/** One license request of a job, resolved against the platform (`undefined`: the platform lacks it). */
interface Need {
  readonly name: string;
  readonly copies: number;
  readonly license: IndexedLicense | undefined;
}

const NO_NEEDS: readonly Need[] = Object.freeze([]);

// The requests of the job asked about last, resolved: a policy asks about one job on machine
// after machine, so the name look-ups are done once per job instead of once per machine. Jobs and
// platforms are immutable data; a single entry keeps nothing alive but the last pair.
let lastJob: Job | null = null;
let lastPlatform: Platform | null = null;
let lastNeeds: readonly Need[] = NO_NEEDS;

/** The license requests of `job` resolved against `platform` (memoised for the last pair). */
function needsOf(job: Job, platform: Platform): readonly Need[] {
  if (job === lastJob && platform === lastPlatform) return lastNeeds;
  const requests = job.licenses;
  let needs = NO_NEEDS;
  if (requests !== undefined) {
    const index = licenseIndex(platform);
    const out: Need[] = [];
    for (const name in requests) {
      out.push({ name, copies: requests[name] as number, license: index.get(name) });
    }
    needs = out;
  }
  lastJob = job;
  lastPlatform = platform;
  lastNeeds = needs;
  return needs;
}

// The job and platform checked last: a policy asks about one job on machine after machine, so
// each is checked once per run of questions (a job's `cores`, `licenses` and the other fields
// the questions read, not the rest: a pass state's jobs carry only those; a platform once per
// object, by `requirePlatform`). Jobs and platforms are immutable data.
let checkedJob: unknown;
let checkedPlatform: unknown;

/** Checks the job and the platform a question is about (see above). */
function requireInputs(where: string, job: Job, platform: Platform, platformLabel: string): void {
  if (platform !== checkedPlatform) {
    requirePlatform(where, platformLabel, platform);
    checkedPlatform = platform;
  }
  if (job !== checkedJob) {
    requireResourceFields(where, "job", job, false);
    checkedJob = job;
  }
}

/** `machine` when it is an integer (one that is not a machine of the platform is answered). */
function requireMachineIndex(where: string, machine: unknown): void {
  if (typeof machine !== "number" || !Number.isInteger(machine)) {
    throw new InvalidInputError(
      where,
      "machine",
      `is ${describeValue(machine)}, expected a machine index (an integer)`,
    );
  }
}

/** Copies of `l` that machine `m` can ever serve: the pool where a floating license is usable, the machine's own node-locked copies, else 0. */
function copiesOn(l: IndexedLicense, m: number): number {
  return l.usable === null || l.usable[m] === 1 ? l.copies : 0;
}

/**
 * Whether `job` could ever run alone on machine `machine` of `platform`, the platform empty:
 * the machine has at least `job.cores` cores and every license the job asks for can be served
 * there (see the module's rules: floating usable on the machine with enough copies in total,
 * node-locked with enough copies on the machine, a license the platform lacks never). Static:
 * copies held by running jobs do not count (see {@link licensesFreeOn} for now).
 *
 * When to use: a single-machine policy's eligible set (the convergent paper's `M_Aff_i`,
 * the machines a competitive scheduler may pick), or to decide whether to reject a job.
 *
 * Complexity: O(licenses the job asks for); the platform's license index is built once per
 * platform, O(machines x licenses).
 *
 * @returns `false` also when `machine` is an integer that is not a machine of the platform.
 * @throws InvalidInputError naming the field when `job.cores` is not an integer >= 1 or
 * `job.licenses` not copies (integers >= 1) by name (the fields read), `platform` not one `validatePlatform` accepts (each checked once per object in a run of
 * questions), or `machine` not an integer. The same for {@link eligibleMachines},
 * {@link licensesFreeOn} (`view.platform`, `view.freeLicenses`, `options.first` a boolean) and
 * {@link whyNeverFits} (`options.singleMachine` a boolean).
 *
 * @example
 * ```ts
 * // machine 0: 2 cores; machine 1: 4 cores, holds one node-locked copy of "nl"
 * fitsMachine({ ...job, cores: 4 }, platform, 0); // false: 2 cores
 * fitsMachine({ ...job, cores: 4, licenses: { nl: 1 } }, platform, 1); // true
 * ```
 */
export function fitsMachine(job: Job, platform: Platform, machine: number): boolean {
  requireInputs("@sched/core/fitsMachine", job, platform, "platform");
  requireMachineIndex("@sched/core/fitsMachine", machine);
  return fits(job, platform, machine);
}

/** {@link fitsMachine} on checked arguments. */
function fits(job: Job, platform: Platform, machine: number): boolean {
  const spec = platform.machines[machine];
  if (spec === undefined || spec.cores < job.cores) return false;
  if (job.licenses === undefined) return true;
  const needs = needsOf(job, platform);
  for (let i = 0; i < needs.length; i++) {
    const { license: l, copies } = needs[i]!;
    // copiesOn is 0 where a floating license is not usable, and a job asks for 1 copy or more
    if (l === undefined || copiesOn(l, machine) < copies) return false;
  }
  return true;
}

/**
 * The machines `job` could ever run on alone ({@link fitsMachine}), ascending indices.
 *
 * Complexity: O(machines x licenses the job asks for); O(1) for a job wider than every machine.
 *
 * @example
 * ```ts
 * eligibleMachines({ ...job, cores: 2 }, platform); // [0, 1]
 * ```
 */
export function eligibleMachines(job: Job, platform: Platform): number[] {
  requireInputs("@sched/core/eligibleMachines", job, platform, "platform");
  const out: number[] = [];
  // wider than every machine: none (no machine to ask; 131,072 of them on a big one)
  if (job.cores > largestMachine(platform)) return out;
  const machines = platform.machines;
  const n = machines.length;
  if (job.licenses === undefined) {
    // Cores alone (what `fits` asks then), from the platform's cores in a typed array: counted,
    // then written into an array of that length (131,072 one-core machines: 3.6 ms a call by
    // `fits` and a push per machine, 1.2 ms so, most of it making the array of 131,072).
    const cores = job.cores;
    const of = machineCores(platform);
    let count = 0;
    for (let m = 0; m < n; m++) if (of[m]! >= cores) count++;
    const all = new Array<number>(count);
    for (let m = 0, k = 0; m < n; m++) if (of[m]! >= cores) all[k++] = m;
    return all;
  }
  for (let m = 0; m < n; m++) {
    if (fits(job, platform, m)) out.push(m);
  }
  return out;
}

/** Options of {@link licensesFreeOn}. */
export interface LicensesFreeOptions {
  /**
   * Whether `machine` is the allocation's first machine, which holds the job's node-locked
   * copies (the engine's rule). `false` asks about another machine of an allocation that spans
   * machines: only its floating licenses must be usable there (with enough free copies in the
   * pool).
   * @defaultValue `true`
   */
  readonly first?: boolean;
}

/**
 * Whether the licenses `job` asks for have enough free copies for it on machine `machine` now,
 * as `view.freeLicenses` reports them (copies held by running jobs are not free): every floating
 * license usable on `machine` with enough free copies in the pool, and, when `machine` is the
 * allocation's first (the default), every node-locked license with enough free copies on it.
 * Cores are not looked at: pair it with `view.freeCores(machine)`.
 *
 * Complexity: O(licenses the job asks for) calls of `view.freeLicenses`.
 *
 * @example
 * ```ts
 * // 3 copies of floating "cad", a running job holds 2
 * licensesFreeOn({ ...job, licenses: { cad: 1 } }, view, 0); // true
 * licensesFreeOn({ ...job, licenses: { cad: 2 } }, view, 0); // false
 * ```
 */
export function licensesFreeOn(
  job: Job,
  view: Pick<SchedulerView, "platform" | "freeLicenses">,
  machine: number,
  options?: LicensesFreeOptions,
): boolean {
  const where = "@sched/core/licensesFreeOn";
  if (typeof view !== "object" || view === null || typeof view.freeLicenses !== "function") {
    throw new InvalidInputError(
      where,
      "view",
      `is ${describeValue(view)}, expected a scheduler view (with platform and freeLicenses)`,
    );
  }
  requireInputs(where, job, view.platform, "view.platform");
  requireMachineIndex(where, machine);
  requireKnownKeys(where, "options", options, FREE_KEYS);
  const first = requireBoolean(where, "options.first", options?.first ?? true);
  if (job.licenses === undefined) return true;
  const needs = needsOf(job, view.platform);
  for (let i = 0; i < needs.length; i++) {
    const { name, copies, license: l } = needs[i]!;
    if (l === undefined) return false;
    if (l.floating) {
      if (l.usable !== null && l.usable[machine] !== 1) return false;
    } else if (!first) continue;
    if (view.freeLicenses(name, machine) < copies) return false;
  }
  return true;
}

/** The keys of {@link LicensesFreeOptions}, all of them (checked by the compiler). */
const FREE_KEYS = optionKeys<LicensesFreeOptions>({
  first: true,
});

/** Options of {@link whyNeverFits}. */
export interface NeverFitsOptions {
  /**
   * Whether the job must run on one machine (the policy never spans machines).
   * @defaultValue `false`
   */
  readonly singleMachine?: boolean;
}

/** The keys of {@link NeverFitsOptions}, all of them (checked by the compiler). */
const NEVER_FITS_KEYS = optionKeys<NeverFitsOptions>({
  singleMachine: true,
});

/**
 * Why `job` can never run on `platform`, even empty, or `null` when it can. With
 * `singleMachine`, `null` exactly when some machine {@link fitsMachine | fits} it. Otherwise
 * (the allocation may span machines) `null` exactly when some allocation is accepted by the
 * engine on the empty platform: a first machine that serves every license the job asks for,
 * and enough cores in total on the machines where its floating licenses are usable.
 *
 * The reason names the first obstacle found, in this order: more cores than the platform has;
 * a license the platform lacks; more copies than it has; no machine serving every license; not
 * enough cores where its licenses are usable (on one machine, with `singleMachine`).
 *
 * When to use: to reject a job at arrival rather than let it wait for ever.
 *
 * Complexity: O(machines x licenses the job asks for); O(1) for a job that asks for no license
 * (the platform's largest machine is found once per platform).
 *
 * @example
 * ```ts
 * whyNeverFits({ ...job, cores: 7 }, identicalPool(6)); // "needs 7 cores, the platform has 6"
 * whyNeverFits({ ...job, cores: 3 }, identicalPool(6)); // null
 * ```
 */
export function whyNeverFits(
  job: Job,
  platform: Platform,
  options?: NeverFitsOptions,
): string | null {
  const where = "@sched/core/whyNeverFits";
  requireKnownKeys(where, "options", options, NEVER_FITS_KEYS);
  requireInputs(where, job, platform, "platform");
  const singleMachine = requireBoolean(
    where,
    "options.singleMachine",
    options?.singleMachine ?? false,
  );
  if (job.cores > platform.totalCores) {
    return `needs ${job.cores} cores, the platform has ${platform.totalCores}`;
  }
  const requests = job.licenses;
  if (requests === undefined && !singleMachine) return null;
  const machines = platform.machines;
  if (requests === undefined && machines.length > 0) {
    // Every machine holds what the job needs (nothing): the loop below would find the largest
    // machine; known once per platform (a pool of 131,072 machines is not scanned per job).
    const largest = largestMachine(platform);
    return job.cores > largest
      ? `needs ${job.cores} cores on one machine, the largest where its licenses are usable has ${largest}`
      : null;
  }
  const index = licenseIndex(platform);
  const needs: [IndexedLicense, number][] = [];
  if (requests !== undefined) {
    for (const name in requests) {
      const copies = requests[name] as number;
      const l = index.get(name);
      if (l === undefined) return `needs license ${name}, which the platform does not have`;
      if (l.copies < copies)
        return `needs ${copies} copies of license ${name}, which has ${l.copies}`;
      needs.push([l, copies]);
    }
  }
  let cores = 0;
  let largest = 0;
  let anchor = false;
  for (let m = 0; m < machines.length; m++) {
    let usable = true;
    let holds = true;
    for (const [l, copies] of needs) {
      if (l.floating) {
        if (l.usable !== null && l.usable[m] !== 1) usable = false;
      } else if (copiesOn(l, m) < copies) holds = false;
    }
    if (!usable) continue;
    const c = machines[m]!.cores;
    cores += c;
    if (holds) {
      anchor = true;
      if (c > largest) largest = c;
    }
  }
  if (!anchor) return "no machine holds every license it needs";
  if (singleMachine) {
    if (job.cores > largest) {
      return `needs ${job.cores} cores on one machine, the largest where its licenses are usable has ${largest}`;
    }
  } else if (job.cores > cores) {
    return `needs ${job.cores} cores, the machines where its licenses are usable have ${cores}`;
  }
  return null;
}
