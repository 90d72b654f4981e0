export {
  type AvailRecord,
  AvailRectList,
  type AvailRectListOptions,
  type FindAllocationOptions,
  type Fit,
  type Reservation,
} from "./avail-rect-list.js";
export {
  type AllocationPolicy,
  type AvailabilityRectangle,
  durationBestFit,
  durationWorstFit,
  firstFit,
  paperPolicies,
  peBestFit,
  peDurationBestFit,
  peDurationWorstFit,
  peWorstFit,
  rectangleDuration,
  scorePolicy,
} from "./policies.js";
export { type AdvanceReservationOptions, advanceReservation } from "./scheduler.js";
