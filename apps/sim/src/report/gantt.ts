import type { ScheduleTrace } from "@sched/core";
import { coord, escapeHtml, niceTicks, PALETTE, tickLabel } from "./escape.js";

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

/**
 * The Gantt chart and utilization curve of `trace` as HTML: a zoomable SVG of bars (class `bar`,
 * one per {@link GanttBar}, each with a `<title>` naming the job), a utilization SVG sharing its
 * time axis, and server-rendered time ticks (so it reads without JavaScript; the page's script
 * adds zoom and pan).
 */
export function ganttHtml(trace: ScheduleTrace): string {
  const layout = ganttLayout(trace);
  const { bars, lanes, t0, t1 } = layout;
  const laneH = Math.min(14, Math.max(0.25, 480 / Math.max(1, lanes)));
  const height = Math.max(20, lanes * laneH);
  const x = (t: number): number => ((t - t0) / (t1 - t0)) * GANTT_WIDTH;
  const out: string[] = [];
  out.push(
    `<div class="gantt" data-t0="${t0}" data-t1="${t1}" data-bars="${bars.length}">`,
    `<svg id="gantt-bars" class="zoomable" viewBox="0 0 ${GANTT_WIDTH} ${coord(height)}" preserveAspectRatio="none" width="100%" height="${coord(height)}">`,
  );
  const machines = trace.platform.machines;
  if (machines.length <= 256 && machines.some((m) => m.cores > 1)) {
    for (const lane of layout.machineLane.slice(1)) {
      out.push(
        `<line class="machine-sep" x1="0" x2="${GANTT_WIDTH}" y1="${coord(lane * laneH)}" y2="${coord(lane * laneH)}" stroke="#ccc" vector-effect="non-scaling-stroke"/>`,
      );
    }
  }
  for (const b of bars) {
    const [m0, m1] = b.machines;
    const where =
      m0 === m1
        ? `machine ${machines[m0]?.name ?? m0}`
        : `machines ${machines[m0]?.name ?? m0}..${machines[m1]?.name ?? m1}`;
    const title = `job ${b.job}: ${b.start}-${b.end} s, ${b.lanes} core${b.lanes === 1 ? "" : "s"} on ${where}`;
    out.push(
      `<rect class="bar" x="${coord(x(b.start))}" y="${coord(b.lane * laneH)}" width="${coord(Math.max(0.2, x(b.end) - x(b.start)))}" height="${coord(b.lanes * laneH)}" fill="${PALETTE[b.index % PALETTE.length]}"><title>${escapeHtml(title)}</title></rect>`,
    );
  }
  out.push("</svg>");
  const steps = utilizationSteps(trace);
  const uh = 120;
  let d = `M0,${uh}`;
  for (const [t, f] of steps) d += ` H${coord(x(t))} V${coord(uh - f * uh)}`;
  d += ` H${GANTT_WIDTH}`;
  out.push(
    `<svg id="gantt-util" class="zoomable" viewBox="0 0 ${GANTT_WIDTH} ${uh}" preserveAspectRatio="none" width="100%" height="${uh}">`,
    `<line x1="0" x2="${GANTT_WIDTH}" y1="0" y2="0" stroke="#eee" vector-effect="non-scaling-stroke"/>`,
    `<path class="utilization" d="${d}" fill="#0072B233" stroke="#0072B2" vector-effect="non-scaling-stroke"/>`,
    "</svg>",
  );
  const ticks = niceTicks(t0, t1, 8).filter((t) => t >= t0 && t <= t1);
  out.push(
    // No viewBox: x in percent of the chart's width, so labels line up with the stretched bars
    // at any page width without stretching the text.
    `<svg id="gantt-axis" width="100%" height="24" font-size="11">`,
  );
  for (const t of ticks) {
    out.push(
      `<text x="${coord((x(t) / GANTT_WIDTH) * 100)}%" y="14" text-anchor="middle">${escapeHtml(tickLabel(t))}</text>`,
    );
  }
  out.push("</svg></div>");
  return out.join("\n");
}
