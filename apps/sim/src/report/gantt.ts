import type { ScheduleTrace } from "@sched/core";
import { coord, escapeHtml, niceTicks, PALETTE, tickLabel } from "./escape.js";
import { pageKit } from "./page-kit.js";

/** One rectangle of the Gantt chart: a job's execution interval on a block of adjacent lanes. */
export interface GanttBar {
  readonly job: string;
  /** Index of the job in the trace (colour). */
  readonly index: number;
  readonly start: number;
  readonly end: number;
  /** First lane (a lane is one core; machines' cores are consecutive, machine 0 first). */
  readonly lane: number;
  /** Number of adjacent lanes. */
  readonly lanes: number;
  /** Machines it covers (first, last). */
  readonly machines: readonly [number, number];
}

/** The lane layout of a trace. */
export interface GanttLayout {
  readonly bars: readonly GanttBar[];
  /** Total lanes = the platform's cores. */
  readonly lanes: number;
  /** First lane of each machine. */
  readonly machineLane: readonly number[];
  readonly t0: number;
  readonly t1: number;
}

/**
 * Lay out the trace's execution intervals on lanes, one lane per core: on each machine, pieces
 * are taken in start order (ties: trace order) and given the lowest free cores (those whose piece
 * ended at or before the start); then the lanes of one interval of one job, over all its
 * machines, are merged into bars of adjacent lanes. On a pool of single-core machines a job on
 * machines 4..11 is one bar.
 *
 * Complexity: O(P log P + P x C) for P pieces on machines of at most C cores.
 */
export function ganttLayout(trace: ScheduleTrace): GanttLayout {
  const machines = trace.platform.machines;
  const machineLane: number[] = [];
  let lanes = 0;
  for (const m of machines) {
    machineLane.push(lanes);
    lanes += m.cores;
  }
  interface Piece {
    readonly record: number;
    readonly interval: number;
    readonly start: number;
    readonly end: number;
    readonly cores: number;
  }
  const perMachine: Piece[][] = machines.map(() => []);
  trace.records.forEach((r, record) => {
    r.intervals.forEach((iv, interval) => {
      for (const a of iv.allocation) {
        perMachine[a.machine]?.push({
          record,
          interval,
          start: iv.start,
          end: iv.end,
          cores: a.cores,
        });
      }
    });
  });
  const lanesOf = new Map<string, number[]>();
  perMachine.forEach((pieces, m) => {
    const cores = machines[m]?.cores ?? 0;
    const freeAt = new Array<number>(cores).fill(Number.NEGATIVE_INFINITY);
    const order = pieces
      .map((p, i) => ({ p, i }))
      .sort((a, b) => a.p.start - b.p.start || a.i - b.i);
    for (const { p } of order) {
      const got: number[] = [];
      for (let c = 0; c < cores && got.length < p.cores; c++) {
        if ((freeAt[c] as number) <= p.start) got.push(c);
      }
      // An invalid trace (over-committed machine) reuses the first cores rather than failing.
      for (let c = 0; got.length < p.cores && c < cores; c++) if (!got.includes(c)) got.push(c);
      for (const c of got) freeAt[c] = p.end;
      const key = `${p.record}:${p.interval}`;
      const list = lanesOf.get(key) ?? [];
      for (const c of got) list.push((machineLane[m] as number) + c);
      lanesOf.set(key, list);
    }
  });
  const machineOf = (lane: number): number => {
    let lo = 0;
    let hi = machineLane.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((machineLane[mid] as number) <= lane) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  };
  const bars: GanttBar[] = [];
  let t0 = Number.POSITIVE_INFINITY;
  let t1 = Number.NEGATIVE_INFINITY;
  trace.records.forEach((r, record) => {
    r.intervals.forEach((iv, interval) => {
      t0 = Math.min(t0, iv.start);
      t1 = Math.max(t1, iv.end);
      const list = (lanesOf.get(`${record}:${interval}`) ?? []).sort((a, b) => a - b);
      let i = 0;
      while (i < list.length) {
        let j = i;
        while (j + 1 < list.length && list[j + 1] === (list[j] as number) + 1) j++;
        const first = list[i] as number;
        const last = list[j] as number;
        bars.push({
          job: String(r.job.id),
          index: record,
          start: iv.start,
          end: iv.end,
          lane: first,
          lanes: last - first + 1,
          machines: [machineOf(first), machineOf(last)],
        });
        i = j + 1;
      }
    });
  });
  if (!Number.isFinite(t0)) [t0, t1] = [0, 1];
  if (t1 <= t0) t1 = t0 + 1;
  return { bars, lanes, machineLane, t0, t1 };
}

/**
 * The busy fraction of the platform's cores over time, as steps `[time, fraction]`: the value
 * holds from its time to the next step's. Ends and starts at the same time are netted.
 */
export function utilizationSteps(trace: ScheduleTrace): [number, number][] {
  const deltas = new Map<number, number>();
  for (const r of trace.records) {
    for (const iv of r.intervals) {
      const cores = iv.allocation.reduce((s, a) => s + a.cores, 0);
      deltas.set(iv.start, (deltas.get(iv.start) ?? 0) + cores);
      deltas.set(iv.end, (deltas.get(iv.end) ?? 0) - cores);
    }
  }
  const total = trace.platform.totalCores;
  let busy = 0;
  return [...deltas.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([t, d]) => {
      busy += d;
      return [t, total > 0 ? busy / total : 0];
    });
}

/** Drawing width of the Gantt's time axis, in SVG units. */
export const GANTT_WIDTH = 960;
/** Height of the utilization strip, px. */
const UTIL_HEIGHT = 90;
/** Width of the axis gutter left of the charts, px. */
const GUTTER = 64;
/** Time bins of the aggregated chart across its visible window. */
export const GANTT_COLUMNS = 480;
/** Rows of the aggregated chart at most. */
export const GANTT_MAX_ROWS = 200;
/** Bars drawn one by one at most (the page's size and speed); beyond, the chart aggregates. */
export const GANTT_EXACT_LIMIT = 4000;
/**
 * Shades of the aggregated chart, one per eighth of busy fraction, lightest ((0, 1/8]) to darkest
 * ((7/8, 1]): one hue of increasing darkness (ColorBrewer Blues), readable in grey scale.
 */
export const HEAT_COLORS = [
  "#deebf7",
  "#c6dbef",
  "#9ecae1",
  "#6baed6",
  "#4292c6",
  "#2171b5",
  "#08519c",
  "#08306b",
] as const;

const kit = pageKit();

/** A row of the aggregated chart: a block of consecutive lanes. */
export interface GanttRow {
  readonly lane: number;
  readonly lanes: number;
}

/**
 * The rows of the aggregated chart: one per machine when there are 2 to {@link GANTT_MAX_ROWS}
 * machines (a row's shade is the busy fraction of that machine's cores); otherwise blocks of
 * `ceil(lanes / GANTT_MAX_ROWS)` consecutive lanes (one machine of 1024 cores: 171 rows of 6).
 */
export function ganttRows(layout: GanttLayout): GanttRow[] {
  const machines = layout.machineLane.length;
  if (machines >= 2 && machines <= GANTT_MAX_ROWS) {
    return layout.machineLane.map((lane, m) => ({
      lane,
      lanes: (layout.machineLane[m + 1] ?? layout.lanes) - lane,
    }));
  }
  const size = Math.max(1, Math.ceil(layout.lanes / GANTT_MAX_ROWS));
  const rows: GanttRow[] = [];
  for (let lane = 0; lane < layout.lanes; lane += size) {
    rows.push({ lane, lanes: Math.min(size, layout.lanes - lane) });
  }
  return rows;
}

/** The bars as the page kit takes them: start, end, first lane, lanes (4 numbers per bar). */
export function barNumbers(layout: GanttLayout): number[] {
  const out: number[] = [];
  for (const b of layout.bars) out.push(b.start, b.end, b.lane, b.lanes);
  return out;
}

/**
 * Whether the whole chart is drawn bar by bar (`"exact"`) or as binned occupancy (`"heat"`):
 * bar by bar when there are at most {@link GANTT_EXACT_LIMIT} bars and at least half of them are
 * one unit (about a pixel) wide or more at full width; otherwise the bars would be a smear.
 */
export function ganttMode(layout: GanttLayout): "exact" | "heat" {
  return kit.exactFits(barNumbers(layout), layout.t0, layout.t1, GANTT_WIDTH, GANTT_EXACT_LIMIT)
    ? "exact"
    : "heat";
}

function barTitle(trace: ScheduleTrace, b: GanttBar): string {
  const machines = trace.platform.machines;
  const [m0, m1] = b.machines;
  const where =
    m0 === m1
      ? `machine ${machines[m0]?.name ?? m0}`
      : `machines ${machines[m0]?.name ?? m0}..${machines[m1]?.name ?? m1}`;
  return `job ${b.job}: ${b.start}-${b.end} s, ${b.lanes} core${b.lanes === 1 ? "" : "s"} on ${where}`;
}

/** The machine axis: machine names at their rows (every k-th when rows are thin), or cores. */
function machineAxis(trace: ScheduleTrace, layout: GanttLayout, laneH: number): string {
  const height = Math.max(20, layout.lanes * laneH);
  const out: string[] = [
    `<svg class="gantt-yaxis" width="${GUTTER}" height="${coord(height)}" font-size="11" fill="#222">`,
    `<line x1="${GUTTER - 1}" x2="${GUTTER - 1}" y1="0" y2="${coord(height)}" stroke="#555"/>`,
  ];
  const machines = trace.platform.machines;
  const mark = (y: number, label: string) =>
    out.push(
      `<line x1="${GUTTER - 5}" x2="${GUTTER - 1}" y1="${coord(y)}" y2="${coord(y)}" stroke="#555"/>`,
      `<text class="ytick" x="${GUTTER - 7}" y="${coord(y + 4)}" text-anchor="end">${escapeHtml(label)}</text>`,
    );
  let title = "machine";
  if (machines.length === 1) {
    title = "core";
    const ticks = niceTicks(0, Math.max(1, layout.lanes - 1), Math.max(2, Math.floor(height / 40)));
    for (const t of ticks) if (t < layout.lanes) mark((t + 0.5) * laneH, tickLabel(t));
  } else {
    const rowH = height / machines.length;
    const step = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000].find(
      (k) => k * rowH >= 13,
    );
    const k = step ?? Math.ceil(machines.length / 10);
    for (let m = 0; m < machines.length; m += k) {
      const lane = layout.machineLane[m] as number;
      const cores = (machines[m]?.cores ?? 1) * laneH;
      mark(lane * laneH + cores / 2, machines[m]?.name ?? String(m));
    }
  }
  out.push(
    `<text class="ylabel" transform="translate(11 ${coord(height / 2)}) rotate(-90)" text-anchor="middle" font-size="12">${title}</text>`,
    "</svg>",
  );
  return out.join("");
}

/** The utilization strip's scale: 0, 50 and 100% of the cores busy. */
function utilizationAxis(): string {
  const out = [
    `<svg class="gantt-uaxis" width="${GUTTER}" height="${UTIL_HEIGHT}" font-size="11" fill="#222">`,
    `<line x1="${GUTTER - 1}" x2="${GUTTER - 1}" y1="0" y2="${UTIL_HEIGHT}" stroke="#555"/>`,
  ];
  for (const f of [0, 0.5, 1]) {
    const y = UTIL_HEIGHT - f * UTIL_HEIGHT;
    out.push(
      `<line x1="${GUTTER - 5}" x2="${GUTTER - 1}" y1="${coord(y)}" y2="${coord(y)}" stroke="#555"/>`,
      `<text class="utick" x="${GUTTER - 7}" y="${coord(Math.min(UTIL_HEIGHT - 2, Math.max(9, y + 4)))}" text-anchor="end">${f * 100}%</text>`,
    );
  }
  out.push(
    `<text class="ylabel" transform="translate(11 ${UTIL_HEIGHT / 2}) rotate(-90)" text-anchor="middle" font-size="12">busy</text></svg>`,
  );
  return out.join("");
}

/** The time axis for [a, b] (ticks in percent of the width, so they follow the stretched chart). */
function timeAxisSvg(a: number, b: number): { svg: string; label: string } {
  const axis = kit.timeAxis(a, b, 8);
  const out = [`<svg id="gantt-axis" width="100%" height="26" font-size="11" fill="#222">`];
  axis.ticks.forEach((t, i) => {
    const p = coord(((t - a) / (b - a)) * 100);
    out.push(
      `<line x1="${p}%" x2="${p}%" y1="0" y2="5" stroke="#555"/><text x="${p}%" y="18" text-anchor="middle">${escapeHtml(axis.labels[i] as string)}</text>`,
    );
  });
  out.push("</svg>");
  return { svg: out.join(""), label: `time (${axis.unit})` };
}

/** A duration in words for the legend: `2.5 h`, `40 s`. */
function duration(seconds: number): string {
  if (seconds >= 86400) return `${tickLabel(seconds / 86400)} d`;
  if (seconds >= 3600) return `${tickLabel(seconds / 3600)} h`;
  if (seconds >= 60) return `${tickLabel(seconds / 60)} min`;
  return `${tickLabel(seconds)} s`;
}

/** The aggregated chart's colour scale: a bar of the shades with 0..100% ticks. */
function heatLegend(t0: number, t1: number, rows: number, layout: GanttLayout): string {
  const w = 28;
  const out = [
    `<svg class="heat-scale" width="${w * HEAT_COLORS.length + 24}" height="34" font-size="11">`,
  ];
  HEAT_COLORS.forEach((c, i) => {
    out.push(
      `<rect x="${12 + i * w}" y="0" width="${w}" height="14" fill="${c}" stroke="#888" stroke-width="0.5"/>`,
    );
  });
  for (const f of [0, 0.25, 0.5, 0.75, 1]) {
    const xx = 12 + f * w * HEAT_COLORS.length;
    out.push(
      `<line x1="${xx}" x2="${xx}" y1="14" y2="18" stroke="#555"/><text x="${xx}" y="30" text-anchor="middle">${f * 100}%</text>`,
    );
  }
  out.push("</svg>");
  const perRow =
    rows === layout.machineLane.length
      ? "each machine's cores"
      : `each row's ${Math.ceil(layout.lanes / rows)} cores`;
  return `<div class="heat-legend">${out.join("")}<span class="note">Shade: busy fraction of ${perRow} in each of ${GANTT_COLUMNS} time bins (${duration((t1 - t0) / GANTT_COLUMNS)} each at full width); blank: idle.</span></div>`;
}

/**
 * The Gantt chart and utilization strip of `trace` as HTML, with a machine axis (machine names,
 * or cores of a single machine), a time axis in the unit that reads best (s, min, h or d), and a
 * 0-100% scale on the utilization strip.
 *
 * When the bars fit (see {@link ganttMode}) every execution interval is a bar (class `bar`, one
 * per {@link GanttBar}, with a `<title>` naming the job). Otherwise (a 28,000-job log on 100
 * machines is a smear of sub-pixel slivers) the chart shows binned occupancy: a row per machine
 * ({@link ganttRows}), {@link GANTT_COLUMNS} time bins, each cell shaded by the busy fraction
 * of its cores ({@link HEAT_COLORS}, with a colour scale), and the utilization strip is the same
 * bins summed over rows. The page script zooms and pans both (see `zoom-script.ts`): in the
 * aggregated chart it re-bins the visible window, and draws the bars one by one once they fit.
 * The static picture reads without JavaScript.
 */
export function ganttHtml(trace: ScheduleTrace): string {
  const layout = ganttLayout(trace);
  const { bars, lanes, t0, t1 } = layout;
  const laneH = Math.min(14, Math.max(0.25, 480 / Math.max(1, lanes)));
  const height = Math.max(20, lanes * laneH);
  const x = (t: number): number => ((t - t0) / (t1 - t0)) * GANTT_WIDTH;
  const mode = ganttMode(layout);
  const machines = trace.platform.machines;
  const out: string[] = [];
  const rows = ganttRows(layout);
  const occ =
    mode === "heat"
      ? kit.heatBins(
          barNumbers(layout),
          rows.map((r) => r.lane),
          rows.map((r) => r.lanes),
          t0,
          t1,
          GANTT_COLUMNS,
        )
      : undefined;
  out.push(
    mode === "exact"
      ? `<p class="note">Jobs on machines over time: a bar per job and machine block (hover a bar for its job; colours only separate neighbours). Below, the fraction of busy cores.</p>`
      : `<p class="note">${trace.records.length.toLocaleString("en-US")} jobs (${bars.length.toLocaleString("en-US")} bars) are too many to draw one by one at this width, so the chart shows how busy each ${rows.length === machines.length ? "machine" : "block of cores"} is over time; zoom in to see the jobs themselves (drawn once at most ${GANTT_EXACT_LIMIT.toLocaleString("en-US")} are visible and most are a pixel wide). Below, the fraction of busy cores.</p>`,
    '<p id="zoom-controls" hidden><button id="zoom-in">zoom in</button> <button id="zoom-out">zoom out</button> <button id="zoom-reset">reset</button> (or the mouse wheel; drag to pan) <span id="gantt-readout" class="note"></span></p>',
    `<div class="gantt" data-mode="${mode}" data-t0="${t0}" data-t1="${t1}" data-bars="${bars.length}" data-util-height="${UTIL_HEIGHT}"><div class="gantt-grid">`,
    machineAxis(trace, layout, laneH),
    `<svg id="gantt-bars" class="zoomable" viewBox="0 0 ${GANTT_WIDTH} ${coord(height)}" preserveAspectRatio="none" width="100%" height="${coord(height)}">`,
  );
  if (mode === "exact") {
    const stroke =
      laneH >= 3 ? ' stroke="#fff" stroke-width="0.6" vector-effect="non-scaling-stroke"' : "";
    for (const b of bars) {
      out.push(
        `<rect class="bar" x="${coord(x(b.start))}" y="${coord(b.lane * laneH)}" width="${coord(Math.max(0.2, x(b.end) - x(b.start)))}" height="${coord(b.lanes * laneH)}" fill="${PALETTE[b.index % PALETTE.length]}"${stroke}><title>${escapeHtml(barTitle(trace, b))}</title></rect>`,
      );
    }
  } else if (occ !== undefined) {
    const paths = kit.heatPaths(
      occ,
      rows.map((r) => r.lane * laneH),
      rows.map((r) => r.lanes * laneH),
      GANTT_COLUMNS,
      GANTT_WIDTH,
      HEAT_COLORS.length,
    );
    out.push(
      `<g id="gantt-heat">${paths.map((d, i) => `<path class="heat" data-level="${i + 1}" fill="${HEAT_COLORS[i]}" d="${d}"/>`).join("")}</g>`,
      '<g id="gantt-zoomed"></g>',
    );
  }
  if (machines.length <= 256 && machines.some((m) => m.cores > 1)) {
    for (const lane of layout.machineLane.slice(1)) {
      out.push(
        `<line class="machine-sep" x1="0" x2="${GANTT_WIDTH}" y1="${coord(lane * laneH)}" y2="${coord(lane * laneH)}" stroke="#bbb" vector-effect="non-scaling-stroke"/>`,
      );
    }
  }
  out.push("</svg>", utilizationAxis());
  let utilization: string;
  if (occ === undefined) {
    let d = `M0,${UTIL_HEIGHT}`;
    for (const [t, f] of utilizationSteps(trace)) {
      d += ` H${coord(x(t))} V${coord(UTIL_HEIGHT - f * UTIL_HEIGHT)}`;
    }
    utilization = `${d} H${GANTT_WIDTH}`;
  } else {
    utilization = kit.utilPath(
      kit.utilBins(
        occ,
        rows.map((r) => r.lanes),
        GANTT_COLUMNS,
      ),
      GANTT_WIDTH,
      UTIL_HEIGHT,
    );
  }
  const axis = timeAxisSvg(t0, t1);
  out.push(
    `<svg id="gantt-util" class="zoomable" viewBox="0 0 ${GANTT_WIDTH} ${UTIL_HEIGHT}" preserveAspectRatio="none" width="100%" height="${UTIL_HEIGHT}">`,
    `<line x1="0" x2="${GANTT_WIDTH}" y1="${UTIL_HEIGHT / 2}" y2="${UTIL_HEIGHT / 2}" stroke="#e6e6e6" vector-effect="non-scaling-stroke"/>`,
    `<line x1="0" x2="${GANTT_WIDTH}" y1="0" y2="0" stroke="#e6e6e6" vector-effect="non-scaling-stroke"/>`,
    `<path class="utilization" d="${utilization}" fill="#0072B233" stroke="#0072B2" vector-effect="non-scaling-stroke"/>`,
    mode === "heat" ? '<g id="gantt-util-zoomed"></g>' : "",
    "</svg>",
    "<div></div>",
    axis.svg,
    "<div></div>",
    `<div id="gantt-xlabel" class="axis-label">${axis.label}</div>`,
    "</div>",
  );
  if (mode === "heat") {
    out.push(heatLegend(t0, t1, rows.length, layout));
    const data = {
      width: GANTT_WIDTH,
      columns: GANTT_COLUMNS,
      limit: GANTT_EXACT_LIMIT,
      laneH,
      colors: HEAT_COLORS,
      palette: PALETTE,
      bars: barNumbers(layout),
      jobs: bars.map((b) => b.job),
      index: bars.map((b) => b.index),
      machines: bars.flatMap((b) => b.machines),
      names: machines.map((m) => m.name),
      rowLane: rows.map((r) => r.lane),
      rowLanes: rows.map((r) => r.lanes),
      rowNames: rows.map((r) =>
        rows.length === machines.length
          ? (machines[layout.machineLane.indexOf(r.lane)]?.name ?? "")
          : `cores ${r.lane}-${r.lane + r.lanes - 1}`,
      ),
    };
    out.push(
      `<script type="application/json" id="gantt-data">${JSON.stringify(data).replaceAll("<", "\\u003c")}</script>`,
    );
  }
  out.push("</div>");
  return out.filter((p) => p !== "").join("\n");
}
