export { type AntiAgingOptions, antiAgingHeuristic } from "./anti-aging.js";
export { type ConvergentScheduler, type ConvergentStats, convergent } from "./convergent.js";
export {
  DEADLINE_DEFAULTS,
  type DeadlineOptions,
  deadlineDeltas,
  deadlineHeuristic,
  type F1Options,
  f1,
} from "./deadline.js";
export {
  type Heuristic,
  type HeuristicContext,
  type MatrixJob,
  type RowKernel,
  remainingTime,
} from "./heuristic.js";
export {
  IncrementalMatrix,
  type IncrementalMatrixOptions,
  REFRESH_TOLERANCE,
  SHIFT_HORIZON,
} from "./incremental.js";
export { bandwidth, type InputOptions, inputHeuristic, transferTime } from "./input.js";
export {
  compareLicenseWeight,
  type LicensesOptions,
  type LicenseWeight,
  licenseOffer,
  licenseRho,
  licensesHeuristic,
  licenseWeight,
} from "./licenses.js";
export {
  buildMatrix,
  type JobMachineMatrix,
  type MatrixInput,
  type MatrixSource,
  type MatrixUpdate,
  MIN_ELIGIBLE,
  rowMeans,
} from "./matrix.js";
export { type MatrixSourceOptions, matrixSource } from "./matrix-source.js";
export {
  eligibleMachines,
  type MinimalRequirementsOptions,
  meetsRequirements,
  minimalRequirementsHeuristic,
} from "./minimal-requirements.js";
export type { ConvergentOptions } from "./options.js";
export {
  OVERHEAD_NON_PREEMPTIVE,
  OVERHEAD_PREEMPTIVE,
  type OverheadOptions,
  overheadHeuristic,
} from "./overhead.js";
export {
  type HeuristicConstants,
  type HeuristicReadings,
  PAPER_CONSTANTS,
  PAPER_READINGS,
  paperHeuristics,
  scaled,
} from "./paper-heuristics.js";
export {
  type ConvergentDecision,
  type ConvergentMemory,
  type ConvergentPassOptions,
  type ConvergentQueuedJob,
  type ConvergentRunningJob,
  type ConvergentState,
  convergentPass,
} from "./pass.js";
export {
  IMFS_MAX_CHANGED,
  type Matcher,
  makePlan,
  PLAN_DEFAULTS,
  type Plan,
  PlanMemory,
  type PlanOptions,
  type PreviousPlan,
} from "./plan.js";
export { type ConvergentPriorityOptions, convergentPriority } from "./priority.js";
export { CONVERGENT_VARIANTS, type ConvergentVariant, convergentVariant } from "./variants.js";
export { type WaitMinimizationOptions, waitMinimizationHeuristic } from "./wait-minimization.js";
