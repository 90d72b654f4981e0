import { cp, mkdtemp, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { readCsvRecords } from "../src/csv-read.js";
import { cli } from "./helpers.js";

const REPO = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..");

/** The committed results folders of the repository: those holding a runs.csv. */
async function committedFolders(): Promise<string[]> {
  const found: string[] = [];
  for (const pkg of await readdir(join(REPO, "packages"))) {
    const root = join(REPO, "packages", pkg, "reproduction");
    let entries: string[];
    try {
      entries = await readdir(root, { recursive: true });
    } catch {
      continue;
    }
    for (const e of entries) {
      if (e === "runs.csv" || e.endsWith("/runs.csv")) found.push(join(root, dirname(e)));
    }
  }
  return found.sort();
}

async function hasRunsDir(dir: string): Promise<boolean> {
  return stat(join(dir, "runs")).then(
    (s) => s.isDirectory(),
    () => false,
  );
}

/** A copy of results folder `dir` without its runs/ folder. */
async function withoutRuns(dir: string): Promise<string> {
  const copy = await mkdtemp(join(tmpdir(), "sched-sim-runs-csv-"));
  await cp(dir, copy, { recursive: true });
  await rm(join(copy, "runs"), { recursive: true, force: true });
  return copy;
}

describe("compare and report on a results folder without runs/ (runs.csv)", () => {
  it("compare gives the same output from runs.csv as from runs/, in every format and mode", async () => {
    const both = [];
    for (const dir of await committedFolders()) if (await hasRunsDir(dir)) both.push(dir);
    expect(both.length).toBeGreaterThan(0);
    for (const dir of both) {
      const copy = await withoutRuns(dir);
      for (const extra of [
        [],
        ["--format", "csv"],
        ["--format", "json"],
        ["--format", "markdown"],
        ["--timing"],
        ["--missing"],
      ]) {
        const fromRuns = await cli("compare", dir, ...extra);
        const fromCsv = await cli("compare", copy, ...extra);
        expect(fromRuns.code).toBe(0);
        expect(fromCsv.code).toBe(0);
        expect(fromCsv.stdout, `${dir} ${extra.join(" ")}`).toBe(fromRuns.stdout);
        if (extra[0] !== "--missing") {
          expect(fromCsv.stderr).toContain(`note: ${copy} has no runs/ folder`);
          expect(fromCsv.stderr.replace(/^note: .* has no runs\/ folder.*\n/, "")).toBe(
            fromRuns.stderr.replaceAll(dir, copy),
          );
        }
      }
    }
  });

  it("compare prints numbers on every committed folder, with every run counted", async () => {
    const only = [];
    for (const dir of await committedFolders()) if (!(await hasRunsDir(dir))) only.push(dir);
    expect(only.length).toBeGreaterThan(0);
    for (const dir of only) {
      const r = await cli("compare", dir, "--format", "csv");
      expect(r.code, dir).toBe(0);
      expect(r.stderr).toContain("has no runs/ folder; the runs were read from runs.csv");
      const plan = JSON.parse(await readFile(join(dir, "experiment.json"), "utf8")).plan;
      // Every run of the plan is in runs.csv: each row counts all the seeds, and its mean and
      // interval are those of the results.csv the sweep wrote from its run files.
      const table = async (text: string): Promise<Map<string, string[]>> => {
        const [header, ...rows] = (readCsvRecords(text) ?? []).map((x) => x.fields);
        const col = (name: string): number => header!.indexOf(name);
        const keyCols = ["scheduler", ...plan.params, "metric"].map(col);
        const valueCols = ["mean", "ci95", "runs"].map(col);
        return new Map(
          rows.map((row) => [
            keyCols.map((i) => row[i]).join(","),
            valueCols.map((i) => row[i] as string),
          ]),
        );
      };
      const printed = await table(r.stdout);
      const written = await table(await readFile(join(dir, "results.csv"), "utf8"));
      expect(printed.size, dir).toBeGreaterThan(0);
      expect(printed, dir).toEqual(written);
      for (const [key, [, , runs]] of printed) {
        expect(Number(runs), `${dir}: ${key}`).toBe(plan.seeds.length);
      }
    }
  });

  it("report reads runs.csv too, and says which figures' metrics runs.csv does not hold", async () => {
    const dir = (await committedFolders()).find((d) => d.endsWith("full-size-6-10-16"));
    expect(dir).toBeDefined();
    const copy = await withoutRuns(dir!);
    const out = join(copy, "r.html");
    const r = await cli("report", copy, "--no-gantt", "--out", out);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(
      `note: ${copy} has no runs/ folder; the runs were read from runs.csv and the timing from timing.csv\n`,
    );
    expect(r.stderr).toContain(
      "note: runs.csv holds the sweep's metrics only (latePct, slowdownNoDeadline, machineUsage, licenseUsage); no data for meanWorkload (Fig. 3)\n",
    );
    const html = await readFile(out, "utf8");
    expect(html.match(/figure-empty/g)?.length).toBe(1);
    expect(html).toContain("No data: no finished run read has meanWorkload.");
    // Fig. 7 (timing) has its points, from timing.csv
    expect(html).toMatch(/data-figure="Fig\. 7"[\s\S]*?<polyline/);
  });

  it("a runs.csv that is not what a sweep writes is refused naming the file and line", async () => {
    const dir = (await committedFolders()).find((d) => d.endsWith("/quick"));
    expect(dir).toBeDefined();
    const text = await readFile(join(dir!, "runs.csv"), "utf8");
    const lines = text.split("\n");
    const cases: [string, string][] = [
      [
        `a,b\n${lines.slice(1).join("\n")}`,
        "runs.csv:1: expected the header key,scheduler,interArrival,seed,metric,value",
      ],
      [[lines[0], `nope,easy,4,1,latePct,1`].join("\n"), "runs.csv:2: run 'nope' is not a run of"],
      [
        [lines[0], lines[1]!.replace(/,[^,]*$/, ",abc")].join("\n"),
        "runs.csv:2: value 'abc' is not a number",
      ],
      [
        [lines[0], lines[1]!.replace(/,[^,]*,([^,]*)$/, ",wait,$1")].join("\n"),
        "runs.csv:2: metric 'wait' is not one of the sweep's",
      ],
      [[lines[0], lines[1], lines[1]].join("\n"), "runs.csv:3: run "],
      [
        [lines[0], lines[1]!.replace(/,4,/, ",6,")].join("\n"),
        "runs.csv:2: interArrival is '6', but run ",
      ],
      [[lines[0], `"${lines[1]}`].join("\n"), "runs.csv: a quoted field is never closed"],
      [[lines[0], "a,b"].join("\n"), "runs.csv:2: expected 6 fields"],
      [
        [lines[0], lines[1]].join("\n"),
        "has no row for slowdownNoDeadline, machineUsage, licenseUsage",
      ],
    ];
    for (const [csv, message] of cases) {
      const copy = await withoutRuns(dir!);
      await writeFile(join(copy, "runs.csv"), csv);
      const r = await cli("compare", copy);
      expect(r.code, message).toBe(2);
      expect(r.stderr, message).toContain(message);
      expect(r.stderr.trim().split("\n")).toHaveLength(1);
    }
  });
});
