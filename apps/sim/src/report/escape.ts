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

/**
 * About `count` round tick values covering [lo, hi] (steps of 1, 2 or 5 times a power of ten).
 * @example niceTicks(0, 97, 5) // [0, 20, 40, 60, 80, 100]
 */
export function niceTicks(lo: number, hi: number, count = 5): number[] {
  if (!(hi > lo)) return [lo];
  const raw = (hi - lo) / Math.max(1, count);
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = ([1, 2, 5, 10].find((m) => m * power >= raw) ?? 10) * power;
  const first = Math.floor(lo / step + 1e-9);
  const last = Math.ceil(hi / step - 1e-9);
  const ticks: number[] = [];
  for (let i = first; i <= last; i++) ticks.push(Number((i * step).toPrecision(12)));
  return ticks;
}

/** A tick label: integers plainly, small numbers with up to 4 significant digits, big ones with k/M. */
export function tickLabel(v: number): string {
  const a = Math.abs(v);
  if (a >= 1e6) return `${Number((v / 1e6).toPrecision(4))}M`;
  if (a >= 1e4) return `${Number((v / 1e3).toPrecision(4))}k`;
  return String(Number(v.toPrecision(4)));
}
