// @ts-check
import { formatSwf, generateLublin, parseSwf, swfToJobs } from "@sched/workload";

/** A small Lublin–Feitelson trace as SWF text, read back. */
export async function compute() {
  const { header, records } = generateLublin({ jobs: 40, procs: 64, seed: 7 });
  const text = formatSwf(header, records);
  const back = parseSwf(text, { source: "lublin.swf" });
  const { jobs } = swfToJobs(back.records, { clean: true });
  return { text, jobs };
}
