import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { easy } from "@sched/backfill";
import { simulate } from "@sched/core";
import { beforeAll, describe, expect, it } from "vitest";
import { ganttLayout } from "../src/report/gantt.js";
import { simulateTask } from "../src/sweep/execute.js";
import { planTasks } from "../src/sweep/plan.js";
import { readPlan } from "../src/sweep/results.js";
import { cli, tempDir } from "./helpers.js";
import { smallExperiment, writeExperiment } from "./sweep-helpers.js";

let dir = "";
let html = "";
const HOSTILE = `<script>alert("x")</script> & 'quotes'`;

beforeAll(async () => {
  dir = await tempDir();
  const doc = {
    ...smallExperiment([0.3, 0.5, 0.7], 3),
    title: `Title ${HOSTILE}`,
    description: `Notes ${HOSTILE}`,
    schedulers: ["fcfs", { name: "easy", label: "<b>easy</b>" }, "conservative"],
  };
  const r = await cli("sweep", await writeExperiment(doc), "--out", dir, "--quiet");
  expect(r.code, r.stderr).toBe(0);
  const rep = await cli("report", dir);
  expect(rep.code, rep.stderr).toBe(0);
  expect(rep.stderr).toBe(`wrote ${join(dir, "report.html")}\n`);
  html = await readFile(join(dir, "report.html"), "utf8");
});

describe("sched-sim report", () => {
  it("is one self-contained page: no external resource of any kind", () => {
    expect(html.startsWith("<!doctype html>")).toBe(true);
    expect(html).not.toMatch(/<link\b|\bsrc=|\bhref=|url\(|@import/i);
    expect(html.match(/<script>/g)).toHaveLength(1);
  });

  it("escapes text from the experiment (title, description, labels)", () => {
    expect(html).not.toContain("<script>alert");
    expect(html).not.toContain("<b>easy</b>");
    expect(html).toContain(
      "Title &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;quotes&#39;",
    );
    expect(html).toContain('data-label="&lt;b&gt;easy&lt;/b&gt;"');
  });

  it("has a plot per metric with a series per scheduler, a point per load and a CI band", () => {
    const figures = html.split('<figure class="plot-figure"').slice(1);
    expect(figures.map((f) => /data-metric="([^"]+)"/.exec(f)?.[1])).toEqual([
      "meanWait",
      "utilization",
    ]);
    for (const f of figures) {
      const series = f.split('<g class="series"').slice(1);
      expect(series).toHaveLength(3);
      for (const s of series) {
        expect(s.match(/ class="point"/g)).toHaveLength(3);
        expect(s).toContain('<polygon class="band"');
        expect(s).toContain('<polyline class="line"');
      }
    }
  });

  it("draws the Gantt bars of the first run: one per contiguous block of machines of each interval", async () => {
    const plan = await readPlan(dir, "report");
    const task = planTasks(plan)[0];
    expect(task).toBeDefined();
    const trace = await simulateTask(plan, task as NonNullable<typeof task>);
    // Oracle on single-core machines: lane = machine index, so bars = runs of consecutive indices.
    let expected = 0;
    for (const r of trace.records) {
      for (const iv of r.intervals) {
        const ms = iv.allocation.map((a) => a.machine).sort((a, b) => a - b);
        expected += ms.filter((m, i) => i === 0 || m !== (ms[i - 1] as number) + 1).length;
      }
    }
    expect(expected).toBeGreaterThan(0);
    expect(html.match(/<rect class="bar"/g)).toHaveLength(expected);
    expect(html).toContain(`data-bars="${expected}"`);
    expect(html).toContain(`Run <code>${(task as { key: string }).key}</code>`);
    expect(html).toContain("its metrics equal the stored result");
    expect(html).toContain('<path class="utilization"');
  });

  it("is deterministic, takes --run and --out, and --no-gantt leaves the chart out", async () => {
    const again = join(await tempDir(), "again.html");
    expect((await cli("report", dir, "--out", again)).code).toBe(0);
    expect(await readFile(again, "utf8")).toBe(html);
    const plan = await readPlan(dir, "report");
    const last = planTasks(plan).at(-1) as { key: string };
    const other = join(await tempDir(), "other.html");
    expect((await cli("report", dir, "--run", last.key, "--out", other)).code).toBe(0);
    expect(await readFile(other, "utf8")).toContain(`Run <code>${last.key}</code>`);
    const none = join(await tempDir(), "none.html");
    expect((await cli("report", dir, "--no-gantt", "--out", none)).code).toBe(0);
    expect(await readFile(none, "utf8")).not.toContain('class="bar"');
  });

  it("bad usage exits 2 naming the problem", async () => {
    const plan = await readPlan(dir, "report");
    const key = (planTasks(plan)[0] as { key: string }).key;
    const r = await cli("report", dir, "--run", `${key}x`);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`option --run: no run '${key}x'`);
    expect(r.stderr).toContain(`(did you mean ${key}?)`);
    const notDir = await cli("report", await tempDir());
    expect(notDir.code).toBe(2);
    expect(notDir.stderr).toContain("is not a sweep directory");
  });
});

describe("ganttLayout on multi-core machines", () => {
  it("bars cover exactly each interval's cores, within its machines, and never overlap on a lane", async () => {
    const { arbJobs, arbPlatform } = await import("@sched/core/testing");
    const fc = await import("fast-check");
    fc.assert(
      fc.property(
        arbPlatform({ shape: "farm", licenses: false }).chain((p) =>
          fc.tuple(fc.constant(p), arbJobs(p, { licenses: false, deadlines: false })),
        ),
        ([platform, jobs]) => {
          const trace = simulate(jobs, platform, easy());
          const layout = ganttLayout(trace);
          expect(layout.lanes).toBe(platform.totalCores);
          const byLane = new Map<number, [number, number][]>();
          trace.records.forEach((r, index) => {
            for (const iv of r.intervals) {
              const mine = layout.bars.filter(
                (b) => b.index === index && b.start === iv.start && b.end === iv.end,
              );
              const cores = iv.allocation.reduce((s, a) => s + a.cores, 0);
              expect(mine.reduce((s, b) => s + b.lanes, 0)).toBe(cores);
              const allowed = new Set<number>();
              for (const a of iv.allocation) {
                const first = layout.machineLane[a.machine] as number;
                for (let c = 0; c < (platform.machines[a.machine]?.cores ?? 0); c++)
                  allowed.add(first + c);
              }
              for (const b of mine) {
                for (let l = b.lane; l < b.lane + b.lanes; l++) {
                  expect(allowed.has(l)).toBe(true);
                  const list = byLane.get(l) ?? [];
                  for (const [s, e] of list) expect(b.start >= e || b.end <= s).toBe(true);
                  list.push([b.start, b.end]);
                  byLane.set(l, list);
                }
              }
            }
          });
        },
      ),
      { numRuns: 40 },
    );
  });
});

describe("ganttHtml", () => {
  it("aggregates when the bars are too many, and the cells hold exactly the work done", async () => {
    const { identicalPool } = await import("@sched/core");
    const { syntheticWorkload } = await import("../src/synthetic.js");
    const { ganttHtml, ganttMode, ganttRows, GANTT_COLUMNS, HEAT_COLORS } = await import(
      "../src/report/gantt.js"
    );
    const { pageKit } = await import("../src/report/page-kit.js");
    const jobs = syntheticWorkload({ jobs: 5000, procs: 32, load: 0.7, seed: 3 });
    const trace = simulate(jobs, identicalPool(32), easy());
    const layout = ganttLayout(trace);
    expect(layout.bars.length).toBeGreaterThan(4000);
    expect(ganttMode(layout)).toBe("heat");
    const html = ganttHtml(trace);
    expect(html).toContain('data-mode="heat"');
    expect(html).not.toContain('class="bar"');
    expect(html.match(/<path class="heat"/g)).toHaveLength(HEAT_COLORS.length);
    // A row per machine, the machine axis labelled, the time axis in a readable unit.
    const rows = ganttRows(layout);
    expect(rows).toHaveLength(32);
    expect(html).toContain('<text class="ylabel"');
    expect(html).toContain(">m0</text>");
    expect(html).toMatch(/id="gantt-xlabel" class="axis-label">time \((h|d)\)</);
    expect(html).toContain('<text class="utick"');
    // Oracle: the cells' busy core-seconds add up to the work of every execution interval.
    const occ = pageKit().heatBins(
      layout.bars.flatMap((b) => [b.start, b.end, b.lane, b.lanes]),
      rows.map((r) => r.lane),
      rows.map((r) => r.lanes),
      layout.t0,
      layout.t1,
      GANTT_COLUMNS,
    );
    const bin = (layout.t1 - layout.t0) / GANTT_COLUMNS;
    let cells = 0;
    rows.forEach((r, i) => {
      for (let c = 0; c < GANTT_COLUMNS; c++)
        cells += (occ[i * GANTT_COLUMNS + c] as number) * r.lanes * bin;
    });
    let work = 0;
    for (const r of trace.records) {
      for (const iv of r.intervals)
        work += (iv.end - iv.start) * iv.allocation.reduce((s, a) => s + a.cores, 0);
    }
    expect(cells / work).toBeCloseTo(1, 9);
    // The page gets the bars to draw them when zoomed, with nothing that could close the script.
    const data = /<script type="application\/json" id="gantt-data">([^<]*)<\/script>/.exec(html);
    expect(data).not.toBeNull();
    expect(JSON.parse((data as RegExpExecArray)[1] as string).bars).toHaveLength(
      layout.bars.length * 4,
    );
  });

  it("draws every bar when they fit, with machine names for a small platform", async () => {
    const { identicalPool } = await import("@sched/core");
    const { syntheticWorkload } = await import("../src/synthetic.js");
    const { ganttHtml } = await import("../src/report/gantt.js");
    const trace = simulate(
      syntheticWorkload({ jobs: 40, procs: 8, load: 0.5, seed: 1 }),
      identicalPool(8),
      easy(),
    );
    const html = ganttHtml(trace);
    expect(html).toContain('data-mode="exact"');
    expect(html).not.toContain("gantt-data");
    for (let m = 0; m < 8; m++) expect(html).toContain(`>m${m}</text>`);
  });
});
