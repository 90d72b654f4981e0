import { coord, escapeHtml, niceTicks, tickLabel } from "./escape.js";
import { legendSample, markerSvg, patternDefs, seriesStyle } from "./marks.js";

/** One point of a series: a mean, its 95% CI half-width (NaN: none) and the runs behind it. */
export interface PlotPoint {
  readonly x: number;
  readonly mean: number;
  readonly ci95: number;
  readonly runs?: number;
}

/** One line (or set of bars) of a plot. */
export interface PlotSeries {
  /** Identifies the series (the scheduler label): `data-label` of its group. */
  readonly label: string;
  /** What the legend shows. @defaultValue `label` */
  readonly name?: string;
  readonly points: readonly PlotPoint[];
}

/** What {@link linePlot} draws. */
export interface PlotSpec {
  readonly title: string;
  readonly xLabel: string;
  readonly yLabel: string;
  /** `data-metric` of the figure, e.g. the metric key; also prefixes the page-wide SVG ids. */
  readonly id: string;
  readonly series: readonly PlotSeries[];
  /**
   * `"line"`: a line per series through its means, error bars, markers; `"bar"`: a group of bars
   * per x value (for categorical x), hatched per series, with error bars.
   * @defaultValue "line"
   */
  readonly kind?: "line" | "bar";
  /**
   * `"auto"`: logarithmic when every mean is positive and the largest is more than 30 times the
   * smallest (so a policy that saturates does not flatten the others), linear otherwise.
   * @defaultValue "auto" (bars: "linear")
   */
  readonly yScale?: "auto" | "linear" | "log";
  /** Lowest value the linear y axis shows (it extends to the data). @defaultValue 0 when `yZero` */
  readonly yMin?: number;
  /** Highest value the linear y axis shows (it extends to the data). @defaultValue the data's */
  readonly yMax?: number;
  /** Whether the linear y axis includes 0. @defaultValue true */
  readonly yZero?: boolean;
  /** Tick labels of x values (keys: `String(x)`), e.g. `{ "1": "WL-1" }`. @defaultValue the numbers */
  readonly xLabels?: Readonly<Record<string, string>>;
  /** HTML (already escaped) added to the caption, after the title. @defaultValue none */
  readonly captionHtml?: string;
}

/** Drawing size of a plot, in SVG units (the SVG is scaled to the page's width). */
export const PLOT_WIDTH = 960;
const H = 400;
const M = { left: 76, right: 24, top: 18, bottom: 54 };
const finite = (v: number): boolean => Number.isFinite(v);

interface Scale {
  readonly ticks: readonly number[];
  readonly log: boolean;
  readonly px: (v: number) => number;
}

function yScaleOf(spec: PlotSpec): Scale {
  const bar = spec.kind === "bar";
  const ys = spec.series
    .flatMap((s) =>
      s.points.flatMap((p) => (finite(p.ci95) ? [p.mean - p.ci95, p.mean + p.ci95] : [p.mean])),
    )
    .filter(finite);
  const means = spec.series.flatMap((s) => s.points.map((p) => p.mean)).filter(finite);
  const mode = spec.yScale ?? (bar ? "linear" : "auto");
  const positive = ys.filter((v) => v > 0);
  const log =
    positive.length > 0 &&
    (mode === "log" ||
      (mode === "auto" &&
        means.length > 0 &&
        Math.min(...means) > 0 &&
        Math.max(...means) / Math.min(...means) > 30));
  let y0: number;
  let y1: number;
  let ticks: number[];
  if (log) {
    y0 = 10 ** Math.floor(Math.log10(Math.min(...positive)));
    y1 = 10 ** Math.ceil(Math.log10(Math.max(...positive)));
    if (y1 <= y0) y1 = y0 * 10;
    ticks = [];
    for (let e = Math.log10(y0); e <= Math.log10(y1) + 1e-9; e++) ticks.push(10 ** e);
  } else {
    const zero = spec.yZero ?? true;
    const lo = Math.min(
      ...ys,
      ...(spec.yMin === undefined ? [] : [spec.yMin]),
      zero ? 0 : Infinity,
    );
    const hi = Math.max(
      ...ys,
      ...(spec.yMax === undefined ? [] : [spec.yMax]),
      zero ? 0 : -Infinity,
    );
    y0 = finite(lo) ? lo : 0;
    y1 = finite(hi) ? hi : 1;
    if (y0 === y1)
      [y0, y1] = y0 === 0 ? [0, 1] : [y0 - Math.abs(y0) * 0.1, y1 + Math.abs(y1) * 0.1];
    ticks = niceTicks(y0, y1, 6);
    y0 = Math.min(y0, ticks[0] as number);
    y1 = Math.max(y1, ticks[ticks.length - 1] as number);
  }
  const frac = (y: number): number =>
    log
      ? (Math.log10(Math.max(y, y0)) - Math.log10(y0)) / (Math.log10(y1) - Math.log10(y0))
      : (y - y0) / (y1 - y0);
  return { ticks, log, px: (y) => H - M.bottom - frac(y) * (H - M.top - M.bottom) };
}

/** The x positions: numbers on a linear scale, or categories (bars) at equal spacing. */
function xScaleOf(spec: PlotSpec): Scale & { readonly band: number } {
  const xs = [...new Set(spec.series.flatMap((s) => s.points.map((p) => p.x)).filter(finite))].sort(
    (a, b) => a - b,
  );
  const width = PLOT_WIDTH - M.left - M.right;
  if (spec.kind === "bar" || spec.xLabels !== undefined) {
    const band = width / Math.max(1, xs.length);
    const index = new Map(xs.map((x, i) => [x, i]));
    return {
      ticks: xs,
      log: false,
      band,
      px: (x) => M.left + ((index.get(x) ?? 0) + 0.5) * band,
    };
  }
  let x0 = xs[0] ?? 0;
  let x1 = xs[xs.length - 1] ?? 1;
  if (x0 === x1) [x0, x1] = [x0 - 1, x1 + 1];
  const pad = (x1 - x0) * 0.04;
  const ticks = xs.length <= 12 ? xs : niceTicks(x0, x1, 8).filter((t) => t >= x0 && t <= x1);
  const px = (x: number): number => M.left + ((x - (x0 - pad)) / (x1 - x0 + 2 * pad)) * width;
  let gap = width;
  for (let i = 1; i < xs.length; i++)
    gap = Math.min(gap, px(xs[i] as number) - px(xs[i - 1] as number));
  return { ticks, log: false, band: gap, px };
}

/**
 * An inline SVG plot in a `<figure>`, scaled to the page's width: a line per series through its
 * means (each with its own colour, dash pattern and marker, so series are told apart without
 * colour; see `marks.ts`), 95% CI error bars with caps (and translucent bands when there are at
 * most three series), or grouped hatched bars; axes with round ticks and labels, grid lines, and a
 * legend showing each series' line and marker. Points of different series at the same x are
 * spread by a few units so that equal means and overlapping intervals stay visible. The y axis
 * is logarithmic as {@link PlotSpec.yScale} says ("(log scale)" in its label). Pure SVG
 * (readable without JavaScript); every series is a `<g class="series" data-label=…>`; every
 * point has a `<title>` with its numbers.
 */
export function linePlot(spec: PlotSpec): string {
  const kind = spec.kind ?? "line";
  const y = yScaleOf(spec);
  const x = xScaleOf(spec);
  const n = spec.series.length;
  const idPrefix = `p-${spec.id.replace(/[^A-Za-z0-9_-]/g, "_")}`;
  const xText = (v: number): string => spec.xLabels?.[String(v)] ?? tickLabel(v);
  const out: string[] = [];
  out.push(
    `<svg class="plot" viewBox="0 0 ${PLOT_WIDTH} ${H}" width="100%" preserveAspectRatio="xMidYMid meet" role="img" aria-label="${escapeHtml(spec.title)}">`,
  );
  if (kind === "bar") out.push(patternDefs(idPrefix));
  out.push(`<g class="grid" stroke="#e6e6e6" fill="none">`);
  for (const t of y.ticks) {
    out.push(
      `<line x1="${M.left}" x2="${PLOT_WIDTH - M.right}" y1="${coord(y.px(t))}" y2="${coord(y.px(t))}"/>`,
    );
  }
  out.push(`</g><g class="axes" stroke="#555" fill="none">`);
  out.push(`<line x1="${M.left}" x2="${M.left}" y1="${M.top}" y2="${H - M.bottom}"/>`);
  out.push(
    `<line x1="${M.left}" x2="${PLOT_WIDTH - M.right}" y1="${H - M.bottom}" y2="${H - M.bottom}"/>`,
  );
  for (const t of y.ticks) {
    out.push(
      `<line x1="${M.left - 5}" x2="${M.left}" y1="${coord(y.px(t))}" y2="${coord(y.px(t))}"/>`,
    );
  }
  for (const t of x.ticks) {
    out.push(
      `<line x1="${coord(x.px(t))}" x2="${coord(x.px(t))}" y1="${H - M.bottom}" y2="${H - M.bottom + 5}"/>`,
    );
  }
  out.push(`</g><g class="ticks" font-size="13" fill="#222">`);
  for (const t of y.ticks) {
    out.push(
      `<text class="ytick" x="${M.left - 8}" y="${coord(y.px(t) + 4)}" text-anchor="end">${escapeHtml(tickLabel(t))}</text>`,
    );
  }
  for (const t of x.ticks) {
    out.push(
      `<text class="xtick" x="${coord(x.px(t))}" y="${H - M.bottom + 20}" text-anchor="middle">${escapeHtml(xText(t))}</text>`,
    );
  }
  out.push(
    `<text class="xlabel" x="${coord((M.left + PLOT_WIDTH - M.right) / 2)}" y="${H - 10}" text-anchor="middle" font-size="14">${escapeHtml(spec.xLabel)}</text>`,
  );
  out.push(
    `<text class="ylabel" transform="translate(18 ${coord((M.top + H - M.bottom) / 2)}) rotate(-90)" text-anchor="middle" font-size="14">${escapeHtml(y.log ? `${spec.yLabel} (log scale)` : spec.yLabel)}</text></g>`,
  );
  const base = y.px(y.log ? 0 : Math.max(0, Math.min(...y.ticks)));
  const dodge = kind === "line" && n > 1 ? Math.min(4, (0.3 * x.band) / n) : 0;
  spec.series.forEach((s, i) => {
    const st = seriesStyle(i);
    const name = s.name ?? s.label;
    const pts = s.points.filter((p) => finite(p.x) && finite(p.mean)).sort((a, b) => a.x - b.x);
    out.push(
      `<g class="series" data-label="${escapeHtml(s.label)}" stroke="${st.color}" fill="${st.color}">`,
    );
    const offset = (i - (n - 1) / 2) * dodge;
    const cx = (p: PlotPoint): number =>
      kind === "bar"
        ? x.px(p.x) - 0.4 * x.band + (i + 0.5) * ((0.8 * x.band) / n)
        : x.px(p.x) + offset;
    const tip = (p: PlotPoint): string => {
      const ci = finite(p.ci95) ? ` ± ${tickLabel(p.ci95)}` : "";
      const runs = p.runs === undefined ? "" : ` (${p.runs} run${p.runs === 1 ? "" : "s"})`;
      return `<title>${escapeHtml(`${name}: ${spec.xLabel} ${xText(p.x)}: ${tickLabel(p.mean)}${ci}${runs}`)}</title>`;
    };
    if (kind === "bar") {
      const w = (0.8 * x.band) / n;
      for (const p of pts) {
        const top = y.px(p.mean);
        const [y0, y1] = top < base ? [top, base] : [base, top];
        const rx = coord(cx(p) - w / 2);
        const rw = coord(Math.max(0.5, w - 2));
        out.push(
          `<rect class="bar" x="${rx}" y="${coord(y0)}" width="${rw}" height="${coord(y1 - y0)}" stroke="none">${tip(p)}</rect>`,
        );
        if (st.hatch !== "") {
          out.push(
            `<rect class="hatch" x="${rx}" y="${coord(y0)}" width="${rw}" height="${coord(y1 - y0)}" fill="url(#${idPrefix}-${st.hatch})" stroke="none" pointer-events="none"/>`,
          );
        }
      }
    } else {
      const banded = pts.filter((p) => finite(p.ci95));
      if (n <= 3 && banded.length >= 2) {
        const upper = banded.map((p) => `${coord(cx(p))},${coord(y.px(p.mean + p.ci95))}`);
        const lower = banded
          .map((p) => `${coord(cx(p))},${coord(y.px(p.mean - p.ci95))}`)
          .reverse();
        out.push(
          `<polygon class="band" points="${[...upper, ...lower].join(" ")}" fill-opacity="0.12" stroke="none"/>`,
        );
      }
      if (pts.length >= 2) {
        out.push(
          `<polyline class="line" points="${pts.map((p) => `${coord(cx(p))},${coord(y.px(p.mean))}`).join(" ")}" fill="none" stroke-width="2"${st.dash === "" ? "" : ` stroke-dasharray="${st.dash}"`}/>`,
        );
      }
    }
    for (const p of pts) {
      if (!finite(p.ci95)) continue;
      const px = coord(cx(p));
      const lo = coord(y.px(p.mean - p.ci95));
      const hi = coord(y.px(p.mean + p.ci95));
      const cap = 3.5;
      out.push(
        `<path class="ci" d="M${px},${lo}V${hi}M${coord(cx(p) - cap)},${lo}h${cap * 2}M${coord(cx(p) - cap)},${hi}h${cap * 2}" fill="none" stroke-width="1.2"${kind === "bar" ? ' stroke="#222"' : ""}/>`,
      );
    }
    if (kind === "line") {
      for (const p of pts) out.push(markerSvg(st.marker, cx(p), y.px(p.mean), 4.2, tip(p)));
    }
    out.push("</g>");
  });
  out.push("</svg>");
  const legendDefs =
    kind === "bar"
      ? `<svg width="0" height="0" aria-hidden="true" style="position:absolute">${patternDefs(`${idPrefix}-legend`)}</svg>`
      : "";
  const legend = spec.series
    .map(
      (s, i) =>
        `<li>${legendSample(i, kind, `${idPrefix}-legend`)}${escapeHtml(s.name ?? s.label)}</li>`,
    )
    .join("");
  return `<figure class="plot-figure" data-metric="${escapeHtml(spec.id)}">${legendDefs}<ul class="legend">${legend}</ul>${out.join("\n")}<figcaption><strong>${escapeHtml(spec.title)}</strong>${spec.captionHtml ?? ""}</figcaption></figure>`;
}
