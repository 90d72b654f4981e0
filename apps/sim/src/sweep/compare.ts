import type { ParamValue } from "../experiments/parameters.js";
import { fixed, type JsonValue, renderTable, stableJson, toCsv } from "../format.js";
import type { Summary } from "../stats.js";
import { type MetricInfo, metricInfo } from "./metrics.js";
import type { SweepPlan } from "./plan.js";
import type { ResultRow } from "./results.js";

/** One row of a comparison: a scheduler at a grid point, a summary and a best flag per metric. */
export interface ComparisonRow {
  readonly point: readonly ParamValue[];
  readonly scheduler: string;
  readonly cells: readonly (Summary & { readonly best: boolean })[];
}

/**
 * Regroup `rows` (from `summarizeSweep`) as points x schedulers and mark, at each point and for
 * each metric, the best mean among the schedulers (lowest, or highest for metrics where higher
 * is better; every tied scheduler is marked; metrics with no direction, and NaN means, never).
 * `metrics`: the metrics compared, in order (the plan's, or the timing metrics of `timing.csv`).
 */
export function comparisonRows(
  plan: SweepPlan,
  rows: readonly ResultRow[],
  metrics: readonly MetricInfo[] = plan.metrics.map(metricInfo),
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
    const bests = metrics.map((m, j) => {
      const better = m.better;
      const means = group.map((g) => (g.summaries[j] as Summary).mean).filter(Number.isFinite);
      if (better === "none" || means.length === 0) return Number.NaN;
      return better === "lower" ? Math.min(...means) : Math.max(...means);
    });
    for (const g of group) {
      out.push({
        point,
        scheduler: g.scheduler,
        cells: g.summaries.map((s, j) => ({ ...s, best: s.mean === bests[j] })),
      });
    }
  }
  return out;
}

/** Output formats of `compare`. */
export const COMPARE_FORMATS = ["table", "csv", "json", "markdown"] as const;
/** One of {@link COMPARE_FORMATS}. */
export type CompareFormat = (typeof COMPARE_FORMATS)[number];

function cellText(c: Summary, digits: number): string {
  if (c.runs === 0) return "-";
  return Number.isFinite(c.ci95)
    ? `${fixed(c.mean, digits)} ± ${fixed(c.ci95, digits)}`
    : fixed(c.mean, digits);
}

function legend(infos: readonly MetricInfo[]): string {
  const lower = infos.filter((m) => m.better === "lower").map((m) => m.key);
  const higher = infos.filter((m) => m.better === "higher").map((m) => m.key);
  const parts = [
    lower.length > 0 ? `lower is better for ${lower.join(", ")}` : "",
    higher.length > 0 ? `higher is better for ${higher.join(", ")}` : "",
  ].filter((p) => p !== "");
  return `best at each point marked (${parts.join("; ")}); mean ± 95% CI half-width (Student t) over seeds`;
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
  infos: readonly MetricInfo[] = plan.metrics.map(metricInfo),
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
            (c, j) =>
              `${cellText(c, (infos[j] as { digits: number }).digits)} ${c.best ? "*" : " "}`,
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
                const t = cellText(c, (infos[j] as { digits: number }).digits);
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
