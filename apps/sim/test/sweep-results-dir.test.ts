import { readdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { formatNumber } from "../src/format.js";
import { readSweepDir } from "../src/sweep/results.js";
import { cli, tempDir } from "./helpers.js";
import { smallExperiment, writeExperiment } from "./sweep-helpers.js";

/** The run files of `dir` as parsed JSON, by key. */
async function runFiles(dir: string): Promise<Map<string, Record<string, unknown>>> {
  const out = new Map<string, Record<string, unknown>>();
  for (const f of await readdir(join(dir, "runs"))) {
    const doc = JSON.parse(await readFile(join(dir, "runs", f), "utf8")) as Record<string, unknown>;
    out.set(doc.key as string, doc);
  }
  return out;
}

/** A CSV without quoted fields (the small experiment's labels have no comma) as rows of cells. */
async function csvRows(path: string): Promise<string[][]> {
  return (await readFile(path, "utf8"))
    .trimEnd()
    .split("\n")
    .map((l) => l.split(","));
}

/** An experiment whose every run fails when it runs (the generator refuses arrivalFactor -1). */
function failingExperiment(arrivalFactor: number): Record<string, unknown> {
  return {
    name: "lublin-fix",
    workload: { type: "model", model: "lublin", options: { jobs: 20, procs: 16 } },
    schedulers: ["fcfs"],
    grid: { arrivalFactor: [arrivalFactor] },
    seeds: 2,
    metrics: ["makespan"],
  };
}

describe("runs.csv and runs-timing.csv: each run's counts and timing", () => {
  it("runs.csv appends each run file's events and decisions; runs-timing.csv holds its timing block", async () => {
    const file = await writeExperiment(smallExperiment([0.3, 0.6], 2));
    const out = await tempDir();
    const r = await cli("sweep", file, "--out", out, "--quiet");
    expect(r.code, r.stderr).toBe(0);
    const files = await runFiles(out);
    const [head, ...rows] = await csvRows(join(out, "runs.csv"));
    // The columns it had, in their order, then the two counts.
    expect(head).toEqual([
      "key",
      "scheduler",
      "load",
      "seed",
      "metric",
      "value",
      "events",
      "decisions",
    ]);
    expect(rows).toHaveLength(files.size * 2);
    for (const row of rows) {
      const doc = files.get(row[0] as string) as Record<string, unknown>;
      const metrics = doc.metrics as Record<string, number>;
      expect(row).toEqual([
        doc.key,
        doc.scheduler,
        String((doc.params as Record<string, number>).load),
        String(doc.seed),
        row[4],
        formatNumber(metrics[row[4] as string] as number),
        String(doc.events),
        String(doc.decisions),
      ]);
      expect(doc.events as number).toBeGreaterThan(0);
    }
    const [timingHead, ...timingRows] = await csvRows(join(out, "runs-timing.csv"));
    expect(timingHead).toEqual(["key", "scheduler", "load", "seed", "schedulerMs", "wallMs"]);
    // One row per run, in the order of runs.csv.
    expect(timingRows.map((t) => t[0])).toEqual(
      rows.filter((_, i) => i % 2 === 0).map((x) => x[0]),
    );
    for (const t of timingRows) {
      const timing = (files.get(t[0] as string) as { timing: Record<string, number> }).timing;
      expect(t.slice(4)).toEqual([
        formatNumber(timing.schedulerMs as number),
        formatNumber(timing.wallMs as number),
      ]);
    }
    expect(r.stderr).toBe("");
    const loud = await cli("sweep", file, "--out", out);
    expect(loud.stderr).toContain(
      `wrote ${join(out, "results.csv")}, ${join(out, "runs.csv")}, ${join(out, "timing.csv")} and ${join(out, "runs-timing.csv")}\n`,
    );
  });

  it("compare reads the counts back from runs.csv; an older runs.csv without them still reads", async () => {
    const file = await writeExperiment(smallExperiment([0.3], 2));
    const out = await tempDir();
    expect((await cli("sweep", file, "--out", out, "--quiet")).code).toBe(0);
    const files = await runFiles(out);
    const fromRuns = await cli("compare", out);
    await rm(join(out, "runs"), { recursive: true });
    const dir = await readSweepDir(out, "compare");
    expect(dir.source).toBe("runs.csv");
    for (const rec of dir.records) {
      const doc = files.get(rec.key) as Record<string, unknown>;
      expect([rec.events, rec.decisions]).toEqual([doc.events, doc.decisions]);
    }
    const fromCsv = await cli("compare", out);
    expect(fromCsv.stdout).toBe(fromRuns.stdout);
    // As sched-sim wrote it before the counts: the same comparison, the counts unknown.
    const text = await readFile(join(out, "runs.csv"), "utf8");
    const older = text.replace(/,[^,\n]*,[^,\n]*$/gm, "");
    expect(older.split("\n")[0]).toBe("key,scheduler,load,seed,metric,value");
    await writeFile(join(out, "runs.csv"), older);
    const old = await readSweepDir(out, "compare");
    expect(old.records.map((x) => x.metrics)).toEqual(dir.records.map((x) => x.metrics));
    expect(old.records.every((x) => Number.isNaN(x.events) && Number.isNaN(x.decisions))).toBe(
      true,
    );
    expect((await cli("compare", out)).stdout).toBe(fromRuns.stdout);
  });

  it("a runs.csv whose rows of one run disagree on its counts, or with a count that is no integer, is refused naming the line", async () => {
    const file = await writeExperiment(smallExperiment([0.3], 1));
    const out = await tempDir();
    expect((await cli("sweep", file, "--out", out, "--quiet")).code).toBe(0);
    await rm(join(out, "runs"), { recursive: true });
    const lines = (await readFile(join(out, "runs.csv"), "utf8")).trimEnd().split("\n");
    const bump = (line: string, to: string): string => line.replace(/,(\d+),(\d+)$/, `,${to},$2`);
    for (const [text, message] of [
      [[lines[0], lines[1], bump(lines[2] as string, "7")], "runs.csv:3: run "],
      [
        [lines[0], bump(lines[1] as string, "1.5")],
        "runs.csv:2: events '1.5' is not a whole number",
      ],
      [[lines[0], `${lines[1]},9`], "runs.csv:2: expected 8 fields"],
    ] as const) {
      await writeFile(join(out, "runs.csv"), `${text.join("\n")}\n`);
      const r = await cli("compare", out);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(message);
    }
    await writeFile(
      join(out, "runs.csv"),
      `${[lines[0], lines[1], bump(lines[2] as string, "7")].join("\n")}\n`,
    );
    expect((await cli("compare", out)).stderr).toMatch(
      /runs\.csv:3: run \S+ has events,decisions 7,\d+ here but \d+,\d+ on line 2/,
    );
  });
});

describe("sweep's resume when run files are gone", () => {
  it("runs.csv listing runs whose files were deleted: says so, runs them again, same bytes", async () => {
    const file = await writeExperiment(smallExperiment([0.3, 0.6], 2));
    const out = await tempDir();
    expect((await cli("sweep", file, "--out", out, "--quiet")).code).toBe(0);
    const before = new Map<string, string>();
    for (const f of ["results.csv", "runs.csv"]) {
      before.set(f, await readFile(join(out, f), "utf8"));
    }
    const gone = (await readdir(join(out, "runs"))).filter((f) => f.startsWith("fcfs"));
    expect(gone).toHaveLength(4);
    for (const f of gone) await rm(join(out, "runs", f));
    const partly = await cli("sweep", file, "--out", out);
    expect(partly.code, partly.stderr).toBe(0);
    expect(partly.stderr).toContain(
      `note: ${join(out, "runs.csv")} lists 4 finished runs with no file in ${join(out, "runs")}/ (deleted?); they are run again, and the summaries rewritten once every run was tried\n`,
    );
    expect(partly.stderr).toContain("4 runs in");
    await rm(join(out, "runs"), { recursive: true });
    const whole = await cli("sweep", file, "--out", out, "--quiet");
    expect(whole.code).toBe(0);
    expect(whole.stderr).toContain("lists 8 finished runs with no file");
    expect(await readdir(join(out, "runs"))).toHaveLength(8);
    for (const [f, text] of before) expect(await readFile(join(out, f), "utf8"), f).toBe(text);
    // Nothing deleted: no note.
    expect((await cli("sweep", file, "--out", out, "--quiet")).stderr).toBe("");
  });

  it("a shard finding no runs/ does not take the old runs.csv for this sweep's results", async () => {
    const file = await writeExperiment(smallExperiment([0.3, 0.6], 2));
    const out = await tempDir();
    expect((await cli("sweep", file, "--out", out, "--quiet")).code).toBe(0);
    const timing = await readFile(join(out, "timing.csv"), "utf8");
    await rm(join(out, "runs"), { recursive: true });
    // 8 runs, 10 shards: shard 9 has none; every run is still to be done again.
    const r = await cli("sweep", file, "--out", out, "--shard", "9/10");
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toContain("every shard is done");
    expect(r.stderr).toContain("the sweep has 0 of 8 results so far");
    expect(await readFile(join(out, "timing.csv"), "utf8")).toBe(timing);
  });
});

describe("a directory of failed runs only and a corrected experiment", () => {
  it("starts over in place, saying in one line what it replaced", async () => {
    const out = await tempDir();
    const bad = await cli(
      "sweep",
      await writeExperiment(failingExperiment(-1)),
      "--out",
      out,
      "-q",
    );
    expect(bad.code).toBe(1);
    expect(await readdir(join(out, "failed"))).toHaveLength(2);
    const fixed = await cli("sweep", await writeExperiment(failingExperiment(1)), "--out", out);
    expect(fixed.code, fixed.stderr).toBe(0);
    const notes = fixed.stderr.split("\n").filter((l) => l.startsWith("note:"));
    expect(notes).toEqual([
      `note: ${out} held no finished run of its experiment 'lublin-fix' (2 failed); replaced its experiment.json and failed/ with this one's and started over`,
    ]);
    expect(await readdir(join(out, "runs"))).toHaveLength(2);
    expect(await readdir(out)).not.toContain("failed");
    const plan = JSON.parse(await readFile(join(out, "experiment.json"), "utf8")) as {
      plan: { points: number[][] };
    };
    expect(plan.plan.points).toEqual([[1]]);
    expect(await readFile(join(out, "results.csv"), "utf8")).toContain("fcfs,1,makespan,");
  });

  it("never when a run finished there, nor with a file a sweep does not write, nor in a shared (--shard) folder", async () => {
    // One finished run (arrivalFactor 1), one failed (-1): the finished run is kept, refused.
    const mixed = await tempDir();
    const doc = { ...failingExperiment(1), grid: { arrivalFactor: [1, -1] } };
    expect((await cli("sweep", await writeExperiment(doc), "--out", mixed, "-q")).code).toBe(1);
    const r1 = await cli("sweep", await writeExperiment(failingExperiment(2)), "--out", mixed);
    expect(r1.code).toBe(2);
    expect(r1.stderr).toContain("holds results of a different experiment");
    expect(await readdir(join(mixed, "runs"))).toHaveLength(2);
    // Finished runs kept in runs.csv only (a committed reproduction's folder): refused too.
    await rm(join(mixed, "runs"), { recursive: true });
    await rm(join(mixed, "failed"), { recursive: true });
    const r2 = await cli("sweep", await writeExperiment(failingExperiment(2)), "--out", mixed);
    expect(r2.code).toBe(2);
    expect(r2.stderr).toContain("holds results of a different experiment");
    // Failed runs only, but a file of the user's beside them.
    const failed = await tempDir();
    expect(
      (await cli("sweep", await writeExperiment(failingExperiment(-1)), "--out", failed, "-q"))
        .code,
    ).toBe(1);
    await writeFile(join(failed, "notes.txt"), "mine\n");
    const r3 = await cli("sweep", await writeExperiment(failingExperiment(1)), "--out", failed);
    expect(r3.code).toBe(2);
    expect(r3.stderr).toContain("holds results of a different experiment");
    await rm(join(failed, "notes.txt"));
    const r4 = await cli(
      "sweep",
      await writeExperiment(failingExperiment(1)),
      "--out",
      failed,
      "--shard",
      "0/2",
    );
    expect(r4.code).toBe(2);
    expect(r4.stderr).toContain("holds results of a different experiment");
    expect(await readdir(join(failed, "failed"))).toHaveLength(2);
    // An experiment.json that is not a sweep's (the user's experiment file, in its own folder).
    const own = await tempDir();
    const mine = `${JSON.stringify(failingExperiment(1))}\n`;
    await writeFile(join(own, "experiment.json"), mine);
    const r5 = await cli("sweep", join(own, "experiment.json"), "--out", own);
    expect(r5.code).toBe(2);
    expect(r5.stderr).toContain("holds results of a different experiment");
    expect(await readFile(join(own, "experiment.json"), "utf8")).toBe(mine);
  });
});

describe("what --out may already hold", () => {
  it("a folder holding only hidden files is taken as empty, and they are left there", async () => {
    const out = await tempDir();
    await writeFile(join(out, ".keep"), "");
    const r = await cli("sweep", await writeExperiment(failingExperiment(1)), "--out", out, "-q");
    expect(r.code, r.stderr).toBe(0);
    expect(await readdir(out)).toContain(".keep");
    expect(await readdir(join(out, "runs"))).toHaveLength(2);
  });

  it("one finished run listed in runs.csv alone (its file gone) is a result: never started over", async () => {
    const out = await tempDir();
    const one = { ...failingExperiment(1), seeds: 1 };
    expect((await cli("sweep", await writeExperiment(one), "--out", out, "-q")).code).toBe(0);
    expect((await readFile(join(out, "runs.csv"), "utf8")).trimEnd().split("\n")).toHaveLength(2);
    await rm(join(out, "runs"), { recursive: true });
    const r = await cli("sweep", await writeExperiment({ ...one, seeds: 2 }), "--out", out);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("holds results of a different experiment");
  });

  it("one run file deleted: the note says so in the singular; only hidden temporaries are removed", async () => {
    const file = await writeExperiment(smallExperiment([0.3], 1));
    const out = await tempDir();
    expect((await cli("sweep", file, "--out", out, "--quiet")).code).toBe(0);
    const [victim] = (await readdir(join(out, "runs"))).sort();
    await rm(join(out, "runs", victim as string));
    await writeFile(join(out, "runs", "notes.tmp"), "mine\n");
    await writeFile(join(out, "runs", ".x.json.1234.tmp"), "{");
    const r = await cli("sweep", file, "--out", out, "--quiet");
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(
      `note: ${join(out, "runs.csv")} lists 1 finished run with no file in ${join(out, "runs")}/ (deleted?); it is run again, and the summaries rewritten once every run was tried\n`,
    );
    const left = await readdir(join(out, "runs"));
    expect(left).toContain("notes.tmp");
    expect(left).not.toContain(".x.json.1234.tmp");
  });
});

describe("run files that are not records", () => {
  it("a cut-short run file is run again, a stray file and a temporary are ignored: the same summaries", async () => {
    const dir = await tempDir();
    const file = await writeExperiment(smallExperiment([0.3, 0.6], 2));
    expect((await cli("sweep", file, "--out", dir, "--quiet")).code).toBe(0);
    const runsCsv = await readFile(join(dir, "runs.csv"), "utf8");
    const [victim] = (await readdir(join(dir, "runs"))).sort();
    await writeFile(join(dir, "runs", victim as string), '{"key": "cut');
    await writeFile(join(dir, "runs", "notes.json"), '{"hello": 1}');
    await writeFile(join(dir, "runs", ".x.json.1234.tmp"), "{");
    // compare reads the records there are: one run is missing
    const read = await readSweepDir(dir, "compare");
    expect(read.records).toHaveLength(7);
    const again = await cli("sweep", file, "--out", dir);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toContain("1 runs in ");
    expect(again.stderr).toContain("(7 already done)");
    expect(await readFile(join(dir, "runs.csv"), "utf8")).toBe(runsCsv);
    expect((await readSweepDir(dir, "compare")).records).toHaveLength(8);
  });
});
