/**
 * Deterministic text output: numbers, CSV, JSON with sorted keys, aligned tables. Same values,
 * same bytes, on every platform.
 */

/**
 * A number for a file: integers as they are; other finite numbers rounded to 6 decimals, written
 * in the shortest form that reads back as that rounded value; non-finite as `""` (CSV) — see
 * {@link jsonNumber} for JSON.
 */
export function formatNumber(x: number): string {
  if (!Number.isFinite(x)) return "";
  if (Number.isInteger(x)) return String(x);
  const rounded = Math.round(x * 1e6) / 1e6;
  return String(Object.is(rounded, -0) ? 0 : rounded);
}

/**
 * Whether `x` reads back from {@link formatNumber}'s text as itself: at most 6 decimals (or an
 * integer). A sweep's grid values must: run files, `runs.csv` and `results.csv` write them so,
 * and a run is found again by the values its file holds.
 */
export function keepsItsDigits(x: number): boolean {
  return Number.isFinite(x) && Number(formatNumber(x)) === x;
}

/** What a grid value must be, for messages (see {@link keepsItsDigits}). */
export const GRID_DIGITS =
  "a number with at most 6 decimals (run files and the CSVs write grid values with 6)";

/** A number for a table: `digits` decimals (integers with none when `digits` is 0); `-` when not finite. */
export function fixed(x: number, digits: number): string {
  if (!Number.isFinite(x)) return "-";
  return x.toFixed(digits);
}

/** One CSV field: quoted when it holds a comma, quote or line break (RFC 4180). */
export function csvField(value: string | number | boolean | null | undefined): string {
  if (value === null || value === undefined) return "";
  const text =
    typeof value === "number"
      ? formatNumber(value)
      : typeof value === "boolean"
        ? `${value}`
        : value;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** A CSV document: a header line, then one line per row, each ending with `\n`. */
export function toCsv(
  header: readonly string[],
  rows: Iterable<readonly (string | number | boolean | null | undefined)[]>,
): string {
  const lines = [header.map(csvField).join(",")];
  for (const row of rows) lines.push(row.map(csvField).join(","));
  return `${lines.join("\n")}\n`;
}

/** A JSON value the writer accepts. */
export type JsonValue =
  | null
  | boolean
  | number
  | string
  | readonly JsonValue[]
  | { readonly [key: string]: JsonValue | undefined };

/** Options of {@link stableJson}. */
export interface StableJsonOptions {
  /**
   * Write every finite number exactly (the shortest text that reads back as the same double)
   * instead of rounded to 6 decimals: for documents that are read back as inputs, such as a
   * sweep's `experiment.json`, whose grid values must be the ones the runs used.
   * @defaultValue false
   */
  readonly exact?: boolean;
}

/**
 * JSON with object keys sorted (by UTF-16 code units), numbers as {@link formatNumber} writes them
 * (or exactly, with `options.exact`; non-finite as `null`), two-space indentation and a final
 * newline. Keys whose value is `undefined` are left out.
 */
export function stableJson(value: JsonValue, options: StableJsonOptions = {}): string {
  const number = options.exact === true ? exactNumber : formatNumber;
  return `${write(value, "", number)}\n`;
}

/** A finite number in the shortest text that reads back as the same double (`-0` as `0`). */
function exactNumber(x: number): string {
  return Object.is(x, -0) ? "0" : JSON.stringify(x);
}

function write(
  value: JsonValue | undefined,
  indent: string,
  number: (x: number) => string,
): string {
  if (value === null || value === undefined) return "null";
  if (typeof value === "number") return Number.isFinite(value) ? number(value) : "null";
  if (typeof value === "boolean") return value ? "true" : "false";
  if (typeof value === "string") return JSON.stringify(value);
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    if (value.length === 0) return "[]";
    return `[\n${value.map((v) => inner + write(v, inner, number)).join(",\n")}\n${indent}]`;
  }
  const record = value as { readonly [key: string]: JsonValue | undefined };
  const keys = Object.keys(record)
    .filter((k) => record[k] !== undefined)
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  if (keys.length === 0) return "{}";
  return `{\n${keys.map((k) => `${inner}${JSON.stringify(k)}: ${write(record[k], inner, number)}`).join(",\n")}\n${indent}}`;
}

/** A column of a {@link renderTable} table. */
export interface Column {
  readonly title: string;
  /** Right-aligned (numbers) or left-aligned (text). */
  readonly align: "left" | "right";
}

/** A plain-text table: a header row, a rule, then the rows, columns separated by two spaces. */
export function renderTable(
  columns: readonly Column[],
  rows: readonly (readonly string[])[],
): string {
  // A loop over the rows, not a spread into Math.max: a table of more than about 130,000 rows
  // (a compare over a large sweep) would overflow the call stack.
  const widths = columns.map((c, j) => {
    let w = c.title.length;
    for (const r of rows) w = Math.max(w, (r[j] ?? "").length);
    return w;
  });
  const line = (cells: readonly string[]): string =>
    columns
      .map((c, j) => {
        const cell = cells[j] ?? "";
        const w = widths[j] as number;
        return c.align === "right" ? cell.padStart(w) : cell.padEnd(w);
      })
      .join("  ")
      .trimEnd();
  const out = [line(columns.map((c) => c.title)), widths.map((w) => "-".repeat(w)).join("  ")];
  for (const r of rows) out.push(line(r));
  return `${out.join("\n")}\n`;
}

/** `text` with its words re-flowed into lines of at most `width` characters (longer words alone). */
export function wrap(text: string, width = 80): string {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(/\s+/).filter((w) => w !== "")) {
    if (line !== "" && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else {
      line = line === "" ? word : `${line} ${word}`;
    }
  }
  if (line !== "") lines.push(line);
  return lines.join("\n");
}

/**
 * `text` wrapped to `width` columns after `label`, which is padded to `indent` columns; the
 * following lines are indented by `indent` spaces (a label longer than that gets its own line).
 */
export function hanging(label: string, text: string, indent: number, width = 100): string {
  const body = wrap(text, Math.max(20, width - indent)).split("\n");
  const pad = " ".repeat(indent);
  const first = label.length < indent ? label.padEnd(indent) : `${label}\n${pad}`;
  return `${first}${body.join(`\n${pad}`)}`;
}

/** A duration for a progress line: `42s`, `3m05s`, `1h02m`. */
export function shortDuration(ms: number): string {
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, "0")}s`;
  return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, "0")}m`;
}
