import { type AllocationPolicy, firstFit } from "./policies.js";

/**
 * The defaults of `advanceReservation`'s options (and of `admit` and `findAllocation`, which
 * share them). Frozen.
 *
 * @example ADVANCE_RESERVATION_DEFAULTS.policy.name // "FF"
 */
export const ADVANCE_RESERVATION_DEFAULTS: Readonly<{
  policy: AllocationPolicy;
  clipToDeadline: boolean;
}> = Object.freeze({ policy: firstFit, clipToDeadline: true });
