/**
 * Where the first JSON syntax error of `text` is, as a 1-based line and column (in UTF-16 code
 * units), or null when `text` is valid JSON (RFC 8259, what `JSON.parse` accepts). The error is
 * at the first character no JSON text can have there (`{"a": tru}`: the `}`), or at the end of a
 * text cut short. Node 20's `JSON.parse` says "at position 18" for some errors, at the same
 * place, and nothing for others (`[1,]`); a person editing a file wants the line.
 *
 * Complexity: O(length of the text).
 *
 * @example
 * jsonSyntaxErrorAt('{\n  "a": [1,]\n}') // { line: 2, column: 11 }
 * jsonSyntaxErrorAt('{"a": 1}') // null
 */
export function jsonSyntaxErrorAt(text: string): { line: number; column: number } | null {
  let at: number | null;
  try {
    at = firstError(text);
  } catch {
    return null; // nested deeper than the stack allows: no position, JSON.parse's message alone
  }
  if (at === null) return null;
  let line = 1;
  let start = 0;
  for (let i = 0; i < at; i++) {
    if (text.charCodeAt(i) === 0x0a) {
      line++;
      start = i + 1;
    }
  }
  return { line, column: at - start + 1 };
}

const HEX = /^[0-9a-fA-F]$/;
const LITERALS: Readonly<Record<string, string>> = { t: "true", f: "false", n: "null" };

/** Whether `c` is an ASCII digit (false past the end, where `c` is undefined). */
function isDigit(c: string | undefined): boolean {
  return c !== undefined && c >= "0" && c <= "9";
}

/**
 * The offset of the first error, or null: the first character at which `text` stops being the
 * start of some JSON text (the end of `text` when it is such a start but not JSON itself). This
 * is where Node 20's `JSON.parse` puts its "at position N".
 */
function firstError(text: string): number | null {
  let i = 0;
  const n = text.length;
  const space = (): void => {
    while (i < n) {
      const c = text.charCodeAt(i);
      if (c !== 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) return;
      i++;
    }
  };
  // Each returns false at the offset `i` of the error.
  const string = (): boolean => {
    if (text[i] !== '"') return false;
    i++;
    while (i < n) {
      const c = text.charCodeAt(i);
      if (c === 0x22) {
        i++;
        return true;
      }
      if (c < 0x20) return false;
      if (c === 0x5c) {
        const e = text[i + 1];
        if (e === "u") {
          // At the first character that is not a hex digit, as JSON.parse says.
          const end = i + 6;
          i += 2;
          for (; i < end; i++) if (!HEX.test(text[i] ?? "")) return false;
        } else if (e !== undefined && '"\\/bfnrt'.includes(e)) i += 2;
        else {
          i++;
          return false;
        }
      } else i++;
    }
    return false;
  };
  const value = (): boolean => {
    space();
    const c = text[i];
    if (c === "{" || c === "[") {
      const close = c === "{" ? "}" : "]";
      i++;
      space();
      if (text[i] === close) {
        i++;
        return true;
      }
      for (;;) {
        if (c === "{") {
          space();
          if (!string()) return false;
          space();
          if (text[i] !== ":") return false;
          i++;
        }
        if (!value()) return false;
        space();
        if (text[i] === ",") {
          i++;
          continue;
        }
        if (text[i] !== close) return false;
        i++;
        return true;
      }
    }
    if (c === '"') return string();
    const word = c === undefined ? undefined : LITERALS[c];
    if (word !== undefined) {
      for (let k = 0; k < word.length; k++, i++) if (text[i] !== word[k]) return false;
      return true;
    }
    return number();
  };
  const digits = (): number => {
    const from = i;
    while (isDigit(text[i])) i++;
    return i - from;
  };
  // A number, character by character: the error is at the first one the grammar refuses.
  const number = (): boolean => {
    if (text[i] === "-") i++;
    if (text[i] === "0") i++;
    else if (digits() === 0) return false;
    if (text[i] === ".") {
      i++;
      if (digits() === 0) return false;
    }
    if (text[i] === "e" || text[i] === "E") {
      i++;
      if (text[i] === "+" || text[i] === "-") i++;
      if (digits() === 0) return false;
    }
    return true;
  };
  if (!value()) return i;
  space();
  return i < n ? i : null;
}

/**
 * Where a JSON text stops being JSON, and what `JSON.parse` said of it, for a reader's message:
 * the 1-based line and column (UTF-16 code units) of the first error when it could be found
 * (see {@link jsonSyntaxErrorAt}), and `JSON.parse`'s message, without its "at position N" when
 * the line and column say it.
 */
export type JsonSyntaxError =
  | { readonly line: number; readonly column: number; readonly message: string }
  | { readonly line?: undefined; readonly column?: undefined; readonly message: string };

/** Line breaks as a one-line message writes them. */
const ESCAPED: Readonly<Record<string, string>> = {
  "\r\n": "\\r\\n",
  "\r": "\\r",
  "\n": "\\n",
  "\u2028": "\\u2028",
  "\u2029": "\\u2029",
};

/**
 * The syntax error of `text`, which `JSON.parse` refused with `error`: its line and column
 * ({@link jsonSyntaxErrorAt}) and `JSON.parse`'s words, so that every reader of a JSON file
 * says `FILE:LINE:COLUMN: … not valid JSON …` as the experiment files do.
 *
 * Complexity: O(length of the text).
 *
 * @example
 * ```ts
 * try { JSON.parse(text) } catch (e) { jsonSyntaxError('{\n  "a": [1,]\n}', e) }
 * // { line: 2, column: 11, message: "Unexpected token ']'" }
 * ```
 */
export function jsonSyntaxError(text: string, error: unknown): JsonSyntaxError {
  // V8 may quote a snippet of the text, line breaks included: kept on one line.
  const said = (error instanceof Error ? error.message : String(error)).replace(
    /\r\n|[\r\n\u2028\u2029]/g,
    (c) => ESCAPED[c] ?? "\\n",
  );
  const at = jsonSyntaxErrorAt(text);
  if (at === null) return { message: said };
  // The line and column say where: V8's position and its snippet of the text go.
  const message = said
    .replace(/ (?:in JSON )?at position \d+(?: \(line \d+ column \d+\))?/, "")
    .replace(/, (?:\.\.\.)?"[\s\S]*"(?:\.\.\.)? is not valid JSON$/, "");
  return { ...at, message };
}
