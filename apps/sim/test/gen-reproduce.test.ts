import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { formatJobsJsonl, parseJobsJsonl } from "@sched/workload";
import { describe, expect, it } from "vitest";
import { EXPERIMENTS } from "../src/experiments/registry.js";
import { defaultParams } from "../src/experiments/resolve.js";
import { cli, tempDir } from "./helpers.js";

/** A model option's value as `sched-sim gen` reads it (ranges as `lo,hi`). */
const optionText = (v: unknown): string => (Array.isArray(v) ? v.join(",") : String(v));

describe("sched-sim gen and reproduce call the same generator", () => {
  const withModel = EXPERIMENTS.filter((e) => e.workload !== undefined);

  it("the paper experiments declare their @sched/workload model", () => {
    const names = withModel.map((e) => e.name);
    for (const name of [
      ...["ar-size", "ar-load", "ar-flex", "elo", "elo-60", "elo-stream"],
      ...["convergent", "mkp", "convergent-workload", "convergent-scaling"],
      ...["space-sharing", "oas", "oas-links", "oas-slots"],
    ]) {
      expect(names).toContain(name);
    }
  });

  for (const experiment of withModel) {
    it(`${experiment.name}: 'gen ${experiment.workload?.(defaultParams(experiment, true)).model}' with the run's options and seed writes the run's jobs`, async () => {
      const dir = await tempDir();
      const params = defaultParams(experiment, true);
      const { model, options } = experiment.workload?.(params) ?? { model: "", options: {} };
      for (const seed of [1, 2]) {
        const file = join(dir, `${seed}.jsonl`);
        const args = Object.entries(options).flatMap(([k, v]) => [`--${k}`, optionText(v)]);
        const r = await cli("gen", model, ...args, "--seed", String(seed), "--out", file);
        expect(r.code, r.stderr).toBe(0);
        const written = parseJobsJsonl(await readFile(file, "utf8")).jobs;
        expect(formatJobsJsonl(written)).toBe(
          formatJobsJsonl(experiment.instance(params, seed).jobs),
        );
      }
    });
  }
});
