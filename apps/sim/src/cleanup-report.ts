import type { SwfCleanupReport } from "@sched/workload";

/** The clean-up report as lines for stderr. */
export function cleanupReportText(report: SwfCleanupReport, clean: boolean): string {
  const ids = (list: readonly number[]): string =>
    list.length === 0
      ? ""
      : ` (job${list.length === 1 ? "" : "s"} ${list.slice(0, 5).join(", ")}${list.length > 5 ? ", ..." : ""})`;
  const lines = [
    `${clean ? "clean-up" : "conversion"}: ${report.records} records read, ${report.jobs} jobs kept`,
  ];
  if (clean) {
    lines.push(
      `  dropped, run time <= 0:       ${report.droppedRuntime.length}${ids(report.droppedRuntime)}`,
    );
    lines.push(
      `  dropped, processors <= 0:     ${report.droppedProcs.length}${ids(report.droppedProcs)}`,
    );
    lines.push(
      `  dropped, requested time <= 0: ${report.droppedRequestedTime.length}${ids(report.droppedRequestedTime)}`,
    );
    lines.push(
      `  run time capped at requested: ${report.runtimeCapped.length}${ids(report.runtimeCapped)}`,
    );
  }
  lines.push(
    `  size from allocated procs:    ${report.sizeFromAllocated.length} differ from requested`,
  );
  lines.push(
    `  size from requested procs:    ${report.sizeFromRequested.length} (allocated unknown)`,
  );
  return `${lines.join("\n")}\n`;
}
