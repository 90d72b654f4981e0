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
