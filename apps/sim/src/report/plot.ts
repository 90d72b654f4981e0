import { coord, escapeHtml, niceTicks, PALETTE, tickLabel } from "./escape.js";

/** One line of a plot: a point per x value with a mean and a CI half-width (NaN: none). */
export interface PlotSeries {
  readonly label: string;
  readonly points: readonly { readonly x: number; readonly mean: number; readonly ci95: number }[];
}

/** What {@link linePlot} draws. */
export interface PlotSpec {
  readonly title: string;
  readonly xLabel: string;
  readonly yLabel: string;
  /** Data attribute on the figure, e.g. the metric key. */
  readonly id: string;
  readonly series: readonly PlotSeries[];
}

const W = 640;
const H = 340;
const M = { left: 64, right: 16, top: 16, bottom: 44 };

/**
 * An inline SVG line plot: a line per series through its means, a translucent band from
 * mean - ci95 to mean + ci95, error bars at each point, axes with round ticks and a legend. The
 * y axis is logarithmic (decade ticks, "(log scale)" in its label; band ends at or below zero
 * drawn at the bottom) when every mean is positive and the largest is more than 100 times the
 * smallest, so a policy that saturates does not flatten the others; linear from 0 otherwise. Pure
 * SVG (readable without JavaScript); every series is a `<g class="series" data-label=…>`.
 */
export function linePlot(spec: PlotSpec): string {
  const finite = (v: number): boolean => Number.isFinite(v);
  const xs = spec.series.flatMap((s) => s.points.map((p) => p.x)).filter(finite);
  const ys = spec.series
    .flatMap((s) =>
      s.points.flatMap((p) => (finite(p.ci95) ? [p.mean - p.ci95, p.mean + p.ci95] : [p.mean])),
    )
    .filter(finite);
  let x0 = Math.min(...xs);
  let x1 = Math.max(...xs);
  if (xs.length === 0) [x0, x1] = [0, 1];
  if (x0 === x1) [x0, x1] = [x0 - 1, x1 + 1];
  const means = spec.series.flatMap((s) => s.points.map((p) => p.mean)).filter(finite);
  const log =
    means.length > 0 && Math.min(...means) > 0 && Math.max(...means) / Math.min(...means) > 100;
  let y0: number;
  let y1: number;
  let yTicks: number[];
  if (log) {
    const positive = ys.filter((v) => v > 0);
    y0 = 10 ** Math.floor(Math.log10(Math.min(...positive)));
    y1 = 10 ** Math.ceil(Math.log10(Math.max(...positive)));
    if (y1 <= y0) y1 = y0 * 10;
    yTicks = [];
    for (let e = Math.log10(y0); e <= Math.log10(y1) + 1e-9; e++) yTicks.push(10 ** e);
  } else {
    y0 = Math.min(0, ...ys);
    y1 = Math.max(...ys, 0);
    if (y0 === y1) y1 = y0 + 1;
    yTicks = niceTicks(y0, y1, 5);
    y0 = Math.min(y0, yTicks[0] as number);
    y1 = Math.max(y1, yTicks[yTicks.length - 1] as number);
  }
  const xTicks =
    xs.length > 0 && new Set(xs).size <= 12
      ? [...new Set(xs)].sort((a, b) => a - b)
      : niceTicks(x0, x1, 6);
  const px = (x: number): number => M.left + ((x - x0) / (x1 - x0)) * (W - M.left - M.right);
  const frac = (y: number): number =>
    log
      ? (Math.log10(Math.max(y, y0)) - Math.log10(y0)) / (Math.log10(y1) - Math.log10(y0))
      : (y - y0) / (y1 - y0);
  const py = (y: number): number => H - M.bottom - frac(y) * (H - M.top - M.bottom);
  const out: string[] = [];
  out.push(
    `<svg class="plot" viewBox="0 0 ${W} ${H}" width="${W}" height="${H}" role="img" aria-label="${escapeHtml(spec.title)}">`,
  );
  out.push(`<g class="axes" stroke="#999" fill="none">`);
  for (const t of yTicks) {
    out.push(
      `<line x1="${M.left}" x2="${W - M.right}" y1="${coord(py(t))}" y2="${coord(py(t))}" stroke="#eee"/>`,
    );
  }
  out.push(`<line x1="${M.left}" x2="${M.left}" y1="${M.top}" y2="${H - M.bottom}"/>`);
  out.push(
    `<line x1="${M.left}" x2="${W - M.right}" y1="${H - M.bottom}" y2="${H - M.bottom}"/></g>`,
  );
  out.push(`<g class="ticks" font-size="11" fill="#333">`);
  for (const t of yTicks) {
    out.push(
      `<text x="${M.left - 6}" y="${coord(py(t) + 4)}" text-anchor="end">${escapeHtml(tickLabel(t))}</text>`,
    );
  }
  for (const t of xTicks) {
    out.push(
      `<text x="${coord(px(t))}" y="${H - M.bottom + 16}" text-anchor="middle">${escapeHtml(tickLabel(t))}</text>`,
    );
  }
  out.push(
    `<text x="${coord((M.left + W - M.right) / 2)}" y="${H - 6}" text-anchor="middle">${escapeHtml(spec.xLabel)}</text>`,
  );
  out.push(
    `<text transform="translate(14 ${coord((M.top + H - M.bottom) / 2)}) rotate(-90)" text-anchor="middle">${escapeHtml(log ? `${spec.yLabel} (log scale)` : spec.yLabel)}</text></g>`,
  );
  spec.series.forEach((s, i) => {
    const color = PALETTE[i % PALETTE.length] as string;
    const pts = s.points.filter((p) => finite(p.x) && finite(p.mean)).sort((a, b) => a.x - b.x);
    out.push(
      `<g class="series" data-label="${escapeHtml(s.label)}" stroke="${color}" fill="${color}">`,
    );
    const banded = pts.filter((p) => finite(p.ci95));
    if (banded.length >= 2) {
      const upper = banded.map((p) => `${coord(px(p.x))},${coord(py(p.mean + p.ci95))}`);
      const lower = banded.map((p) => `${coord(px(p.x))},${coord(py(p.mean - p.ci95))}`).reverse();
      out.push(
        `<polygon class="band" points="${[...upper, ...lower].join(" ")}" fill-opacity="0.15" stroke="none"/>`,
      );
    }
    if (pts.length >= 2) {
      out.push(
        `<polyline class="line" points="${pts.map((p) => `${coord(px(p.x))},${coord(py(p.mean))}`).join(" ")}" fill="none" stroke-width="2"/>`,
      );
    }
    for (const p of pts) {
      const cx = coord(px(p.x));
      if (finite(p.ci95)) {
        out.push(
          `<line class="ci" x1="${cx}" x2="${cx}" y1="${coord(py(p.mean - p.ci95))}" y2="${coord(py(p.mean + p.ci95))}"/>`,
        );
      }
      const ci = finite(p.ci95) ? ` ± ${tickLabel(p.ci95)}` : "";
      out.push(
        `<circle class="point" cx="${cx}" cy="${coord(py(p.mean))}" r="3"><title>${escapeHtml(`${s.label}: ${spec.xLabel} ${p.x}: ${tickLabel(p.mean)}${ci}`)}</title></circle>`,
      );
    }
    out.push("</g>");
  });
  out.push("</svg>");
  const legend = spec.series
    .map(
      (s, i) =>
        `<li><span class="swatch" style="background:${PALETTE[i % PALETTE.length]}"></span>${escapeHtml(s.label)}</li>`,
    )
    .join("");
  return `<figure class="plot-figure" data-metric="${escapeHtml(spec.id)}">${out.join("\n")}<figcaption><strong>${escapeHtml(spec.title)}</strong><ul class="legend">${legend}</ul></figcaption></figure>`;
}
