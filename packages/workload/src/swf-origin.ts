import type { SwfRecord } from "./swf-record.js";

/**
 * Where the records of an iterable came from: the text they were read from, and the line of each.
 * Internal: the readers register the iterables they return (a `parseSwf` records array, a
 * `readSwfLines` generator), so that `swfToJobs` on them names `source:line` when a record fails
 * the conversion, instead of the record's index.
 */
export interface SwfOrigin {
  /** The name of the text (a file name, usually). */
  readonly source: string;
  /**
   * The 1-based line of `record`, the `index`-th record the conversion took from the iterable
   * (0-based), or 0 when it is not known (a record the caller put there). Called only when the
   * record fails the conversion, and before the iterable moves on.
   */
  line(record: SwfRecord, index: number): number;
}

/** The iterables the readers returned, weakly: an entry lives as long as its iterable. */
const ORIGINS = new WeakMap<object, SwfOrigin>();

/** Registers where the records of `records` came from. Returns `records`. */
export function withSwfOrigin<T extends object>(records: T, origin: SwfOrigin): T {
  ORIGINS.set(records, origin);
  return records;
}

/** Where the records of `records` came from, when a reader of this package returned it. */
export function swfOriginOf(records: object): SwfOrigin | null {
  return ORIGINS.get(records) ?? null;
}

/**
 * The origin of a records array read whole: `lines[k]` is the line of `records[k]` as read. The
 * caller may reorder, filter or extend the array before converting it (it is a plain array), so
 * a record is looked up by identity in a copy taken at reading (only when it fails, O(n) then).
 */
export function arrayOrigin(
  source: string,
  records: readonly SwfRecord[],
  lines: readonly number[],
): SwfOrigin {
  const read = records.slice();
  return {
    source,
    line(record, index) {
      const k = read[index] === record ? index : read.indexOf(record);
      return k < 0 ? 0 : lines[k]!;
    },
  };
}
