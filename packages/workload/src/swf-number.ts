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
