import type {
  ClaimCheck,
  Experiment,
  ExperimentFigure,
  FigureResults,
  FigureSeries,
} from "../experiments/experiment.js";
import { type ParamValue, paramText } from "../experiments/parameters.js";
import { type Summary, summarize } from "../stats.js";
import type { RunRecord, RunTiming } from "../sweep/execute.js";
import type { SweepPlan } from "../sweep/plan.js";
import { type ResultRow, timingValue } from "../sweep/results.js";
import { escapeHtml } from "./escape.js";
import { linePlot, type PlotSeries } from "./plot.js";

/** What {@link paperFiguresHtml} draws from. */
export interface FiguresInput {
  readonly plan: SweepPlan;
  readonly experiment: Experiment;
  /** Finished runs (any order). */
  readonly records: readonly RunRecord[];
  /** The wall-clock block of each run, by key (for figures of timing metrics). */
  readonly timings: ReadonlyMap<string, RunTiming>;
  /**
   * `timing.csv`'s summaries, for figures of timing metrics when the runs' timing blocks are gone
   * (a folder read from `runs.csv` without `runs-timing.csv`): a figure's point is one grid point, so its summary is the
   * row's. @defaultValue none (summaries of {@link FiguresInput.timings})
   */
  readonly timingRows?: readonly ResultRow[];
}

/** A claim's verdict: its class on the page, its words, and the numbers behind them. */
export interface Verdict {
  readonly kind: "holds" | "partly" | "fails" | "unknown";
  /** "holds at every one of the 7 points", "holds at 5 of 7 points", "does not hold (0 of 7 points)", "cannot be checked". */
  readonly text: string;
  /** Where it fails, or why it cannot be checked. */
  readonly detail?: string;
}

/** How a {@link ClaimCheck} reads. */
export function verdictOf(c: ClaimCheck): Verdict {
  const unit = c.of === 1 ? c.unit.replace(/s$/, "") : c.unit;
  const detail = c.detail === undefined ? {} : { detail: c.detail };
  if (c.of === 0) return { kind: "unknown", text: "cannot be checked", ...detail };
  if (c.held === c.of) {
    return {
      kind: "holds",
      text: `holds at ${c.of === 1 ? "the only" : `every one of the ${c.of}`} ${unit}`,
      ...detail,
    };
  }
  if (c.held === 0) {
    return { kind: "fails", text: `does not hold (0 of ${c.of} ${unit})`, ...detail };
  }
  return { kind: "partly", text: `holds at ${c.held} of ${c.of} ${unit}`, ...detail };
}

/** One panel of a figure: the values of the grid axes other than x (empty: the only panel). */
interface Panel {
  readonly fixed: ReadonlyMap<string, ParamValue>;
}

function panelsOf(plan: SweepPlan, x: string): Panel[] {
  const others = plan.params.filter((p) => p !== x);
  const seen = new Map<string, Panel>();
  for (const point of plan.points) {
    const fixed = new Map<string, ParamValue>();
    for (const p of others) fixed.set(p, point[plan.params.indexOf(p)] as ParamValue);
    const key = JSON.stringify([...fixed]);
    if (!seen.has(key)) seen.set(key, { fixed });
  }
  return [...seen.values()];
}

/** The results of one panel, as claims and the plot read them (summaries computed on demand). */
function panelResults(
  input: FiguresInput,
  figure: ExperimentFigure,
  series: readonly FigureSeries[],
  panel: Panel,
): FigureResults {
  const { plan, records, timings } = input;
  const xParam = figure.x.param;
  const xs = [...new Set(plan.points.map((p) => p[plan.params.indexOf(xParam)] as ParamValue))];
  const byKey = new Map<string, RunRecord[]>();
  for (const r of records) {
    if ([...panel.fixed].some(([p, v]) => r.params[p] !== v)) continue;
    const key = JSON.stringify([r.scheduler, r.params[xParam]]);
    const list = byKey.get(key) ?? [];
    list.push(r);
    byKey.set(key, list);
  }
  const cache = new Map<string, Summary | undefined>();
  const stored = (scheduler: string, x: ParamValue, metric: string): Summary | undefined => {
    const row = input.timingRows?.find(
      (r) =>
        r.scheduler === scheduler &&
        r.metric === metric &&
        plan.params.every((p, i) => r.point[i] === (p === xParam ? x : panel.fixed.get(p))),
    );
    return row === undefined || row.runs === 0 ? undefined : row;
  };
  const value = (scheduler: string, x: ParamValue, metric = figure.metric) => {
    const key = JSON.stringify([scheduler, x, metric]);
    if (!cache.has(key) && figure.timing === true && input.timingRows !== undefined) {
      cache.set(key, stored(scheduler, x, metric));
    } else if (!cache.has(key)) {
      const runs = byKey.get(JSON.stringify([scheduler, x])) ?? [];
      const values = runs.map((r) =>
        figure.timing === true
          ? timingValue(r, timings.get(r.key), metric)
          : (r.metrics[metric] ?? Number.NaN),
      );
      cache.set(key, runs.length === 0 ? undefined : summarize(values));
    }
    return cache.get(key);
  };
  const labels = new Set(records.map((r) => r.scheduler));
  // A claim names a policy by the series that plots the figure's metric: a label drawn twice
  // (oas-slots: the plan at its slots and the MIP's objective) keeps that series' name.
  const names = new Map<string, string>();
  for (const s of series) {
    const own = s.metric === undefined || s.metric === figure.metric;
    if (own || !names.has(s.label)) names.set(s.label, s.name ?? s.label);
  }
  const fixed = plan.source.kind === "registry" ? plan.source.parameters : {};
  const self: FigureResults = {
    xs,
    schedulers: plan.schedulers.map((s) => s.label).filter((l) => labels.has(l)),
    value,
    name: (s) => names.get(s) ?? s,
    at: (x) => `${figure.x.short ?? xParam} = ${figure.x.ticks?.[String(x)] ?? paramText(x)}`,
    param: (name) =>
      name === xParam
        ? undefined
        : (panel.fixed.get(name) ?? (Object.hasOwn(fixed, name) ? fixed[name] : undefined)),
    across: (axis) => {
      if (axis === xParam || !panel.fixed.has(axis)) return [];
      const values = [...new Set(plan.points.map((p) => p[plan.params.indexOf(axis)]))];
      const ordered = values.every((v) => typeof v === "number")
        ? [...values].sort((a, b) => (a as number) - (b as number))
        : values;
      return ordered.map((v) => {
        if (v === panel.fixed.get(axis)) return self;
        const other = new Map(panel.fixed);
        other.set(axis, v as ParamValue);
        return panelResults(input, figure, series, { fixed: other });
      });
    },
  };
  return self;
}

function claimsHtml(figure: ExperimentFigure, results: FigureResults): string {
  if (figure.claims === undefined || figure.claims.length === 0) return "";
  const items = figure.claims.map((c) => {
    let verdict: Verdict;
    try {
      verdict = verdictOf(c.check(results));
    } catch (error) {
      verdict = {
        kind: "unknown",
        text: "cannot be checked",
        detail: error instanceof Error ? error.message : String(error),
      };
    }
    const mark = { holds: "✓", partly: "◐", fails: "✗", unknown: "?" }[verdict.kind];
    return `<li class="claim ${verdict.kind}"><span class="mark" aria-hidden="true">${mark}</span> <span class="claim-text">${escapeHtml(c.text)}</span> <span class="source">(${escapeHtml(c.source)})</span>. <span class="verdict">In this run: ${escapeHtml(verdict.text)}</span>${verdict.detail === undefined ? "" : `; ${escapeHtml(verdict.detail)}`}.</li>`;
  });
  return `<ul class="claims">${items.join("")}</ul>`;
}

/**
 * The paper's figures of a registry experiment, as it declares them (`Experiment.figures`):
 * each drawn with the paper's axes, caption and series names from the runs in `records` (a
 * panel per combination of the other grid axes' values), with the paper's claims about it and,
 * for each, whether it holds in these results. Figures whose x parameter is not on this run's
 * grid are named with the reason. Empty when the experiment declares none.
 */
export function paperFiguresHtml(input: FiguresInput): string {
  const { plan, experiment } = input;
  const figures = experiment.figures ?? [];
  if (figures.length === 0) return "";
  const out: string[] = [
    '<h2 id="figures">The paper\'s figures</h2>',
    `<p class="note">Each figure as the paper draws it (its axes, series and caption), from this run's results: means with 95% confidence intervals over ${plan.seeds.length} seed${plan.seeds.length === 1 ? "" : "s"}. Under each, the paper's claims about it and whether they hold here, judged on the means.</p>`,
  ];
  const planLabels = new Set(plan.schedulers.map((s) => s.label));
  figures.forEach((figure, f) => {
    if (!plan.params.includes(figure.x.param)) {
      out.push(
        `<p class="note figure-missing">${escapeHtml(figure.id)} (${escapeHtml(figure.caption)}) needs ${escapeHtml(figure.x.param)} on the grid; this run's grid is ${escapeHtml(plan.params.join(" x ") || "one point")}.</p>`,
      );
      return;
    }
    const declared: readonly FigureSeries[] =
      figure.series ?? plan.schedulers.map((s) => ({ label: s.label }));
    const series = declared.filter((s) => planLabels.has(s.label));
    const absent = declared.filter((s) => !planLabels.has(s.label)).map((s) => s.name ?? s.label);
    const panels = panelsOf(plan, figure.x.param);
    panels.forEach((panel, p) => {
      const results = panelResults(input, figure, series, panel);
      const plotted: PlotSeries[] = series.map((s) => ({
        label: s.metric === undefined ? s.label : `${s.label}:${s.metric}`,
        name: s.name ?? s.label,
        points: results.xs.flatMap((x) => {
          const v = results.value(s.label, x, s.metric);
          return v === undefined || typeof x !== "number"
            ? []
            : [{ x, mean: v.mean, ci95: v.ci95, runs: v.runs }];
        }),
      }));
      const where = [...panel.fixed].map(([k, v]) => `${k} = ${paramText(v)}`).join(", ");
      const notes = [
        where === "" ? "" : ` <span class="panel">Panel: ${escapeHtml(where)}.</span>`,
        absent.length === 0
          ? ""
          : ` <span class="note">Not in this run: ${escapeHtml(absent.join(", "))}.</span>`,
        figure.timing === true
          ? ' <span class="note">Wall clock: differs between executions and machines (timing.csv).</span>'
          : "",
        plotted.every((s) => s.points.every((q) => !Number.isFinite(q.mean)))
          ? ` <span class="note figure-empty">No data: no finished run read has ${escapeHtml([...new Set(series.map((s) => s.metric ?? figure.metric))].join(", "))}.</span>`
          : "",
      ].join("");
      out.push(
        `<section class="paper-figure" data-figure="${escapeHtml(figure.id)}">`,
        linePlot({
          id: `fig${f}-${p}-${figure.metric}`,
          title: `${figure.id}. ${figure.caption}`,
          xLabel: figure.x.label,
          yLabel: figure.y.label,
          kind: figure.kind ?? "line",
          yScale: figure.y.scale ?? "linear",
          ...(figure.y.min === undefined ? {} : { yMin: figure.y.min, yZero: false }),
          ...(figure.y.max === undefined ? {} : { yMax: figure.y.max }),
          ...(figure.x.ticks === undefined ? {} : { xLabels: figure.x.ticks }),
          series: plotted,
          captionHtml: `${notes}${claimsHtml(figure, results)}`,
        }),
        "</section>",
      );
    });
  });
  return out.join("\n");
}
