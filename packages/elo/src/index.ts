export { maxMinScheduler, minMinScheduler } from "./batch-scheduler.js";
export {
  type CompetitiveCompletion,
  type CompetitiveDecision,
  type CompetitiveMemory,
  type CompetitivePassOptions,
  type CompetitiveQueuedJob,
  type CompetitiveState,
  competitivePass,
} from "./competitive-pass.js";
export type {
  CompetitiveOptions,
  CompetitiveScheduler,
  RatingEvent,
} from "./competitive-scheduler.js";
export { competitiveScheduler, tierPreference } from "./competitive-scheduler.js";
export {
  COMPETITIVE_DEFAULTS,
  RANDOM_SCHEDULER_DEFAULTS,
  TIER_SEARCHES,
  type TierSearch,
} from "./defaults.js";
export { type BetaParameters, betaParameters, expectedResult } from "./expected-result.js";
export { expectedTime, jobSize } from "./expected-time.js";
export type { HeuristicOptions } from "./heuristic-options.js";
export { type JobLevelOptions, jobLevel } from "./job-level.js";
export type { Mapping, MappingProblem } from "./mapping.js";
export { mct } from "./mct.js";
export { mctScheduler } from "./mct-scheduler.js";
export { maxMin, minMin } from "./min-min.js";
export { type RandomSchedulerOptions, randomScheduler } from "./random-scheduler.js";
export {
  type RatingOptions,
  updateRating,
} from "./rating.js";
export {
  type RatingUpdate,
  type ResolvedTierListOptions,
  TierList,
  type TierListOptions,
  type TierSnapshot,
} from "./tier-list.js";
export {
  type TierOptions,
  tierOf,
  tierRange,
} from "./tiers.js";
export {
  isWin,
  type JobOutcome,
  WIN_TOLERANCE,
  type WinConditionOptions,
  winCondition,
} from "./win-condition.js";
