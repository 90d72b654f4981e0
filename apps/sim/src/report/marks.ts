import { coord, PALETTE } from "./escape.js";

/**
 * How series are told apart without colour: series i gets colour, marker and dash pattern i
 * (modulo their counts), so two series that share one of them differ in the others, and a
 * grey-scale print or a colour-blind reader still tells them apart.
 */

/**
 * Line colours, in series order: Okabe-Ito (readable by most colour-blind readers) with its
 * yellow, too pale for a line on white, replaced by black.
 */
export const LINE_PALETTE: readonly string[] = PALETTE.map((c) =>
  c === "#F0E442" ? "#000000" : c,
);

/** Marker shapes, in series order. Filled and open shapes alternate. */
export const MARKERS = [
  "circle",
  "square-open",
  "triangle",
  "diamond-open",
  "cross",
  "square",
  "triangle-down-open",
  "plus",
] as const;

/** A marker shape of {@link MARKERS}. */
export type Marker = (typeof MARKERS)[number];

/** `stroke-dasharray` of each series' line, in series order ("" = solid). */
export const DASHES = ["", "7 3", "2 2.5", "9 3 2 3", "14 4", "4 2 1 2", "1 3", "10 2 2 2 2 2"];

/** Fill patterns of bars, in series order (`patternDefs` defines them; "" = plain). */
export const HATCHES = ["", "diag", "dots", "cross", "horiz", "anti", "vert", "grid"] as const;

/** The look of series `i`: colour, marker, dash pattern and bar hatch. */
export interface SeriesStyle {
  readonly color: string;
  readonly marker: Marker;
  readonly dash: string;
  readonly hatch: (typeof HATCHES)[number];
}

/** The style of series `i` (cycling through each list). */
export function seriesStyle(i: number): SeriesStyle {
  return {
    color: LINE_PALETTE[i % LINE_PALETTE.length] as string,
    marker: MARKERS[i % MARKERS.length] as Marker,
    dash: DASHES[i % DASHES.length] as string,
    hatch: HATCHES[i % HATCHES.length] as (typeof HATCHES)[number],
  };
}

/**
 * A marker of `shape` centred on (x, y), of radius about `r`, as an SVG element string (its
 * colour comes from the enclosing group's `stroke`/`fill`; open shapes are filled white). `inner`
 * is inserted inside the element (e.g. a `<title>`).
 */
export function markerSvg(shape: Marker, x: number, y: number, r: number, inner = ""): string {
  const open = shape.endsWith("-open");
  const style = open ? ' fill="#fff" stroke-width="1.6"' : ' stroke-width="1"';
  const c = (v: number) => coord(v);
  const path = (d: string) =>
    `<path class="point" data-marker="${shape}" d="${d}"${style}>${inner}</path>`;
  const s = r * 0.9;
  switch (shape) {
    case "circle":
      return `<circle class="point" data-marker="circle" cx="${c(x)}" cy="${c(y)}" r="${c(r)}"${style}>${inner}</circle>`;
    case "square":
    case "square-open":
      return path(`M${c(x - s)},${c(y - s)}h${c(2 * s)}v${c(2 * s)}h${c(-2 * s)}z`);
    case "triangle":
      return path(
        `M${c(x)},${c(y - r * 1.2)}L${c(x + r * 1.1)},${c(y + r * 0.8)}L${c(x - r * 1.1)},${c(y + r * 0.8)}z`,
      );
    case "triangle-down-open":
      return path(
        `M${c(x)},${c(y + r * 1.2)}L${c(x + r * 1.1)},${c(y - r * 0.8)}L${c(x - r * 1.1)},${c(y - r * 0.8)}z`,
      );
    case "diamond-open":
      return path(
        `M${c(x)},${c(y - r * 1.3)}L${c(x + r * 1.1)},${c(y)}L${c(x)},${c(y + r * 1.3)}L${c(x - r * 1.1)},${c(y)}z`,
      );
    case "cross":
      return `<path class="point" data-marker="cross" d="M${c(x - s)},${c(y - s)}L${c(x + s)},${c(y + s)}M${c(x - s)},${c(y + s)}L${c(x + s)},${c(y - s)}" fill="none" stroke-width="2">${inner}</path>`;
    case "plus":
      return `<path class="point" data-marker="plus" d="M${c(x - r * 1.2)},${c(y)}H${c(x + r * 1.2)}M${c(x)},${c(y - r * 1.2)}V${c(y + r * 1.2)}" fill="none" stroke-width="2">${inner}</path>`;
  }
}

/**
 * The `<pattern>` definitions of {@link HATCHES} for one SVG, ids prefixed with `prefix` (ids
 * are page-wide: each plot needs its own prefix). Patterns draw dark translucent strokes, so a
 * hatched bar keeps its colour underneath.
 */
export function patternDefs(prefix: string): string {
  const line = (d: string) =>
    `<path d="${d}" stroke="#000" stroke-opacity="0.55" stroke-width="1.2" fill="none"/>`;
  const body: Record<string, string> = {
    diag: line("M-1,7 L7,-1 M5,9 L9,5 M-1,1 L1,-1"),
    anti: line("M-1,-1 L7,7 M5,-1 L9,3 M-1,5 L1,7"),
    cross: line("M-1,7 L7,-1 M-1,-1 L7,7"),
    horiz: line("M0,3 H6"),
    vert: line("M3,0 V6"),
    grid: line("M0,3 H6 M3,0 V6"),
    dots: '<circle cx="3" cy="3" r="1.2" fill="#000" fill-opacity="0.55"/>',
  };
  return `<defs>${HATCHES.filter((h) => h !== "")
    .map(
      (h) =>
        `<pattern id="${prefix}-${h}" patternUnits="userSpaceOnUse" width="6" height="6">${body[h]}</pattern>`,
    )
    .join("")}</defs>`;
}

/**
 * A legend entry's sample as a small inline SVG: the series' line (with its dash pattern) and
 * marker for a line plot, or a hatched swatch for a bar plot (whose pattern must be defined on
 * the page under `prefix`, see {@link patternDefs}).
 */
export function legendSample(i: number, kind: "line" | "bar", prefix: string): string {
  const st = seriesStyle(i);
  if (kind === "bar") {
    const hatch =
      st.hatch === "" ? "" : `<rect width="22" height="12" fill="url(#${prefix}-${st.hatch})"/>`;
    return `<svg class="sample" width="22" height="12" aria-hidden="true"><rect width="22" height="12" fill="${st.color}"/>${hatch}</svg>`;
  }
  return `<svg class="sample" width="34" height="14" aria-hidden="true"><g stroke="${st.color}" fill="${st.color}"><line x1="1" x2="33" y1="7" y2="7" stroke-width="2"${st.dash === "" ? "" : ` stroke-dasharray="${st.dash}"`}/>${markerSvg(st.marker, 17, 7, 3.6)}</g></svg>`;
}
