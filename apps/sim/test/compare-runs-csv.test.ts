import { cp, mkdtemp, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { readCsvRecords } from "../src/csv-read.js";
import { cli, tempDir } from "./helpers.js";

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

describe("compare --timing and report on a folder without runs/ (runs-timing.csv)", () => {
  // A tiny convergent sweep (Fig. 7 is a timing figure): 8 policies x 2 points x 2 seeds, 40 jobs
  // on 6 machines, about a second. No committed reproduction has a runs-timing.csv yet.
  let dir: string;
  beforeAll(async () => {
    dir = await tempDir();
    const args = ["--quick", "--seeds", "2", "--vary", "interArrival=4,16"];
    const sizes = ["--set", "jobs=40", "--set", "machines=6", "--jobs", "1", "--quiet"];
    const r = await cli("reproduce", "convergent", ...args, ...sizes, "--out", dir);
    expect(r.code, r.stderr).toBe(0);
  }, 60_000);

  /** `dir` without runs/, and without `drop` (file names) too. */
  async function copyOf(...drop: string[]): Promise<string> {
    const copy = await withoutRuns(dir);
    for (const f of drop) await rm(join(copy, f));
    return copy;
  }

  it("compare --timing prints the same bytes from runs-timing.csv as from runs/, timing.csv or not", async () => {
    const copies = [await copyOf(), await copyOf("timing.csv")];
    for (const extra of [[], ["--format", "csv"], ["--format", "json"], ["--format", "markdown"]]) {
      const fromRuns = await cli("compare", dir, "--timing", ...extra);
      expect(fromRuns.code).toBe(0);
      for (const copy of copies) {
        const fromCsv = await cli("compare", copy, "--timing", ...extra);
        expect(fromCsv.code, fromCsv.stderr).toBe(0);
        expect(fromCsv.stdout, `${copy} ${extra.join(" ")}`).toBe(fromRuns.stdout);
        expect(fromCsv.stderr).toContain(
          `note: ${copy} has no runs/ folder; the runs were read from runs.csv, their timing from runs-timing.csv\n`,
        );
      }
    }
    // The summaries of timing.csv are no longer what is read: its numbers changed, no effect.
    const copy = copies[0] as string;
    const timing = await readFile(join(copy, "timing.csv"), "utf8");
    await writeFile(
      join(copy, "timing.csv"),
      timing.replace(/,[0-9.]+,([0-9.]*),(\d+)$/gm, ",1,$1,$2"),
    );
    const fromRuns = await cli("compare", dir, "--timing", "--format", "csv");
    expect((await cli("compare", copy, "--timing", "--format", "csv")).stdout).toBe(
      fromRuns.stdout,
    );
  });

  it("report draws its timing figure (Fig. 7) from runs-timing.csv: the same figure as from runs/", async () => {
    const fromRuns = join(await tempDir(), "r.html");
    expect((await cli("report", dir, "--no-gantt", "--out", fromRuns)).code).toBe(0);
    // The page differs elsewhere: runs.csv lacks Fig. 3's meanWorkload (drawn "No data").
    const fig7 = (page: string): string | undefined =>
      /<section class="paper-figure" data-figure="Fig\. 7">[\s\S]*?<\/section>/.exec(page)?.[0];
    const figure = fig7(await readFile(fromRuns, "utf8"));
    expect(figure).toMatch(/<polyline/);
    for (const copy of [await copyOf(), await copyOf("timing.csv")]) {
      const out = join(copy, "r.html");
      const r = await cli("report", copy, "--no-gantt", "--out", out);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toContain(
        `note: ${copy} has no runs/ folder; the runs were read from runs.csv and the timing from runs-timing.csv\n`,
      );
      expect(fig7(await readFile(out, "utf8"))).toBe(figure);
    }
  });

  it("falls back to timing.csv without runs-timing.csv, or with a runs.csv without decisions", async () => {
    const without = await copyOf("runs-timing.csv");
    const r = await cli("compare", without, "--timing");
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(
      `note: ${without} has no runs/ folder; the timing is timing.csv's, as the sweep wrote it\n`,
    );
    // schedTimeMs is schedulerMs / decisions: a runs.csv written before it held the counts
    // cannot give it from runs-timing.csv
    const older = await copyOf();
    const runs = await readFile(join(older, "runs.csv"), "utf8");
    await writeFile(join(older, "runs.csv"), runs.replace(/,[^,\n]*,[^,\n]*$/gm, ""));
    const o = await cli("report", older, "--no-gantt", "--out", join(older, "r.html"));
    expect(o.code, o.stderr).toBe(0);
    expect(o.stderr).toContain("the runs were read from runs.csv and the timing from timing.csv\n");
    const none = await copyOf("runs-timing.csv", "timing.csv");
    const n = await cli("compare", none, "--timing");
    expect(n.stderr).toContain(
      `note: ${none} has no runs/ folder, runs-timing.csv nor timing.csv; runs.csv holds no timing, so none is shown\n`,
    );
  });

  it("a run without a timing block (both cells empty) reads as from a run file without one", async () => {
    const lines = (await readFile(join(dir, "runs-timing.csv"), "utf8")).split("\n");
    const key = (lines[3] as string).split(",")[0] as string;
    const edited = await tempDir();
    await cp(dir, edited, { recursive: true });
    const file = join(edited, "runs", `${key}.json`);
    const doc = JSON.parse(await readFile(file, "utf8"));
    delete doc.timing;
    await writeFile(file, JSON.stringify(doc));
    const copy = await copyOf();
    lines[3] = (lines[3] as string).replace(/,[^,]*,[^,]*$/, ",,");
    await writeFile(join(copy, "runs-timing.csv"), lines.join("\n"));
    const fromRuns = await cli("compare", edited, "--timing", "--format", "csv");
    const fromCsv = await cli("compare", copy, "--timing", "--format", "csv");
    expect(fromCsv.code, fromCsv.stderr).toBe(0);
    expect(fromCsv.stdout).toBe(fromRuns.stdout);
    expect(fromCsv.stdout).not.toBe(
      (await cli("compare", dir, "--timing", "--format", "csv")).stdout,
    );
  });

  it("a runs-timing.csv that is not what a sweep writes is refused naming the file and line", async () => {
    const text = await readFile(join(dir, "runs-timing.csv"), "utf8");
    const lines = text.trimEnd().split("\n");
    const [head, first, second] = lines as [string, string, string];
    const [key, scheduler] = first.split(",") as [string, string];
    const cells = (row: string, i: number, value: string): string => {
      const f = row.split(",");
      f[i] = value;
      return f.join(",");
    };
    const cases: [string, string][] = [
      [
        `a,b\n${lines.slice(1).join("\n")}`,
        "runs-timing.csv:1: expected the header key,scheduler,interArrival,seed,schedulerMs,wallMs",
      ],
      [[head, "nope,cs-ip,4,1,1,2"].join("\n"), "runs-timing.csv:2: run 'nope' is not a run of"],
      [
        [head, cells(first, 1, "edf")].join("\n"),
        `runs-timing.csv:2: scheduler is 'edf', but run ${key} has ${scheduler} in experiment.json`,
      ],
      [
        [head, cells(first, 2, "16")].join("\n"),
        "runs-timing.csv:2: interArrival is '16', but run ",
      ],
      [[head, second, cells(first, 3, "2")].join("\n"), "runs-timing.csv:3: seed is '2', but run "],
      [
        [head, cells(first, 4, "abc")].join("\n"),
        "runs-timing.csv:2: schedulerMs 'abc' is not a number",
      ],
      [
        [head, cells(first, 5, "")].join("\n"),
        "runs-timing.csv:2: wallMs is empty but schedulerMs is not",
      ],
      [
        [head, first, second, first].join("\n"),
        `runs-timing.csv:4: run ${key} has a second row (the first on line 2)`,
      ],
      [[head, "a,b"].join("\n"), "runs-timing.csv:2: expected 6 fields"],
      [[head, `"${first}`].join("\n"), "runs-timing.csv: a quoted field is never closed"],
    ];
    for (const [csv, message] of cases) {
      for (const command of ["compare", "report"]) {
        const copy = await copyOf();
        await writeFile(join(copy, "runs-timing.csv"), csv);
        const r = await cli(command, copy, ...(command === "report" ? ["--no-gantt"] : []));
        expect(r.code, message).toBe(2);
        expect(r.stderr, message).toContain(`${command}: ${join(copy, "runs-timing.csv")}`);
        expect(r.stderr, message).toContain(message);
        expect(r.stderr.trim().split("\n"), message).toHaveLength(1);
      }
    }
    // a run runs.csv does not hold (the two are written from the same runs)
    const copy = await copyOf();
    const runs = (await readFile(join(copy, "runs.csv"), "utf8")).split("\n");
    await writeFile(
      join(copy, "runs.csv"),
      runs.filter((l) => !l.startsWith(`${key},`)).join("\n"),
    );
    const r = await cli("compare", copy);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      `runs-timing.csv:2: run ${key} has no rows in ${join(copy, "runs.csv")}`,
    );
  });
});
