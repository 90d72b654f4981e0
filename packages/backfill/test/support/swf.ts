import { readFileSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import type { Job } from "@sched/core";

/**
 * A tiny SWF reader for the tests, independent of @sched/workload, with the conventional
 * clean-up: drop jobs whose run time, allocated processors (field 5) or requested time
 * (field 9) is not positive; cap the run time at the requested time; size = allocated
 * processors. Returns jobs sorted by (submit, id). With `estimate: "runtime"` (logs without
 * requested times, such as the Lublin-model trace) the estimate is the run time and field 9 is
 * ignored. A path ending in `.gz` is gunzipped first.
 */
export function readCleanSwf(path: string, estimate: "requested" | "runtime" = "requested"): Job[] {
  const jobs: Job[] = [];
  const raw = readFileSync(path);
  const text = (path.endsWith(".gz") ? gunzipSync(raw) : raw).toString("utf8");
  for (const line of text.split("\n")) {
    const s = line.trim();
    if (s === "" || s.startsWith(";")) continue;
    const f = s.split(/\s+/).map(Number);
    const [id, submit, , runtime, procs, , , , field9] = f;
    if (id === undefined || submit === undefined || runtime === undefined || procs === undefined)
      continue;
    const requested = estimate === "runtime" ? runtime : field9;
    if (requested === undefined || !(runtime > 0) || !(procs > 0) || !(requested > 0)) continue;
    jobs.push({
      id,
      submit,
      runtime: Math.min(runtime, requested),
      estimate: requested,
      cores: procs,
    });
  }
  jobs.sort((a, b) => a.submit - b.submit || a.id - b.id);
  return jobs;
}
