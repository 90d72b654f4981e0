import type { ScheduleTrace } from "@sched/core";
import type { Experiment } from "../experiments/experiment.js";
import type { ComparisonRow } from "../sweep/compare.js";
import type { RunRecord, RunTiming } from "../sweep/execute.js";
import { formatValue, type MetricInfo, metricInfo } from "../sweep/metrics.js";
import { planParameterRows } from "../sweep/parameter-notes.js";
import type { SweepPlan } from "../sweep/plan.js";
import { planMetricInfos } from "../sweep/plan-metrics.js";
import type { ResultRow, RunFailure } from "../sweep/results.js";
import { escapeHtml } from "./escape.js";
import { paperFiguresHtml } from "./figures.js";
import { ganttHtml } from "./gantt.js";
import { linePlot, type PlotPoint, type PlotSeries } from "./plot.js";
import { ZOOM_SCRIPT } from "./zoom-script.js";

const STYLE = `
body { font: 15px/1.5 system-ui, sans-serif; color: #222; max-width: 1200px; margin: 2em auto; padding: 0 1.5em; }
h1 { font-size: 1.6em; } h2 { font-size: 1.25em; margin-top: 2.2em; border-bottom: 1px solid #ddd; }
figure { margin: 1.5em 0 2.5em; } svg.plot { display: block; width: 100%; height: auto; }
figcaption { margin-top: 0.3em; }
.legend { list-style: none; padding: 0; display: flex; flex-wrap: wrap; gap: 0.3em 1.4em; margin: 0.3em 0 0.2em 76px; }
.legend li { display: flex; align-items: center; gap: 0.35em; }
.claims { list-style: none; padding: 0; margin: 0.5em 0 0; }
.claim { margin: 0.25em 0; padding: 0.3em 0.6em; border-left: 4px solid #999; background: #f7f7f7; }
.claim .mark { font-weight: bold; } .claim .verdict { font-weight: 600; }
.claim.holds { border-color: #009E73; } .claim.holds .mark { color: #009E73; }
.claim.partly { border-color: #E69F00; } .claim.partly .mark { color: #B07800; }
.claim.fails { border-color: #D55E00; } .claim.fails .mark { color: #D55E00; }
table { border-collapse: collapse; font-variant-numeric: tabular-nums; }
td, th { padding: 0.15em 0.6em; border-bottom: 1px solid #eee; text-align: right; }
td.name, th.name { text-align: left; } td.best { font-weight: bold; }
.gantt { margin: 0.5em 0 1em; }
.gantt-grid { display: grid; grid-template-columns: 64px minmax(0, 1fr); }
.gantt svg { display: block; } .gantt-yaxis, .gantt-uaxis, #gantt-axis { overflow: visible; }
#gantt-bars, #gantt-util { cursor: grab; background: #fafafa; }
.axis-label { text-align: center; font-size: 12px; }
.heat-legend { display: flex; align-items: center; gap: 1em; margin: 0.6em 0 0 52px; }
.note { color: #555; } .warning { color: #a00; font-weight: bold; }
code { font-size: 0.95em; }
`;

/** What the report shows about the chosen run. */
export interface ReportRun {
  readonly key: string;
  readonly trace?: ScheduleTrace;
  /** Why there is no trace (the run could not be simulated again). */
  readonly error?: string;
  /** Lines about the re-simulation (e.g. whether it matches the stored metrics). */
  readonly notes: readonly string[];
}

/** Everything the report page shows. */
export interface ReportInput {
  readonly plan: SweepPlan;
  /**
   * The registry experiment the plan runs, for its paper figures (`Experiment.figures`).
   * @defaultValue none (an experiment file's own workload)
   */
  readonly experiment?: Experiment;
  /** The finished runs (for the paper figures' summaries). @defaultValue none */
  readonly records?: readonly RunRecord[];
  /** Their wall-clock blocks, by key (for figures of timing metrics). @defaultValue none */
  readonly timings?: ReadonlyMap<string, RunTiming>;
  /**
   * `timing.csv`'s rows, for figures of timing metrics when the runs have no timing blocks (a
   * folder read from `runs.csv` without `runs-timing.csv`). @defaultValue none
   */
  readonly timingRows?: readonly ResultRow[];
  readonly rows: readonly ResultRow[];
  readonly comparison: readonly ComparisonRow[];
  readonly finished: number;
  readonly failures: readonly RunFailure[];
  readonly run: ReportRun | undefined;
  readonly version: string;
}

/**
 * The index of the swept parameter the plots use as x: the first one whose values are all numbers
 * (the others, switches and choices among them, label the lines); -1 when there is none.
 */
export function plotAxis(plan: SweepPlan): number {
  return plan.params.findIndex((_, i) => plan.points.every((p) => typeof p[i] === "number"));
}

/**
 * The plot series of one metric: a line per scheduler (and value of the other parameters); a
 * percent metric's fractions as percentages.
 */
export function metricSeries(
  plan: SweepPlan,
  rows: readonly ResultRow[],
  metric: string,
  info?: MetricInfo,
): PlotSeries[] {
  const scale = info?.percent === true ? 100 : 1;
  const series = new Map<string, PlotPoint[]>();
  const x = plotAxis(plan);
  for (const r of rows) {
    if (r.metric !== metric || r.runs === 0) continue;
    const rest = plan.params.flatMap((p, i) => (i === x ? [] : [`${p}=${r.point[i]}`]));
    const label = rest.length > 0 ? `${r.scheduler}, ${rest.join(", ")}` : r.scheduler;
    const list = series.get(label) ?? [];
    list.push({
      x: x < 0 ? 0 : (r.point[x] as number),
      mean: r.mean * scale,
      ci95: r.ci95 * scale,
      runs: r.runs,
    });
    series.set(label, list);
  }
  return [...series.entries()].map(([label, points]) => ({ label, points }));
}

function comparisonTable(plan: SweepPlan, rows: readonly ComparisonRow[]): string {
  const infos = planMetricInfos(plan);
  const head = [
    ...plan.params.map((p) => `<th>${escapeHtml(p)}</th>`),
    `<th class="name">scheduler</th>`,
    ...infos.map((m) => `<th>${escapeHtml(m.title)}</th>`),
    "<th>runs</th>",
  ].join("");
  const body = rows
    .map((r) => {
      const cells = r.cells.map((c, j) => {
        const text = formatValue(infos[j] as MetricInfo, c);
        return `<td${c.best ? ' class="best"' : ""}>${escapeHtml(text)}</td>`;
      });
      return `<tr>${r.point.map((v) => `<td>${v}</td>`).join("")}<td class="name">${escapeHtml(r.scheduler)}</td>${cells.join("")}<td>${Math.min(...r.cells.map((c) => c.runs))}</td></tr>`;
    })
    .join("\n");
  return `<table id="comparison-table"><thead><tr>${head}</tr></thead><tbody>\n${body}\n</tbody></table>`;
}

/**
 * The report: one self-contained HTML page (inline style and script, inline SVG, no network):
 * the experiment's description; for a registry experiment that declares them, the paper's
 * figures with its claims and their verdicts (`figures.ts`); a full-width plot per other metric
 * against the first swept parameter (a line per scheduler, told apart by colour, dash pattern and
 * marker, with 95% CI error bars), or bars when there is no numeric axis; the parameters; the
 * comparison table (in bold, per point, every scheduler not significantly worse than the best);
 * failures; and the chosen run's Gantt chart with its utilization strip (`gantt.ts`). All text
 * is escaped. Deterministic.
 */
export function reportHtml(input: ReportInput): string {
  const { plan } = input;
  const total = plan.points.length * plan.seeds.length * plan.schedulers.length;
  const x = plan.params[plotAxis(plan)] ?? "(one point)";
  const parts: string[] = [];
  parts.push(
    "<!doctype html>",
    '<html lang="en"><head><meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(`sched-sim report: ${plan.name}`)}</title>`,
    `<style>${STYLE}</style></head><body>`,
    `<h1>${escapeHtml(plan.title)}</h1>`,
    plan.description === "" ? "" : `<p>${escapeHtml(plan.description)}</p>`,
    `<p class="note">Experiment <code>${escapeHtml(plan.name)}</code>: ${plan.points.length} grid point${plan.points.length === 1 ? "" : "s"}${plan.params.length > 0 ? ` (${escapeHtml(plan.params.join(" x "))})` : ""} x ${plan.seeds.length} seed${plan.seeds.length === 1 ? "" : "s"} x ${plan.schedulers.length} scheduler${plan.schedulers.length === 1 ? "" : "s"} = ${total} runs; ${input.finished} finished, ${input.failures.length} failed. Means with Student-t 95% confidence intervals over seeds.</p>`,
  );
  if (input.experiment !== undefined) {
    parts.push(
      paperFiguresHtml({
        plan,
        experiment: input.experiment,
        records: input.records ?? [],
        timings: input.timings ?? new Map(),
        ...(input.timingRows === undefined ? {} : { timingRows: input.timingRows }),
      }),
    );
  }
  // Metrics a paper figure already draws against the same axis are not drawn twice.
  const drawn = new Set(
    (input.experiment?.figures ?? [])
      .filter((f) => f.timing !== true && f.x.param === x)
      .flatMap((f) => [f.metric, ...(f.series ?? []).flatMap((s) => s.metric ?? [])]),
  );
  const rest = plan.metrics.filter((m) => !drawn.has(m));
  if (rest.length > 0) {
    const none = plotAxis(plan) < 0;
    parts.push(
      `<h2 id="metrics">${drawn.size > 0 ? "Other metrics" : "Metrics"}</h2>`,
      none
        ? '<p class="note">A bar per scheduler (one grid point); error bars: 95% confidence intervals.</p>'
        : `<p class="note">Each metric against ${escapeHtml(x)}${plan.schedulers.length > 1 ? ", a line per scheduler (colour, dash pattern and marker tell them apart)" : ""}; error bars: 95% confidence intervals.</p>`,
      '<div class="plots">',
    );
    for (const metric of rest) {
      const info = metricInfo(metric, input.experiment);
      const yLabel = info.percent === true ? `${info.title} (%)` : info.title;
      parts.push(
        linePlot({
          id: metric,
          title: none ? info.title : `${info.title} against ${x}`,
          xLabel: x,
          yLabel,
          series: metricSeries(plan, input.rows, metric, info),
          ...(none ? { kind: "bar" as const, xLabels: { "0": plan.name } } : {}),
        }),
      );
    }
    parts.push("</div>");
  }
  const parameters = planParameterRows(plan);
  if (parameters.length > 0) {
    parts.push(
      '<h2 id="parameters">Parameters</h2>',
      '<p class="note">Every parameter of the experiment as this run used it (bold: swept, or not the default).</p>',
      '<table class="params"><thead><tr><th>name</th><th>value</th><th>default</th><th>meaning</th><th>source</th></tr></thead><tbody>',
      ...parameters.map((r) => {
        const cell = (t: string) => (r.changed ? `<b>${escapeHtml(t)}</b>` : escapeHtml(t));
        return `<tr><td><code>${cell(r.name)}</code></td><td>${cell(r.value)}</td><td>${escapeHtml(r.default)}</td><td>${escapeHtml(r.meaning)}</td><td>${escapeHtml(r.source)}</td></tr>`;
      }),
      "</tbody></table>",
    );
  }
  parts.push('<h2 id="comparison">Comparison</h2>', comparisonTable(plan, input.comparison));
  parts.push(
    '<p class="note">Bold: at each point and for each metric, the best mean, and every scheduler whose 95% interval overlaps the best one\'s (not significantly worse): ties are shown as ties.</p>',
  );
  if (input.failures.length > 0) {
    parts.push(
      '<h2 id="failures">Failed runs</h2><ul>',
      ...input.failures.map(
        (f) => `<li><code>${escapeHtml(f.key)}</code>: ${escapeHtml(f.error)}</li>`,
      ),
      "</ul>",
    );
  }
  const run = input.run;
  if (run !== undefined) {
    parts.push(`<h2 id="gantt">Run <code>${escapeHtml(run.key)}</code></h2>`);
    for (const n of run.notes) parts.push(`<p class="note">${escapeHtml(n)}</p>`);
    if (run.trace !== undefined) {
      parts.push(ganttHtml(run.trace));
    } else {
      parts.push(
        `<p class="warning">No Gantt chart: ${escapeHtml(run.error ?? "the run could not be simulated")}</p>`,
      );
    }
  }
  parts.push(
    `<p class="note">Generated by sched-sim ${escapeHtml(input.version)}.</p>`,
    `<script>${ZOOM_SCRIPT}</script>`,
    "</body></html>",
  );
  return `${parts.filter((p) => p !== "").join("\n")}\n`;
}
