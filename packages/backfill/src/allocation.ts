import {
  type Allocation,
  type AllocationPart,
  firstFitAllocation,
  type Job,
  type LicensesFreeOptions,
  licensesFreeOn,
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
    order.sort((a, b) => ms[b]!.speed - ms[a]!.speed || a - b);
  } else if (rule === "best-fit") {
    order.sort((a, b) => ms[a]!.cores - ms[b]!.cores || ms[b]!.speed - ms[a]!.speed || a - b);
  }
  return order;
}

/** Another machine than the allocation's first: only floating licenses must be free there. */
const OTHER_MACHINE: LicensesFreeOptions = Object.freeze({ first: false });

/** True when machine `m` runs no job now (all its cores are free). */
export function idle(view: SchedulerView, m: number): boolean {
  return view.freeCores(m) >= view.platform.machines[m]!.cores;
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
 * licenses in index order (k machines used; on one machine, k machines looked at: those with a
 * free core up to the one chosen); O(M x licenses) otherwise.
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
  const single = singleMachine || exclusive;
  if (job.licenses === undefined && !single && rule === "index") {
    return firstFitAllocation(view, need);
  }
  if (single && !exclusive && job.licenses === undefined && rule === "index") {
    // The first machine in index order with `need` free cores: machines with none are skipped
    // by `nextFreeMachine` (on 100,000 single-core machines, no scan of the busy ones).
    for (let m = view.nextFreeMachine(0); m >= 0; m = view.nextFreeMachine(m + 1)) {
      if (view.freeCores(m) >= need) return [{ machine: m, cores: need }];
    }
    return null;
  }
  if (single) {
    for (let k = 0; k < order.length; k++) {
      const m = order[k]!;
      const free = view.freeCores(m);
      if (free < need || (exclusive && free < view.platform.machines[m]!.cores)) continue;
      if (licensesFreeOn(job, view, m)) return [{ machine: m, cores: need }];
    }
    return null;
  }
  // The first machine holds the node-locked copies: the first in `order` with a free core and
  // every license free there. Without node-locked licenses it is also the first machine the
  // filling loop below would take, so the allocation is the plain walk in `order`.
  let first = -1;
  for (let k = 0; k < order.length && first < 0; k++) {
    const m = order[k]!;
    if (view.freeCores(m) > 0 && licensesFreeOn(job, view, m)) first = m;
  }
  if (first < 0) return null;
  let left = need - Math.min(view.freeCores(first), need);
  const parts: AllocationPart[] = [{ machine: first, cores: need - left }];
  for (let k = 0; k < order.length && left > 0; k++) {
    const m = order[k]!;
    if (m === first) continue;
    const free = view.freeCores(m);
    if (free <= 0 || !licensesFreeOn(job, view, m, OTHER_MACHINE)) continue;
    const take = Math.min(free, left);
    parts.push({ machine: m, cores: take });
    left -= take;
  }
  return left > 0 ? null : parts;
}
