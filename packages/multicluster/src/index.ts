export {
  type CostEvaluation,
  type CostInput,
  computeOnlyProfile,
  evaluateCost,
  type JobCost,
  linkDemand,
  linkSaturation,
  linkSlowdown,
  type OasProfile,
  type ProfileOf,
  processingSlowdown,
  tasksPerCluster,
  timeCost,
} from "./cost.js";
export { type OasExecutionModelOptions, oasExecutionModel } from "./execution.js";
export {
  type OasComparisonRow,
  type OasExperimentOptions,
  type OasExperimentResult,
  type OasSlotRow,
  oasExperiment,
  oasPlatform,
  type SpaceSharingExperimentOptions,
  type SpaceSharingRow,
  spaceSharingExperiment,
} from "./experiments.js";
export {
  buildOasModel,
  type OasModel,
  type OasModelOptions,
  type OasResult,
  type OasStatus,
  oasSlotDefaults,
  type SolveOasOptions,
  solveOas,
} from "./mip.js";
export { type BruteForceOasOptions, type BruteForceOasResult, bruteForceOas } from "./oas-brute.js";
export { type CheckOasOptions, checkOasSchedule } from "./oas-check.js";
export {
  type LinkOverload,
  linkLoadViolations,
  OAS_RULES,
  type OasHeuristicOptions,
  type OasPlanOptions,
  type OasRule,
  oasHeuristic,
  oasPlanScheduler,
  ruleOrder,
} from "./oas-heuristics.js";
export {
  allocationCost,
  allocationOf,
  type OasAssignment,
  type OasInstance,
  oasInstance,
  slotsNeeded,
} from "./oas-instance.js";
export { type OasRun, type RunOasOptions, runOas } from "./oas-run.js";
export {
  candidateResources,
  type SlottedListOptions,
  slottedListSchedule,
  slottedPlanFromTrace,
} from "./oas-slotted.js";
export {
  adaptivePartitionSize,
  dynamicPartitionSize,
  fitnessFactors,
  selectProcessors,
  taskBunches,
} from "./partition.js";
export {
  type ClusterDescription,
  clusterBandwidths,
  type MultiClusterPlatformOptions,
  multiClusterPlatform,
} from "./platform.js";
export { loadSolver, type SolverOptions } from "./solver.js";
export {
  type SpaceSharingOptions,
  type SpaceSharingPolicy,
  type SpaceSharingRecord,
  type SpaceSharingResult,
  simulateSpaceSharing,
} from "./space-sharing.js";
export {
  type LocalMachineOf,
  processorPlatform,
  type SpaceSharingCoreResult,
  type SpaceSharingExecutionModelOptions,
  type SpaceSharingSchedulerOptions,
  simulateSpaceSharingOnCore,
  spaceSharingExecutionModel,
  spaceSharingScheduler,
} from "./space-sharing-core.js";
export {
  type MoldableWorkloadOptions,
  moldableWorkload,
  type OasWorkload,
  oasWorkload,
} from "./workloads.js";
