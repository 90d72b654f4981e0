/**
 * `text` with every control character written as `\u001b` (the escape the error messages use:
 * see `oneLine` in run-command.ts): a path echoed back to the terminal ("wrote PATH", "-> PATH")
 * that holds an escape sequence or a carriage return would otherwise move the cursor, overwrite
 * the line or change the terminal's colours. A newline or tab in a path is escaped too (the
 * message stays on one line).
 */
export function printable(text: string): string {
  return text.replace(
    // biome-ignore lint/suspicious/noControlCharactersInRegex: the characters to escape
    /[\u0000-\u001f\u007f-\u009f]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}
