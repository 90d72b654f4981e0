import type { PeSelection } from "./pe-selection.js";
import { type AllocationPolicy, firstFit } from "./policies.js";

/**
 * The defaults of `advanceReservation`'s options (and of `admissionPass` and `findAllocation`,
 * which share them). Frozen.
 *
 * @example ADVANCE_RESERVATION_DEFAULTS.policy.name // "FF"
 */
export const ADVANCE_RESERVATION_DEFAULTS: Readonly<{
  policy: AllocationPolicy;
  clipToDeadline: boolean;
  peSelection: PeSelection;
}> = Object.freeze({ policy: firstFit, clipToDeadline: true, peSelection: "lowest-index" });
