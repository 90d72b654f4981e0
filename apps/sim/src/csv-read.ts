/** One record of a CSV text: its fields, and the 1-based line it starts on. */
export interface CsvRecord {
  readonly fields: readonly string[];
  readonly line: number;
}

/**
 * The records of an RFC 4180 CSV text, as {@link toCsv} writes them (`format.ts`): fields
 * separated by commas, quoted when they hold a comma, quote or line break (a quote doubled
 * inside), records ending with `\n` (or `\r\n`). A last record without a line end counts; an
 * empty text has none. Returns null when a quoted field is never closed (the text was cut).
 *
 * Complexity: O(length of the text).
 *
 * @example
 * readCsvRecords('a,b\n"x,1",2\n') // [{ fields: ["a", "b"], line: 1 }, { fields: ["x,1", "2"], line: 2 }]
 */
export function readCsvRecords(text: string): CsvRecord[] | null {
  const records: CsvRecord[] = [];
  let fields: string[] = [];
  let field = "";
  let quoted = false;
  let line = 1;
  let start = 1;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text[i] as string;
    if (quoted) {
      if (c !== '"') {
        if (c === "\n") line++;
        field += c;
      } else if (text[i + 1] === '"') {
        field += '"';
        i++;
      } else quoted = false;
    } else if (c === '"' && field === "") quoted = true;
    else if (c === ",") {
      fields.push(field);
      field = "";
    } else if (c === "\n" || (c === "\r" && text[i + 1] === "\n")) {
      if (c === "\r") i++;
      fields.push(field);
      records.push({ fields, line: start });
      fields = [];
      field = "";
      line++;
      start = line;
    } else field += c;
  }
  if (quoted) return null;
  if (field !== "" || fields.length > 0) {
    fields.push(field);
    records.push({ fields, line: start });
  }
  return records;
}
