import { pageKit } from "./page-kit.js";

/** `text` safe inside HTML/SVG element content and double- or single-quoted attributes. */
export function escapeHtml(text: string): string {
  return text
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;")
    .replaceAll("'", "&#39;");
}

/** A coordinate for SVG: at most 2 decimals, no `-0`, so output is byte-stable. */
export function coord(x: number): string {
  const r = Math.round(x * 100) / 100;
  return String(Object.is(r, -0) ? 0 : r);
}

/** Eight colours distinguishable by most readers (Okabe-Ito, black replaced by grey). */
export const PALETTE = [
  "#0072B2",
  "#D55E00",
  "#009E73",
  "#CC79A7",
  "#E69F00",
  "#56B4E9",
  "#F0E442",
  "#7f7f7f",
] as const;

const kit = pageKit();

/**
 * About `count` round tick values covering [lo, hi] (steps of 1, 2 or 5 times a power of ten).
 * @example niceTicks(0, 97, 5) // [0, 20, 40, 60, 80, 100]
 */
export const niceTicks: (lo: number, hi: number, count?: number) => number[] = kit.niceTicks;

/** A tick label: integers plainly, small numbers with up to 4 significant digits, big ones with k/M. */
export const tickLabel: (v: number) => string = kit.tickLabel;
