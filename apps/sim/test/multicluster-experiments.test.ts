import { execFile } from "node:child_process";
import { readdir, readFile, rm } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { computeMetrics, type Job, simulate } from "@sched/core";
import {
  contentionDelays,
  oasExecutionModel,
  oasHeuristic,
  oasPlanScheduler,
  simulateSpaceSharing,
  solveOas,
} from "@sched/multicluster";
import { multiclusterWorkload, oasWorkload } from "@sched/workload";
import { beforeAll, describe, expect, it } from "vitest";
import { oasLinksPolicies, oasPolicies } from "../src/experiments/oas.js";
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

/** `runs.csv` as a map `scheduler|param...|seed|metric` -> value text. */
async function runValues(dir: string): Promise<Map<string, string>> {
  const [header, ...rows] = readCsv(await readFile(join(dir, "runs.csv"), "utf8"));
  expect(header?.slice(0, 2)).toEqual(["key", "scheduler"]);
  const value = (header as string[]).indexOf("value");
  return new Map(rows.map((r) => [r.slice(1, value).join("|"), r[value] as string]));
}

/** A value as `runs.csv` writes it (6 decimals; empty when undefined). */
const written = (x: number | null | undefined): string => formatNumber(x ?? Number.NaN);

async function reproduce(name: string, ...more: string[]): Promise<{ r: CliResult; dir: string }> {
  const dir = await tempDir();
  const r = await cli("reproduce", name, "--quick", "--quiet", "--out", dir, ...more);
  return { r, dir };
}

describe("sched-sim reproduce space-sharing / oas / oas-links / oas-slots", () => {
  it("--list lists the four", async () => {
    const r = await cli("reproduce", "--list");
    expect(r.stdout).toMatch(/space-sharing\s+Dynamic space sharing vs adaptive partitioning/);
    expect(r.stdout).toMatch(/\noas\s+OAS \(MIP, HiGHS\) vs FCFS/);
    expect(r.stdout).toMatch(/\noas-links\s+OAS and the heuristics, link-aware and link-blind/);
    expect(r.stdout).toMatch(/oas-slots\s+OAS: makespan and solve time against the slot size/);
  });

  describe("space-sharing --quick", () => {
    let a: { r: CliResult; dir: string };
    beforeAll(async () => {
      a = await reproduce("space-sharing");
    });

    it("writes the tidy results.csv: 3 policies x (2 platforms x 2 background loads x 2 loads) x 4 metrics, 2 seeds each", async () => {
      expect(a.r.code).toBe(0);
      const [header, ...rows] = readCsv(await readFile(join(a.dir, "results.csv"), "utf8"));
      expect(header).toEqual([
        "scheduler",
        "speeds",
        "backgroundLoad",
        "load",
        "metric",
        "mean",
        "ci95",
        "runs",
      ]);
      expect(rows).toHaveLength(3 * 8 * 4);
      expect(new Set(rows.map((r) => r[0]))).toEqual(
        new Set(spaceSharingPolicies().map((p) => p.label)),
      );
      for (const r of rows) {
        expect(r[7]).toBe("2");
        const paired = r[0] === "dynamic-vs-adaptive";
        const own = r[4] === "meanResponse" || r[4] === "utilization";
        if (paired === own) expect(r[5], r.join(",")).toBe("");
        else if (r[4] !== "gainPct" && r[4] !== "responseDiff") {
          expect(Number(r[5])).toBeGreaterThan(0);
        }
      }
    });

    it("each run equals the package's simulator on @sched/workload's jobs (oracle); the paired run is their difference", async () => {
      const values = await runValues(a.dir);
      for (const speeds of ["homogeneous", "heterogeneous"] as const) {
        const { jobs, platform } = multiclusterWorkload({
          jobs: 200,
          load: 0.7,
          speeds,
          seed: 2,
        });
        const run = (policy: "dynamic" | "adaptive") =>
          simulateSpaceSharing(jobs, platform, { policy, backgroundLoad: 0.3, seed: 2 });
        const d = run("dynamic");
        const ad = run("adaptive");
        const key = (label: string, m: string) => `${label}|${speeds}|0.3|0.7|2|${m}`;
        expect(values.get(key("dynamic", "meanResponse"))).toBe(written(d.meanResponse));
        expect(values.get(key("adaptive", "meanResponse"))).toBe(written(ad.meanResponse));
        expect(values.get(key("adaptive", "utilization"))).toBe(written(ad.utilization));
        expect(values.get(key("dynamic-vs-adaptive", "responseDiff"))).toBe(
          written(ad.meanResponse - d.meanResponse),
        );
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
      expect(again.stderr).toContain("(45 already done)");
      expect(await readFile(join(b.dir, "results.csv"), "utf8")).toBe(
        await readFile(join(a.dir, "results.csv"), "utf8"),
      );
    });

    it("compare reads it, and report writes its plots without a Gantt chart", async () => {
      const c = await cli("compare", a.dir, "--format", "csv");
      expect(c.code).toBe(0);
      expect(c.stdout).toContain("dynamic-vs-adaptive");
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

  describe("oas --quick, oas-links --quick and oas-slots --quick", () => {
    let oas: { r: CliResult; dir: string };
    let links: { r: CliResult; dir: string };
    let slots: { r: CliResult; dir: string };
    beforeAll(async () => {
      oas = await reproduce("oas", "--jobs", "1");
      links = await reproduce("oas-links", "--jobs", "1");
      slots = await reproduce("oas-slots", "--jobs", "1");
    }, 240_000);

    const METRICS = [
      "makespan",
      "meanResponse",
      "utilization",
      "contentionSlowed",
      "slottedMakespan",
      "optimal",
      "gapPct",
      "mipMakespan",
      "nodes",
      "solveSeconds",
      "solveWallSeconds",
    ];

    it("oas: 9 policies x WL-3, WL-6 x 11 metrics; OAS proven optimal everywhere, solver figures only for OAS, at or below every heuristic in the slotted model", async () => {
      expect(oas.r.code).toBe(0);
      expect(oas.r.stdout).toMatch(
        /scheduler\s+workload\s+makespan \(s\).*solve wall \(s\)\s+runs\n/,
      );
      const [header, ...rows] = readCsv(await readFile(join(oas.dir, "results.csv"), "utf8"));
      expect(header).toEqual(["scheduler", "workload", "metric", "mean", "ci95", "runs"]);
      expect(rows).toHaveLength(9 * 2 * 11);
      expect([...new Set(rows.map((r) => r[0]))]).toEqual(oasPolicies().map((p) => p.label));
      expect([...new Set(rows.map((r) => r[0]))]).toEqual([
        "oas",
        "oas(replay=compact)",
        "oas(warmStart=true)",
        "fcfs",
        "sjf",
        "bjf",
        "fpfs",
        "spt",
        "lpt",
      ]);
      expect(rows.slice(0, 11).map((r) => r[2])).toEqual(METRICS);
      const engine = ["makespan", "meanResponse", "utilization", "contentionSlowed"];
      for (const r of rows) {
        const solver = !engine.includes(r[2]!) && r[2] !== "slottedMakespan";
        if (!r[0]!.startsWith("oas") && solver) expect(r[3], r.join(",")).toBe("");
        else expect(Number(r[3]), r.join(",")).toBeGreaterThanOrEqual(0);
        if (r[0]!.startsWith("oas") && r[2] === "optimal") expect(r[3]).toBe("1");
        if (r[2] === "contentionSlowed") expect(r[3]).toBe("0");
      }
      // the proven optimum is at or below every heuristic's run made slotted (the same model)
      const slotted = rows.filter((r) => r[2] === "slottedMakespan");
      for (const w of ["WL-3", "WL-6"]) {
        const best = Number(slotted.find((r) => r[0] === "oas" && r[1] === w)![3]);
        const heuristics = slotted.filter((r) => r[1] === w && !r[0]!.startsWith("oas"));
        expect(heuristics).toHaveLength(6);
        for (const r of heuristics) expect(Number(r[3]), r.join(",")).toBeGreaterThanOrEqual(best);
      }
    });

    it("every oas run equals the package's solve and replay (oracle)", async () => {
      const values = await runValues(oas.dir);
      for (const name of ["WL-3", "WL-6"] as const) {
        const w = oasWorkload({ workload: name, jobs: 4, seed: 1 });
        const profile = (j: Job) => ({
          sigma: w.bsp[j.id]!.sigma,
          ptbw: w.bsp[j.id]!.perTaskBandwidth,
        });
        const executionModel = oasExecutionModel({ profile });
        const mean = w.jobs.reduce((s, j) => s + j.estimate, 0) / w.jobs.length;
        const r = await solveOas(w.jobs, w.platform, { eta: 0.5 * mean, profile });
        const run = (s: Parameters<typeof simulate>[2]) =>
          computeMetrics(simulate(w.jobs, w.platform, s, { executionModel }));
        const key = (label: string, m: string) => `${label}|${name}|1|${m}`;
        expect(values.get(key("oas", "mipMakespan"))).toBe(written(r.makespan));
        expect(values.get(key("oas", "nodes"))).toBe(written(r.nodes));
        expect(values.get(key("oas", "makespan"))).toBe(
          written(run(oasPlanScheduler(r.schedule, r.eta)).makespan),
        );
        expect(values.get(key("oas(replay=compact)", "makespan"))).toBe(
          written(run(oasPlanScheduler(r.schedule, r.eta, { compact: true, profile })).makespan),
        );
        expect(values.get(key("spt", "makespan"))).toBe(
          written(run(oasHeuristic("SPT", { profile })).makespan),
        );
      }
    }, 120_000);

    it("oas-links: link-blind heuristics are slowed by contention, OAS and the link-aware ones are not", async () => {
      expect(links.r.code).toBe(0);
      const [, ...rows] = readCsv(await readFile(join(links.dir, "results.csv"), "utf8"));
      expect([...new Set(rows.map((r) => r[0]))]).toEqual(oasLinksPolicies().map((p) => p.label));
      const slowed = rows.filter((r) => r[2] === "contentionSlowed");
      let blind = 0;
      for (const r of slowed) {
        if (r[0]!.endsWith("(links=false)")) blind += Number(r[3]);
        else expect(r[3], r.join(",")).toBe("0");
      }
      expect(blind).toBeGreaterThan(0);
      // the same jobs, checked directly: a link-blind FCFS run has slowed jobs
      const w = oasWorkload({ workload: "WL-3", jobs: 4, bandwidth: "heavy", seed: 1 });
      const profile = (j: Job) => ({
        sigma: w.bsp[j.id]!.sigma,
        ptbw: w.bsp[j.id]!.perTaskBandwidth,
      });
      const trace = simulate(w.jobs, w.platform, oasHeuristic("FCFS", { profile, links: false }), {
        executionModel: oasExecutionModel({ profile }),
      });
      const values = await runValues(links.dir);
      expect(values.get("fcfs(links=false)|WL-3|1|contentionSlowed")).toBe(
        written(contentionDelays(trace, { profile }).length),
      );
    });

    it("oas-slots: 2 slot sizes x 2 replays x 9 metrics", async () => {
      expect(slots.r.code).toBe(0);
      const [header, ...rows] = readCsv(await readFile(join(slots.dir, "results.csv"), "utf8"));
      expect(header).toEqual(["scheduler", "slotFraction", "metric", "mean", "ci95", "runs"]);
      const metrics = [
        "mipMakespan",
        "makespan",
        "optimal",
        "gapPct",
        "nodes",
        "theta",
        "variables",
        "solveSeconds",
        "solveWallSeconds",
      ];
      expect(rows.map((r) => r.slice(0, 3).join(","))).toEqual(
        ["oas", "oas(replay=compact)"].flatMap((p) =>
          [0.5, 2].flatMap((f) => metrics.map((m) => `${p},${f},${m}`)),
        ),
      );
    });

    it("its deterministic columns are deterministic (all but the solve times)", async () => {
      const again = await reproduce("oas", "--jobs", "1");
      const first = await runValues(oas.dir);
      const second = await runValues(again.dir);
      expect([...second.keys()]).toEqual([...first.keys()]);
      let compared = 0;
      for (const [key, value] of first) {
        if (key.endsWith("|solveSeconds") || key.endsWith("|solveWallSeconds")) continue;
        compared++;
        expect(second.get(key), key).toBe(value);
      }
      expect(compared).toBe(9 * 2 * 9);
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
