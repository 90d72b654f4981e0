import { InvalidInputError } from "@sched/core";
import { describeValue } from "@sched/errors";
import { requireIterable } from "./require-iterable.js";
import { type formatSwfHeader, type SwfHeader, swfHeaderLines } from "./swf-header.js";
import { SWF_FIELDS, type SwfRecord } from "./swf-record.js";

/**
 * Minimum column widths, as in the archive's files (right-aligned). Internal (not re-exported by
 * the index): shared with `SwfWriter` (swf-writer.ts), which writes the same columns as bytes.
 */
export const SWF_WIDTHS: readonly number[] = [6, 9, 7, 7, 5, 7, 6, 5, 7, 6, 3, 4, 4, 4, 3, 3, 3, 3];
const BLANKS = "          ";

/**
 * One SWF data line (no line end): the 18 fields right-aligned in columns, each number written
 * in its shortest exact form (`552.21`, `-1`, `3600`), so reading it back gives the same values.
 *
 * Complexity: O(1).
 *
 * @throws InvalidInputError when a field is not a finite number.
 *
 * @example
 * ```ts
 * formatSwfRecord(swfRecord({ jobNumber: 1, submitTime: 0, runTime: 60, allocatedProcs: 4 }));
 * // "     1         0      -1      60     4      -1     -1    -1      -1     -1 -1   -1   -1   -1 -1 -1 -1 -1"
 * ```
 */
export function formatSwfRecord(record: SwfRecord): string {
  let line = "";
  for (let i = 0; i < SWF_FIELDS.length; i++) {
    const f = SWF_FIELDS[i]!;
    const v = record[f.key];
    if (typeof v !== "number" || !Number.isFinite(v)) {
      throw new InvalidInputError(
        "@sched/workload/formatSwfRecord",
        `record ${String(record.jobNumber)} ${f.key}`,
        `is ${describeValue(v)}, expected a finite number (-1 for unknown)`,
      );
    }
    const text = `${v}`;
    const pad = SWF_WIDTHS[i]! - text.length;
    line += (i === 0 ? "" : " ") + (pad > 0 ? BLANKS.slice(0, pad) + text : text);
  }
  return line;
}

/**
 * The lines of an SWF file, lazily: the header's comment lines, then one line per record. Use it
 * to write a large trace without building the whole text.
 *
 * Complexity: O(1) per line.
 *
 * @throws InvalidInputError when a record has a field that is not a finite number, or the
 * header would not read back as itself (see {@link formatSwfHeader}).
 *
 * @example
 * ```ts
 * for (const line of writeSwfLines(header, records)) out.write(`${line}\n`);
 * ```
 */
export function writeSwfLines(
  header: SwfHeader,
  records: Iterable<SwfRecord>,
): Generator<string, void, undefined> {
  return swfLines("@sched/workload/writeSwfLines", header, records);
}

function* swfLines(
  where: string,
  header: SwfHeader,
  records: Iterable<SwfRecord>,
): Generator<string, void, undefined> {
  yield* swfHeaderLines(where, header);
  for (const r of records) yield formatSwfRecord(r);
}

/**
 * A whole SWF text: header lines then data lines, each ending in `"\n"`.
 * `parseSwf(formatSwf(h, rs))` gives back `h` and `rs` (field for field).
 *
 * Complexity: O(number of records).
 *
 * @throws InvalidInputError when a record has a field that is not a finite number, or the
 * header would not read back as itself (see {@link formatSwfHeader}).
 *
 * @example
 * ```ts
 * const text = formatSwf({ ...emptySwfHeader(), maxProcs: 4 }, [swfRecord({ jobNumber: 1, runTime: 60 })]);
 * parseSwf(text).records[0].runTime; // 60
 * ```
 */
export function formatSwf(header: SwfHeader, records: Iterable<SwfRecord>): string {
  if (typeof header !== "object" || header === null) {
    throw new InvalidInputError(
      "@sched/workload/formatSwf",
      "header",
      `is ${describeValue(header)}, expected an SWF header (emptySwfHeader() for none)`,
    );
  }
  requireIterable("@sched/workload/formatSwf", "records", records, "SWF records");
  const parts: string[] = [];
  for (const line of swfLines("@sched/workload/formatSwf", header, records)) parts.push(line);
  parts.push("");
  return parts.join("\n");
}
