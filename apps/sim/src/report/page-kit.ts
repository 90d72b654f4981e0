/**
 * Functions the report computes both when it is written (the static page) and in the reader's
 * browser (the page script, on zoom): round ticks, time axes, the Gantt chart's binned occupancy
 * and its drawing. One implementation serves both: the page script embeds
 * `String(pageKit)` and calls it, the report writer calls it here.
 *
 * Constraint of that design: `pageKit` must be self-contained (no import, no reference to
 * anything outside its body, no syntax a current browser lacks), since its source text is
 * copied into the page. `test/zoom-script.test.ts` and the browser test run the embedded copy.
 */

/** What {@link pageKit} returns. */
export interface PageKit {
  /**
   * About `count` round values covering [lo, hi] (steps of 1, 2 or 5 times a power of ten).
   * @example niceTicks(0, 97, 5) // [0, 20, 40, 60, 80, 100]
   */
  niceTicks(lo: number, hi: number, count?: number): number[];
  /** A tick label: integers plainly, others to 4 significant digits, big ones with k/M. */
  tickLabel(v: number): string;
  /**
   * A time axis for the window [a, b] seconds: the unit that reads best for its span (s up to
   * 1 h, min up to 4 h, h up to 4 days, d beyond), about `count` round ticks in that unit, and
   * their labels. `ticks` are in seconds.
   */
  timeAxis(a: number, b: number, count: number): TimeAxis;
  /**
   * Busy fraction of each row's lanes in each of `columns` equal time bins of [a, b]: cell
   * `r * columns + c` = busy lane-seconds of row r in bin c / (lanes of row r x bin width).
   * `bars`: 4 numbers per bar (start, end, first lane, lanes); `rowLane`/`rowLanes`: first lane
   * and lane count of each row, rows contiguous and in lane order.
   * Complexity: O(sum over bars of the rows each spans + rows x columns).
   */
  heatBins(
    bars: ArrayLike<number>,
    rowLane: ArrayLike<number>,
    rowLanes: ArrayLike<number>,
    a: number,
    b: number,
    columns: number,
  ): Float64Array;
  /**
   * The heat map's SVG path data, one string per level 1..`levels` (index 0 = level 1): every
   * cell whose busy fraction f > 0 is in level ceil(f x levels), consecutive cells of a row with
   * the same level merged into one rectangle; x from 0 to `width`, row r from `rowY[r]` to
   * `rowY[r] + rowH[r]`. Coordinates rounded to 2 decimals.
   */
  heatPaths(
    occ: ArrayLike<number>,
    rowY: ArrayLike<number>,
    rowH: ArrayLike<number>,
    columns: number,
    width: number,
    levels: number,
  ): string[];
  /** The busy fraction of all lanes per column, from {@link heatBins}' cells. */
  utilBins(occ: ArrayLike<number>, rowLanes: ArrayLike<number>, columns: number): Float64Array;
  /** A step area of `values` (fractions 0..1, one per column) over [0, width] x [0, height]. */
  utilPath(values: ArrayLike<number>, width: number, height: number): string;
  /**
   * Whether the bars visible in [a, b] can be drawn one by one at `width` units: at most `limit`
   * of them, and at least half of them at least one unit wide (else they are a smear).
   */
  exactFits(bars: ArrayLike<number>, a: number, b: number, width: number, limit: number): boolean;
}

/** A time axis of {@link PageKit.timeAxis}. */
export interface TimeAxis {
  readonly unit: "s" | "min" | "h" | "d";
  /** Seconds per unit. */
  readonly seconds: number;
  /** Tick times, in seconds, inside [a, b]. */
  readonly ticks: number[];
  readonly labels: string[];
}

/** The shared functions (see the module's comment: self-contained by design). */
export function pageKit(): PageKit {
  function niceTicks(lo: number, hi: number, count?: number): number[] {
    if (!(hi > lo)) return [lo];
    const raw = (hi - lo) / Math.max(1, count === undefined ? 5 : count);
    const power = 10 ** Math.floor(Math.log10(raw));
    const steps = [1, 2, 5, 10];
    let step = 10 * power;
    for (let i = 0; i < steps.length; i++) {
      if ((steps[i] as number) * power >= raw) {
        step = (steps[i] as number) * power;
        break;
      }
    }
    const first = Math.floor(lo / step + 1e-9);
    const last = Math.ceil(hi / step - 1e-9);
    const ticks: number[] = [];
    for (let i = first; i <= last; i++) ticks.push(Number((i * step).toPrecision(12)));
    return ticks;
  }
  function tickLabel(v: number): string {
    const a = Math.abs(v);
    if (a >= 1e6) return `${Number((v / 1e6).toPrecision(4))}M`;
    if (a >= 1e4) return `${Number((v / 1e3).toPrecision(4))}k`;
    return String(Number(v.toPrecision(4)));
  }
  function timeAxis(a: number, b: number, count: number): TimeAxis {
    const span = b - a;
    let unit: TimeAxis["unit"] = "s";
    let seconds = 1;
    if (span > 4 * 86400) [unit, seconds] = ["d", 86400];
    else if (span > 4 * 3600) [unit, seconds] = ["h", 3600];
    else if (span > 3600) [unit, seconds] = ["min", 60];
    const values = niceTicks(a / seconds, b / seconds, count).filter(
      (t) => t * seconds >= a - span * 1e-9 && t * seconds <= b + span * 1e-9,
    );
    return {
      unit,
      seconds,
      ticks: values.map((t) => t * seconds),
      labels: values.map(tickLabel),
    };
  }
  function heatBins(
    bars: ArrayLike<number>,
    rowLane: ArrayLike<number>,
    rowLanes: ArrayLike<number>,
    a: number,
    b: number,
    columns: number,
  ): Float64Array {
    const rows = rowLane.length;
    const occ = new Float64Array(rows * columns);
    // Whole bins a bar covers go through a difference array (one add and one subtract per row).
    const diff = new Float64Array(rows * (columns + 1));
    const width = (b - a) / columns;
    for (let i = 0; i + 3 < bars.length; i += 4) {
      const s = Math.max(bars[i] as number, a);
      const e = Math.min(bars[i + 1] as number, b);
      if (!(e > s)) continue;
      const l0 = bars[i + 2] as number;
      const l1 = l0 + (bars[i + 3] as number);
      let lo = 0;
      let hi = rows - 1;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if ((rowLane[mid] as number) + (rowLanes[mid] as number) <= l0) lo = mid + 1;
        else hi = mid;
      }
      const c0 = Math.min(columns - 1, Math.floor((s - a) / width));
      const c1 = Math.min(columns - 1, Math.floor((e - a) / width));
      for (let r = lo; r < rows && (rowLane[r] as number) < l1; r++) {
        const top = (rowLane[r] as number) + (rowLanes[r] as number);
        const overlap = Math.min(l1, top) - Math.max(l0, rowLane[r] as number);
        if (overlap <= 0) continue;
        const k = overlap / (rowLanes[r] as number) / width;
        const base = r * columns;
        if (c0 === c1) {
          occ[base + c0] = (occ[base + c0] as number) + (e - s) * k;
          continue;
        }
        occ[base + c0] = (occ[base + c0] as number) + (a + (c0 + 1) * width - s) * k;
        occ[base + c1] = (occ[base + c1] as number) + (e - (a + c1 * width)) * k;
        if (c1 > c0 + 1) {
          const d = r * (columns + 1);
          diff[d + c0 + 1] = (diff[d + c0 + 1] as number) + width * k;
          diff[d + c1] = (diff[d + c1] as number) - width * k;
        }
      }
    }
    for (let r = 0; r < rows; r++) {
      let run = 0;
      for (let c = 0; c < columns; c++) {
        run += diff[r * (columns + 1) + c] as number;
        const v = (occ[r * columns + c] as number) + run;
        occ[r * columns + c] = v < 1e-9 ? 0 : Math.min(1, v);
      }
    }
    return occ;
  }
  function fmt(v: number): string {
    const r = Math.round(v * 100) / 100;
    return String(r === 0 ? 0 : r);
  }
  function heatPaths(
    occ: ArrayLike<number>,
    rowY: ArrayLike<number>,
    rowH: ArrayLike<number>,
    columns: number,
    width: number,
    levels: number,
  ): string[] {
    const out: string[][] = [];
    for (let l = 0; l < levels; l++) out.push([]);
    const w = width / columns;
    for (let r = 0; r < rowY.length; r++) {
      let c = 0;
      while (c < columns) {
        const f = occ[r * columns + c] as number;
        const level = f > 0 ? Math.min(levels, Math.max(1, Math.ceil(f * levels - 1e-9))) : 0;
        let end = c + 1;
        while (end < columns) {
          const g = occ[r * columns + end] as number;
          const next = g > 0 ? Math.min(levels, Math.max(1, Math.ceil(g * levels - 1e-9))) : 0;
          if (next !== level) break;
          end++;
        }
        if (level > 0) {
          const x0 = fmt(c * w);
          const cw = fmt(end * w - c * w);
          (out[level - 1] as string[]).push(
            `M${x0},${fmt(rowY[r] as number)}h${cw}v${fmt(rowH[r] as number)}h-${cw}z`,
          );
        }
        c = end;
      }
    }
    return out.map((parts) => parts.join(""));
  }
  function utilBins(occ: ArrayLike<number>, rowLanes: ArrayLike<number>, columns: number) {
    const util = new Float64Array(columns);
    let lanes = 0;
    for (let r = 0; r < rowLanes.length; r++) lanes += rowLanes[r] as number;
    for (let r = 0; r < rowLanes.length; r++) {
      for (let c = 0; c < columns; c++) {
        util[c] =
          (util[c] as number) +
          ((occ[r * columns + c] as number) * (rowLanes[r] as number)) / Math.max(1, lanes);
      }
    }
    return util;
  }
  function utilPath(values: ArrayLike<number>, width: number, height: number): string {
    const w = width / Math.max(1, values.length);
    let d = `M0,${fmt(height)}`;
    for (let c = 0; c < values.length; c++) {
      d += ` H${fmt(c * w)} V${fmt(height - (values[c] as number) * height)}`;
    }
    return `${d} H${fmt(width)} V${fmt(height)} Z`;
  }
  function exactFits(
    bars: ArrayLike<number>,
    a: number,
    b: number,
    width: number,
    limit: number,
  ): boolean {
    let count = 0;
    let narrow = 0;
    const perUnit = width / (b - a);
    for (let i = 0; i + 3 < bars.length; i += 4) {
      const s = Math.max(bars[i] as number, a);
      const e = Math.min(bars[i + 1] as number, b);
      if (!(e > s) && !((bars[i] as number) >= a && (bars[i] as number) <= b)) continue;
      count++;
      if (count > limit) return false;
      if ((e - s) * perUnit < 1) narrow++;
    }
    return narrow * 2 <= count;
  }
  return { niceTicks, tickLabel, timeAxis, heatBins, heatPaths, utilBins, utilPath, exactFits };
}
