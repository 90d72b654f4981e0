export {
  type CostEvaluation,
  type CostInput,
  computeOnlyProfile,
  evaluateCost,
  type JobCost,
  type LinkDemandOptions,
  linkDemand,
  linkSaturation,
  linkSlowdown,
  type OasProfile,
  type ProfileOf,
  processingSlowdown,
  type TimeCostOptions,
  tasksPerCluster,
  timeCost,
} from "./cost.js";
export {
  type ContentionDelay,
  contentionDelays,
  type OasExecutionModelOptions,
  oasExecutionModel,
} from "./execution.js";
export {
  buildOasModel,
  OAS_SOLVE_DEFAULTS,
  type OasFormulation,
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
  type ConfigurationOptions,
  type JobConfiguration,
  jobConfigurations,
  type ResourceGroup,
  resourceGroups,
} from "./oas-configurations.js";
export {
  type LinkOverload,
  linkLoadViolations,
  OAS_HEURISTIC_DEFAULTS,
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
  type SlotsNeededOptions,
  slotsNeeded,
} from "./oas-instance.js";
export {
  ALLOCATION_CANDIDATES,
  type AllocationCandidates,
  type CandidateOptions,
  candidateResources,
  MAX_ALLOCATION_SPLITS,
  type SlottedListOptions,
  type SlottedPlanOptions,
  slottedListSchedule,
  slottedPlanFromTrace,
} from "./oas-slotted.js";
export {
  adaptivePartitionSize,
  CLUSTER_PROXIMITIES,
  CLUSTER_SELECTIONS,
  type ClusterProximity,
  type ClusterSelection,
  type DynamicPartitionSizeOptions,
  dynamicPartitionSize,
  fitnessFactors,
  type MapPartitionSizeOptions,
  mapPartitionSize,
  type SelectProcessorsOptions,
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
  type BackgroundSharing,
  type BaselinePartition,
  type BaselineSelection,
  DYNAMIC_ALLOTMENTS,
  type DynamicAllotment,
  SPACE_SHARING_DEFAULTS,
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
  type SpaceSharingDecision,
  type SpaceSharingPassJob,
  type SpaceSharingPassOptions,
  type SpaceSharingPassState,
  type SpaceSharingStart,
  spaceSharingPass,
} from "./space-sharing-pass.js";
