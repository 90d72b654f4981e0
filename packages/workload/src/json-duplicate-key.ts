/** One open object or array while scanning: its key or index so far. */
interface Frame {
  /** The keys of an object seen so far; null for an array. */
  readonly keys: Set<string> | null;
  /** The current key (object) or index (array). */
  at: string | number;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

function pathOf(stack: readonly Frame[], key: string): string {
  let path = "";
  for (let i = 0; i < stack.length - 1; i++) {
    const at = (stack[i] as Frame).at;
    path += typeof at === "number" ? `[${at}]` : path === "" ? at : `.${at}`;
  }
  return path === "" ? key : `${path}.${key}`;
}

/**
 * The first key that appears twice in one object of `text`, as a path (`licenses.a`,
 * `jobs[3].res`), or null. `JSON.parse` keeps the last of two equal keys without a word, so
 * `{"runtime": 5, "runtime": 500}` would read as 500; the readers call this to refuse it. Keys
 * are compared as JSON reads them (`"a"` and `"\u0061"` are the same key).
 *
 * `text` must be valid JSON (call it after `JSON.parse` succeeded): it is scanned, not checked.
 *
 * Complexity: O(length of the text).
 *
 * @example
 * ```ts
 * duplicateJsonKey('{"id": 1, "x": {"a": 1, "a": 2}}'); // "x.a"
 * duplicateJsonKey('{"id": 1}'); // null
 * ```
 */
export function duplicateJsonKey(text: string): string | null {
  const stack: Frame[] = [];
  let expectKey = false;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      let j = i + 1;
      let escaped = false;
      for (;;) {
        const d = text.charCodeAt(j);
        if (d === BACKSLASH) {
          escaped = true;
          j += 2;
        } else if (d === QUOTE || Number.isNaN(d)) {
          break;
        } else {
          j++;
        }
      }
      if (expectKey) {
        const key = escaped ? (JSON.parse(text.slice(i, j + 1)) as string) : text.slice(i + 1, j);
        const top = stack[stack.length - 1] as Frame;
        const keys = top.keys as Set<string>;
        if (keys.has(key)) return pathOf(stack, key);
        keys.add(key);
        top.at = key;
        expectKey = false;
      }
      i = j;
      continue;
    }
    switch (c) {
      case 0x7b: // {
        stack.push({ keys: new Set(), at: "" });
        expectKey = true;
        break;
      case 0x5b: // [
        stack.push({ keys: null, at: 0 });
        break;
      case 0x7d: // }
      case 0x5d: // ]
        stack.pop();
        expectKey = false;
        break;
      case 0x2c: {
        // ,
        const top = stack[stack.length - 1];
        if (top === undefined) break;
        if (top.keys === null) top.at = (top.at as number) + 1;
        else expectKey = true;
        break;
      }
    }
  }
  return null;
}

/**
 * Whether `text` (valid JSON) may give a key twice in one object, knowing `value`, what
 * `JSON.parse(text)` returned: false when the key names in the text are exactly as many as the
 * own keys of every object of `value` (a repeated key is kept once, so it would leave fewer),
 * with no string and no set per object; {@link duplicateJsonKey} then finds which when true.
 * Internal (the native reader's check of each line).
 *
 * Complexity: O(length of the text).
 */
export function mayRepeatJsonKey(text: string, value: unknown): boolean {
  return jsonKeyCount(text) !== parsedKeyCount(value);
}

/** The key names in `text` (valid JSON): the strings followed by `:`. */
function jsonKeyCount(text: string): number {
  let count = 0;
  // indexOf finds each quote natively (a char loop in JS cost twice the time on job lines).
  let i = text.indexOf('"');
  while (i >= 0) {
    let j = text.indexOf('"', i + 1);
    while (j > 0 && escapedAt(text, j)) j = text.indexOf('"', j + 1);
    if (j < 0) break;
    // The next character that is not JSON white space: ':' after a key, never after a value.
    let k = j + 1;
    let d = text.charCodeAt(k);
    while (d === 0x20 || d === 0x09 || d === 0x0a || d === 0x0d) d = text.charCodeAt(++k);
    if (d === 0x3a) count++;
    i = text.indexOf('"', k);
  }
  return count;
}

/** Whether the quote at `j` is escaped: an odd number of backslashes just before it. */
function escapedAt(text: string, j: number): boolean {
  let k = j - 1;
  while (text.charCodeAt(k) === BACKSLASH) k--;
  return (j - 1 - k) % 2 === 1;
}

/** Own keys of every object in `value` (a parsed JSON value), walked without recursion. */
function parsedKeyCount(value: unknown): number {
  if (typeof value !== "object" || value === null) return 0;
  let count = 0;
  const stack: object[] = [value];
  while (stack.length > 0) {
    const v = stack.pop() as Record<string, unknown>;
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        const x: unknown = v[i];
        if (typeof x === "object" && x !== null) stack.push(x);
      }
      continue;
    }
    for (const k in v) {
      count++;
      const x = v[k];
      if (typeof x === "object" && x !== null) stack.push(x);
    }
  }
  return count;
}
