export type { KnapsackResult, MkpInstance } from "./instance.js";
export { type Knapsack01Instance, type Knapsack01Options, knapsack01 } from "./knapsack01.js";
export {
  clusterLicenses,
  type LicenseCluster,
  type LicenseClustering,
  LicenseClusters,
  type LicenseCopies,
  type LicenseJob,
} from "./license-clusters.js";
export { type MkpExactOptions, type MkpExactResult, mkpExact } from "./mkp-exact.js";
export { type MkpGreedyOptions, mkpGreedy } from "./mkp-greedy.js";
export {
  jobCosts,
  type PreMatchCluster,
  type PreMatchInput,
  type PreMatchOptions,
  type PreMatchResult,
  preMatch,
} from "./pre-match.js";
