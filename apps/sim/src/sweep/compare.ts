import type { ParamValue } from "../experiments/parameters.js";
import { type JsonValue, renderTable, stableJson, toCsv } from "../format.js";
import type { Summary } from "../stats.js";
import { formatValue, type MetricInfo } from "./metrics.js";
import type { SweepPlan } from "./plan.js";
import { planMetricInfos } from "./plan-metrics.js";
import type { ResultRow } from "./results.js";

/** One row of a comparison: a scheduler at a grid point, a summary and a best flag per metric. */
export interface ComparisonRow {
  readonly point: readonly ParamValue[];
  readonly scheduler: string;
  readonly cells: readonly (Summary & { readonly best: boolean })[];
}

/**
 * Whether `c` is not significantly worse than `best`: the same mean, or 95% confidence
 * intervals that overlap (`|mean - best.mean| <= ci95 + best.ci95`; with fewer than two runs
 * there is no interval, and only an equal mean ties). Overlapping intervals do not prove two
 * means equal; they say the difference is not established, which is what a tie means here.
 */
export function tiesWith(c: Summary, best: Summary): boolean {
  if (c.mean === best.mean) return true;
  if (!Number.isFinite(c.ci95) || !Number.isFinite(best.ci95)) return false;
  return Math.abs(c.mean - best.mean) <= c.ci95 + best.ci95;
}

/**
 * Regroup `rows` (from `summarizeSweep`) as points x schedulers and mark, at each point and for
 * each metric, the best mean among the schedulers (lowest, or highest for metrics where higher
 * is better) and every scheduler tied with it ({@link tiesWith}: not significantly worse);
 * metrics with no direction, and NaN means, are never marked. `metrics`: the metrics compared,
 * in order (the plan's, or the timing metrics of `timing.csv`).
 */
export function comparisonRows(
  plan: SweepPlan,
  rows: readonly ResultRow[],
  metrics: readonly MetricInfo[] = planMetricInfos(plan),
): ComparisonRow[] {
  const find = (
    scheduler: string,
    point: readonly ParamValue[],
    metric: string,
  ): ResultRow | undefined =>
    rows.find(
      (r) =>
        r.scheduler === scheduler && r.metric === metric && r.point.every((v, i) => v === point[i]),
    );
  const out: ComparisonRow[] = [];
  for (const point of plan.points) {
    const group = plan.schedulers.map((s) => ({
      scheduler: s.label,
      summaries: metrics.map(
        (m) => find(s.label, point, m.key) ?? { mean: Number.NaN, ci95: Number.NaN, runs: 0 },
      ),
    }));
    const bests = metrics.map((m, j): Summary | undefined => {
      const cells = group
        .map((g) => g.summaries[j] as Summary)
        .filter((c) => Number.isFinite(c.mean));
      if (m.better === "none" || cells.length === 0) return undefined;
      const sign = m.better === "lower" ? 1 : -1;
      return cells.reduce((a, b) => (sign * b.mean < sign * a.mean ? b : a));
    });
    for (const g of group) {
      out.push({
        point,
        scheduler: g.scheduler,
        cells: g.summaries.map((s, j) => {
          const best = bests[j];
          return { ...s, best: best !== undefined && Number.isFinite(s.mean) && tiesWith(s, best) };
        }),
      });
    }
  }
  return out;
}

/** Output formats of `compare`. */
export const COMPARE_FORMATS = ["table", "csv", "json", "markdown"] as const;
/** One of {@link COMPARE_FORMATS}. */
export type CompareFormat = (typeof COMPARE_FORMATS)[number];

function legend(infos: readonly MetricInfo[]): string {
  const lower = infos.filter((m) => m.better === "lower").map((m) => m.key);
  const higher = infos.filter((m) => m.better === "higher").map((m) => m.key);
  const parts = [
    lower.length > 0 ? `lower is better for ${lower.join(", ")}` : "",
    higher.length > 0 ? `higher is better for ${higher.join(", ")}` : "",
  ].filter((p) => p !== "");
  return `best at each point marked, with every scheduler whose 95% interval overlaps the best's (a tie: not significantly worse) (${parts.join("; ")}); mean ± 95% CI half-width (Student t) over seeds`;
}

/**
 * Render a comparison in `format` (deterministic text, given deterministic rows). `infos`: the
 * metrics of the rows' cells (as given to {@link comparisonRows}); `note`: a line printed above
 * a table, after a markdown table's legend, and as `note` in json (not in csv), e.g. that the
 * numbers are wall clock.
 */
export function renderComparison(
  plan: SweepPlan,
  rows: readonly ComparisonRow[],
  format: CompareFormat,
  infos: readonly MetricInfo[] = planMetricInfos(plan),
  note?: string,
): string {
  const keys = infos.map((m) => m.key);
  switch (format) {
    case "table": {
      const table = renderTable(
        [
          ...plan.params.map((p) => ({ title: p, align: "right" as const })),
          { title: "scheduler", align: "left" },
          ...infos.map((m) => ({ title: `${m.title}  `, align: "right" as const })),
          { title: "runs", align: "right" },
        ],
        rows.map((r) => [
          ...r.point.map(String),
          r.scheduler,
          ...r.cells.map(
            (c, j) => `${formatValue(infos[j] as MetricInfo, c)} ${c.best ? "*" : " "}`,
          ),
          String(Math.min(...r.cells.map((c) => c.runs))),
        ]),
      );
      return `${note === undefined ? "" : `${note}\n`}${table}\n* ${legend(infos)}\n`;
    }
    case "markdown": {
      const header = [...plan.params, "scheduler", ...infos.map((m) => m.title), "runs"];
      const align = [...plan.params.map(() => "---:"), ":---", ...infos.map(() => "---:"), "---:"];
      const esc = (t: string): string => t.replaceAll("|", "\\|");
      const lines = [
        `| ${header.map(esc).join(" | ")} |`,
        `| ${align.join(" | ")} |`,
        ...rows.map(
          (r) =>
            `| ${[
              ...r.point.map(String),
              esc(r.scheduler),
              ...r.cells.map((c, j) => {
                const t = formatValue(infos[j] as MetricInfo, c);
                return c.best ? `**${t}**` : t;
              }),
              String(Math.min(...r.cells.map((c) => c.runs))),
            ].join(" | ")} |`,
        ),
      ];
      return `${lines.join("\n")}\n\nBold: ${legend(infos)}.${note === undefined ? "" : ` ${note}.`}\n`;
    }
    case "csv":
      return toCsv(
        [...plan.params, "scheduler", "metric", "mean", "ci95", "runs", "best"],
        rows.flatMap((r) =>
          r.cells.map((c, j) => [
            ...r.point,
            r.scheduler,
            keys[j] as string,
            c.mean,
            c.ci95,
            c.runs,
            c.best ? "true" : "false",
          ]),
        ),
      );
    case "json": {
      const doc: JsonValue = {
        experiment: plan.name,
        ...(note === undefined ? {} : { note }),
        params: [...plan.params],
        metrics: infos.map((m) => ({ key: m.key, title: m.title, better: m.better })),
        rows: rows.map((r) => {
          const params: Record<string, ParamValue> = {};
          plan.params.forEach((p, i) => {
            params[p] = r.point[i] as ParamValue;
          });
          const metrics: Record<string, JsonValue> = {};
          r.cells.forEach((c, j) => {
            metrics[keys[j] as string] = {
              mean: c.mean,
              ci95: c.ci95,
              runs: c.runs,
              best: c.best,
            };
          });
          return { params, scheduler: r.scheduler, metrics };
        }),
      };
      return stableJson(doc);
    }
  }
}
