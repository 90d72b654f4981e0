/**
 * `text` with every control character written as `\u001b`: a path echoed back to the terminal
 * ("wrote PATH", "-> PATH") or a value quoted in an error message that holds an escape sequence
 * or a carriage return would otherwise move the cursor, overwrite the line or change the
 * terminal's colours. A newline is escaped too (the message stays on one line), and a tab unless
 * `keepTabs` (error messages quote trace lines, whose fields tabs may separate).
 */
export function printable(text: string, keepTabs = false): string {
  return text.replace(keepTabs ? CONTROL_BUT_TAB : CONTROL, unicodeEscape);
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: the characters to escape
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/g;
// biome-ignore lint/suspicious/noControlCharactersInRegex: the characters to escape
const CONTROL_BUT_TAB = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f]/g;

function unicodeEscape(c: string): string {
  return `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`;
}
