/** A decimal number: optional sign, digits with an optional fraction, optional exponent. */
const NUMBER_RE = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

/**
 * The largest magnitude an SWF field may have: 2^53 − 1, the largest integer a JavaScript
 * number holds exactly. Beyond it a job number, a time or a count would be rounded silently
 * (`9007199254740993` reads as `9007199254740992`), so the readers reject it.
 */
export const SWF_NUMBER_LIMIT = Number.MAX_SAFE_INTEGER;

/**
 * Reads one SWF field: a decimal number (`42`, `-1`, `552.21`, `1e3`) of magnitude at most
 * {@link SWF_NUMBER_LIMIT}, or null when the text is anything else (`"1a3"`, `"0x10"`, `"NaN"`,
 * `""`, `"1e400"`, `"9007199254740993"`); {@link swfNumberProblem} says which. Internal.
 */
export function parseSwfNumber(text: string): number | null {
  if (!NUMBER_RE.test(text)) return null;
  const n = Number(text);
  return n <= SWF_NUMBER_LIMIT && n >= -SWF_NUMBER_LIMIT ? n : null;
}

/**
 * Why {@link parseSwfNumber} rejected `text`, for an error message: `"1a3" is not a number`, or
 * `"1e20" is beyond ±9007199254740991 (2^53 − 1), where numbers are no longer exact`. Internal.
 */
export function swfNumberProblem(text: string): string {
  const shown = JSON.stringify(text.length > 40 ? `${text.slice(0, 40)}…` : text);
  if (!NUMBER_RE.test(text)) return `${shown} is not a number`;
  return `${shown} is beyond ±${SWF_NUMBER_LIMIT} (2^53 − 1), where numbers are no longer exact`;
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
