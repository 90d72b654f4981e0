export {
  type AvailRecord,
  AvailRectList,
  type AvailRectListOptions,
  type FindAllocationOptions,
  type Fit,
  type Reservation,
} from "./avail-rect-list.js";
export {
  type ArExperimentOptions,
  type ArExperimentRow,
  type ArMetrics,
  type ArStudy,
  type ArStudyPoint,
  type ArWorkloadParams,
  arMetrics,
  arStudies,
  type Estimate,
  estimate,
  runArExperiment,
} from "./experiment.js";
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
