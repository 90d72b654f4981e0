export {
  type ArbJobsOptions,
  type ArbPlatformOptions,
  arbJobs,
  arbPlatform,
} from "./arbitraries.js";
export { type SchedulerSpecsOptions, schedulerSpecs } from "./specs.js";
