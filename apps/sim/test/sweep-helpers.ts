import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { SweepPlan } from "../src/sweep/plan.js";
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

/** A plan of `points` loads x `seeds` seeds x `schedulers` fcfs schedulers (for tests that never simulate it). */
export function syntheticPlan(points: number, seeds: number, schedulers: number): SweepPlan {
  return {
    name: "p",
    title: "",
    description: "",
    source: { kind: "file", workload: { type: "synthetic", jobs: 10, load: 0.5, procs: 4 } },
    params: ["load"],
    points: Array.from({ length: points }, (_, i) => [i / 10]),
    seeds: Array.from({ length: seeds }, (_, i) => i + 1),
    schedulers: Array.from({ length: schedulers }, (_, i) => ({
      name: "fcfs",
      opts: [],
      label: `s${i}`,
    })),
    metrics: ["meanWait"],
  };
}
