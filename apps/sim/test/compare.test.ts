import { readdir, readFile, rm } from "node:fs/promises";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { tQuantile975 } from "../src/stats.js";
import { cli, fixture, tempDir } from "./helpers.js";
import { smallExperiment, writeExperiment } from "./sweep-helpers.js";

let dir = "";

beforeAll(async () => {
  dir = await tempDir();
  const r = await cli(
    "sweep",
    await writeExperiment(smallExperiment([0.3, 0.6], 4)),
    "--out",
    dir,
    "--quiet",
  );
  expect(r.code, r.stderr).toBe(0);
});

interface RunDoc {
  scheduler: string;
  params: { load: number };
  metrics: Record<string, number>;
}

async function runDocs(d: string): Promise<RunDoc[]> {
  const files = await readdir(join(d, "runs"));
  return Promise.all(
    files.map(async (f) => JSON.parse(await readFile(join(d, "runs", f), "utf8")) as RunDoc),
  );
}

describe("sched-sim compare", () => {
  it("csv: mean and CI recomputed by hand from the run files; best = lowest wait, highest utilization per point", async () => {
    const r = await cli("compare", dir, "--format", "csv");
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.trimEnd().split("\n");
    expect(lines[0]).toBe("load,scheduler,metric,mean,ci95,runs,best");
    expect(lines).toHaveLength(1 + 2 * 2 * 2);
    const docs = await runDocs(dir);
    const rows = lines.slice(1).map((l) => l.split(","));
    for (const [load, scheduler, metric, mean, ci95, runs] of rows) {
      const xs = docs
        .filter((d) => d.scheduler === scheduler && d.params.load === Number(load))
        .map((d) => d.metrics[metric as string] as number);
      expect(xs).toHaveLength(4);
      expect(runs).toBe("4");
      const m = xs.reduce((a, b) => a + b, 0) / xs.length;
      const sd = Math.sqrt(xs.reduce((a, b) => a + (b - m) ** 2, 0) / (xs.length - 1));
      expect(Number(mean)).toBeCloseTo(m, 5);
      expect(Number(ci95)).toBeCloseTo((tQuantile975(3) * sd) / 2, 5);
    }
    for (const load of ["0.3", "0.6"]) {
      for (const [metric, pick] of [
        ["meanWait", Math.min],
        ["utilization", Math.max],
      ] as const) {
        const group = rows.filter((x) => x[0] === load && x[2] === metric);
        const best = pick(...group.map((x) => Number(x[3])));
        const bestCi = Number(group.find((x) => Number(x[3]) === best)?.[4]);
        // marked: the best mean, and every mean whose 95% interval overlaps the best's (a tie)
        for (const x of group) {
          const tie = Math.abs(Number(x[3]) - best) <= Number(x[4]) + bestCi;
          expect(x[6], `${load} ${x[1]} ${metric}`).toBe(String(Number(x[3]) === best || tie));
        }
        expect(group.some((x) => x[6] === "true")).toBe(true);
      }
    }
  });

  it("table, markdown and json agree with the csv on the best marks", async () => {
    const csv = (await cli("compare", dir, "--format", "csv")).stdout
      .trimEnd()
      .split("\n")
      .slice(1);
    const bestWait = csv
      .filter((l) => l.includes(",meanWait,") && l.endsWith(",true"))
      .map((l) => l.split(",").slice(0, 2).join(" "));
    const table = await cli("compare", dir);
    expect(table.stdout).toMatch(/^load\s+scheduler\s+mean wait \(s\)\s+utilization\s+runs$/m);
    expect(table.stdout).toContain(
      "* best at each point marked, with every scheduler whose 95% interval overlaps the best's (a tie: not significantly worse) (lower is better for meanWait; higher is better for utilization)",
    );
    const md = (await cli("compare", dir, "--format", "markdown")).stdout.split("\n");
    expect(md[0]).toBe("| load | scheduler | mean wait (s) | utilization | runs |");
    expect(md[1]).toBe("| ---: | :--- | ---: | ---: | ---: |");
    const json = JSON.parse((await cli("compare", dir, "--format", "json")).stdout) as {
      rows: {
        params: { load: number };
        scheduler: string;
        metrics: Record<string, { best: boolean }>;
      }[];
    };
    expect(json.rows).toHaveLength(4);
    const jsonBest = json.rows
      .filter((x) => x.metrics.meanWait?.best)
      .map((x) => `${x.params.load} ${x.scheduler}`);
    expect(jsonBest).toEqual(bestWait);
    for (const b of bestWait) {
      const [load, scheduler] = b.split(" ");
      const row = md.find((l) => l.startsWith(`| ${load} | ${scheduler} |`)) as string;
      expect(row.split(" | ")[2]).toMatch(/^\*\*.*\*\*$/);
    }
    // deterministic
    expect((await cli("compare", dir)).stdout).toBe(table.stdout);
  });

  it("notes missing runs on stderr", async () => {
    const partial = await tempDir();
    await cli(
      "sweep",
      await writeExperiment(smallExperiment([0.3, 0.6], 4)),
      "--out",
      partial,
      "--quiet",
    );
    const files = await readdir(join(partial, "runs"));
    await rm(join(partial, "runs", files[0] as string));
    const r = await cli("compare", partial);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain("1 of 16 runs have no result");
  });

  it("a 'run --out' directory is named as such, not only as 'not a sweep directory'", async () => {
    const out = join(await tempDir(), "easy");
    expect(
      (await cli("run", "-w", fixture("small.swf"), "--clean", "-s", "easy", "--out", out)).code,
    ).toBe(0);
    for (const command of ["compare", "report"]) {
      const r = await cli(command, out);
      expect(r.code, command).toBe(2);
      expect(r.stderr).toContain(
        `${command}: ${out} is not a sweep directory (no experiment.json): its metrics.json is one 'run --out'`,
      );
    }
  });

  it("bad usage exits 2 naming the problem", async () => {
    const cases: [string[], string][] = [
      [["compare"], "missing argument <dir>"],
      [
        ["compare", dir, "--format", "xml"],
        "option --format must be one of table, csv, json, markdown, got 'xml'",
      ],
      [["compare", join(dir, "runs")], "is not a sweep directory (no experiment.json)"],
      [["compare", join(dir, "no-such-dir")], `${join(dir, "no-such-dir")} does not exist; run`],
      [["compare", join(dir, "results.csv")], "results.csv is not a directory"],
    ];
    for (const [argv, message] of cases) {
      const r = await cli(...argv);
      expect(r.code, argv.join(" ")).toBe(2);
      expect(r.stderr).toContain(message);
    }
  });
});
