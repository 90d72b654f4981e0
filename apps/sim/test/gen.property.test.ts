import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { formatJobsJsonl, parseJobsJsonl, WORKLOAD_MODELS } from "@sched/workload";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { cli, tempDir } from "./helpers.js";

/** Every model of @sched/workload, with a random seed and job count. */
const MODELS = WORKLOAD_MODELS.map((m) => m.name);

describe("sched-sim gen (properties)", () => {
  it("for every model and seed: same options, same bytes; the JSON Lines file holds the model's jobs exactly", async () => {
    const dir = await tempDir();
    let n = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...MODELS),
        fc.integer({ min: 0, max: 1_000_000 }),
        fc.integer({ min: 1, max: 30 }),
        fc.constantFrom("swf", "jsonl"),
        async (name, seed, jobs, ext) => {
          const model = WORKLOAD_MODELS.find((m) => m.name === name);
          const options = ["--seed", String(seed), "--jobs", String(jobs)];
          const a = join(dir, `a${n}.${ext}`);
          const b = join(dir, `b${n}.${ext}`);
          n++;
          const ra = await cli("gen", name, ...options, "--out", a);
          expect(ra.code, ra.stderr).toBe(0);
          expect((await cli("gen", name, ...options, "--out", b)).code).toBe(0);
          const text = await readFile(a, "utf8");
          expect(await readFile(b, "utf8")).toBe(text);
          if (ext === "jsonl") {
            const direct = model?.generate({ seed, jobs }).jobs ?? [];
            // the file's jobs are the generator's, field for field
            expect(formatJobsJsonl(parseJobsJsonl(text).jobs)).toBe(formatJobsJsonl(direct));
          }
        },
      ),
      { numRuns: 24 },
    );
  });
});
