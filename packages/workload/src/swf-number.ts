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

/**
 * Exact powers of ten (10^22 is the last one a double holds exactly), for the SWF line scanner's
 * fast path: a plain decimal of at most 15 digits forms an integer m < 2^53, and m / 10^k (k
 * fraction digits) is one correctly rounded division of two exact doubles, so it equals
 * `Number(text)` bit for bit (the classic fast path of decimal-to-double conversion). Internal.
 */
export const POW10: readonly number[] = [
  1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17,
  1e18, 1e19, 1e20, 1e21, 1e22,
];
