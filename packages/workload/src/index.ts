export {
  type AdvanceReservationWorkloadOptions,
  AR_ARRIVAL_READINGS,
  AR_LANL_CM5,
  AR_LANL_CM5_ARAR,
  AR_RUNTIME_CLASSES,
  AR_RUNTIME_MAPPINGS,
  type ArArrivalReading,
  type ArRuntimeMapping,
  advanceReservationWorkload,
} from "./advance-reservation.js";
export {
  CONVERGENT_DEADLINE_READINGS,
  CONVERGENT_INTER_ARRIVALS,
  CONVERGENT_MKP_LICENSE_RATIOS,
  CONVERGENT_MKP_STUDY,
  type ConvergentDeadlineReading,
  type ConvergentWorkloadOptions,
  convergentWorkload,
} from "./convergent.js";
export {
  ELO_JOB_SETS,
  ELO_MACHINES,
  type EloOptions,
  type EloSizeDistribution,
  type EloWorkload,
  eloWorkload,
} from "./elo.js";
export type { GeneratedWorkload, Range } from "./generated.js";
export {
  type HiddenSpeedOptions,
  hiddenSpeedModel,
  type SpeedDrift,
} from "./hidden-speed-model.js";
export { type JobTimeProblem, jobTimeProblem, MAX_WORKLOAD_TIME } from "./job-times.js";
export {
  createJobsLineReader,
  formatJobJson,
  formatJobsJsonl,
  formatPlatformJson,
  JOB_JSON_SCHEMA,
  JOBS_FORMAT,
  type JobsFile,
  type JobsFileHeader,
  type JobsLineReader,
  NATIVE_VERSION,
  PLATFORM_FORMAT,
  parseJobsJsonl,
  parsePlatformJson,
  type ReadJobsLinesOptions,
  type ReadJobsOptions,
  readJobsLines,
  writeJobsLines,
} from "./jobs-json.js";
export { JobsJsonlWriter, type JobsJsonlWriterOptions } from "./jobs-jsonl-writer.js";
export { duplicateJsonKey } from "./json-duplicate-key.js";
export { type JsonSyntaxError, jsonSyntaxError, jsonSyntaxErrorAt } from "./json-syntax.js";
export {
  generateLublin,
  LUBLIN_BATCH,
  LUBLIN_BUCKETS,
  LUBLIN_CYCLE_START,
  LUBLIN_INTERACTIVE,
  LUBLIN_TYPELESS,
  type LublinJobType,
  type LublinOptions,
  type LublinParameters,
  lublinDailyCycle,
  lublinHeader,
  lublinRecords,
  type ResolvedLublinOptions,
  resolveLublinOptions,
} from "./lublin.js";
export {
  type ModelOption,
  type ModelOutput,
  type ModelStream,
  parseModelOption,
  WORKLOAD_MODELS,
  type WorkloadModel,
} from "./models.js";
export {
  MULTICLUSTER_SPEED_SETS,
  type MulticlusterOptions,
  type MulticlusterSpeedSet,
  multiclusterWorkload,
} from "./multicluster.js";
export {
  type BspParameters,
  OAS_HEAVY_BANDWIDTH,
  OAS_MODERATE_BANDWIDTH,
  OAS_POWERS,
  OAS_WORKLOAD_NAMES,
  type OasOptions,
  type OasWorkload,
  type OasWorkloadName,
  oasWorkload,
} from "./oas.js";
export {
  type Distribution,
  type SummarizeJobsOptions,
  summarizeJobs,
  WorkloadSummarizer,
  type WorkloadSummary,
} from "./summary.js";
export {
  type JobsToSwfOptions,
  JobsToSwfTally,
  jobsToSwf,
  jobToSwfRecord,
} from "./swf-from-jobs.js";
export {
  emptySwfHeader,
  formatSwfHeader,
  type SwfDirective,
  type SwfHeader,
} from "./swf-header.js";
export {
  type SwfCleanupReport,
  type SwfJobs,
  type SwfToJobsOptions,
  swfToJobs,
  swfToJobsAsync,
} from "./swf-jobs.js";
export {
  type ParseSwfOptions,
  parseSwf,
  type ReadSwfLinesOptions,
  readSwfLines,
  readSwfLinesSync,
  readSwfTrace,
  type SwfTrace,
} from "./swf-read.js";
export {
  SWF_FIELD_COUNT,
  SWF_FIELDS,
  SWF_UNKNOWN,
  type SwfFieldInfo,
  type SwfFieldKey,
  type SwfRecord,
  swfRecord,
} from "./swf-record.js";
export {
  createSwfJobStream,
  type SwfJobStream,
  type SwfJobStreamOptions,
} from "./swf-stream.js";
export { traceToSwf } from "./swf-trace.js";
export { formatSwf, formatSwfRecord, writeSwfLines } from "./swf-write.js";
export { SwfWriter, type SwfWriterOptions, writeInteger } from "./swf-writer.js";
