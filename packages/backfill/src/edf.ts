import { type EdfOptions, resolveEdf } from "./options.js";
import { schedulerOf } from "./scheduler.js";
import { earliestDeadline } from "./strategies/earliest-deadline.js";
import type { BackfillScheduler } from "./strategy.js";

/**
 * Earliest deadline first, as the convergent-scheduling paper implements it: waiting jobs in
 * increasing deadline order (jobs without a deadline last; ties by submit time, then id),
 * machines fastest first; each job goes to the best available machine that has its cores and
 * licenses, and a job that fits nowhere stays queued while later jobs are tried (no
 * reservation). With `preemption`, a newly submitted job that fits nowhere preempts running
 * jobs with a strictly later deadline (latest deadline first, then latest start) when that
 * frees enough room for it; preempted jobs keep their progress and return to the queue.
 * The same decisions on a plain state: `backfillPass(state, { policy: "edf" })`.
 *
 * Complexity per event: O(Q log Q) to sort the queue (O(Q) when it is in order already, as by
 * default jobs without deadlines are), O(M) per job tried, and per preempting
 * arrival O(R log R + M) (O(M + R) with `exclusive`).
 *
 * @throws InvalidInputError when an option is invalid.
 * @example
 * simulate(jobs, farm, edf()); // jobs with earlier deadlines first, on the fastest machines
 */
export function edf(options?: EdfOptions): BackfillScheduler {
  return schedulerOf(earliestDeadline(resolveEdf(options)));
}
