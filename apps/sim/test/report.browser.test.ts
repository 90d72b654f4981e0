import { existsSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { ScheduleTrace } from "@sched/core";
import { type Browser, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { simulateTask } from "../src/sweep/execute.js";
import { planTasks } from "../src/sweep/plan.js";
import { readPlan } from "../src/sweep/results.js";
import { cli, tempDir } from "./helpers.js";
import { writeExperiment } from "./sweep-helpers.js";

// The report of a small sweep, opened in a real headless Chromium (Debian's `chromium` driven by
// playwright-core; no browser download). One browser launch serves every assertion.

/** The Chromium binary: $CHROMIUM_PATH, else Debian's. */
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const hasChromium = existsSync(CHROMIUM);
if (!hasChromium) {
  console.warn(
    `report.browser.test.ts: skipped, no Chromium at ${CHROMIUM}. ` +
      "Install it (Debian/Ubuntu: `apt-get install chromium`) or set CHROMIUM_PATH to a Chromium binary.",
  );
}

/** Text that would run or add elements if the report did not escape it. */
const HOSTILE = `<script>window.__injected = 1</script><img src=x onerror="window.__injected = 2"> AT&amp;T & co`;
const TITLE = `Browser check ${HOSTILE}`;
const LABELS = ["fcfs", `<b>easy</b> & "sjf"`, "conservative"];
const LOADS = [0.3, 0.5, 0.7];
const METRICS = ["meanWait", "meanBoundedSlowdown", "utilization"];
const GANTT_WIDTH = 960;

let browser: Browser | undefined;
let page: Page;
let url = "";
let trace: ScheduleTrace;
const problems: string[] = [];
const requests: string[] = [];

/** The x range of an SVG's viewBox. */
async function viewRange(id: string): Promise<[number, number]> {
  const box = (await page.getAttribute(`#${id}`, "viewBox")) ?? "";
  const [x, , w] = box.split(/\s+/).map(Number);
  return [x as number, (x as number) + (w as number)];
}

/** The Gantt's axis labels as numbers of seconds ("12.5k" h = 12500 h), in the axis's unit. */
async function axisTimes(): Promise<number[]> {
  const labels = await page.locator("#gantt-axis text").allTextContents();
  const title = (await page.textContent("#gantt-xlabel")) ?? "";
  const seconds: Record<string, number> = { s: 1, min: 60, h: 3600, d: 86400 };
  const unit = /^time \((s|min|h|d)\)$/.exec(title)?.[1];
  if (unit === undefined) throw new Error(`unexpected axis title ${title}`);
  const big: Record<string, number> = { k: 1e3, M: 1e6 };
  return labels.map((l) => {
    const m = /^(-?[\d.]+)([kM]?)$/.exec(l);
    if (m === null) throw new Error(`unexpected axis label ${l}`);
    return Number(m[1]) * (big[m[2] as string] ?? 1) * (seconds[unit] as number);
  });
}

beforeAll(async () => {
  if (!hasChromium) return;
  const dir = await tempDir();
  const doc = {
    name: "browser",
    title: TITLE,
    description: `Description ${HOSTILE}`,
    workload: { type: "synthetic", jobs: 60 },
    platform: { procs: 16 },
    schedulers: [
      "fcfs",
      { name: "easy", options: { order: "sjf" }, label: LABELS[1] },
      "conservative",
    ],
    grid: { load: LOADS },
    seeds: 2,
    metrics: METRICS,
  };
  const sweep = await cli("sweep", await writeExperiment(doc), "--out", dir, "--quiet");
  expect(sweep.code, sweep.stderr).toBe(0);
  // The Gantt's run: EASY at the highest load, seed 2 (busy, with jobs on several machines).
  const plan = await readPlan(dir, "report");
  const task = planTasks(plan).find(
    (t) =>
      plan.schedulers[t.scheduler]?.label === LABELS[1] && t.params.load === 0.7 && t.seed === 2,
  );
  if (task === undefined) throw new Error("no easy/load=0.7/seed 2 run in the plan");
  trace = await simulateTask(plan, task);
  const out = join(dir, "report.html");
  const report = await cli("report", dir, "--run", task.key, "--out", out);
  expect(report.code, report.stderr).toBe(0);
  url = pathToFileURL(out).href;

  browser = await chromium.launch({
    executablePath: CHROMIUM,
    timeout: 60_000,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
  page = await browser.newPage({ viewport: { width: 1100, height: 900 } });
  page.on("console", (m) => {
    if (m.type() === "error" || m.type() === "warning")
      problems.push(`console ${m.type()}: ${m.text()}`);
  });
  page.on("pageerror", (e) => problems.push(`page error: ${e.message}`));
  page.on("requestfailed", (r) => problems.push(`request failed: ${r.url()}`));
  page.on("request", (r) => requests.push(r.url()));
  await page.goto(url, { waitUntil: "load" });
}, 120_000);

afterAll(async () => {
  await browser?.close();
});

describe("sched-sim report in headless Chromium", () => {
  it.skipIf(!hasChromium)(
    "loads with no console or page errors and requests nothing but itself",
    async () => {
      expect(await page.title()).toBe(`sched-sim report: browser`);
      expect(problems).toEqual([]);
      expect(requests).toEqual([url]);
      // The script ran: it reveals the zoom controls.
      expect(await page.isVisible("#zoom-controls")).toBe(true);
    },
  );

  it.skipIf(!hasChromium)(
    "shows escaped text as text and creates no injected element",
    async () => {
      expect(await page.textContent("h1")).toBe(TITLE);
      expect(await page.locator("p", { hasText: "Description <script>" }).textContent()).toBe(
        `Description ${HOSTILE}`,
      );
      expect(await page.locator("script").count()).toBe(1);
      expect(await page.locator("img, b, iframe, object, embed").count()).toBe(0);
      expect(
        await page.evaluate(() => (globalThis as { __injected?: unknown }).__injected),
      ).toBeUndefined();
      const legend = await page
        .locator(".plot-figure")
        .first()
        .locator(".legend li")
        .allTextContents();
      expect(legend).toEqual(LABELS);
      const labels = await page
        .locator(".plot-figure")
        .first()
        .locator("g.series")
        .evaluateAll((gs) => gs.map((g) => g.getAttribute("data-label")));
      expect(labels).toEqual(LABELS);
    },
  );

  it.skipIf(!hasChromium)(
    "draws every metric's plot with one visible line per scheduler",
    async () => {
      const figures = page.locator("figure.plot-figure");
      expect(
        await figures.evaluateAll((fs) => fs.map((f) => f.getAttribute("data-metric"))),
      ).toEqual(METRICS);
      for (let i = 0; i < METRICS.length; i++) {
        const series = figures.nth(i).locator("g.series");
        expect(await series.count()).toBe(LABELS.length);
        for (let s = 0; s < LABELS.length; s++) {
          const line = series.nth(s).locator("polyline.line");
          expect(await line.count()).toBe(1);
          const points = ((await line.getAttribute("points")) ?? "").trim().split(/\s+/);
          expect(points).toHaveLength(LOADS.length);
          const box = await line.boundingBox();
          expect(box?.width ?? 0).toBeGreaterThan(100);
          expect(await series.nth(s).locator(".point").count()).toBe(LOADS.length);
        }
      }
    },
  );

  it.skipIf(!hasChromium)(
    "draws exactly the chosen run's execution intervals as Gantt bars",
    async () => {
      // Oracle from the trace alone: on single-core machines an interval is one bar per maximal
      // run of consecutive machine indices, covering exactly its cores.
      const expected = new Map<string, number>();
      let bars = 0;
      let intervals = 0;
      for (const r of trace.records) {
        for (const iv of r.intervals) {
          intervals++;
          const ms = iv.allocation.map((a) => a.machine).sort((a, b) => a - b);
          bars += ms.filter((m, i) => i === 0 || m !== (ms[i - 1] as number) + 1).length;
          const key = `${r.job.id}:${iv.start}-${iv.end}`;
          expected.set(
            key,
            (expected.get(key) ?? 0) + iv.allocation.reduce((s, a) => s + a.cores, 0),
          );
        }
      }
      expect(intervals).toBe(60);
      expect(bars).toBeGreaterThanOrEqual(intervals);
      const rects = page.locator("#gantt-bars rect.bar");
      expect(await rects.count()).toBe(bars);
      // Every bar names a real interval, and each interval's bars cover exactly its cores.
      const titles = await page.locator("#gantt-bars rect.bar > title").allTextContents();
      const drawn = new Map<string, number>();
      for (const t of titles) {
        const m = /^job (\S+): ([\d.]+)-([\d.]+) s, (\d+) cores? on machines? /.exec(t);
        expect(m, t).not.toBeNull();
        const [, job, start, end, cores] = m as RegExpExecArray;
        const key = `${job}:${start}-${end}`;
        drawn.set(key, (drawn.get(key) ?? 0) + Number(cores));
      }
      expect(drawn).toEqual(expected);
      // Bars lie inside the chart and at least one is wide enough to see.
      const xs = await rects.evaluateAll((rs) =>
        rs.map((r) => [Number(r.getAttribute("x")), Number(r.getAttribute("width"))]),
      );
      for (const [x, w] of xs) {
        expect(x).toBeGreaterThanOrEqual(0);
        expect((x as number) + (w as number)).toBeLessThanOrEqual(GANTT_WIDTH + 0.5);
      }
      const box = await page.locator("#gantt-bars").boundingBox();
      expect(box?.width ?? 0).toBeGreaterThan(500);
      expect(await page.locator("#gantt-util path.utilization").count()).toBe(1);
    },
  );

  it.skipIf(!hasChromium)(
    "zooms and pans the Gantt and its utilization curve together",
    async () => {
      const t0 = Math.min(...trace.records.flatMap((r) => r.intervals.map((iv) => iv.start)));
      const t1 = Math.max(...trace.records.flatMap((r) => r.intervals.map((iv) => iv.end)));
      const seconds = ([a, b]: [number, number]): [number, number] => [
        t0 + (a / GANTT_WIDTH) * (t1 - t0),
        t0 + (b / GANTT_WIDTH) * (t1 - t0),
      ];
      /** The visible window is the same on both charts and the axis labels lie inside it. */
      const check = async (): Promise<[number, number]> => {
        const range = await viewRange("gantt-bars");
        expect(await viewRange("gantt-util")).toEqual(range);
        const [a, b] = seconds(range);
        const ticks = await axisTimes();
        expect(ticks.length).toBeGreaterThanOrEqual(3);
        const slack = (b - a) * 1e-3 + Math.abs(b) * 1e-3; // labels are rounded to 4 digits
        expect(await page.textContent("#gantt-xlabel")).toMatch(/^time \((s|min|h|d)\)$/);
        for (const t of ticks) {
          expect(t).toBeGreaterThanOrEqual(a - slack);
          expect(t).toBeLessThanOrEqual(b + slack);
        }
        // Each label sits over its time on the bars' (stretched) time scale, within 3 px.
        const chart = await page.locator("#gantt-bars").boundingBox();
        const centres = await page.locator("#gantt-axis text").evaluateAll((ts) =>
          ts.map((t) => {
            const r = t.getBoundingClientRect();
            return r.left + r.width / 2;
          }),
        );
        const left = await page
          .locator("#gantt-bars")
          .evaluate((e) => e.getBoundingClientRect().left);
        expect(chart).not.toBeNull();
        const width = (chart as { width: number }).width;
        ticks.forEach((t, i) => {
          const want = left + ((t - a) / (b - a)) * width;
          expect(Math.abs((centres[i] as number) - want), `label ${t} at x`).toBeLessThan(
            3 + (slack / (b - a)) * width,
          );
        });
        return range;
      };
      expect(await check()).toEqual([0, GANTT_WIDTH]);
      const before = await axisTimes();

      await page.click("#zoom-in");
      expect(await check()).toEqual([240, 720]);
      expect(await axisTimes()).not.toEqual(before);

      // Wheel up over the chart's centre: zoom in by 0.8 about the pointer.
      const box = await page.locator("#gantt-bars").boundingBox();
      if (box === null) throw new Error("the Gantt chart has no box");
      await page.mouse.move(box.x + box.width / 2, box.y + Math.min(box.height / 2, 100));
      await page.mouse.wheel(0, -120);
      await expect.poll(() => viewRange("gantt-bars")).not.toEqual([240, 720]);
      const [w0, w1] = await check();
      expect(w1 - w0).toBeCloseTo(480 * 0.8, 6);
      expect((w0 + w1) / 2).toBeCloseTo(480, 0);

      // Drag right: the window moves to earlier times, keeping its width.
      await page.mouse.down();
      await page.mouse.move(box.x + box.width / 2 + 100, box.y + Math.min(box.height / 2, 100), {
        steps: 4,
      });
      await page.mouse.up();
      const [p0, p1] = await check();
      expect(p0).toBeLessThan(w0);
      expect(p1 - p0).toBeCloseTo(w1 - w0, 6);

      await page.click("#zoom-out");
      await page.click("#zoom-reset");
      expect(await check()).toEqual([0, GANTT_WIDTH]);
      expect(await axisTimes()).toEqual(before);
      expect(problems).toEqual([]);
    },
  );

  it.skipIf(!hasChromium)("shows the plots and the Gantt without JavaScript", async () => {
    const context = await (browser as Browser).newContext({ javaScriptEnabled: false });
    try {
      const bare = await context.newPage();
      await bare.goto(url, { waitUntil: "load" });
      expect(await bare.locator("figure.plot-figure g.series polyline.line").count()).toBe(
        METRICS.length * LABELS.length,
      );
      expect(await bare.locator("#gantt-bars rect.bar").count()).toBe(
        await page.locator("#gantt-bars rect.bar").count(),
      );
      expect(await bare.locator("#gantt-axis text").count()).toBeGreaterThanOrEqual(3);
      expect(await bare.isVisible("#zoom-controls")).toBe(false);
    } finally {
      await context.close();
    }
  });
});

/** A report of `dir` opened in a fresh page of the shared browser, with its errors collected. */
async function openReport(
  dir: string,
  ...args: string[]
): Promise<{ page: Page; errors: string[] }> {
  const out = join(dir, "report.html");
  const r = await cli("report", dir, "--out", out, ...args);
  expect(r.code, r.stderr).toBe(0);
  const p = await (browser as Browser).newPage({ viewport: { width: 1240, height: 900 } });
  const errors: string[] = [];
  p.on("console", (m) => m.type() === "error" && errors.push(m.text()));
  p.on("pageerror", (e) => errors.push(e.message));
  await p.goto(pathToFileURL(out).href, { waitUntil: "load" });
  return { page: p, errors };
}

describe("an aggregated Gantt chart (more bars than the chart can draw) in Chromium", () => {
  let big: Page;
  let bigTrace: ScheduleTrace;
  const errors: string[] = [];
  beforeAll(async () => {
    if (!hasChromium) return;
    const dir = await tempDir();
    const doc = {
      name: "big",
      workload: { type: "synthetic", jobs: 20000, load: 0.7 },
      platform: { procs: 32 },
      schedulers: ["easy"],
      seeds: 1,
    };
    const sweep = await cli("sweep", await writeExperiment(doc), "--out", dir, "--quiet");
    expect(sweep.code, sweep.stderr).toBe(0);
    const plan = await readPlan(dir, "report");
    bigTrace = await simulateTask(
      plan,
      planTasks(plan)[0] as NonNullable<ReturnType<typeof planTasks>[0]>,
    );
    const opened = await openReport(dir);
    big = opened.page;
    errors.push(...opened.errors);
  }, 120_000);

  it.skipIf(!hasChromium)(
    "shows the binned chart, re-bins the zoomed window as the writer would, then draws the bars",
    async () => {
      const {
        ganttLayout,
        ganttRows,
        GANTT_COLUMNS,
        GANTT_WIDTH: W,
        HEAT_COLORS,
      } = await import("../src/report/gantt.js");
      const { pageKit } = await import("../src/report/page-kit.js");
      expect(await big.getAttribute(".gantt", "data-mode")).toBe("heat");
      expect(await big.locator("#gantt-heat path.heat").count()).toBe(HEAT_COLORS.length);
      expect(await big.locator("#gantt-bars rect.bar").count()).toBe(0);
      expect(await big.isVisible(".heat-legend")).toBe(true);

      // Zoom in: the visible half is re-binned by the page with the writer's own code.
      await big.click("#zoom-in");
      const box = ((await big.getAttribute("#gantt-bars", "viewBox")) ?? "").split(" ").map(Number);
      const [v0, , vw] = box as [number, number, number];
      const layout = ganttLayout(bigTrace);
      const rows = ganttRows(layout);
      const kit = pageKit();
      const a = layout.t0 + (v0 / W) * (layout.t1 - layout.t0);
      const b = layout.t0 + ((v0 + vw) / W) * (layout.t1 - layout.t0);
      const bars = layout.bars.flatMap((x) => [x.start, x.end, x.lane, x.lanes]);
      expect(kit.exactFits(bars, a, b, W, 4000)).toBe(false);
      const laneH = Math.min(14, Math.max(0.25, 480 / Math.max(1, layout.lanes)));
      const want = kit
        .heatPaths(
          kit.heatBins(
            bars,
            rows.map((r) => r.lane),
            rows.map((r) => r.lanes),
            a,
            b,
            GANTT_COLUMNS,
          ),
          rows.map((r) => r.lane * laneH),
          rows.map((r) => r.lanes * laneH),
          GANTT_COLUMNS,
          W,
          HEAT_COLORS.length,
        )
        .filter((d) => d !== "");
      const got = await big
        .locator("#gantt-zoomed path.heat")
        .evaluateAll((ps) => ps.map((p) => p.getAttribute("d")));
      expect(got).toEqual(want);
      expect(
        await big
          .locator("#gantt-heat")
          .evaluate((g) => (g as unknown as { style: { display: string } }).style.display),
      ).toBe("none");

      // Zoom in until the bars fit: the page then draws exactly the bars of the window.
      for (let i = 0; i < 12 && (await big.locator("#gantt-zoomed rect.bar").count()) === 0; i++) {
        await big.click("#zoom-in");
      }
      const [w0, , ww] = ((await big.getAttribute("#gantt-bars", "viewBox")) ?? "")
        .split(" ")
        .map(Number) as [number, number, number];
      const c = layout.t0 + (w0 / W) * (layout.t1 - layout.t0);
      const d = layout.t0 + ((w0 + ww) / W) * (layout.t1 - layout.t0);
      const visible = layout.bars.filter((x) => x.end >= c && x.start <= d);
      const drawn = await big.locator("#gantt-zoomed rect.bar > title").allTextContents();
      expect(drawn.length).toBe(visible.length);
      expect(new Set(drawn.map((t) => /^job (\S+):/.exec(t)?.[1]))).toEqual(
        new Set(visible.map((x) => x.job)),
      );

      // The readout names the machine and the busy fraction under the pointer.
      const chart = await big.locator("#gantt-bars").boundingBox();
      if (chart === null) throw new Error("no chart");
      await big.mouse.move(chart.x + chart.width / 2, chart.y + 5);
      expect(await big.textContent("#gantt-readout")).toMatch(
        /^m0 at [\d.]+k? (s|min|h|d): \d+% busy$/,
      );
      await big.click("#zoom-reset");
      expect(await big.locator("#gantt-zoomed > *").count()).toBe(0);
      expect(errors).toEqual([]);
    },
  );
});

describe("a reproduction's report: the paper's figures in Chromium", () => {
  let fig: Page;
  const errors: string[] = [];
  beforeAll(async () => {
    if (!hasChromium) return;
    const dir = await tempDir();
    const r = await cli("reproduce", "elo", "--quick", "--out", dir, "--quiet", "--jobs", "1");
    expect(r.code, r.stderr).toBe(0);
    const opened = await openReport(dir, "--no-gantt");
    fig = opened.page;
    errors.push(...opened.errors);
  }, 120_000);

  it.skipIf(!hasChromium)(
    "draws Fig. 3 full width, with the paper's series names, and a verdict per claim",
    async () => {
      const section = fig.locator("section.paper-figure");
      expect(await section.count()).toBe(1);
      expect(await section.getAttribute("data-figure")).toBe("Fig. 3");
      expect(await section.locator(".legend li").allTextContents()).toEqual([
        "competitive",
        "Min-Min",
        "random",
      ]);
      // Two grid points (--quick: 10 and 60 jobs), a bar per series at each.
      expect(await section.locator("rect.bar").count()).toBe(6);
      const svg = await section.locator("svg.plot").boundingBox();
      const body = await fig.locator("body").boundingBox();
      expect(svg?.width ?? 0).toBeGreaterThan(0.9 * (body?.width ?? 1));
      expect(await section.locator("figcaption strong").textContent()).toMatch(
        /^Fig\. 3\. Comparison on total job execution time/,
      );
      const claims = section.locator("li.claim");
      expect(await claims.count()).toBe(2);
      for (const text of await claims.allTextContents()) {
        expect(text).toMatch(
          /In this run: (holds at every one of the 2 points|holds at 1 of 2 points|does not hold \(0 of 2 points\))/,
        );
      }
      expect(errors).toEqual([]);
    },
  );
});
