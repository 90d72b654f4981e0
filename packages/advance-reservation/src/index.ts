export {
  type Accepted,
  type AdmissionDecision,
  type AdmissionOptions,
  type AdmissionResult,
  type AdmissionState,
  admissionPass,
  type HeldReservation,
  type Rejected,
  type ReservationRequest,
} from "./admission.js";
export {
  type AllocationRequest,
  type AvailRecord,
  AvailRectList,
  type AvailRectListOptions,
  type FindAllocationOptions,
  type Fit,
  type FitQuery,
  type FoundAllocation,
  type RectangleQuery,
  type RequestWindow,
} from "./avail-rect-list.js";
export { ADVANCE_RESERVATION_DEFAULTS } from "./defaults.js";
export { PE_SELECTIONS, type PeSelection } from "./pe-selection.js";
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
