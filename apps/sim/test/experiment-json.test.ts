import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { EXPERIMENTS } from "../src/experiments/registry.js";
import { GRID_DIGITS, keepsItsDigits } from "../src/format.js";
import { planFromExperiment } from "../src/sweep/drive.js";
import { readExperimentFile } from "../src/sweep/experiment-file.js";
import { experimentJson, legacyExperimentJson, readPlan } from "../src/sweep/results.js";
import { cli, tempDir } from "./helpers.js";
import { smallExperiment, writeExperiment } from "./sweep-helpers.js";

describe("grid values and experiment.json", () => {
  // Before: the sweep ran load=0.12345678, but its run files and experiment.json held 0.123457,
  // so no run was found again: "0 runs" at that point, a summary of nothing, exit 0.
  it("a grid value with more than 6 decimals is refused (exit 2, naming the key), in a file and on the command line", async () => {
    const file = await writeExperiment(smallExperiment([0.12345678, 0.3], 2));
    const out = await tempDir();
    const r = await cli("sweep", file, "--out", out);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      `sched-sim: sweep: ${file}: grid.load[0]: expected ${GRID_DIGITS}, got 0.12345678\n`,
    );
    const v = await cli("reproduce", "fcfs-load", "--quick", "--vary", "load=0.3,0.1234567");
    expect(v.code).toBe(2);
    expect(v.stderr).toContain(
      `reproduce: parameter 'load' (a grid axis): expected ${GRID_DIGITS}, got 0.1234567`,
    );
    const s = await cli("reproduce", "fcfs-load", "--quick", "--set", "load=0.1234567");
    expect(s.code).toBe(2);
    expect(s.stderr).toContain("got 0.1234567");
    expect(v.stdout + s.stdout).toBe("");
  });

  it("every registry experiment's own grid (full and --quick) passes that rule", () => {
    for (const e of EXPERIMENTS) {
      for (const quick of [false, true]) {
        const plan = planFromExperiment(e, { quick, seeds: 1 });
        expect(plan.points.flat().every((v) => typeof v !== "number" || keepsItsDigits(v))).toBe(
          true,
        );
      }
    }
  });

  it("a workload value with more than 6 decimals is kept exactly in experiment.json (report re-simulates from it)", async () => {
    const file = await writeExperiment({
      ...smallExperiment([0.3], 1),
      workload: { type: "synthetic", jobs: 60, load: 0.12345678 },
      grid: { procs: [16] },
    });
    const out = await tempDir();
    const r = await cli("sweep", file, "--out", out, "--quiet");
    expect(r.code, r.stderr).toBe(0);
    const plan = await readPlan(out, "test");
    expect(plan.source).toMatchObject({ workload: { load: 0.12345678 } });
    const report = await cli("report", out, "--out", join(out, "r.html"));
    expect(report.code, report.stderr).toBe(0);
    expect(report.stderr).not.toContain("differ");
  });

  it("a directory written by an earlier sched-sim (numbers rounded to 6 decimals) still resumes", async () => {
    const file = await writeExperiment({
      ...smallExperiment([0.3], 1),
      workload: { type: "synthetic", jobs: 60, load: 1 / 3 },
      grid: { procs: [16] },
    });
    const plan = await readExperimentFile(file);
    expect(legacyExperimentJson(plan)).not.toBe(experimentJson(plan));
    const out = await tempDir();
    await writeFile(join(out, "experiment.json"), legacyExperimentJson(plan));
    const r = await cli("sweep", file, "--out", out, "--quiet");
    expect(r.code, r.stderr).toBe(0);
    expect(await readFile(join(out, "experiment.json"), "utf8")).toBe(legacyExperimentJson(plan));
  });
});

describe("scheduler labels", () => {
  // A label heads a row of sweep's, compare's and report's tables: a line break split the row
  // across two lines of the printed table (the CSV files quoted it and were fine).
  it("a label with a control character (a line break, a tab) is refused, exit 2 naming it", async () => {
    for (const label of ["easy,\nfast", "easy\tfast", "easy\r"]) {
      const doc = { ...smallExperiment([0.3], 1), schedulers: ["fcfs", { name: "easy", label }] };
      const file = await writeExperiment(doc);
      const r = await cli("sweep", file, "--out", await tempDir());
      expect(r.code).toBe(2);
      expect(r.stderr).toBe(
        `sched-sim: sweep: ${file}: schedulers[1].label: expected a label without control characters (a line break, a tab): it heads a row of the printed tables, got ${JSON.stringify(label)}\n`,
      );
    }
    // Commas and quotes stay allowed (the CSVs quote them).
    const ok = {
      ...smallExperiment([0.3], 1),
      schedulers: ["fcfs", { name: "easy", label: 'easy, "sjf"' }],
    };
    const r = await cli("sweep", await writeExperiment(ok), "--out", await tempDir(), "--quiet");
    expect(r.code, r.stderr).toBe(0);
  });
});
