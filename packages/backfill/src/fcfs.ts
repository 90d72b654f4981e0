import { type FcfsOptions, resolveFcfs } from "./options.js";
import { schedulerOf } from "./scheduler.js";
import { strictOrder } from "./strategies/strict-order.js";
import type { BackfillScheduler } from "./strategy.js";

/**
 * First-come first-served: jobs start in queue order (submit time, then id), strictly; when the
 * job at the head of the queue does not fit in the free cores (and licenses), or has not reached
 * its ready time, it waits, and nobody passes it. A job that could never run on the empty
 * platform (more cores or license copies than exist) is rejected on arrival with the reason, so
 * it cannot block the queue forever. `backfill({ reservations: 0 })` is the same pass; on a
 * plain state, `backfillPass(state, { policy: "fcfs" })`.
 *
 * Cores are taken from machines in `machineOrder` (lowest index first by default), spanning
 * machines when one is not enough (with `singleMachine`, all on one machine).
 *
 * Complexity per scheduling call: O(1 + started jobs x M) for M machines.
 *
 * @throws InvalidInputError when an option is invalid.
 * @example
 * const trace = simulate(jobs, identicalPool(100), fcfs());
 */
export function fcfs(options?: FcfsOptions): BackfillScheduler {
  return schedulerOf(strictOrder(resolveFcfs(options)));
}
