/** A decimal number: optional sign, digits with an optional fraction, optional exponent. */
const NUMBER_RE = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

/**
 * Reads one SWF field: a finite decimal number (`42`, `-1`, `552.21`, `1e3`), or null when the
 * text is anything else (`"1a3"`, `"0x10"`, `"NaN"`, `""`). Internal.
 */
export function parseSwfNumber(text: string): number | null {
  if (!NUMBER_RE.test(text)) return null;
  const n = Number(text);
  return Number.isFinite(n) ? n : null;
}

/** Exact powers of ten (10^22 is the last one a double holds exactly). Internal. */
export const POW10: readonly number[] = [
  1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17,
  1e18, 1e19, 1e20, 1e21, 1e22,
];

/**
 * {@link parseSwfNumber} of `text.slice(start, end)` without slicing, or NaN where it gives null
 * (NaN is never a field's value). Plain decimals of at most 15 significant digits (`-1`,
 * `3600`, `552.21`: every field of the archive's logs) are read digit by digit: the digits form
 * an integer m < 2^53 and the value is m / 10^k for k fraction digits, one correctly rounded
 * division of two exact doubles, so it equals `Number(text)` bit for bit (the classic fast path
 * of decimal-to-double conversion). Anything else (an exponent, more digits, a stray character)
 * goes through `parseSwfNumber` on the slice, so the accepted texts and values are exactly its
 * own. Internal.
 */
export function scanSwfNumber(text: string, start: number, end: number): number {
  let i = start;
  let c = text.charCodeAt(i);
  const negative = c === 45; /* - */
  if (negative || c === 43 /* + */) i++;
  let m = 0;
  let digits = 0;
  let fraction = -1;
  for (; i < end; i++) {
    c = text.charCodeAt(i);
    if (c >= 48 && c <= 57) {
      m = m * 10 + (c - 48);
      digits++;
    } else if (c === 46 /* . */ && fraction < 0) {
      fraction = i;
    } else {
      break;
    }
  }
  if (i === end && digits > 0 && digits <= 15) {
    const k = fraction < 0 ? 0 : end - fraction - 1;
    const v = k === 0 ? m : m / POW10[k]!;
    return negative ? -v : v;
  }
  return parseSwfNumber(text.slice(start, end)) ?? Number.NaN;
}
