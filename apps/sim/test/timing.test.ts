import { readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CONVERGENT_SCHEDULERS } from "../src/experiments/convergent.js";
import { summarize } from "../src/stats.js";
import type { RunRecord, RunTiming } from "../src/sweep/execute.js";
import { readExperimentFile } from "../src/sweep/experiment-file.js";
import { planTasks, type SweepPlan } from "../src/sweep/plan.js";
import { inlineExecutor } from "../src/sweep/pool.js";
import {
  parseRunFile,
  resultsCsv,
  runJson,
  summarizeSweep,
  summarizeTiming,
  TIMING_METRICS,
  timingValue,
} from "../src/sweep/results.js";
import { runSweep } from "../src/sweep/sweep.js";
import { cli, tempDir } from "./helpers.js";
import { syntheticPlan as plan, smallExperiment, writeExperiment } from "./sweep-helpers.js";
import { timingKeys } from "./timing-helpers.js";

const TIMING_KEYS = TIMING_METRICS.map((m) => m.key);

function recordsOf(p: SweepPlan, decisions: (i: number) => number): RunRecord[] {
  return planTasks(p).map((t, i) => ({
    key: t.key,
    scheduler: (p.schedulers[t.scheduler] as { label: string }).label,
    params: t.params,
    seed: t.seed,
    metrics: { meanWait: i },
    events: 2 * decisions(i),
    decisions: decisions(i),
  }));
}

/** Every run's value of each timing metric, recomputed from the run files by hand. */
async function timingByHand(dir: string): Promise<Map<string, number[]>> {
  const groups = new Map<string, number[]>();
  for (const f of (await readdir(join(dir, "runs"))).sort()) {
    const doc = JSON.parse(await readFile(join(dir, "runs", f), "utf8")) as {
      scheduler: string;
      params: { load: number };
      seed: number;
      decisions: number;
      timing: { wallMs: number; schedulerMs: number };
    };
    const values: Record<string, number> = {
      schedTimeMs: doc.timing.schedulerMs / doc.decisions,
      schedulerMs: doc.timing.schedulerMs,
      wallMs: doc.timing.wallMs,
    };
    for (const m of TIMING_KEYS) {
      const k = `${doc.scheduler},${doc.params.load},${m}`;
      groups.set(k, [...(groups.get(k) ?? []), values[m] as number]);
    }
  }
  return groups;
}

describe("timing values and summaries", () => {
  it("schedTimeMs is schedulerMs per scheduling call; undefined (NaN) without calls or timing", () => {
    const [r] = recordsOf(plan(1, 1, 1), () => 8);
    const timing: RunTiming = { wallMs: 30, schedulerMs: 12 };
    expect(timingValue(r as RunRecord, timing, "schedTimeMs")).toBe(1.5);
    expect(timingValue(r as RunRecord, timing, "schedulerMs")).toBe(12);
    expect(timingValue(r as RunRecord, timing, "wallMs")).toBe(30);
    expect(timingValue({ ...(r as RunRecord), decisions: 0 }, timing, "schedTimeMs")).toBeNaN();
    for (const m of TIMING_KEYS) expect(timingValue(r as RunRecord, undefined, m)).toBeNaN();
    expect(() => timingValue(r as RunRecord, timing, "meanWait")).toThrow(
      "unknown timing metric 'meanWait'",
    );
  });

  it("a run file's timing block reads back apart from its record; a file without one still reads", () => {
    const [r] = recordsOf(plan(1, 1, 1), () => 3);
    const record = r as RunRecord;
    const file = parseRunFile(runJson(record, { wallMs: 1.23456789, schedulerMs: 0.5 }));
    expect(file.timing).toEqual({ wallMs: 1.234568, schedulerMs: 0.5 });
    expect(file.record).toEqual(record);
    const doc = JSON.parse(runJson(record, { wallMs: 1, schedulerMs: 1 })) as Record<
      string,
      unknown
    >;
    delete doc.timing;
    const bare = parseRunFile(JSON.stringify(doc));
    expect(bare.timing).toBeUndefined();
    expect(bare.record).toEqual(record);
    doc.timing = { wallMs: "fast" };
    expect(parseRunFile(JSON.stringify(doc)).timing).toBeUndefined();
  });

  it("the rows of timing.csv depend only on the plan; runs counts the timed runs", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 4 }),
        fc.integer({ min: 1, max: 4 }),
        fc.integer({ min: 1, max: 3 }),
        fc.array(fc.double({ min: 0, max: 1e6, noNaN: true }), { minLength: 96, maxLength: 96 }),
        fc.array(fc.integer({ min: 0, max: 50 }), { minLength: 48, maxLength: 48 }),
        fc.array(fc.boolean(), { minLength: 48, maxLength: 48 }),
        fc.array(fc.boolean(), { minLength: 48, maxLength: 48 }),
        (points, seeds, schedulers, ms, calls, kept, timed) => {
          const p = plan(points, seeds, schedulers);
          const records = recordsOf(p, (i) => calls[i] as number).filter((_, i) => kept[i]);
          // a run without a timing block: a copied seed-free run, a file written by hand
          const timings = new Map(
            records
              .map(
                (r, i) =>
                  [
                    r.key,
                    { wallMs: ms[2 * i] as number, schedulerMs: ms[2 * i + 1] as number },
                  ] as const,
              )
              .filter((_, i) => timed[i]),
          );
          const rows = summarizeTiming(p, records, timings);
          const again = summarizeTiming(p, records, new Map());
          const shape = (x: typeof rows) => x.map((r) => [r.scheduler, ...r.point, r.metric]);
          // the same rows whatever the timings, the rows of results.csv per metric
          expect(shape(rows)).toEqual(shape(again));
          expect(again.every((r) => r.runs === 0)).toBe(true);
          const results = summarizeSweep(p, records);
          expect(rows.length / TIMING_KEYS.length).toBe(results.length / p.metrics.length);
          rows.forEach((row, j) => {
            const base = results[Math.floor(j / TIMING_KEYS.length)];
            expect([row.scheduler, row.point]).toEqual([base?.scheduler, base?.point]);
            expect(row.metric).toBe(TIMING_KEYS[j % TIMING_KEYS.length]);
            // oracle: the summary of the group's timed values computed directly
            const group = records.filter(
              (r) =>
                r.scheduler === row.scheduler &&
                r.params.load === row.point[0] &&
                timings.has(r.key),
            );
            const expected = summarize(
              group.map((r) => timingValue(r, timings.get(r.key), row.metric)),
            );
            expect(Object.is(row.mean, expected.mean) || row.mean === expected.mean).toBe(true);
            expect(row.runs).toBe(group.length);
          });
        },
      ),
      { numRuns: 60 },
    );
  });
});

describe("timing.csv", () => {
  it("a sweep writes timing.csv (tidy, the rows of results.csv) and prints it apart; twice: results.csv identical, timing rows identical", async () => {
    const file = await writeExperiment(smallExperiment([0.3, 0.6], 3));
    const a = await tempDir();
    const r = await cli("sweep", file, "--out", a);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(`, ${join(a, "timing.csv")} and ${join(a, "runs-timing.csv")}`);
    const text = await readFile(join(a, "timing.csv"), "utf8");
    const [header, ...rows] = text.trimEnd().split("\n");
    const results = (await readFile(join(a, "results.csv"), "utf8")).trimEnd().split("\n");
    expect(header).toBe(results[0]);
    expect(header).toBe("scheduler,load,metric,mean,ci95,runs");
    expect(rows).toHaveLength(2 * 2 * TIMING_KEYS.length);
    const byHand = await timingByHand(a);
    let i = 0;
    for (const s of ["fcfs", "easy(order=sjf)"]) {
      for (const load of [0.3, 0.6]) {
        for (const m of TIMING_KEYS) {
          const [scheduler, l, metric, mean, ci95, runs] = (rows[i++] as string).split(",");
          expect([scheduler, Number(l), metric, runs]).toEqual([s, load, m, "3"]);
          const expected = summarize(byHand.get(`${s},${load},${m}`) as number[]);
          expect(Number(mean)).toBeCloseTo(expected.mean, 5);
          expect(Number(ci95)).toBeCloseTo(expected.ci95, 5);
          expect(Number(mean)).toBeGreaterThanOrEqual(0);
        }
      }
    }
    // the printed tables: metrics (deterministic), then timing marked as wall clock
    const [metricsPart, timingPart] = r.stdout.split("Wall clock [wall]");
    expect(metricsPart).toMatch(/scheduler\s+load\s+mean wait \(s\)\s+utilization\s+runs\n/);
    expect(metricsPart).not.toContain("ms");
    expect(timingPart).toContain("NOT deterministic");
    expect(timingPart).toMatch(
      /scheduler\s+load\s+sched ms\/plan \[wall\]\s+scheduler ms \[wall\]\s+run ms \[wall\]\n/,
    );
    expect(timingPart).toMatch(/^easy\(order=sjf\)\s+0\.6\s+\d+\.\d{3} ± \d+\.\d{3}\s/m);

    const b = await tempDir();
    expect((await cli("sweep", file, "--out", b, "--quiet")).code).toBe(0);
    for (const f of ["results.csv", "runs.csv"]) {
      expect(await readFile(join(b, f), "utf8"), f).toBe(await readFile(join(a, f), "utf8"));
    }
    expect(await timingKeys(b)).toEqual(await timingKeys(a));
  });

  it("--json carries the timing summary under its own key, apart from results", async () => {
    const file = await writeExperiment(smallExperiment([0.3], 2));
    const r = await cli("sweep", file, "--out", await tempDir(), "--json", "--quiet");
    expect(r.code, r.stderr).toBe(0);
    const doc = JSON.parse(r.stdout) as {
      results: { metric: string }[];
      timing: {
        note: string;
        metrics: string[];
        results: { scheduler: string; params: { load: number }; metric: string; runs: number }[];
      };
    };
    expect(new Set(doc.results.map((x) => x.metric))).toEqual(new Set(["meanWait", "utilization"]));
    expect(doc.timing.note).toContain("not deterministic");
    expect(doc.timing.metrics).toEqual(TIMING_KEYS);
    expect(
      doc.timing.results.map((x) => `${x.scheduler} ${x.params.load} ${x.metric} ${x.runs}`),
    ).toEqual([
      "fcfs 0.3 schedTimeMs 2",
      "fcfs 0.3 schedulerMs 2",
      "fcfs 0.3 wallMs 2",
      "easy(order=sjf) 0.3 schedTimeMs 2",
      "easy(order=sjf) 0.3 schedulerMs 2",
      "easy(order=sjf) 0.3 wallMs 2",
    ]);
  });

  it("a resumed sweep's timing.csv holds the timings of the runs of the earlier session too", async () => {
    const file = await writeExperiment(smallExperiment([0.3, 0.5], 2));
    const p = await readExperimentFile(file);
    const out = await tempDir();
    const controller = new AbortController();
    let written = 0;
    const first = await runSweep(p, () => inlineExecutor(p), {
      out,
      signal: controller.signal,
      onRunWritten: () => {
        written++;
        if (written === 3) controller.abort();
      },
    });
    expect(first.interrupted).toBe(true);
    await expect(readFile(join(out, "timing.csv"))).rejects.toThrow();
    const second = await runSweep(p, () => inlineExecutor(p), { out });
    expect(second.skipped).toBe(3);
    expect(second.timings.size).toBe(planTasks(p).length);
    const rows = (await readFile(join(out, "timing.csv"), "utf8")).trimEnd().split("\n").slice(1);
    for (const row of rows) {
      const [, , , mean, ci95, runs] = row.split(",");
      expect(runs).toBe("2");
      expect(Number.isFinite(Number(mean)) && mean !== "", row).toBe(true);
      expect(ci95, row).not.toBe("");
    }
    // the same file as summarizing the run files again (what compare --timing does)
    const files = await Promise.all(
      (await readdir(join(out, "runs"))).map(async (f) =>
        parseRunFile(await readFile(join(out, "runs", f), "utf8")),
      ),
    );
    const timings = new Map(files.map((f) => [f.record.key, f.timing as RunTiming]));
    const records = planTasks(p).map(
      (t) => files.find((f) => f.record.key === t.key)?.record as RunRecord,
    );
    expect(await readFile(join(out, "timing.csv"), "utf8")).toBe(
      resultsCsv(p, summarizeTiming(p, records, timings)),
    );
  });

  it("a run file without a timing block: its row stays, its values are empty (NaN), no timed run", async () => {
    const file = await writeExperiment(smallExperiment([0.3], 1));
    const p = await readExperimentFile(file);
    const out = await tempDir();
    await runSweep(p, () => inlineExecutor(p), { out });
    const before = await timingKeys(out);
    const victim = `${(planTasks(p)[0] as { key: string }).key}.json`;
    const doc = JSON.parse(await readFile(join(out, "runs", victim), "utf8")) as Record<
      string,
      unknown
    >;
    delete doc.timing;
    await writeFile(join(out, "runs", victim), JSON.stringify(doc));
    const results = await readFile(join(out, "results.csv"), "utf8");
    await runSweep(p, () => inlineExecutor(p), { out });
    expect(await readFile(join(out, "results.csv"), "utf8")).toBe(results);
    // the same rows; runs counts the timed runs: none left in the edited run's group
    const withoutRuns = (keys: string[][]) => keys.map((r) => r.slice(0, -1));
    expect(withoutRuns(await timingKeys(out))).toEqual(withoutRuns(before));
    const rows = (await readFile(join(out, "timing.csv"), "utf8")).trimEnd().split("\n");
    expect(rows[4]).toMatch(/^easy\(order=sjf\),0\.3,schedTimeMs,[0-9.]+,,1$/);
    expect(rows[1]).toBe("fcfs,0.3,schedTimeMs,,,0");
  });
});

describe("compare --timing", () => {
  it("compares the wall-clock metrics from the run files: the numbers of timing.csv, marked as wall clock", async () => {
    const dir = await tempDir();
    const file = await writeExperiment(smallExperiment([0.3, 0.6], 2));
    expect((await cli("sweep", file, "--out", dir, "--quiet")).code).toBe(0);
    const csv = await cli("compare", dir, "--timing", "--format", "csv");
    expect(csv.code, csv.stderr).toBe(0);
    const [header, ...rows] = csv.stdout.trimEnd().split("\n");
    expect(header).toBe("load,scheduler,metric,mean,ci95,runs,best");
    const timing = (await readFile(join(dir, "timing.csv"), "utf8")).trimEnd().split("\n").slice(1);
    const fromFile = new Map(
      timing.map((l) => {
        const [s, load, m, mean, ci95, runs] = l.split(",");
        return [`${load},${s},${m}`, `${mean},${ci95},${runs}`];
      }),
    );
    expect(rows).toHaveLength(timing.length);
    for (const row of rows) {
      const [load, s, m, mean, ci95, runs] = row.split(",");
      expect(TIMING_KEYS).toContain(m);
      expect(`${mean},${ci95},${runs}`).toBe(fromFile.get(`${load},${s},${m}`));
    }
    const table = await cli("compare", dir, "--timing");
    expect(table.stdout).toMatch(/^Wall clock \[wall\].*NOT deterministic/);
    expect(table.stdout).toMatch(/load\s+scheduler\s+sched ms\/plan \[wall\]/);
    expect(table.stdout).toContain("lower is better for schedTimeMs, schedulerMs, wallMs");
    const json = JSON.parse((await cli("compare", dir, "-t", "--format", "json")).stdout) as {
      note: string;
      metrics: { key: string }[];
    };
    expect(json.note).toContain("NOT deterministic");
    expect(json.metrics.map((m) => m.key)).toEqual(TIMING_KEYS);
    const md = (await cli("compare", dir, "--timing", "--format", "markdown")).stdout;
    expect(md).toContain("| load | scheduler | sched ms/plan [wall] |");
    // the plain comparison is unchanged: no timing in it
    expect((await cli("compare", dir)).stdout).not.toContain("[wall]");
    const bad = await cli("compare", dir, "--missing", "--timing");
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("options --missing and --timing exclude each other");
  });
});

describe("reproduce convergent --quick (issue #7)", () => {
  it("prints schedTimeMs per policy and point as wall clock, and writes it to timing.csv, not results.csv", async () => {
    const out = await tempDir();
    const r = await cli(
      "reproduce",
      "convergent",
      "--quick",
      "--seeds",
      "1",
      "--vary",
      "interArrival=4,16",
      "--set",
      "jobs=100",
      "--out",
      out,
      "--quiet",
    );
    expect(r.code, r.stderr).toBe(0);
    const [metricsPart, timingPart] = r.stdout.split("Wall clock [wall]");
    expect(metricsPart).not.toContain("[wall]");
    expect(timingPart).toMatch(/scheduler\s+interArrival\s+sched ms\/plan \[wall\]/);
    const results = (await readFile(join(out, "results.csv"), "utf8")).trimEnd().split("\n");
    const timing = (await readFile(join(out, "timing.csv"), "utf8")).trimEnd().split("\n");
    expect(timing[0]).toBe("scheduler,interArrival,metric,mean,ci95,runs");
    expect(timing[0]).toBe(results[0]);
    expect(results.some((l) => /Ms,/.test(l))).toBe(false);
    // one schedTimeMs row per policy and point, in results.csv's order, = schedulerMs / decisions
    const byRun = new Map<string, number>();
    for (const f of await readdir(join(out, "runs"))) {
      const doc = JSON.parse(await readFile(join(out, "runs", f), "utf8")) as {
        scheduler: string;
        params: { interArrival: number };
        decisions: number;
        timing: { schedulerMs: number };
      };
      byRun.set(
        `${doc.scheduler},${doc.params.interArrival}`,
        doc.timing.schedulerMs / doc.decisions,
      );
    }
    const sched = timing.slice(1).filter((l) => l.split(",")[2] === "schedTimeMs");
    const points = [4, 16];
    expect(sched.map((l) => l.split(",").slice(0, 2).join(","))).toEqual(
      CONVERGENT_SCHEDULERS.flatMap((s) => points.map((ta) => `${s},${ta}`)),
    );
    for (const l of sched) {
      const [s, ta, , mean, , runs] = l.split(",");
      expect(runs).toBe("1");
      expect(Number(mean), l).toBeCloseTo(byRun.get(`${s},${ta}`) as number, 5);
      expect(Number(mean), l).toBeGreaterThan(0);
    }
  }, 120_000);
});
