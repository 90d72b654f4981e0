import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { tempDir } from "./helpers.js";

/** A small experiment document: `points` loads x `seeds` seeds x 2 policies, 60-job workloads. */
export function smallExperiment(loads: readonly number[], seeds: number): Record<string, unknown> {
  return {
    name: "small",
    workload: { type: "synthetic", jobs: 60 },
    platform: { procs: 16 },
    schedulers: ["fcfs", { name: "easy", options: { order: "sjf" } }],
    grid: { load: loads },
    seeds,
    metrics: ["meanWait", "utilization"],
  };
}

/** Write `doc` as JSON into a fresh directory; returns the file's path. */
export async function writeExperiment(doc: unknown, name = "exp.json"): Promise<string> {
  const dir = await tempDir();
  const path = join(dir, name);
  await writeFile(path, typeof doc === "string" ? doc : JSON.stringify(doc, null, 2));
  return path;
}
