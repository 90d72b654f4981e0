import { mkdir, readdir, readFile, utimes, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { printOutcome } from "../src/sweep/drive.js";
import { readExperimentFile } from "../src/sweep/experiment-file.js";
import { planTasks, runKey } from "../src/sweep/plan.js";
import { inlineExecutor } from "../src/sweep/pool.js";
import { prepareDir, runSweep } from "../src/sweep/sweep.js";
import { cli, fixture, tempDir } from "./helpers.js";
import { smallExperiment, writeExperiment } from "./sweep-helpers.js";

/** A run file without its (wall-clock) timing block. */
async function withoutTiming(path: string): Promise<string> {
  const doc = JSON.parse(await readFile(path, "utf8")) as Record<string, unknown>;
  delete doc.timing;
  return JSON.stringify(doc);
}

describe("sched-sim sweep", () => {
  it("runs the grid, writes one file per run, results.csv and runs.csv, same bytes twice", async () => {
    const file = await writeExperiment(smallExperiment([0.3, 0.6], 3));
    const a = await tempDir();
    const r = await cli("sweep", file, "--out", a);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/scheduler\s+load\s+mean wait \(s\)\s+utilization\s+runs/);
    expect(r.stdout).toMatch(/^easy\(order=sjf\)\s+0\.6\s/m);
    expect(r.stderr).toContain("12 runs in");
    expect((await readdir(join(a, "runs"))).sort()).toHaveLength(2 * 3 * 2);
    const results = await readFile(join(a, "results.csv"), "utf8");
    expect(results.split("\n")[0]).toBe("scheduler,load,metric,mean,ci95,runs");
    expect(results.trimEnd().split("\n")).toHaveLength(1 + 2 * 2 * 2);
    const b = await tempDir();
    expect((await cli("sweep", file, "--out", b, "--quiet")).code).toBe(0);
    for (const f of ["results.csv", "runs.csv", "experiment.json"]) {
      expect(await readFile(join(b, f), "utf8"), f).toBe(await readFile(join(a, f), "utf8"));
    }
    for (const f of await readdir(join(a, "runs"))) {
      expect(await withoutTiming(join(b, "runs", f))).toBe(await withoutTiming(join(a, "runs", f)));
    }
  });

  it("killed half-way (abort after k runs) and restarted: exactly N results, none twice, same summary", async () => {
    const file = await writeExperiment(smallExperiment([0.3, 0.5, 0.7], 4));
    const plan = await readExperimentFile(file);
    const total = planTasks(plan).length;
    expect(total).toBe(24);
    const out = await tempDir();
    const controller = new AbortController();
    let written = 0;
    const first = await runSweep(plan, () => inlineExecutor(plan), {
      out,
      signal: controller.signal,
      onRunWritten: () => {
        written++;
        if (written === 10) controller.abort();
      },
    });
    expect(first.interrupted).toBe(true);
    expect(first.failures).toEqual([]);
    // An interrupted sweep exits 1 (its summaries are not written), with no run failed.
    const io = { stdout: () => {}, stderr: () => {} };
    expect(printOutcome(plan, io, { out, quiet: true }, first, Date.now())).toBe(1);
    expect(await readdir(join(out, "runs"))).toHaveLength(10);
    await expect(readFile(join(out, "results.csv"))).rejects.toThrow();

    const keys: string[] = [];
    const second = await runSweep(plan, () => inlineExecutor(plan), {
      out,
      onRunWritten: (k) => keys.push(k),
    });
    expect(second.skipped).toBe(10);
    expect(printOutcome(plan, io, { out, quiet: true }, second, Date.now())).toBe(0);
    expect(keys).toHaveLength(total - 10);
    const files = await readdir(join(out, "runs"));
    expect(files).toHaveLength(total);
    expect(new Set(files).size).toBe(total);
    expect(files.sort()).toEqual(
      planTasks(plan)
        .map((t) => `${t.key}.json`)
        .sort(),
    );
    const runsCsv = (await readFile(join(out, "runs.csv"), "utf8")).trimEnd().split("\n");
    expect(runsCsv).toHaveLength(1 + total * plan.metrics.length);
    expect(new Set(runsCsv).size).toBe(runsCsv.length);

    const fresh = await tempDir();
    await runSweep(plan, () => inlineExecutor(plan), { out: fresh });
    expect(await readFile(join(out, "results.csv"), "utf8")).toBe(
      await readFile(join(fresh, "results.csv"), "utf8"),
    );
    expect(await readFile(join(out, "runs.csv"), "utf8")).toBe(
      await readFile(join(fresh, "runs.csv"), "utf8"),
    );
  });

  it("a shared folder keeps a fresh temporary (a writer may hold it) and removes a stale one", async () => {
    const file = await writeExperiment(smallExperiment([0.3], 1));
    const plan = await readExperimentFile(file);
    const out = await tempDir();
    await prepareDir(out, plan, true);
    const fresh = join(out, "runs", ".fresh.json.tmp");
    const stale = join(out, "runs", ".stale.json.tmp");
    await mkdir(join(out, "runs"), { recursive: true });
    await writeFile(fresh, "x");
    await writeFile(stale, "x");
    const old = new Date(Date.now() - 11 * 60_000);
    await utimes(stale, old, old);
    await prepareDir(out, plan, true);
    expect((await readdir(join(out, "runs"))).sort()).toEqual([".fresh.json.tmp"]);
    // not shared: every temporary is a killed write's, removed
    await prepareDir(out, plan, false);
    expect(await readdir(join(out, "runs"))).toEqual([]);
  });

  it("a failing run is summarized with its error, exits 1, and is tried again on restart", async () => {
    // A value the file's checks let through (a number, as the option's reader wants) and the
    // generator refuses when it runs: those runs fail.
    const file = await writeExperiment({
      name: "lublin-fail",
      workload: { type: "model", model: "lublin", options: { jobs: 20, procs: 16 } },
      schedulers: ["fcfs"],
      grid: { arrivalFactor: [1, -1] },
      seeds: 2,
      metrics: ["makespan"],
    });
    const out = await tempDir();
    const r = await cli("sweep", file, "--out", out, "--quiet");
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("2 of 4 runs failed:");
    expect(r.stderr).toMatch(/fcfs\.arrivalFactor=-1\.s1-[0-9a-f]{8}: .*arrivalFactor/);
    expect(await readdir(join(out, "runs"))).toHaveLength(2);
    expect(await readdir(join(out, "failed"))).toHaveLength(2);
    const again = await cli("sweep", file, "--out", out, "--quiet");
    expect(again.code).toBe(1);
    expect(again.stderr).toContain("2 of 4 runs failed:");
    const results = await readFile(join(out, "results.csv"), "utf8");
    expect(results).toContain("fcfs,-1,makespan,,,0");
  });

  it("a run on an SWF record the conversion refuses fails naming the file and line, in the file's keys", async () => {
    const dir = await tempDir();
    const trace = join(dir, "bad.swf");
    await writeFile(
      trace,
      "; MaxProcs: 8\n1 0 0 10 4 -1 -1 4 10 -1 1 1 1 1 1 -1 -1 -1\n2 5 0 10 -4 -1 -1 -4 10 -1 1 1 1 1 1 -1 -1 -1\n",
    );
    const file = await writeExperiment({
      name: "bad-swf",
      workload: { type: "swf", path: trace },
      platform: { procs: 8 },
      schedulers: ["easy"],
      seeds: 1,
      metrics: ["meanWait"],
    });
    const out = await tempDir();
    const r = await cli("sweep", file, "--out", out, "--quiet");
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      new RegExp(
        `\\n  easy\\.s1-[0-9a-f]{8}: sweep: ${trace}:3: \\(job 2\\) processors \\(fields 5 and 8\\) are -4 and -4, expected one > 0 \\(or set "clean": true in "workload" to drop such jobs\\)\\n`,
      ),
    );
    expect(r.stderr).not.toContain("@sched/");
  });

  it("refuses a directory that holds another experiment, or other files", async () => {
    const out = await tempDir();
    expect(
      (
        await cli(
          "sweep",
          await writeExperiment(smallExperiment([0.3], 1)),
          "--out",
          out,
          "--quiet",
        )
      ).code,
    ).toBe(0);
    const other = await cli(
      "sweep",
      await writeExperiment(smallExperiment([0.4], 1)),
      "--out",
      out,
    );
    expect(other.code).toBe(2);
    expect(other.stderr).toContain("holds results of a different experiment");
    const notEmpty = await cli(
      "sweep",
      await writeExperiment(smallExperiment([0.3], 1)),
      "--out",
      join(out, "runs"),
    );
    expect(notEmpty.code).toBe(2);
    expect(notEmpty.stderr).toContain("is not empty and holds no experiment.json");
  });

  it("run keys are stable, distinct and file-name safe", () => {
    const k = runKey("easy(order=sjf)", { load: 0.5 }, 3);
    expect(k).toMatch(/^easy_order=sjf_\.load=0\.5\.s3-[0-9a-f]{8}$/);
    expect(runKey("easy(order=sjf)", { load: 0.5 }, 3)).toBe(k);
    expect(runKey("easy_order=sjf_", { load: 0.5 }, 3)).not.toBe(k);
  });
});

describe("experiment file validation", () => {
  const base = smallExperiment([0.3], 1);
  const cases: [string, unknown, string][] = [
    ["not JSON", "{ name: ", "not valid JSON"],
    [
      "unknown top key",
      { ...base, schedulrs: [] },
      "schedulrs: unknown key (did you mean schedulers?)",
    ],
    ["missing name", { ...base, name: undefined }, "name: expected a non-empty string"],
    [
      "bad workload type",
      { ...base, workload: { type: "synthetc" } },
      'workload.type: expected one of synthetic, swf, native, model, elo (did you mean synthetic?), got "synthetc"',
    ],
    [
      "bad jobs",
      { ...base, workload: { type: "synthetic", jobs: 0 } },
      "workload.jobs: expected an integer in [1, 1000000], got 0",
    ],
    [
      "unknown scheduler",
      { ...base, schedulers: ["fcfs", "esy"] },
      "schedulers[1].name: unknown scheduler 'esy'",
    ],
    [
      "a scheduler that runs only in its experiments",
      { ...base, schedulers: ["fcfs", "oas"] },
      "schedulers[1].name: scheduler 'oas' cannot run on a workload: it solves one MIP",
    ],
    [
      "bad option",
      { ...base, schedulers: [{ name: "easy", options: { order: "random" } }] },
      'schedulers[0].options.order: expected one of "fcfs", "sjf", "largest-first", "user-priority", "deadline", got "random"',
    ],
    [
      "repeated label",
      { ...base, schedulers: ["fcfs", "fcfs"] },
      "schedulers[1]: expected a label not used twice",
    ],
    [
      "grid key",
      { ...base, grid: { lod: [0.3] } },
      "grid.lod: not a parameter of workload type synthetic (did you mean load?)",
    ],
    [
      "grid values",
      { ...base, grid: { load: [0.3, "x"] } },
      'grid.load[1]: expected a finite number, got "x"',
    ],
    ["seeds", { ...base, seeds: 0 }, "seeds: expected an integer in [1, 10000], got 0"],
    // the cases of issue 23: sizes checked before anything is built, no prototype keys, no
    // JSON value converted to another type
    [
      "a billion seeds",
      { ...base, seeds: 1e9 },
      "seeds: expected an integer in [1, 10000], got 1000000000",
    ],
    [
      "a repeated seed",
      { ...base, seeds: [3, 1, 3] },
      "seeds[2]: expected a seed not given before; 3 is seeds[0] too",
    ],
    [
      "a platform of 1e12 processors",
      { ...base, platform: { procs: 1e12 } },
      "platform.procs: expected an integer in [1, 1000000], got 1000000000000",
    ],
    [
      "a grid of fractional processors",
      { ...base, grid: { procs: [16, 0.5] } },
      "grid.procs[1]: expected an integer in [1, 1000000], got 0.5",
    ],
    [
      "a grid value given twice",
      { ...base, grid: { load: [0.3, 0.5, 0.3] } },
      "grid.load[2]: expected a value not given before; 0.3 is grid.load[0] too",
    ],
    [
      "a load out of range",
      { ...base, grid: { load: [0.3, 1e300] } },
      "grid.load[1]: expected a number in (0, 10], got 1e+300",
    ],
    [
      "workload type __proto__",
      { ...base, workload: { type: "__proto__" } },
      'workload.type: expected one of synthetic, swf, native, model, elo, got "__proto__"',
    ],
    [
      "workload type constructor",
      { ...base, workload: { type: "constructor" } },
      'workload.type: expected one of synthetic, swf, native, model, elo, got "constructor"',
    ],
    [
      "too many runs",
      {
        ...base,
        grid: { load: Array.from({ length: 101 }, (_, i) => (i + 1) / 20) },
        seeds: 10000,
      },
      "the grid (101 points) x 10000 seeds x 2 schedulers make 2020000 runs, more than the 1000000 a sweep may have",
    ],
    [
      "an option given as a string",
      { ...base, schedulers: [{ name: "backfill", options: { reservations: "5" } }] },
      'schedulers[0].options.reservations: expected an integer >= 0 or "inf", got "5"',
    ],
    [
      "an option the scheduler does not have",
      { ...base, schedulers: [{ name: "easy", options: { ordr: "sjf" } }] },
      "schedulers[0].options.ordr: scheduler 'easy' has no option 'ordr' (did you mean order?)",
    ],
    [
      "a model count given as a string",
      {
        ...base,
        platform: undefined,
        workload: { type: "model", model: "lublin", options: { jobs: "10" } },
      },
      'workload.options.jobs: expected an integer <= 1000000, got "10"',
    ],
    ["metric", { ...base, metrics: ["meanWiat"] }, "metrics[0]: expected one of"],
    [
      "a metric given twice",
      { ...base, metrics: ["meanWait", "makespan", "meanWait"] },
      "metrics[2]: expected a metric not given before; meanWait is metrics[0] too",
    ],
    [
      "a key given twice",
      JSON.stringify(base).replace('"seeds":1', '"seeds":1,"seeds":5'),
      "seeds: appears twice in one object (JSON would keep the last; give it once)",
    ],
    [
      "platform with elo",
      { ...base, workload: { type: "elo" } },
      "platform: not allowed with workload type elo",
    ],
    [
      "missing trace",
      { ...base, workload: { type: "swf", path: "nope.swf" } },
      "workload.path: cannot read",
    ],
    [
      "model option",
      {
        ...base,
        platform: undefined,
        workload: { type: "model", model: "lublin", options: { jobs: "ten" } },
      },
      "workload.options.jobs:",
    ],
  ];
  for (const [what, doc, message] of cases) {
    it(`${what}: exit 2 naming the key`, async () => {
      const file = await writeExperiment(doc);
      const r = await cli("sweep", file, "--out", await tempDir());
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toContain(message);
      expect(r.stderr.startsWith(`sched-sim: sweep: ${file}`)).toBe(true);
    });
  }

  it("bad usage of the command itself exits 2", async () => {
    expect((await cli("sweep")).stderr).toContain("missing argument <file>");
    const file = await writeExperiment(base);
    expect((await cli("sweep", file)).stderr).toContain("option --out DIR is required");
    expect((await cli("sweep", file, "--out", "x", "--jobs", "0")).stderr).toContain(
      "option --jobs must be a whole number from 1 to 256 (digits only), got '0'",
    );
  });
});

describe("sched-sim sweep --json", () => {
  it("prints the summary and failures as JSON for scripts", async () => {
    const file = await writeExperiment(smallExperiment([0.3], 2));
    const r = await cli("sweep", file, "--out", await tempDir(), "--json", "--quiet");
    expect(r.code, r.stderr).toBe(0);
    const doc = JSON.parse(r.stdout) as {
      experiment: string;
      total: number;
      finished: number;
      failures: unknown[];
      results: { scheduler: string; params: { load: number }; metric: string; runs: number }[];
    };
    expect(doc.experiment).toBe("small");
    expect(doc.total).toBe(4);
    expect(doc.finished).toBe(4);
    expect(doc.failures).toEqual([]);
    expect(doc.results.map((x) => `${x.scheduler} ${x.params.load} ${x.metric} ${x.runs}`)).toEqual(
      [
        "fcfs 0.3 meanWait 2",
        "fcfs 0.3 utilization 2",
        "easy(order=sjf) 0.3 meanWait 2",
        "easy(order=sjf) 0.3 utilization 2",
      ],
    );
  });
});

describe("sweep workload types", () => {
  it("swf (relative path, clean) with a grid over procs, and a two-parameter grid reported per series", async () => {
    const dir = await tempDir();
    const { copyFile, writeFile } = await import("node:fs/promises");
    await copyFile(fixture("small.swf"), join(dir, "small.swf"));
    const file = join(dir, "swf.json");
    await writeFile(
      file,
      JSON.stringify({
        name: "swf",
        workload: { type: "swf", path: "small.swf", clean: true },
        schedulers: ["fcfs", "easy"],
        grid: { procs: [8, 16] },
        metrics: ["meanWait", "makespan"],
      }),
    );
    const out = await tempDir();
    const r = await cli("sweep", file, "--out", out, "--quiet", "--json");
    expect(r.code, r.stderr).toBe(0);
    const doc = JSON.parse(r.stdout) as {
      results: { scheduler: string; params: { procs: number }; metric: string; mean: number }[];
    };
    const wait = (s: string, procs: number) =>
      doc.results.find(
        (x) => x.scheduler === s && x.params.procs === procs && x.metric === "meanWait",
      )?.mean;
    // Worked by hand in test/fixtures/README.md: FCFS on 8 processors waits 190/6 s on average.
    expect(wait("fcfs", 8)).toBeCloseTo(190 / 6, 5);
    expect(wait("fcfs", 16)).toBeLessThan(wait("fcfs", 8) as number);
  });

  it("a @sched/workload model (lublin) with a grid over one of its options", async () => {
    const file = await writeExperiment({
      name: "lublin",
      workload: { type: "model", model: "lublin", options: { jobs: 80, procs: 32 } },
      schedulers: ["easy"],
      grid: { arrivalFactor: [1, 2] },
      seeds: 2,
      metrics: ["jobs", "utilization"],
    });
    const r = await cli("sweep", file, "--out", await tempDir(), "--quiet", "--json");
    expect(r.code, r.stderr).toBe(0);
    const doc = JSON.parse(r.stdout) as {
      finished: number;
      results: { params: { arrivalFactor: number }; metric: string; mean: number }[];
    };
    expect(doc.finished).toBe(4);
    for (const x of doc.results.filter((y) => y.metric === "jobs")) expect(x.mean).toBe(80);
  });

  it("a report of a two-parameter grid has a series per scheduler and value of the second", async () => {
    const file = await writeExperiment({
      ...smallExperiment([0.3, 0.6], 2),
      grid: { load: [0.3, 0.6], procs: [16, 32] },
    });
    const out = await tempDir();
    expect((await cli("sweep", file, "--out", out, "--quiet")).code).toBe(0);
    expect((await cli("report", out, "--no-gantt")).code).toBe(0);
    const html = await readFile(join(out, "report.html"), "utf8");
    const figure = html.split('<figure class="plot-figure"')[1] as string;
    expect(
      [...figure.matchAll(/<g class="series" data-label="([^"]+)"/g)].map((m) => m[1]),
    ).toEqual([
      "fcfs, procs=16",
      "fcfs, procs=32",
      "easy(order=sjf), procs=16",
      "easy(order=sjf), procs=32",
    ]);
  });
});
