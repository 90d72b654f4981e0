import { execFile } from "node:child_process";
import { readdir, readFile, rm } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { oasExperiment, spaceSharingExperiment } from "@sched/multicluster";
import { beforeAll, describe, expect, it } from "vitest";
import { oasPolicies } from "../src/experiments/oas.js";
import { spaceSharingPolicies } from "../src/experiments/space-sharing.js";
import { formatNumber } from "../src/format.js";
import { simulateTask } from "../src/sweep/execute.js";
import { planTasks, type RunTask } from "../src/sweep/plan.js";
import { readPlan } from "../src/sweep/results.js";
import { type CliResult, cli, tempDir } from "./helpers.js";

/** RFC 4180 rows (fields here may be quoted for their commas; none holds a quote or a newline). */
function readCsv(text: string): string[][] {
  return text
    .trimEnd()
    .split("\n")
    .map((line) => {
      const fields: string[] = [];
      let field = "";
      let quoted = false;
      for (const c of line) {
        if (c === '"') quoted = !quoted;
        else if (c === "," && !quoted) {
          fields.push(field);
          field = "";
        } else field += c;
      }
      fields.push(field);
      return fields;
    });
}

/** `runs.csv` as a map `scheduler|param|seed|metric` -> value text. */
async function runValues(dir: string): Promise<Map<string, string>> {
  const [header, ...rows] = readCsv(await readFile(join(dir, "runs.csv"), "utf8"));
  expect(header?.slice(0, 2)).toEqual(["key", "scheduler"]);
  return new Map(rows.map((r) => [`${r[1]}|${r[2]}|${r[3]}|${r[4]}`, r[5] as string]));
}

/** A value as `runs.csv` writes it (6 decimals; empty when undefined). */
const written = (x: number | null | undefined): string => formatNumber(x ?? Number.NaN);

async function reproduce(name: string, ...more: string[]): Promise<{ r: CliResult; dir: string }> {
  const dir = await tempDir();
  const r = await cli("reproduce", name, "--quick", "--quiet", "--out", dir, ...more);
  return { r, dir };
}

describe("sched-sim reproduce space-sharing / oas / oas-slots", () => {
  it("--list lists the three", async () => {
    const r = await cli("reproduce", "--list");
    expect(r.stdout).toMatch(/space-sharing\s+Dynamic space sharing vs adaptive partitioning/);
    expect(r.stdout).toMatch(/\noas\s+OAS \(MIP, HiGHS\) vs FCFS/);
    expect(r.stdout).toMatch(/oas-slots\s+OAS: makespan and solve time against the slot size/);
  });

  describe("space-sharing --quick", () => {
    let a: { r: CliResult; dir: string };
    beforeAll(async () => {
      a = await reproduce("space-sharing");
    });

    it("writes the tidy results.csv of 8 policies x 2 loads x 2 metrics, 2 seeds each", async () => {
      expect(a.r.code).toBe(0);
      expect(a.r.stdout).toMatch(/scheduler\s+load\s+mean response \(s\)\s+utilization\s+runs\n/);
      const [header, ...rows] = readCsv(await readFile(join(a.dir, "results.csv"), "utf8"));
      expect(header).toEqual(["scheduler", "load", "metric", "mean", "ci95", "runs"]);
      expect(rows).toHaveLength(8 * 2 * 2);
      expect(new Set(rows.map((r) => r[0]))).toEqual(
        new Set(spaceSharingPolicies().map((p) => p.label)),
      );
      expect(rows[0]?.slice(0, 3)).toEqual([
        "dynamic(background=false,platform=homogeneous)",
        "0.3",
        "meanResponse",
      ]);
      for (const r of rows) {
        expect(r[5]).toBe("2");
        expect(Number(r[3])).toBeGreaterThan(0);
        if (r[2] === "utilization") expect(Number(r[3])).toBeLessThanOrEqual(1);
      }
      const runs = await readFile(join(a.dir, "runs.csv"), "utf8");
      expect(runs.split("\n")[0]).toBe("key,scheduler,load,seed,metric,value");
    });

    it("each run equals the package's spaceSharingExperiment row (oracle)", async () => {
      const values = await runValues(a.dir);
      const rows = spaceSharingExperiment({ loads: [0.7], jobs: 200, seed: 2 });
      expect(rows).toHaveLength(8);
      for (const row of rows) {
        const label = `${row.policy}(background=${row.backgroundLoad > 0},platform=${row.heterogeneous ? "heterogeneous" : "homogeneous"})`;
        expect(values.get(`${label}|0.7|2|meanResponse`), label).toBe(written(row.meanResponse));
        expect(values.get(`${label}|0.7|2|utilization`), label).toBe(written(row.utilization));
      }
    });

    it("is deterministic, and a resumed run gives the same bytes", async () => {
      const b = await reproduce("space-sharing");
      for (const f of ["results.csv", "runs.csv"]) {
        expect(await readFile(join(b.dir, f), "utf8"), f).toBe(
          await readFile(join(a.dir, f), "utf8"),
        );
      }
      // kill-and-restart: three runs and the summaries gone
      const files = (await readdir(join(b.dir, "runs"))).sort().slice(0, 3);
      for (const f of files) await rm(join(b.dir, "runs", f));
      await rm(join(b.dir, "results.csv"));
      const again = await cli("reproduce", "space-sharing", "--quick", "--out", b.dir);
      expect(again.code).toBe(0);
      expect(again.stderr).toContain("3 runs in");
      expect(again.stderr).toContain("(29 already done)");
      expect(await readFile(join(b.dir, "results.csv"), "utf8")).toBe(
        await readFile(join(a.dir, "results.csv"), "utf8"),
      );
    });

    it("compare reads it, and report writes its plots without a Gantt chart", async () => {
      const c = await cli("compare", a.dir, "--format", "csv");
      expect(c.code).toBe(0);
      expect(c.stdout).toContain("adaptive(background=true,platform=heterogeneous)");
      const out = join(a.dir, "r.html");
      const r = await cli("report", a.dir, "--out", out);
      expect(r.code).toBe(0);
      expect(r.stderr).toContain("runs its policies itself");
      expect(await readFile(out, "utf8")).toContain("mean response");
      const plan = await readPlan(a.dir, "test");
      await expect(simulateTask(plan, planTasks(plan)[0] as RunTask)).rejects.toThrow(
        /experiment 'space-sharing' runs its policies itself/,
      );
    });
  });

  describe("oas --quick and oas-slots --quick", () => {
    let oas: { r: CliResult; dir: string };
    let slots: { r: CliResult; dir: string };
    beforeAll(async () => {
      oas = await reproduce("oas", "--jobs", "1");
      slots = await reproduce("oas-slots", "--jobs", "1");
    }, 120_000);

    it("oas: 7 methods x WL-3, WL-6 x 5 metrics; solve time and gap only for OAS", async () => {
      expect(oas.r.code).toBe(0);
      expect(oas.r.stdout).toMatch(
        /scheduler\s+workload\s+makespan \(s\).*solve time \(ms\)\s+runs\n/,
      );
      const [header, ...rows] = readCsv(await readFile(join(oas.dir, "results.csv"), "utf8"));
      expect(header).toEqual(["scheduler", "workload", "metric", "mean", "ci95", "runs"]);
      expect(rows).toHaveLength(7 * 2 * 5);
      expect([...new Set(rows.map((r) => r[0]))]).toEqual(oasPolicies().map((p) => p.label));
      expect([...new Set(rows.map((r) => r[0]))]).toEqual([
        "oas",
        "fcfs",
        "sjf",
        "bjf",
        "fpfs",
        "spt",
        "lpt",
      ]);
      expect(rows.slice(0, 5).map((r) => r[2])).toEqual([
        "makespan",
        "meanResponse",
        "utilization",
        "gap",
        "solveTimeMs",
      ]);
      for (const r of rows) {
        const timed = r[2] === "solveTimeMs" || r[2] === "gap";
        if (r[0] !== "oas" && timed) expect(r[3], r.join(",")).toBe("");
        else expect(Number(r[3]), r.join(",")).toBeGreaterThanOrEqual(0);
      }
    });

    it("oas-slots: 2 slot sizes x 6 metrics", async () => {
      expect(slots.r.code).toBe(0);
      const [header, ...rows] = readCsv(await readFile(join(slots.dir, "results.csv"), "utf8"));
      expect(header).toEqual(["scheduler", "slotFraction", "metric", "mean", "ci95", "runs"]);
      expect(rows.map((r) => r.slice(0, 3).join(","))).toEqual(
        [0.5, 2].flatMap((f) =>
          ["mipMakespan", "makespan", "compactMakespan", "bestMakespan", "gap", "solveTimeMs"].map(
            (m) => `oas,${f},${m}`,
          ),
        ),
      );
    });

    it("every run equals the package's oasExperiment (oracle; OAS where both solves are optimal)", async () => {
      const direct = await oasExperiment({
        jobs: 4,
        workloads: [3, 6],
        slotFractions: [0.5, 2],
        timeLimit: 10,
      });
      const values = await runValues(oas.dir);
      let compared = 0;
      for (const row of direct.comparison) {
        const which = row.workload.replace("WL-", "");
        const label = row.method.toLowerCase();
        const key = (m: string) => `${label}|${which}|1|${m}`;
        if (label === "oas" && (row.status !== "optimal" || values.get(key("gap")) !== "0")) {
          continue;
        }
        compared++;
        expect(values.get(key("makespan")), key("makespan")).toBe(written(row.makespan));
        expect(values.get(key("meanResponse")), label).toBe(written(row.meanResponse));
        expect(values.get(key("utilization")), label).toBe(written(row.utilization));
      }
      expect(compared).toBeGreaterThanOrEqual(12); // the 12 heuristic runs at least
      const slotValues = await runValues(slots.dir);
      for (const row of direct.slots) {
        const key = (m: string) => `oas|${row.fraction}|1|${m}`;
        if (row.status !== "optimal" || slotValues.get(key("gap")) !== "0") continue;
        expect(slotValues.get(key("mipMakespan"))).toBe(written(row.mipMakespan));
        expect(slotValues.get(key("makespan"))).toBe(written(row.makespan));
        expect(slotValues.get(key("compactMakespan"))).toBe(written(row.compactMakespan));
        expect(slotValues.get(key("bestMakespan"))).toBe(written(row.bestMakespan));
      }
    }, 120_000);

    it("its deterministic columns are deterministic (OAS's where both solves are optimal)", async () => {
      const again = await reproduce("oas", "--jobs", "1");
      const first = await runValues(oas.dir);
      const second = await runValues(again.dir);
      expect([...second.keys()]).toEqual([...first.keys()]);
      let compared = 0;
      for (const [key, value] of first) {
        const [scheduler, which, seed, metric] = key.split("|");
        if (metric === "solveTimeMs") continue;
        if (scheduler === "oas") {
          const gap = `oas|${which}|${seed}|gap`;
          if (first.get(gap) !== "0" || second.get(gap) !== "0") continue;
        }
        compared++;
        expect(second.get(key), key).toBe(value);
      }
      expect(compared).toBeGreaterThanOrEqual(6 * 2 * 3);
    }, 120_000);
  });

  it("the built CLI bundle solves OAS on worker threads (highs.wasm is copied beside it)", async () => {
    const run = promisify(execFile);
    const outDir = await tempDir();
    const appDir = join(dirname(fileURLToPath(import.meta.url)), "..");
    await run("pnpm", ["exec", "tsup", "--out-dir", outDir, "--silent"], { cwd: appDir });
    expect(await readdir(outDir)).toContain("highs.wasm");
    const dir = await tempDir();
    const args = ["reproduce", "oas-slots", "--quick", "--quiet", "--jobs", "2", "--out", dir];
    const r = await run(process.execPath, [join(outDir, "cli.js"), ...args]);
    expect(r.stderr).toBe("");
    const values = await runValues(dir);
    for (const f of [0.5, 2]) {
      expect(Number(values.get(`oas|${f}|1|mipMakespan`)), `${f}`).toBeGreaterThan(0);
    }
  }, 120_000);
});
