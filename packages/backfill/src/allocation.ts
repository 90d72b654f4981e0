import {
  type Allocation,
  type AllocationPart,
  firstFitAllocation,
  type Job,
  type Platform,
  type SchedulerView,
} from "@sched/core";

/**
 * The order in which a policy tries machines when it builds an allocation.
 * - `"index"`: lowest machine index first (first fit; what the archive simulators do on a pool of
 *   identical processors).
 * - `"speed"`: fastest machine first (highest `speed`), ties by lowest index (the convergent
 *   paper's EDF: "machines ordered by Benchmark").
 * - `"best-fit"`: fewest cores first, ties fastest first, then lowest index: a job that takes one
 *   machine gets the smallest one that can host it (with `exclusive`, the one that leaves the
 *   fewest cores idle).
 */
export type MachineOrder = "index" | "speed" | "best-fit";

/** Every {@link MachineOrder}. */
export const MACHINE_ORDERS: readonly MachineOrder[] = Object.freeze([
  "index",
  "speed",
  "best-fit",
]);

/** Machine indices in the order `rule` tries them. O(M log M). Internal. */
export function machineOrder(platform: Platform, rule: MachineOrder): Int32Array {
  const order = new Int32Array(platform.machines.length);
  for (let i = 0; i < order.length; i++) order[i] = i;
  const ms = platform.machines;
  if (rule === "speed") {
    order.sort((a, b) => ms[b].speed - ms[a].speed || a - b);
  } else if (rule === "best-fit") {
    order.sort((a, b) => ms[a].cores - ms[b].cores || ms[b].speed - ms[a].speed || a - b);
  }
  return order;
}

type Split = { floating: [string, number][]; locked: [string, number][] } | null;

const splitCache = new WeakMap<Platform, WeakMap<Job, Split>>();

/**
 * The license requests of `job` split by kind (copies > 0 only); `null` when it needs none.
 * Computed once per (platform, job): EDF and the single-machine policies ask at every event for
 * every queued job.
 */
function splitLicenses(job: Job, platform: Platform): Split {
  if (job.licenses === undefined) return null;
  let byJob = splitCache.get(platform);
  if (byJob === undefined) {
    byJob = new WeakMap();
    splitCache.set(platform, byJob);
  }
  let split = byJob.get(job);
  if (split === undefined) {
    split = computeSplit(job, platform);
    byJob.set(job, split);
  }
  return split;
}

function computeSplit(job: Job, platform: Platform): Split {
  const lic = job.licenses;
  if (lic === undefined) return null;
  const floating: [string, number][] = [];
  const locked: [string, number][] = [];
  for (const name in lic) {
    const copies = lic[name];
    if (!(copies > 0)) continue;
    const l = platform.licenses.find((x) => x.name === name);
    if (l !== undefined && l.kind === "node-locked") locked.push([name, copies]);
    else floating.push([name, copies]);
  }
  return floating.length + locked.length === 0 ? null : { floating, locked };
}

/** True when machine `m` runs no job now (all its cores are free). */
export function idle(view: SchedulerView, m: number): boolean {
  return view.freeCores(m) >= view.platform.machines[m].cores;
}

function enough(view: SchedulerView, m: number, needs: readonly [string, number][]): boolean {
  for (const [name, copies] of needs) if (view.freeLicenses(name, m) < copies) return false;
  return true;
}

/**
 * An allocation of `job.cores` free cores now, or `null` when the job does not fit. Internal.
 *
 * Machines are tried in `order` (see {@link MachineOrder}); the allocation takes the free cores
 * of each eligible machine in turn until the job has enough, so it may span machines. The
 * engine's license rules decide eligibility: a machine is eligible when every floating license
 * the job needs is usable there with enough free copies; the allocation's first machine must
 * also hold the node-locked copies the job needs (it is the first eligible machine in `order`
 * that does). With `singleMachine`, the job takes the first eligible machine that has all its
 * cores free; with `exclusive` (implies `singleMachine`), the first eligible machine that runs no
 * job now and has at least `job.cores` cores.
 *
 * Complexity: O(1) when fewer cores are free than needed; O(k log M) for a job without
 * licenses in index order (k machines used); O(M x licenses) otherwise.
 */
export function allocate(
  view: SchedulerView,
  job: Job,
  order: Int32Array,
  rule: MachineOrder,
  singleMachine = false,
  exclusive = false,
): Allocation | null {
  const need = job.cores;
  if (need > view.totalFreeCores) return null;
  const lic = splitLicenses(job, view.platform);
  const single = singleMachine || exclusive;
  if (lic === null && !single && rule === "index") return firstFitAllocation(view, need);
  const floating = lic?.floating ?? [];
  const locked = lic?.locked ?? [];
  if (single) {
    for (let k = 0; k < order.length; k++) {
      const m = order[k];
      const free = view.freeCores(m);
      if (free < need || (exclusive && free < view.platform.machines[m].cores)) continue;
      if (enough(view, m, floating) && enough(view, m, locked)) {
        return [{ machine: m, cores: need }];
      }
    }
    return null;
  }
  const parts: AllocationPart[] = [];
  let left = need;
  let first = -1;
  if (locked.length > 0) {
    for (let k = 0; k < order.length; k++) {
      const m = order[k];
      const free = view.freeCores(m);
      if (free > 0 && enough(view, m, floating) && enough(view, m, locked)) {
        first = m;
        const take = Math.min(free, left);
        parts.push({ machine: m, cores: take });
        left -= take;
        break;
      }
    }
    if (first < 0) return null;
  }
  for (let k = 0; k < order.length && left > 0; k++) {
    const m = order[k];
    if (m === first) continue;
    const free = view.freeCores(m);
    if (free <= 0 || !enough(view, m, floating)) continue;
    const take = Math.min(free, left);
    parts.push({ machine: m, cores: take });
    left -= take;
  }
  return left > 0 ? null : parts;
}

/**
 * True when machine `m` of `platform` could ever host `job` alone: enough cores, its floating
 * licenses usable there and the node-locked copies it needs held there (a license the platform
 * lacks: false). O(licenses of the job x L).
 */
export function canHostOn(job: Job, platform: Platform, m: number): boolean {
  if (platform.machines[m].cores < job.cores) return false;
  const lic = job.licenses;
  if (lic === undefined) return true;
  for (const name in lic) {
    const copies = lic[name];
    if (!(copies > 0)) continue;
    const l = platform.licenses.find((x) => x.name === name);
    if (l === undefined || l.copies < copies) return false;
    if (l.kind === "floating") {
      if (l.machines !== undefined && !l.machines.includes(m)) return false;
    } else if (!(l.machines ?? []).includes(m)) return false;
  }
  return true;
}

/**
 * Why `job` can never run on `platform`, even empty, or `null` when it can: more cores than
 * the machines where its floating licenses are usable (or than one such machine, with
 * `singleMachine`), a license the platform lacks, more copies than exist, or no machine that
 * holds its node-locked copies. Internal. O(M x licenses).
 */
export function neverFits(job: Job, platform: Platform, singleMachine = false): string | null {
  if (job.cores > platform.totalCores) {
    return `needs ${job.cores} cores, the platform has ${platform.totalCores}`;
  }
  if (job.licenses === undefined && !singleMachine) return null;
  const n = platform.machines.length;
  const usable = new Uint8Array(n).fill(1);
  const lockedNeeds: [Int32Array, number][] = [];
  const lic = job.licenses;
  if (lic !== undefined) {
    for (const name in lic) {
      const copies = lic[name];
      if (!(copies > 0)) continue;
      const l = platform.licenses.find((x) => x.name === name);
      if (l === undefined) return `needs license ${name}, which the platform does not have`;
      if (l.copies < copies)
        return `needs ${copies} copies of license ${name}, which has ${l.copies}`;
      if (l.kind === "floating") {
        if (l.machines !== undefined) {
          const ok = new Uint8Array(n);
          for (const m of l.machines) ok[m] = 1;
          for (let m = 0; m < n; m++) usable[m] &= ok[m];
        }
      } else {
        const per = new Int32Array(n);
        for (const m of l.machines ?? []) per[m] = l.copies;
        lockedNeeds.push([per, copies]);
      }
    }
  }
  let cores = 0;
  let largest = 0;
  let anchor = false;
  for (let m = 0; m < n; m++) {
    if (!usable[m]) continue;
    const c = platform.machines[m].cores;
    cores += c;
    let holds = true;
    for (const [per, copies] of lockedNeeds) if (per[m] < copies) holds = false;
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
