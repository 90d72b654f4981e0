export {
  type ArbJobsOptions,
  type ArbPlatformOptions,
  arbJobs,
  arbPlatform,
} from "./arbitraries.js";
export { type MakeViewOptions, makeView } from "./make-view.js";
export {
  type ReadmeExample,
  type ReadmeExampleOptions,
  runReadmeExample,
} from "./readme-example.js";
export { type SchedulerSpecsOptions, schedulerSpecs } from "./specs.js";
