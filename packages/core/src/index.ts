export {
  ConstraintViolationError,
  InvalidInputError,
  LimitExceededError,
  type LimitExceededErrorOptions,
  ParseError,
  PolicyError,
  type PolicyErrorContext,
  SchedError,
  type SchedErrorOptions,
} from "@sched/errors";
export { firstFitAllocation, oneCoreAllocation } from "./allocation.js";
export {
  type CheckOptions,
  checkSchedule,
  type Violation,
  type ViolationKind,
} from "./check.js";
export {
  eligibleMachines,
  fitsMachine,
  type LicensesFreeOptions,
  licensesFreeOn,
  type NeverFitsOptions,
  whyNeverFits,
} from "./eligibility.js";
export {
  benchmarkOf,
  defaultExecutionModel,
  type ExecutionModel,
  type RunningSetEntry,
} from "./execution.js";
export { createJob, JOB_FIELDS, type JobSpec, maxCoresOf, validateJobs } from "./job.js";
export { ResourceLedger } from "./ledger.js";
export { MetricSums, type MetricSumsResultOptions } from "./metric-sums.js";
export {
  computeMetrics,
  type Metrics,
  type MetricsOfOptions,
  type MetricsOptions,
  metricsOf,
} from "./metrics.js";
export {
  type ClusterSpec,
  createPlatform,
  type IdenticalPoolOptions,
  identicalPool,
  type LicenseSpec,
  type LinkSpec,
  MAX_RESOURCE_COUNT,
  type MachineSpec,
  type PlatformSpec,
  validatePlatform,
} from "./platform.js";
export type {
  RunningJob,
  Scheduler,
  SchedulerView,
  SchedulingContext,
  WaitingJob,
} from "./scheduler.js";
export {
  TRACE_FORMAT,
  TRACE_VERSION,
  type TraceFromJSONOptions,
  type TraceToJSONOptions,
  traceFromJSON,
  traceToJSON,
} from "./serialize.js";
export { type SimulateOptions, simulate } from "./simulate.js";
export {
  createSimulation,
  type SimulateStreamOptions,
  type Simulation,
  type SimulationSummary,
  simulateStream,
} from "./simulation.js";
export type { Interval, JobRecord, Outcome, RunStats, ScheduleTrace } from "./trace.js";
export type {
  Allocation,
  AllocationPart,
  Cluster,
  InputData,
  Job,
  License,
  LicenseRequest,
  Link,
  Machine,
  Platform,
} from "./types.js";
