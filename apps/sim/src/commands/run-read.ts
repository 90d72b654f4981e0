import type { StreamedFile } from "../atomic.js";
import { readSwfWorkload, streamSwfWorkload } from "../swf-input.js";
import { type RunInput, Runner, type RunPolicy, type RunResult, UNSORTED } from "./run-runner.js";

// `run` on the general reader (gzip files, files the byte scanner leaves, unsorted traces):
// loaded by ./run-core.ts only when a run needs it, so a pooled run of a plain SWF file that the
// scanner reads does not compile it.

/**
 * The run as the trace streams in: each chunk of jobs read is pushed into the simulation, each
 * record goes to `jobs.csv` as it ends, and the metrics are accumulated online, so memory holds
 * the jobs in flight, not the trace. Returns "unsorted" (having simulated nothing worth keeping)
 * at the first job submitted before the one before it: such a trace must be read whole and
 * sorted ({@link sortedRun}).
 */
export async function streamRun(
  workload: string,
  input: RunInput,
  choice: RunPolicy,
  csv: StreamedFile | null,
): Promise<RunResult | "unsorted"> {
  const runner = new Runner(workload, input, choice, csv);
  try {
    const { header, report } = await streamSwfWorkload(
      workload,
      {
        clean: input.clean,
        estimate: input.estimate,
        where: "run",
        onHeader: (h) => runner.header(h),
      },
      (jobs) => runner.push(jobs, true),
    );
    return runner.end(header, report);
  } catch (error) {
    if (error === UNSORTED) return "unsorted";
    throw error;
  }
}

/** The run of a trace that is not sorted by submit time: read whole, sorted, then simulated. */
export async function sortedRun(
  workload: string,
  input: RunInput,
  choice: RunPolicy,
  csv: StreamedFile | null,
): Promise<RunResult> {
  csv?.discard();
  const read = await readSwfWorkload(workload, {
    clean: input.clean,
    estimate: input.estimate,
    where: "run",
  });
  const jobs = [...read.jobs].sort((a, b) => a.submit - b.submit || a.id - b.id);
  const runner = new Runner(workload, input, choice, csv);
  if (read.header !== undefined) runner.header(read.header);
  if (jobs.length > 0) runner.push(jobs, false);
  return runner.end(read.header, read.report);
}
