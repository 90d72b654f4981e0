import { readdir, readFile, rm } from "node:fs/promises";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { readExperimentFile } from "../src/sweep/experiment-file.js";
import { planTasks } from "../src/sweep/plan.js";
import { parseShard, shardOf, shardTasks } from "../src/sweep/shard.js";
import { cli, tempDir } from "./helpers.js";
import { runFiles } from "./queue-helpers.js";
import { syntheticPlan as plan, smallExperiment, writeExperiment } from "./sweep-helpers.js";
import { timingKeys, timingMeans } from "./timing-helpers.js";

async function same(a: string, b: string): Promise<void> {
  for (const f of ["results.csv", "runs.csv", "experiment.json"]) {
    expect(await readFile(join(a, f), "utf8"), f).toBe(await readFile(join(b, f), "utf8"));
  }
  expect(await runFiles(a)).toEqual(await runFiles(b));
  // timing.csv: wall-clock numbers differ, its rows and columns are those of a local sweep
  expect(await timingKeys(a)).toEqual(await timingKeys(b));
  // ... and every run's timing was read back, whichever shard ran it
  for (const m of await timingMeans(a)) expect(Number.isFinite(m)).toBe(true);
}

describe("shards", () => {
  it("shards partition the runs: disjoint, complete, balanced within one run, stable", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 6 }),
        fc.integer({ min: 1, max: 5 }),
        fc.integer({ min: 1, max: 4 }),
        fc.integer({ min: 1, max: 40 }),
        (points, seeds, schedulers, n) => {
          const p = plan(points, seeds, schedulers);
          const all = planTasks(p).map((t) => t.key);
          const parts = Array.from({ length: n }, (_, i) =>
            shardTasks(p, { index: i, count: n }).map((t) => t.key),
          );
          const union = parts.flat();
          expect(union.sort()).toEqual([...all].sort());
          expect(new Set(union).size).toBe(all.length);
          const sizes = parts.map((x) => x.length);
          expect(Math.max(...sizes) - Math.min(...sizes)).toBeLessThanOrEqual(1);
          // the same run lands in the same shard however often the plan is rebuilt
          const again = planTasks(plan(points, seeds, schedulers));
          again.forEach((t, j) => {
            expect(parts[shardOf(j, n)]).toContain(t.key);
          });
        },
      ),
      { numRuns: 60 },
    );
  });

  it("parses i/n from 0 and names what is wrong otherwise", () => {
    expect(parseShard("sweep", "0/1")).toEqual({ index: 0, count: 1 });
    expect(parseShard("sweep", " 3 / 4 ")).toEqual({ index: 3, count: 4 });
    const bad: [string, string][] = [
      ["4/4", "shard 4 does not exist; shards are numbered from 0, so i must be in [0, 3]"],
      ["1/0", "number of shards must be in [1, 100000], got 0"],
      ["-1/4", "must be i/n"],
      ["a/b", "must be i/n"],
      ["1", "must be i/n"],
      ["1/200000", "number of shards must be in [1, 100000]"],
    ];
    for (const [text, message] of bad) expect(() => parseShard("sweep", text)).toThrow(message);
  });

  it("4 shards run at once into one folder: the same results.csv, runs.csv and run files as one sweep", async () => {
    const file = await writeExperiment(smallExperiment([0.3, 0.5, 0.7], 3));
    const local = await tempDir();
    expect((await cli("sweep", file, "--out", local, "--quiet")).code).toBe(0);
    const shared = await tempDir();
    const results = await Promise.all(
      [0, 1, 2, 3].map((i) => cli("sweep", file, "--out", shared, "--shard", `${i}/4`)),
    );
    for (const r of results) expect(r.code, r.stderr).toBe(0);
    const total = 3 * 3 * 2;
    expect(results.map((r) => Number(/: (\d+) runs in/.exec(r.stderr)?.[1])).sort()).toEqual([
      4, 4, 5, 5,
    ]);
    // at least the last shard to finish saw every run and wrote the summaries
    expect(results.some((r) => r.stderr.includes("every shard is done"))).toBe(true);
    await same(shared, local);
    expect((await readdir(join(shared, "runs"))).length).toBe(total);
    expect((await readdir(join(shared, "shards"))).sort()).toEqual([
      "0-of-4.json",
      "1-of-4.json",
      "2-of-4.json",
      "3-of-4.json",
    ]);
    // a shard run again skips its finished runs
    const again = await cli("sweep", file, "--out", shared, "--shard", "2/4");
    expect(again.stderr).toContain("shard 2/4: 0 runs in");
    expect(again.stderr).toContain("(4 already done)");
    await same(shared, local);
  });

  it("a shard that never ran: compare names its runs and the shard; a whole sweep finishes them", async () => {
    const file = await writeExperiment(smallExperiment([0.3, 0.6], 3));
    const plan = await readExperimentFile(file);
    const shared = await tempDir();
    for (const i of [0, 1, 3]) {
      expect((await cli("sweep", file, "--out", shared, "--shard", `${i}/4`)).code).toBe(0);
    }
    await expect(readFile(join(shared, "results.csv"))).rejects.toThrow();
    await expect(readFile(join(shared, "timing.csv"))).rejects.toThrow();
    const missing = planTasks(plan).filter((_, j) => j % 4 === 2);
    const c = await cli("compare", shared);
    expect(c.code).toBe(0);
    expect(c.stderr).toContain(`note: ${missing.length} of 12 runs have no result`);
    expect(c.stderr).toContain(`shard 2/4: ${missing.length} missing (never started)`);
    for (const t of missing) expect(c.stderr).toContain(`${t.key}: `);
    const list = await cli("compare", shared, "--missing");
    const rows = list.stdout.trimEnd().split("\n");
    expect(rows[0]).toBe("key,scheduler,load,seed,shard,status,error");
    expect(rows.slice(1).map((r) => r.split(",")[0])).toEqual(missing.map((t) => t.key));
    for (const r of rows.slice(1)) expect(r).toContain(",2/4,missing,");
    // report notes them too
    const rep = await cli("report", shared, "--no-gantt");
    expect(rep.stderr).toContain(`shard 2/4: ${missing.length} missing`);
    // the merge step: a whole sweep over the folder does only the missing runs
    const merge = await cli("sweep", file, "--out", shared, "--quiet");
    expect(merge.code).toBe(0);
    const local = await tempDir();
    await cli("sweep", file, "--out", local, "--quiet");
    await same(shared, local);
    expect((await cli("compare", shared)).stderr).toBe("");
  });

  it("a run stored twice counts once; runs of another plan in the folder are ignored", async () => {
    const file = await writeExperiment(smallExperiment([0.3], 2));
    const dir = await tempDir();
    await cli("sweep", file, "--out", dir, "--quiet");
    const [first] = (await readdir(join(dir, "runs"))).sort();
    const text = await readFile(join(dir, "runs", first as string), "utf8");
    const { writeFile } = await import("node:fs/promises");
    await writeFile(join(dir, "runs", "copy-of-a-run.json"), text);
    await writeFile(
      join(dir, "runs", "other.json"),
      text.replace(/"seed": 1/, '"seed": 99').replace(/"key": "[^"]+"/, '"key": "other"'),
    );
    const r = await cli("compare", dir, "--format", "csv");
    for (const row of r.stdout.trimEnd().split("\n").slice(1)) expect(row.split(",")[5]).toBe("2");
    expect(r.stderr).toBe("");
    await rm(join(dir, "runs", "copy-of-a-run.json"));
  });

  it("refuses a shard of another experiment in the folder, and bad usage", async () => {
    const a = await writeExperiment(smallExperiment([0.3], 1));
    const b = await writeExperiment(smallExperiment([0.4], 1));
    const dir = await tempDir();
    expect((await cli("sweep", a, "--out", dir, "--shard", "0/2")).code).toBe(0);
    const other = await cli("sweep", b, "--out", dir, "--shard", "1/2");
    expect(other.code).toBe(2);
    expect(other.stderr).toContain("holds results of a different experiment");
    const cases: [string[], string][] = [
      [["sweep", a, "--out", dir, "--shard", "2/2"], "shard 2 does not exist"],
      [
        ["sweep", a, "--out", dir, "--shard", "0/2", "--queue", "redis://h:1"],
        "does not go with --queue",
      ],
      [["sweep", a, "--out", dir, "--shard", "0/2", "--emit", "slurm"], "does not go with --emit"],
      [
        ["compare", dir, "--missing", "--format", "csv"],
        "--missing and --format exclude each other",
      ],
    ];
    for (const [argv, message] of cases) {
      const r = await cli(...argv);
      expect(r.code, argv.join(" ")).toBe(2);
      expect(r.stderr).toContain(message);
    }
  });
});
