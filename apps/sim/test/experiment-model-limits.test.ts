import { readdir } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { MAX_PROCS } from "../src/limits.js";
import { cli, tempDir } from "./helpers.js";
import { writeExperiment } from "./sweep-helpers.js";

/** An experiment of `model` with `options` (and `grid`), one fcfs run per point. */
function modelExperiment(
  model: string,
  options: Record<string, unknown>,
  grid: Record<string, number[]> = {},
): Record<string, unknown> {
  return {
    name: "limits",
    workload: { type: "model", model, options: { jobs: 10, ...options } },
    schedulers: ["fcfs"],
    grid,
    seeds: 1,
  };
}

/** `sweep FILE` of `doc`: its exit code and stderr, and whether it wrote anything to its --out. */
async function sweep(
  doc: unknown,
): Promise<{ code: number; stderr: string; file: string; wrote: boolean }> {
  const file = await writeExperiment(doc);
  const out = await tempDir();
  const r = await cli("sweep", file, "--out", out, "--quiet");
  return { code: r.code, stderr: r.stderr, file, wrote: (await readdir(out)).length > 0 };
}

describe("experiment files check model options as gen checks its flags", () => {
  it("a fraction in a range or list of whole numbers is refused naming the file and the item (was: every run failed)", async () => {
    for (const [model, options, path, got] of [
      ["convergent", { cpus: [1.5, 8] }, "workload.options.cpus[0]", "1.5"],
      ["convergent", { cpus: [1, 7.25] }, "workload.options.cpus[1]", "7.25"],
      ["multicluster", { maxParallelism: [2, 2.5] }, "workload.options.maxParallelism[1]", "2.5"],
    ] as const) {
      const r = await sweep(modelExperiment(model, options));
      expect(r.code).toBe(2);
      expect(r.stderr).toBe(
        `sched-sim: sweep: ${r.file}: ${path}: expected a whole number (each number of this option is), got ${got}\n`,
      );
      expect(r.wrote).toBe(false);
    }
  });

  it("a range or list of numbers takes fractions (the element kind decides)", async () => {
    const r = await sweep(
      modelExperiment("convergent", { cpus: [1, 4], benchmark: [200.5, 600.25] }),
    );
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
  });

  it("options whose product is over the platform limit are refused naming each field path (was: a 2,000,000-processor run)", async () => {
    const big = await sweep(
      modelExperiment("multicluster", { clusters: 2000, processorsPerCluster: 1000 }),
    );
    expect(big.code).toBe(2);
    expect(big.stderr).toBe(
      `sched-sim: sweep: ${big.file}: workload.options.clusters 2000 x workload.options.processorsPerCluster 1000 give 2000000 processors, more than the ${MAX_PROCS} a simulated platform may have\n`,
    );
    expect(big.wrote).toBe(false);
    // A default factor is named as such; a list counts its items (oas: one cluster per power).
    const dflt = await sweep(modelExperiment("multicluster", { processorsPerCluster: 200000 }));
    expect(dflt.stderr).toContain(
      `: workload.options.clusters (default) 8 x workload.options.processorsPerCluster 200000 give 1600000 processors`,
    );
    const oas = await sweep(modelExperiment("oas", { nodesPerCluster: 400000 }));
    expect(oas.stderr).toContain(
      `: workload.options.nodesPerCluster 400000 x workload.options.powers (default) (3 items) give 1200000 processors`,
    );
    // The grid: its largest value is the one named.
    const grid = await sweep(
      modelExperiment("multicluster", { processorsPerCluster: 1000 }, { clusters: [2, 2000, 4] }),
    );
    expect(grid.code).toBe(2);
    expect(grid.stderr).toBe(
      `sched-sim: sweep: ${grid.file}: grid.clusters[1] 2000 x workload.options.processorsPerCluster 1000 give 2000000 processors, more than the ${MAX_PROCS} a simulated platform may have\n`,
    );
    // Exactly at the limit is fine (checked without running it: a --emit script).
    const file = await writeExperiment(
      modelExperiment("multicluster", { clusters: 1000, processorsPerCluster: 1000 }),
    );
    const at = await cli("sweep", file, "--out", await tempDir(), "--emit", "slurm");
    expect(at.stderr).toBe("");
    expect(at.code).toBe(0);
  });

  it("an option sizing the platform has gen's bounds", async () => {
    const r = await sweep(modelExperiment("convergent", { machines: 0 }));
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      `sched-sim: sweep: ${r.file}: workload.options.machines: expected an integer in [1, ${MAX_PROCS}], got 0\n`,
    );
    const g = await sweep(modelExperiment("convergent", {}, { licenses: [3, 1000001] }));
    expect(g.code).toBe(2);
    expect(g.stderr).toContain(
      `grid.licenses[1]: expected an integer in [0, ${MAX_PROCS}], got 1000001`,
    );
  });
});
