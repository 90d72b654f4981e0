import { ParseError } from "@sched/core";
import type { SwfCleanupReport } from "@sched/workload";

/**
 * Stop when a workload holds no job: there is nothing to simulate, summarize or convert, and a
 * table of zero jobs (NaN means, a machine of 0 processors) would look like a result. `run`,
 * `inspect` and `convert` say the same. After a clean-up that dropped every record it says how
 * many for each reason, and when they lacked requested times, how to use the run times instead
 * (when `options` has `estimate`).
 *
 * @throws ParseError naming `command` and `path`.
 */
export function requireJobs(
  command: string,
  path: string,
  jobs: number,
  report?: SwfCleanupReport,
  options: { readonly estimate?: string; readonly commandOptions?: readonly string[] } = {},
): void {
  if (jobs > 0) return;
  if (report === undefined || report.records === 0) {
    throw new ParseError(command, { source: path }, "holds no jobs (no job line)");
  }
  const { droppedRuntime, droppedProcs, droppedRequestedTime } = report;
  let detail = `holds no jobs after the clean-up: all ${report.records} records were dropped (run time <= 0: ${droppedRuntime.length}, processors <= 0: ${droppedProcs.length}, requested time <= 0: ${droppedRequestedTime.length})`;
  if (
    droppedRequestedTime.length > 0 &&
    options.estimate === "requested" &&
    options.commandOptions?.includes("estimate") === true
  ) {
    detail += "; for a trace without requested times (field 9) give --estimate runtime";
  }
  throw new ParseError(command, { source: path }, detail);
}
