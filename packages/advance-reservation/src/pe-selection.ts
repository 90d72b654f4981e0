import { requireOneOf } from "@sched/errors";

/**
 * Which `n` of the chosen rectangle's free PEs a reservation takes (section 4.2 returns "the
 * IDs of the `n_job` PEs" without saying which; README, Interpretation 5):
 *
 * - `"lowest-index"`: the `n` lowest-index free PEs (reproduces Figure 1's merge with the
 *   PEs numbered as drawn).
 * - `"highest-index"`: the `n` highest-index free PEs.
 * - `"soonest-reserved"`: best fit in time after the job: the free PEs whose next reservation
 *   after the job's end comes soonest (a PE never reserved again comes last), so the PEs that
 *   stay free longest are kept for later requests.
 * - `"latest-released"`: best fit in time before the job: the free PEs released most recently
 *   at or before the job's start (a PE not reserved since the structure's origin comes last), so
 *   the job follows on where a reservation ends (Figure 1's merge by construction).
 *
 * Ties (equal times, or two PEs never reserved) go to the lower index. The PEs are returned in
 * increasing order whatever the reading.
 */
export type PeSelection = "lowest-index" | "highest-index" | "soonest-reserved" | "latest-released";

/** The values of {@link PeSelection}, the default first. */
export const PE_SELECTIONS: readonly PeSelection[] = [
  "lowest-index",
  "highest-index",
  "soonest-reserved",
  "latest-released",
];

/** Throws unless `value` is a {@link PeSelection}. Internal. */
export function checkPeSelection(where: string, field: string, value: unknown): PeSelection {
  return requireOneOf(where, field, value, PE_SELECTIONS);
}
